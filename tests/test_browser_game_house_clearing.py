"""House-Clearing played in the browser by clicking alone, for three whole turns.

The game is made in the lobby page (The Houses by the Ramp, a typed seed, both German seats
people's and the three British seats the computer's) and each German seat's link is opened
from it, as a person would, one tab a seat. From then on every German order is given on
the page: a figure picked from the list, the form's button (its accessible name starts
with the kind as the terminal types it), places clicked on the map, enemies clicked on the
map, the remaining values chosen in the form, Preview, Commit; and "Done" when a seat has
given its orders. The rules give several seats a side: a seat says it is done and the
server gives the side's `end` once every seat with orders has, so the page gives `end` by
its Done button, in an initiative step and in a window to answer an enemy's move (letting
the mover go).

Every kind of rulesets/house_clearing/orderforms.py is given, and every form:
- move to (with floor and stance chosen: the loader climbing to the gunner's side), move
  path (two legs clicked, then Finish path);
- stance;
- fire at a figure seen: a single shot, automatic fire (auto ticked), a belt-fed gun with
  its loader named (loader chosen), fire at a mover in a window the enemy's move opens,
  and an automatic burst whose cone holds a friend (its preview shows the risk);
- end, by Done: closing an initiative step, and letting a mover go.
No form is left out. The one risk House-Clearing's forecasts can show besides friendly
fire, a hopeless shot, needs a firer of skill 30 firing automatic at the longest range;
this game offers none, so the page is shown no hopeless preview here.

After each order the game is rebuilt from the server's database (every stored state hash
checked) and the order stored is exactly the one the page previewed and the clicks made
(points to the hundredth: each place is clicked on the pixel whose point the page reads
as the one aimed at). Each preview says more than "allowed", and shows every risk its
forecast has and no other. The other side is the server's computer; nothing but the
clicks gives an order.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from math import cos, hypot, pi, sin
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import Risk, find_ruleset
from fibua.rulesets.house_clearing.state import HouseClearingState, Phase
from fibua.scenario.loader import scenario_from_dict
from fibua.server.messages import game_status
from fibua.session.seats import PersonSeat, SeatPlan, SeatRound
from first_written import first_written, first_written_text
from server_helpers import PATIENCE, running_server
from test_server_browser_orders import named, pick

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

#: The Houses by the Ramp as first written, three British groups (the bundled file,
#: balanced, fields two), uploaded under a name of its own: the seed was found on it
SCENARIO = "ramp-houses-first"
#: a seed whose game offers, within three turns, every form and a burst with a friend in
#: its cone (the dice and the British computer follow from it)
SEED = 45
#: the side the person plays (the British computer attacks it, so it is offered windows)
PEOPLE = "germans"
TURNS = 3
#: the belt-fed gunner of the corner house and the figure that becomes its loader
GUNNER, LOADER = "vogt", "haas"
#: how far from the gunner the loader goes (the rules: within 1in, and never within 0.5in)
BESIDE = 0.75
#: what the game must have seen given by clicking, by the end
EVERY = frozenset({"move to", "move path", "stance", "fire", "fire auto", "fire loader",
                   "fire at a mover", "friendly fire shown", "end", "let the mover go"})


# ---------------------------------------------------------------- the stored game


@dataclass
class Stored:
    """The game as the server stored it, rebuilt order by order (each stored state hash
    checked), with the seats' `done` as stored."""

    db: Path
    game_id: str
    game: Game
    plans: list[SeatPlan]
    done: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def read(db: Path) -> Stored:
        with sqlite3.connect(db) as connection:
            game_id, scenario, seed, seats = connection.execute(
                "SELECT id, scenario, seed, seats FROM games").fetchone()
        game = Game(scenario_from_dict(json.loads(scenario)), int(seed))
        stored = Stored(db, game_id, game, [SeatPlan.from_dict(s) for s in json.loads(seats)])
        stored.sync()
        return stored

    def sync(self) -> bool:
        """Take in what the server stored since; whether anything changed."""
        with sqlite3.connect(self.db) as connection:
            rows = connection.execute(
                "SELECT body, state_hash FROM orders WHERE game = ? AND n >= ? ORDER BY n",
                (self.game_id, len(self.game.orders))).fetchall()
            (done,) = connection.execute("SELECT done FROM games WHERE id = ?",
                                         (self.game_id,)).fetchone()
        for body, digest in rows:
            self.game.apply(Order.from_dict(json.loads(body)))
            assert self.game.state_hash() == digest, "the stored game does not replay"
        changed = bool(rows) or json.loads(done) != self.done
        self.done = json.loads(done)
        return changed

    @property
    def state(self) -> HouseClearingState:
        found: HouseClearingState = self.game.state
        return found

    def playing(self) -> bool:
        return not self.game.over and self.state.turn <= TURNS

    def person_seat(self) -> SeatPlan | None:
        """The seat a person owes orders from, once the server has nothing left to do
        (None while it has)."""
        side = self.game.to_act()
        if side is None:
            return None
        found = SeatRound(self.game, self.plans, done=self.done).next(side)
        return found.seat if isinstance(found, PersonSeat) else None

    def settle(self) -> SeatPlan | None:
        """Wait until a person's seat owes orders (None: the three turns are played)."""
        end = time.monotonic() + PATIENCE
        while True:
            self.sync()
            if not self.playing():
                return None
            seat = self.person_seat()
            if seat is not None:
                return seat
            assert time.monotonic() < end, "the server never came to a person's seat"
            time.sleep(0.05)

    def changed_since(self, orders: int, done: dict[str, Any]) -> None:
        """Wait until the server has stored an order or a seat's done after these."""
        end = time.monotonic() + PATIENCE
        while True:
            self.sync()
            if len(self.game.orders) > orders or self.done != done:
                return
            assert time.monotonic() < end, "the server stored nothing"
            time.sleep(0.05)

    def allows(self, order: Order) -> bool:
        return self.game.ruleset.allows(self.state, order)


