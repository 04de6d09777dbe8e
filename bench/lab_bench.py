"""The lab's throughput: complete games a second of one scenario with several processes,
as `fibua lab run --jobs J` plays them (the pool's start and the rows included), by wall
time and by CPU time (this process's and its workers')."""

from __future__ import annotations

import sys
from pathlib import Path

from fibua.lab.runner import play_all
from fibua.scenario.loader import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from timing import rates, spent_with_children

LAB_SCENARIO = "corner-shop"


def measure_lab(name: str = LAB_SCENARIO, games: int = 300,
                jobs: int = 2) -> dict[str, float]:
    scenario = load_scenario(name)
    seats = dict.fromkeys(scenario.side_names, "computer")
    play_all(scenario, seats, range(10_000, 10_002))  # kernels and map caches, once
    rows: list[object] = []
    took = spent_with_children(lambda: rows.extend(play_all(scenario, seats, range(games),
                                                            jobs)))
    assert len(rows) == games
    return rates(games, took)
