"""The WebSocket: each holder gets its message on connecting and after every change, built
for its own side; a wrong token gets nothing; a revoked link or a deleted game closes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fibua.core.events import EVERYONE
from server_helpers import (
    auth,
    client_on,
    create,
    first_move,
    seat_state,
    server,
    settled,
    state,
    wait_until,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    """Corner shop, both sides played by people (British first with seed 3)."""
    return create(client, "corner-shop", 3, {"british": "human", "germans": "human"})


def path(game: dict[str, Any]) -> str:
    return f"/api/games/{game['id']}/ws"


def until_current(client: TestClient, socket: Any, game_id: str, token: str,
                  last: dict[str, Any] | None = None) -> dict[str, Any]:
    """Messages until the one the holder's link fetches now (each change of it is sent;
    none when it has not changed since `last`, the latest received)."""
    version = client.get(f"/api/games/{game_id}", headers=auth(token)).json()["version"]
    if last is not None and last["version"] == version:
        return last
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "state" and message["version"] == version:
            return message


def test_a_seat_gets_its_view_on_connecting(client: TestClient, game: dict[str, Any]) -> None:
    with client.websocket_connect(path(game)) as socket:
        socket.send_json({"token": game["seat_tokens"]["british"]})
        message = socket.receive_json()
    assert message["type"] == "state" and message["seat"]["side"] == "british"
    assert message["view"]["side"] == "british" and message["seat"]["may_act"]
    assert "legal" not in message  # asked for apart


@pytest.mark.parametrize("first", [{"token": "wrong"}, {"token": 5}, {}, ["x"]])
def test_a_wrong_token_gets_an_error_and_the_socket_closes(
        client: TestClient, game: dict[str, Any], first: Any) -> None:
    with client.websocket_connect(path(game)) as socket:
        socket.send_json(first)
        message = socket.receive_json()
        assert message == {"type": "error", "error": "bad-token", "message": message["message"]}
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4403


def test_a_socket_on_an_unknown_game_closes(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nosuch/ws") as socket:
        socket.send_json({"token": "x"})
        assert socket.receive_json()["error"] == "unknown-game"
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()


def test_every_seat_hears_of_an_order_in_its_own_words(
        client: TestClient, game: dict[str, Any]) -> None:
    order = first_move(seat_state(client, game, "british"))
    live = server(client).hub.games[game["id"]]
    with client.websocket_connect(path(game)) as british, \
            client.websocket_connect(path(game)) as germans, \
            client.websocket_connect(path(game)) as public:
        british.send_json({"token": game["seat_tokens"]["british"]})
        germans.send_json({"token": game["seat_tokens"]["germans"]})
        public.send_json({"token": game["spectator_token"]})
        tokens = {british: game["seat_tokens"]["british"],
                  germans: game["seat_tokens"]["germans"], public: game["spectator_token"]}
        first = {socket: until_current(client, socket, game["id"], token)
                 for socket, token in tokens.items()}
        answer = client.post(f"/api/games/{game['id']}/orders",
                             headers=auth(game["seat_tokens"]["british"]), json=order)
        assert answer.status_code == 200
        ours, theirs, watched = (until_current(client, socket, game["id"], token,
                                               first[socket])
                                 for socket, token in tokens.items())
        theirs_orders = client.get(f"/api/games/{game['id']}/orders",
                                   headers=auth(tokens[germans])).json()
    assert ours["version"] == first[british]["version"] + 1
    assert ours["view"]["side"] == "british" and theirs["view"]["side"] == "germans"
    british_log = [e for e in live.game.log if e.seen_by("british")]
    german_log = [e for e in live.game.log if e.seen_by("germans")]
    assert ours["event_count"] == len(british_log)
    assert theirs["event_count"] == len(german_log)
    assert watched["event_count"] == len([e for e in live.game.log if e.to == EVERYONE])
    assert "view" not in watched and "legal" not in watched
    assert not theirs["seat"]["may_act"] and theirs_orders["legal"] == []  # not their turn


def test_a_page_that_reconnects_gets_the_current_view(
        client: TestClient, game: dict[str, Any]) -> None:
    token = game["seat_tokens"]["british"]
    order = first_move(seat_state(client, game, "british"))
    with client.websocket_connect(path(game)) as socket:
        socket.send_json({"token": token})
        socket.receive_json()
    client.post(f"/api/games/{game['id']}/orders", headers=auth(token), json=order)
    with client.websocket_connect(path(game)) as socket:
        socket.send_json({"token": token})
        message = socket.receive_json()
    live = server(client).hub.games[game["id"]]
    assert message == client.get(f"/api/games/{game['id']}", headers=auth(token)).json()
    assert message["view"] == {k: v for k, v in live.game.view("british").items() if k != "log"}


def test_the_computer_s_orders_reach_the_seat(client: TestClient) -> None:
    made = create(client, "corner-shop", 3, {"british": "human"})
    token = made["seat_tokens"]["british"]
    seat_state(client, made, "british")
    live = server(client).hub.games[made["id"]]
    with client.websocket_connect(f"/api/games/{made['id']}/ws") as socket:
        socket.send_json({"token": token})
        count = len(live.game.orders)
        client.post(f"/api/games/{made['id']}/done", headers=auth(token))
        wait_until(lambda: settled(client, made["id"]))
        last = until_current(client, socket, made["id"], token)
    assert len(live.game.orders) > count + 1
    assert last["status"]["to_act"] == live.game.to_act()


def test_an_end_phase_clicked_on_a_page_the_game_has_left_behind_is_refused(
        client: TestClient) -> None:
    # the page sends the version of the message it showed: once the seat has been sent
    # another (here: its own order), an End phase meant for what it showed is refused and
    # changes nothing; sent with the version now shown, it ends the phase
    made = create(client, "corner-shop", 3, {"british": "human"})
    token = made["seat_tokens"]["british"]
    shown = seat_state(client, made, "british")
    done = f"/api/games/{made['id']}/done"
    answer = client.post(f"/api/games/{made['id']}/orders", headers=auth(token),
                         json=first_move(shown))
    assert answer.status_code == 200, answer.text
    live = server(client).hub.games[made["id"]]
    count = len(live.game.orders)
    stale = client.post(f"{done}?version={shown['version']}", headers=auth(token))
    assert stale.status_code == 409 and stale.json()["error"] == "stale", stale.text
    assert len(live.game.orders) == count and live.game.to_act() == "british"
    assert client.post(f"{done}?version=x1", headers=auth(token)).status_code == 400
    now = state(client, made["id"], token)["version"]
    assert now > shown["version"]
    assert client.post(f"{done}?version={now}", headers=auth(token)).status_code == 200
    assert len(live.game.orders) > count


def test_a_revoked_link_closes_its_socket(client: TestClient, game: dict[str, Any]) -> None:
    with client.websocket_connect(path(game)) as socket:
        socket.send_json({"token": game["seat_tokens"]["germans"]})
        socket.receive_json()
        client.post(f"/api/games/{game['id']}/tokens", headers=auth(game["creator_token"]),
                    json={"role": "germans", "revoke": True})
        assert socket.receive_json()["type"] == "closed"
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()


def test_a_deleted_game_closes_its_sockets(client: TestClient, game: dict[str, Any]) -> None:
    with client.websocket_connect(path(game)) as socket:
        socket.send_json({"token": game["spectator_token"]})
        socket.receive_json()
        client.delete(f"/api/games/{game['id']}", headers=auth(game["creator_token"]))
        assert socket.receive_json()["type"] == "closed"
