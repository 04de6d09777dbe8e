"""A lab run that was stopped (Ctrl-C, kill -9) keeps the games it wrote, says how to go
on, and `fibua lab resume` plays only what it lacks: the run then holds the very rows of
one that was never stopped."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fibua.lab.store import code_digest, db_path, read_info, read_rows
from lab_helpers import lab, six_games


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return six_games(tmp_path_factory.mktemp("lab") / "whole")


def cut(run: Path, to: Path, seeds: list[int]) -> Path:
    """A copy of the run without the games of `seeds`, as if stopped before them."""
    shutil.copytree(run, to)
    with sqlite3.connect(db_path(to)) as connection:
        connection.executemany("DELETE FROM games WHERE seed = ?", [(s,) for s in seeds])
    return to


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_resume_plays_only_the_games_the_run_lacks(whole: Path, tmp_path: Path,
                                                   jobs: str) -> None:
    stopped = cut(whole, tmp_path / "stopped", [41, 44])
    result = lab("resume", str(stopped), "--jobs", jobs)
    assert result.exit_code == 0, result.output
    assert "the 2 games" in result.output
    assert list(read_rows(stopped)) == list(read_rows(whole))
    assert read_info(stopped) == read_info(whole)


def test_resume_of_a_whole_run_changes_nothing(whole: Path) -> None:
    before = db_path(whole).read_bytes()
    result = lab("resume", str(whole))
    assert result.exit_code == 0
    assert "holds all 6 games" in result.output and "nothing to play" in result.output
    assert db_path(whole).read_bytes() == before


def test_resume_of_a_folder_without_a_run_is_refused(tmp_path: Path) -> None:
    result = lab("resume", str(tmp_path))
    assert result.exit_code == 2
    assert "no lab run here" in result.output


def test_the_report_of_a_stopped_run_says_so(whole: Path, tmp_path: Path) -> None:
    stopped = cut(whole, tmp_path / "stopped", [40, 43])
    assert lab("report", str(stopped)).exit_code == 0
    page = (stopped / "report.html").read_text()
    assert "4 of 6: the run was stopped" in page and "fibua lab resume" in page
    assert "41 to 45" in page  # the seeds it holds, not the first four


def test_a_new_run_into_a_stopped_runs_folder_points_to_resume(whole: Path) -> None:
    result = lab("run", "corner-shop", "--games", "2", "--out", str(whole))
    assert result.exit_code == 2
    assert "already holds a run" in result.output and "fibua lab resume" in result.output


def start_run(out: Path, games: int) -> subprocess.Popen[str]:
    """`fibua lab run` in its own process group, as a shell starts a command in the
    foreground: Ctrl-C as it comes. A shell without job control starts a command in the
    background with SIGINT ignored, and that is inherited (the tests run so by a script
    with `&`: the run ignored the signal, played all its games and ended with 0), so the
    run is given SIGINT's default back."""
    return subprocess.Popen(
        [sys.executable, "-m", "fibua.cli.main", "lab", "run", "corner-shop", "--games",
         str(games), "--jobs", "2", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_sigint_as_at_a_terminal)


def _sigint_as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def games_written(out: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db_path(out)}?mode=ro", uri=True) as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0  # not made yet


def wait_for_games(run: subprocess.Popen[str], out: Path, games: int) -> None:
    deadline = time.monotonic() + 120
    while games_written(out) < games:
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "the run wrote no games"
        time.sleep(0.02)


GAMES = 80


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lab") / "reference"
    result = lab("run", "corner-shop", "--games", str(GAMES), "--jobs", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_a_run_killed_mid_write_resumes_to_the_rows_of_a_whole_run(
        reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "killed"
    run = start_run(out, GAMES)
    wait_for_games(run, out, 3)
    os.killpg(run.pid, signal.SIGKILL)  # the run and its workers, with no warning
    run.communicate()
    with sqlite3.connect(db_path(out)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert 3 <= games_written(out) < GAMES
    result = lab("resume", str(out), "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert list(read_rows(out)) == list(read_rows(reference))


def test_ctrl_c_stops_the_run_saying_how_to_go_on(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "stopped"
    run = start_run(out, GAMES)
    wait_for_games(run, out, 2)
    os.killpg(run.pid, signal.SIGINT)  # what a terminal sends the foreground group
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130
    assert f"fibua lab resume {out} plays the rest" in err
    assert "Traceback" not in err and "ForkPoolWorker" not in err  # the workers say nothing
    held = games_written(out)
    assert f"stopped: {held} of the run's {GAMES} games" in err
    assert lab("resume", str(out), "--jobs", "2").exit_code == 0
    assert list(read_rows(out)) == list(read_rows(reference))


def test_a_run_of_other_code_is_not_resumed(whole: Path, tmp_path: Path) -> None:
    """A game is its seed and the code: games played by another version would not be
    those the run lacks."""
    stopped = cut(whole, tmp_path / "stopped", [42])
    with sqlite3.connect(db_path(stopped)) as connection:
        connection.execute("UPDATE run SET value = '\"0123456789abcdef\"' WHERE key = 'code'")
    before = db_path(stopped).read_bytes()
    result = lab("resume", str(stopped))
    assert result.exit_code == 2
    assert "another version of fibua" in result.output
    assert db_path(stopped).read_bytes() == before


def test_the_run_keeps_the_code_that_played_it(whole: Path) -> None:
    assert read_info(whole).code == code_digest()
