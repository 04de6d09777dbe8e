"""The order composer of the game page (static/orders.js) in headless Chromium: every kind
of order a seat has at the start of every bundled scenario has a control named for it,
and orders the page could not give before (a Run into a building, a path of several legs,
a move ending in a chosen stance, fire spread over several targets) are given by clicking
alone and carried out exactly so. Orders given through the API only bring a seat to its
turn (setup), never in place of the clicking."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from math import cos, hypot, pi, sin
from pathlib import Path
from typing import Any

import httpx
import pytest

import fibua
from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import find_ruleset
from fibua.scenario.loader import bundled_scenarios, load_scenario, scenario_from_text
from fibua.scenario.schema import Scenario
from server_helpers import auth, running_server, wait_until, with_orders

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

SEED = 3
#: the most phases ended through the API to bring a seat to its turn
MOST_ENDS = 12
#: how far a clicked place may be from the one aimed at (a screen pixel, in table units)
NEAR = 0.3


def seat_names(scenario: Scenario) -> list[str]:
    rules = find_ruleset(scenario.ruleset)
    return [seat.name for side in scenario.side_names for seat in rules.seats(scenario, side)]


def create(client: httpx.Client, scenario: Scenario) -> dict[str, Any]:
    """A game of the scenario with every seat a person's."""
    seats = {name: "human" for name in seat_names(scenario)}
    answer = client.post("/api/games", json={"scenario": scenario.name, "seed": SEED,
                                             "seats": seats})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def message(client: httpx.Client, made: dict[str, Any], seat: str) -> dict[str, Any]:
    token = made["seat_tokens"][seat]
    answer = client.get(f"/api/games/{made['id']}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return with_orders(client, made["id"], token, answer.json())


def reach_turn(client: httpx.Client, made: dict[str, Any], seat: str) -> dict[str, Any]:
    """Setup: the seats that may act say done until `seat` may act; its message."""
    for _ in range(MOST_ENDS):
        found = message(client, made, seat)
        if found["seat"]["may_act"]:
            return found
        # a game is built after Create answers: until then no seat may act
        acting = wait_until(lambda: next(
            (s for s in made["seat_tokens"] if message(client, made, s)["seat"]["may_act"]),
            None))
        if acting == seat:
            continue
        done = client.post(f"/api/games/{made['id']}/done",
                           headers=auth(made["seat_tokens"][acting]))
        assert done.status_code == 200, done.text
    raise AssertionError(f"{seat} never came to act")


def game_orders(db: Path, game_id: str) -> list[Order]:
    with sqlite3.connect(db) as connection:
        bodies = connection.execute("SELECT body FROM orders WHERE game = ? ORDER BY n",
                                    (game_id,)).fetchall()
    return [Order.from_dict(json.loads(body)) for (body,) in bodies]


def replayed(scenario: Scenario, orders: list[Order]) -> Game:
    """The game rebuilt from its stored orders (each carried out again by the rules)."""
    game = Game(scenario, SEED)
    for order in orders:
        game.apply(order)
    return game


@contextmanager
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, Any, Path]]:
    db = tmp_path / "games.sqlite3"
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield client, browser, db
        finally:
            browser.close()


def open_seat(browser: Any, client: httpx.Client, made: dict[str, Any], seat: str) -> Any:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    base = str(client.base_url).rstrip("/")
    page.goto(f"{base}/play/{made['id']}#token={made['seat_tokens'][seat]}")
    page.wait_for_selector("#units div[data-unit]", timeout=WAIT_MS)
    return page


def pick(page: Any, unit: str) -> None:
    """Select a unit from the list and wait for its order buttons (forms loaded)."""
    page.click(f"#units div[data-unit='{unit}']")
    page.wait_for_function(
        "(unit) => { const row = document.querySelector('#units div.selected');"
        " return row && row.dataset.unit === unit"
        " && document.querySelector('#orders button.kind') !== null; }",
        arg=unit, timeout=WAIT_MS)


def named(page: Any, kind: str) -> Any:
    """The composer's buttons whose accessible name starts with the kind as the terminal
    types it (not the quick picks of the sampled orders)."""
    return page.locator("#orders .kinds").get_by_role(
        "button", name=re.compile(rf"^{re.escape(kind)}( |$)"))


