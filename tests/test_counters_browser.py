"""The game page's counters in a real headless Chromium, for a game of each rule set at its
start: every unit of the seat's side is drawn as a counter with the symbol and strength the
server sent, an enemy in sight in the hostile (diamond) frame, each counter's label ready
for the label placer, clicking a counter picks the unit, and the scale bar sits below the
table, clear of the troops along its edge. A screenshot of each goes to /tmp. Skipped
where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from server_helpers import auth, running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

#: a scenario of each rule set and a seat whose side sees an enemy at the start
GAMES = {
    "buildings": ("village-street", "germans"),
    "street-fighter": ("normandy-village", "germans"),
    "street-fight": ("corner-shop", "british"),
    "house-clearing": ("oosterbeek-crossroads", "Oberscharfuehrer's group"),
}

#: what the page drew for each of the seat's own units: classes, symbol, strength, label
DRAWN = """() => [...document.querySelectorAll('#overlay g.figure.own')].map(g => ({
  id: g.dataset.id, classes: g.getAttribute('class'),
  symbol: (g.querySelector('g.symbol') || {}).getAttribute?.('class') || '',
  strength: (g.querySelector('text.strength') || {}).textContent || '',
  label: !!g.querySelector('text.label[data-anchor-x][data-anchor-y]')}))"""
ENEMIES = """() => [...document.querySelectorAll('#overlay g.figure.enemy')].map(g => ({
  id: g.dataset.id, classes: g.getAttribute('class'),
  frame: g.querySelector('.frame').tagName,
  points: g.querySelector('.frame').getAttribute('points')}))"""
#: the table's bottom edge and the scale bar's top, on the screen
EDGES = """() => ({
  table: document.querySelector('#mapbox rect.table').getBoundingClientRect().bottom,
  bar: document.querySelector('#mapbox g.scale-bar').getBoundingClientRect().top})"""


def open_game(browser: Any, client: Any, base: str, ruleset: str) -> tuple[Any, dict[str, Any]]:
    scenario, seat = GAMES[ruleset]
    made = client.post("/api/games", json={"scenario": scenario, "seed": 3,
                                            "seats": {seat: "human"}}).json()
    token = made["seat_tokens"][seat]
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{base}/play/{made['id']}#token={token}")
    page.wait_for_selector("#overlay g.figure.own", timeout=WAIT_MS)
    message = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
    return page, message


def test_counters_show_symbol_strength_and_hostile_frames(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for ruleset in GAMES:
            page, message = open_game(browser, client, base, ruleset)
            sent = message["counters"]
            drawn = {d["id"]: d for d in page.evaluate(DRAWN)}
            assert set(drawn) == {u["id"] for u in message["view"]["own"]}, ruleset
            for uid, counter in sent["own"].items():
                assert f"symbol-{counter['symbol']}" in drawn[uid]["symbol"], (ruleset, uid)
                assert drawn[uid]["strength"] == counter["strength"]["text"], (ruleset, uid)
                assert drawn[uid]["label"], (ruleset, uid)
            enemies = page.evaluate(ENEMIES)
            seen = [e for e in enemies if e["id"] in sent["enemies"]]
            assert seen, f"{ruleset}: no enemy in sight drawn"
            for enemy in seen:  # the hostile frame: a diamond of four corners
                assert "hostile" in enemy["classes"] and enemy["frame"] == "polygon"
                assert len(enemy["points"].split()) == 4
            edges = page.evaluate(EDGES)
            assert edges["bar"] >= edges["table"], f"{ruleset}: the scale bar is on the table"
            page.screenshot(path=f"/tmp/counters-{ruleset}.png")
            if ruleset == "street-fight":
                page.locator("#overlay g.figure.own[data-id=dunn]").click()
                page.wait_for_selector("#units div.selected[data-unit=dunn]", timeout=WAIT_MS)
                halo = "#overlay g.figure.own[data-id=dunn] .halo"
                page.wait_for_selector(halo, state="attached", timeout=WAIT_MS)
            page.close()
        browser.close()
