"""The game page's map layer (server/maplayer.py, in every message): built from the side's
view and events alone. Each field is there when the view carries what it draws; a
spectator gets the map's floors and no troop until the end, then every troop; and moving
an enemy the side cannot see changes nothing the seat is told."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.events import Event
from fibua.core.game import Game, LegalOrders
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.server.maplayer import (
    COMPASS_DEGREES,
    fire_reports,
    floors,
    section_states,
    side_layer,
    unit_marks,
)
from server_helpers import auth, client_on, create, seat_state, server, settled, state, wait_until

if TYPE_CHECKING:
    from starlette.testclient import TestClient

SEED = 2


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def played(name: str, until: Callable[[Game], bool], limit: int = 400) -> Game:
    """A game of the bundled scenario played by the computer until `until` holds."""
    scenario = load_scenario(bundled_scenarios()[name])
    game = Game(scenario, SEED)
    players = {s: game.ruleset.computer(s, SEED) for s in scenario.side_names}
    for _ in range(limit):
        side = game.to_act()
        if side is None or until(game):
            break
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    assert until(game), "the game never got there"
    return game


def layer_of(game: Game, side: str) -> dict[str, Any]:
    return side_layer(game.scenario, game.view(side), game.log_for(side))


# -- each field from what the view carries ------------------------------------------------


def test_floors_come_from_the_public_map() -> None:
    scenario = load_scenario(bundled_scenarios()["corner-shop"])
    found = floors(scenario)
    sections = {s.id: s.levels for b in scenario.battlefield.buildings for s in b.sections}
    assert found == {"count": max(sections.values()), "sections": sections}
    assert found["count"] == 2


def test_section_states_are_taken_when_the_view_carries_them() -> None:
    assert section_states({}) == {}
    view = {"section_states": {"a": "burning", "b": "rubble", "c": "intact", "d": "painted"}}
    assert section_states(view) == {"a": "burning", "b": "rubble"}
    listed = {"section_states": [{"section": "a", "state": "burning"}, {"section": "b"}]}
    assert section_states(listed) == {"a": "burning"}


@pytest.mark.parametrize(("unit", "kinds"), [
    ({"id": "f", "overwatch": {"x": 1.0, "y": 2.0, "radius": 3.0, "large": False}}, ["overwatch"]),
    ({"id": "f", "overwatch": None, "aim": 2}, ["aim"]),
    ({"id": "f", "aim": 0, "full_cover": True}, ["cover"]),
    ({"id": "u", "activity": "observing", "pinned": True}, ["observing", "pinned"]),
    ({"id": "u", "activity": "moved", "pinned": False}, []),
    ({"id": "h", "ducked": True, "loading": True}, ["ducked", "loading"]),
    ({"id": "h", "ambush": True}, ["ambush"]),
])
def test_marks_follow_the_units_fields(unit: dict[str, Any], kinds: list[str]) -> None:
    assert [m["kind"] for m in unit_marks(unit, frozenset())] == kinds


def test_a_reaction_firer_is_marked() -> None:
    view = {"own": [{"id": "a"}, {"id": "b"}], "reaction": {"mover": None, "firers": ["b"]}}
    assert side_layer(load_scenario(bundled_scenarios()["ramp-houses"]), view, [])["marks"] == {
        "b": [{"kind": "react", "label": "may fire at the mover"}]}


def test_a_direction_report_becomes_a_bearing_and_old_ones_go() -> None:
    view = {"turn": 5, "own": [{"id": "u", "x": 10.0, "y": 20.0}], "fired_on": [
        {"unit": "u", "direction": "NE", "turn": 5, "hits": 1},
        {"unit": "u", "direction": "S", "turn": 4, "hits": 0},
        {"unit": "u", "direction": "W", "turn": 3, "hits": 2},  # too old
        {"unit": "gone", "direction": "N", "turn": 5, "hits": 1},  # not one of the side's
    ]}
    found = fire_reports(view, [])
    assert [(r["bearing"], r["turn"], r["source"]) for r in found] == [
        (COMPASS_DEGREES["NE"], 5, None), (COMPASS_DEGREES["S"], 4, None)]
    assert (found[0]["x"], found[0]["y"]) == (10.0, 20.0)


def test_an_event_naming_the_firer_points_from_its_sighting() -> None:
    view = {"turn": 2, "own": [{"id": "me", "x": 1.0, "y": 1.0, "floor": 1}],
            "enemies": [{"id": "him", "x": 9.0, "y": 5.0}]}
    shots = [Event("fired-on", {"firer": "him", "target": "me", "hits": 1}, ("a",), 2),
             Event("shot", {"firer": "him", "target": "me"}, ("a", "b"), 2),
             Event("shot", {"firer": "me", "target": "him"}, ("a", "b"), 2)]
    (found,) = fire_reports(view, shots)
    assert found["source"] == [9.0, 5.0]
    assert found["shots"] == 2 and found["floor"] == 1
    # a firer the side holds no sighting of gives no arrow: its place is not the side's
    assert fire_reports({**view, "enemies": []}, shots) == []


# -- in real games --------------------------------------------------------------------------


def test_street_fighter_fire_reports_point_the_way_they_were_told() -> None:
    game = played("normandy-village", lambda g: bool(g.view("british")["fired_on"]))
    view = game.view("british")
    layer = layer_of(game, "british")
    told = {(r["unit"], r["turn"], COMPASS_DEGREES[r["direction"]]) for r in view["fired_on"]}
    assert {(r["unit"], r["turn"], r["bearing"]) for r in layer["fired_on"]} == told
    assert all(r["source"] is None for r in layer["fired_on"])


def test_house_clearing_fire_comes_from_the_firer_as_last_seen() -> None:
    def fired_on(g: Game) -> bool:
        return any(e.kind == "fired-on" for e in g.log_for("british"))

    game = played("ramp-houses", fired_on)
    seen = {e["id"]: [e["x"], e["y"]] for e in game.view("british")["enemies"]}
    layer = layer_of(game, "british")
    assert layer["fired_on"]
    firers = {e.data["firer"] for e in game.log_for("british") if e.kind == "fired-on"}
    assert {tuple(r["source"]) for r in layer["fired_on"]} <= {tuple(seen[f]) for f in firers}


def test_street_fight_overwatch_and_aim_are_marked() -> None:
    def can_watch(g: Game) -> bool:
        side = g.to_act()
        return side is not None and any(o.kind == "overwatch" for o in g.legal_orders(side))

    game = played("corner-shop", can_watch)
    side = game.to_act()
    assert side is not None
    order = next(o for o in game.legal_orders(side) if o.kind == "overwatch")
    game.apply(order)
    own = {u["id"]: u for u in game.view(side)["own"]}
    watch = own[str(order.unit)]["overwatch"]
    marks = layer_of(game, side)["marks"][str(order.unit)]
    assert {"kind": "overwatch", "label": "overwatch", "x": watch["x"], "y": watch["y"],
            "radius": watch["radius"]} in marks
    aiming = played("corner-shop", lambda g: any(u["aim"] for u in g.view("germans")["own"]))
    marked = layer_of(aiming, "germans")["marks"]
    for unit in aiming.view("germans")["own"]:
        has_aim = any(m["kind"] == "aim" for m in marked.get(unit["id"], []))
        assert has_aim == (unit["aim"] > 0)


# -- in the messages --------------------------------------------------------------------------


def test_a_seats_message_carries_the_layer_of_its_view(client: TestClient) -> None:
    made = create(client, "corner-shop", 3, {"british": "human"})
    message = seat_state(client, made, "british")
    live = server(client).hub.games[made["id"]]
    assert message["map"] == side_layer(live.game.scenario, {**live.game.view("british")},
                                        live.game.log_for("british"))
    assert message["map"]["floors"]["count"] == 2
    assert message["revealed"] is None


def test_a_spectator_sees_no_troop_until_the_end_then_every_one(client: TestClient) -> None:
    made = create(client, "normandy-village", SEED, {})
    spectator = made["spectator_token"]
    wait_until(lambda: state(client, made["id"], spectator)["status"]["over"])
    live = server(client).hub.games[made["id"]]
    message = state(client, made["id"], spectator)
    troops = message["revealed"]["troops"]
    every = [{**u, "side": side} for side in live.game.scenario.side_names
             for u in live.game.view(side)["own"]]
    assert troops == every
    assert {t["side"] for t in troops} == set(live.game.scenario.side_names)


def test_before_the_end_a_spectator_has_no_troops(client: TestClient) -> None:
    made = create(client, "corner-shop", 3, {"british": "human"})
    message = state(client, made["id"], made["spectator_token"])
    assert "view" not in message and message["revealed"] is None
    assert message["map"]["marks"] == {} and message["map"]["fired_on"] == []
    assert message["map"]["floors"]["count"] == 2


# -- moving an unseen enemy changes nothing a seat is told -------------------------------------


def pieces(game: Game) -> dict[str, Any]:
    found: dict[str, Any] = getattr(game.state, "figures", None) or game.state.units
    return found


@pytest.mark.parametrize(("scenario", "seat", "side"), [
    ("corner-shop", "british", "british"),
    ("ramp-houses", "Lieutenant's group", "british"),
    ("normandy-village", "Lieutenant Price", "british"),
])
def test_moving_an_unseen_enemy_changes_nothing_the_seat_receives(
        client: TestClient, scenario: str, seat: str, side: str) -> None:
    made = create(client, scenario, SEED, {seat: "human"})
    token = made["seat_tokens"][seat]
    wait_until(lambda: settled(client, made["id"]))
    live = server(client).hub.games[made["id"]]
    game = live.game
    before = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
    in_sight = {e["id"] for e in game.view(side)["enemies"] if e["visible_now"]}
    unseen = [p for p in pieces(game).values() if p.side != side and p.id not in in_sight]
    assert unseen, "every enemy is in sight"
    for piece in unseen:
        at = piece.pos
        piece.pos = replace(at, x=at.x + 1.5, y=at.y - 1.5) if isinstance(at, Position) else at
    live.changed()  # moved behind the hub's back: what it kept is worked out anew
    try:
        after = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
    finally:
        for piece in unseen:
            piece.pos = replace(piece.pos, x=piece.pos.x - 1.5, y=piece.pos.y + 1.5)
        live.changed()
    assert after == before
