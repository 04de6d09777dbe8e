"""Uploading a scenario in the lobby, in a real headless Chromium: a file with problems
shows every one with its field path on the page and adds nothing; a valid one appears
among the scenarios with its map, and a game is made on it from its card. Takes the
screenshot docs/server-upload.png when asked (FIBUA_SHOTS=docs). Skipped where Chromium or
Playwright is missing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from fibua.scenario.loader import bundled_scenarios
from server_helpers import running_server

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
SHOTS = os.environ.get("FIBUA_SHOTS")
#: how long the page may take to show what the server sent (a bound, not a measure)
WAIT_MS = 60_000

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason="Chromium is not installed (tools/install-browser.sh)")


def farmyard() -> str:
    """The farm compound under another name and title."""
    text = bundled_scenarios()["farm-compound"].read_text(encoding="utf-8")
    text = text.replace('name = "farm-compound"', 'name = "my-farm"', 1)
    return text.replace('title = "La Ferme de la Haye"', 'title = "My Own Farm"', 1)


def test_upload_in_the_lobby_shows_problems_then_offers_the_scenario(tmp_path: Path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    good = tmp_path / "my-farm.toml"
    good.write_text(farmyard(), encoding="utf-8")
    bad = tmp_path / "draft.toml"
    bad.write_text(farmyard().replace("turns = ", "weather = 'rain'\nturns = -", 1),
                   encoding="utf-8")
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(base + "/")
        page.locator(".card[data-scenario=corner-shop]").wait_for(timeout=WAIT_MS)
        cards = page.locator(".card").count()

        page.set_input_files("#upload-file", str(bad))
        page.click("#upload-send")
        page.wait_for_selector("#upload-problems li", timeout=WAIT_MS)
        problems = page.inner_text("#upload-problems")
        assert "scenario.turns" in problems and "scenario.weather" in problems
        assert "draft.toml" in page.inner_text("#upload-result")
        assert page.locator(".card").count() == cards
        page.locator("#upload-problems").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "server-upload.png"))

        page.set_input_files("#upload-file", str(good))
        page.click("#upload-send")
        card = page.locator(".card[data-scenario=my-farm]")
        card.wait_for(timeout=WAIT_MS)
        assert page.locator("#upload-problems li").count() == 0
        assert "My Own Farm" in card.inner_text() and "uploaded" in card.inner_text()
        assert page.evaluate(
            "document.querySelector('.card[data-scenario=my-farm] img').naturalWidth") > 0
        card.locator("button.create").click()
        page.wait_for_selector("#games tbody tr", timeout=WAIT_MS)
        assert "My Own Farm" in page.inner_text("#games")
        browser.close()
