"""End to end in a real headless Chromium (Debian's, driven by Playwright): a game is made
in the lobby, two seats play it in two browser contexts by clicking, each sees the dice
log, and one side's page and WebSocket frames never name an enemy it has not seen. Takes
the screenshots of docs/. Skipped where Chromium or Playwright is missing (`make test`
installs both: tools/install-browser.sh)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from browser_helpers import stored_game as rebuilt
from fibua.core.game import Game
from server_helpers import running_server

#: screenshots go to docs/ only when asked (FIBUA_SHOTS=docs), so a test run changes no file
SHOTS = os.environ.get("FIBUA_SHOTS")

sync_api = pytest.importorskip("playwright.sync_api")
# CI installs Chromium (make test runs tools/install-browser.sh), so there it must be found
pytestmark = needs_chromium


def unseen_by(game: Game, side: str) -> set[str]:
    """Ids and names of the enemies the side has never seen nor been told of."""
    enemies: set[str] = set()
    for other in game.scenario.side_names:
        if other != side:
            for unit in game.view(other)["own"]:
                enemies |= {str(unit["id"]), str(unit["name"])}
    known: set[str] = set()
    for enemy in game.view(side)["enemies"]:
        known |= {str(enemy["id"]), str(enemy["name"])}
    told = json.dumps([event.data for event in game.log_for(side)])
    return {name for name in enemies - known if json.dumps(name) not in told
            and name not in told}


def corner_shop_for_two(lobby: Any, base: str) -> dict[str, str]:
    """Create corner-shop, seed 3, both seats people's, from the lobby page: the links it
    gives (british, germans, spectators)."""
    lobby.goto(base + "/")
    card = lobby.locator(".card[data-scenario=corner-shop]")
    card.wait_for(timeout=WAIT_MS)
    card.locator("select[data-seat=british]").select_option("human")
    card.locator("select[data-seat=germans]").select_option("human")
    card.locator("input.seed").fill("3")
    card.locator("button.create").click()
    lobby.wait_for_selector(".links li", timeout=WAIT_MS)
    return {item.inner_text().split(":")[0]: item.locator("a").get_attribute("href")
            for item in lobby.locator(".links li").all()}


def move_by_clicking(page: Any) -> None:
    """Select the first unit with a move, place the move on one of its marked places,
    look at the preview and commit it."""
    for row in page.locator("#units div").all():
        row.click()
        # the unit's orders come on request: wait for its buttons or the reason it has none
        page.wait_for_function(
            "() => { const box = document.querySelector('#orders');"
            " return !box.textContent.includes('Fetching')"
            " && (box.querySelector('button.kind') !== null"
            " || box.textContent.includes('no orders now')); }", timeout=WAIT_MS)
        kind = page.locator("#orders button.kind[data-kind=move][data-form=to]")
        if kind.count():
            kind.click()
            page.locator("circle.destination").nth(2).dispatch_event("click")
            page.wait_for_selector("#commit", timeout=WAIT_MS)
            assert page.inner_text("#preview").strip()
            page.click("#commit")
            return
    pytest.fail("no unit of the seat could move")


def test_two_seats_play_by_clicking(tmp_path: Path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    db = tmp_path / "games.sqlite3"
    frames: list[str] = []
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        size = {"width": 1400, "height": 900}
        first, second = browser.new_context(viewport=size), browser.new_context(viewport=size)
        lobby = first.new_page()
        links = corner_shop_for_two(lobby, base)
        assert set(links) == {"british", "germans", "spectators"}
        lobby.screenshot(path=str(shots / "server-lobby.png"))

        british = first.new_page()
        british.goto(links["british"])
        germans = second.new_page()
        germans.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: frames.append(str(payload))))
        germans.goto(links["germans"])
        british.wait_for_selector("#units div", timeout=WAIT_MS)
        assert "your orders" in british.inner_text("#seat")
        move_by_clicking(british)
        # waits are functions, not expressions: Playwright evaluates an expression with
        # eval, which the pages' security policy forbids
        british.wait_for_function(
            "() => / (moves|runs) \\d/.test(document.querySelector('#dice').textContent)",
            timeout=WAIT_MS)  # the move, told in plain words
        # the unit that moved is still picked: the page says why it has no order left
        british.wait_for_function(
            "() => document.querySelector('#orders').textContent.includes('has already moved')",
            timeout=WAIT_MS)
        assert "has no orders now: " in british.inner_text("#orders")
        british.screenshot(path=str(shots / "server-game.png"))
        british.click("#done")
        germans.wait_for_function(
            "() => document.querySelector('#seat').textContent.includes('your orders')",
            timeout=WAIT_MS)
        move_by_clicking(germans)
        germans.wait_for_function(
            "() => / (moves|runs) \\d/.test(document.querySelector('#dice').textContent)",
            timeout=WAIT_MS)  # the move, told in plain words
        assert "rolled" in germans.inner_text("#dice")  # the initiative dice, faces shown
        page_text = germans.inner_text("body") + germans.content()
        browser.close()
    game = rebuilt(db)
    assert [o.side for o in game.orders if o.kind == "move"] == ["british", "germans"]
    hidden = unseen_by(game, "germans")
    assert hidden, "the British should still be partly unseen"
    assert frames
    for text in [page_text, *frames]:
        named = [name for name in hidden
                 if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]
        assert not named, f"the German page names unseen British {named}"
