"""Per-call time of the move queries on a bundled scenario map: the general `move_check`
against the one-call `move_blocked`, and the nearest obstacle of some kinds picked out of
`obstacles_crossed` against `first_obstacle_of`.

Moves join random positions (in the open, inside sections on any floor, at openings); each
figure is the best of several runs after a warm-up call. Run as a script to print them as
JSON (microseconds per call).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

from fibua.battlefield.model import ObstacleKind, Position
from fibua.battlefield.randommap import random_positions
from fibua.battlefield.sight import SightEngine
from fibua.scenario.loader import load_scenario

MOVES = 400
RUNS = 7
HIGH_WALLS = frozenset({ObstacleKind.HIGH_WALL})


def _best_per_call(run: Callable[[], Any], calls: int) -> float:
    run()  # warm-up: compile or load the JIT cache
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def _first_high_wall(engine: SightEngine, a: Position, b: Position) -> object:
    crossed = engine.obstacles_crossed(a.point, b.point)
    return next((o for o, _ in crossed if o.kind in HIGH_WALLS), None)


def measure_moves(scenario: str = "corner-shop", seed: int = 1) -> dict[str, float]:
    field = load_scenario(scenario).battlefield
    engine = SightEngine(field)
    positions = random_positions(seed, field, 2 * MOVES)
    moves = list(zip(positions[:MOVES], positions[MOVES:], strict=True))
    blocked = sum(engine.move_blocked(a, b, True) for a, b in moves)
    return {
        "share_blocked": blocked / MOVES,
        "move_check_us": _best_per_call(
            lambda: [engine.move_check(a, b, True).crosses_wall for a, b in moves], MOVES
        ),
        "move_blocked_us": _best_per_call(
            lambda: [engine.move_blocked(a, b, True) for a, b in moves], MOVES
        ),
        "obstacles_crossed_first_us": _best_per_call(
            lambda: [_first_high_wall(engine, a, b) for a, b in moves], MOVES
        ),
        "first_obstacle_of_us": _best_per_call(
            lambda: [engine.first_obstacle_of(a.point, b.point, HIGH_WALLS) for a, b in moves],
            MOVES,
        ),
    }


if __name__ == "__main__":
    print(json.dumps(measure_moves(*sys.argv[1:2]), indent=2))