# ---------------------------------------------------------------- what the person does


@dataclass(frozen=True)
class Intent:
    """An order to give by clicking: `want` is what it shows the page can do; a move has
    places to choose from (the first the page can click and the rules allow is taken)."""

    want: str
    kind: str
    unit: str
    params: dict[str, Any] = field(default_factory=dict)
    places: tuple[tuple[tuple[float, float], ...], ...] = ()


def around(x: float, y: float, reach: float, turn: float = 0.0) -> Iterator[tuple[float, float]]:
    for k in range(8):
        a = 2 * pi * k / 8 + turn
        yield round(x + reach * cos(a), 2), round(y + reach * sin(a), 2)


def intents(stored: Stored, seat: SeatPlan, wanted: set[str]) -> list[Intent]:
    """What the person would like to give now, first things first (empty: Done)."""
    state = stored.state
    legal = SeatRound(stored.game, stored.plans, done=stored.done).seat_orders(seat)
    fires = [o for o in legal if o.kind == "fire"]
    if state.reaction is not None:
        # a window to answer a British move: fire once at a mover, else let it go (the
        # gunner and its loader keep their fire for the fire phase)
        if "fire at a mover" not in wanted:
            return []
        return [Intent("fire at a mover", "fire", str(o.unit), dict(o.params))
                for o in fires if o.unit not in (GUNNER, LOADER)]
    if state.phase is Phase.MOVE:
        return moves(stored, legal, wanted)
    return shots(stored, fires, wanted)


