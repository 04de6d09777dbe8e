"""CPU seconds beside wall seconds: each game timed in the process that played it, kept
in its row, and given per 1,000 games by the run's output and its report (a busy machine
moves the wall time, hardly the CPU time)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from fibua.lab.report import load_run, summary_rows, time_per_thousand
from fibua.lab.store import COLUMNS, TIME_COLUMNS, db_path, read_rows
from lab_helpers import lab


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("timing") / "run"
    result = lab("run", "corner-shop", "--games", "4", "--seed-start", "40", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.output


def test_every_game_is_timed_in_its_row(run: tuple[Path, str]) -> None:
    rows = list(read_rows(run[0]))
    assert len(rows) == 4
    assert all(r.cpu is not None and r.cpu > 0 and r.wall is not None and r.wall > 0
               for r in rows)


def test_the_run_gives_cpu_per_thousand_games_beside_wall(run: tuple[Path, str]) -> None:
    rows = list(read_rows(run[0]))
    cpu = 1000 * sum(r.cpu or 0 for r in rows) / len(rows)
    said = re.search(r"CPU ([\d,.]+) s per 1,000 games beside wall ([\d,.]+) s", run[1])
    assert said is not None, run[1]
    assert float(said.group(1).replace(",", "")) == pytest.approx(cpu, abs=0.06)


def test_the_report_gives_them_too(run: tuple[Path, str]) -> None:
    loaded = load_run(run[0])
    line = dict((r[0], r[1]) for r in summary_rows(loaded))["time per 1,000 games"]
    cpu = 1000 * sum(r.cpu or 0 for r in loaded.rows) / 4
    wall = 1000 * sum(r.wall or 0 for r in loaded.rows) / 4
    assert line.startswith(f"{cpu:,.1f} CPU-s beside {wall:,.1f} wall-s")


def without_timing(folder: Path) -> None:
    """The games table as runs made before the games were timed wrote it."""
    kept = ", ".join(c for c in COLUMNS if c not in TIME_COLUMNS)
    with sqlite3.connect(db_path(folder)) as connection:
        connection.execute(f"CREATE TABLE old AS SELECT {kept} FROM games")
        connection.execute("DROP TABLE games")
        connection.execute("ALTER TABLE old RENAME TO games")
        connection.execute("DELETE FROM games WHERE seed >= 42")


def test_a_run_made_before_timing_reads_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "old"
    assert lab("run", "corner-shop", "--games", "4", "--seed-start", "40",
               "--out", str(out)).exit_code == 0
    without_timing(out)
    rows = list(read_rows(out))
    assert [r.cpu for r in rows] == [None, None]
    assert time_per_thousand(rows).startswith("not timed")
    result = lab("resume", str(out))
    assert result.exit_code == 0, result.output
    rows = list(read_rows(out))
    assert [r.seed for r in rows] == [40, 41, 42, 43]
    assert [r.cpu is None for r in rows] == [True, True, False, False]
    assert "2 games)" in time_per_thousand(rows)  # the timed ones alone
    assert lab("report", str(out)).exit_code == 0
