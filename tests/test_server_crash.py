"""Nothing lost: the server runs as a process on a loopback port, games are played over
HTTP, the process is killed (SIGKILL) between orders, while the computer plays and while
orders are on their way, and the restarted server rebuilds every game from its seed and
orders to the stored hashes, with every order it had acknowledged; an order whose answer
never came is either all there or not at all."""

from __future__ import annotations

import random
import signal
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.replay import parse_log, replay_log
from fibua.scenario.loader import scenario_from_dict
from server_helpers import PATIENCE, running_server, state


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
        message = state(client, made["id"], token)
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
            assert len(stored(db)[made["id"]]["orders"]) >= len(before[made["id"]]["orders"])
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


# -- many games, killed again and again ------------------------------------------------------

GAMES = 10
SEEDS = range(11, 11 + GAMES)
#: moves a person gives in a phase before pressing Done (so turns pass and the computer plays)
MOVES_A_PHASE = 3


@dataclass
class Person:
    """A person playing the British of one game over HTTP, and what the server told them."""

    made: dict[str, Any]
    #: every move the server acknowledged (200), in order, across every restart
    acknowledged: list[dict[str, Any]] = field(default_factory=list)
    #: the move sent whose answer never came (the server was killed meanwhile)
    unanswered: dict[str, Any] | None = None
    #: moves acknowledged since the last restart
    fresh: int = 0

    @property
    def token(self) -> str:
        token: str = self.made["seat_tokens"]["british"]
        return token


def stored_move(body: dict[str, Any]) -> dict[str, Any]:
    return {"kind": body["kind"], "unit": body.get("unit"), "params": body.get("params", {})}


def give_orders(base: str, person: Person, limit: int | None, stop: threading.Event) -> None:
    """Play the British: moves (the n-th legal one) and Done after a few, until `limit`
    moves are acknowledged, `stop` is set, or the server goes away mid-request."""
    game_id = person.made["id"]
    given = 0
    with httpx.Client(base_url=base, timeout=PATIENCE) as client:
        try:
            while (limit is None or given < limit) and not stop.is_set():
                message = state(client, game_id, person.token)
                if message["status"]["over"]:
                    return
                if not message["seat"]["may_act"]:
                    time.sleep(0.02)
                    continue
                moves = [o for o in message["legal"] if o["kind"] == "move"]
                if not moves or given % (MOVES_A_PHASE + 1) == MOVES_A_PHASE:
                    client.post(f"/api/games/{game_id}/done", headers=auth(person.token))
                    given += 1
                    continue
                move = stored_move(moves[(len(person.acknowledged) * 7) % len(moves)])
                person.unanswered = move
                answer = client.post(f"/api/games/{game_id}/orders", headers=auth(person.token),
                                     json=move)
                person.unanswered = None
                if answer.status_code == 200:
                    person.acknowledged.append(move)
                    person.fresh += 1
                    given += 1
        except httpx.TransportError:
            return  # killed: what was unanswered stays noted


def check_nothing_lost(db: Path, people: list[Person]) -> None:
    """Every stored order replays to its stored hash (no half-written order), every
    acknowledged move is stored in order, and an unanswered one is either all there (the
    last) or not at all."""
    found = stored(db)
    assert set(found) == {p.made["id"] for p in people}
    for person in people:
        entry = found[person.made["id"]]
        assert replayed_hashes(entry) == [h for _, h in entry["orders"]]
        moves = [stored_move(b) for b, _ in entry["orders"]
                 if b["side"] == "british" and b["kind"] == "move"]
        if person.unanswered is not None and moves == [*person.acknowledged,
                                                       person.unanswered]:
            person.acknowledged.append(person.unanswered)  # committed; the reply was lost
        assert moves == person.acknowledged, person.made["id"]
        person.unanswered = None


def test_many_games_killed_between_and_during_orders_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rng = random.Random(5)
    in_flight_at_kills = 0
    people: list[Person] = []
    for round_ in range(4):
        with running_server(db) as (process, client):
            base = str(client.base_url)
            if not people:
                people = [Person(client.post("/api/games", json={
                    "scenario": "corner-shop", "seed": seed,
                    "seats": {"british": "human"}}).json()) for seed in SEEDS]
            for person in people:
                person.fresh = 0
                reply = client.get(f"/api/games/{person.made['id']}",
                                   headers=auth(person.token))
                assert reply.status_code == 200, reply.text  # rebuilt, not damaged
            stop = threading.Event()
            between = round_ == 0
            threads = [threading.Thread(target=give_orders,
                                        args=(base, p, 2 if between else None, stop))
                       for p in people]
            for thread in threads:
                thread.start()
            if between:
                for thread in threads:
                    thread.join(PATIENCE)
            else:
                end = time.monotonic() + PATIENCE
                while sum(p.fresh > 0 for p in people) < GAMES // 2:
                    assert time.monotonic() < end, "the people could give no orders"
                    time.sleep(0.02)
                time.sleep(rng.uniform(0.0, 0.3))
                # then the kill waits for an order on its way: answered in a few
                # milliseconds, one is rarely found at a moment picked at random
                end = time.monotonic() + PATIENCE
                while not any(p.unanswered is not None for p in people):
                    assert time.monotonic() < end, "no order was ever on its way"
                    time.sleep(0.0005)
            in_flight = sum(p.unanswered is not None for p in people)
            process.send_signal(signal.SIGKILL)
            process.wait()
            stop.set()
            for thread in threads:
                thread.join(PATIENCE)
            if between:
                assert in_flight == 0
            in_flight_at_kills += in_flight
        check_nothing_lost(db, people)
    # the kills did land while orders were on their way
    assert in_flight_at_kills > 0
    assert all(p.acknowledged for p in people)
    with running_server(db) as (process, client):
        for person in people:
            reply = client.get(f"/api/games/{person.made['id']}", headers=auth(person.token))
            assert reply.status_code == 200, reply.text
            assert reply.json()["event_count"] > 0
        process.send_signal(signal.SIGKILL)
        process.wait()
