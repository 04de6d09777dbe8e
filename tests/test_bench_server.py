"""The server load benchmark of `make bench` runs: a few bot-played games against a real
server process give orders, every one reaches every seat's WebSocket, and the figures are
all there (their values are measures, not checked)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))

from server_bench import measure_server, percentile


def test_a_small_load_gives_every_figure() -> None:
    # long enough that a cold start (the kernels compiled on a busy machine) still plays
    figures = measure_server(games=3, seconds=10.0, think=0.1)
    assert figures["games"] == 3
    assert figures["orders"] > 0
    assert figures["refused"] == 0
    for key in ("p50_ms", "p99_ms", "max_ms", "orders_per_s"):
        assert math.isfinite(figures[key]) and figures[key] > 0
    assert figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    if sys.platform == "linux":
        assert figures["mb_per_game"] is not None
        assert figures["server_cpu_ms_per_order"] > 0


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.99) == 99.0
    assert percentile(values, 0.5) == 50.0
    assert percentile([7.0], 0.99) == 7.0
    assert math.isnan(percentile([], 0.5))
