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

from fibua.core.errors import FibuaError

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


#: what a damaged database's message says to do
WHAT_TO_DO = ("move it aside (fibua serve then starts a new one there) or give --db "
              "another file")


class DamagedDatabase(FibuaError):
    """The server's database file cannot be used as it is; the file was left untouched."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        self.what = what
        super().__init__(f"{path}: {what}; {WHAT_TO_DO}")


def expected_columns() -> dict[str, list[str]]:
    """Each table of SCHEMA with its columns in order, read from SQLite itself."""
    with sqlite3.connect(":memory:") as db:
        db.executescript(SCHEMA)
        return _columns(db)


def _columns(db: sqlite3.Connection) -> dict[str, list[str]]:
    names = [row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {name: [row[1] for row in db.execute("SELECT * FROM pragma_table_info(?)", (name,))]
            for name in names}


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the file or leave files beside it: with no WAL file
    the database is all in the file, so it is opened as immutable (no -shm or -wal made);
    with one (a server stopped by kill -9) read-only, so the WAL's orders are checked too."""
    mode = "mode=ro" if Path(f"{path}-wal").exists() else "immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)


def check_database(path: Path) -> None:
    """Raise DamagedDatabase, changing nothing, unless `path` is missing (a new database),
    empty, or a sound SQLite file whose fibua tables have fibua's columns and whose every
    text is UTF-8: what would otherwise stop the server half started. A damaged game in a
    sound file is not this check's concern (the hub refuses that game alone)."""
    if not path.exists():
        return
    if path.is_dir():
        raise DamagedDatabase(path, "a folder, not a database file")
    path.open("rb").close()  # unreadable: the system's reason (OSError), not SQLite's
    try:
        db = _read_only(path)
    except sqlite3.Error as error:
        raise DamagedDatabase(path, f"SQLite cannot open it ({error})") from None
    try:
        _check_open(db, path)
    except sqlite3.DatabaseError as error:
        raise DamagedDatabase(path, f"not a sound SQLite database ({error})") from None
    finally:
        db.close()


def _check_open(db: sqlite3.Connection, path: Path) -> None:
    verdict = [row[0] for row in db.execute("PRAGMA quick_check")]
    if verdict != ["ok"]:
        raise DamagedDatabase(path, f"damaged (SQLite's check: {verdict[0]})")
    found = _columns(db)
    expected = expected_columns()
    if found and not set(found) & set(expected):
        raise DamagedDatabase(path, f"not a fibua games database (its tables: "
                                    f"{', '.join(found)})")
    for table, columns in expected.items():
        if table in found and found[table] != columns:
            raise DamagedDatabase(path, f"table {table} has the columns "
                                        f"{', '.join(found[table])}; fibua's has "
                                        f"{', '.join(columns)}")
    for table in expected:
        if table in found:
            _check_text(db, path, table)


def _check_text(db: sqlite3.Connection, path: Path, table: str) -> None:
    """Read every row (SQLite hands text to Python as UTF-8, refusing what is not)."""
    try:
        for _ in db.execute(f"SELECT * FROM {table}"):  # table: a name from SCHEMA
            pass
    except sqlite3.OperationalError as error:
        if "decode" not in str(error):
            raise
        raise DamagedDatabase(path, f"table {table} holds text that is not UTF-8") from None


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
        """Open the database at `path` (made if missing), first checking it changing
        nothing (DamagedDatabase if it cannot be used)."""
        check_database(Path(path))
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

    def game_ids(self) -> list[str]:
        """Every game's id, oldest first (each read with `game`, so one that cannot be
        read is refused alone)."""
        rows = self._db.execute("SELECT id FROM games ORDER BY created, id").fetchall()
        return [str(row[0]) for row in rows]

    def game(self, game_id: str) -> StoredGame:
        """A game as stored; ValueError (bad JSON), KeyError or TypeError when the row is
        not as this module writes it."""
        row = self._db.execute(
            "SELECT id, created, scenario, seed, secret_seed, seats, done FROM games "
            "WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(game_id)
        return self._game(row)

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
