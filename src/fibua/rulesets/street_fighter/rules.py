"""The Street Fighter rule set: the one interface the engine talks to."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import cos, pi, sin
from typing import Any, ClassVar

from fibua.core.counters import Counter
from fibua.core.dispatch import DispatchedRuleSet, Dispatcher, Kind
from fibua.core.errors import IllegalOrder, Problem
from fibua.core.events import Event, drain
from fibua.core.orderforms import OrderForms, syntax_lines
from fibua.core.orders import Order
from fibua.core.params import only
from fibua.core.ruleset import Notes, OddsQuery, Player, Preview, Result, Seat, register
from fibua.rulesets.street_fighter import actions, codes, forecast, sampling, setup, turn
from fibua.rulesets.street_fighter.counters import counters as side_counters
from fibua.rulesets.street_fighter.forces import Forces, Options, placements
from fibua.rulesets.street_fighter.ground import distance_to_section
from fibua.rulesets.street_fighter.knowledge import (
    refresh_after_observing,
    refresh_after_order,
    touched,
)
from fibua.rulesets.street_fighter.odds import ODDS_QUERIES
from fibua.rulesets.street_fighter.orderforms import ORDER_KINDS
from fibua.rulesets.street_fighter.report import after_action_report
from fibua.rulesets.street_fighter.state import Activity, StreetFighterState, Unit
from fibua.rulesets.street_fighter.views import SideView, observe, own_dicts, view_dict
from fibua.scenario.schema import Scenario

HEADINGS = 8
Carry = Callable[[], None]


class StreetFighter(DispatchedRuleSet[StreetFighterState, Unit]):
    name: ClassVar[str] = "street-fighter"
    title: ClassVar[str] = "Street Fighter: platoon FIBUA against a hidden enemy, Control umpires"
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

    def new_state(self, scenario: Scenario, seed: int, rng: Any = None) -> StreetFighterState:
        return setup.new_state(scenario, seed, rng)

    def start(self, state: StreetFighterState) -> list[Event]:
        for side in state.sides:
            own = [{"unit": u.id, "name": u.name, "kind": str(u.kind), "at": list(u.pos.point),
                    "rides": u.rides} for u in state.units.values() if u.side == side]
            state.emit("deployed", {"side": side, "units": own}, (side,))
        turn.begin_turn(state)
        return drain(state)

    @property
    def dispatcher(self) -> Dispatcher[StreetFighterState, Unit]:
        return _DISPATCH

    def after_order(self, state: StreetFighterState, order: Order) -> None:
        if state.result is None and order.kind != "end":
            if order.kind == "observe" and state.spotted == state.version - 1:
                refresh_after_observing(state, order.side)  # half an order's work
            else:
                refresh_after_order(state)
            _end_if_idle(state)

    def preview(self, state: StreetFighterState, order: Order) -> str:
        return self.forecast(state, order).text

    def forecast(self, state: StreetFighterState, order: Order) -> Preview:
        self.check(state, order)
        return forecast.forecast(state, order)

    def legal_orders(self, state: StreetFighterState, side: str) -> list[Order]:
        if state.acting_side != side:
            return []
        orders = [Order(side, "end")]
        for unit in state.side_units(side):
            if turn.can_act(state, unit):
                orders += [o for o in _candidates(state, unit) if self.allows(state, o)]
        return orders

    def observe(self, state: StreetFighterState, side: str) -> SideView:
        return observe(state, side)

    def view(self, state: StreetFighterState, side: str) -> dict[str, Any]:
        return view_dict(observe(state, side))

    def own_view(self, state: StreetFighterState, side: str) -> list[dict[str, Any]]:
        return own_dicts(observe(state, side))

    def counters(self, state: StreetFighterState, side: str) -> list[Counter]:
        return side_counters(observe(state, side))

    def snapshot(self, state: StreetFighterState) -> dict[str, Any]:
        return {
            "turn": state.turn, "acting": state.acting, "rng": state.rng.snapshot(),
            "units": [u.snapshot() for u in state.units.values()],
            "formations": [f.snapshot() for f in state.formations.values()],
            "markers": [[m.side, m.by, m.x, m.y, m.turn] for m in state.markers],
            "seen": {side: {k: [s.x, s.y, s.section, s.turn, s.visible, s.alive]
                            for k, s in known.listed()}
                     for side, known in sorted(state.knowledge.items())},
            # a side is listed once it has been fired on
            "reports": {side: [[r.unit, r.direction, r.turn, r.hits] for r in known.reports]
                        for side, known in sorted(state.knowledge.items()) if known.reports},
            "artillery": dict(sorted(state.artillery.items())),
            "result": state.result.to_dict() if state.result else None,
        }

    def after_action(self, state: StreetFighterState) -> list[str]:
        return after_action_report(state)

    def seats(self, scenario: Scenario, side: str) -> list[Seat]:
        """One seat per commander; formations without one share the side's seat."""
        forces: Forces = scenario.forces_of(side)
        groups: dict[str, set[str]] = {}
        for formation in forces.formations:
            key = formation.commander or side
            groups.setdefault(key, set()).update(p.id for p in placements(formation))
        if len(groups) == 1:
            return [Seat(side, side)]
        return [Seat(name, side, frozenset(ids)) for name, ids in groups.items()]

    can_resample = True

    def resample(self, state: StreetFighterState, side: str,
                 rng: random.Random) -> StreetFighterState:
        return sampling.resample(state, side, rng)

    def standing(self, state: StreetFighterState) -> Result:
        return turn.score(state, "were the game to end now")

    def strength(self, state: StreetFighterState, side: str) -> float:
        """Hit points left in the fight: the measure of losses the rules score."""
        return float(sum(u.hp for u in state.side_units(side)))

    def computer(self, side: str, seed: int, units: frozenset[str] | None = None,
                 notes: Notes | None = None) -> Player:
        from fibua.rulesets.street_fighter.ai import Control

        return Control(side, seed, units)


