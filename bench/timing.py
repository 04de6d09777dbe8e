"""Wall time and CPU time side by side, for every figure `make bench` gives.

On a machine shared with other work the wall time of a piece of work grows with that
work, its CPU time (`time.process_time`: this process's user and system time, every
thread) far less: the CPU figure is the one to compare across runs, the wall one says
what a user waits."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Spent:
    """Seconds of wall-clock and of CPU time a piece of work took."""

    wall: float
    cpu: float

    def __add__(self, other: Spent) -> Spent:
        return Spent(self.wall + other.wall, self.cpu + other.cpu)


def spent(run: Callable[[], Any]) -> Spent:
    """Run `run` once and say what it took."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return Spent(time.perf_counter() - wall, time.process_time() - cpu)


def spent_with_children(run: Callable[[], Any]) -> Spent:
    """As `spent`, counting the CPU time of the child processes it started and waited
    for too (a process pool's workers)."""
    wall, before = time.perf_counter(), os.times()
    run()
    after = os.times()
    cpu = sum(getattr(after, f) - getattr(before, f)
              for f in ("user", "system", "children_user", "children_system"))
    return Spent(time.perf_counter() - wall, cpu)


def rates(count: float, took: Spent) -> dict[str, float]:
    """`count` things over the time they took: a second of CPU and a second of wall."""
    return {"per_cpu_s": count / took.cpu if took.cpu > 0 else float("inf"),
            "per_wall_s": count / took.wall if took.wall > 0 else float("inf")}