def covering(legal: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Few units whose kinds of order, together, are every kind the seat has."""
    kinds: dict[str, set[str]] = {}
    for order in legal:
        if order["unit"] is not None:
            kinds.setdefault(order["unit"], set()).add(order["kind"])
    wanted = set().union(*kinds.values()) if kinds else set()
    chosen: dict[str, set[str]] = {}
    while wanted:
        unit = max(kinds, key=lambda u: len(kinds[u] & wanted))
        chosen[unit] = kinds[unit]
        wanted -= kinds[unit]
    return chosen


def test_every_kind_a_seat_has_at_the_start_has_a_control(tmp_path: Path) -> None:
    checked: list[tuple[str, str, str]] = []
    with served(tmp_path) as (client, browser, _):
        for name in sorted(bundled_scenarios()):
            scenario = load_scenario(name)
            made = create(client, scenario)
            for seat in seat_names(scenario):
                legal = reach_turn(client, made, seat)["legal"]
                page = open_seat(browser, client, made, seat)
                for unit, kinds in covering(legal).items():
                    pick(page, unit)
                    for kind in sorted(kinds):
                        assert named(page, kind).count(), f"{name} {seat} {unit}: {kind}"
                        checked.append((name, seat, kind))
                page.close()
    assert {name for name, _, _ in checked} == set(bundled_scenarios())


# ---------------------------------------------------------------- orders given by clicking


def table_click(page: Any, x: float, y: float) -> None:
    """A click on the map at a place of the table."""
    where = page.evaluate(
        "([x, y]) => { const svg = document.querySelector('#mapbox svg');"
        " const p = svg.createSVGPoint(); p.x = x; p.y = mapHeight - y;"
        " const s = p.matrixTransform(svg.getScreenCTM()); return [s.x, s.y]; }", [x, y])
    page.mouse.click(where[0], where[1])


def give(page: Any, db: Path, game_id: str) -> int:
    """Preview what the composer holds and commit it; wait until the order is stored, and
    return its place among the game's orders."""
    given = len(game_orders(db, game_id))
    page.click("#compose-preview")
    page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
    assert page.locator("#commit").count(), page.inner_text("#preview")
    page.click("#commit")
    wait_until(lambda: len(game_orders(db, game_id)) > given)
    return given


def clickable(page: Any, x: float, y: float) -> bool:
    """Whether a click at a place of the table lands on the map itself (not on a troop or
    its label, which pick the troop, nor on one of the rules' sampled places)."""
    found: bool = page.evaluate(
        "([x, y]) => { const svg = document.querySelector('#mapbox svg');"
        " const p = svg.createSVGPoint(); p.x = x; p.y = mapHeight - y;"
        " const s = p.matrixTransform(svg.getScreenCTM());"
        " const hit = document.elementFromPoint(s.x, s.y);"
        " return hit !== null && svg.contains(hit)"
        " && hit.closest('.figure, .destination') === null; }", [x, y])
    return found


def paths_to_click(game: Game, side: str, kind: str, units: set[str]
                   ) -> dict[str, list[list[list[float]]]]:
    """Paths of two legs each of `units` may take: short legs at right angles, from the
    headings of its sampled moves."""
    found: dict[str, list[list[list[float]]]] = {}
    for order in game.legal_orders(side):
        if order.kind != kind or "to" not in order.params or order.unit not in units:
            continue
        unit = next(u for u in game.view(side)["own"] if u["id"] == order.unit)
        x, y = unit["x"], unit["y"]
        reach = hypot(order.params["to"][0] - x, order.params["to"][1] - y)
        for k in range(8):
            a, b = 2 * pi * k / 8, 2 * pi * (k + 2) / 8
            first = [round(x + 0.35 * reach * cos(a), 1), round(y + 0.35 * reach * sin(a), 1)]
            second = [round(first[0] + 0.35 * reach * cos(b), 1),
                      round(first[1] + 0.35 * reach * sin(b), 1)]
            path = Order(side, kind, order.unit, {"path": [first, second]})
            if game.ruleset.allows(game.state, path):
                found.setdefault(str(order.unit), []).append([first, second])
    assert found, f"no two-leg {kind} of {side}"
    return found


def first_clickable(page: Any, paths: list[list[list[float]]]) -> list[list[float]]:
    path = next((p for p in paths if all(clickable(page, *point) for point in p)), None)
    assert path is not None, "no path of the unit's is clear to click"
    return path


def near(given: list[float], aimed: list[float]) -> bool:
    return hypot(given[0] - aimed[0], given[1] - aimed[1]) < NEAR


def given_order(db: Path, game_id: str, scenario: Scenario, n: int) -> Order:
    """The n-th order stored, once the game is rebuilt from its stored orders (each carried
    out again by the rules)."""
    orders = game_orders(db, game_id)
    replayed(scenario, orders)
    return orders[n]


def run_into_a_building(client: httpx.Client, browser: Any, db: Path) -> None:
    """Buildings: the Germans' Gruppe Stein runs into the Maison Ferrand, the section
    clicked on the map."""
    scenario = load_scenario("village-street")
    made = create(client, scenario)
    reach_turn(client, made, "germans")
    page = open_seat(browser, client, made, "germans")
    pick(page, "gruppe-stein")
    named(page, "run enter").click()
    section = scenario.battlefield.section("maison-ferrand")
    xs = [p[0] for p in section.footprint]
    ys = [p[1] for p in section.footprint]
    spots = [(min(xs) + (max(xs) - min(xs)) * fx, min(ys) + (max(ys) - min(ys)) * fy)
             for fx, fy in ((0.5, 0.3), (0.5, 0.7), (0.3, 0.5), (0.7, 0.5))]
    table_click(page, *next(spot for spot in spots if clickable(page, *spot)))
    assert page.input_value("#param-enter") == "maison-ferrand"
    n = give(page, db, made["id"])
    order = given_order(db, made["id"], scenario, n)
    assert order == Order("germans", "run", "gruppe-stein", {"enter": "maison-ferrand"})


def acting_seat(client: httpx.Client, made: dict[str, Any]) -> tuple[str, str, set[str]]:
    """A seat that may act now, its side and the units it has orders for."""
    for seat in made["seat_tokens"]:
        found = message(client, made, seat)
        if found["seat"]["may_act"]:
            units = {o["unit"] for o in found["legal"] if o["unit"] is not None}
            return seat, found["seat"]["side"], units
    raise AssertionError("no seat may act")


def move_along_a_path(client: httpx.Client, browser: Any, db: Path) -> None:
    """Street Fighter: a move along two legs, each point clicked, then Finish path."""
    scenario = load_scenario("normandy-village")
    made = create(client, scenario)
    seat, side, units = acting_seat(client, made)
    game = replayed(scenario, game_orders(db, made["id"]))
    unit, paths = next(iter(paths_to_click(game, side, "move", units).items()))
    page = open_seat(browser, client, made, seat)
    pick(page, unit)
    named(page, "move path").click()
    path = first_clickable(page, paths)
    for x, y in path:
        table_click(page, x, y)
    page.click("#composer button.finish")
    n = give(page, db, made["id"])
    order = given_order(db, made["id"], scenario, n)
    assert (order.side, order.kind, order.unit, list(order.params)) == (
        side, "move", unit, ["path"])
    assert len(order.params["path"]) == 2
    assert all(near(g, a) for g, a in zip(order.params["path"], path, strict=True))


def move_and_crouch(client: httpx.Client, browser: Any, db: Path) -> None:
    """House Clearing: a move to a clicked place, ending crouched (a stance chosen)."""
    scenario = load_scenario("ramp-houses")
    made = create(client, scenario)
    seat, side, units = acting_seat(client, made)
    game = replayed(scenario, game_orders(db, made["id"]))
    unit, paths = next(iter(paths_to_click(game, side, "move", units).items()))
    page = open_seat(browser, client, made, seat)
    pick(page, unit)
    named(page, "move to").click()
    to = next((p[0] for p in paths if clickable(page, *p[0]) and game.ruleset.allows(
        game.state, Order(side, "move", unit, {"to": p[0], "stance": "crouching"}))), None)
    assert to is not None, "no place to move to clear to click"
    table_click(page, *to)
    page.select_option("#param-stance", "crouching")
    n = give(page, db, made["id"])
    order = given_order(db, made["id"], scenario, n)
    assert (order.side, order.kind, order.unit, sorted(order.params)) == (
        side, "move", unit, ["stance", "to"])
    assert order.params["stance"] == "crouching" and near(order.params["to"], to)


#: Street-Fight: the corner shop with two Germans out in the street, in the sights of the
#: British Bren gunner (its automatic fire may be spread over both)
SPREAD = [
    ('name = "corner-shop"', 'name = "corner-shop-spread"'),
    ("deployment = [[20.5, 21.5], [40, 21.5], [40, 40], [20.5, 40]]",
     "deployment = [[0, 5], [40, 5], [40, 40], [0, 40]]"),
    ("at = [22.5, 30.5]", "at = [15.5, 8]"),
    ("at = [33, 26.5], floor = 1", "at = [17.5, 8]"),
    ('weapon = "lmg", at = [5.5, 1.5]', 'weapon = "lmg", at = [16.5, 1.5]'),
]


def spread_fire(client: httpx.Client, browser: Any, db: Path) -> None:
    """Street-Fight: the Bren gunner's fire spread over two Germans, each clicked."""
    text = (Path(fibua.__file__).parent / "scenarios/street-fight/corner-shop.toml").read_text()
    for old, new in SPREAD:
        assert old in text
        text = text.replace(old, new)
    uploaded = client.post("/api/scenarios", content=text.encode())
    assert uploaded.status_code == 201, uploaded.text
    scenario = scenario_from_text(text)
    made = create(client, scenario)
    found = reach_turn(client, made, "british")
    while found["status"]["phase"] != "shoot":  # setup: both sides end the move phase
        for seat in ("british", "germans"):
            reach_turn(client, made, seat)
            client.post(f"/api/games/{made['id']}/done", headers=auth(made["seat_tokens"][seat]))
        found = reach_turn(client, made, "british")
    page = open_seat(browser, client, made, "british")
    pick(page, "ashworth")
    named(page, "shoot targets").click()
    for enemy in ("pohl", "braun"):
        page.locator(f"#mapbox .figure.enemy[data-id='{enemy}']").click()
    assert page.is_checked("#param-targets-pohl") and page.is_checked("#param-targets-braun")
    n = give(page, db, made["id"])
    order = given_order(db, made["id"], scenario, n)
    assert order == Order("british", "shoot", "ashworth", {"targets": ["pohl", "braun"]})


def test_orders_out_of_reach_before_are_given_by_clicking(tmp_path: Path) -> None:
    with served(tmp_path) as (client, browser, db):
        run_into_a_building(client, browser, db)
        move_along_a_path(client, browser, db)
        move_and_crouch(client, browser, db)
        spread_fire(client, browser, db)
