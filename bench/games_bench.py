"""Complete computer-vs-computer games per second, per bundled scenario, on one core."""

from __future__ import annotations

import itertools
import time

from fibua.core.lab import play_games
from fibua.scenario.loader import bundled_scenarios, load_scenario


def games_per_second(name: str, seconds: float = 3.0, warmup: int = 2) -> float:
    """Games played in about `seconds`, after `warmup` games (the map's caches and the
    compiled kernels are made then), as the lab plays them."""
    seeds = itertools.chain(range(10_000, 10_000 + warmup), itertools.count())
    games = play_games(load_scenario(name), seeds)
    for _ in range(warmup):
        next(games)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        next(games)
        done += 1
    rate = done / (time.perf_counter() - start)
    games.close()
    return rate


def measure_games(seconds: float = 3.0) -> dict[str, float]:
    return {name: round(games_per_second(name, seconds), 1) for name in bundled_scenarios()}
