"""Looking back on a game (`replay --show`, `autoplay --report`) and what the commands say
while they prepare."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fibua.cli import main as cli
from fibua.cli import warmup
from fibua.core.replay import read_log, replay_by_turn
from toy_ruleset import TOY_SCENARIO_TOML

runner = CliRunner()


@pytest.fixture
def toy_file(tmp_path: Path) -> Path:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_SCENARIO_TOML, encoding="utf-8")
    return path


@pytest.fixture
def full_log(tmp_path: Path, toy_file: Path) -> Path:
    out = tmp_path / "game.jsonl"
    assert runner.invoke(cli.app, ["autoplay", str(toy_file), "--seed", "4", "--out", str(out)]
                         ).exit_code == 0
    return out


def test_replay_show_goes_turn_by_turn_with_everything_revealed(full_log: Path) -> None:
    done = runner.invoke(cli.app, ["replay", str(full_log), "--show"])
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert out.startswith("OK:")
    records, _ = replay_by_turn(read_log(full_log))
    for record in records:
        assert f"Turn {record.turn}" in out
    # both sides' secrets: Control sees everything, with each event's audience
    assert "[red] turn 1  deployed" in out and "[blue] turn 1  deployed" in out
    assert "[all]" in out and "shot: d6 rolled" in out
    assert "red: where each stood" in out and "Gefreiter Blau" in out
    assert "Game over: red wins" in out


def test_turns_hold_every_event_once(full_log: Path) -> None:
    log = read_log(full_log)
    records, game = replay_by_turn(log)
    assert [e for r in records for e in r.events] == game.log
    assert [r.turn for r in records] == sorted({r.turn for r in records})
    assert all(set(r.standing) == {"red", "blue"} for r in records)


def test_replay_show_refuses_a_log_that_does_not_replay(full_log: Path) -> None:
    lines = full_log.read_text().splitlines()
    lines[1] = lines[1].replace("Corporal Rouge", "Corporal Rose")
    full_log.write_text("\n".join(lines) + "\n")
    done = runner.invoke(cli.app, ["replay", str(full_log), "--show"])
    assert done.exit_code == 1 and "MISMATCH" in done.stdout and "Turn 1" not in done.stdout


def test_autoplay_report_and_the_winner_in_words(tmp_path: Path, toy_file: Path) -> None:
    out = tmp_path / "x.jsonl"
    done = runner.invoke(
        cli.app, ["autoplay", str(toy_file), "--seed", "4", "--out", str(out), "--report"]
    )
    assert done.exit_code == 0
    first = done.stdout.splitlines()[0]
    # the toy's sides are single names: "red wins"; peoples read "the germans win"
    assert " wins (" in first or "draw" in first
    assert "Game over" in done.stdout


def test_autoplay_refuses_an_unwritable_log_before_playing(tmp_path: Path, toy_file: Path) -> None:
    out = str(tmp_path / "missing" / "x.jsonl")
    done = runner.invoke(cli.app, ["autoplay", str(toy_file), "--seed", "4", "--out", out])
    assert done.exit_code == 2 and "--out" in done.stderr and "cannot be written" in done.stderr


def test_the_compile_message_on_a_cold_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, toy_file: Path
) -> None:
    monkeypatch.setattr(warmup, "kernels_cold", lambda: True)
    for args in (
        ["autoplay", str(toy_file), "--seed", "1", "--out", str(tmp_path / "a.jsonl")],
        ["play", str(toy_file), "--seed", "1"],
    ):
        done = runner.invoke(cli.app, args, input="")
        assert done.exit_code == 0
        assert warmup.COLD_MESSAGE in done.stderr
    monkeypatch.setattr(warmup, "kernels_cold", lambda: False)
    done = runner.invoke(cli.app, ["play", str(toy_file), "--seed", "1"], input="")
    assert warmup.COLD_MESSAGE not in done.stderr


def test_an_empty_kernel_cache_is_cold(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", "from fibua.cli.warmup import kernels_cold; print(kernels_cold())"],
        capture_output=True, text=True, env=env, check=True,
    )
    assert done.stdout.strip() == "True"
