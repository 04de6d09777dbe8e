"""The game page's map layer and odds panel in a real headless Chromium: the floor switch
dims what is not on the floor shown (openings, troops), a spectator's map holds no troop
before the end, and the odds form built from a question's schema is answered, or names
the bad field. Skipped where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server_helpers import running_server
from test_server_browser import CHROMIUM, FLAGS, WAIT_MS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is not installed")


def classes(page: Any, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => n.getAttribute('class') || '')")
    return found


def floors_of(page: Any) -> list[int]:
    found: list[int] = page.eval_on_selector_all(
        "#overlay g.figure.own", "nodes => nodes.map(n => Number(n.dataset.floor))")
    return found


def test_floor_switch_odds_form_and_spectator(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/games", json={"scenario": "corner-shop", "seed": 3,
                                                "seats": {"british": "human"}}).json()
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{base}/play/{made['id']}#token={made['seat_tokens']['british']}")
        page.wait_for_selector("#overlay g.figure.own", timeout=WAIT_MS)
        page.wait_for_selector("#floors button[data-floor='1']", timeout=WAIT_MS)
        assert page.locator("#floors button").all_inner_texts() == [
            "all floors", "ground", "floor 1"]
        assert not any("dim" in c for c in classes(page, "line.opening"))

        page.click("#floors button[data-floor='1']")
        upper = classes(page, "line.opening[data-floor='1']")
        ground = classes(page, "line.opening[data-floor='0']")
        assert upper and ground
        assert not any("dim" in c for c in upper) and all("dim" in c for c in ground)
        shown = dict(zip(floors_of(page), classes(page, "#overlay g.figure.own"), strict=True))
        for floor, css in shown.items():
            assert ("on-floor" if floor == 1 else "off-floor") in css
        # a section of one storey has no floor 1
        assert page.locator("polygon.section[data-id='fournil'].dim").count() == 1

        page.click("#floors button[data-floor='0']")
        assert all("dim" in c for c in classes(page, "line.opening[data-floor='1']"))
        assert all("on-floor" in c for f, c in zip(
            floors_of(page), classes(page, "#overlay g.figure.own"), strict=True) if f == 0)
        page.click("#floors button[data-floor='all']")
        assert not any("dim" in c for c in classes(page, "line.opening"))
        assert not any("floor" in c for c in classes(page, "#overlay g.figure"))

        # the odds panel: the rule set's questions, a form from the schema, the answer
        page.wait_for_selector("#odds-question option[value=shoot]", state="attached",
                               timeout=WAIT_MS)
        page.select_option("#odds-weapon", "rifle")
        page.fill("#odds-range", "8")
        page.click("#odds-ask")
        page.wait_for_selector("#odds-answer table tr", timeout=WAIT_MS)
        assert "%" in page.inner_text("#odds-answer")
        # lists are typed as values separated by commas
        page.select_option("#odds-weapon", "lmg")
        page.fill("#odds-targets", "2")
        page.fill("#odds-ranges", "8, 12")
        page.fill("#odds-moving", "yes, no")
        page.click("#odds-ask")
        # waits are functions, not expressions: Playwright evaluates an expression with
        # eval, which the pages' security policy forbids
        page.wait_for_function(
            "() => document.querySelector('#odds-answer').textContent.includes('targets 1, 2')",
            timeout=WAIT_MS)
        assert not page.locator("#odds-answer .error").count()
        page.fill("#odds-range", "-3")
        page.click("#odds-ask")
        page.wait_for_selector("#odds-answer .error", timeout=WAIT_MS)
        assert "range" in page.inner_text("#odds-answer")
        assert "bad" in (page.get_attribute("#odds-range", "class") or "")

        # what a message's layer carries is drawn: a sighting fading with its age, an arrow
        # for fire taken, markers and badges on own troops (the message is set in the page
        # directly)
        page.evaluate("""() => {
            const enemy = state.view.enemies[0], own = state.view.own[0];
            state.status.turn = 4;
            Object.assign(enemy, {visible_now: false, seen_turn: 2});
            state.map.fired_on = [{unit: own.id, x: own.x, y: own.y, floor: 0, turn: 4,
                                   source: null, bearing: 90, shots: 1}];
            state.map.marks[own.id] = [{kind: "aim", label: "aiming 2"}];
            state.counters.own[own.id].marks = [{tag: "aiming", short: "A2",
                                                 words: "aiming 2"}];
            render(); }""")
        old = page.locator("#overlay g.figure.enemy.last-seen")
        assert old.get_attribute("data-age") == "2"
        assert float(old.get_attribute("opacity") or 0) == pytest.approx(0.4)
        assert page.locator("#overlay line.fire-arrow.bearing").count() == 1
        # the counter carries the states as badges (counters.js), the layer its aim ticks
        assert page.locator("#overlay g.marks line.mark-aim").count() == 4
        assert page.eval_on_selector("#overlay g.figure.own g.badge-aiming text",
                                     "n => n.textContent") == "A2"

        # a spectator: the map and its floors, no troop before the end
        watcher = browser.new_page(viewport={"width": 1400, "height": 900})
        watcher.goto(f"{base}/play/{made['id']}#token={made['spectator_token']}")
        watcher.wait_for_selector("#floors button[data-floor='1']", timeout=WAIT_MS)
        watcher.wait_for_selector("#odds-question option", state="attached", timeout=WAIT_MS)
        assert watcher.locator("#overlay g.figure").count() == 0

        # a game the computer plays to its end: the spectator sees every troop
        ended = client.post("/api/games", json={"scenario": "normandy-village", "seed": 2,
                                                 "seats": {}}).json()
        final = browser.new_page(viewport={"width": 1400, "height": 900})
        final.goto(f"{base}/play/{ended['id']}#token={ended['spectator_token']}")
        final.wait_for_selector("#ending:not([hidden])", timeout=WAIT_MS * 3)
        final.wait_for_selector("#overlay g.figure.troop", timeout=WAIT_MS)
        troops = client.get(f"/api/games/{ended['id']}", headers={
            "authorization": f"Bearer {ended['spectator_token']}"}).json()["revealed"]["troops"]
        placed = [t for t in troops if isinstance(t.get("x"), float | int)]
        assert final.locator("#overlay g.figure.troop").count() == len(placed)
        sides = {t["side"] for t in troops}
        for side in sides:
            assert final.locator(f"#overlay g.figure.side-{side}").count() == len(
                [t for t in placed if t["side"] == side])
        browser.close()
