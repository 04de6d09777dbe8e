"""Host, Origin and the security headers (server/guard.py), on every route the application
has: a request naming another host is refused (DNS rebinding), a state-changing request or
WebSocket handshake from another site's page is refused and changes nothing, the server's
own pages and clients without Origin pass, and every answer carries the headers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from fibua.server.guard import SECURITY_HEADERS, Guard, served
from guard_helpers import endpoints, snapshot, socket_paths
from server_helpers import auth, client_on, create, running_server

#: the host TestClient's requests name, and so the server's own origin there
OWN = "http://testserver"
OTHERS = ["http://evil.example", "http://127.0.0.1:9999", "https://testserver", "null",
          "http://testserver.evil.example", "file://"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


@pytest.fixture(scope="module")
def made(client: TestClient) -> dict[str, Any]:
    """Corner shop with both seats people's: nothing moves unless a request moves it."""
    return create(client, "corner-shop", 3, {"british": "human", "germans": "human"})


def headers_for(made: dict[str, Any], path: str, **more: str) -> dict[str, str]:
    """The creator's token for the creator's routes, else the British seat's."""
    creator = path.endswith("/tokens") or path == f"/api/games/{made['id']}"
    token = made["creator_token"] if creator else made["seat_tokens"]["british"]
    return {**auth(token), "content-type": "application/json", **more}


def reason(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] == code
    message: str = body["message"]
    return message


# -- what a served address is -----------------------------------------------------------------


def test_a_server_on_loopback_answers_to_every_loopback_name_on_its_port() -> None:
    hosts = served("127.0.0.1", 8000)
    for name in ("127.0.0.1", "localhost", "[::1]"):
        assert hosts.allows(name, 8000)
        assert not hosts.allows(name, 8001)
    assert not hosts.allows("evil.example", 8000)
    assert not hosts.allows("192.168.1.5", 8000)  # not an address it listens on


def test_a_server_on_every_interface_answers_to_addresses_but_no_other_name() -> None:
    hosts = served("0.0.0.0", 8000, also=["Gamebox.local"])
    assert hosts.allows("192.168.1.5", 8000) and hosts.allows("[fe80::1]", 8000)
    assert hosts.allows("localhost", 8000)
    assert hosts.allows("gamebox.local", 443)  # a name it was told, on any port
    assert not hosts.allows("evil.example", 8000)  # a rebinding page's own name


def test_a_server_on_one_address_answers_to_that_address() -> None:
    hosts = served("192.168.1.5", 8080)
    assert hosts.allows("192.168.1.5", 8080)
    assert not hosts.allows("localhost", 8080) and not hosts.allows("10.0.0.1", 8080)


def test_a_request_naming_no_host_is_refused() -> None:
    guard = Guard(lambda *_: None, served("127.0.0.1", 8000))  # type: ignore[arg-type]
    refusal = guard.refusal({"type": "http", "method": "GET", "scheme": "http", "headers": []})
    assert refusal is not None and refusal.status_code == 400
    assert b"naming no host" in refusal.body


# -- every route ------------------------------------------------------------------------------


def test_every_route_refuses_another_host(client: TestClient, made: dict[str, Any]) -> None:
    before = snapshot(client)
    for point in endpoints(client, made["id"]):
        answer = client.request(point.method, point.path, content=b"{}",
                                headers=headers_for(made, point.path, host="evil.example"))
        assert "evil.example" in reason(answer, 400, "bad-host"), point
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert snapshot(client) == before


def test_every_state_changing_route_refuses_another_origin(client: TestClient,
                                                           made: dict[str, Any]) -> None:
    before = snapshot(client)
    changing = [p for p in endpoints(client, made["id"]) if p.changes]
    assert len(changing) >= 10  # games, orders, uploads, replays, odds...
    for point in changing:
        for origin in OTHERS:
            answer = client.request(point.method, point.path, content=b"{}",
                                    headers=headers_for(made, point.path, origin=origin))
            reason(answer, 403, "cross-origin")
    assert snapshot(client) == before


