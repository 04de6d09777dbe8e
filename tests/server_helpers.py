"""Helpers for the server tests: an application over a fresh database, games made through
the API, and waiting (by polling, with a bound) until the computer seats have played."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from fibua.server.app import Server, create_app
from fibua.server.guard import served

TEST_HOSTS = served("127.0.0.1", None, also=["testserver"])
#: how long a test waits for the computer seats before it fails (a bound, not a measure)
PATIENCE = 120.0


@contextmanager
def client_on(db: Path) -> Iterator[TestClient]:
    # TestClient's requests name the host "testserver": answered as a loopback name
    with TestClient(create_app(db, hosts=TEST_HOSTS)) as client:
        yield client


def server(client: TestClient) -> Server:
    found: Server = client.app.state.server  # type: ignore[attr-defined]
    return found


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def wait_until(check: Callable[[], Any]) -> Any:
    """Poll `check` until it gives a true value; fail after PATIENCE seconds."""
    end = time.monotonic() + PATIENCE
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("the server never got there")
        time.sleep(0.05)


def settled(client: TestClient, game_id: str) -> bool:
    """Whether the server has nothing more to do for the game (waits for a person)."""
    return game_id not in server(client).driving


def create(client: TestClient, scenario: str, seed: int | None = 3,
           seats: dict[str, str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"scenario": scenario, "seats": seats or {}}
    if seed is not None:
        body["seed"] = seed
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    wait_until(lambda: settled(client, made["id"]))
    return made


def state(client: TestClient | httpx.Client, game_id: str, token: str) -> dict[str, Any]:
    """The holder's message; a seat's with its orders and idle reasons (`legal`, `idle`),
    fetched as the page fetches them."""
    answer = client.get(f"/api/games/{game_id}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return with_orders(client, game_id, token, found)


def with_orders(client: TestClient | httpx.Client, game_id: str, token: str,
                message: dict[str, Any]) -> dict[str, Any]:
    """A seat's message with the orders it may give (asked for when it may act, as the
    page does: `legal` and `idle`, empty otherwise)."""
    if message.get("role") != "seat":
        return message
    if not message["seat"]["may_act"]:
        return {**message, "legal": [], "idle": {}}
    answer = client.get(f"/api/games/{game_id}/orders", headers=auth(token))
    assert answer.status_code == 200, answer.text
    orders = answer.json()
    return {**message, "legal": orders["legal"], "idle": orders["idle"]}


def seat_state(client: TestClient, made: dict[str, Any], seat: str) -> dict[str, Any]:
    """The seat's message once the computer seats have played up to a person's turn."""
    wait_until(lambda: settled(client, made["id"]))
    return state(client, made["id"], made["seat_tokens"][seat])


def state_hash(client: TestClient, game_id: str) -> str:
    return server(client).hub.games[game_id].game.state_hash()


def first_move(message: dict[str, Any]) -> dict[str, Any]:
    order = next(o for o in message["legal"] if o["kind"] == "move")
    return {"kind": order["kind"], "unit": order["unit"], "params": order["params"]}


# -- a real server process --------------------------------------------------------------------

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_server(db: Path, *options: str
                   ) -> Iterator[tuple[subprocess.Popen[bytes], httpx.Client]]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).parent.parent / "src"), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        # --no-prepare: a test's games compile what they call, with no warm-up beside them
        [sys.executable, "-m", "fibua.cli.main", "serve", "--no-prepare", "--db", str(db),
         "--host", HOST, "--port", str(port), *options], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT)
    client = httpx.Client(base_url=f"http://{HOST}:{port}", timeout=PATIENCE)
    try:
        end = time.monotonic() + PATIENCE
        while True:
            try:
                if client.get("/api/games").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, process.stdout.read() if process.stdout else ""
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.1)
        yield process, client
    finally:
        client.close()
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdout:
            process.stdout.close()


