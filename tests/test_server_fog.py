"""Fog of war at the server: every WebSocket frame and HTTP answer to one seat names no
enemy its side has not seen, checked against the game's own knowledge at the moment the
frame was made, until the game is over (then every side's troops are everyone's); an
order naming an unseen enemy is answered as one naming nobody is."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from fibua.server.hub import LiveGame
from server_helpers import auth, client_on, create, server, settled, state, wait_until

SIDE = "british"
#: orders the test's player gives before it stops (a bound on the test's length)
ORDERS = 30


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def enemy_names(live: LiveGame, side: str) -> set[str]:
    """Ids and names of every enemy unit (from the enemies' own views: the truth)."""
    names: set[str] = set()
    for other in live.game.scenario.side_names:
        if other != side:
            for unit in live.game.view(other)["own"]:
                names |= {str(unit["id"]), str(unit["name"])}
    return names


def known_names(live: LiveGame, side: str, before: set[str]) -> set[str]:
    """What the side knows of the enemy: every one its view holds or held, and every
    enemy named in an event addressed to it."""
    all_enemies = enemy_names(live, side)
    known = set(before)
    for enemy in live.game.view(side)["enemies"]:
        known |= {str(enemy["id"]), str(enemy["name"])}
    for event in live.game.log_for(side):
        text = json.dumps(event.data)
        known |= {name for name in all_enemies if mentions(text, name)}
    return known


def mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def leaks(payload: Any, hidden: set[str]) -> set[str]:
    text = json.dumps(payload, ensure_ascii=False)
    return {name for name in hidden if mentions(text, name)}


@pytest.mark.parametrize(("scenario", "seed", "seat"), [
    ("corner-shop", 3, "british"),
    ("ramp-houses", 4, "Lieutenant's group"),
    ("normandy-village", 2, "Lieutenant Price"),
])
def test_one_seat_hears_nothing_of_unseen_enemies(
        client: TestClient, scenario: str, seed: int, seat: str) -> None:
    made = create(client, scenario, seed, {seat: "human"})
    token = made["seat_tokens"][seat]
    hub = server(client).hub
    live = hub.games[made["id"]]
    knowledge: dict[int, set[str]] = {}
    latest: set[str] = set()

    def version() -> int:
        """The seat's message's version now (bumped as its message is made anew)."""
        return live.shown.get(seat, (b"", 0))[1]

    def record() -> None:
        nonlocal latest
        latest = known_names(live, SIDE, latest)
        knowledge[version()] = set(latest)

    original = hub.on_change

    def watched(game_id: str) -> None:
        original(game_id)
        if game_id == made["id"]:
            record()

    hub.on_change = watched
    all_enemies = enemy_names(live, SIDE)
    frames: list[dict[str, Any]] = []
    answers: list[tuple[int, Any]] = []
    chooser = random.Random(seed)
    try:
        with client.websocket_connect(f"/api/games/{made['id']}/ws") as socket:
            socket.send_json({"token": token})
            frames.append(socket.receive_json())
            record()
            given = 0
            while given < ORDERS and not live.game.over:
                wait_until(lambda: settled(client, made["id"]))
                message = state(client, made["id"], token)
                answers.append((message["version"], message))
                if not message["seat"]["may_act"]:
                    break
                legal = [o for o in message["legal"] if o["kind"] != "end"]
                if legal and chooser.random() < 0.8:
                    order = chooser.choice(legal)
                    body = {"kind": order["kind"], "unit": order["unit"],
                            "params": order["params"]}
                    shown = client.post(f"/api/games/{made['id']}/preview",
                                        headers=auth(token), json=body)
                    answers.append((version(), shown.json()))
                    answer = client.post(f"/api/games/{made['id']}/orders",
                                         headers=auth(token), json=body)
                    given += 1
                else:
                    answer = client.post(f"/api/games/{made['id']}/done", headers=auth(token))
                answers.append((version(), answer.json()))
                probe_unseen_names(client, made, token, live, latest, all_enemies, answers,
                                   version())
            wait_until(lambda: settled(client, made["id"]))
            current = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
            while frames[-1]["version"] < current["version"]:
                frames.append(socket.receive_json())
            assert socket_is_current(frames[-1], live)
    finally:
        hub.on_change = original
    assert len(frames) > 2
    for frame in frames:
        if frame["status"]["over"]:
            # once the game is over every side's troops are everyone's (the final map,
            # server/messages.py): only a frame of a game still going is held to its fog
            assert frame["revealed"] is not None and frame["ending"] is not None
            continue
        hidden = all_enemies - known_at(knowledge, frame["version"], latest)
        assert not leaks(frame, hidden), f"frame names unseen enemies {leaks(frame, hidden)}"
        assert all(e["kind"] for e in frame["events"])
    for count, answer in answers:
        hidden = all_enemies - known_at(knowledge, count, latest)
        assert not leaks(answer, hidden), f"answer names unseen enemies {leaks(answer, hidden)}"
    assert all_enemies - latest, "the test should leave some enemy unseen"


def known_at(knowledge: dict[int, set[str]], version: int, latest: set[str]) -> set[str]:
    """What the side knew when its message of `version` was made: as recorded at the first
    change recorded from that version on (its knowledge only grows)."""
    after = [v for v in knowledge if v >= version]
    return knowledge[min(after)] if after else latest


def socket_is_current(frame: dict[str, Any], live: LiveGame) -> bool:
    return bool(frame["status"]["to_act"] == live.game.to_act())


def probe_unseen_names(client: TestClient, made: dict[str, Any], token: str, live: LiveGame,
                       known: set[str], all_enemies: set[str],
                       answers: list[tuple[int, Any]], version: int) -> None:
    """An order at an unseen enemy gets the answer an order at a made-up name gets."""
    wait_until(lambda: settled(client, made["id"]))
    message = state(client, made["id"], token)
    if not message["seat"]["may_act"]:
        return
    unit = next((o["unit"] for o in message["legal"] if o["unit"]), None)
    unseen = sorted(all_enemies - known)
    if unit is None or not unseen:
        return
    kind = next(k for k in ("shoot", "fire", "move-fire") if k in live.game.ruleset.order_syntax)
    replies = []
    for name in (unseen[0], "nobody-at-all"):
        reply = client.post(f"/api/games/{made['id']}/preview", headers=auth(token),
                            json={"kind": kind, "unit": unit, "params": {"target": name}})
        replies.append((reply.status_code, reply.json()["message"].replace(name, "NAME")))
    assert replies[0] == replies[1]
    assert replies[0][0] == 422
    answers.append((version, replies))
