"""Nothing lost: the server runs as a process on a loopback port, games are played over
HTTP, the process is killed (SIGKILL) between orders and while the computer plays, and the
restarted server rebuilds every game from its seed and orders to the stored hashes, with
every order it had acknowledged."""

from __future__ import annotations

import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.replay import parse_log, replay_log
from fibua.scenario.loader import scenario_from_dict
from server_helpers import PATIENCE, running_server


def stored(db: Path) -> dict[str, dict[str, Any]]:
    """Each game's seed, scenario and orders with their hashes, read straight from the file."""
    import json

    found: dict[str, dict[str, Any]] = {}
    with sqlite3.connect(db) as connection:
        for game_id, scenario, seed in connection.execute(
                "SELECT id, scenario, seed FROM games"):
            orders = connection.execute(
                "SELECT body, state_hash FROM orders WHERE game = ? ORDER BY n", (game_id,))
            found[game_id] = {"scenario": json.loads(scenario), "seed": int(seed),
                              "orders": [(json.loads(b), h) for b, h in orders]}
    return found


def replayed_hashes(entry: dict[str, Any]) -> list[str]:
    game = Game(scenario_from_dict(entry["scenario"]), entry["seed"])
    hashes = []
    for body, _ in entry["orders"]:
        game.apply(Order.from_dict(body))
        hashes.append(game.state_hash())
    return hashes


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def play_some(client: httpx.Client, made: dict[str, Any], seat: str, orders: int) -> int:
    """Give up to `orders` orders for a seat (the first legal move each time, ending the
    phase when it has none); returns how many the server acknowledged."""
    token = made["seat_tokens"][seat]
    acknowledged = 0
    end = time.monotonic() + PATIENCE
    while acknowledged < orders and time.monotonic() < end:
        message = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
        if message["status"]["over"]:
            break
        if not message["seat"]["may_act"]:
            time.sleep(0.05)
            continue
        moves = [o for o in message["legal"] if o["kind"] == "move"]
        if moves:
            order = moves[acknowledged % len(moves)]
            body = {"kind": "move", "unit": order["unit"], "params": order["params"]}
            answer = client.post(f"/api/games/{made['id']}/orders", headers=auth(token),
                                 json=body)
        else:
            answer = client.post(f"/api/games/{made['id']}/done", headers=auth(token))
        if answer.status_code == 200:
            acknowledged += 1
    return acknowledged


def test_killed_server_resumes_every_game_with_the_same_hashes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with running_server(db) as (process, client):
        people = [client.post("/api/games", json={"scenario": "corner-shop", "seed": seed,
                                                  "seats": {"british": "human"}}).json()
                  for seed in (1, 2)]
        given = {made["id"]: play_some(client, made, "british", 6) for made in people}
        machines = client.post("/api/games", json={"scenario": "corner-shop",
                                                   "seed": 8}).json()
        # killed while the computer plays the third game, a few orders in
        end = time.monotonic() + PATIENCE
        while len(stored(db).get(machines["id"], {"orders": []})["orders"]) < 3:
            assert time.monotonic() < end
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait()
    before = stored(db)
    assert set(before) == {*given, machines["id"]}
    assert len(before[machines["id"]]["orders"]) < 100  # far from its end
    for game_id, entry in before.items():
        assert replayed_hashes(entry) == [h for _, h in entry["orders"]], game_id
        people_orders = [b for b, _ in entry["orders"] if b["side"] == "british"]
        if game_id in given:
            assert len(people_orders) >= given[game_id] > 0
    with running_server(db) as (process, client):
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert set(listed) == set(before)
        for made in people:
            message = client.get(f"/api/games/{made['id']}",
                                 headers=auth(made["seat_tokens"]["british"]))
            assert message.status_code == 200, message.text
            assert message.json()["game"]["orders"] >= len(before[made["id"]]["orders"])
            play_some(client, made, "british", 2)
        end = time.monotonic() + PATIENCE
        while not client.get(f"/api/games/{machines['id']}",
                             headers=auth(machines["spectator_token"])).json()["status"]["over"]:
            assert time.monotonic() < end, "the computer game did not finish after the restart"
            time.sleep(0.1)
        text = client.get(f"/api/games/{machines['id']}/log.jsonl",
                          headers=auth(machines["spectator_token"])).text
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert replay_log(parse_log(text)).ok
    after = stored(db)
    for game_id, entry in after.items():
        # what was stored before the second kill is still there, and replays the same
        assert entry["orders"][: len(before[game_id]["orders"])] == before[game_id]["orders"]
        assert replayed_hashes(entry) == [h for _, h in entry["orders"]]
