"""Pointing at friends on the map (static/friends.js), in a real headless Chromium: while a
form of the composer waits for one of the side's own units, a click on that unit's counter
gives it, and only a unit the rules would take; a click on any other says why in words
and gives nothing; with no such form open, a click on an own counter picks that unit.

- Buildings, `run mount`: Gruppe Vogel boards the Opel Blitz by a click on the truck's
  counter (the variant of the tobacco factory with a truck, tests/test_browser_game_
  buildings.py); a click on the artillery observer first is refused in the rules' words.
- Street Fighter, an assault's `with`: Section Belov assaults the north store with Section
  Gromov, who is clicked; Section Ivanov, clicked too, is too far from the store (the rules'
  reason shown), a tank is another commander's, and a friend clicked before the store is
  chosen is told to wait for it. Each order is carried out as clicked, checked against the
  game rebuilt from the server's database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

import fibua
from browser_helpers import WAIT_MS, needs_chromium
from fibua.core.orders import Order
from fibua.scenario.loader import scenario_from_text
from fibua.scenario.schema import Scenario
from test_browser_game_buildings import variant
from test_server_browser_orders import (
    clickable,
    give,
    given_order,
    named,
    pick,
    served,
    table_click,
)

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

SEED = 3  # as test_server_browser_orders replays the stored games

#: the factory district with two Soviet sections beside the empty north store (within a
#: move of it), a third too far, and the Soviet set-up zone widened to hold them
ASSAULT = [
    ('name = "factory-district"', 'name = "factory-assault"'),
    ("deployment = [[106, 0], [120, 0], [120, 100], [106, 100]]",
     "deployment = [[101, 0], [120, 0], [120, 100], [101, 100]]"),
    ("at = [108, 38]", "at = [103, 86]"),
    ("at = [108, 58]", "at = [103, 81]"),
]


def uploaded(client: httpx.Client, text: str) -> Scenario:
    answer = client.post("/api/scenarios", content=text.encode())
    assert answer.status_code == 201, answer.text
    return scenario_from_text(text)


def open_game(client: httpx.Client, browser: Any, scenario: Scenario, seat: str
              ) -> tuple[Any, str]:
    """A game with `seat` a person's and every other a computer's, opened at that seat and
    waited on until it may give orders."""
    made = client.post("/api/games", json={"scenario": scenario.name, "seed": SEED,
                                            "seats": {seat: "human"}})
    assert made.status_code == 201, made.text
    game: dict[str, Any] = made.json()
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    base = str(client.base_url).rstrip("/")
    page.goto(f"{base}/play/{game['id']}#token={game['seat_tokens'][seat]}")
    page.wait_for_function("() => state && state.seat && state.seat.may_act", timeout=WAIT_MS)
    return page, game["id"]


def click_counter(page: Any, unit: str) -> None:
    """A click on the middle of an own unit's counter, as a person points at it."""
    box = page.locator(f"#overlay g.figure.own[data-id='{unit}'] .frame").bounding_box()
    assert box is not None, unit
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def said(page: Any, words: str) -> str:
    """Waits until the composer says `words` (the page's message too); the words said."""
    page.wait_for_function(
        "(w) => (document.getElementById('compose-why') || {}).textContent?.includes(w)",
        arg=words, timeout=WAIT_MS)
    text: str = page.inner_text("#compose-why")
    assert text in page.inner_text("#messages")
    return text


def composed(page: Any) -> dict[str, Any]:
    values: dict[str, Any] = page.evaluate("() => compose.values")
    return values


