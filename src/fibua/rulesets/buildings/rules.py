"""The Buildings rule set: the one interface the engine talks to."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import cos, hypot, pi, sin
from typing import Any, ClassVar

from fibua.battlefield.model import Section
from fibua.core.counters import Counter
from fibua.core.dispatch import DispatchedRuleSet, Dispatcher, Kind
from fibua.core.errors import Problem
from fibua.core.events import Event, drain
from fibua.core.orderforms import OrderForms, syntax_lines
from fibua.core.orders import Order
from fibua.core.ruleset import Notes, OddsQuery, Player, Preview, Result, register
from fibua.rulesets.buildings import actions, codes, sampling, setup, turn
from fibua.rulesets.buildings.counters import counters as side_counters
from fibua.rulesets.buildings.forces import Forces, Options
from fibua.rulesets.buildings.forecast import forecast
from fibua.rulesets.buildings.geometry import centroid, ground_doors
from fibua.rulesets.buildings.indirect import indirect_weapons
from fibua.rulesets.buildings.knowledge import sees, sighting_snapshot
from fibua.rulesets.buildings.odds import ODDS_QUERIES
from fibua.rulesets.buildings.orderforms import ORDER_KINDS
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import OrderKind
from fibua.rulesets.buildings.views import SideView, observe, own_dicts, view_dict
from fibua.scenario.schema import Scenario

Action = Callable[[], None]
HEADINGS = 8
ADVANCE_STEPS = (3.0, 6.0)
RUN_STEPS = (6.0, 12.0)


class Buildings(DispatchedRuleSet[BuildingsState, Unit]):
    name: ClassVar[str] = "buildings"
    title: ClassVar[str] = "Buildings: order-dice WWII skirmish in and around buildings"
    forces_model = Forces
    options_model = Options
    refusals = codes.REFUSALS
    event_kinds = codes.EVENT_KINDS
    odds_queries: ClassVar[dict[str, OddsQuery]] = ODDS_QUERIES
    #: the orders as typed data (orderforms.py); the terminal's lines are written from them
    order_kinds: ClassVar[dict[str, OrderForms]] = ORDER_KINDS
    order_syntax: ClassVar[dict[str, str]] = syntax_lines(ORDER_KINDS, "UNIT")

    def check_scenario(self, scenario: Scenario) -> list[Problem]:
        return setup.check_scenario(scenario)

    def new_state(self, scenario: Scenario, seed: int, rng: Any = None) -> BuildingsState:
        return setup.new_state(scenario, seed, rng)

    def start(self, state: BuildingsState) -> list[Event]:
        for side in state.sides:
            own = [{"id": u.id, "name": u.name, "models": len(u.models),
                    "section": u.section, "floor": u.floor}
                   for u in state.units.values() if u.side == side]
            state.emit("deployed", {"side": side, "units": own}, (side,))
        turn.start_game(state)
        return drain(state)

    @property
    def dispatcher(self) -> Dispatcher[BuildingsState, Unit]:
        return _DISPATCH

    def after_order(self, state: BuildingsState, order: Order) -> None:
        turn.after_order(state)

    def preview(self, state: BuildingsState, order: Order) -> str:
        return self.forecast(state, order).text

    def forecast(self, state: BuildingsState, order: Order) -> Preview:
        self.check(state, order)
        return forecast(state, order)

    def legal_orders(self, state: BuildingsState, side: str) -> list[Order]:
        if state.acting_side != side:
            return []
        orders = [Order(side, "end")]
        if state.waiting is not None:
            return [*orders, Order(side, "down", state.waiting.target)]
        for unit in state.side_units(side):
            if turn.can_act(state, unit):
                orders += [o for o in _candidates(state, unit) if self.allows(state, o)]
        return orders

    def observe(self, state: BuildingsState, side: str) -> SideView:
        return observe(state, side)

    def view(self, state: BuildingsState, side: str) -> dict[str, Any]:
        return view_dict(observe(state, side))

    def own_view(self, state: BuildingsState, side: str) -> list[dict[str, Any]]:
        return own_dicts(observe(state, side))

    def counters(self, state: BuildingsState, side: str) -> list[Counter]:
        return side_counters(observe(state, side))

    def snapshot(self, state: BuildingsState) -> dict[str, Any]:
        return {
            "turn": state.turn, "limit": state.limit, "extra_rolled": state.extra_rolled,
            "drawn": state.drawn, "rng": state.rng.snapshot(),
            "waiting": state.waiting.snapshot() if state.waiting else None,
            "ranging": {k: r.snapshot() for k, r in sorted(state.ranging.items())},
            "calls": [c.snapshot() for c in state.calls],
            "arriving": state.arriving.snapshot() if state.arriving else None,
            "barrages_called": dict(sorted(state.barrages_called.items())),
            "units": [u.snapshot() for u in state.units.values()],
            "sections": {k: str(v) for k, v in sorted(state.sight.section_states.items())},
            "seen": {side: {k: sighting_snapshot(s) for k, s in known.listed()}
                     for side, known in sorted(state.knowledge.items())},
            "destroyed_by": dict(sorted(state.destroyed_by.items())),
            "result": state.result.to_dict() if state.result else None,
        }

    def after_action(self, state: BuildingsState) -> list[str]:
        return [_after_action_line(u) for u in state.units.values()]

    can_resample = True

    def resample(self, state: BuildingsState, side: str,
                 rng: random.Random) -> BuildingsState:
        return sampling.resample(state, side, rng)

    def standing(self, state: BuildingsState) -> Result:
        return turn.score(state, "were the game to end now")

    def strength(self, state: BuildingsState, side: str) -> float:
        return sampling.strength(state, side)

    def computer(self, side: str, seed: int, units: frozenset[str] | None = None,
                 notes: Notes | None = None) -> Player:
        from fibua.rulesets.buildings.ai import SimpleChooser

        return SimpleChooser(side, seed, units)


def _order(kind: OrderKind, check: Callable[[BuildingsState, Unit, dict[str, Any]],
                                             actions.Plan]) -> Kind[BuildingsState, Unit]:
    takes = {
        OrderKind.FIRE: {"target", "targets", "indirect", "call", "at", "section", "floor"},
        OrderKind.ADVANCE: {"to", "floor", "section", "target", "enter", "opening"},
        OrderKind.RUN: {"to", "floor", "section", "enter", "assault", "mount", "regroup",
                        "opening", "take"},
        OrderKind.AMBUSH: {"at"},
        OrderKind.RALLY: set(),
        OrderKind.DOWN: {"keep"},
    }[kind]

    def checker(state: BuildingsState, unit: Unit, params: dict[str, Any]) -> Action:
        plan = check(state, unit, params)
        return lambda: actions.carry_out(state, unit, plan)

    return Kind(frozenset(takes), checker)


def _still(kind: OrderKind) -> Callable[[BuildingsState, Unit, dict[str, Any]], actions.Plan]:
    return lambda state, unit, params: actions.check_still(state, unit, params, kind)


_CHECKERS: dict[str, Kind[BuildingsState, Unit]] = {
    "fire": _order(OrderKind.FIRE, actions.check_fire),
    "advance": _order(OrderKind.ADVANCE, actions.check_advance),
    "run": _order(OrderKind.RUN, actions.check_run),
    "ambush": _order(OrderKind.AMBUSH, _still(OrderKind.AMBUSH)),
    "rally": _order(OrderKind.RALLY, _still(OrderKind.RALLY)),
    "down": _order(OrderKind.DOWN, _still(OrderKind.DOWN)),
}

_DISPATCH: Dispatcher[BuildingsState, Unit] = Dispatcher(
    Buildings.order_syntax, _CHECKERS, actions.end_side,
    lambda state, uid: state.units.get(uid), lambda u: u.alive,
    noun="unit", out="is destroyed")


def _candidates(state: BuildingsState, unit: Unit) -> list[Order]:
    """A useful sample of the orders a unit might be given now (checked by the caller)."""
    side, uid = unit.side, unit.id
    out = [Order(side, "down", uid), Order(side, "down", uid, {"keep": True}),
           Order(side, "ambush", uid)]
    if unit.pins:
        out.append(Order(side, "rally", uid))
    enemies = [e for e in state.side_units(state.enemy_of(side)) if sees(state, unit, e)]
    out += [Order(side, "fire", uid, {"target": e.id}) for e in enemies]
    out += [Order(side, "fire", uid, {"section": sid})
            for sid in state.battlefield.section_ids]
    if indirect_weapons(unit):
        out += [Order(side, "fire", uid, {"target": e.id, "indirect": True})
                for e in state.side_units(state.enemy_of(side))]
        out += [Order(side, "fire", uid, {"section": sid, "indirect": True})
                for sid in state.battlefield.section_ids]
    if unit.observer is not None:
        out += [Order(side, "fire", uid, {"target": e.id, "call": True}) for e in enemies]
        out += [Order(side, "fire", uid, {"section": sid, "call": True})
                for sid in state.battlefield.section_ids]
        out += [Order(side, "fire", uid, {"at": [round(e.lead.x, 2), round(e.lead.y, 2)],
                                          "call": True}) for e in enemies]
    out += [Order(side, "run", uid, {"assault": e.id})
            for e in state.side_units(state.enemy_of(side))]
    if unit.section is None:
        for kind, steps in (("advance", ADVANCE_STEPS), ("run", RUN_STEPS)):
            for k in range(HEADINGS):
                angle = 2 * pi * k / HEADINGS
                for d in steps:
                    to = [round(unit.lead.x + d * cos(angle), 2),
                          round(unit.lead.y + d * sin(angle), 2)]
                    out.append(Order(side, kind, uid, {"to": to}))
        out += [Order(side, "run", uid, {"enter": sid}) for sid in state.battlefield.section_ids]
        out += [Order(side, "run", uid, {"mount": v.id}) for v in state.side_units(side)
                if v.vehicle is not None and v.carrying is None]
    else:
        section = state.battlefield.section(unit.section)
        for kind in ("advance", "run"):
            out += [Order(side, kind, uid, {"floor": f}) for f in range(section.levels)
                    if f != unit.floor]
            building = state.battlefield.building_of(unit.section)
            out += [Order(side, kind, uid, {"section": s.id}) for s in building.sections
                    if s.id != unit.section]
            out += [Order(side, kind, uid, {"to": to}) for to in _outside_doors(section)]
    for e in enemies:
        out.append(Order(side, "advance", uid, {"to": [round(unit.lead.x, 2),
                                                        round(unit.lead.y, 2)],
                                                "target": e.id}))
    return out


def _outside_doors(section: Section) -> list[list[float]]:
    """Points 2in and 5in out from each ground-floor door or window, away from the middle."""
    cx, cy = centroid(section)
    out = []
    for x, y in ground_doors(section):
        norm = max(1e-9, hypot(x - cx, y - cy))
        for d in (2.0, 5.0):
            out.append([round(x + d * (x - cx) / norm, 2), round(y + d * (y - cy) / norm, 2)])
    return out


RULES = Buildings()
register(RULES)


def _after_action_line(u: Unit) -> str:
    """A unit's fate at the end: a unit wiped out to the last model is there too, with
    no place (it has no model left to stand anywhere)."""
    head = (f"{u.side}: {u.name} - {'destroyed' if not u.alive else 'in action'}, "
            f"{len(u.models)}/{u.start} models, {u.pins} pins")
    if not u.models:
        return head
    return (head + f", at ({u.lead.x:.1f}, {u.lead.y:.1f})"
            + (f" in {u.section} floor {u.floor}" if u.section else ""))
