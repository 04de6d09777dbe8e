"""The game page of each rule set, mid-game, as docs/ shows it: a game of one bundled
scenario a rule set, the computer playing the other side, some orders in, the seat's page
opened at the size of a laptop's screen. Each page must show its counters, labels and
objectives before the picture is taken; the pictures go to docs/ only when asked
(FIBUA_SHOTS=docs), so a test run changes no file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.core.ruleset import find_ruleset
from fibua.scenario.loader import load_scenario
from server_helpers import auth, running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

SHOTS = os.environ.get("FIBUA_SHOTS")
#: one scenario of each rule set, the side whose page is shown, and the game's seed
GAMES = (("corner-shop", "british", 5), ("normandy-village", "british", 3),
         ("oosterbeek-crossroads", "british", 4), ("village-street", "germans", 3))
#: orders the seat gives (ending its phases) before the picture, so the map has a past
ENDS = 4


def test_a_game_page_of_each_rule_set(tmp_path: Path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    with running_server(tmp_path / "games.db") as (_, client), \
            sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        for scenario, side, seed in GAMES:
            loaded = load_scenario(scenario)
            seats = [seat.name for seat in find_ruleset(loaded.ruleset).seats(loaded, side)]
            answer = client.post("/api/games", json={"scenario": scenario, "seed": seed,
                                                      "seats": dict.fromkeys(seats, "human")})
            assert answer.status_code == 201, answer.text
            made = answer.json()
            token = made["seat_tokens"][seats[0]]
            for _ in range(ENDS):
                for seat in seats:
                    client.post(f"/api/games/{made['id']}/done",
                                headers=auth(made["seat_tokens"][seat]))
            page.goto(f"{client.base_url}/play/{made['id']}#token={token}")
            page.wait_for_function(
                "() => document.querySelectorAll('#overlay g.figure.own').length > 0"
                " && document.querySelectorAll('#objectives *').length > 0",
                timeout=WAIT_MS)
            page.wait_for_timeout(300)  # the label placer's last pass
            assert page.locator("#overlay g.figure.own .frame").count() > 0
            page.screenshot(path=str(shots / f"game-{scenario}.png"))
            assert (shots / f"game-{scenario}.png").stat().st_size > 10_000
        browser.close()
