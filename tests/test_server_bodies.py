"""Malformed bodies on every route: never a 500, always a JSON reason, nothing changed.

Python's own limits turned some bodies into 500s with a traceback: JSON nested 100,000
deep (RecursionError), a 5,000-digit integer as a seed or in an order (the int-to-str
conversion's ValueError). The server reads JSON within its own limits (server/bodies.py)
and answers 4xx naming what is wrong; here hypothesis sends every route random JSON, deep
nesting, long numbers, wrong types, bytes that are not JSON and wrong content types."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from fibua.server.access import ApiError
from fibua.server.bodies import MAX_DEPTH, MAX_JSON_BYTES, MAX_NUMBER_CHARS, loads
from guard_helpers import endpoints, snapshot, socket_paths
from server_helpers import auth, client_on, create

DEEP = 100_000
LONG = "7" * 5_000


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


@pytest.fixture(scope="module")
def made(client: TestClient) -> dict[str, Any]:
    """Corner shop with both seats people's: nothing moves unless a request moves it."""
    return create(client, "corner-shop", 3, {"british": "human", "germans": "human"})


def token_for(made: dict[str, Any], path: str) -> dict[str, str]:
    """A token that gets past the door of each route without a body that moves the game:
    the seat's for the routes that read an order, the creator's for the links, and the
    spectator's (refused) for done, undo and delete, which read no body at all."""
    if path.endswith(("/preview", "/orders")):
        return auth(made["seat_tokens"]["british"])
    if path.endswith("/tokens"):
        return auth(made["creator_token"])
    return auth(made["spectator_token"])


def answered_cleanly(answer: httpx.Response, may_succeed: bool) -> dict[str, Any]:
    assert answer.status_code < 500, answer.text
    body: dict[str, Any] = answer.json()
    if answer.status_code >= 400 or not may_succeed:
        assert 400 <= answer.status_code < 500, answer.text
        assert isinstance(body["error"], str) and body["error"]
        assert isinstance(body["message"], str) and body["message"]
    return body


# -- the bodies -------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=5),
    max_leaves=25)
#: the bodies the routes read, each with one field given a value of a wrong type
shapes = st.sampled_from([
    {"scenario": "corner-shop", "seats": {}}, {"kind": "move", "unit": "hollis", "params": {}},
    {"role": "british", "revoke": False}, {"weapon": "rifle", "range": 9}])


@st.composite
def wrong_types(draw: st.DrawFn) -> str:
    shape = dict(draw(shapes))
    field = draw(st.sampled_from(sorted(shape)))
    # the value drawn must differ from the good one: `{"seats": {}}` is a good request (every
    # seat the computer's), which makes a game that then plays on by itself
    shape[field] = draw(json_values.filter(lambda value: value != shape[field]))
    return json.dumps(shape)


def nested(depth: int, inside: str = "1") -> str:
    opening, closing = ("[", "]") if depth % 2 else ('{"a":', "}")
    return opening * depth + inside + closing * depth


@st.composite
def deep(draw: st.DrawFn) -> str:
    depth = draw(st.integers(MAX_DEPTH + 1, DEEP))
    where = draw(st.sampled_from(["whole", "seed", "params"]))
    if where == "whole":
        return nested(depth)
    if where == "seed":
        return f'{{"scenario": "corner-shop", "seed": {nested(depth)}}}'
    return f'{{"kind": "move", "unit": "hollis", "params": {{"to": {nested(depth)}}}}}'


@st.composite
def long_numbers(draw: st.DrawFn) -> str:
    digits = draw(st.integers(MAX_NUMBER_CHARS + 1, 20_000))
    number = draw(st.sampled_from(["7" * digits, "-" + "7" * digits, "0." + "3" * digits,
                                   "1e999", "-1e999", "NaN", "Infinity", "-Infinity"]))
    return draw(st.sampled_from([
        f'{{"scenario": "corner-shop", "seed": {number}}}',
        f'{{"kind": "move", "unit": "hollis", "params": {{"to": [{number}, 1]}}}}',
        f'{{"weapon": "rifle", "range": {number}}}', f"[{number}]", number,
        f"[scenario]\nname = {number}\n"]))  # and as a scenario file's TOML


