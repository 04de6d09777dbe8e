"""Nothing is lost: `fibua play` in a real terminal, stopped by kill -9, Ctrl-C or a closed
terminal, carries on with `--resume` to the very game it would have been."""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

import fibua
from fibua.cli import main as cli
from fibua.core.game import Game
from fibua.core.journal import resume_game
from fibua.core.orders import Order
from fibua.core.replay import log_lines, replay
from toy_ruleset import TOY_SCENARIO_TOML, FirstShot, toy_scenario

TESTS = Path(__file__).parent
SRC = Path(fibua.__file__).parents[1]
SEED = 9
#: six turns, and shots never hit (7 on a d6): the game lasts until red has passed six times
TOY_TOML = TOY_SCENARIO_TOML.replace("turns = 4", "turns = 6") + "\n[options]\nneed = 7\n"
PROMPT = "red> "
TIMEOUT = 120  # a bound on a hang, not a measure: the first start may compile kernels


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    return path


def expected_log() -> list[str]:
    """The log of the game played without a stop: red passes, blue's computer shoots."""
    raw = toy_scenario(turns=6, need=7)
    game = Game(raw, SEED)
    blue = FirstShot("blue")
    while (side := game.to_act()) is not None:
        if side == "red":
            game.apply(Order("red", "pass"))
        else:
            game.apply(blue.choose(game.observe("blue"), game.legal_orders("blue")))
    return log_lines(game)


def start(*args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "100", "TERM": "dumb"}
    child = pexpect.spawn(
        sys.executable,
        [str(TESTS / "toy_fibua.py"), "play", *args],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 100),
        preexec_fn=as_from_a_shell,
    )
    return child


def as_from_a_shell() -> None:
    # a program started from a terminal's shell hears Ctrl-C and hang-ups, even when the
    # tests themselves run in the background (where both may be ignored)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def give(child: pexpect.spawn, text: str) -> None:
    child.expect_exact(PROMPT)
    child.sendline(text)


def finish(child: pexpect.spawn) -> int:
    """Pass until the game is over; the exit status."""
    while child.expect_exact([PROMPT, "Game over"]) == 0:
        child.sendline("pass")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus is not None
    return child.exitstatus


def saved_orders(save: Path) -> int:
    return sum('"type":"order"' in line for line in save.read_text().splitlines())


def test_kill_9_then_resume(tmp_path: Path, scenario_file: Path) -> None:
    save, out = tmp_path / "game.jsonl", tmp_path / "out.jsonl"
    child = start(str(scenario_file), "--seed", str(SEED), "--save", str(save))
    child.expect_exact(f"seed {SEED}")
    give(child, "pass")
    give(child, "pass")
    child.expect_exact(PROMPT)  # blue has answered: four orders are on disk
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == signal.SIGKILL
    assert saved_orders(save) == 4 and '"type":"end"' not in save.read_text()
    at_kill = resume_game(save).game.state_hash()

    child = start("--resume", str(save), "--out", str(out))
    child.expect_exact(f"state hash {at_kill[:16]}")
    child.sendline("pass")  # the prompt came with the screen
    assert finish(child) == 0
    assert out.read_text().splitlines() == expected_log()
    assert replay(out).ok and save.read_text() == out.read_text()


def test_ctrl_c_writes_the_log_and_says_how_to_resume(tmp_path: Path, scenario_file: Path) -> None:
    save, out = tmp_path / "game.jsonl", tmp_path / "out.jsonl"
    child = start(str(scenario_file), "--seed", str(SEED), "--save", str(save), "--out", str(out))
    give(child, "pass")
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect_exact("Interrupted")
    child.expect_exact("To carry on: fibua play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert replay(out).ok and replay(save).ok  # both complete logs, end line and all

    child = start("--resume", str(save))
    child.expect_exact("Resumed")
    child.sendline("pass")
    assert finish(child) == 0
    assert save.read_text().splitlines() == expected_log()


def test_a_closed_terminal_loses_nothing(tmp_path: Path, scenario_file: Path) -> None:
    save, out = tmp_path / "game.jsonl", tmp_path / "out.jsonl"
    child = start(str(scenario_file), "--seed", str(SEED), "--save", str(save), "--out", str(out))
    give(child, "pass")
    child.expect_exact(PROMPT)
    child.kill(signal.SIGHUP)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 129
    assert replay(out).ok and saved_orders(save) == 2

    child = start("--resume", str(save))
    child.sendline("pass")
    assert finish(child) == 0
    assert save.read_text().splitlines() == expected_log()


# -- the same, in-process ------------------------------------------------------------------

runner = CliRunner()


def test_a_torn_save_is_resumed_with_a_message(tmp_path: Path, scenario_file: Path) -> None:
    save = tmp_path / "game.jsonl"
    done = runner.invoke(
        cli.app, ["play", str(scenario_file), "--seed", str(SEED), "--save", str(save)],
        input="pass\npass\n",
    )
    assert done.exit_code == 0
    text = save.read_text()
    cut = text[: text.rindex('{"kind":"pass","side":"red"') + 12]  # a write cut short
    save.write_text(cut)
    resumed = runner.invoke(cli.app, ["play", "--resume", str(save)], input="")
    assert resumed.exit_code == 0
    assert "cut short" in resumed.stdout and "Resumed" in resumed.stdout
    assert saved_orders(save) == 2  # red's second pass was lost: red, then blue's first answer


def test_save_files_are_named_at_the_start(tmp_path: Path, scenario_file: Path) -> None:
    done = runner.invoke(cli.app, ["play", str(scenario_file), "--seed", "3"], input="")
    assert done.exit_code == 0
    saves = list(Path(os.environ["FIBUA_SAVE_DIR"]).glob("toy-duel-seed3-*.jsonl"))
    assert saves and any(str(path) in done.stdout.replace("\n", "") for path in saves)
    assert "seed 3" in done.stdout


def test_unwritable_paths_are_refused_before_the_game(tmp_path: Path, scenario_file: Path) -> None:
    missing = str(tmp_path / "no" / "such" / "log.jsonl")
    for option in ("--out", "--save"):
        done = runner.invoke(cli.app, ["play", str(scenario_file), option, missing], input="")
        assert done.exit_code == 2 and option in done.stderr and "cannot be written" in done.stderr
        assert "Type help" not in done.stdout
    existing = tmp_path / "taken.jsonl"
    shutil.copy(scenario_file, existing)
    done = runner.invoke(cli.app, ["play", str(scenario_file), "--save", str(existing)])
    assert done.exit_code == 2 and "already exists" in done.stderr
    done = runner.invoke(cli.app, ["play", str(scenario_file), "--resume", str(existing)])
    assert done.exit_code == 2 and "give neither" in done.stderr
