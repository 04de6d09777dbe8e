"""Looking back (server/history.py): a seat asks for its side's view at an earlier position
of the game and gets exactly what its side was shown then, nothing of another side's or of
the future; until the end spectators get nothing; and an order the side could not see
changes nothing it gets, positions included."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from fibua.core.events import EVERYONE
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import find_ruleset
from fibua.server import history
from fibua.server.hub import LiveGame
from server_helpers import auth, client_on, create, server, settled, state, wait_until

SEED = 5
#: one bundled scenario of each rule set
SCENARIOS = ["corner-shop", "ramp-houses", "normandy-village", "village-street"]
#: rule sets where some order of a side is unseen by the other (Buildings tells both
#: sides of every order: each is a die drawn from the bag in sight of both)
WITH_UNSEEN = ["corner-shop", "ramp-houses", "normandy-village"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def all_human(client: TestClient, scenario: str) -> dict[str, Any]:
    """A game with every seat a person's, so nothing moves but what the test orders."""
    loaded = server(client).hub.bundled(scenario)
    ruleset = find_ruleset(loaded.ruleset)
    seats = {s.name: "human" for side in loaded.side_names
             for s in ruleset.seats(loaded, side)}
    return create(client, scenario, SEED, seats)


def live_of(client: TestClient, made: dict[str, Any]) -> LiveGame:
    return server(client).hub.games[made["id"]]


def seat_of(client: TestClient, made: dict[str, Any], side: str) -> str:
    """A seat of the side (the first a person holds)."""
    live = live_of(client, made)
    return next(name for name in made["seat_tokens"]
                if (plan := live.seat(name)) is not None and plan.side == side)


