"""A lab run's database damaged or made by something else: `lab report`, `compare` and
`resume` refuse it by name, with status 2 and no traceback, and change nothing."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fibua.cli import main as cli
from fibua.lab.store import db_path

runner = CliRunner()


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lab") / "good"
    result = runner.invoke(cli.app, ["lab", "run", "corner-shop", "--games", "3",
                                     "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def sql(statement: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with sqlite3.connect(path) as connection:
            connection.execute(statement)
    return damage


def overwrite(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:3000])


DAMAGE = {
    "not a database": overwrite(b"garbage, not SQLite" * 50),
    "empty file": overwrite(b""),
    "truncated": truncate,
    "no run table": sql("DROP TABLE run"),
    "no games table": sql("DROP TABLE games"),
    "a key missing": sql("DELETE FROM run WHERE key = 'games'"),
    "a value not JSON": sql("UPDATE run SET value = '{oops' WHERE key = 'seats'"),
    "games of the wrong type": sql("UPDATE run SET value = '\"many\"' WHERE key = 'games'"),
    "no scenario name": sql("UPDATE run SET value = '{}' WHERE key = 'scenario'"),
    "a row's JSON broken": sql("UPDATE games SET falls = '[{' WHERE seed = 1"),
    "a fall of the wrong shape": sql("UPDATE games SET falls = '[{\"x\": 1}]' WHERE seed = 1"),
    "scores not numbers": sql("UPDATE games SET scores = '{\"british\": \"lots\"}'"),
}


@pytest.mark.parametrize("command", ["report", "compare", "resume"])
@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_run_is_refused_by_name(good: Path, tmp_path: Path, command: str,
                                          damage: Callable[[Path], None]) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(good, broken)
    damage(db_path(broken))
    before = db_path(broken).read_bytes()
    args = {"report": [str(broken)], "compare": [str(good), str(broken)],
            "resume": [str(broken)]}[command]
    result = runner.invoke(cli.app, ["lab", command, *args])
    if command == "resume" and result.exit_code == 0:
        # the rows are not read to resume: what it needs (run table, seeds) was sound
        assert "nothing to play" in result.output
    else:
        assert result.exit_code == 2, result.output
        assert str(db_path(broken)) in result.output
        assert "not a lab run as fibua lab run writes it" in result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, KeyError)
    assert db_path(broken).read_bytes() == before
    assert not (broken / "report.html").exists()