def moves(stored: Stored, legal: list[Order], wanted: set[str]) -> list[Intent]:
    figures = stored.state.figures
    found = []
    movers = {o.unit for o in legal if o.kind == "move"}
    if "move to" in wanted and LOADER in movers:
        # the loader goes to the gunner's side, on its floor, crouching there
        gunner = figures[GUNNER].pos
        places = tuple((p,) for p in around(gunner.x, gunner.y, BESIDE))
        found.append(Intent("move to", "move", LOADER,
                            {"floor": gunner.floor, "stance": "crouching"}, places))
    if "stance" in wanted:
        found += [Intent("stance", "stance", str(o.unit), dict(o.params)) for o in legal
                  if o.kind == "stance" and o.unit not in (GUNNER, LOADER)][:1]
    if "move path" in wanted:
        for order in legal:
            if order.kind != "move" or "to" not in order.params \
                    or order.unit in (GUNNER, LOADER):
                continue
            at = figures[str(order.unit)].pos
            reach = 0.35 * hypot(order.params["to"][0] - at.x, order.params["to"][1] - at.y)
            paths = tuple((first, next(around(*first, reach, turn=2 * pi * k / 8 + pi / 2)))
                          for k, first in enumerate(around(at.x, at.y, reach)))
            found.append(Intent("move path", "move", str(order.unit), {}, paths))
    return found


def shots(stored: Stored, fires: list[Order], wanted: set[str]) -> list[Intent]:
    figures = stored.state.figures
    found = []
    for order in fires:
        unit, target = str(order.unit), order.params["target"]
        automatic = figures[unit].arms.auto is not None
        if unit == GUNNER and "fire loader" in wanted:
            found.append(Intent("fire loader", "fire", unit,
                                {"target": target, "auto": True, "loader": LOADER}))
        if automatic and "friendly fire shown" in wanted:
            burst = Order(PEOPLE, "fire", unit, {"target": target, "auto": True})
            if stored.allows(burst) and Risk.FRIENDLY_FIRE in stored.game.forecast(burst).risks:
                found.append(Intent("friendly fire shown", "fire", unit, dict(burst.params)))
        if unit in (GUNNER, LOADER):
            continue
        if automatic and "fire auto" in wanted:
            found.append(Intent("fire auto", "fire", unit, {"target": target, "auto": True}))
        if not automatic and "fire" in wanted:
            found.append(Intent("fire", "fire", unit, {"target": target}))
    rank = ["fire loader", "friendly fire shown", "fire auto", "fire"]
    found.sort(key=lambda i: rank.index(i.want))
    return [i for i in found if stored.allows(Order(PEOPLE, i.kind, i.unit, i.params))
            or i.places]


# ---------------------------------------------------------------- the page


def snapped(page: Any, x: float, y: float) -> tuple[list[int], list[float], bool]:
    """The screen pixel nearest a place of the table, the place the page reads a click on
    that pixel as (game.js's tablePoint: to the hundredth), and whether a click there
    lands on the map itself (not on a counter, its label or one of the rules' sampled
    places)."""
    found: tuple[list[int], list[float], bool] = page.evaluate(
        """([x, y]) => {
          const svg = document.querySelector('#mapbox svg');
          const p = svg.createSVGPoint(); p.x = x; p.y = mapHeight - y;
          const s = p.matrixTransform(svg.getScreenCTM());
          const px = [Math.round(s.x), Math.round(s.y)];
          const q = svg.createSVGPoint(); q.x = px[0]; q.y = px[1];
          const t = q.matrixTransform(svg.getScreenCTM().inverse());
          const hit = document.elementFromPoint(px[0], px[1]);
          const free = hit !== null && svg.contains(hit)
            && hit.closest('.figure, .destination') === null;
          return [px, [round(t.x), round(mapHeight - t.y)], free];
        }""", [x, y])
    return found


def clicked_places(page: Any, stored: Stored, intent: Intent
                   ) -> tuple[list[list[int]], Order] | None:
    """The pixels to click for the first of the intent's places the page can click and
    the rules allow, and the order they make (None: none is)."""
    for places in intent.places:
        pixels, points = [], []
        for x, y in places:
            pixel, point, free = snapped(page, x, y)
            if not free:
                break
            pixels.append(pixel)
            points.append(point)
        else:
            params = ({"to": points[0]} if len(points) == 1 else {"path": points}) \
                | intent.params
            order = Order(PEOPLE, intent.kind, intent.unit, params)
            if stored.allows(order):
                return pixels, order
    return None


