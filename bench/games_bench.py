"""Complete computer-vs-computer games per second, per bundled scenario, on one core."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator

from fibua.lab.engine import play_games
from fibua.scenario.loader import bundled_scenarios, load_scenario

WARMUP_SEEDS = (10_000, 10_001)  # their games make the map's caches and compile kernels


def games_per_second(name: str, seconds: float = 3.0, passes: int = 3) -> float:
    """Games a second as the lab plays them: the fastest of `passes` passes over the same
    seeds. The first pass, about seconds / passes long, picks the seeds; the fastest
    pass is the one that other work on a shared machine held up least (as `timeit`
    reasons: such work only ever slows a pass down)."""
    queue: deque[int] = deque()

    def seeds() -> Iterator[int]:
        while queue:
            yield queue.popleft()

    games = play_games(load_scenario(name), seeds())

    def play(seed: int) -> None:
        queue.append(seed)
        next(games)

    for seed in WARMUP_SEEDS:
        play(seed)
    start = time.perf_counter()
    chosen = 0
    while time.perf_counter() - start < seconds / passes:
        play(chosen)
        chosen += 1
    best = time.perf_counter() - start
    for _ in range(passes - 1):
        start = time.perf_counter()
        for seed in range(chosen):
            play(seed)
        best = min(best, time.perf_counter() - start)
    games.close()
    return chosen / best


def measure_games(seconds: float = 3.0) -> dict[str, float]:
    return {name: round(games_per_second(name, seconds), 1) for name in bundled_scenarios()}
