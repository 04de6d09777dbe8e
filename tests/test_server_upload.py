"""Scenarios uploaded in the lobby: a valid file is kept, listed beside the bundled ones
with its map and briefing, and can be played, through a restart; a file with problems gets
every one with its field path; garbage (binary, not UTF-8, too large, malformed or absurdly
nested TOML, a bundled scenario's name) gets a 4xx JSON naming the problem, and nothing
changes."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from fibua.scenario.loader import bundled_scenarios
from fibua.server.scenarios import MAX_UPLOAD_BYTES
from server_helpers import auth, client_on, create, seat_state, state_hash

CORNER_SHOP = bundled_scenarios()["corner-shop"].read_text(encoding="utf-8")


def renamed(text: str, name: str, title: str) -> str:
    """The corner shop under another name and title."""
    out = text.replace('name = "corner-shop"', f'name = "{name}"', 1)
    return out.replace('title = "The Corner Shop"', f'title = "{title}"', 1)


MY_SHOP = renamed(CORNER_SHOP, "my-shop", "My Own Shop")


def upload(client: TestClient, data: bytes | str, filename: str = "mine.toml") -> Any:
    body = data.encode() if isinstance(data, str) else data
    return client.post(f"/api/scenarios?filename={filename}", content=body,
                       headers={"content-type": "application/toml"})


def kept_rows(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT name, source FROM scenarios ORDER BY name").fetchall()


def listed(client: TestClient) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in client.get("/api/scenarios").json()}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with client_on(db) as found:
        yield found


def refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert body["error"] == code and body["message"]
    return body


def test_a_valid_upload_is_listed_played_and_survives_a_restart(db: Path) -> None:
    with client_on(db) as client:
        answer = upload(client, MY_SHOP)
        assert answer.status_code == 201, answer.text
        made = answer.json()
        assert made["name"] == "my-shop" and made["uploaded"] is True
        scenarios = listed(client)
        assert scenarios["my-shop"]["title"] == "My Own Shop"
        assert scenarios["my-shop"]["seats"] == scenarios["corner-shop"]["seats"]
        assert scenarios["my-shop"]["objectives"] and scenarios["my-shop"]["description"]
        assert not scenarios["corner-shop"]["uploaded"]
        picture = client.get("/api/scenarios/my-shop/map.svg")
        assert picture.status_code == 200 and picture.text.lstrip().startswith("<")
        game = create(client, "my-shop", 3, {"british": "human"})
        message = seat_state(client, game, "british")
        assert message["game"]["scenario"] == "my-shop"
        order = next(o for o in message["legal"] if o["kind"] == "move")
        answer = client.post(f"/api/games/{game['id']}/orders",
                             headers=auth(game["seat_tokens"]["british"]),
                             json={"kind": "move", "unit": order["unit"],
                                   "params": order["params"]})
        assert answer.status_code == 200, answer.text
        before = state_hash(client, game["id"])
    assert kept_rows(db) == [("my-shop", "mine.toml")]
    with client_on(db) as client:
        assert listed(client)["my-shop"]["title"] == "My Own Shop"
        assert state_hash(client, game["id"]) == before
        again = client.get(f"/api/games/{game['id']}", headers=auth(game["seat_tokens"]["british"]))
        assert again.status_code == 200 and again.json()["game"]["scenario"] == "my-shop"
        # a second game can be made on it after the restart
        assert client.post("/api/games", json={"scenario": "my-shop", "seed": 1}).status_code == 201


def test_an_upload_under_the_same_name_replaces_it_and_old_games_keep_theirs(
        client: TestClient, db: Path) -> None:
    assert upload(client, MY_SHOP).status_code == 201
    game = create(client, "my-shop", 4, {"british": "human"})
    second = renamed(CORNER_SHOP, "my-shop", "My Shop, Second Draft")
    assert upload(client, second, "draft2.toml").status_code == 201
    assert listed(client)["my-shop"]["title"] == "My Shop, Second Draft"
    assert kept_rows(db) == [("my-shop", "draft2.toml")]
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games[game["id"]]["title"] == "My Own Shop"


def test_every_problem_comes_back_with_its_field_path(client: TestClient, db: Path) -> None:
    broken = MY_SHOP.replace("\nturns = 13\n", "\nturns = 0\n", 1).replace(
        'ruleset = "street-fight"', 'ruleset = "street-fight"\nweather = "rain"', 1)
    body = refused(upload(client, broken), 422, "invalid-scenario")
    paths = {p["path"] for p in body["problems"]}
    assert {"scenario.turns", "scenario.weather"} <= paths, body
    assert all(p["message"] for p in body["problems"])
    assert "2 problems" in body["message"] and "mine.toml" in body["message"]
    assert kept_rows(db) == [] and "my-shop" not in listed(client)


@pytest.mark.parametrize(("data", "status", "code", "said"), [
    (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 400, "not-text", "binary"),
    ("café".encode("latin-1"), 400, "not-text", "UTF-8"),
    (b"", 422, "invalid-scenario", "empty"),
    (b"[scenario\nname = ", 422, "invalid-scenario", "TOML"),
    (b"x = " + b"[" * 100_000, 422, "invalid-scenario", ""),
    (b"[scenario]\nname = 1\n", 422, "invalid-scenario", ""),
    (b"# " + b"x" * MAX_UPLOAD_BYTES + b"\n", 413, "too-large", "KiB"),
])
def test_garbage_is_refused_naming_the_problem_and_changes_nothing(
        client: TestClient, db: Path, data: bytes, status: int, code: str, said: str) -> None:
    before = listed(client)
    body = refused(upload(client, data), status, code)
    text = body["message"] + " ".join(p["message"] for p in body.get("problems", []))
    assert said in text
    assert listed(client) == before and kept_rows(db) == []


def test_a_body_streamed_past_the_limit_is_cut_off(client: TestClient, db: Path) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_UPLOAD_BYTES // 65536 + 2):
            yield b"#" * 65536

    answer = client.post("/api/scenarios", content=chunks())
    refused(answer, 413, "too-large")
    assert kept_rows(db) == []


def test_a_bundled_name_is_not_taken(client: TestClient, db: Path) -> None:
    body = refused(upload(client, CORNER_SHOP), 409, "name-taken")
    assert "corner-shop" in body["message"]
    assert kept_rows(db) == []


def test_unknown_scenarios_are_refused(client: TestClient) -> None:
    refused(client.get("/api/scenarios/nothing-here/map.svg"), 404, "unknown-scenario")
    refused(client.post("/api/games", json={"scenario": "nothing-here"}), 404,
            "unknown-scenario")


def test_an_uploaded_file_cannot_put_markup_in_the_map(client: TestClient) -> None:
    sneaky = MY_SHOP.replace('name = "Epicerie Lemoine (the corner shop)"',
                             'name = "<script>alert(1)</script>"', 1)
    assert sneaky != MY_SHOP
    assert upload(client, sneaky).status_code == 201
    picture = client.get("/api/scenarios/my-shop/map.svg").text
    assert "<script" not in picture and "&lt;script&gt;" in picture