texts = st.one_of(json_values.map(json.dumps), wrong_types(), deep(), long_numbers(),
                  st.text(max_size=200))
bodies = st.one_of(texts.map(lambda text: text.encode("utf-8", "surrogatepass")),
                   st.binary(max_size=300), st.just(b"[" * (MAX_JSON_BYTES + 1)))
content_types = st.sampled_from([
    "application/json", "application/json; charset=utf-8", "text/plain",
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    "application/toml", "application/x-ndjson", ""])


# -- the property -----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), body=bodies, content_type=content_types)
def test_no_body_on_any_route_gives_a_500_or_changes_anything(
        client: TestClient, made: dict[str, Any], data: st.DataObject, body: bytes,
        content_type: str) -> None:
    changing = [p for p in endpoints(client, made["id"]) if p.changes]
    point = data.draw(st.sampled_from(changing))
    before = snapshot(client)
    answer = client.request(point.method, point.path, content=body, headers={
        **token_for(made, point.path), "content-type": content_type})
    # the odds change nothing: a body that happens to be a good question is answered
    answered_cleanly(answer, may_succeed=point.path.startswith("/api/odds/"))
    assert snapshot(client) == before


# -- the cases found, by name -----------------------------------------------------------------


def test_json_nested_100000_deep_is_refused_by_name(client: TestClient,
                                                    made: dict[str, Any]) -> None:
    headers = {"content-type": "application/json"}
    answer = client.post("/api/games", content=nested(2_000), headers=headers)
    assert answered_cleanly(answer, False)["error"] == "too-deep"
    answer = client.post("/api/games", content=nested(DEEP), headers=headers)
    assert answered_cleanly(answer, False)["error"] == "too-large"  # 413: past 64 KiB first
    answer = client.post("/api/replays", content=nested(DEEP) + "\n")
    assert "line 1" in answered_cleanly(answer, False)["message"]


def test_a_5000_digit_number_is_refused_by_name(client: TestClient, made: dict[str, Any]) -> None:
    before = snapshot(client)
    seat = {**auth(made["seat_tokens"]["british"]), "content-type": "application/json"}
    for path, body in (
            ("/api/games", f'{{"scenario": "corner-shop", "seed": {LONG}}}'),
            (f"/api/games/{made['id']}/orders",
             f'{{"kind": "move", "unit": "hollis", "params": {{"to": [{LONG}, 1]}}}}'),
            ("/api/odds/street-fight/shoot", f'{{"weapon": "rifle", "range": {LONG}}}'),
            ("/api/replays", f'{{"seed": {LONG}}}\n')):
        found = answered_cleanly(client.post(path, content=body, headers=seat), False)
        assert found["error"] == "number-too-long" and "5000 digits" in found["message"]
    upload = client.post("/api/scenarios", content=f"[scenario]\nname = {LONG}\n")
    assert "4300 digits" in answered_cleanly(upload, False)["problems"][0]["message"]
    assert snapshot(client) == before


def test_the_first_socket_message_is_read_within_the_same_limits(
        client: TestClient, made: dict[str, Any]) -> None:
    (path,) = socket_paths(client, made["id"])
    for text, code in ((nested(DEEP), "too-large"), (nested(100), "too-deep"),
                       (f'{{"token": {LONG}}}', "number-too-long"), ("{oops", "bad-json")):
        with client.websocket_connect(path) as socket:
            socket.send_text(text)
            assert socket.receive_json()["error"] == code
    with client.websocket_connect(path) as socket:
        socket.send_bytes(b'{"token": "x"}')
        assert socket.receive_json()["error"] == "not-json"


def test_the_limits_leave_every_honest_body_alone() -> None:
    honest = {"kind": "move", "unit": "dunn", "params": {"path": [[5, 9], [8, 12]]},
              "seed": 2**256 - 1, "odds": 0.125, "text": "[[[{{"}
    assert loads(json.dumps(honest)) == honest
    assert loads(nested(MAX_DEPTH)) is not None
    with pytest.raises(ApiError):
        loads(nested(MAX_DEPTH + 1))
