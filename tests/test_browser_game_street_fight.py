"""Street-Fight played in the browser by clicking alone: the corner shop, seed 3, made in
the lobby with the Germans a person's and the British the computer's, the German seat's
link opened from the lobby, four whole turns played on the page. The corner shop is played
as first written, with six Germans (the bundled file, balanced, fields four: Hartmann and
Vogt, whose orders the script clicks, are left out), uploaded under a name of its own.

Every kind of order of the rule set is given by pointing and clicking, each of its forms:
- move to (Pohl climbs to the shop's upper floor, the floor chosen from the form's list),
  move path (Vogt crosses the courtyard in two legs, each clicked, then Finish path), and a
  plain move to (Vogt again);
- overwatch of a point clicked on the map, a large area (Kessler: the radius typed into
  the form's number field, the one value not given by a click), and of the place where an
  enemy stands (Pohl: the enemy's counter clicked, which gives its place);
- take-cover (Braun, at a window);
- shoot target (an enemy counter clicked) and shoot targets (Lindner's MG fire spread over
  two British, both counters clicked);
- aim (Hartmann, every shoot phase: the fourth aim is past the most and is previewed as
  wasted, the page saying so);
- end (End phase, each phase).
Every form is reached; move's optional floor in the path form is not (a path changes no
floor here that a `to` did not show).

After each order, the game is rebuilt from the server's database (its stored orders carried
out again by the rules, each to the state hash stored with it) and the last order stored
must be the one clicked, its events those of its kind, its preview's
sentence the rules' forecast for it, with every risk of the forecast (and what the order
becomes: a run) shown by the page.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from math import hypot
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.scenario.loader import scenario_from_dict
from first_written import first_written_text
from server_helpers import running_server, wait_until
from test_server_browser_orders import NEAR, clickable, game_orders, named, table_click

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

SCENARIO = "corner-shop-six"
SEED = 3
SIDE = "germans"
#: the turn the game must have reached when the test stops (it starts at 1)
LAST_TURN = 5


# ---------------------------------------------------------------- the stored game


@dataclass
class Stored:
    """The game as the server stored it: its scenario and seed, and its orders carried
    out again by the rules, one at a time as they are stored."""

    db: Path
    game_id: str
    game: Game
    applied: list[tuple[Order, list[Event]]] = field(default_factory=list)

    @staticmethod
    def of(db: Path, game_id: str) -> Stored:
        with sqlite3.connect(db) as connection:
            scenario, seed = connection.execute(
                "SELECT scenario, seed FROM games WHERE id = ?", (game_id,)).fetchone()
        return Stored(db, game_id, Game(scenario_from_dict(json.loads(scenario)), int(seed)))

    def orders(self) -> list[Order]:
        return game_orders(self.db, self.game_id)

    def catch_up(self) -> None:
        """Carry out the orders stored since the last call (the computer's among them),
        each to the state the server stored with it."""
        with sqlite3.connect(self.db) as connection:
            rows = connection.execute(
                "SELECT body, state_hash FROM orders WHERE game = ? AND n >= ? ORDER BY n",
                (self.game_id, len(self.applied))).fetchall()
        for body, state_hash in rows:
            order = Order.from_dict(json.loads(body))
            self.applied.append((order, self.game.apply(order)))
            assert self.game.state_hash() == state_hash, order


# ---------------------------------------------------------------- the page


def lobby_link(page: Any, base: str) -> str:
    """Create the game in the lobby (the Germans a person's, the British the computer's,
    the seed typed) and follow the German seat's link."""
    page.goto(base + "/")
    card = page.locator(f".card[data-scenario={SCENARIO}]")
    card.wait_for(timeout=WAIT_MS)
    card.locator("select[data-seat=germans]").select_option("human")
    card.locator("select[data-seat=british]").select_option("computer")
    card.locator("input.seed").fill(str(SEED))
    card.locator("button.create").click()
    page.wait_for_selector(".links li", timeout=WAIT_MS)
    link = next(item.locator("a").get_attribute("href") for item in page.locator(".links li").all()
                if item.inner_text().startswith(f"{SIDE}:"))
    assert link
    page.goto(link)
    page.wait_for_selector("#units div[data-unit]", timeout=WAIT_MS)
    return str(link).split("/play/")[1].split("#")[0]


def status(page: Any) -> tuple[int, str]:
    found = re.match(r"Turn (\d+)/\d+ · (\w+)", page.inner_text("#status"))
    assert found, page.inner_text("#status")
    return int(found[1]), found[2]


def await_turn(page: Any, turn: int, phase: str) -> None:
    """Wait until the seat may give orders in the turn and phase."""
    page.wait_for_function(
        "([turn, phase]) => state && state.seat && state.seat.may_act"
        " && state.status.turn === turn && state.status.phase === phase",
        arg=[turn, phase], timeout=WAIT_MS)
    assert status(page) == (turn, phase)
    assert "your orders" in page.inner_text("#seat")


def pick(page: Any, unit: str) -> None:
    """Select a figure from the list; wait until its orders are on the page."""
    page.click(f"#units div[data-unit='{unit}']")
    page.wait_for_function("(unit) => selected === unit && state.ordersLoaded"
                           " && document.querySelector('#orders .kinds') !== null",
                           arg=unit, timeout=WAIT_MS)


def choose(page: Any, name: str) -> None:
    """Click the button of a kind's form, under "other orders" where the figure has no
    sampled order of that kind (the rules still decide)."""
    if not named(page, name).count():
        page.click("#other-orders")
    button = named(page, name)
    assert button.count() == 1, name
    button.click()
    page.wait_for_selector("#composer", timeout=WAIT_MS)


def enemy(page: Any, enemy_id: str) -> None:
    page.locator(f"#mapbox .figure.enemy[data-id='{enemy_id}']").click()


def in_the_open(page: Any, enemy_id: str) -> bool:
    """Whether the middle of an enemy's counter is its own (no other counter on top)."""
    found: bool = page.evaluate(
        "(id) => { const g = document.querySelector(`#mapbox .figure.enemy[data-id='${id}']`);"
        " if (!g) return false; const r = g.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        " return hit !== null && g.contains(hit); }", enemy_id)
    return found


def spot(page: Any, stored: Stored, wanted: Callable[[list[float]], Order],
         places: list[list[float]]) -> list[float]:
    """The first of the places that the rules allow the order at and that a click on the
    map reaches (not under a counter or a label)."""
    found = next((p for p in places if clickable(page, *p)
                  and stored.game.ruleset.allows(stored.game.state, wanted(p))), None)
    assert found is not None, f"no place to click for {wanted([0, 0])}"
    return found


# ---------------------------------------------------------------- giving an order


def same(given: Order, aimed: Order) -> bool:
    """The order stored is the one clicked: places within a screen pixel of the aimed."""
    if (given.side, given.kind, given.unit, sorted(given.params)) != (
            aimed.side, aimed.kind, aimed.unit, sorted(aimed.params)):
        return False
    return all(_same_value(given.params[k], v) for k, v in aimed.params.items())


def _same_value(given: Any, aimed: Any) -> bool:
    if isinstance(aimed, list) and aimed and isinstance(aimed[0], int | float):
        return hypot(given[0] - aimed[0], given[1] - aimed[1]) < NEAR
    if isinstance(aimed, list) and aimed and isinstance(aimed[0], list):
        return len(given) == len(aimed) and all(map(_same_value, given, aimed))
    return bool(given == aimed)


@dataclass(frozen=True)
class Given:
    events: list[Event]
    risks: list[str]  # the risks the page showed with its preview


def give(page: Any, stored: Stored, aimed: Order, told: str) -> Given:
    """Preview what the composer holds, check the preview, commit it; the order stored must
    be the one aimed at, and its events must tell `told`."""
    stored.catch_up()
    page.click("#compose-preview")
    page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
    assert page.locator("#commit").count(), page.inner_text("#preview")
    sentence = page.inner_text("#preview .forecast-text")
    shown = [r.get_attribute("data-risk") for r in page.locator("#preview .risk").all()]
    becomes = page.locator("#preview .forecast-becomes")
    becomes_text = becomes.inner_text() if becomes.count() else ""
    version = page.evaluate("() => state.version")
    page.click("#commit")
    n = len(stored.applied)
    wait_until(lambda: len(stored.orders()) > n)
    given = stored.orders()[n]
    assert same(given, aimed), (given, aimed)
    forecast = stored.game.forecast(given)
    # the page showed the rules' own forecast of that order: words beyond "allowed", and
    # every risk it has
    assert sentence == forecast.text and not sentence.endswith("allowed"), sentence
    assert shown == [str(r) for r in forecast.risks]
    assert (forecast.becomes or "") in becomes_text and bool(becomes_text) == bool(
        forecast.becomes)
    stored.catch_up()
    events = stored.applied[n][1]
    assert told in {e.kind for e in events}, (given, [e.kind for e in events])
    page.wait_for_function("(v) => state.version !== v", arg=version, timeout=WAIT_MS)
    return Given(events, shown)


def end_phase(page: Any, stored: Stored) -> None:
    """End phase: the side's `end` is stored next."""
    stored.catch_up()
    n = len(stored.applied)
    page.click("#done")
    wait_until(lambda: len(stored.orders()) > n)
    assert stored.orders()[n] == Order(SIDE, "end")


# ---------------------------------------------------------------- the turns


def own(stored: Stored, unit: str) -> Any:
    return stored.game.state.figures[unit]


def seen(stored: Stored) -> list[str]:
    """The British figures the Germans see now."""
    return [e["id"] for e in stored.game.view(SIDE)["enemies"] if e["visible_now"]]


def turn_one_move(page: Any, stored: Stored) -> list[str]:
    kinds = []
    pick(page, "kessler")
    choose(page, "overwatch")
    street = [[float(x), y] for x in range(24, 38) for y in (16.5, 17.5, 18.5)]
    watched = spot(page, stored, lambda p: Order(SIDE, "overwatch", "kessler",
                                                 {"point": p, "radius": 3}), street)
    table_click(page, *watched)
    page.fill("#param-radius", "3")
    give(page, stored, Order(SIDE, "overwatch", "kessler", {"point": watched, "radius": 3}),
         "overwatch")
    assert own(stored, "kessler").overwatch.large
    kinds.append("overwatch")

    pick(page, "braun")
    choose(page, "take-cover")
    give(page, stored, Order(SIDE, "take-cover", "braun"), "took-cover")
    assert own(stored, "braun").full_cover
    kinds.append("take-cover")

    pick(page, "pohl")
    choose(page, "move to")
    upstairs = spot(page, stored, lambda p: Order(SIDE, "move", "pohl", {"to": p, "floor": 1}),
                    [[22.7, 25.8], [22.3, 26.2], [22.8, 26.5], [22.6, 25.2]])
    table_click(page, *upstairs)
    page.select_option("#param-floor", "1")
    give(page, stored, Order(SIDE, "move", "pohl", {"to": upstairs, "floor": 1}), "moved")
    assert own(stored, "pohl").pos.floor == 1
    kinds.append("move to")

    pick(page, "vogt")
    choose(page, "move path")
    legs = [[30.0, 34.0], [33.0, 33.0]]
    assert all(clickable(page, *p) for p in legs)
    for p in legs:
        table_click(page, *p)
    page.click("#composer button.finish")
    give(page, stored, Order(SIDE, "move", "vogt", {"path": legs}), "moved")
    kinds.append("move path")
    return kinds


def spread_fire(page: Any, stored: Stored) -> str:
    """Lindner's MG spread over two British in sight, each counter clicked."""
    targets = next([a, b] for a in seen(stored) for b in seen(stored) if a < b
                   and stored.game.ruleset.allows(stored.game.state, Order(
                       SIDE, "shoot", "lindner", {"targets": [a, b]})))
    pick(page, "lindner")
    choose(page, "shoot targets")
    for target in targets:
        enemy(page, target)
    assert all(page.is_checked(f"#param-targets-{t}") for t in targets)
    events = give(page, stored, Order(SIDE, "shoot", "lindner", {"targets": targets}),
                  "shot").events
    assert {e.data["target"] for e in events if e.kind == "shot"} <= set(targets)
    return "shoot targets"


def aim(page: Any, stored: Stored) -> str:
    """Hartmann aims; past the most turns of aiming (three) the page says it is wasted."""
    before = own(stored, "hartmann").aim
    pick(page, "hartmann")
    choose(page, "aim")
    risks = give(page, stored, Order(SIDE, "aim", "hartmann"), "aimed").risks
    assert risks == (["wasted"] if before == 3 else [])
    return "aim wasted" if risks else "aim"


def a_shot(page: Any, stored: Stored) -> str:
    """One figure's shot at one British figure in sight, its counter clicked."""
    shot = next(o for o in stored.game.legal_orders(SIDE) if o.kind == "shoot"
                and in_the_open(page, o.params["target"]))
    pick(page, str(shot.unit))
    choose(page, "shoot target")
    enemy(page, shot.params["target"])
    assert page.input_value("#param-target") == shot.params["target"]
    events = give(page, stored, shot, "shot").events
    assert {e.data["target"] for e in events if e.kind == "shot"} == {shot.params["target"]}
    return "shoot target"


def watch_an_enemy(page: Any, stored: Stored) -> str:
    """Pohl watches where a British figure stands: its counter clicked."""
    pick(page, "pohl")
    choose(page, "overwatch")
    target = next(e for e in stored.game.view(SIDE)["enemies"] if e["visible_now"]
                  and in_the_open(page, e["id"]) and stored.game.ruleset.allows(
                      stored.game.state, Order(SIDE, "overwatch", "pohl",
                                               {"point": [e["x"], e["y"]]})))
    enemy(page, target["id"])
    give(page, stored, Order(SIDE, "overwatch", "pohl",
                             {"point": [target["x"], target["y"]]}), "overwatch")
    return "overwatch"


def walk(page: Any, stored: Stored) -> str:
    pick(page, "vogt")
    choose(page, "move to")
    places = [[33.0 + dx, 33.0 + dy] for dx, dy in ((2, 1), (-2, 1), (2, -1), (1, 2))]
    to = spot(page, stored, lambda p: Order(SIDE, "move", "vogt", {"to": p}), places)
    table_click(page, *to)
    give(page, stored, Order(SIDE, "move", "vogt", {"to": to}), "moved")
    return "move to"


def test_street_fight_played_by_clicking(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    given: list[str] = []
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            six = first_written_text("corner-shop", SCENARIO)
            uploaded = client.post("/api/scenarios", content=six.encode())
            assert uploaded.status_code == 201, uploaded.text
            game_id = lobby_link(page, str(client.base_url).rstrip("/"))
            stored = Stored.of(db, game_id)
            plays: dict[tuple[int, str], list[Callable[[Any, Stored], Any]]] = {
                (1, "move"): [turn_one_move], (1, "shoot"): [spread_fire, aim],
                (2, "move"): [walk], (2, "shoot"): [a_shot, aim],
                (3, "move"): [watch_an_enemy], (3, "shoot"): [a_shot, aim],
                (4, "move"): [], (4, "shoot"): [aim]}
            for (turn, phase), moves in plays.items():
                await_turn(page, turn, phase)
                stored.catch_up()  # the computer's orders: the state the plays look at
                for play in moves:
                    done = play(page, stored)
                    given += done if isinstance(done, list) else [done]
                end_phase(page, stored)
                given.append("end")
            page.wait_for_function("(turn) => state && state.status.turn >= turn",
                                   arg=LAST_TURN, timeout=WAIT_MS)
            assert status(page)[0] - 1 >= 3
        finally:
            browser.close()
    stored.catch_up()
    assert stored.game.state.turn >= LAST_TURN
    assert set(given) == {"move to", "move path", "overwatch", "take-cover", "shoot target",
                          "shoot targets", "aim", "aim wasted", "end"}
