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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fibua.battlefield.model import ObstacleKind, Position
from fibua.battlefield.randommap import random_positions
from fibua.battlefield.sight import SightEngine
from fibua.scenario.loader import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from timing import spent

MOVES = 400
RUNS = 7
HIGH_WALLS = frozenset({ObstacleKind.HIGH_WALL})


def _per_call(run: Callable[[], Any], calls: int) -> tuple[float, float]:
    """Microseconds a call: by the fastest run's wall time, and by the CPU time of all."""
    run()  # warm-up: compile or load the JIT cache
    runs = [spent(run) for _ in range(RUNS)]
    return (min(r.wall for r in runs) / calls * 1e6,
            sum(r.cpu for r in runs) / RUNS / calls * 1e6)


def _first_high_wall(engine: SightEngine, a: Position, b: Position) -> object:
    crossed = engine.obstacles_crossed(a.point, b.point)
    return next((o for o, _ in crossed if o.kind in HIGH_WALLS), None)


def measure_moves(scenario: str = "corner-shop", seed: int = 1) -> dict[str, float]:
    field = load_scenario(scenario).battlefield
    engine = SightEngine(field)
    positions = random_positions(seed, field, 2 * MOVES)
    moves = list(zip(positions[:MOVES], positions[MOVES:], strict=True))
    blocked = sum(engine.move_blocked(a, b, True) for a, b in moves)
    runs: dict[str, Callable[[], Any]] = {
        "move_check_us": lambda: [engine.move_check(a, b, True).crosses_wall
                                  for a, b in moves],
        "move_blocked_us": lambda: [engine.move_blocked(a, b, True) for a, b in moves],
        "obstacles_crossed_first_us": lambda: [_first_high_wall(engine, a, b)
                                               for a, b in moves],
        "first_obstacle_of_us": lambda: [engine.first_obstacle_of(a.point, b.point, HIGH_WALLS)
                                         for a, b in moves],
    }
    found: dict[str, float] = {"share_blocked": blocked / MOVES}
    for name, run in runs.items():
        wall, cpu = _per_call(run, MOVES)
        found[name] = wall
        found[name.replace("_us", "_cpu_us")] = cpu
    return found


if __name__ == "__main__":
    print(json.dumps(measure_moves(*sys.argv[1:2]), indent=2))
