"""Dice rolls a second: single d6 faces from the game's generator (keyed BLAKE2b over a
counter), the best of several passes, as `timeit` reasons (other work on a shared machine
only ever slows a pass down). Run as a script to print the figure as JSON."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from fibua.core.dice import Rng, new_seed, parse_dice

sys.path.insert(0, str(Path(__file__).parent))
from timing import Spent

ROLLS = 200_000
PASSES = 7


def measure_dice(rolls: int = ROLLS, passes: int = PASSES) -> dict[str, float]:
    """d6 faces a second, drawn from a generator with a fresh 128-bit seed: by the
    fastest pass's wall time, and by the CPU time of all passes."""
    d6 = parse_dice("d6")
    best = float("inf")
    total = Spent(0.0, 0.0)
    for _ in range(passes):
        face = Rng(new_seed()).face
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(rolls):
            face(d6)
        took = Spent(time.perf_counter() - wall, time.process_time() - cpu)
        best = min(best, took.wall)
        total = total + took
    return {"per_wall_s": rolls / best, "per_cpu_s": rolls * passes / total.cpu}


if __name__ == "__main__":
    print(json.dumps(measure_dice()))
