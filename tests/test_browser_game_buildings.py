"""Buildings played whole in headless Chromium by clicking alone: a variant of the tobacco
factory is uploaded in the lobby, a game made on it from its card (the Germans a person's,
the Americans the computer's, seed typed), and the Germans' seat link opened. Three whole
turns are played from the page: units picked from the list, the kind and form chosen by
their buttons, places, enemies and sections clicked on the map, floors, openings, flags
and choices set in the composer's fields, each order previewed and committed, the drawn
die given up and shots taken with End phase. Every order is checked against the game
rebuilt from the server's database: the one clicked, exactly, was carried out.

The rules say each turn a die per unit goes into the bag and the side whose die is drawn
orders one of its units; a unit shot at with no order yet may go Down at once or take
the fire. The person here answers the first shot by going Down and the next by taking it.

Why a variant: no bundled Buildings scenario has an air observer (the `call target` and
`call section` forms of Fire) nor a transport (`run mount`). The variant keeps the
factory's map and the German garrison, adds an air observer on the office roof, an
artillery observer in the yard, a truck and a squad beside it, and puts a small American
force (a squad, scouts, a bazooka and a Sherman) where the garrison sees it from the
start, on two sides of the west hall so that its upper floor may divide its fire.

Every form of every kind in buildings/orderforms.py is given (FORMS: none is left out),
each preview shows the rules' forecast, more than "allowed", and every risk a forecast
names is shown on the page; one harmless shot (small arms at the Sherman) is previewed,
its risk seen, and cancelled. Optional parameters left as they are: `indirect` and a
fire's `floor`, an assault's `take=false`, and an opening, section or shot given with a
move (the forms are reached without them).

The person's choices are worked out from the game rebuilt from the database (what the
page shows stands in for it): each time the side may act, the first form in WANTED not
yet given that some unit can give now, at places that can be clicked.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from math import cos, hypot, pi, sin
from pathlib import Path
from typing import Any

import httpx
import pytest

import fibua
from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.core.game import Game
from fibua.core.orderforms import Form, ParamType, fitting_form
from fibua.core.orders import Order
from fibua.core.ruleset import Risk
from fibua.rulesets.buildings.orderforms import ORDER_KINDS
from fibua.scenario.loader import scenario_from_text
from fibua.scenario.schema import Scenario
from server_helpers import auth, running_server, wait_until
from test_server_browser_orders import clickable, game_orders, near, pick, table_click

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

SEED = 3
ME, THEM = "germans", "americans"
NAME = "tobacco-factory-every-order"
#: the whole turns to play (the counter goes from 1 to at least 1 + TURNS)
TURNS = 3

#: every form of every kind, as (kind, form name)
FORMS = {(kind, form.name) for kind, forms in ORDER_KINDS.items() for form in forms.forms}

# -- the variant ----------------------------------------------------------------------------

AMERICANS = '''[[sides]]
name = "americans"
title = "An American patrol, with a Sherman"
player = "computer"
deployment = [[0, 0], [48, 0], [48, 26], [10, 26], [10, 48], [0, 48]]

[[sides.forces.units]]
id = "first-squad"
name = "1st Squad (Sgt Kowalski)"
type = "rifle-squad"
models = [
    { at = [13, 23] }, { at = [14.5, 23] }, { at = [16, 23] }, { at = [17.5, 23] },
    { at = [19, 23] }, { at = [13, 24.5] }, { at = [14.5, 24.5] }, { at = [16, 24.5] },
    { at = [17.5, 24.5] }, { at = [19, 24.5] },
]

[[sides.forces.units]]
id = "scouts"
name = "Scouts (Cpl Dunn)"
type = "hq"
models = [{ at = [5, 34] }, { at = [5, 35.5] }]

[[sides.forces.units]]
id = "bazooka"
name = "Bazooka team"
type = "bazooka-team"
models = [{ at = [27, 24] }, { at = [28.5, 24] }]

[[sides.forces.units]]
id = "sherman"
name = "M4 Sherman 'Bad Penny'"
type = "medium-tank"
facing = 90
models = [{ at = [36, 18] }]

'''

#: the garrison of the office block as the file was first written (the balancing left the
#: MG 42 team and the Zugtrupp out of the bundled file): this game was planned with them
GERMANS_MORE = '''
[[sides.forces.units]]
id = "mg-trupp"
name = "MG 42 on tripod (Gefr Lutz)"
type = "mmg-team"
inside = { section = "office-block", floor = 2 }
models = [{ at = [34, 33] }, { at = [35.5, 33] }, { at = [35, 34.5] }]

[[sides.forces.units]]
id = "zugtrupp"
name = "Zugtrupp (Lt Haferkamp)"
type = "hq"
inside = { section = "office-block", floor = 0 }
models = [{ at = [34.5, 34] }, { at = [35.5, 35] }]

[[sides.forces.units]]
id = "flieger"
name = "Luftwaffe liaison (Lt Ahrens)"
type = "air-observer"
inside = { section = "office-block", floor = 3 }
models = [{ at = [34, 34] }, { at = [35.5, 34] }]

[[sides.forces.units]]
id = "beobachter"
name = "Artillery observer (Wm Roth)"
type = "artillery-observer"
models = [{ at = [40, 29] }, { at = [41, 30.5] }]

[[sides.forces.units]]
id = "lkw"
name = "Opel Blitz"
type = "truck"
facing = 270
models = [{ at = [38, 44] }]

[[sides.forces.units]]
id = "gruppe-vogel"
name = "Gruppe Vogel"
type = "rifle-squad"
models = [
    { at = [30, 46.5] }, { at = [31.5, 46.5] }, { at = [33, 46.5] }, { at = [34.5, 46.5] },
    { at = [36, 46.5] }, { at = [30, 47.7] }, { at = [31.5, 47.7] }, { at = [33, 47.7] },
    { at = [34.5, 47.7] }, { at = [36, 47.7] },
]

# -- victory'''


def variant() -> str:
    """The tobacco factory under another name: the American side replaced by the patrol,
    the German garrison with its observers, truck and squad, observers on."""
    text = (Path(fibua.__file__).parent / "scenarios/buildings/tobacco-factory.toml").read_text()
    head, rest = text.split('[[sides]]\nname = "americans"', 1)
    _, germans = rest.split('[[sides]]\nname = "germans"', 1)
    assert germans.count("\n# -- victory") == 1 and germans.count("[options]\n") == 1
    germans = germans.replace("\n# -- victory", GERMANS_MORE)
    germans = germans.replace("[options]\n", "[options]\nobservers = true\nbarrages = 1\n")
    head = head.replace('name = "tobacco-factory"', f'name = "{NAME}"', 1)
    head = head.replace('title = "The Tobacco Factory"',
                        'title = "The Tobacco Factory (every order)"', 1)
    return head + AMERICANS + '[[sides]]\nname = "germans"' + germans


# -- the person's plan: which form next, and the orders that give it ------------------------

#: the forms in the order the person tries them: first what takes time to come about
WANTED = [("run", "mount"), ("fire", "call target"), ("fire", "call at"), ("fire", "targets"),
          ("advance", "opening"), ("run", "opening"), ("run", "section"), ("advance", "floor"),
          ("run", "assault"), ("fire", "call section"), ("fire", "section"),
          ("advance", "section"), ("run", "enter"), ("run", "floor"),
          ("advance", "to"), ("run", "to"), ("fire", "target"),
          ("ambush", ""), ("rally", ""), ("down", "")]
#: the forms of the rules' answers and the die given up: not planned, given as they come
ANSWERED = {("end", "")}
assert set(WANTED) | ANSWERED == FORMS


def form_of(order: Order) -> tuple[str, str]:
    form = fitting_form(ORDER_KINDS[order.kind], order.params)
    assert form is not None, order
    return order.kind, form.name


def around(x: float, y: float, reach: float) -> Iterator[list[float]]:
    """Places round a point, nearest first."""
    for step in (0.0, 0.4, 0.7, 1.0):
        for k in range(8 if step else 1):
            a = 2 * pi * k / 8 + pi / 8
            yield [round(x + step * reach * cos(a), 1), round(y + step * reach * sin(a), 1)]


@dataclass
class Plan:
    """The person's choices, worked out from the game rebuilt from the server's database
    (standing in for what the person reads on the page)."""

    game: Game

    @cached_property
    def listed(self) -> list[Order]:
        return [o for o in self.game.legal_orders(ME) if o.kind != "end"]

    def legal(self, want: tuple[str, str]) -> list[Order]:
        return [o for o in self.listed if form_of(o) == want]

    def allowed(self, order: Order) -> bool:
        return self.game.ruleset.allows(self.game.state, order)

    def risks(self, order: Order) -> int:
        return len(self.game.forecast(order).risks)

    def candidates(self, want: tuple[str, str]) -> Iterator[Order]:
        kind = want[0]
        if want in (("advance", "opening"), ("run", "opening")):
            yield from self.openings(kind)
        elif want == ("fire", "targets"):
            yield from self.divided()
        elif want == ("run", "assault"):
            yield from self.assaults()
        elif want in (("advance", "to"), ("run", "to"), ("fire", "call at")):
            yield from self.places(want)
        elif want == ("fire", "target"):
            shots = [o for o in self.legal(want) if not {Risk.HOPELESS, Risk.HARMLESS}
                     & set(self.game.forecast(o).risks)]
            yield from sorted(shots, key=lambda o: -(self.game.forecast(o).chance or 0))
        elif want == ("fire", "call section"):
            yield from sorted(self.legal(want), key=self.friends_in)
        elif kind in ("ambush", "down"):
            extra = {"at": "nearest"} if kind == "ambush" else {"keep": True}
            units = [o.unit for o in self.legal(want) if not o.params]
            orders = [Order(ME, kind, u, extra) for u in units]
            yield from sorted((o for o in orders if self.allowed(o)), key=self.risks)
        else:
            yield from sorted(self.legal(want), key=self.risks)

    def friends_in(self, order: Order) -> int:
        """The side's own units in the section an order names (a strike called there
        would fall on them)."""
        section = order.params.get("section")
        return sum(u.section == section for u in self.game.state.units.values()
                   if u.side == ME and u.alive)

    def mine(self) -> list[Any]:
        return [u for u in self.game.state.units.values()
                if u.side == ME and u.alive and u.order is None]

    def seen(self) -> list[str]:
        return [e["id"] for e in self.game.view(ME)["enemies"] if e.get("visible_now")]

    def openings(self, kind: str) -> Iterator[Order]:
        for unit in self.mine():
            if unit.section is not None:
                for k in range(8):
                    order = Order(ME, kind, unit.id, {"opening": k})
                    if self.allowed(order):
                        yield order

    def divided(self) -> Iterator[Order]:
        for unit in self.mine():
            if unit.section is not None:
                for pair in itertools.permutations(self.seen(), 2):
                    order = Order(ME, "fire", unit.id, {"targets": list(pair)})
                    if self.allowed(order):
                        yield order

    def assaults(self) -> Iterator[Order]:
        """Assaults with good odds, each with where the winner regroups: a few inches
        from the enemy, back toward where the assault came from."""
        good = [o for o in self.legal(("run", "assault"))
                if (self.game.forecast(o).chance or 0) > 0.6]
        for order in good:
            enemy = self.game.state.units[order.params["assault"]].lead
            unit = self.game.state.units[str(order.unit)].lead
            gap = hypot(unit.x - enemy.x, unit.y - enemy.y) or 1.0
            for reach in (3.0, 4.5):
                to = [round(enemy.x + reach * (unit.x - enemy.x) / gap, 1),
                      round(enemy.y + reach * (unit.y - enemy.y) / gap, 1)]
                yield Order(ME, "run", order.unit, {**order.params, "regroup": to})

    def places(self, want: tuple[str, str]) -> Iterator[Order]:
        """Orders at places near the rules' sampled ones (not on them: the page draws a
        dot there), moves first with a shot after them where the rules allow one."""
        for sampled in self.legal(want):
            name = "at" if want[0] == "fire" else "to"
            x, y = sampled.params[name]
            for point in itertools.islice(around(x, y, 2.0), 1, None):
                params = {**sampled.params, name: point}
                shots = [{**params, "target": e} for e in self.seen()] \
                    if want == ("advance", "to") else []
                for tried in [*shots, params]:
                    order = Order(ME, sampled.kind, sampled.unit, tried)
                    if self.allowed(order) and (tried is params or not self.risks(order)):
                        yield order
                        break


# -- the page ---------------------------------------------------------------------------------


def lobby_game(browser: Any, base: str, tmp_path: Path) -> str:
    """Upload the variant in the lobby, make a game of it from its card (the Germans a
    person's, seed typed), and return the Germans' link."""
    lobby = browser.new_page(viewport={"width": 1400, "height": 900})
    lobby.goto(base + "/")
    lobby.locator(".card").first.wait_for(timeout=WAIT_MS)
    upload = tmp_path / f"{NAME}.toml"
    upload.write_text(variant(), encoding="utf-8")
    lobby.set_input_files("#upload-file", str(upload))
    lobby.click("#upload-send")
    card = lobby.locator(f".card[data-scenario={NAME}]")
    card.wait_for(timeout=WAIT_MS)
    card.locator(f"select[data-seat={ME}]").select_option("human")
    card.locator(f"select[data-seat={THEM}]").select_option("computer")
    card.locator("input.seed").fill(str(SEED))
    card.locator("button.create").click()
    lobby.wait_for_selector(".links li", timeout=WAIT_MS)
    links = {item.inner_text().split(":")[0]: item.locator("a").get_attribute("href")
             for item in lobby.locator(".links li").all()}
    lobby.close()
    link: str = links[ME]
    return link


def counter_spot(page: Any, unit: str, kind: str) -> tuple[float, float] | None:
    """Where on the screen a click picks a unit's counter (its frame's middle), if no
    other counter or label lies over it there."""
    found: list[float] | None = page.evaluate(
        "([id, kind]) => { const g = document.querySelector("
        "`#mapbox .figure.${kind}[data-id='${id}']`); if (!g) return null;"
        " const r = g.querySelector('.frame').getBoundingClientRect();"
        " const x = r.left + r.width / 2, y = r.top + r.height / 2;"
        " const top = document.elementFromPoint(x, y);"
        " return top && top.closest('.figure') === g ? [x, y] : null; }", [unit, kind])
    return (found[0], found[1]) if found else None


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Table:
    """The Germans' page, the server's database and the game rebuilt from it."""

    page: Any
    client: httpx.Client
    db: Path
    game_id: str
    token: str
    scenario: Scenario
    game: Game = field(init=False)
    covered: set[tuple[str, str]] = field(default_factory=set)
    answers: list[str] = field(default_factory=list)
    risks_shown: set[str] = field(default_factory=set)
    previews: int = 0
    harmless_shown: bool = False
    holds: int = 0  # dice given up with End phase (not an answer)
    picks: int = 0
    map_picks: int = 0  # units picked by their counter on the map

    def __post_init__(self) -> None:
        self.game = Game(self.scenario, SEED)

    # -- the stored game

    def sync(self) -> list[Order]:
        """The stored orders carried out again, those not yet rebuilt; all of them."""
        stored = game_orders(self.db, self.game_id)
        for order in stored[len(self.game.orders):]:
            self.game.apply(order)
        return stored

    def my_choice(self) -> bool:
        self.sync()
        game = self.game
        return game.over or (game.to_act() == ME and game.forced(ME) is None
                             and game.has_choice(ME))

    def wait_for_me(self) -> None:
        """Until the server waits for this seat (the computer has played), and the page
        shows the message it would be sent now."""
        wait_until(self.my_choice)
        answer = self.client.get(f"/api/games/{self.game_id}", headers=auth(self.token))
        version = answer.json()["version"]
        self.page.wait_for_function(
            "(v) => state && state.version >= v && (state.status.over || state.seat.may_act)",
            arg=version, timeout=WAIT_MS)

    # -- giving orders by clicking

    def form_button(self, kind: str, form: str) -> Any:
        name = f"{kind} {form}" if form else kind
        return self.page.locator("#orders .kinds").get_by_role("button", name=name, exact=True)

    def feasible(self, order: Order) -> bool:
        """Whether every place of the order can be clicked on the map (not on a counter)."""
        form = fitting_form(ORDER_KINDS[order.kind], order.params)
        assert form is not None
        for param in form.params:
            value = order.params.get(param.name)
            if param.type is ParamType.POINT and value is not None \
                    and not clickable(self.page, *value):
                return False
            if param.type is ParamType.SECTION and value is not None \
                    and self.section_spot(value) is None:
                return False
        return True

    def section_spot(self, section: str) -> tuple[float, float] | None:
        footprint = self.scenario.battlefield.section(section).footprint
        xs, ys = [p[0] for p in footprint], [p[1] for p in footprint]
        for fx, fy in itertools.product((0.5, 0.3, 0.7, 0.15, 0.85), repeat=2):
            spot = (min(xs) + (max(xs) - min(xs)) * fx, min(ys) + (max(ys) - min(ys)) * fy)
            if clickable(self.page, *spot):
                return spot
        return None

    def choose_unit(self, unit: str) -> None:
        """A unit picked as a person would: every other time its counter clicked on the
        map, where nothing covers it; else its line in the list."""
        self.picks += 1
        spot = counter_spot(self.page, unit, "own") if self.picks % 2 else None
        if spot is None:
            return pick(self.page, unit)
        self.page.mouse.click(*spot)
        self.page.wait_for_function(
            "(unit) => { const row = document.querySelector('#units div.selected');"
            " return row && row.dataset.unit === unit"
            " && document.querySelector('#orders button.kind') !== null; }",
            arg=unit, timeout=WAIT_MS)
        self.map_picks += 1
        return None

    def click_enemy(self, enemy: str, param: str) -> None:
        """An enemy's counter clicked on the map; where another counter covers it, the
        enemy chosen from the composer's list."""
        hit = counter_spot(self.page, enemy, "enemy")
        if hit is not None:
            self.page.mouse.click(*hit)
        elif self.page.locator(f"#param-{param}-{enemy}").count():
            self.page.check(f"#param-{param}-{enemy}")
        else:
            self.page.select_option(f"#param-{param}", enemy)

    def fill(self, form: Form, params: dict[str, Any]) -> None:
        page = self.page
        for param in form.params:
            if param.name not in params or (param.type is ParamType.FLAG and param.required):
                continue
            value = params[param.name]
            field_id = f"#param-{param.name}"
            if param.type is ParamType.POINT:
                page.click(f"#composer button.pick[data-param={param.name}]")
                table_click(page, *value)
            elif param.type is ParamType.ENEMY:
                self.click_enemy(value, param.name)
            elif param.type is ParamType.ENEMIES:
                for enemy in value:
                    self.click_enemy(enemy, param.name)
            elif param.type is ParamType.SECTION:
                spot = self.section_spot(value)
                assert spot is not None
                table_click(page, *spot)
            elif param.type is ParamType.NUMBER:
                page.fill(field_id, str(value))
                page.press(field_id, "Tab")
            elif param.type is ParamType.FLAG:
                page.set_checked(field_id, value)
            else:  # a floor, a choice, one of the side's own units: from the field's list
                page.select_option(field_id, str(value))

    def compose(self, order: Order) -> dict[str, Any]:
        """Pick the unit, choose the form, give each parameter, and preview: what the
        page sends."""
        self.choose_unit(str(order.unit))
        kind, name = form_of(order)
        self.form_button(kind, name).click()
        form = fitting_form(ORDER_KINDS[kind], order.params)
        assert form is not None
        self.fill(form, order.params)
        self.page.click("#compose-preview")
        self.page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
        assert self.page.locator("#commit").count(), self.page.inner_text("#preview")
        sent: dict[str, Any] = self.page.evaluate("() => pending")
        assert sent["kind"] == order.kind and sent["unit"] == order.unit
        assert same_params(sent["params"], order.params), (sent, order)
        self.check_preview(Order(ME, sent["kind"], sent["unit"], sent["params"]))
        return sent

    def check_preview(self, order: Order) -> None:
        """The preview says what the rules forecast, beyond "allowed", and shows each
        risk the forecast names."""
        forecast = self.game.forecast(order)
        shown = words(self.page.inner_text("#preview"))
        assert len(forecast.text.split()) > 3 and forecast.text.strip() != "allowed"
        assert words(forecast.text) in shown, (forecast.text, shown)
        risks = [str(r) for r in forecast.risks]
        marked = self.page.locator("#preview .risk")
        assert [marked.nth(i).get_attribute("data-risk") for i in range(marked.count())] \
            == risks, (risks, shown)
        for i in range(marked.count()):
            assert len(marked.nth(i).inner_text().split()) > 3  # in words
        self.risks_shown |= set(risks)
        self.previews += 1

    def give(self, order: Order, planned: bool = True) -> None:
        """The order given by clicking; checked against the stored game. An answer to a
        shot counts toward no form: the plan gives Down's own (kept) later."""
        sent = self.compose(order)
        before, turn = len(self.game.orders), self.game.state.turn
        self.page.click("#commit")
        stored = wait_until(lambda: (s := game_orders(self.db, self.game_id))[before:] and s)
        assert stored[before] == Order(ME, sent["kind"], sent["unit"], sent["params"])
        self.sync()
        if planned:
            self.covered.add(form_of(order))
        print(f"turn {turn}: {stored[before]}")  # shown when the test fails

    def end_phase(self) -> None:
        """The drawn die given up, or a shot taken: End phase."""
        before = len(self.game.orders)
        self.page.click("#done")
        stored = wait_until(lambda: (s := game_orders(self.db, self.game_id))[before:] and s)
        assert stored[before] == Order(ME, "end")
        self.sync()
        self.covered.add(("end", ""))

    def show_harmless(self) -> None:
        """Once: a shot that cannot harm (small arms at the Sherman: a hit only pins it)
        is previewed, its risk seen, and cancelled."""
        shots = [o for o in self.game.legal_orders(ME) if o.kind == "fire"
                 and o.params.get("target") == "sherman" and form_of(o) == ("fire", "target")]
        harmless = next((o for o in shots if Risk.HARMLESS in self.game.forecast(o).risks), None)
        if harmless is None:
            return
        self.compose(harmless)
        assert self.page.locator("#preview .risk-harmless").is_visible()
        self.page.click("#cancel")
        assert self.page.is_hidden("#preview")
        self.harmless_shown = True

    # -- a decision

    def answer(self) -> None:
        """A shot at one of the side's units waits for its answer: Down, then taking it,
        in turn."""
        target = self.game.view(ME)["shot_at"]
        # the page marks the unit shot at on its counter
        badge = self.page.locator(f"#mapbox .figure.own[data-id='{target}'] .badge-shot-at")
        assert badge.count() == 1, target
        if len(self.answers) % 2 == 0:
            self.answers.append("down")
            self.give(Order(ME, "down", target, {}), planned=False)
        else:
            self.answers.append("end")
            self.end_phase()

    def play_one(self) -> None:
        if self.game.view(ME)["shot_at"] is not None:
            return self.answer()
        if not self.harmless_shown:
            self.show_harmless()
        plan = Plan(self.game)
        for want in WANTED:
            if want in self.covered:
                continue
            for order in itertools.islice(plan.candidates(want), 30):
                if self.feasible(order):
                    return self.give(order)
        self.holds += 1
        return self.end_phase()


