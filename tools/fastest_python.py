"""Print the path of the fastest Python 3.11 or newer on the PATH that can make a venv: the
interpreter `make` builds .venv from (its PY, unless given).

A machine may hold several builds of the same version. They run the same code at quite
different speeds: a distribution's build, optimised with profile guidance and link-time
optimisation, runs pure Python about a third faster than one compiled without them (a
pyenv build's default), and whole games 10-20% faster. So each candidate runs a short,
fixed piece of pure Python, in turns, and the least CPU time of any turn wins. With one
candidate, or when none can be timed, it is `python3`. Standard library only: it runs
before any venv exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

NAMES = ("python3", "python3.11", "python3.12", "python3.13")
#: the candidates take turns this many times: a burst of other work on the machine slows
#: one turn, and each candidate keeps its best
ROUNDS = 3

#: what each candidate runs: the interpreter's version, then its best time of seven runs of
#: object, dict and float work like the engine's (about 0.02 s a run here), in CPU time:
#: a busy machine delays a run but hardly changes the CPU time it takes
PROBE = """
import sys, time
if sys.version_info < (3, 11):
    raise SystemExit(1)
import ensurepip, venv
class Spot:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
def work():
    kept, total = {}, 0.0
    for i in range(40_000):
        spot = Spot(i * 0.5, i * 0.25)
        kept[i % 500] = spot
        total += sum([spot.x, spot.y]) * 1e-9
    return total
def timed():
    start = time.process_time()
    work()
    return time.process_time() - start
print(min(timed() for _ in range(7)))
"""


def candidates() -> list[str]:
    """Every interpreter of those names on the PATH, once each (by its real file)."""
    found: dict[Path, str] = {}
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        for name in NAMES:
            path = shutil.which(name, path=folder)
            if path is not None:
                found.setdefault(Path(path).resolve(), path)
    return list(found.values())


def probe_time(python: str) -> float | None:
    """The candidate's best time, or None if it is too old, cannot make a venv or fails."""
    try:
        done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True,
                              timeout=60, check=False)
        return float(done.stdout) if done.returncode == 0 else None
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None


def fastest(rounds: int = ROUNDS) -> str:
    """The candidate with the least best time over `rounds` turns each ("python3" if none
    could be timed). One that fails a turn takes no more, and keeps the best it had."""
    live = candidates()
    best: dict[str, float] = {}
    for _ in range(rounds):
        timed = {python: probe_time(python) for python in live}
        found = {python: t for python, t in timed.items() if t is not None}
        live = list(found)
        for python, t in found.items():
            best[python] = min(t, best.get(python, t))
    return min(best, key=best.__getitem__) if best else "python3"


if __name__ == "__main__":
    print(fastest())
