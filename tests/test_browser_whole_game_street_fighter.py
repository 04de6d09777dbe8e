"""A whole game of Street Fighter in headless Chromium, played as a person plays it, by
clicking alone, to the game's end: from the lobby, a game is made on the guns at Eerde (the
British scout platoon a person's, the German screen the computer's, the seed typed), the
British link opened, and every British turn given on the page until the turn limit ends
the game; then the end box is read and the after-action report followed to its last turn.

Why a variant: the bundled scenario lasts twelve turns of twelve carriers each, a hundred
and more orders: well over the two minutes a test may take here. The variant, uploaded in
the lobby, is the same scenario with its turn limit lowered to three.

What the person does each turn, reading the page: the carriers in the list in turn, up to
SIX of them; a carrier with an enemy counter in sight shoots at it ("shoot target", the
counter clicked) when the preview gives a chance; else the first three go north with
"move to" and the next three with "flat-out to", the place clicked on the map a little
ahead of the carrier, each order previewed and committed. Then End phase: the other
carriers do nothing this turn.

At the end: the status says the game is over and nothing more; the result on the page
(winner or draw, the reason, the scores), every carrier in the after-action report, and
the report's replay stepped to its last turn with the same result.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

import fibua
from browser_helpers import (
    CHROMIUM,
    FLAGS,
    WAIT_MS,
    cpu_seconds,
    edited,
    ending_shown,
    lobby_game_links,
    needs_chromium,
)
from server_helpers import running_server
from test_browser_game_buildings import counter_spot
from test_server_browser_orders import clickable, pick, table_click

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

SEED = 9  # a seed whose screen is met within the three turns
ME, THEM = "british", "germans"
NAME = "anti-tank-screen-three-turns"
TURNS = 3
EDITS = [('name = "anti-tank-screen"', f'name = "{NAME}"'),
         ('title = "The Guns at Eerde"', 'title = "The Guns at Eerde (three turns)"'),
         ("turns = 12\n", f"turns = {TURNS}\n")]
#: the carriers ordered each turn (the others do nothing)
SIX = 6
#: how far north a carrier is sent (its move is 8 cm, flat out 16)
AHEAD = {"move": 7.0, "flat-out": 14.0}


def variant() -> str:
    text = (Path(fibua.__file__).parent
            / "scenarios/street-fighter/anti-tank-screen.toml").read_text()
    return edited(text, EDITS)


def version(page: Any) -> int:
    found: int = page.evaluate("() => state.version")
    return found


def changed(page: Any, before: int) -> None:
    page.wait_for_function("(v) => state.version > v", arg=before, timeout=WAIT_MS)


def my_turn(page: Any, turn: int) -> None:
    """Until the page shows the game over or this side's orders of a turn after `turn`."""
    page.wait_for_function("(t) => state && (state.status.over"
                           " || (state.seat.may_act && state.status.turn > t))",
                           arg=turn, timeout=WAIT_MS)


def previewed(page: Any) -> float | None:
    """Preview what the composer holds: the main roll's chance (0 for an order with no
    roll) if the rules allow it, else None (the refusal put away)."""
    page.click("#compose-preview")
    page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
    if not page.locator("#commit").count():
        page.click("#cancel")
        return None
    chance = page.locator("#preview .forecast-chance")
    return float(chance.get_attribute("data-chance") or 0) if chance.count() else 0.0


def commit(page: Any) -> None:
    before = version(page)
    page.click("#commit")
    changed(page, before)


def form(page: Any, kind: str, name: str) -> bool:
    button = page.locator(f"#orders button.kind[data-kind='{kind}'][data-form='{name}']")
    if not button.count():
        return False
    button.click()
    page.wait_for_selector(f"#composer[data-kind='{kind}']", timeout=WAIT_MS)
    return True


