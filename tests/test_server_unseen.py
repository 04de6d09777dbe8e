"""An order a side cannot see changes nothing it is told: over every bundled scenario, orders
of the side to act that leave another side's view, events and the game's public status as
they were leave that side's messages (over HTTP, version and all), its WebSocket (no push)
and the public games list as they were; and two games that differ only in such an order
tell the watching side the same thing."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from fibua.core.events import EVERYONE
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import find_ruleset
from fibua.scenario.loader import bundled_scenarios
from fibua.server.hub import LiveGame
from server_helpers import auth, client_on, server, settled, wait_until

SEED = 5
#: orders of the side to act given in each scenario (each an unseen one where one is found)
STEPS = 4
#: legal orders tried for being unseen before one is given anyway
CANDIDATES = 12


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def all_human(client: TestClient, scenario: str) -> dict[str, Any]:
    """A game with every seat played by a person (so nothing moves but what the test asks)."""
    loaded = server(client).hub.bundled(scenario)
    ruleset = find_ruleset(loaded.ruleset)
    seats = {s.name: "human" for side in loaded.side_names
             for s in ruleset.seats(loaded, side)}
    answer = client.post("/api/games", json={"scenario": scenario, "seed": SEED,
                                             "seats": seats})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    wait_until(lambda: settled(client, made["id"]))
    return made


def fetch(client: TestClient, made: dict[str, Any], token: str) -> str:
    answer = client.get(f"/api/games/{made['id']}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return answer.text


def listed(client: TestClient, game_id: str) -> dict[str, Any]:
    entry: dict[str, Any] = next(g for g in client.get("/api/games").json()
                                 if g["id"] == game_id)
    return entry


def what_side_knows(game: Game, side: str) -> str:
    """Everything a side may know of the game now, as the rules tell it (the truth the
    messages are checked against)."""
    return json.dumps([game.view(side), [e.to_dict() for e in game.log_for(side)],
                       game.to_act(), game.over], sort_keys=True, default=str)


def public_knowledge(game: Game) -> str:
    view = game.view(game.scenario.side_names[0])
    status = [view.get(k) for k in ("turn", "phase", "step")]
    return json.dumps([status, [e.to_dict() for e in game.log if e.to == EVERYONE],
                       game.to_act(), game.over], sort_keys=True, default=str)


def replica(live: LiveGame) -> Game:
    game = Game(live.game.scenario, live.game.seed)
    for order in live.game.orders:
        game.apply(order)
    return game


def unseen_orders(live: LiveGame, side: str, legal: list[dict[str, Any]],
                  rng: random.Random) -> list[dict[str, Any]]:
    """Those of `legal` (a seat's listed orders, tried in a random order) that would leave
    every other side's knowledge and the public status as they are."""
    others = [s for s in live.game.scenario.side_names if s != side]
    before = replica(live)
    known = {s: what_side_knows(before, s) for s in others}
    public = public_knowledge(before)
    found = []
    candidates = [o for o in legal if o["kind"] != "end"]
    rng.shuffle(candidates)
    for entry in candidates[:CANDIDATES]:
        game = replica(live)
        try:
            game.apply(Order(side, entry["kind"], entry["unit"], entry["params"]))
        except Exception:
            continue
        if public_knowledge(game) == public and all(
                what_side_knows(game, s) == known[s] for s in others):
            found.append(entry)
    return found


def acting_seat(client: TestClient, made: dict[str, Any], live: LiveGame
                ) -> tuple[str, dict[str, Any]] | None:
    """A seat that may give orders now, with its message."""
    for name, token in made["seat_tokens"].items():
        plan = live.seat(name)
        if plan is not None and plan.side == live.game.to_act():
            message = json.loads(fetch(client, made, token))
            if message["seat"]["may_act"]:
                return name, message
    return None


def body(entry: dict[str, Any]) -> dict[str, Any]:
    return {"kind": entry["kind"], "unit": entry["unit"], "params": entry["params"]}


def frames_until(socket: Any, version: int) -> list[dict[str, Any]]:
    """The frames a socket has been sent, up to the one of `version` (sent by then)."""
    frames = [socket.receive_json()]
    while frames[-1]["version"] < version:
        frames.append(socket.receive_json())
    return frames


@pytest.mark.parametrize("scenario", sorted(bundled_scenarios()))
def test_orders_the_enemy_cannot_see_change_nothing_it_is_told(
        client: TestClient, scenario: str) -> None:
    made = all_human(client, scenario)
    live = server(client).hub.games[made["id"]]
    rng = random.Random(scenario)
    acting = live.game.to_act()
    assert acting is not None
    watchers = {name: token for name, token in made["seat_tokens"].items()
                if (plan := live.seat(name)) is not None and plan.side != acting}
    watchers[""] = made["spectator_token"]
    snapshots: dict[str, list[str]] = {name: [] for name in watchers}
    sockets = {name: client.websocket_connect(f"/api/games/{made['id']}/ws")
               for name in watchers}
    unseen = 0
    try:
        for name, socket in sockets.items():
            socket.__enter__()
            socket.send_json({"token": watchers[name]})
        for _ in range(STEPS):
            found = acting_seat(client, made, live)
            if found is None or live.game.to_act() != acting:
                break
            seat, message = found
            hidden = unseen_orders(live, acting, message["legal"], rng)
            if not hidden:
                break
            before = {name: fetch(client, made, token) for name, token in watchers.items()}
            entry_before = listed(client, made["id"])
            answer = client.post(f"/api/games/{made['id']}/orders",
                                 headers=auth(made["seat_tokens"][seat]), json=body(hidden[0]))
            assert answer.status_code == 200, answer.text
            wait_until(lambda: settled(client, made["id"]))
            unseen += 1
            for name, token in watchers.items():
                after = fetch(client, made, token)
                assert after == before[name], f"{scenario}: {name or 'spectator'} was told"
                snapshots[name].append(after)
            assert listed(client, made["id"]) == entry_before
        # then a change every side sees: the acting side's phase ends
        for name, token in made["seat_tokens"].items():
            plan = live.seat(name)
            if plan is not None and plan.side == acting:
                client.post(f"/api/games/{made['id']}/done", headers=auth(token))
        wait_until(lambda: settled(client, made["id"]))
        for name, token in watchers.items():
            last = fetch(client, made, token)
            snapshots[name].append(last)
            frames = frames_until(sockets[name], json.loads(last)["version"])
            versions = [f["version"] for f in frames]
            # a frame only when the message changed: versions one apart, no two alike
            assert versions == list(range(versions[0], versions[0] + len(frames)))
            contents = [{k: v for k, v in f.items() if k != "version"} for f in frames]
            assert all(a != b for a, b in itertools.pairwise(contents))
            by_version = {f["version"]: f for f in frames}
            for text in snapshots[name]:
                shown = json.loads(text)
                assert by_version[shown["version"]] == shown
    finally:
        for socket in sockets.values():
            socket.__exit__(None, None, None)
    assert unseen > 0, f"{scenario}: no order of {acting} was unseen by the others"


def without_id(text: str) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(text)
    message["game"] = {k: v for k, v in message["game"].items() if k != "id"}
    return message


@pytest.mark.parametrize("scenario", sorted(bundled_scenarios()))
def test_twin_games_that_differ_in_an_unseen_order_look_alike(
        client: TestClient, scenario: str) -> None:
    """Two games of the same seed: in one the side to act gives an order the others
    cannot see, in the other another such order (or none): every other seat and the
    spectators are told the same in both."""
    twins = [all_human(client, scenario), all_human(client, scenario)]
    lives = [server(client).hub.games[m["id"]] for m in twins]
    acting = lives[0].game.to_act()
    found = acting_seat(client, twins[0], lives[0])
    assert found is not None and acting is not None
    seat, message = found
    hidden = unseen_orders(lives[0], acting, message["legal"], random.Random(scenario))
    assert hidden, f"{scenario}: no order of {acting} is unseen by the others"
    given = [hidden[0], hidden[1] if len(hidden) > 1 else None]
    for made, entry in zip(twins, given, strict=True):
        if entry is not None:
            answer = client.post(f"/api/games/{made['id']}/orders",
                                 headers=auth(made["seat_tokens"][seat]), json=body(entry))
            assert answer.status_code == 200, answer.text
        wait_until(lambda made=made: settled(client, made["id"]))
    assert lives[0].game.orders != lives[1].game.orders
    watchers = [name for name in twins[0]["seat_tokens"]
                if (plan := lives[0].seat(name)) is not None and plan.side != acting]
    for name in watchers:
        told = [without_id(fetch(client, m, m["seat_tokens"][name])) for m in twins]
        assert told[0] == told[1], f"{scenario}: {name} can tell the twins apart"
    public = [without_id(fetch(client, m, m["spectator_token"])) for m in twins]
    assert public[0] == public[1]
    entries = [listed(client, m["id"]) for m in twins]
    assert [{k: v for k, v in e.items() if k not in ("id", "created")} for e in entries] \
        == [{k: v for k, v in entries[1].items() if k not in ("id", "created")}] * 2
