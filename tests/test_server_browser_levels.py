"""The computer's level chosen in the lobby, in a real headless Chromium: the level choice
is offered for a computer seat only, says in plain words what the level means, and a game
made with the British the hard computer's says so on the German seat's page
("british: computer (hard)"), where the person ends phases and the hard computer plays
its orders in between (kept in the server's database)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from server_helpers import running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

#: how long the page may wait for the hard computer's orders of a phase (a bound, not a
#: measure: each takes about a second of CPU, more on a busy machine)
THINKING_MS = 5 * WAIT_MS
#: the most phases the person ends waiting for the computer to order something
MAX_PHASES = 12


def stored(db: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The game's seats and orders, as the server's database holds them."""
    with sqlite3.connect(db) as connection:
        (seats,) = connection.execute("SELECT seats FROM games").fetchone()
        orders = [json.loads(body) for (body,) in connection.execute(
            "SELECT body FROM orders ORDER BY n")]
    return json.loads(seats), orders


def choose_in_the_lobby(page: Any, base: str) -> str:
    """Corner shop, seed 3: the Germans a person's, the British the hard computer's; the
    German seat's link."""
    page.goto(base + "/")
    card = page.locator(".card[data-scenario=corner-shop]")
    card.wait_for(timeout=WAIT_MS)
    card.locator("select[data-seat=germans]").select_option("human")
    card.locator("select[data-seat=british]").select_option("computer")
    assert card.locator("select[data-level=germans]").is_hidden()  # a person's seat
    level = card.locator("select[data-level=british]")
    assert level.input_value() == "normal"  # the default
    assert [o.inner_text() for o in level.locator("option").all()] == ["easy", "normal",
                                                                       "hard"]
    level.select_option("hard")
    words = card.locator("[data-level-words=british]").inner_text()
    assert words.startswith("british: hard: looks ahead") and "second" in words
    card.locator("input.seed").fill("3")
    card.locator("button.create").click()
    page.wait_for_selector(".links li", timeout=WAIT_MS)
    link = next(item.locator("a").get_attribute("href") for item in page.locator(".links li").all()
                if item.inner_text().startswith("germans:"))
    assert link
    return str(link)


def test_a_hard_computer_chosen_in_the_lobby_plays(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with running_server(db) as (_, client), sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            link = choose_in_the_lobby(page, str(client.base_url))
            seats, _ = stored(db)
            assert {(s["name"], s["player"], s["level"]) for s in seats} == {
                ("british", "computer", "hard"), ("germans", "human", "normal")}
            page.goto(link)
            page.wait_for_function(
                "() => document.querySelector('#players').textContent"
                ".includes('british: computer (hard)')", timeout=WAIT_MS)
            assert "germans: human" in page.inner_text("#players")
            for _ in range(MAX_PHASES):
                # the person's turn: the computer has played up to it
                page.wait_for_function("() => state && state.seat && state.seat.may_act",
                                       timeout=THINKING_MS)
                _, orders = stored(db)
                if any(o["side"] == "british" and o["kind"] != "end" for o in orders):
                    break
                version = page.evaluate("() => state.version")
                page.click("#done")
                page.wait_for_function("(v) => state.version !== v", arg=version,
                                       timeout=THINKING_MS)
            else:
                pytest.fail("the hard computer gave no order of its own")
        finally:
            browser.close()