def test_a_page_of_another_origin_cannot_create_a_game(client: TestClient) -> None:
    """The attack found: a form or a text/plain fetch from any page made a game."""
    before = snapshot(client)
    body = '{"scenario": "corner-shop"}'
    for content_type in ("text/plain", "application/json"):
        answer = client.post("/api/games", content=body, headers={
            "origin": "http://evil.example", "content-type": content_type})
        reason(answer, 403, "cross-origin")
    assert snapshot(client) == before


def test_reads_from_any_origin_and_requests_without_origin_pass(client: TestClient,
                                                                made: dict[str, Any]) -> None:
    assert client.get("/api/games", headers={"origin": "http://evil.example"}).status_code == 200
    for origin in ({}, {"origin": OWN}, {"origin": OWN + ":80"}):
        answer = client.post(f"/api/games/{made['id']}/preview", json={"kind": "nothing"},
                             headers={**auth(made["seat_tokens"]["british"]), **origin})
        assert answer.status_code == 422, answer.text  # the rules' refusal, past the guard


def test_a_json_route_refuses_any_other_content_type(client: TestClient) -> None:
    before = snapshot(client)
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "",
                         "multipart/form-data; boundary=x", "application/jsonp"):
        answer = client.post("/api/games", content=b'{"scenario": "corner-shop"}',
                             headers={"content-type": content_type})
        reason(answer, 415, "not-json")
    assert snapshot(client) == before


def test_every_answer_carries_the_security_headers(client: TestClient,
                                                   made: dict[str, Any]) -> None:
    points = endpoints(client, made["id"])
    answers = [client.request(p.method, p.path, headers=headers_for(made, p.path))
               for p in points if not p.changes]
    answers += [client.get("/static/nothing.js"), client.post("/api/games", content=b"[")]
    for answer in answers:
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers[name] == value, (answer.request.url, name)
    policy = SECURITY_HEADERS["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


def test_the_pages_hold_nothing_the_policy_refuses(client: TestClient) -> None:
    """No inline script or style: the policy would block it and the page would break."""
    for page in ("/", "/play/x", "/report/x", "/watch"):
        html = client.get(page).text
        assert "<style" not in html and " style=" not in html, page
        assert "<script>" not in html and "<script src" in html, page
        assert " onclick=" not in html and "javascript:" not in html, page


def test_a_socket_from_another_origin_or_host_is_refused(client: TestClient,
                                                         made: dict[str, Any]) -> None:
    (path,) = socket_paths(client, made["id"])
    for headers, status, code in (({"origin": "http://evil.example"}, 403, "cross-origin"),
                                  ({"host": "evil.example"}, 400, "bad-host")):
        with pytest.raises(WebSocketDenialResponse) as refused:
            client.websocket_connect(path, headers=headers).__enter__()
        assert refused.value.status_code == status
        assert refused.value.json()["error"] == code
    with client.websocket_connect(path, headers={"origin": OWN}) as socket:
        socket.send_json({"token": made["seat_tokens"]["british"]})
        assert socket.receive_json()["type"] == "state"


# -- a real server --------------------------------------------------------------------------


def test_a_real_server_refuses_another_host_and_a_foreign_socket(tmp_path: Any) -> None:
    """The same over uvicorn: its WebSocket refusal is a real HTTP answer."""
    with running_server(tmp_path / "games.sqlite3", "--allow-host", "Gamebox.Local") as (_, http):
        reason(http.get("/api/games", headers={"host": "evil.example:80"}), 400, "bad-host")
        for name in ("localhost", "127.0.0.1"):
            port = http.base_url.port
            assert http.get("/api/games", headers={"host": f"{name}:{port}"}).status_code == 200
        assert http.get("/api/games", headers={"host": "localhost:1"}).status_code == 400
        assert http.get("/api/games", headers={"host": "gamebox.local"}).status_code == 200
        url = str(http.base_url).replace("http://", "ws://") + "/api/games/nosuch/ws"
        with pytest.raises(InvalidStatus) as refused:
            connect(url, origin="http://evil.example").close()  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        with connect(url, origin=str(http.base_url).rstrip("/")) as socket:  # type: ignore[arg-type]
            socket.send('{"token": "wrong"}')
            assert '"error"' in str(socket.recv())
