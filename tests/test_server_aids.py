"""The map aids' server side (server/aids.py): where a unit may go, shaded from the rules'
own legality and from nothing the side has not seen; what could be seen from a point, from
the public map alone; the table's unit for the tape."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from fibua.battlefield.model import Position
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import find_ruleset
from fibua.server.aids import REACH_ALWAYS, REACH_MOST, cells_of, grid_of, on_table
from fibua.server.hub import LiveGame
from server_helpers import auth, client_on, server, settled, wait_until

SEED = 3
#: a scenario of each rule set, and an order kind that sends a unit to a point
CASES = [
    ("corner-shop", "move"),            # Street Fight
    ("ramp-houses", "move"),            # House Clearing
    ("normandy-village", "flat-out"),   # Street Fighter
    ("village-street", "run"),          # Buildings
]
#: cells the reach left out that are put to the rules again
OMITTED_SAMPLE = 60


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def all_human(client: TestClient, scenario: str) -> dict[str, Any]:
    """A game with every seat a person's, so nothing moves but what the test asks."""
    loaded = server(client).hub.bundled(scenario)
    ruleset = find_ruleset(loaded.ruleset)
    seats = {s.name: "human" for side in loaded.side_names
             for s in ruleset.seats(loaded, side)}
    answer = client.post("/api/games", json={"scenario": scenario, "seed": SEED,
                                             "seats": seats})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    wait_until(lambda: settled(client, made["id"]))
    return made


def acting(client: TestClient, made: dict[str, Any], kind: str
           ) -> tuple[str, str, str]:
    """A seat that may act now with a unit that has a listed order of `kind`: (seat's
    token, its side, the unit)."""
    live = server(client).hub.games[made["id"]]
    for name, token in made["seat_tokens"].items():
        plan = live.seat(name)
        if plan is None or plan.side != live.game.to_act():
            continue
        orders = client.get(f"/api/games/{made['id']}/orders", headers=auth(token)).json()
        for order in orders["legal"]:
            if order["kind"] == kind and "to" in order["params"]:
                return token, plan.side, order["unit"]
    raise AssertionError(f"no seat may give a {kind} order now")


def reach(client: TestClient, made: dict[str, Any], token: str | None, unit: str,
          kind: str, **more: str) -> Any:
    headers = auth(token) if token is not None else {}
    return client.get(f"/api/games/{made['id']}/reach",
                      params={"unit": unit, "kind": kind, **more}, headers=headers)


def replica(live: LiveGame) -> Game:
    """The game rebuilt from its orders, for asking the rules apart from the server."""
    game = Game(live.game.scenario, live.game.seed)
    for order in live.game.orders:
        game.apply(order)
    return game


def allowed(game: Game, side: str, unit: str, kind: str, param: str,
            point: tuple[float, float]) -> bool:
    return game.ruleset.allows(game.state, Order(side, kind, unit, {param: list(point)}))


@pytest.mark.parametrize(("scenario", "kind"), CASES)
def test_reach_is_what_the_rules_allow(client: TestClient, scenario: str, kind: str) -> None:
    """Every cell shaded is a place the rules let the unit go with that order; cells left
    out, among those always tried, are places they refuse."""
    made = all_human(client, scenario)
    token, side, unit = acting(client, made, kind)
    answer = reach(client, made, token, unit, kind)
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["param"] == "to" and found["kind"] == kind and found["unit"] == unit
    grid, shaded = grid_of(found), cells_of(found)
    game = replica(server(client).hub.games[made["id"]])
    table = game.scenario.battlefield.table
    assert shaded, "no place at all to go"
    for row, col in shaded:
        assert allowed(game, side, unit, kind, "to", grid.centre(row, col)), (row, col)
    tried = [(row, col) for row in range(REACH_MOST - REACH_ALWAYS, REACH_MOST + REACH_ALWAYS + 1)
             for col in range(REACH_MOST - REACH_ALWAYS, REACH_MOST + REACH_ALWAYS + 1)
             if (row, col) not in shaded and on_table(table, *grid.centre(row, col))]
    assert tried, "every place was allowed: the grid is too small to show the edge"
    for row, col in random.Random(scenario).sample(tried, min(OMITTED_SAMPLE, len(tried))):
        assert not allowed(game, side, unit, kind, "to", grid.centre(row, col)), (row, col)