def _end_if_idle(state: StreetFighterState) -> None:
    """Nothing left to order this turn: the side's orders are done."""
    side = state.acting_side
    if side is not None and not any(turn.can_act(state, u) for u in state.side_units(side)):
        turn.end_side(state)


MOVE_PARAMS = frozenset({"to", "path"})
FIRE_PARAMS = frozenset({"target", "weapon"})


def _check_move(activity: Activity) -> Callable[[StreetFighterState, Unit, dict[str, Any]],
                                                 Carry]:
    def check(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Carry:
        plan = actions.plan_move(state, unit, params, activity)
        return lambda: actions.carry_out_move(state, unit, plan)

    return check


def _check_move_fire(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Carry:
    move = actions.plan_move(state, unit, params, Activity.MOVED_FIRED)
    shot = actions.check_fire(state, unit, params, move.legs[-1], moved=True)

    def carry() -> None:
        actions.carry_out_move(state, unit, move)
        actions.carry_out_fire(state, unit, shot)

    return carry


def _check_shoot(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Carry:
    actions.require_ready(state, unit)
    if "point" in params:
        if "target" in params:
            raise IllegalOrder("give target=ID or point=x,y, not both", code="bad-parameter")
        only(params, {"point"})
        plan = actions.check_indirect(state, unit, params)

        def indirect() -> None:
            actions.carry_out_indirect(state, unit, plan)
            _done(state, unit, Activity.FIRED)

        return indirect
    shot = actions.check_fire(state, unit, params, unit.pos, moved=False)

    def direct() -> None:
        _done(state, unit, Activity.FIRED)
        actions.carry_out_fire(state, unit, shot)

    return direct


def _done(state: StreetFighterState, unit: Unit, activity: Activity) -> None:
    unit.activity = activity
    unit.acted = True
    touched(state, unit)


def _check_assault(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Carry:
    plan = actions.check_assault(state, unit, params)
    return lambda: actions.carry_out_assault(state, plan)


def _check_mount(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Carry:
    vehicle = actions.check_mount(state, unit, params)
    return lambda: actions.carry_out_mount(state, unit, vehicle)


def _check_dismount(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Carry:
    there = actions.check_dismount(state, unit, params)
    return lambda: actions.carry_out_dismount(state, unit, there)


def _check_observe(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Carry:
    actions.check_observe(state, unit)
    return lambda: actions.carry_out_observe(state, unit)


_CHECKS: dict[str, Kind[StreetFighterState, Unit]] = {
    "move": Kind(MOVE_PARAMS, _check_move(Activity.MOVED)),
    "flat-out": Kind(MOVE_PARAMS, _check_move(Activity.FLAT_OUT)),
    "move-fire": Kind(MOVE_PARAMS | FIRE_PARAMS, _check_move_fire),
    # a shot takes target=ID [weapon=] or point=x,y: `_check_shoot` tells the two apart
    "shoot": Kind(FIRE_PARAMS | {"point"}, _check_shoot),
    "assault": Kind(frozenset({"section", "with"}), _check_assault),
    "mount": Kind(frozenset({"vehicle"}), _check_mount),
    "dismount": Kind(frozenset({"to"}), _check_dismount),
    "observe": Kind(frozenset(), _check_observe),
}

_DISPATCH: Dispatcher[StreetFighterState, Unit] = Dispatcher(
    StreetFighter.order_syntax, _CHECKS, turn.end_side, lambda state, uid: state.units.get(uid),
    lambda unit: unit.alive, noun="unit", out="is out of the fight")


def _candidates(state: StreetFighterState, unit: Unit) -> list[Order]:
    """A useful sample of a unit's orders (moves at eight headings, every seen target)."""
    side, uid = unit.side, unit.id
    out = [Order(side, "observe", uid)]
    if unit.rides is not None:
        return [*out, Order(side, "dismount", uid)]
    for kind, factor in (("move", 1.0), ("flat-out", 2.0)):
        out += [Order(side, kind, uid, {"to": to}) for to in _around(unit, factor)]
    seen = [i for i, s in state.knowledge[side].sightings.items() if s.visible and s.alive]
    for target in seen[:3]:
        out.append(Order(side, "shoot", uid, {"target": target}))
        if unit.spec.rocket:
            out.append(Order(side, "shoot", uid, {"target": target, "weapon": "rocket"}))
        out += [Order(side, "move-fire", uid, {"to": to, "target": target})
                for to in _around(unit, 0.5)[::2]]
        if unit.spec.indirect:
            known = state.knowledge[side].sightings[target]
            out.append(Order(side, "shoot", uid, {"point": [known.x, known.y]}))
    if unit.spec.assault_points:
        out += [Order(side, "assault", uid, {"section": s}) for s in state.battlefield.section_ids
                if distance_to_section(state.sight, unit.pos, s) <= unit.spec.move]
        out += [Order(side, "mount", uid, {"vehicle": v.id}) for v in state.side_units(side)
                if v.spec.capacity and v.pos.distance(unit.pos) <= 5.0]
    return out


def _around(unit: Unit, factor: float) -> list[list[float]]:
    reach = unit.spec.move * factor - 0.01
    return [[round(unit.pos.x + reach * cos(2 * pi * k / HEADINGS), 2),
             round(unit.pos.y + reach * sin(2 * pi * k / HEADINGS), 2)] for k in range(HEADINGS)]


RULES = StreetFighter()
register(RULES)
