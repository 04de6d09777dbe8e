"""Creating a game answers at once: the game is stored before the answer, and what is slow
(the rules engine's compiling on a cold server, the computers' first orders) happens after
it, in the background. A game made before the engine allows it waits, stored: its links
work, its pages are told how far the engine has come, it is listed as preparing and its
creator may delete it; it opens once the warm-up has played its scenario, which the
warm-up plays before the others."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fibua import kernels
from fibua.scenario.loader import bundled_scenarios
from fibua.server.app import create_app
from fibua.server.hub import Decision, Hub
from fibua.server.preparing import Preparation
from server_helpers import (
    PATIENCE,
    TEST_HOSTS,
    TestClient,
    auth,
    client_on,
    server,
    settled,
    wait_until,
)

CORNER = {"scenario": "corner-shop", "seed": 3, "seats": {"british": "human"}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_on(tmp_path / "games.sqlite3") as found:
        yield found


@pytest.fixture
def cold(client: TestClient) -> Preparation:
    """The server's engine as a cold one under preparation (nothing played yet; the test
    says when it is done)."""
    preparation = Preparation(ready=False, total=10)
    server(client).preparation = preparation
    return preparation


def made(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_game_made_on_a_cold_engine_is_stored_and_waits(client: TestClient,
                                                          cold: Preparation) -> None:
    game = made(client, CORNER)
    hub = server(client).hub
    assert game["id"] in hub.pending and game["id"] not in hub.games
    assert hub.store.game(game["id"]).seed == 3  # stored before the answer
    token = game["seat_tokens"]["british"]
    told = client.get(f"/api/games/{game['id']}", headers=auth(token)).json()
    assert told["type"] == "progress" and told["stage"] == "engine"
    assert "preparing the rules engine" in told["message"]
    assert told["title"] == "The Corner Shop"
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[game["id"]]["status"]["preparing"] is True
    order = client.post(f"/api/games/{game['id']}/orders", headers=auth(token),
                        json={"kind": "end"})
    assert order.status_code == 409 and order.json()["error"] == "game-preparing"
    assert client.get(f"/api/games/{game['id']}/map.svg").text.startswith("<svg")
    assert cold.wanted == ["corner-shop"]  # the warm-up plays its scenario next
    # a wrong link is refused as for any game
    assert client.get(f"/api/games/{game['id']}", headers=auth("nope")).status_code == 403


def test_a_waiting_game_opens_once_its_scenario_is_prepared(client: TestClient,
                                                            cold: Preparation) -> None:
    game = made(client, CORNER)
    token = game["seat_tokens"]["british"]
    path = f"/api/games/{game['id']}/ws"
    with client.websocket_connect(path) as socket, client.websocket_connect(path) as plain:
        socket.send_json({"token": token, "progress": True})  # as the game page does
        first = socket.receive_json()
        assert first["type"] == "progress" and first["stage"] == "engine"
        plain.send_json({"token": token})
        # the warm-up moves on to corner-shop, then past it: the game may open
        cold.report(0, 10, "corner-shop")
        cold.report(1, 10, "beach-exit")
        while (message := socket.receive_json())["type"] != "state":
            assert message["type"] == "progress"
        assert message["seat"]["side"] == "british"
        # a client that did not ask for progress is sent the state alone
        assert plain.receive_json() == message
    assert not cold.ready
    wait_until(lambda: settled(client, game["id"]))
    assert game["id"] in server(client).hub.games


def test_the_creator_may_delete_a_waiting_game(client: TestClient, cold: Preparation) -> None:
    game = made(client, CORNER)
    seat = auth(game["seat_tokens"]["british"])
    assert client.delete(f"/api/games/{game['id']}", headers=seat).status_code == 403
    answer = client.delete(f"/api/games/{game['id']}", headers=auth(game["creator_token"]))
    assert answer.status_code == 200
    hub = server(client).hub
    assert game["id"] not in hub.pending and hub.store.game_ids() == []
    cold.ready = True
    wait_until(lambda: settled(client, game["id"]))
    assert game["id"] not in hub.games


def test_the_route_answers_while_the_computers_first_order_is_held(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat the computer's: its first order is under way (held here) when the
    creator has the answer."""
    entered, go = threading.Event(), threading.Event()
    next_move = Hub.next_move

    def held_move(hub: Hub, game_id: str) -> bool | Decision:
        entered.set()
        assert go.wait(PATIENCE)
        return next_move(hub, game_id)

    monkeypatch.setattr(Hub, "next_move", held_move)
    try:
        game = made(client, {"scenario": "corner-shop", "seed": 3, "seats": {}})
        assert entered.wait(PATIENCE)
        assert not go.is_set()  # answered with the background work still held
        assert game["id"] in server(client).driving
    finally:
        go.set()
    wait_until(lambda: settled(client, game["id"]))
    assert server(client).hub.games[game["id"]].game.orders