def pieces(game: Game) -> dict[str, Any]:
    found: dict[str, Any] = getattr(game.state, "figures", None) or game.state.units
    return found


def put(game: Game, piece: Any, x: float, y: float) -> None:
    """Stand a piece at (x, y) on the ground, behind the rules' back."""
    section = game.state.sight.section_at((x, y))
    if hasattr(piece, "models"):  # a Buildings unit: its models move together
        dx, dy = x - piece.lead.x, y - piece.lead.y
        for model in piece.models:
            model.x, model.y = model.x + dx, model.y + dy
        piece.section, piece.floor = section, 0
    else:
        piece.pos = replace(piece.pos, x=x, y=y, section=section, floor=0) \
            if isinstance(piece.pos, Position) else piece.pos


@pytest.mark.parametrize(("scenario", "kind"), CASES)
def test_unseen_enemies_moving_change_no_reach(client: TestClient, scenario: str,
                                               kind: str) -> None:
    """Enemies the side has not in sight, stood on the very places the unit may go, change
    nothing of the shading (nor of the seat's message: they stay unseen)."""
    made = all_human(client, scenario)
    token, side, unit = acting(client, made, kind)
    live = server(client).hub.games[made["id"]]
    game = live.game
    before = reach(client, made, token, unit, kind).json()
    message = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
    in_sight = {e["id"] for e in game.view(side)["enemies"] if e.get("visible_now")}
    unseen = [p for p in pieces(game).values() if p.side != side and p.id not in in_sight]
    assert unseen, "every enemy is in sight"
    grid = grid_of(before)
    places = sorted(cells_of(before))
    assert places
    kept = [(p, (p.section, p.floor, [(m.x, m.y) for m in p.models])
             if hasattr(p, "models") else p.pos) for p in unseen]
    try:
        for n, piece in enumerate(unseen):
            put(game, piece, *grid.centre(*places[(n * 7) % len(places)]))
        live.changed()  # moved behind the hub's back: what it kept is worked out anew
        after = reach(client, made, token, unit, kind).json()
        message_after = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
    finally:
        for piece, was in kept:
            if hasattr(piece, "models"):
                piece.section, piece.floor, spots = was
                for model, (x, y) in zip(piece.models, spots, strict=True):
                    model.x, model.y = x, y
            else:
                piece.pos = was
        live.changed()
    assert message_after == message
    assert after == before


def test_reach_is_for_the_seat_s_own_units_while_it_may_act(client: TestClient) -> None:
    made = all_human(client, "corner-shop")
    token, side, unit = acting(client, made, "move")
    live = server(client).hub.games[made["id"]]
    assert reach(client, made, None, unit, "move").status_code == 403
    assert reach(client, made, "not-a-token", unit, "move").status_code == 403
    assert reach(client, made, made["spectator_token"], unit, "move").status_code == 403
    assert reach(client, made, made["creator_token"], unit, "move").status_code == 403
    enemy = next(p.id for p in pieces(live.game).values() if p.side != side)
    refused = reach(client, made, token, enemy, "move")
    assert refused.status_code == 422 and refused.json()["error"] == "not-your-unit"
    other = next(t for name, t in made["seat_tokens"].items()
                 if live.seat(name) is not None and live.seat(name).side != side)
    waiting = reach(client, made, other, enemy, "move")
    assert waiting.status_code == 409, waiting.text
    bad = reach(client, made, token, unit, "move", params="[1, 2")
    assert bad.status_code == 400
    assert reach(client, made, token, unit, "move", params="[1, 2]").status_code == 422


