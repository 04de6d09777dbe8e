"""`tools/fastest_python.py`, which picks the interpreter `make` builds .venv from: the
quickest candidate on the PATH wins, by its best turn, one that fails or is too old is
passed over, and with none it falls back to `python3`."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))

import fastest_python


def _fake(folder: Path, name: str, body: str) -> Path:
    """A stand-in interpreter: a shell script that ignores its arguments."""
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_the_running_interpreter_is_timed() -> None:
    found = fastest_python.probe_time(sys.executable)
    assert found is not None and 0 < found < 10


def test_a_failing_or_missing_interpreter_is_passed_over(tmp_path: Path) -> None:
    assert fastest_python.probe_time(str(_fake(tmp_path, "python3", "exit 1"))) is None
    assert fastest_python.probe_time(str(_fake(tmp_path, "python3.11", "echo fast"))) is None
    assert fastest_python.probe_time(str(tmp_path / "python3.12")) is None


def test_the_quickest_candidate_on_the_path_wins(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    slow, quick = tmp_path / "slow", tmp_path / "quick"
    slow.mkdir()
    quick.mkdir()
    _fake(slow, "python3", "echo 0.5")
    fast = _fake(quick, "python3.11", "echo 0.1")
    _fake(quick, "python3.12", "exit 1")  # too old, say: it fails the probe
    monkeypatch.setenv("PATH", f"{slow}:{quick}")
    assert len(fastest_python.candidates()) == 3
    assert fastest_python.fastest() == str(fast)


def test_each_candidate_keeps_its_best_turn(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # the first interpreter is held up in its first turn only (a busy machine)
    turns = tmp_path / "turns"
    _fake(tmp_path, "python3",  # shell builtins alone: the PATH holds only the fakes
          f"if [ -e {turns} ]; then echo 0.05; else : > {turns}; echo 0.9; fi")
    _fake(tmp_path, "python3.11", "echo 0.1")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert fastest_python.fastest(rounds=1) == str(tmp_path / "python3.11")
    turns.unlink()
    assert fastest_python.fastest(rounds=3) == str(tmp_path / "python3")


def test_with_no_candidate_it_is_python3(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert fastest_python.candidates() == []
    assert fastest_python.fastest() == "python3"