def acting(client: TestClient, made: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A seat that may give orders now, with its message and orders."""
    live = live_of(client, made)
    for name, token in made["seat_tokens"].items():
        plan = live.seat(name)
        if plan is not None and plan.side == live.game.to_act():
            message = state(client, made["id"], token)
            if message["seat"]["may_act"]:
                return name, message
    return None


def step(client: TestClient, made: dict[str, Any], rng: random.Random) -> bool:
    """One order (or a seat's done) of whichever seat may act; False once none may."""
    found = acting(client, made)
    if found is None:
        return False
    seat, message = found
    token = made["seat_tokens"][seat]
    moves = [o for o in message["legal"] if o["kind"] != "end"]
    if moves and rng.random() < 0.75:
        give(client, made, seat, rng.choice(moves))
    else:
        answer = client.post(f"/api/games/{made['id']}/done", headers=auth(token), json={})
        assert answer.status_code == 200, answer.text
        wait_until(lambda: settled(client, made["id"]))
    return True


def give(client: TestClient, made: dict[str, Any], seat: str, entry: dict[str, Any]) -> None:
    body = {k: entry[k] for k in ("kind", "unit", "params")}
    answer = client.post(f"/api/games/{made['id']}/orders",
                         headers=auth(made["seat_tokens"][seat]), json=body)
    assert answer.status_code == 200, answer.text
    wait_until(lambda: settled(client, made["id"]))


def index(client: TestClient, made: dict[str, Any], token: str, side: str | None = None
          ) -> Any:
    query = f"?side={side}" if side else ""
    return client.get(f"/api/games/{made['id']}/history{query}", headers=auth(token))


def at(client: TestClient, made: dict[str, Any], token: str, position: int | str,
       side: str | None = None) -> Any:
    query = f"?side={side}" if side else ""
    return client.get(f"/api/games/{made['id']}/history/{position}{query}",
                      headers=auth(token))


def positions(client: TestClient, made: dict[str, Any], token: str) -> list[dict[str, Any]]:
    answer = index(client, made, token)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["positions"]
    return found


def replayed(live: LiveGame, orders: int) -> Game:
    """The game played again from its seed to its first `orders` orders."""
    game = Game(live.game.scenario, live.game.seed)
    for order in live.game.orders[:orders]:
        game.apply(order)
    return game


def plain(value: Any) -> Any:
    """As it comes out of JSON."""
    return json.loads(json.dumps(value))


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code


# -- what a position shows --------------------------------------------------------------------


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_position_shows_what_the_side_was_shown_then(client: TestClient,
                                                       scenario: str) -> None:
    """While both sides give orders, the watching side's message is kept after each; later,
    the position that was its last then gives the same view, map layer, status and
    events, and the view is the one a game played again to that point gives."""
    made = all_human(client, scenario)
    live = live_of(client, made)
    watcher = live.game.scenario.side_names[0]
    token = made["seat_tokens"][seat_of(client, made, watcher)]
    rng = random.Random(scenario)
    kept: list[tuple[int, int, dict[str, Any]]] = []
    for _ in range(30):
        message = state(client, made["id"], token)
        kept.append((len(positions(client, made, token)) - 1, len(live.game.orders), message))
        if not step(client, made, rng):
            break
    assert len({position for position, _, _ in kept}) > 3, "the side saw too little"
    for position, orders, message in kept:
        answer = at(client, made, token, position)
        assert answer.status_code == 200, answer.text
        past = answer.json()
        assert past["position"] == position and past["side"] == watcher
        for key in ("view", "map", "status"):
            assert past[key] == message[key], (position, key)
        assert past["events"] == message["events"][-history.PAST_EVENTS:], position
        assert past["event_count"] == message["event_count"]
        then = replayed(live, orders).view(watcher)
        then.pop("log")
        assert past["view"] == plain(then), position


def test_answers_do_not_hang_on_the_order_they_are_asked_in(client: TestClient) -> None:
    """Every position asked backwards, by a fresh cache, at random: the same answers (the
    replay is started again from the seed, moved on, or answered from what is kept)."""
    made = all_human(client, "corner-shop")
    rng = random.Random(1)
    for _ in range(40):
        step(client, made, rng)
    token = made["seat_tokens"][seat_of(client, made, "british")]
    count = len(positions(client, made, token))
    assert count > history.BEHIND * 2
    forwards = [at(client, made, token, p).text for p in range(count)]
    backwards = [at(client, made, token, p).text for p in reversed(range(count))][::-1]
    assert backwards == forwards
    live = live_of(client, made)
    order = list(range(count))
    rng.shuffle(order)
    fresh = history.Book(live.game)
    fresh.follow(live.game.orders)
    moments = history.moments(live.game, "british")
    shuffled = {p: fresh.answer("british", moments[p].orders) for p in order}
    assert len(fresh.answers) <= history.ANSWERS_KEPT
    for p in range(count):
        past = json.loads(forwards[p])
        assert json.loads(shuffled[p]) == {k: v for k, v in past.items()
                                           if k not in ("type", "side", "position",
                                                        "positions", "turn")}


def test_an_order_taken_back_is_forgotten(client: TestClient) -> None:
    """After an undo the side's last position is gone (asking for it is asking for the
    future) and the position now last shows the view as it is."""
    made = all_human(client, "corner-shop")
    side = live_of(client, made).game.to_act()
    assert side is not None
    seat = seat_of(client, made, side)
    token = made["seat_tokens"][seat]
    message = state(client, made["id"], token)
    move = next(o for o in message["legal"] if o["kind"] == "move")
    give(client, made, seat, move)
    before = len(positions(client, made, token))
    assert at(client, made, token, before - 1).status_code == 200
    answer = client.post(f"/api/games/{made['id']}/undo", headers=auth(token), json={})
    assert answer.status_code == 200, answer.text
    assert len(positions(client, made, token)) == before - 1
    refused(at(client, made, token, before - 1), 409, "future")
    now = state(client, made["id"], token)
    assert at(client, made, token, before - 2).json()["view"] == now["view"]


# -- who may look back at what ----------------------------------------------------------------


def test_until_the_end_a_seat_sees_its_own_side_and_no_one_else_anything(
        client: TestClient) -> None:
    made = all_human(client, "corner-shop")
    british = made["seat_tokens"][seat_of(client, made, "british")]
    assert index(client, made, british).json()["side"] == "british"
    assert index(client, made, british, "british").status_code == 200
    assert at(client, made, british, 0, "british").status_code == 200
    refused(index(client, made, british, "germans"), 403, "not-your-side")
    refused(at(client, made, british, 0, "germans"), 403, "not-your-side")
    for token in (made["spectator_token"], made["creator_token"]):
        refused(index(client, made, token), 403, "forbidden")
        refused(at(client, made, token, 0, "british"), 403, "forbidden")
    refused(at(client, made, "nonsense", 0), 403, "bad-token")
    refused(client.get("/api/games/nothing/history/0", headers=auth(british)), 404,
            "unknown-game")


def test_a_position_that_has_not_happened_is_refused(client: TestClient) -> None:
    made = all_human(client, "corner-shop")
    token = made["seat_tokens"][seat_of(client, made, "british")]
    count = len(positions(client, made, token))
    assert at(client, made, token, count - 1).status_code == 200
    refused(at(client, made, token, count), 409, "future")
    refused(at(client, made, token, 10**6), 409, "future")
    for bad in ("-1", "x", "1.5", "9" * 12):
        refused(at(client, made, token, bad), 422, "bad-position")


def test_once_over_anyone_may_look_back_over_any_side(client: TestClient) -> None:
    made = create(client, "normandy-village", SEED)  # the computer plays it to the end
    live = live_of(client, made)
    assert live.game.over
    spectator = made["spectator_token"]
    for side in live.game.scenario.side_names:
        count = len(index(client, made, spectator, side).json()["positions"])
        past = at(client, made, spectator, count - 1, side).json()
        view = live.game.view(side)
        view.pop("log")
        assert past["view"] == plain(view)
    refused(index(client, made, spectator), 422, "needs-side")
    refused(index(client, made, spectator, "nobody"), 404, "unknown-side")


# -- non-interference -------------------------------------------------------------------------


def knowledge(game: Game, side: str) -> str:
    """All a side may know now, and the public status."""
    view = game.view(side)
    public = [e.to_dict() for e in game.log if e.to == EVERYONE]
    return json.dumps([view, [e.to_dict() for e in game.log_for(side)], public,
                       game.to_act(), game.over], sort_keys=True, default=str)


def unseen_order(live: LiveGame, side: str, legal: list[dict[str, Any]],
                 rng: random.Random) -> dict[str, Any] | None:
    """One of the side's listed orders that changes nothing any other side knows."""
    others = [s for s in live.game.scenario.side_names if s != side]
    before = {s: knowledge(live.game, s) for s in others}
    candidates = [o for o in legal if o["kind"] != "end"]
    rng.shuffle(candidates)
    for entry in candidates[:40]:
        game = replayed(live, len(live.game.orders))
        game.apply(Order(side, entry["kind"], entry["unit"], entry["params"]))
        if all(knowledge(game, s) == before[s] for s in others):
            return entry
    return None


@pytest.mark.parametrize("scenario", WITH_UNSEEN)
def test_twins_that_differ_in_an_unseen_order_have_the_same_past(client: TestClient,
                                                                 scenario: str) -> None:
    """Two games given the same orders until the side to act has one the other side cannot
    see; one gives it, the other does not: the other side's positions and every answer
    are the same in both."""
    twins = [all_human(client, scenario), all_human(client, scenario)]
    lives = [live_of(client, m) for m in twins]
    rng = random.Random(scenario)
    hidden = None
    for _ in range(40):
        found, twin = acting(client, twins[0]), acting(client, twins[1])
        assert found is not None and twin is not None and found[0] == twin[0]
        seat, message = found
        side = message["seat"]["side"]
        hidden = unseen_order(lives[0], side, message["legal"], random.Random(rng.random()))
        if hidden is not None and len(lives[0].game.orders) > 4:
            break
        moves = [o for o in message["legal"] if o["kind"] != "end"]
        entry = rng.choice(moves)
        for made in twins:
            give(client, made, seat, entry)
    assert hidden is not None, f"{scenario}: no unseen order"
    give(client, twins[0], seat, hidden)
    assert len(lives[0].game.orders) == len(lives[1].game.orders) + 1
    other = next(s for s in lives[0].game.scenario.side_names if s != side)
    tokens = [m["seat_tokens"][seat_of(client, m, other)] for m in twins]
    indexes = [positions(client, m, t) for m, t in zip(twins, tokens, strict=True)]
    assert indexes[0] == indexes[1]
    for p in range(len(indexes[0])):
        answers = [at(client, m, t, p).text for m, t in zip(twins, tokens, strict=True)]
        assert answers[0] == answers[1], (scenario, p)
    # the side that gave it has one position more: the test can tell the twins apart
    mine = [len(positions(client, m, m["seat_tokens"][seat])) for m in twins]
    assert mine[0] == mine[1] + 1


def test_an_unseen_order_makes_no_position(client: TestClient) -> None:
    """`moments` skips an enemy order whose events the side was not told, and counts the
    side's own orders (and the moment before each), every order that told it something,
    and now when it is to act."""
    made = create(client, "normandy-village", SEED)
    game = live_of(client, made).game
    for side in game.scenario.side_names:
        found = history.moments(game, side)
        expected = {0}
        for n, order in enumerate(game.orders):
            if order.side == side:
                expected |= {n, n + 1}
            if any(e.seen_by(side) for e in game.events_of(n)):
                expected.add(n + 1)
        assert [m.orders for m in found] == sorted(expected)
        assert len(found) < len(game.orders) + 1  # some enemy orders were unseen
        assert [m.own for m in found] == [m.orders > 0 and m.orders - 1 in range(
            len(game.orders)) and game.orders[m.orders - 1].side == side
            for m in found]
        turns = [m.turn for m in found]
        assert turns == sorted(turns)
