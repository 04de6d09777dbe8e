"""A whole game of Buildings in headless Chromium, played as a person plays it, by clicking
alone, to the game's end: from the lobby, a game is made on the village street (the British
a person's, the Germans the computer's, the seed typed), the British link opened, and every
British decision taken on the page until the turn limit ends the game; then the end box is
read and the after-action report followed to its last turn.

Why a variant: the bundled village street lasts six turns (and perhaps a seventh), each
British order die a decision of its own: well over the two minutes a test may take here.
The variant, uploaded in the lobby, is the same scenario with its turn limit lowered to two
(the roll for one more turn is kept, so the game lasts two turns or three).

What the person does, reading the page: when a unit of theirs is shot at (the status says
"reaction" and the counter shows the shot), they find it by its counter and go Down, every
other time taking the fire with End phase (the line under the button says that is what it
does); when a die of theirs is drawn, they try their units in the list that have no order
yet, each with "fire target" at an enemy counter in sight, preview and commit a shot with a
chance, and else give the die up with End phase.

Checked on the way: the status says "reaction" only to the side shot at; an enemy the side
has seen put out of the fight is said to be so in the list of enemies and is no longer
offered by a form's list of targets; a unit of the side's own put out of the fight has no
place in the list of units. At the end: the result on the page (winner or draw, the reason,
the scores), every unit in the after-action report (those wiped out too), and the report's
replay stepped to its last turn with the same result.
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
from test_server_browser_orders import pick

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

SEED = 3
ME, THEM = "british", "germans"
NAME = "village-street-two-turns"
EDITS = [('name = "village-street"', f'name = "{NAME}"'),
         ('title = "Tiger in the Village Street"',
          'title = "Tiger in the Village Street (two turns)"'),
         ("turns = 6\n", "turns = 2\n")]
#: the most decisions a whole game may take (a bound: the game ends well before)
MOST = 200
#: the units tried for a shot before the die is given up
TRIED = 3


def variant() -> str:
    text = (Path(fibua.__file__).parent / "scenarios/buildings/village-street.toml").read_text()
    return edited(text, EDITS)


def may_act(page: Any) -> None:
    """Until the page shows the game over or this seat's turn (the computer has played)."""
    page.wait_for_function("() => state && (state.status.over || state.seat.may_act)"
                           " && (state.status.over || state.ordersLoaded"
                           " || !document.querySelector('#units div.selected'))",
                           timeout=WAIT_MS)


def changed(page: Any, before: int) -> None:
    page.wait_for_function("(v) => state.version > v", arg=before, timeout=WAIT_MS)


def version(page: Any) -> int:
    found: int = page.evaluate("() => state.version")
    return found


def end_phase(page: Any) -> None:
    before = version(page)
    page.click("#done")
    changed(page, before)


def commit(page: Any) -> None:
    before = version(page)
    page.click("#commit")
    changed(page, before)


def previewed(page: Any) -> float | None:
    """Preview what the composer holds: the main roll's chance if the rules allow it."""
    page.click("#compose-preview")
    page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
    if not page.locator("#commit").count():
        page.click("#cancel")
        return None
    chance = page.locator("#preview .forecast-chance")
    return float(chance.get_attribute("data-chance") or 0) if chance.count() else 0.0


