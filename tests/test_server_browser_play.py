"""What a person met on the game page playing whole games (House Clearing's ramp houses,
Street-Fight's corner shop, headless Chromium), each put right and held here:

- a window to fire at an enemy's move was not announced: the status read "move · step 2 ·
  british to act" and the button "Done (my orders are given)". Now the status names the
  mover and the seat's figures that may fire, and the button lets the mover go;
- with the enemy chosen (its counter clicked), the composer still asked "click the map
  for target";
- the preview's chance line said "Chance of the main roll: 3%" beside the sentence's
  "chance 8%": the forecast's chance is that of the order's success (a hit that counts
  here), not of its first roll;
- a counter of another seat of the side, clicked on the map, was "selected" with "has no
  orders now." and no reason;
- the rules' sampled places (blue dots) lay under the counters: one where an enemy was
  last seen took the enemy's place instead;
- once a move's place was given, a click elsewhere on the map did not move it ("pick the
  values in the panel");
- the unit list gave no floor (a figure upstairs read as on the ground), and a seat named
  as its side read "You: british (british)";
- the mark of a place given was a ring of a pixel or two, hard to find on the map.

Orders given through the API only bring a seat to the moment looked at (setup).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.core.ruleset import find_ruleset
from fibua.scenario.loader import load_scenario
from server_helpers import auth, running_server, wait_until
from test_server_browser_orders import message, named, open_seat, pick, table_click

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

SEED = 3
#: the most seats' dones given to bring a British seat to a window (seed 3: five)
MOST_DONES = 60
#: the least width on the screen of the mark of a place given
MARK_PX = 8


def made_game(client: httpx.Client, scenario: str, seats: dict[str, str]) -> dict[str, Any]:
    answer = client.post("/api/games", json={"scenario": scenario, "seed": SEED,
                                             "seats": seats})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def a_window(client: httpx.Client, made: dict[str, Any], seats: list[str]
             ) -> tuple[str, dict[str, Any]]:
    """Setup: the British seats say done until one of them is offered a German mover to
    fire at; that seat and its message."""
    for _ in range(MOST_DONES):
        acting = wait_until(lambda: next(((s, m) for s in seats if (
            m := message(client, made, s))["seat"]["may_act"]), None))
        seat, found = acting
        if found["view"].get("reaction"):
            return seat, found
        done = client.post(f"/api/games/{made['id']}/done",
                           headers=auth(made["seat_tokens"][seat]))
        assert done.status_code == 200, done.text
    raise AssertionError("no window came")


def names(found: dict[str, Any], key: str) -> dict[str, str]:
    return {str(u["id"]): str(u["name"]) for u in found["view"][key]}


def counter_spot(page: Any, unit: str) -> tuple[float, float]:
    """A point of a counter's frame where a click lands on that counter."""
    spot = page.evaluate(
        """(id) => {
          const g = document.querySelector(`#mapbox .figure[data-id="${id}"]`);
          const box = g.querySelector('.frame').getBoundingClientRect();
          for (const [fx, fy] of [[.5, .5], [.3, .3], [.7, .7], [.3, .7], [.7, .3]]) {
            const x = box.left + box.width * fx, y = box.top + box.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest('.figure') === g) return [x, y];
          }
          return null;
        }""", unit)
    assert spot is not None, f"{unit}'s counter is covered"
    return spot[0], spot[1]


def window_shown(browser: Any, client: httpx.Client) -> None:
    scenario = load_scenario("ramp-houses")
    british = [s.name for s in find_ruleset(scenario.ruleset).seats(scenario, "british")]
    made = made_game(client, "ramp-houses", dict.fromkeys(british, "human"))
    seat, found = a_window(client, made, british)
    reaction, mine = found["view"]["reaction"], set(found["seat"]["units"])
    enemies, own = names(found, "enemies"), names(found, "own")
    firers = [f for f in reaction["firers"] if f in mine]
    page = open_seat(browser, client, made, seat)
    mover = enemies[reaction["mover"]]
    status = page.inner_text("#status")
    assert f"{mover} is moving: fire at it ({', '.join(own[f] for f in firers)})" in status
    assert page.inner_text("#done") == f"Let {mover} go (done)"
    # the mover's counter clicked: the form has its target, and asks for nothing more it
    # needs (at most an optional friend, a House Clearing loader, by its counter)
    pick(page, firers[0])
    named(page, "fire").click()
    page.mouse.click(*counter_spot(page, reaction["mover"]))
    page.wait_for_function("(id) => document.querySelector('#param-target').value === id",
                           arg=reaction["mover"], timeout=WAIT_MS)
    mode = page.inner_text("#mode")
    assert mode == "" or mode.endswith("(optional)"), mode
    page.click("#compose-preview")
    page.wait_for_selector("#preview .forecast-chance", timeout=WAIT_MS)
    assert re.fullmatch(r"Chance of success: \d+%", page.inner_text("#preview .forecast-chance"))
    # a counter of another seat of the side: not this seat's to order, and it says so
    other = next(str(u["id"]) for u in found["view"]["own"] if str(u["id"]) not in mine)
    page.click("#cancel")
    page.click("#compose-clear")
    page.mouse.click(*counter_spot(page, other))
    page.wait_for_function("(id) => selected === id", arg=other, timeout=WAIT_MS)
    assert "is not one of your seat's units" in page.inner_text("#orders")
    page.close()


def places_and_floors(browser: Any, client: httpx.Client) -> None:
    made = made_game(client, "corner-shop", {"british": "human", "germans": "human"})
    acting = wait_until(lambda: next((s for s in ("british", "germans")
                                      if message(client, made, s)["seat"]["may_act"]), None))
    germans = open_seat(browser, client, made, "germans")
    # Lindner's machine gun is upstairs in the shop, and the list says so
    assert re.search(r"lindner: .* in epicerie-shop, floor 1", germans.inner_text("#units"))
    assert germans.inner_text("#seat").startswith("You: germans")
    assert "(germans)" not in germans.inner_text("#seat")
    germans.close()
    page = open_seat(browser, client, made, acting)
    unit = str(next(o["unit"] for o in message(client, made, acting)["legal"]
                    if o["kind"] == "move"))
    pick(page, unit)
    named(page, "move to").click()
    page.wait_for_selector("#mapbox circle.destination", timeout=WAIT_MS)
    # the dots come after every counter in the drawing: on top of them
    assert page.evaluate("""() => {
      const all = [...document.querySelectorAll('#overlay > *')];
      const last = Math.max(...all.map((n, i) => n.matches('g.figure') ? i : -1));
      return all.every((n, i) => !n.matches('circle.destination') || i > last);
    }""")
    x, y = page.evaluate("(id) => { const u = state.view.own.find((o) => o.id === id);"
                         " return [u.x, u.y]; }", unit)
    table_click(page, x + 1.5, y + 2.5)
    first = page.inner_text("#param-to")
    table_click(page, x - 1.5, y + 2.5)  # a second click moves the place
    second = page.inner_text("#param-to")
    assert first != second and float(second.split(",")[0]) < float(first.split(",")[0])
    # the place given is marked large enough to find (it was a ring of a pixel or two)
    mark = page.locator("#compose-marks .compose-point").bounding_box()
    assert mark is not None and min(mark["width"], mark["height"]) >= MARK_PX, mark
    page.close()


def test_what_a_player_met_is_put_right(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            window_shown(browser, client)
            places_and_floors(browser, client)
        finally:
            browser.close()
