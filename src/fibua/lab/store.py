"""A lab run on disk: `games.sqlite` in the run's folder (the standard library's SQLite).

Table `games` holds one row a game, its seed the key (so rows lie in seed order whatever
order they were played in); what has parts (players, scores, casualties per side, falls,
objective holders) is a JSON column, which SQLite's json functions read. Table `run` holds
what the run was: the scenario as played (with its house rules), the seats and the
overrides, so a report or comparison needs nothing else.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from fibua.battlefield.geometry import PACKAGE, sources_digest
from fibua.core.errors import InputError, Problem
from fibua.core.search import Budget
from fibua.lab.records import GameRow

DB_NAME = "games.sqlite"

SCHEMA = """
CREATE TABLE run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    seed INTEGER PRIMARY KEY,
    winner TEXT,
    reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    orders INTEGER NOT NULL,
    rolls INTEGER NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    casualties TEXT NOT NULL,
    falls TEXT NOT NULL,
    holders TEXT NOT NULL,
    cpu REAL,
    wall REAL
);
"""
JSON_COLUMNS = ("players", "scores", "casualties", "falls", "holders")
#: each game's own seconds, CPU and wall (absent from runs made before they were kept)
TIME_COLUMNS = ("cpu", "wall")
COLUMNS = ("seed", "winner", "reason", "turns", "orders", "rolls", *JSON_COLUMNS,
           *TIME_COLUMNS)


@dataclass(frozen=True)
class RunInfo:
    """What a run played: the scenario table as played, each side's player, the house
    rules given, the seeds, the code that played them (`code_digest`; None in runs
    made before it was kept) and what a hard computer's decision weighed (None: the
    default `Budget`)."""

    scenario: dict[str, Any]
    seats: dict[str, str]
    overrides: list[str]
    seed_start: int
    games: int
    code: str | None = None
    budget: Budget | None = None

    @property
    def name(self) -> str:
        return str(self.scenario["scenario"]["name"])

    @property
    def seeds(self) -> range:
        return range(self.seed_start, self.seed_start + self.games)


def code_digest() -> str:
    """A digest of fibua's sources: a game is a function of its seed and the code."""
    return sources_digest(PACKAGE)


def db_path(folder: Path) -> Path:
    return folder / DB_NAME


def _row_values(row: GameRow) -> tuple[Any, ...]:
    raw = row.to_dict()
    return tuple(json.dumps(raw[c], sort_keys=True) if c in JSON_COLUMNS else raw[c]
                 for c in COLUMNS)


class RunWriter:
    """Writes a run's rows as they come, each batch committed: a run stopped at any
    moment keeps every batch written before, and `reopen` goes on with it."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    @classmethod
    def create(cls, folder: Path, info: RunInfo) -> RunWriter:
        """A new run in `folder` (refused if one is there already)."""
        folder.mkdir(parents=True, exist_ok=True)
        path = db_path(folder)
        if path.exists():
            raise InputError([Problem("--out", "", (
                f"{folder} already holds a run ({path}); name another folder or remove it "
                f"(fibua lab resume {folder} goes on with a run that was stopped)"))])
        connection = sqlite3.connect(path)
        connection.executescript(SCHEMA)
        for key, value in asdict(info).items():
            connection.execute("INSERT INTO run VALUES (?, ?)", (key, json.dumps(value)))
        connection.commit()
        return cls(connection)

    @classmethod
    def reopen(cls, folder: Path) -> RunWriter:
        """The run in `folder`, to add the games it still lacks."""
        _open(folder).close()  # refused as `read_info` refuses, if there is no run
        connection = sqlite3.connect(db_path(folder))
        for column in TIME_COLUMNS:
            if column not in _columns(connection):  # a run made before they were kept
                connection.execute(f"ALTER TABLE games ADD COLUMN {column} REAL")
        connection.commit()
        return cls(connection)

    def add(self, rows: Iterable[GameRow]) -> None:
        marks = ", ".join("?" for _ in COLUMNS)
        self.connection.executemany(f"INSERT INTO games VALUES ({marks})",
                                    [_row_values(r) for r in rows])
        self.connection.commit()

    def plan_games(self, games: int) -> None:
        """Say how many games the run is to hold after all (a tune's value plays until
        its evidence is in, not to a number fixed beforehand)."""
        self.connection.execute("UPDATE run SET value = ? WHERE key = 'games'",
                                (json.dumps(games),))
        self.connection.commit()

    def close(self) -> None:
        self.connection.close()


def _columns(connection: sqlite3.Connection) -> set[str]:
    return {str(row[1]) for row in connection.execute("PRAGMA table_info(games)")}


def _open(folder: Path) -> sqlite3.Connection:
    path = db_path(folder)
    if not path.is_file():
        raise InputError([Problem(str(folder), "", f"no lab run here (no {DB_NAME}); "
                                                   "make one with fibua lab run")])
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


@contextmanager
def _reading(folder: Path) -> Iterator[sqlite3.Connection]:
    """The run's database, read-only; a file that is not one is refused by name."""
    connection = _open(folder)
    try:
        yield connection
    except sqlite3.Error as error:
        raise _damaged(folder, str(error)) from None
    finally:
        connection.close()


def _damaged(folder: Path, what: str) -> InputError:
    return InputError([Problem(str(db_path(folder)), "", (
        f"{what}: this is not a lab run as fibua lab run writes it (damaged, or made by "
        "something else)"))])


def _first_error(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    return str(error)


_RUN_INFO = TypeAdapter(RunInfo)
_GAME_ROW = TypeAdapter(GameRow)


def read_info(folder: Path) -> RunInfo:
    with _reading(folder) as connection:
        raw = list(connection.execute("SELECT key, value FROM run"))
    try:
        info = _RUN_INFO.validate_python({k: json.loads(v) for k, v in raw})
        named = info.scenario.get("scenario")
        if not isinstance(named, dict) or not isinstance(named.get("name"), str):
            raise ValueError("the scenario played has no [scenario] name")
    except (ValueError, TypeError) as error:
        raise _damaged(folder, f"its run table, {_first_error(error)}") from None
    return info


def played_seeds(folder: Path) -> set[int]:
    """The seeds of the games the run holds."""
    with _reading(folder) as connection:
        return {int(seed) for (seed,) in connection.execute("SELECT seed FROM games")}


def missing_seeds(folder: Path, info: RunInfo) -> list[int]:
    """The seeds the run was to play and does not hold yet (it was stopped), in order."""
    played = played_seeds(folder)
    return [s for s in info.seeds if s not in played]


def read_rows(folder: Path) -> Iterator[GameRow]:
    """The run's rows in seed order."""
    with _reading(folder) as connection:
        present = _columns(connection)
        # a run made before the games were timed reads as untimed games
        picked = [c if c in present or c not in TIME_COLUMNS else f"NULL AS {c}"
                  for c in COLUMNS]
        cursor = connection.execute(f"SELECT {', '.join(picked)} FROM games ORDER BY seed")
        for values in cursor:
            raw = dict(zip(COLUMNS, values, strict=True))
            try:
                for column in JSON_COLUMNS:
                    raw[column] = json.loads(raw[column])
                row = _GAME_ROW.validate_python(raw)
            except (ValueError, TypeError) as error:
                raise _damaged(folder, f"the game of seed {raw['seed']!r}, "
                                       f"{_first_error(error)}") from None
            yield row
