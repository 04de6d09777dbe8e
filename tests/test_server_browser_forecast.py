"""A preview on the game page says what the order's forecast holds beyond its sentence:
the chance of its main roll, what it becomes, and each risk in words and marked (friendly
fire, a hopeless roll, a wasted order), read from the typed forecast, never its English."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from server_helpers import running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

FORECAST = {"text": "a burst", "chance": 0.25, "becomes": "run",
            "risks": ["friendly-fire", "hopeless", "wasted"]}


def test_a_preview_shows_its_chance_what_it_becomes_and_every_risk(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.db") as (_, client), \
            sync_api.sync_playwright() as driver:
        made = client.post("/api/games", json={"scenario": "corner-shop", "seed": 1,
                                                "seats": {"british": "human"}}).json()
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.goto(f"{client.base_url}/play/{made['id']}#token={made['seat_tokens']['british']}")
        page.wait_for_function("() => typeof forecastLines === 'function'", timeout=WAIT_MS)
        shown = page.evaluate(
            """(forecast) => forecastLines(forecast).map((line) =>
                 [line.className, line.textContent])""", FORECAST)
        browser.close()
    classes = [c for c, _ in shown]
    words = " ".join(t for _, t in shown)
    assert "forecast-chance" in classes and "25%" in words
    assert "becomes a run" in words
    for risk in FORECAST["risks"]:
        assert f"risk risk-{risk}" in classes
    assert "own troops may be hit" in words and "No roll can succeed" in words
    assert "may do nothing" in words