class Person:
    """The British player at the page: what they did."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.given: dict[str, int] = {"shoot": 0, "move": 0, "flat-out": 0}
        self.ends = 0

    def turn(self) -> None:
        page = self.page
        carriers = [row.get_attribute("data-unit")
                    for row in page.locator("#units div[data-unit]").all()
                    if row.inner_text().endswith("ready")]
        for n, unit in enumerate(carriers[:SIX]):
            pick(page, unit)
            if not self.shoot():
                self.go(unit, "move" if n < SIX // 2 else "flat-out")
        if page.evaluate("() => state.seat.may_act && !state.status.over"):
            assert "has given its orders for the turn" in page.inner_text("#done-help")
            before = version(page)
            page.click("#done")
            self.ends += 1
            changed(page, before)

    def shoot(self) -> bool:
        page = self.page
        for enemy in page.locator("#mapbox .figure.enemy.in-sight:not(.out)").all()[:2]:
            spot = counter_spot(page, enemy.get_attribute("data-id"), "enemy")
            if spot is None or not form(page, "shoot", "target"):
                continue
            page.mouse.click(*spot)
            chance = previewed(page)
            if chance:
                commit(page)
                self.given["shoot"] += 1
                return True
            if chance is not None:
                page.click("#cancel")
        return False

    def go(self, unit: str, kind: str) -> None:
        """Send the carrier north: a place ahead of it clicked on the map (beside, where
        another counter covers it)."""
        page = self.page
        x, y = page.evaluate("(id) => { const u = state.view.own.find((o) => o.id === id);"
                             " return [u.x, u.y]; }", unit)
        if not form(page, kind, "to"):
            return
        ahead = AHEAD[kind]
        for dx in (0.0, 3.0, -3.0):
            spot = (round(x + dx, 1), round(y + ahead, 1))
            if not clickable(page, *spot):
                continue
            table_click(page, *spot)
            if previewed(page) is not None:
                commit(page)
                self.given[kind] += 1
                return


def test_a_whole_game_of_street_fighter_by_clicking(tmp_path: Path) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    db = tmp_path / "games.sqlite3"
    with running_server(db) as (process, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(str(client.base_url).rstrip("/") + "/")
            links = lobby_game_links(page, NAME, variant(), {ME: "human", THEM: "computer"},
                                     SEED)
            page.goto(links[ME])
            page.wait_for_selector("#units div[data-unit]", timeout=WAIT_MS)
            person = Person(page)
            turns = []
            for _ in range(TURNS + 1):
                my_turn(page, turns[-1] if turns else 0)
                if page.evaluate("() => state.status.over"):
                    break
                turns.append(page.evaluate("() => state.status.turn"))
                person.turn()
            ending = ending_shown(page)
            served = cpu_seconds(process.pid)
        finally:
            browser.close()
    print(f"whole game of Street Fighter: {time.perf_counter() - wall:.1f} s wall, CPU "
          f"{time.process_time() - cpu:.1f} s here and {served:.1f} s in the server; "
          f"orders {person.given}, {person.ends} End phase")
    assert turns == list(range(1, TURNS + 1))
    assert all(person.given.values()) and person.ends == TURNS
    assert ending.status == "Game over"  # no phase, nobody to act
    assert re.fullmatch(r"(british|germans) win|A draw", ending.headline), ending.headline
    assert ending.reason.startswith("turn limit reached")
    assert re.fullmatch(r"\w+: \d+ · \w+: \d+", ending.scores), ending.scores
    carriers = [f"Scout Platoon {who} carrier {n}" for who in
                ("HQ", "section 1", "section 2", "section 3") for n in (1, 2, 3)]
    assert all(c in ending.after_action for c in carriers), ending.after_action
    assert ending.report_after_action == ending.after_action
    assert not ending.report_clashes, ending.report_clashes
    assert ending.report_headline.endswith(
        "a draw" if ending.headline == "A draw" else f"the {ending.headline}")
    assert ending.report_turns >= TURNS
