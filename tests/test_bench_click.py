"""The order-click-to-map benchmark of `make bench` runs: a person's orders given on the
game page in headless Chromium are each followed by the seat's map drawn anew, and every
figure is there (their values are measures, not checked). Skipped where Chromium or
Playwright is missing."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from browser_helpers import needs_chromium

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))

from click_bench import measure_click_to_map

pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium


def test_a_few_orders_give_every_figure() -> None:
    figures = measure_click_to_map(orders_a_game=3, games=(("corner-shop", "british"),),
                                   prepare=False)
    assert figures["games"] == 1
    assert figures["orders"] > 0
    assert figures["refused"] == 0
    for part in ("click_to_map", "to_push", "redraw", "paint"):
        low, high = figures[f"{part}_p50_ms"], figures[f"{part}_p95_ms"]
        assert math.isfinite(low) and math.isfinite(high) and 0 <= low <= high
    # the parts follow one another: the whole is at least the push
    assert figures["click_to_map_p95_ms"] >= figures["to_push_p50_ms"]
    if sys.platform == "linux":
        assert figures["server_cpu_ms_per_order"] is not None
        assert figures["browser_cpu_ms_per_order"] > 0
