"""A damaged server database: `fibua serve` names the file, says what is wrong and what to
do on one line, exits with status 2 and leaves the file as it was; a damaged game inside a
sound file is refused alone."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from fibua.server.hub import Hub
from fibua.server.store import Store, check_database

SERVE_TIMEOUT = 120  # seconds: far beyond a refusal; a server that started would hang here


def good_database(path: Path) -> Path:
    store = Store(path)
    store.create_game("g1", {"scenario": {"name": "x"}}, 5, True,
                      [{"name": "british", "side": "british", "player": "human",
                        "units": None}], {"creator": "0" * 64},
                      [({"side": "british", "kind": "end"}, [], "0" * 64)])
    store.save_scenario("mine", "mine.toml", "[scenario]\nname = 'mine'\n")
    store.close()
    return path


def sql(*statements: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with sqlite3.connect(path) as db:
            for statement in statements:
                db.execute(statement)
        db.close()
    return damage


def overwrite(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def scribble(path: Path) -> None:
    """Garbage over the second page (a table's b-tree): "database disk image is
    malformed"."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page: page + 300] = b"\xa5" * 300
    path.write_bytes(bytes(data))


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "not SQLite": (overwrite(b"these are not the games you are looking for\n" * 40),
                   "not a sound SQLite database (file is not a database)"),
    "truncated": (truncate, "not a sound SQLite database"),
    "malformed": (scribble, "malformed"),
    "bad UTF-8": (sql("UPDATE games SET seats = CAST(x'5b22ff225d' AS TEXT)"),
                  "table games holds text that is not UTF-8"),
    "a table of the wrong shape": (
        sql("DROP TABLE orders", "CREATE TABLE orders (game TEXT, n INTEGER)"),
        "table orders has the columns game, n; fibua's has game, n, body"),
    "another program's database": (
        sql("DROP TABLE orders", "DROP TABLE tokens", "DROP TABLE games",
            "DROP TABLE scenarios", "CREATE TABLE run (key TEXT, value TEXT)"),
        "not a fibua games database (its tables: run)"),
}


def serve(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fibua.cli.main", "serve", "--db", str(path), "--port", "0"],
        capture_output=True, text=True, timeout=SERVE_TIMEOUT, check=False)


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_serve_refuses_a_damaged_database_on_one_line(
        tmp_path: Path, damage: tuple[Callable[[Path], None], str]) -> None:
    harm, what = damage
    path = good_database(tmp_path / "games.sqlite3")
    harm(path)
    before = path.read_bytes()
    done = serve(path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: {path}: ")
    assert what in lines[0]
    assert "move it aside" in lines[0]
    assert "Traceback" not in done.stderr and "startup" not in done.stderr
    assert done.stdout == ""
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]


def test_a_folder_in_place_of_the_database_is_named(tmp_path: Path) -> None:
    done = serve(tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"error: {tmp_path}: a folder, not a database file; move "
                                   "it aside (fibua serve then starts a new one there) or "
                                   "give --db another file")


@pytest.mark.parametrize("made", ["missing", "empty", "sound"])
def test_a_new_empty_or_sound_database_passes(tmp_path: Path, made: str) -> None:
    path = tmp_path / "games.sqlite3"
    if made == "empty":
        path.write_bytes(b"")
    elif made == "sound":
        good_database(path)
    check_database(path)


def test_a_damaged_game_in_a_sound_file_is_refused_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    hub = Hub(Store(path))
    kept = hub.create("corner-shop", 3, {})["id"]
    damaged = hub.create("corner-shop", 4, {})["id"]
    hub.store.close()
    sql(f"UPDATE games SET scenario = '{{oops' WHERE id = '{damaged}'")(path)
    check_database(path)  # the file itself is sound
    again = Hub(Store(path))
    again.load_all()
    assert list(again.games) == [kept]
    assert set(again.broken) == {damaged}


KILLED = """
import os, sys
from fibua.server.store import Store
store = Store(sys.argv[1])
store.create_game("g1", {"scenario": {"name": "x"}}, 5, True, [], {"creator": "0" * 64}, [])
os._exit(9)  # as kill -9: nothing closed, the game only in the WAL
"""


def test_a_database_left_by_a_killed_server_passes_with_its_wal(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    subprocess.run([sys.executable, "-c", KILLED, str(path)], timeout=SERVE_TIMEOUT)
    assert Path(f"{path}-wal").exists()
    check_database(path)
    store = Store(path)
    assert store.game_ids() == ["g1"]
    store.close()