def test_reach_names_an_unseen_enemy_as_it_names_nobody(client: TestClient) -> None:
    """Another order's parameters may name an enemy: one the side has not seen is answered
    as a name nobody has."""
    made = all_human(client, "corner-shop")
    token, side, unit = acting(client, made, "move")
    live = server(client).hub.games[made["id"]]
    in_sight = {e["id"] for e in live.game.view(side)["enemies"] if e.get("visible_now")}
    hidden = next(p.id for p in pieces(live.game).values()
                  if p.side != side and p.id not in in_sight)
    named = reach(client, made, token, unit, "move", params=f'{{"floor": "{hidden}"}}')
    nobody = reach(client, made, token, unit, "move", params='{"floor": "nobody"}')
    assert named.status_code == nobody.status_code == 200
    assert named.json() == nobody.json()


# -- sight from a point ------------------------------------------------------------------------


def sight(client: TestClient, made: dict[str, Any], token: str, x: float, y: float,
          floor: int = 0) -> dict[str, Any]:
    answer = client.get(f"/api/games/{made['id']}/sight",
                        params={"x": x, "y": y, "floor": floor}, headers=auth(token))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_building_hides_what_lies_behind_it(client: TestClient) -> None:
    """From just outside a building's wall, the ground straight across the building is out
    of sight, and less of the table is in view than from the open road."""
    made = all_human(client, "corner-shop")
    battlefield = server(client).hub.games[made["id"]].game.scenario.battlefield
    section = battlefield.buildings[0].sections[0]
    xs = [p[0] for p in section.footprint]
    ys = [p[1] for p in section.footprint]
    middle_y = (min(ys) + max(ys)) / 2
    west, east = (min(xs) - 1.0, middle_y), (max(xs) + 1.0, middle_y)
    token = made["spectator_token"]
    behind = sight(client, made, token, *west)
    grid = grid_of(behind)
    across = (int(east[1] // grid.cell), int(east[0] // grid.cell))
    assert across not in cells_of(behind)
    table = battlefield.table
    engine = server(client).hub.games[made["id"]].game.state.sight
    open_points = [(x, y) for x in (1.0, table.width / 2, table.width - 1.0)
                   for y in (1.0, table.height / 2, table.height - 1.0)
                   if engine.section_at((x, y)) is None]
    widest = max(len(cells_of(sight(client, made, token, *p))) for p in open_points)
    assert len(cells_of(behind)) < widest


def test_sight_never_depends_on_troops(client: TestClient) -> None:
    """The shading is the map's alone: every troop of both sides moved elsewhere, a seat's
    answer is the same, and the same as the spectators'."""
    made = all_human(client, "ramp-houses")
    live = server(client).hub.games[made["id"]]
    game = live.game
    token = next(iter(made["seat_tokens"].values()))
    table = game.scenario.battlefield.table
    points = [(table.width / 3, table.height / 3), (table.width / 2, table.height * 0.8)]
    before = [sight(client, made, token, *p) for p in points]
    kept = {p.id: p.pos for p in pieces(game).values()}
    rnd = random.Random(1)
    try:
        for piece in pieces(game).values():
            put(game, piece, rnd.uniform(0, table.width), rnd.uniform(0, table.height))
        live.changed()
        after = [sight(client, made, token, *p) for p in points]
    finally:
        for piece in pieces(game).values():
            piece.pos = kept[piece.id]
        live.changed()
    assert after == before
    assert [sight(client, made, made["spectator_token"], *p) for p in points] == before


def test_sight_refuses_what_is_no_point(client: TestClient) -> None:
    made = all_human(client, "corner-shop")
    path = f"/api/games/{made['id']}/sight"
    token = auth(made["spectator_token"])
    assert client.get(path, params={"x": 1, "y": 1}).status_code == 403
    assert client.get(path, params={"x": -1, "y": 1}, headers=token).status_code == 422
    assert client.get(path, params={"x": "nan", "y": 1}, headers=token).status_code == 422
    assert client.get(path, params={"x": 1}, headers=token).status_code == 422
    assert client.get(path, params={"x": 1, "y": 1, "floor": -1},
                      headers=token).status_code == 422


def test_the_table_says_its_unit(client: TestClient) -> None:
    for scenario, unit in (("corner-shop", "inch"), ("normandy-village", "cm")):
        made = all_human(client, scenario)
        table = client.get(f"/api/games/{made['id']}/table").json()
        assert table["unit"] == unit and table["width"] > 0 and table["height"] > 0
