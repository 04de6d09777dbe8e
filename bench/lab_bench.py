"""The lab's throughput: complete games a second of one scenario with several processes,
as `fibua lab run --jobs J` plays them (the pool's start and the rows included)."""

from __future__ import annotations

import time

from fibua.lab.runner import play_all
from fibua.scenario.loader import load_scenario

LAB_SCENARIO = "corner-shop"


def measure_lab(name: str = LAB_SCENARIO, games: int = 300, jobs: int = 2) -> float:
    scenario = load_scenario(name)
    seats = dict.fromkeys(scenario.side_names, "computer")
    play_all(scenario, seats, range(10_000, 10_002))  # kernels and map caches, once
    start = time.perf_counter()
    rows = play_all(scenario, seats, range(games), jobs)
    seconds = time.perf_counter() - start
    assert len(rows) == games
    return games / seconds
