"""The map aids in a real headless Chromium: choosing a move kind shades where the unit may
go, the tape shows a distance in the table's unit, the sight tool shades what could be seen
from a point, and hovering a seen enemy with a unit picked shows the shot's odds. Skipped
where Chromium or Playwright is missing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from server_helpers import running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium


def pick_unit_with(page: Any, kind: str) -> None:
    """Select the seat's first unit that has orders of `kind` (waiting for each one's)."""
    for row in page.locator("#units div").all():
        row.click()
        page.wait_for_function(
            "() => !document.querySelector('#orders').textContent.includes('Fetching')",
            timeout=WAIT_MS)
        if page.locator(f"#orders button.kind[data-kind={kind}]").count():
            return
    pytest.fail(f"no unit of the seat has a {kind} order")


def shaded(page: Any, aid: str) -> int:
    count: int = page.locator(f"#aids g[data-aid={aid}] rect").count()
    return count


def test_reach_tape_sight_and_odds(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/games", json={"scenario": "corner-shop", "seed": 3,
                                                "seats": {"british": "human"}}).json()
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{base}/play/{made['id']}#token={made['seat_tokens']['british']}")
        page.wait_for_selector("#units div", timeout=WAIT_MS)

        # where it can go: shaded once a move kind is chosen, cleared with another pick
        pick_unit_with(page, "move")
        assert shaded(page, "reach") == 0
        page.click("#orders button.kind[data-kind=move]")
        page.wait_for_function(
            "() => document.querySelectorAll('#aids g[data-aid=reach] rect').length > 0",
            timeout=WAIT_MS)
        page.locator("#units div").first.click()
        assert shaded(page, "reach") == 0

        # the tape: dragged across the map, its figure in inches
        box = page.locator("#mapbox").bounding_box()
        page.click("#tool-measure")
        x, y = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 200, y, steps=5)
        page.mouse.up()
        page.wait_for_function(
            "() => /measure: \\d+\\.\\d in/.test(document.querySelector('#aids-readout')"
            ".textContent)", timeout=WAIT_MS)
        length = float(page.locator("#aids g[data-aid=tape]").get_attribute("data-length"))
        assert length > 0
        figure = re.search(r"([\d.]+) in", page.inner_text("#aids-readout"))
        assert figure is not None and abs(float(figure.group(1)) - length) < 0.06

        # the sight tool: a click shades what could be seen from there
        page.click("#tool-sight")
        page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.9)
        page.wait_for_function(
            "() => document.querySelectorAll('#aids g[data-aid=sight] rect').length > 0",
            timeout=WAIT_MS)
        assert "in sight from" in page.inner_text("#aids-readout")
        page.click("#aids-clear")
        assert shaded(page, "sight") == 0

        # odds on hover: a Tiger picked, a seen enemy hovered
        made = client.post("/api/games", json={"scenario": "village-street", "seed": 1,
                                                "seats": {"germans": "human"}}).json()
        page.goto(f"{base}/play/{made['id']}#token={made['seat_tokens']['germans']}")
        page.wait_for_selector("#units div[data-unit=tiger]", timeout=WAIT_MS)
        page.click("#units div[data-unit=tiger]")
        page.wait_for_function(
            "() => document.querySelectorAll('#orders button.order').length > 0",
            timeout=WAIT_MS)
        page.dispatch_event("#overlay g.figure.enemy[data-id=six-pounder] .frame", "mouseover")
        page.wait_for_function(
            "() => { const t = document.querySelector('#aids-tip');"
            " return !t.hidden && /\\d/.test(t.textContent) && !t.textContent.endsWith('…'); }",
            timeout=WAIT_MS)
        tip = page.inner_text("#aids-tip")  # the odds of the order at that enemy
        assert "six-pounder" in tip and re.search(r"\d+%", tip)
        browser.close()
