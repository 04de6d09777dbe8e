"""The Street-Fight rule set: the one interface the engine talks to."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import cos, pi, sin
from typing import Any, ClassVar

from fibua.battlefield.model import Position
from fibua.core.counters import Counter
from fibua.core.dispatch import NO_PARAMETERS, DispatchedRuleSet, Dispatcher, Kind
from fibua.core.errors import Problem
from fibua.core.events import Event, drain
from fibua.core.orderforms import OrderForms, syntax_lines
from fibua.core.orders import Order
from fibua.core.ruleset import Notes, OddsQuery, Player, Preview, Result, Risk, register
from fibua.rulesets.street_fight import actions, codes, sampling, setup, turn
from fibua.rulesets.street_fight.counters import counters as side_counters
from fibua.rulesets.street_fight.firing import situation
from fibua.rulesets.street_fight.forces import Forces, Options
from fibua.rulesets.street_fight.knowledge import refresh_sight
from fibua.rulesets.street_fight.odds import ODDS_QUERIES, firing_odds
from fibua.rulesets.street_fight.orderforms import ORDER_KINDS
from fibua.rulesets.street_fight.report import after_action_report
from fibua.rulesets.street_fight.shooting import cover_words, kill_chance
from fibua.rulesets.street_fight.state import Figure, Phase, StreetFightState
from fibua.rulesets.street_fight.tables import (
    AIM_MAX_TURNS,
    AIM_STEP,
    MOVE_MAX,
    MOVE_NORMAL,
    MOVING_FIRER,
    OVERWATCH_AREA,
    OVERWATCH_POINT,
    OVERWATCH_POINT_RADIUS,
)
from fibua.rulesets.street_fight.views import SideView, observe, own_dicts, view_dict
from fibua.scenario.schema import Scenario

MOVE_HEADINGS = 8
MOVE_SAMPLES = (2.5, MOVE_NORMAL, MOVE_MAX)


class StreetFight(DispatchedRuleSet[StreetFightState, Figure]):
    name: ClassVar[str] = "street-fight"
    title: ClassVar[str] = "Street-Fight: fast d10 skirmish"
    forces_model = Forces
    options_model = Options
    refusals = codes.REFUSALS
    event_kinds = codes.EVENT_KINDS
    odds_queries: ClassVar[dict[str, OddsQuery]] = ODDS_QUERIES
    #: the orders as typed data (orderforms.py); the terminal's lines are written from them
    order_kinds: ClassVar[dict[str, OrderForms]] = ORDER_KINDS
    order_syntax: ClassVar[dict[str, str]] = syntax_lines(ORDER_KINDS, "FIGURE")

    def check_scenario(self, scenario: Scenario) -> list[Problem]:
        return setup.check_scenario(scenario)

    def new_state(self, scenario: Scenario, seed: int, rng: Any = None) -> StreetFightState:
        return setup.new_state(scenario, seed, rng)

    def start(self, state: StreetFightState) -> list[Event]:
        for side in state.sides:
            own = [{"id": f.id, "name": f.name, "weapon": str(f.weapon)}
                   for f in state.side_figures(side)]
            state.emit("deployed", {"side": side, "figures": own}, (side,))
        refresh_sight(state, list(state.figures.values()))
        turn.begin_turn(state)
        return drain(state)

    @property
    def dispatcher(self) -> Dispatcher[StreetFightState, Figure]:
        return _DISPATCH

    def preview(self, state: StreetFightState, order: Order) -> str:
        return self.forecast(state, order).text

    def forecast(self, state: StreetFightState, order: Order) -> Preview:
        self.check(state, order)
        figure = state.figures.get(order.unit or "")
        if order.kind == "move" and figure is not None:
            return _move_preview(state, figure, actions.plan_move(state, figure, order.params))
        if order.kind == "shoot" and figure is not None:
            return _shot_preview(state, figure, actions.check_shoot(state, figure, order.params))
        if order.kind in _STAYS and figure is not None:
            return _STAYS[order.kind](figure, order.params)
        return Preview(f"{order}: allowed")

    def legal_orders(self, state: StreetFightState, side: str) -> list[Order]:
        if state.acting_side != side:
            return []
        orders = [Order(side, "end")]
        for figure in state.side_figures(side):
            if turn.can_act(state, figure):
                orders += _figure_orders(state, figure)
        return orders

    def unit_orders(self, state: StreetFightState, side: str, unit: str) -> list[Order]:
        figure = state.figures.get(unit)
        if (state.acting_side != side or figure is None or figure.side != side
                or not turn.can_act(state, figure)):
            return []
        return _figure_orders(state, figure)

    def has_choice(self, state: StreetFightState, side: str) -> bool:
        # stops at the first allowed candidate: checking every one is most of a listing
        return state.acting_side == side and any(
            _allowed(state, order) for figure in state.side_figures(side)
            if turn.can_act(state, figure) for order in _candidates(state, figure))

    def observe(self, state: StreetFightState, side: str) -> SideView:
        return observe(state, side)

    def view(self, state: StreetFightState, side: str) -> dict[str, Any]:
        return view_dict(state, observe(state, side))

    def own_view(self, state: StreetFightState, side: str) -> list[dict[str, Any]]:
        return own_dicts(state, observe(state, side))

    def counters(self, state: StreetFightState, side: str) -> list[Counter]:
        return side_counters(observe(state, side))

    def snapshot(self, state: StreetFightState) -> dict[str, Any]:
        return {
            "turn": state.turn, "phase": str(state.phase), "initiative": state.initiative,
            "acting": state.acting, "rng": state.rng.snapshot(),
            "figures": [f.snapshot() for f in state.figures.values()],
            "units": [{"id": u.id, "tested": u.tested_losses,
                       "last": list(u.last_casualty_from) if u.last_casualty_from else None}
                      for u in state.units.values()],
            "seen": {side: {k: [s.x, s.y, s.floor, s.turn, s.visible, s.alive]
                            for k, s in known.listed()}
                     for side, known in sorted(state.knowledge.items())},
            "result": state.result.to_dict() if state.result else None,
        }

    def after_action(self, state: StreetFightState) -> list[str]:
        return after_action_report(state)

    can_resample = True

    def resample(self, state: StreetFightState, side: str,
                 rng: random.Random) -> StreetFightState:
        return sampling.resample(state, side, rng)

    def standing(self, state: StreetFightState) -> Result:
        return turn.score(state, "were the game to end now")

    def strength(self, state: StreetFightState, side: str) -> float:
        return float(len(state.side_figures(side)))

    def computer(self, side: str, seed: int, units: frozenset[str] | None = None,
                 notes: Notes | None = None) -> Player:
        from fibua.rulesets.street_fight.ai import Tactician, approach_notes

        return Tactician(side, seed, units, approach_notes(notes))


def _check_move(state: StreetFightState, f: Figure, params: dict[str, Any]) -> Any:
    plan = actions.plan_move(state, f, params)
    return lambda: actions.carry_out_move(state, f, plan)


def _check_shoot(state: StreetFightState, f: Figure, params: dict[str, Any]) -> Any:
    targets = actions.check_shoot(state, f, params)
    return lambda: actions.carry_out_shoot(state, f, targets)


def _check_aim(state: StreetFightState, f: Figure, params: dict[str, Any]) -> Any:
    actions.check_aim(state, f)
    return lambda: actions.carry_out_aim(state, f)


def _check_overwatch(state: StreetFightState, f: Figure, params: dict[str, Any]) -> Any:
    ow = actions.check_overwatch(state, f, params)
    return lambda: actions.carry_out_overwatch(state, f, ow)


def _check_take_cover(state: StreetFightState, f: Figure, params: dict[str, Any]) -> Any:
    actions.check_take_cover(state, f)
    return lambda: actions.carry_out_take_cover(state, f)


_checkers: dict[str, Kind[StreetFightState, Figure]] = {
    "move": Kind(frozenset({"to", "path", "floor"}), _check_move),
    "shoot": Kind(frozenset({"target", "targets"}), _check_shoot),
    "aim": Kind(frozenset(), _check_aim),
    "overwatch": Kind(frozenset({"point", "radius"}), _check_overwatch),
    "take-cover": Kind(frozenset(), _check_take_cover),
}

#: the parameters each order takes (any other is refused)
PARAMETERS: dict[str, frozenset[str]] = {
    "end": NO_PARAMETERS, **{kind: k.takes for kind, k in _checkers.items()}}

_DISPATCH: Dispatcher[StreetFightState, Figure] = Dispatcher(
    StreetFight.order_syntax, _checkers, turn.end_side_phase,
    lambda state, fid: state.figures.get(fid), lambda f: f.alive,
    noun="figure", out="is a casualty")


def _figure_orders(state: StreetFightState, figure: Figure) -> list[Order]:
    return [o for o in _candidates(state, figure) if _allowed(state, o)]


def _candidates(state: StreetFightState, figure: Figure) -> list[Order]:
    """The orders of a figure worth checking now (the legal ones are among them)."""
    side, fid = figure.side, figure.id
    candidates: list[Order] = []
    if state.phase is Phase.MOVE:
        for k in range(MOVE_HEADINGS):
            angle = 2 * pi * k / MOVE_HEADINGS
            for dist in MOVE_SAMPLES:
                to = [round(figure.pos.x + dist * cos(angle), 2),
                      round(figure.pos.y + dist * sin(angle), 2)]
                candidates.append(Order(side, "move", fid, {"to": to}))
        candidates.append(Order(side, "take-cover", fid))
        for seen in state.knowledge[side].sightings.values():
            if seen.visible and seen.alive:
                candidates.append(Order(side, "overwatch", fid, {"point": [seen.x, seen.y],
                                                                 "radius": 3.0}))
                break
    else:
        candidates.append(Order(side, "aim", fid))
        for enemy in state.side_figures(state.enemy_of(side)):
            if state.can_see(fid, enemy.id):
                candidates.append(Order(side, "shoot", fid, {"target": enemy.id}))
    return candidates


def _allowed(state: StreetFightState, order: Order) -> bool:
    return RULES.allows(state, order)


def _aim_preview(figure: Figure, params: dict[str, Any]) -> Preview:
    turns = min(figure.aim + 1, AIM_MAX_TURNS)
    text = (f"{figure.name} aims instead of firing: +{turns * AIM_STEP}% on its next shot "
            f"({turns} turn{'s' if turns > 1 else ''} of aiming); lost if it moves, fires "
            "or goes on overwatch")
    if figure.aim < AIM_MAX_TURNS:
        return Preview(text)
    # the rules cap the bonus: this turn's shoot action is spent for nothing
    return Preview(text + "; already the most, so this turn adds nothing",
                   risks=(Risk.WASTED,))


def _overwatch_preview(figure: Figure, params: dict[str, Any]) -> Preview:
    x, y = params["point"]
    radius = float(params.get("radius", OVERWATCH_POINT_RADIUS))
    large = radius > OVERWATCH_POINT_RADIUS
    text = (f"{figure.name} stays put and watches ({x:g}, {y:g}), radius {radius:g}in "
            f"({'a large area' if large else 'a point'}, "
            f"{OVERWATCH_AREA if large else OVERWATCH_POINT}% to hit): fires once at the "
            "first enemy moving through it or shooting from it, and not in the shoot phase")
    return Preview(text + (f"; its aiming (+{figure.aim * AIM_STEP}%) is lost"
                           if figure.aim else ""))


def _take_cover_preview(figure: Figure, params: dict[str, Any]) -> Preview:
    return Preview(f"{figure.name} takes full cover: no shot from a side where it has 1/2 cover or "
                   "better, until it moves or fires that way; no more moving this turn")


def _move_preview(state: StreetFightState, figure: Figure, plan: actions.MovePlan) -> Preview:
    """How far, where it ends (in the open, or the building, room and floor), whom it
    charges of the enemies the side sees, and what the move leaves it free to do."""
    end = plan.legs[-1]
    text = f"{figure.name} moves {plan.length:.1f}in and ends {_place_words(state, end)}"
    if plan.length > MOVE_NORMAL:
        return Preview(text + ": running - cannot fire or take cover this turn, counts "
                              "as moving next", becomes="run")
    charged = actions.seen_within_contact(state, figure, end)
    if charged:
        return Preview(text + f"; it charges {', '.join(charged)}: close combat at the end "
                              "of the turn")
    return Preview(text + f"; it may still shoot this turn ({MOVING_FIRER}% for moving)")


def _place_words(state: StreetFightState, at: Position) -> str:
    """`in the open`, or the building by name, the part of it where it has several (as
    the narration names it: `Epicerie Lemoine, store`) and the floor."""
    if at.section is None:
        return "in the open"
    building = state.battlefield.building_of(at.section)
    part = at.section.removeprefix(building.id).strip("-_").replace("-", " ")
    name = f"{building.name}, {part}" if len(building.sections) > 1 and part else building.name
    floor = f"floor {at.floor}" if at.floor else "the ground floor"
    return f"in {name}, on {floor}"


#: the previews of the orders that keep a figure where it is, in words
_STAYS: dict[str, Callable[[Figure, dict[str, Any]], Preview]] = {
    "aim": _aim_preview, "overwatch": _overwatch_preview, "take-cover": _take_cover_preview}


def _shot_preview(state: StreetFightState, figure: Figure, targets: list[Figure]) -> Preview:
    """Each target's range, cover, chance to hit a round and chance to be removed, as the
    odds work them out (a spread narrows when few rounds are rolled, so a target's chance
    to hit may depend on the rounds)."""
    found = firing_odds(figure.weapon, targets, actions.frontage,
                        lambda t, spread: situation(state, figure, t, spread=spread))
    lines = []
    best = 0
    for n, (target, odds) in enumerate(zip(targets, found.targets, strict=True)):
        s = situation(state, figure, target)
        chances = sorted({b.hit[b.covered.index(n)] for b in found.bursts if n in b.covered})
        best = max([best, *chances])
        hit = f"{chances[0]}%" if len(chances) == 1 else f"{chances[0]}-{chances[-1]}%"
        lines.append(f"{target.name}: range {s.range:.1f}in, {cover_words(s.cover)}, "
                     f"hit {hit} per round, kill {kill_chance(figure.weapon):.0%} per hit, "
                     f"removed {float(odds.removed):.0%}")
    removed = max((float(odds.removed) for odds in found.targets), default=0.0)
    text = "; ".join(lines)
    if best <= 0:
        return Preview(text + ": no round can hit", 0.0, risks=(Risk.HOPELESS,))
    return Preview(text, removed)


RULES = StreetFight()
register(RULES)
