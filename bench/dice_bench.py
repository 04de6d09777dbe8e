"""Dice rolls a second: single d6 faces from the game's generator (keyed BLAKE2b over a
counter), the best of several passes, as `timeit` reasons (other work on a shared machine
only ever slows a pass down). Run as a script to print the figure as JSON."""

from __future__ import annotations

import json
import time

from fibua.core.dice import Rng, new_seed, parse_dice

ROLLS = 200_000
PASSES = 7


def measure_dice(rolls: int = ROLLS, passes: int = PASSES) -> float:
    """d6 faces a second, drawn from a generator with a fresh 128-bit seed."""
    d6 = parse_dice("d6")
    best = float("inf")
    for _ in range(passes):
        face = Rng(new_seed()).face
        start = time.perf_counter()
        for _ in range(rolls):
            face(d6)
        best = min(best, time.perf_counter() - start)
    return rolls / best


if __name__ == "__main__":
    print(json.dumps({"dice_rolls_per_s": round(measure_dice())}))
