"""Line-of-sight throughput: the numba engine against the Shapely reference.

100 observers x 100 targets on a random 300-building town. The engine is timed on the whole
batch after a warm-up call (JIT compilation or cache load), best of several runs, on one
core (the compiled loop is single-threaded). The reference is timed on a sample of the same
pairs and its per-check time extrapolated.

Run as a script to print the numbers as JSON.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fibua.battlefield.randommap import random_battlefield, random_positions
from fibua.battlefield.reference import reference_visible
from fibua.battlefield.sight import SightEngine

sys.path.insert(0, str(Path(__file__).parent))
from timing import spent

OBSERVERS = 100
TARGETS = 100
RUNS = 7
REFERENCE_SAMPLE = 400


def _best_time(run: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """The fastest run's wall time, and the CPU time of a run (the mean of all)."""
    runs = [spent(run) for _ in range(repeats)]
    return min(r.wall for r in runs), sum(r.cpu for r in runs) / repeats


def measure_sight(seed: int = 1) -> dict[str, float]:
    field = random_battlefield(seed, n_buildings=300)
    positions = random_positions(seed, field, OBSERVERS + TARGETS)
    observers, targets = positions[:OBSERVERS], positions[OBSERVERS:]
    engine = SightEngine(field)
    engine.visible_matrix(observers, targets)  # warm-up: compile or load the JIT cache
    engine_time, engine_cpu = _best_time(lambda: engine.visible_matrix(observers, targets),
                                         RUNS)
    per_check = engine_time / (OBSERVERS * TARGETS)

    rng = random.Random(seed)
    pairs = [(rng.choice(observers), rng.choice(targets)) for _ in range(REFERENCE_SAMPLE)]
    reference_visible(field, {}, *pairs[0])  # builds and caches the Shapely shapes
    reference_time, reference_cpu = _best_time(
        lambda: [reference_visible(field, {}, a, b) for a, b in pairs], 2)
    reference_per_check = reference_time / REFERENCE_SAMPLE
    return {
        "los_checks_per_s": 1.0 / per_check,
        "los_checks_per_cpu_s": OBSERVERS * TARGETS / engine_cpu,
        "los_speedup_vs_shapely_cpu": (reference_cpu / REFERENCE_SAMPLE)
        / (engine_cpu / (OBSERVERS * TARGETS)),
        "los_speedup_vs_shapely": reference_per_check / per_check,
    }


if __name__ == "__main__":
    print(json.dumps(measure_sight(), indent=2))