class Person:
    """The British player at the page: what they did, and what they saw on the way."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.answers = {"down": 0, "taken": 0}
        self.shots = 0
        self.holds = 0
        self.out_seen: set[str] = set()
        self.turns: set[int] = set()

    def decide(self) -> None:
        page = self.page
        status = page.inner_text("#status")
        # the turn of how many: two, or three once the dice gave one more
        turn = re.match(r"Turn (\d+)/(\d+) · ", status)
        assert turn is not None and int(turn[1]) <= int(turn[2]) <= 3, status
        self.turns.add(int(turn[1]))
        if " · reaction · " in status:
            self.answer()
        elif not self.shoot():
            assert "give the drawn die to no order" in page.inner_text("#done-help")
            self.holds += 1
            end_phase(page)

    def answer(self) -> None:
        """A unit shot at: Down (its counter found by the shot's mark), or take the fire."""
        page = self.page
        assert "answering a shot, take it without going Down" in page.inner_text("#done-help")
        if sum(self.answers.values()) % 2:
            self.answers["taken"] += 1
            return end_phase(page)
        shot_at = page.locator("#mapbox .figure.own:has(.badge-shot-at)")
        assert shot_at.count() == 1, "the unit shot at shows it on its counter"
        unit = shot_at.get_attribute("data-id")
        spot = counter_spot(page, unit, "own")
        if spot is None:
            pick(page, unit)
        else:
            page.mouse.click(*spot)
            may_act(page)
        page.locator("#orders .kinds").get_by_role("button", name="down", exact=True).click()
        assert previewed(page) is not None
        self.answers["down"] += 1
        commit(page)

    def shoot(self) -> bool:
        """Fire with the first unit without an order that has a shot with a chance."""
        page = self.page
        rows = page.locator("#units div[data-unit]")
        idle = [r.get_attribute("data-unit") for r in rows.all()
                if r.inner_text().endswith("no order")]
        for unit in idle[:TRIED]:
            pick(page, unit)
            self.check_lists()
            button = page.locator("#orders button.kind[data-kind='fire'][data-form='target']")
            if not button.count():
                continue
            for enemy in page.locator("#mapbox .figure.enemy.in-sight:not(.out)").all()[:2]:
                button.click()
                spot = counter_spot(page, enemy.get_attribute("data-id"), "enemy")
                if spot is None:
                    continue
                page.mouse.click(*spot)
                chance = previewed(page)
                if chance:
                    self.shots += 1
                    commit(page)
                    return True
                if chance is not None:  # allowed, with no chance: not worth the die
                    page.click("#cancel")
        return False

    def check_lists(self) -> None:
        """Enemies out of the fight: so said in the list, and no form offers them; own
        units out of the fight: no place in the list."""
        page = self.page
        out = [row.get_attribute("data-enemy") for row in page.locator("#enemies div.out").all()]
        assert all("out of the fight" in row.inner_text()
                   for row in page.locator("#enemies div.out").all())
        fire = page.locator("#orders button.kind[data-kind='fire'][data-form='target']")
        if out and fire.count():
            fire.click()
            offered = page.locator("#param-target option").evaluate_all(
                "(options) => options.map((o) => o.value)")
            assert not set(out) & set(offered), offered
            self.out_seen.update(out)
            page.click("#compose-clear")
        for row in page.locator("#units div.out").all():
            assert re.search(r"@ - ", row.inner_text()), row.inner_text()

def test_a_whole_game_of_buildings_by_clicking(tmp_path: Path) -> None:
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
            for _ in range(MOST):
                may_act(page)
                if page.evaluate("() => state.status.over"):
                    break
                person.decide()
            ending = ending_shown(page)
            served = cpu_seconds(process.pid)
        finally:
            browser.close()
    print(f"whole game of Buildings: {time.perf_counter() - wall:.1f} s wall, CPU "
          f"{time.process_time() - cpu:.1f} s here and {served:.1f} s in the server; "
          f"{person.shots} shots, answers {person.answers}, {person.holds} dice given up, "
          f"seen out of the fight {sorted(person.out_seen)}, turns {sorted(person.turns)}")
    assert person.shots and sum(person.answers.values()), "a shot given, a shot answered"
    assert ending.status == "Game over"  # no phase, nobody to act
    assert re.fullmatch(r"(british|germans) win|A draw", ending.headline), ending.headline
    assert ending.reason.startswith("turn limit reached")
    assert re.fullmatch(r"\w+: \d+ · \w+: \d+", ending.scores), ending.scores
    # every unit of both sides in the report, and the report's replay ends as the page did
    text = variant()
    names = re.findall(r'^name = "(.+)"$', text.split("[[sides]]", 1)[1], re.M)
    units = [n for n in names if n not in (ME, THEM)]
    assert all(f": {n} - " in ending.after_action for n in units), ending.after_action
    assert ending.report_after_action == ending.after_action
    assert not ending.report_clashes, ending.report_clashes
    assert ending.report_headline.endswith(
        "a draw" if ending.headline == "A draw" else f"the {ending.headline}")
    assert ending.report_turns >= 3  # the set-up, then two turns or three
