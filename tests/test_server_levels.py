"""The computer's level in the browser game: the create request names a level for each
computer seat (easy, normal or hard; normal where none is given), the server keeps it with
the game's seats, a restarted server plays the game on at the same level, and the pages
are told who plays each side at which level. A bad level, a level for a person's seat or
a field the body has not is refused with the field named, and nothing is stored.

A hard computer looks ahead (about a second of CPU an order): its choice is worked out in
a thinking thread on a copy of the game, so the engine thread answers everyone else
meanwhile, and the order it gives is the one the same computer asked in place would give
(the same seed scheme as `fibua autoplay --level hard`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from fibua.core.game import Game, ask, canonical_json
from fibua.core.orders import Order
from fibua.server import hub as hub_module
from fibua.server.hub import Decision, Hub
from fibua.server.models import LevelName
from fibua.server.store import Store
from fibua.session.computers import Level, looks_ahead, side_computer
from fibua.session.seats import SeatPlan
from server_helpers import (
    PATIENCE,
    TestClient,
    auth,
    client_on,
    server,
    settled,
    wait_until,
)

#: the Germans a person's, the British the hard computer's (from its fourth order on, with
#: the Germans ending each phase, it chooses otherwise than the normal computer would)
HARD_BRITISH = {"scenario": "corner-shop", "seed": 3, "seats": {"germans": "human"},
                "levels": {"british": "hard"}}
#: how many orders of the hard computer the play test looks at
COMPUTER_ORDERS = 6


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_on(tmp_path / "games.sqlite3") as found:
        yield found


def refused(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    """The answer to a create that must be refused, checking nothing was stored."""
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422, answer.text
    assert client.get("/api/games").json() == []
    assert server(client).hub.store.game_ids() == []
    found: dict[str, Any] = answer.json()
    return found


def key(order: Order) -> str:
    return canonical_json(order.to_dict())


# -- the request ---------------------------------------------------------------------------


def test_the_request_names_the_levels_the_computer_has() -> None:
    assert get_args(LevelName) == tuple(level.value for level in Level)


def test_the_lobby_is_told_each_level_in_plain_words(client: TestClient) -> None:
    told = client.get("/api/levels").json()
    assert told["default"] == "normal"
    assert [level["name"] for level in told["levels"]] == ["easy", "normal", "hard"]
    words = {level["name"]: level["description"] for level in told["levels"]}
    assert "second" in words["hard"]  # how long hard thinks
    assert all(words.values())


def test_a_bad_level_is_refused_naming_the_field(client: TestClient) -> None:
    answer = refused(client, {**HARD_BRITISH, "levels": {"british": "expert"}})
    assert answer["error"] == "bad-request"
    assert "levels.british" in answer["message"]
    assert "'easy', 'normal' or 'hard'" in answer["message"]
    answer = refused(client, {**HARD_BRITISH, "levels": {"british": 3}})
    assert "levels.british" in answer["message"]


def test_an_unknown_field_is_refused(client: TestClient) -> None:
    body = {"scenario": "corner-shop", "seats": {"germans": "human"}, "level": "hard"}
    answer = refused(client, body)
    assert answer["message"] == "level: Extra inputs are not permitted"


def test_a_level_for_a_person_or_no_seat_is_refused(client: TestClient) -> None:
    answer = refused(client, {**HARD_BRITISH, "levels": {"germans": "hard"}})
    assert answer["error"] == "level-for-person"
    assert answer["message"].startswith("levels.germans: a person plays this seat")
    answer = refused(client, {**HARD_BRITISH, "levels": {"British": "hard"}})
    assert answer["error"] == "unknown-seat"
    assert "levels: no seat 'British'" in answer["message"]


def test_a_side_the_computer_plays_whole_takes_one_level(client: TestClient) -> None:
    """The computer plays a side none of whose seats is a person's as one player (the
    session's scheme), so its seats cannot differ; a shared side's computer seats may."""
    seats = {"Lieutenant's group": "human"}  # the British shared, the Germans all computer
    germans = ["Unterscharfuehrer's group (corner house)",
               "Rottenfuehrer's group (Van Kooten house)"]
    answer = refused(client, {"scenario": "ramp-houses", "seats": seats,
                              "levels": {germans[0]: "hard", germans[1]: "normal"}})
    assert answer["error"] == "mixed-levels"
    assert "the computer plays germans whole" in answer["message"]
    made = client.post("/api/games", json={
        "scenario": "ramp-houses", "seats": seats,
        "levels": {germans[0]: "easy", germans[1]: "easy", "Sergeant's group": "hard",
                   "Corporal's group": "normal"}})
    assert made.status_code == 201, made.text
    stored = server(client).hub.store.game(made.json()["id"]).seats
    assert {s["name"]: s["level"] for s in stored if s["player"] == "computer"} == {
        germans[0]: "easy", germans[1]: "easy", "Sergeant's group": "hard",
        "Corporal's group": "normal"}


# -- kept, shown, resumed ------------------------------------------------------------------


def test_the_level_is_stored_shown_and_resumed_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with client_on(db) as client:
        made = client.post("/api/games", json=HARD_BRITISH)
        assert made.status_code == 201, made.text
        game = made.json()
        wait_until(lambda: settled(client, game["id"]))
        stored = {s["name"]: s for s in server(client).hub.store.game(game["id"]).seats}
        assert stored["british"]["level"] == "hard"
        listed = client.get("/api/games").json()[0]
        assert {"name": "british", "side": "british", "player": "computer",
                "level": "hard"} in listed["seats"]
        assert {"name": "germans", "side": "germans", "player": "human"} in listed["seats"]
        told = client.get(f"/api/games/{game['id']}",
                          headers=auth(game["seat_tokens"]["germans"])).json()
        assert {"name": "british", "side": "british", "player": "computer",
                "level": "hard"} in told["game"]["players"]
        before = server(client).hub.live(game["id"]).state_hash()
    with client_on(db) as client:
        hub = server(client).hub
        assert not hub.broken
        live = hub.live(game["id"])
        assert live.state_hash() == before
        assert live.seat("british").level is Level.HARD  # type: ignore[union-attr]
        assert looks_ahead(hub._side_player(live, "british"))


def test_a_seat_stored_before_levels_plays_normal() -> None:
    old = {"name": "british", "side": "british", "player": "computer", "units": None}
    assert SeatPlan.from_dict(old).level is Level.NORMAL
    assert SeatPlan.from_dict({**old, "level": "hard"}).level is Level.HARD
    with pytest.raises(ValueError):  # the hub keeps such a game among the broken ones
        SeatPlan.from_dict({**old, "level": "expert"})


# -- the hard computer plays ---------------------------------------------------------------


def play_until_the_computer_has_given(client: TestClient, game: dict[str, Any],
                                      side: str, count: int) -> list[Order]:
    """End the person's phases until the computer's side has given `count` orders (or the
    game is over): every order of the game."""
    token = game["seat_tokens"]["germans"]
    live = server(client).hub.live(game["id"])
    while True:
        wait_until(lambda: settled(client, game["id"]))
        orders = list(live.game.orders)
        if live.game.over or sum(1 for o in orders if o.side == side) >= count:
            return orders
        answer = client.post(f"/api/games/{game['id']}/orders", headers=auth(token),
                             json={"kind": "end"})
        assert answer.status_code == 200, answer.text


def test_the_hard_computer_plays_as_it_would_anywhere(client: TestClient) -> None:
    """Each order the server's hard computer gave is the one a hard computer seeded by the
    session's scheme chooses asked in place at that position (`fibua autoplay --level
    hard`'s player), and some are not the normal computer's: the level is played."""
    made = client.post("/api/games", json=HARD_BRITISH)
    assert made.status_code == 201, made.text
    orders = play_until_the_computer_has_given(client, made.json(), "british",
                                               COMPUTER_ORDERS)
    scenario = server(client).hub.live(made.json()["id"]).game.scenario
    game = Game(scenario, 3)
    hard = side_computer(game.ruleset, "british", 3, level=Level.HARD)
    normal = side_computer(game.ruleset, "british", 3, level=Level.NORMAL)
    asked = differs = 0
    for order in orders:
        if order.side == "british" and game.forced("british") is None:
            assert key(ask(game, "british", hard)) == key(order)
            differs += key(ask(game, "british", normal)) != key(order)
            asked += 1
        game.apply(order)
    assert asked >= COMPUTER_ORDERS
    assert differs > 0


def test_the_server_answers_while_a_hard_computer_thinks(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard computer's decision is held until the test lets it go: meanwhile the
    lobby's list, another game's seat and the thinking game's own page are answered (with
    the decision in the engine thread, none would be until it was let go)."""
    thinking = threading.Event()
    release = threading.Event()
    apart = hub_module.decision_apart

    def held(game: Game, side: str, player: Any) -> Callable[[], Order]:
        work = apart(game, side, player)

        def wait_then_work() -> Order:
            thinking.set()
            release.wait(PATIENCE)
            return work()

        return wait_then_work

    monkeypatch.setattr(hub_module, "decision_apart", held)
    other = client.post("/api/games", json={"scenario": "corner-shop", "seed": 4,
                                            "seats": {"germans": "human"}}).json()
    wait_until(lambda: settled(client, other["id"]))
    made = client.post("/api/games", json=HARD_BRITISH).json()
    try:
        token = made["seat_tokens"]["germans"]
        live = server(client).hub.live(made["id"])
        while not thinking.is_set():  # the person ends phases until the British think
            wait_until(lambda: thinking.is_set() or settled(client, made["id"]))
            assert not live.game.over, "the British never looked ahead"
            if not thinking.is_set():
                client.post(f"/api/games/{made['id']}/orders", headers=auth(token),
                            json={"kind": "end"})
        answers: list[int] = []

        def ask_the_server() -> None:
            answers.append(client.get("/api/games").status_code)
            answers.append(client.get(f"/api/games/{other['id']}", headers=auth(
                other["seat_tokens"]["germans"])).status_code)
            answers.append(client.get(f"/api/games/{made['id']}",
                                      headers=auth(token)).status_code)

        asking = threading.Thread(target=ask_the_server, daemon=True)
        asking.start()
        asking.join(PATIENCE)  # a bound: the decision is held far longer than any answer
        assert answers == [200, 200, 200]
        assert made["id"] in server(client).thinking
    finally:
        release.set()
    wait_until(lambda: settled(client, made["id"]))
    assert any(o.side == "british" for o in server(client).hub.live(made["id"]).game.orders)


def test_a_decision_is_dropped_if_the_game_moved_meanwhile(tmp_path: Path) -> None:
    """A choice worked out on a copy is given only if the game is where it was when the
    computer was asked; else the computer is asked again (the game moved: say, a person
    of a shared side gave an order meanwhile). The hub alone, no server driving it."""
    hub = Hub(Store(tmp_path / "games.sqlite3"))
    made = hub.create("corner-shop", 3, {"germans": "human"}, levels={"british": "hard"})
    live = hub.live(made["id"])
    while not isinstance(move := hub.next_move(made["id"]), Decision):
        if move is False:  # the person's turn: they end it
            hub.order(made["id"], made["seat_tokens"]["germans"], "end", None, {})
    orders = len(live.game.orders)
    live.moves += 1  # as an order given (or taken back) meanwhile would
    assert hub.settle(move, move.work()) is True
    assert len(live.game.orders) == orders  # dropped: nothing given
    move = hub.next_move(made["id"])
    assert isinstance(move, Decision)
    assert hub.settle(move, move.work()) is True
    assert len(live.game.orders) == orders + 1
    assert live.game.orders[-1].side == "british"