def click_enemy(page: Any, enemy: str) -> None:
    """Click an enemy's counter on the map where it shows (a counter on top of another
    may hide its middle), else choose it from the form's list."""
    spot = page.evaluate(
        """(id) => {
          const g = document.querySelector(`#mapbox .figure.enemy[data-id="${id}"]`);
          if (!g) return null;
          const box = g.querySelector('.frame').getBoundingClientRect();
          for (const [fx, fy] of [[.5, .5], [.5, .3], [.5, .7], [.3, .5], [.7, .5]]) {
            const x = box.left + box.width * fx, y = box.top + box.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest('.figure') === g) return [x, y];
          }
          return null;
        }""", enemy)
    if spot is None:
        page.select_option("#param-target", enemy)
    else:
        page.mouse.click(spot[0], spot[1])
    page.wait_for_function("(id) => document.querySelector('#param-target').value === id",
                           arg=enemy, timeout=WAIT_MS)


def fresh(page: Any, stored: Stored) -> None:
    """Wait until the seat's page shows the game as stored and offers its orders."""
    status = game_status(stored.game, stored.game.view(stored.game.scenario.side_names[0]))
    expected = {"events": len(stored.game.log_for(PEOPLE)), "status": status}
    page.wait_for_function(
        """(e) => typeof state !== 'undefined' && state !== null && state.seat
          && state.seat.may_act && !state.seat.done && state.event_count === e.events
          && Object.entries(e.status).every(([k, v]) => state.status[k] === v)""",
        arg=expected, timeout=WAIT_MS)


def compose(page: Any, stored: Stored, intent: Intent) -> Order | None:
    """Pick the figure, choose the form and fill it in by clicking; the order it makes
    (None: no place of the move's is clear to click, and the form is cleared)."""
    pick(page, intent.unit)
    if intent.kind == "move":
        form = "move to" if len(intent.places[0]) == 1 else "move path"
        named(page, form).click()
        found = clicked_places(page, stored, intent)
        if found is None:
            page.click("#compose-clear")
            return None
        pixels, order = found
        for x, y in pixels:
            page.mouse.click(x, y)
        if form == "move path":
            page.click("#composer button.finish")
        for name in ("floor", "stance"):
            if name in order.params:
                page.select_option(f"#param-{name}", str(order.params[name]))
        return order
    named(page, intent.kind).click()
    if intent.kind == "stance":
        page.select_option("#param-stance", intent.params["stance"])
    else:
        click_enemy(page, intent.params["target"])
        if intent.params.get("auto"):
            page.check("#param-auto")
        if "loader" in intent.params:
            page.select_option("#param-loader", intent.params["loader"])
    return Order(PEOPLE, intent.kind, intent.unit, intent.params)


def previewed(page: Any, stored: Stored, order: Order) -> set[str]:
    """Preview what the form holds: it must be the order meant, its words more than
    "allowed", and every risk of its forecast shown (and no other); the risks."""
    page.click("#compose-preview")
    page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
    assert page.locator("#commit").count(), page.inner_text("#preview")
    pending = page.evaluate("() => pending")
    assert Order(PEOPLE, pending["kind"], pending["unit"], pending["params"]) == order
    words = page.inner_text("#preview .forecast-text").strip()
    assert len(words.split()) > 3 and words.lower() not in ("allowed", "allowed."), words
    risks = {str(r) for r in stored.game.forecast(order).risks}
    shown = set(page.eval_on_selector_all("#preview .risk", "(all) => all.map((r) => "
                                          "r.dataset.risk + '|' + r.textContent)"))
    assert {s.split("|")[0] for s in shown} == risks, shown
    assert all(len(s.split("|")[1].split()) > 3 for s in shown)
    return risks