def test_the_warm_up_plays_first_the_scenario_a_game_waits_for(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    paths = bundled_scenarios()
    monkeypatch.setattr(kernels, "warm_scenarios",
                        lambda: [paths["beach-exit"], paths["corner-shop"], paths["ramp-houses"]])
    monkeypatch.setattr(kernels, "ready_mark", lambda: tmp_path / "fibua-ready")
    preparation = Preparation(ready=False)
    played: list[str] = []
    allowed: list[bool] = []

    def play(path: Path) -> None:
        played.append(path.stem)
        allowed.append(preparation.allows("ramp-houses"))

    monkeypatch.setattr(kernels, "play_one", play)
    preparation.want("ramp-houses")
    preparation.run()
    assert played == ["ramp-houses", "beach-exit", "corner-shop"]
    # ramp-houses' games may open once its own game is over, before the rest
    assert allowed == [False, True, True]
    assert preparation.ready and preparation.percent() == 100


def test_a_waiting_page_is_told_where_its_map_stands_in_the_warm_up() -> None:
    preparation = Preparation(ready=False)
    preparation.want("corner-shop")
    preparation.want("ramp-houses")
    preparation.report(0, 10, "beach-exit")
    assert [preparation.turn_of(n) for n in ("corner-shop", "ramp-houses")] == [1, 2]
    preparation.report(1, 10, "corner-shop")
    assert [preparation.turn_of(n) for n in ("corner-shop", "ramp-houses")] == [0, 1]
    preparation.report(2, 10, "ramp-houses")
    assert [preparation.turn_of(n) for n in ("corner-shop", "ramp-houses")] == [-1, 0]
    assert preparation.allows("corner-shop") and not preparation.allows("ramp-houses")
    assert preparation.percent() == 20


def test_a_page_is_told_while_the_computer_thinks(client: TestClient) -> None:
    game = made(client, CORNER)
    wait_until(lambda: settled(client, game["id"]))
    token = game["seat_tokens"]["british"]
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        socket.send_json({"token": token, "progress": True})
        assert socket.receive_json()["seat"]["may_act"]
        assert client.post(f"/api/games/{game['id']}/done", headers=auth(token)).status_code == 200
        stages = []
        while not stages or stages[-1] != "idle":
            message = socket.receive_json()
            if message["type"] == "progress":
                stages.append(message["stage"])
    assert stages == ["computer", "idle"]  # told once, however many orders it gave


def test_stored_games_of_a_cold_engine_are_rebuilt_once_it_allows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.sqlite3"
    with client_on(db) as client:
        game = made(client, CORNER)
        wait_until(lambda: settled(client, game["id"]))
        before = server(client).hub.games[game["id"]].game.state_hash()
    cold = Preparation(ready=False, total=10)
    monkeypatch.setattr(Preparation, "start_if_needed", classmethod(lambda cls: cold))
    with TestClient(create_app(db, prepare=True, hosts=TEST_HOSTS)) as client:
        hub = server(client).hub
        assert game["id"] in hub.pending  # not rebuilt before the server answers
        token = game["seat_tokens"]["british"]
        assert client.get(f"/api/games/{game['id']}", headers=auth(token)).json()["type"] \
            == "progress"
        assert cold.wanted == ["corner-shop"]
        cold.ready = True
        wait_until(lambda: game["id"] in hub.games)
        assert hub.games[game["id"]].game.state_hash() == before
