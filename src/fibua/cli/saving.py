"""Where `fibua play` keeps its save files, and checks that a file can be written before a
game starts (a game must never be played only to find its log cannot be kept)."""

from __future__ import annotations

import datetime
import os
import shlex
import sys
from pathlib import Path

from fibua.core.errors import InputError, Problem

#: a folder for save files, instead of the user's data folder (tests, shared machines)
SAVE_DIR_VARIABLE = "FIBUA_SAVE_DIR"


def data_folder() -> Path:
    """The user's data folder for fibua, as each system names it."""
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "fibua" if base else home / "AppData" / "Local" / "fibua"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "fibua"
    base = os.environ.get("XDG_DATA_HOME")
    return (Path(base) if base else home / ".local" / "share") / "fibua"


def save_folder() -> Path:
    """The folder for new save files: $FIBUA_SAVE_DIR, else the data folder's `saves`, else
    the current directory when the data folder cannot be made."""
    named = os.environ.get(SAVE_DIR_VARIABLE)
    folder = Path(named) if named else data_folder() / "saves"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        if named:
            raise
        return Path.cwd()
    return folder


def new_save_path(scenario: str, seed: int) -> Path:
    """A fresh file name for a new game's save: scenario, seed and the time it began."""
    folder = save_folder()
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    stem = f"{scenario}-seed{seed}-{stamp}"
    path = folder / f"{stem}.jsonl"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.jsonl"
        n += 1
    return path


def check_writable(path: Path, option: str) -> None:
    """Refuse (InputError naming the option) a path that cannot be written: a folder, a
    missing folder, no permission. Nothing is left behind by the check."""
    if path.is_dir():
        raise InputError([Problem(option, str(path), "is a folder, not a file")])
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError([Problem(option, str(path), f"cannot be written: {reason}")]) from None
    if not existed:
        path.unlink(missing_ok=True)


def check_new(path: Path, option: str) -> None:
    """Refuse to start a new game over an existing save (it would be lost)."""
    if path.exists():
        raise InputError(
            [
                Problem(
                    option,
                    str(path),
                    "already exists: carry that game on with --resume, or name another file",
                )
            ]
        )


def resume_command(save: Path, side: str | None = None, seats: list[str] | None = None) -> str:
    """The command that carries the saved game on, as it can be typed."""
    words = ["fibua", "play", "--resume", str(save)]
    if side is not None:
        words += ["--side", side]
    for seat in seats or []:
        words += ["--seat", seat]
    return shlex.join(words)