def give(page: Any, stored: Stored, intent: Intent) -> set[str] | None:
    """Give the intent by clicking; check the stored game took exactly that order. The
    risks its preview showed (None: it could not be clicked)."""
    order = compose(page, stored, intent)
    if order is None:
        return None
    risks = previewed(page, stored, order)
    n = len(stored.game.orders)
    page.click("#commit")
    stored.changed_since(n, stored.done)
    assert stored.game.orders[n] == order
    return risks


def done(page: Any, stored: Stored, seat: SeatPlan) -> set[str]:
    """Say the seat is done; the side's `end` follows once every seat is. What it gave."""
    n, window = len(stored.game.orders), stored.state.reaction is not None
    before = dict(stored.done)
    page.click("#done")
    stored.changed_since(n, before)
    stored.settle()  # the side's end may come after the seat's done is stored
    if len(stored.game.orders) == n:  # another seat still owes orders
        assert seat.name in stored.done[PEOPLE]["seats"]
        return set()
    assert stored.game.orders[n] == Order(PEOPLE, "end")
    return {"end", "let the mover go"} if window else {"end"}


# ---------------------------------------------------------------- the lobby


def seat_pages(context: Any, base: str) -> dict[str, Any]:
    """Create the game in the lobby (German seats people's, British the computer's, the
    seed typed) and open each German seat's link from it, a tab a seat."""
    scenario = first_written("ramp-houses")
    rules = find_ruleset(scenario.ruleset)
    lobby = context.new_page()
    lobby.goto(base + "/")
    card = lobby.locator(f".card[data-scenario={SCENARIO}]")
    card.wait_for(timeout=WAIT_MS)
    people = set()
    for side in scenario.side_names:
        for seat in rules.seats(scenario, side):
            who = "human" if side == PEOPLE else "computer"
            card.locator(f'select[data-seat="{seat.name}"]').select_option(who)
            if side == PEOPLE:
                people.add(seat.name)
    card.locator("input.seed").fill(str(SEED))
    create = card.locator("button.create")
    lobby.wait_for_function("(b) => !b.disabled", arg=create.element_handle(),
                            timeout=WAIT_MS)
    create.click()
    lobby.wait_for_selector(".links li", timeout=WAIT_MS)
    pages = {}
    for item in lobby.locator(".links li").all():
        seat = item.inner_text().split(": ")[0]
        if seat not in people:
            continue
        with context.expect_page() as opened:
            item.get_by_role("link", name="open").click()
        pages[seat] = opened.value
    assert set(pages) == people
    for page in pages.values():
        page.wait_for_selector("#units div[data-unit]", timeout=WAIT_MS)
    lobby.close()
    return pages


def turn_shown(page: Any) -> int:
    found = re.match(r"Turn (\d+)/", page.inner_text("#status"))
    assert found, page.inner_text("#status")
    return int(found.group(1))


# ---------------------------------------------------------------- the game


def test_three_turns_of_house_clearing_by_clicking(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    given: set[str] = set()
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        uploaded = client.post("/api/scenarios",
                               content=first_written_text("ramp-houses", SCENARIO).encode())
        assert uploaded.status_code == 201, uploaded.text
        pages = seat_pages(context, str(client.base_url).rstrip("/"))
        stored = Stored.read(db)
        first = turn_shown(next(iter(pages.values())))
        while (seat := stored.settle()) is not None:
            page = pages[seat.name]
            fresh(page, stored)
            for intent in intents(stored, seat, set(EVERY - given)):
                risks = give(page, stored, intent)
                if risks is not None:
                    given.add(intent.want)
                    if "friendly-fire" in risks:
                        given.add("friendly fire shown")
                    break
            else:
                given |= done(page, stored, seat)
        for page in pages.values():
            page.wait_for_function(
                "(turn) => Number((document.querySelector('#status').textContent"
                ".match(/Turn (\\d+)\\//) || [0, 0])[1]) > turn", arg=TURNS, timeout=WAIT_MS)
            assert turn_shown(page) - first >= TURNS
        browser.close()
    assert given == EVERY, sorted(EVERY - given)