def same_params(sent: dict[str, Any], meant: dict[str, Any]) -> bool:
    """The parameters the page sent are those meant (a place within a screen pixel)."""
    if sorted(sent) != sorted(meant):
        return False
    for name, value in meant.items():
        if isinstance(value, list) and len(value) == 2 and all(
                isinstance(v, float | int) and not isinstance(v, bool) for v in value):
            if not near(sent[name], value):
                return False
        elif sent[name] != value:
            return False
    return True


def test_buildings_played_by_clicking_with_every_order(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    scenario = scenario_from_text(variant())
    started = time.monotonic()
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            link = lobby_game(browser, str(client.base_url).rstrip("/"), tmp_path)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(link)
            page.wait_for_selector("#units div[data-unit]", timeout=WAIT_MS)
            game_id = link.split("/play/")[1].split("#")[0]
            token = link.split("#token=")[1]
            table = Table(page, client, db, game_id, token, scenario)
            page.wait_for_function("() => state && state.status", timeout=WAIT_MS)
            assert page.inner_text("#status").startswith("Turn 1/")
            while True:
                table.wait_for_me()
                if table.game.over or table.game.state.turn > TURNS:
                    break
                table.play_one()
            turn_shown = page.inner_text("#status")
        finally:
            browser.close()
    print(f"played in {time.monotonic() - started:.0f}s: {len(table.game.orders)} orders, "
          f"{table.previews} previews, risks shown {sorted(table.risks_shown)}")
    assert table.game.state.turn >= 1 + TURNS and f"Turn {table.game.state.turn}/" in turn_shown
    assert table.covered == FORMS, sorted(FORMS - table.covered)
    assert table.answers[:2] == ["down", "end"] and table.holds
    assert table.harmless_shown and table.map_picks
    assert table.risks_shown >= {str(Risk.FRIENDLY_FIRE), str(Risk.HARMLESS)}
