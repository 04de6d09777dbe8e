"""The after-action report and the replay of uploaded logs (Starlette's TestClient over a
fresh database): a game's report is refused to every holder until the game is over, then
given to all of them; an uploaded full log is verified and replayed, a bad one refused with
a 4xx JSON answer naming what is wrong, and nothing is stored either way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from fibua.core.replay import parse_log, replay_log
from fibua.server import reports
from server_helpers import auth, client_on, create, server, settled, state, wait_until

SEATS = {"british": "human", "germans": "human"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def holders(made: dict[str, Any]) -> dict[str, str]:
    """Every link of a game: its seats, the spectators and the creator."""
    return {**made["seat_tokens"], "spectator": made["spectator_token"],
            "creator": made["creator_token"]}


def play_to_the_end(client: TestClient, made: dict[str, Any]) -> None:
    """Each side ends its phases, whoever must act, until the turn limit ends the game."""
    game_id = made["id"]
    for _ in range(200):
        wait_until(lambda: settled(client, game_id))
        status = state(client, game_id, made["spectator_token"])["status"]
        if status["over"]:
            return
        token = made["seat_tokens"][status["to_act"]]
        answer = client.post(f"/api/games/{game_id}/done", headers=auth(token), json={})
        assert answer.status_code == 200, answer.text
    pytest.fail("the game did not end")


@pytest.fixture(scope="module")
def ended(client: TestClient) -> dict[str, Any]:
    """Corner shop, both sides people's, with one move each, played to the turn limit."""
    made = create(client, "corner-shop", 3, SEATS)
    for side in ("british", "germans"):
        wait_until(lambda: settled(client, made["id"]))
        message = state(client, made["id"], made["seat_tokens"][side])
        assert message["status"]["to_act"] == side
        move = next(o for o in message["legal"] if o["kind"] == "move")
        answer = client.post(f"/api/games/{made['id']}/orders", headers=auth(
            made["seat_tokens"][side]), json={k: move[k] for k in ("kind", "unit", "params")})
        assert answer.status_code == 200, answer.text
        client.post(f"/api/games/{made['id']}/done", headers=auth(made["seat_tokens"][side]))
    play_to_the_end(client, made)
    return made


@pytest.fixture(scope="module")
def full_log(client: TestClient, ended: dict[str, Any]) -> str:
    answer = client.get(f"/api/games/{ended['id']}/log.jsonl",
                        headers=auth(ended["spectator_token"]))
    assert answer.status_code == 200
    return answer.text


def refused(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] == code
    message: str = body["message"]
    assert message
    return message


def upload(client: TestClient, text: str | bytes) -> Any:
    return client.post("/api/replays", content=text,
                       headers={"content-type": "application/x-ndjson"})


# -- a game's report --------------------------------------------------------------------------


def test_pages_are_served(client: TestClient) -> None:
    assert "report.js" in client.get("/report/anything").text
    assert "watch.js" in client.get("/watch").text
    for name in ("report.js", "watch.js", "report.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert 'href="/watch"' in client.get("/").text


def test_no_holder_gets_the_report_before_the_end(client: TestClient) -> None:
    made = create(client, "corner-shop", 5, SEATS)
    for role, token in holders(made).items():
        message = refused(client.get(f"/api/games/{made['id']}/report", headers=auth(token)),
                          409, "game-not-over")
        assert "over" in message, role
    refused(client.get(f"/api/games/{made['id']}/report"), 403, "bad-token")
    refused(client.get(f"/api/games/{made['id']}/report", headers=auth("nonsense")), 403,
            "bad-token")
    refused(client.get("/api/games/nothing/report", headers=auth("x")), 404, "unknown-game")


def test_every_holder_gets_the_report_at_the_end(client: TestClient,
                                                 ended: dict[str, Any]) -> None:
    game = server(client).hub.games[ended["id"]].game
    found = [client.get(f"/api/games/{ended['id']}/report", headers=auth(token))
             for token in holders(ended).values()]
    assert all(answer.status_code == 200 for answer in found)
    bodies = [answer.json() for answer in found]
    assert all(body == bodies[0] for body in bodies)
    body = bodies[0]
    result = game.result()
    assert result is not None and body["result"] == result.to_dict()
    assert body["state_hash"] == game.state_hash() and body["orders"] == len(game.orders)
    # the seed as text: a drawn seed is 128 bits, which a JSON number loses in the page
    # (the report showed "seed 1.9983544392482354e+38")
    assert body["seed"] == str(game.seed)
    assert body["map"].startswith("<svg")
    assert [s["name"] for s in body["sides"]] == ["british", "germans"]
    turns = [t["turn"] for t in body["turns"]]
    assert turns == sorted(set(turns)) and game.scenario.scenario.turns in turns
    # Control's view: both sides' figures every turn, each where its own side had it
    for turn in body["turns"]:
        for side in ("british", "germans"):
            assert turn["standing"][side], (turn["turn"], side)
    last = body["turns"][-1]["standing"]
    for side in ("british", "germans"):
        own = game.view(side)["own"]
        assert [(f["id"], f["x"], f["y"]) for f in last[side]] == [
            (str(u["id"]), u["x"], u["y"]) for u in own]
    # every event of the game, each once, including those for one side or Control alone
    events = [e for t in body["turns"] for e in t["events"]]
    assert len(events) == len(game.log)
    assert {e["to"] for e in events} >= {"british", "germans"}  # each side alone too
    moved = [e for e in events if e["kind"] == "moved"]
    assert len(moved) == 2


def test_the_report_gives_a_drawn_seed_digit_for_digit(client: TestClient) -> None:
    # a drawn seed is 128 bits: as a JSON number the page's reader would round it (past
    # 2**53), and nobody could play the game again from the seed the report shows
    seed = 2**127 + 12345
    made = create(client, "corner-shop", seed, SEATS)
    play_to_the_end(client, made)
    body = client.get(f"/api/games/{made['id']}/report", headers=auth(made["creator_token"]))
    assert body.status_code == 200, body.text
    assert body.json()["seed"] == str(seed)
    assert f'"seed":"{seed}"' in body.text.replace(" ", "")


def test_the_report_is_the_replay_of_the_downloaded_log(client: TestClient,
                                                        ended: dict[str, Any],
                                                        full_log: str) -> None:
    assert replay_log(parse_log(full_log)).ok
    mine = client.get(f"/api/games/{ended['id']}/report",
                      headers=auth(ended["spectator_token"])).json()
    uploaded = upload(client, full_log)
    assert uploaded.status_code == 200, uploaded.text
    # the server's report says who played (a log does not)
    assert mine["players"] == [{"name": "british", "side": "british", "player": "human"},
                               {"name": "germans", "side": "germans", "player": "human"}]
    assert {**uploaded.json(), "id": ended["id"], "players": mine["players"]} == mine


# -- uploads ----------------------------------------------------------------------------------


def test_an_upload_is_stored_nowhere(client: TestClient, full_log: str) -> None:
    before = client.get("/api/games").json()
    stored = len(server(client).hub.store.games())
    assert upload(client, full_log).status_code == 200
    assert client.get("/api/games").json() == before
    assert len(server(client).hub.store.games()) == stored


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def joined(entries: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, sort_keys=True, separators=(",", ":"),
                              ensure_ascii=False) + "\n" for e in entries)


