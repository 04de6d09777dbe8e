"""Helpers for the guard tests: every route the application has (read from its routing
table, so a route added later is covered too), filled in for a real game, and a snapshot
of everything a request could change."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient

from server_helpers import server

#: what each path parameter is filled with (the game's id comes from the game made)
FILLED = {"name": "corner-shop", "ruleset": "street-fight", "question": "shoot", "position": "0"}
#: a file under the static mount
STATIC_FILE = "/static/app.css"


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str

    @property
    def changes(self) -> bool:
        return self.method not in ("GET", "HEAD", "OPTIONS")


def fill(template: str, game_id: str) -> str:
    return re.sub(r"{(\w+)}", lambda m: game_id if m[1] == "game" else FILLED[m[1]], template)


def endpoints(client: TestClient, game_id: str) -> list[Endpoint]:
    """Every HTTP route and method of the application, for the game `game_id`."""
    found = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route):
            methods = sorted(route.methods or {"GET"})
            found += [Endpoint(m, fill(route.path, game_id)) for m in methods if m != "HEAD"]
        elif isinstance(route, Mount):
            found.append(Endpoint("GET", STATIC_FILE))
    return found


def socket_paths(client: TestClient, game_id: str) -> list[str]:
    return [fill(route.path, game_id) for route in client.app.routes  # type: ignore[attr-defined]
            if isinstance(route, WebSocketRoute)]


def db_file(client: TestClient) -> Path:
    return Path(server(client).hub.store.path)


def snapshot(client: TestClient) -> tuple[Any, ...]:
    """The games (each one's state hash and links) and the uploaded scenarios, in memory and
    in the database."""
    hub = server(client).hub
    games = sorted((game_id, live.game.state_hash(), sorted(live.tokens.items()))
                   for game_id, live in list(hub.games.items()))
    with sqlite3.connect(db_file(client)) as connection:
        rows = tuple(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                     for table in ("games", "orders", "scenarios", "tokens"))
        tokens = connection.execute("SELECT game, role, hash FROM tokens ORDER BY 1, 2").fetchall()
    return games, sorted(hub.uploaded), rows, tokens
