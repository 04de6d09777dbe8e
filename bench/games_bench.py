"""Complete computer-vs-computer games per second, per bundled scenario, on one core:
counted by CPU time (what the games cost, little moved by other work on a shared machine),
with the wall-clock rate beside it."""

from __future__ import annotations

import functools
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path

from fibua.lab.engine import play_games
from fibua.scenario.loader import bundled_scenarios, load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from timing import Spent, rates, spent

WARMUP_SEEDS = (10_000, 10_001)  # their games make the map's caches and compile kernels


def games_per_second(name: str, seconds: float = 3.0, passes: int = 3) -> dict[str, float]:
    """Games a second as the lab plays them, over `passes` passes over the same seeds
    (the first, about seconds / passes of CPU long, picks them): every game's CPU time
    and wall time summed, so the CPU rate ranks scenarios alike on a busy machine."""
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
    def play_all(count: int) -> None:
        for seed in range(count):
            play(seed)

    total = Spent(0.0, 0.0)
    chosen = 0
    while total.cpu < seconds / passes:
        total = total + spent(functools.partial(play, chosen))
        chosen += 1
    for _ in range(passes - 1):
        total = total + spent(functools.partial(play_all, chosen))
    games.close()
    return rates(chosen * passes, total)


def measure_games(seconds: float = 3.0) -> dict[str, dict[str, float]]:
    return {name: {k: round(v, 1) for k, v in games_per_second(name, seconds).items()}
            for name in bundled_scenarios()}