def test_a_wrong_hash_is_refused_at_its_line(client: TestClient, full_log: str) -> None:
    entries = lines_of(full_log)
    entries[-1]["state_hash"] = "0" * 64
    message = refused(upload(client, joined(entries)), 422, "replay-mismatch")
    assert f"line {len(entries)}" in message and "0" * 64 in message


def test_a_changed_event_is_refused_at_its_line(client: TestClient, full_log: str) -> None:
    entries = lines_of(full_log)
    first_order = next(n for n, e in enumerate(entries) if e["type"] == "order")
    at = next(n for n, e in enumerate(entries) if e["type"] == "event" and n > first_order)
    text = joined(entries).splitlines(keepends=True)
    changed = json.loads(text[at])
    changed["seq"] = changed["seq"] + 1000
    text[at] = json.dumps(changed, sort_keys=True, separators=(",", ":")) + "\n"
    message = refused(upload(client, "".join(text)), 422, "replay-mismatch")
    assert f"line {at + 1}" in message


def test_not_json_lines_are_refused_naming_the_line(client: TestClient, full_log: str) -> None:
    message = refused(upload(client, "hello world\n"), 422, "bad-log")
    assert "line 1" in message and "JSON" in message
    broken = full_log.splitlines(keepends=True)
    broken[2] = "{not json\n"
    assert "line 3" in refused(upload(client, "".join(broken)), 422, "bad-log")
    assert "empty" in refused(upload(client, b""), 422, "bad-log")
    assert "UTF-8" in refused(upload(client, b"\xff\xfe\x00garbage"), 422, "bad-log")
    cut = "".join(full_log.splitlines(keepends=True)[:-1])
    assert "end line" in refused(upload(client, cut), 422, "bad-log")


def test_an_unknown_rule_set_is_refused(client: TestClient, full_log: str) -> None:
    entries = lines_of(full_log)
    entries[0]["ruleset"] = "chess"
    message = refused(upload(client, joined(entries)), 422, "unknown-ruleset")
    assert "'chess'" in message


def test_a_side_log_is_refused(client: TestClient, ended: dict[str, Any]) -> None:
    made = create(client, "corner-shop", 7, SEATS)
    side_log = client.get(f"/api/games/{made['id']}/log.jsonl",
                          headers=auth(made["seat_tokens"]["germans"]))
    assert side_log.status_code == 200
    message = refused(upload(client, side_log.text), 422, "side-log")
    assert "'germans'" in message and "full log" in message


def test_a_log_too_big_is_refused(client: TestClient, full_log: str,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "MAX_LOG_BYTES", len(full_log.encode()) - 1)
    assert "larger" in refused(upload(client, full_log), 413, "too-big")
    chunked = client.post("/api/replays", content=iter([full_log.encode()]))  # no length
    assert "larger" in refused(chunked, 413, "too-big")
    monkeypatch.setattr(reports, "MAX_LOG_BYTES", len(full_log.encode()))
    assert upload(client, full_log).status_code == 200


def test_a_log_with_an_order_the_rules_refuse(client: TestClient, full_log: str) -> None:
    entries = lines_of(full_log)
    at = next(n for n, e in enumerate(entries) if e["type"] == "order" and e["kind"] == "move")
    entries[at]["params"] = {"to": [-500.0, -500.0]}
    message = refused(upload(client, joined(entries)), 422, "replay-mismatch")
    assert f"line {at + 1}" in message