def test_a_unit_mounts_the_truck_clicked_on_the_map(tmp_path: Path) -> None:
    with served(tmp_path) as (client, browser, db):
        scenario = uploaded(client, variant())
        page, game_id = open_game(client, browser, scenario, "germans")
        # no form waits: a click on an own counter picks that unit, as ever
        pick(page, "gruppe-vogel")
        click_counter(page, "beobachter")
        page.wait_for_selector("#units div.selected[data-unit='beobachter']", timeout=WAIT_MS)
        pick(page, "gruppe-vogel")
        named(page, "run mount").click()
        assert "click the counter of your unit for mount" in page.inner_text("#mode")
        # the rules name the truck among the squad's orders: its counter is ringed
        page.wait_for_selector("#overlay g.figure.own.pick-candidate[data-id='lkw']",
                               state="attached", timeout=WAIT_MS)
        assert page.locator("#overlay g.figure.pick-candidate").count() == 1
        # the observer is no transport: the rules say so, nothing is given, nobody else picked
        click_counter(page, "beobachter")
        text = said(page, "beobachter cannot be taken for mount")
        assert "'beobachter' is no vehicle of germans" in text
        assert composed(page) == {}
        assert page.input_value("#param-mount") == ""
        assert page.locator("#units div.selected").get_attribute("data-unit") == "gruppe-vogel"
        click_counter(page, "lkw")
        page.wait_for_function("() => compose.values.mount === 'lkw'", timeout=WAIT_MS)
        assert page.input_value("#param-mount") == "lkw"
        assert page.inner_text("#messages") == ""
        n = give(page, db, game_id)
        assert given_order(db, game_id, scenario, n) == Order(
            "germans", "run", "gruppe-vogel", {"mount": "lkw"})


def test_a_friend_clicked_on_the_map_joins_an_assault(tmp_path: Path) -> None:
    text = (Path(fibua.__file__).parent / "scenarios/street-fighter/factory-district.toml"
            ).read_text()
    for old, new in ASSAULT:
        assert old in text
        text = text.replace(old, new)
    with served(tmp_path) as (client, browser, db):
        scenario = uploaded(client, text)
        page, game_id = open_game(client, browser, scenario, "Lieutenant Zaitsev")
        pick(page, "rifle-3-s1")
        named(page, "assault").click()
        # whether a friend may join depends on the area assaulted: it is asked for first
        click_counter(page, "rifle-3-s2")
        said(page, "give section first")
        assert composed(page) == {}
        store = scenario.battlefield.section("sklad-north").footprint
        xs, ys = [p[0] for p in store], [p[1] for p in store]
        spot = next(s for s in ((sum(xs) / 4, sum(ys) / 4), (min(xs) + 3, min(ys) + 3))
                    if clickable(page, *s))
        table_click(page, *spot)
        page.wait_for_function("() => compose.values.section === 'sklad-north'",
                               timeout=WAIT_MS)
        assert "click the counter of your unit for with" in page.inner_text("#mode")
        # too far from the store: the rules' reason, and nothing given
        click_counter(page, "rifle-3-s3")
        refused = said(page, "rifle-3-s3 cannot be taken for with")
        assert "Section Ivanov is 15.6 cm from 'sklad-north'" in refused
        assert not page.is_checked("#param-with-rifle-3-s3")
        # a tank is another commander's (and no infantry): not this seat's to name
        click_counter(page, "tank-2-t1")
        assert "no unit 'tank-2-t1' under your command" in said(page, "tank-2-t1 cannot be")
        assert composed(page) == {"section": "sklad-north"}
        click_counter(page, "rifle-3-s2")
        page.wait_for_function("() => (compose.values.with || []).includes('rifle-3-s2')",
                               timeout=WAIT_MS)
        assert page.is_checked("#param-with-rifle-3-s2")
        # clicked again it leaves, and a third time it is back
        click_counter(page, "rifle-3-s2")
        page.wait_for_function("() => compose.values.with === undefined", timeout=WAIT_MS)
        click_counter(page, "rifle-3-s2")
        page.wait_for_function("() => (compose.values.with || []).length === 1", timeout=WAIT_MS)
        n = give(page, db, game_id)
        assert given_order(db, game_id, scenario, n) == Order(
            "soviets", "assault", "rifle-3-s1", {"section": "sklad-north",
                                                 "with": ["rifle-3-s2"]})
