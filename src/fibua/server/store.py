"""The server's database: one SQLite file in WAL mode, written by one thread.

A game is kept as what makes it: the scenario's table, the seed and the orders, each order
with its events and the state hash after it. Scenarios uploaded in the lobby are kept as
their file's text (a game on one holds its own copy of the table, so it outlives a new
upload under the same name). Everything else (the state, the views) is
rebuilt from these on start. Each change is one transaction, committed before the reply.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    scenario TEXT NOT NULL,
    seed TEXT NOT NULL,
    secret_seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    done TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS orders (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    body TEXT NOT NULL,
    events TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS scenarios (
    name TEXT PRIMARY KEY,
    uploaded REAL NOT NULL,
    source TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game, role)
);
"""


def default_db_path() -> Path:
    """The database in the user's data folder (made if missing)."""
    folder = Path(platformdirs.user_data_dir("fibua", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "games.sqlite3"


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class StoredOrder:
    n: int
    body: dict[str, Any]
    state_hash: str


@dataclass(frozen=True)
class StoredScenario:
    """A scenario uploaded in the lobby: its name, when, the file's name and its text."""

    name: str
    uploaded: float
    source: str
    text: str


@dataclass(frozen=True)
class StoredGame:
    id: str
    created: float
    scenario: dict[str, Any]
    seed: int
    secret_seed: bool
    seats: list[dict[str, Any]]
    done: dict[str, Any]
    orders: list[StoredOrder]
    tokens: dict[str, str]


class Store:
    """The database; every method is called from the server's one engine thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # in WAL mode, NORMAL: a committed transaction survives the process being killed
        # at any point (the WAL is written before COMMIT returns); only a power cut or an
        # OS crash may lose the last ones. FULL would add an fsync to every order.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, game_id: str, scenario: dict[str, Any], seed: int, secret: bool,
                    seats: list[dict[str, Any]], tokens: dict[str, str],
                    orders: list[tuple[dict[str, Any], list[dict[str, Any]], str]]) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO games (id, created, scenario, seed, secret_seed, seats) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, time.time(), dumps(scenario), str(seed), int(secret), dumps(seats)),
            )
            db.executemany("INSERT INTO tokens (game, role, hash) VALUES (?, ?, ?)",
                           [(game_id, role, digest) for role, digest in tokens.items()])
            self._insert_orders(db, game_id, 0, orders)

    def add_orders(self, game_id: str, first: int,
                   orders: list[tuple[dict[str, Any], list[dict[str, Any]], str]],
                   done: dict[str, Any]) -> None:
        """Orders from index `first` with their events and hashes, and the seats that
        have finished, in one transaction."""
        with self.transaction() as db:
            self._insert_orders(db, game_id, first, orders)
            db.execute("UPDATE games SET done = ? WHERE id = ?", (dumps(done), game_id))

    @staticmethod
    def _insert_orders(db: sqlite3.Connection, game_id: str, first: int,
                       orders: list[tuple[dict[str, Any], list[dict[str, Any]], str]]) -> None:
        db.executemany(
            "INSERT INTO orders (game, n, body, events, state_hash) VALUES (?, ?, ?, ?, ?)",
            [(game_id, first + i, dumps(body), dumps(events), digest)
             for i, (body, events, digest) in enumerate(orders)],
        )

    def take_back(self, game_id: str, n: int, done: dict[str, Any]) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM orders WHERE game = ? AND n >= ?", (game_id, n))
            db.execute("UPDATE games SET done = ? WHERE id = ?", (dumps(done), game_id))

    def set_done(self, game_id: str, done: dict[str, Any]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE games SET done = ? WHERE id = ?", (dumps(done), game_id))

    def set_token(self, game_id: str, role: str, digest: str | None) -> None:
        with self.transaction() as db:
            if digest is None:
                db.execute("DELETE FROM tokens WHERE game = ? AND role = ?", (game_id, role))
            else:
                db.execute("INSERT OR REPLACE INTO tokens (game, role, hash) VALUES (?, ?, ?)",
                           (game_id, role, digest))

    def save_scenario(self, name: str, source: str, text: str) -> None:
        """An uploaded scenario's file text, replacing an earlier upload of that name."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO scenarios (name, uploaded, source, text) "
                       "VALUES (?, ?, ?, ?)", (name, time.time(), source, text))

    def delete_game(self, game_id: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM orders WHERE game = ?", (game_id,))
            db.execute("DELETE FROM tokens WHERE game = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # -- reading ---------------------------------------------------------------------------

    def games(self) -> list[StoredGame]:
        rows = self._db.execute(
            "SELECT id, created, scenario, seed, secret_seed, seats, done FROM games "
            "ORDER BY created, id").fetchall()
        return [self._game(row) for row in rows]

    def _game(self, row: tuple[Any, ...]) -> StoredGame:
        game_id = row[0]
        orders = [
            StoredOrder(n, json.loads(body), digest)
            for n, body, digest in self._db.execute(
                "SELECT n, body, state_hash FROM orders WHERE game = ? ORDER BY n", (game_id,))
        ]
        tokens = dict(self._db.execute(
            "SELECT role, hash FROM tokens WHERE game = ?", (game_id,)).fetchall())
        return StoredGame(
            id=game_id, created=row[1], scenario=json.loads(row[2]), seed=int(row[3]),
            secret_seed=bool(row[4]), seats=json.loads(row[5]), done=json.loads(row[6]),
            orders=orders, tokens=tokens,
        )

    def scenarios(self) -> list[StoredScenario]:
        """The uploaded scenarios, oldest first."""
        rows = self._db.execute(
            "SELECT name, uploaded, source, text FROM scenarios ORDER BY uploaded, name")
        return [StoredScenario(*row) for row in rows.fetchall()]

    def order_count(self, game_id: str) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM orders WHERE game = ?",
                               (game_id,)).fetchone()
        return int(row[0])
