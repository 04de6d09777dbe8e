"""The House-Clearing rule set: the one interface the engine talks to."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import cos, pi, sin
from typing import Any, ClassVar

from fibua.core.counters import Counter
from fibua.core.dispatch import DispatchedRuleSet, Dispatcher, Kind
from fibua.core.errors import Problem
from fibua.core.events import Event, drain
from fibua.core.orderforms import OrderForms, syntax_lines
from fibua.core.orders import Order
from fibua.core.ruleset import Notes, OddsQuery, Player, Preview, Result, Seat, register
from fibua.rulesets.house_clearing import actions, codes, forecast, sampling, setup, turn
from fibua.rulesets.house_clearing.counters import counters as side_counters
from fibua.rulesets.house_clearing.firing import loaders
from fibua.rulesets.house_clearing.forces import Forces, Options
from fibua.rulesets.house_clearing.knowledge import refresh_all
from fibua.rulesets.house_clearing.odds import ODDS_QUERIES
from fibua.rulesets.house_clearing.orderforms import ORDER_KINDS
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState, Phase
from fibua.rulesets.house_clearing.tables import Stance
from fibua.rulesets.house_clearing.views import SideView, observe, own_dicts, view_dict
from fibua.scenario.schema import Scenario

MOVE_HEADINGS = 8
MOVE_SAMPLES = (1.0, 3.0, 6.0, 9.0)

Action = Callable[[], None]


class HouseClearing(DispatchedRuleSet[HouseClearingState, Figure]):
    name: ClassVar[str] = "house-clearing"
    title: ClassVar[str] = "House-Clearing: D100 skirmish with initiative and body cover"
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

    def seats(self, scenario: Scenario, side: str) -> list[Seat]:
        return setup.seats(scenario, side)

    def new_state(self, scenario: Scenario, seed: int, rng: Any = None) -> HouseClearingState:
        return setup.new_state(scenario, seed, rng)

    def start(self, state: HouseClearingState) -> list[Event]:
        for side in state.sides:
            own = [{"id": f.id, "name": f.name, "weapon": str(f.weapon), "player": f.unit,
                    "initiative": f.initiative, "skill": f.skill}
                   for f in state.figures.values() if f.side == side]
            state.emit("deployed", {"side": side, "figures": own}, (side,))
        refresh_all(state)
        turn.start_game(state)
        return drain(state)

    @property
    def dispatcher(self) -> Dispatcher[HouseClearingState, Figure]:
        return _DISPATCH

    def after_order(self, state: HouseClearingState, order: Order) -> None:
        turn.after_order(state)

    def preview(self, state: HouseClearingState, order: Order) -> str:
        return self.forecast(state, order).text

    def forecast(self, state: HouseClearingState, order: Order) -> Preview:
        self.check(state, order)
        return forecast.forecast(state, order)

    def legal_orders(self, state: HouseClearingState, side: str) -> list[Order]:
        if state.acting_side != side:
            return []
        orders = [Order(side, "end")]
        for figure in state.side_figures(side):
            orders += [o for o in _candidates(state, figure) if self.allows(state, o)]
        return orders

    def observe(self, state: HouseClearingState, side: str) -> SideView:
        return observe(state, side)

    def view(self, state: HouseClearingState, side: str) -> dict[str, Any]:
        return view_dict(state, observe(state, side))

    def own_view(self, state: HouseClearingState, side: str) -> list[dict[str, Any]]:
        return own_dicts(observe(state, side))

    def counters(self, state: HouseClearingState, side: str) -> list[Counter]:
        return side_counters(observe(state, side))

    def forced(self, state: HouseClearingState, side: str) -> Order | None:
        # a window to answer a move, or a shot at the mover, that no figure of the side
        # can (still) fire in: let the mover go
        reaction = state.reaction
        if reaction is not None and reaction.side == side and not reaction.firers \
                and state.result is None:
            return Order(side, "end")
        return None

    def snapshot(self, state: HouseClearingState) -> dict[str, Any]:
        return {
            "turn": state.turn, "phase": str(state.phase), "step": state.step,
            "top_step": state.top_step, "order": list(state.order), "acting": state.acting,
            "rng": state.rng.snapshot(),
            "figures": [f.snapshot() for f in state.figures.values()],
            "reaction": state.reaction.snapshot() if state.reaction else None,
            "declared": [d.snapshot() for d in state.declared],
            "exposure": sorted([a, b, n] for (a, b), n in state.exposure.items()),
            "seen": {side: {k: [s.x, s.y, s.section, s.floor, str(s.doing), s.turn,
                                s.visible, s.alive, s.step] for k, s in known.listed()}
                     for side, known in sorted(state.knowledge.items())},
            "result": state.result.to_dict() if state.result else None,
        }

    def after_action(self, state: HouseClearingState) -> list[str]:
        lines = []
        for f in state.figures.values():
            where = f" in {f.pos.section} floor {f.pos.floor}" if f.pos.section else ""
            # below 0 the initiative counts nothing: the figure is out of action
            state_words = f"initiative {f.initiative}" if f.in_action else "out of action"
            lines.append(f"{f.side}: {f.name} ({f.weapon}, skill {f.skill}) {state_words} at "
                         f"({f.pos.x:.1f}, {f.pos.y:.1f}){where}, {f.stance}")
        return lines

    can_resample = True

    def resample(self, state: HouseClearingState, side: str,
                 rng: random.Random) -> HouseClearingState:
        return sampling.resample(state, side, rng)

    def standing(self, state: HouseClearingState) -> Result:
        return turn.score(state, "were the game to end now")

    def strength(self, state: HouseClearingState, side: str) -> float:
        return sampling.strength(state, side)

    def computer(self, side: str, seed: int, units: frozenset[str] | None = None,
                 notes: Notes | None = None) -> Player:
        from fibua.rulesets.house_clearing.ai import Sergeant, map_notes

        return Sergeant(side, seed, units, map_notes(notes))


def _end(state: HouseClearingState) -> None:
    if state.reaction is not None:
        actions.end_reaction(state)
    else:
        turn.end_side_step(state)


def _check_move(state: HouseClearingState, f: Figure, params: dict[str, Any]) -> Action:
    plan = actions.check_move(state, f, params)
    return lambda: actions.carry_out_move(state, f, plan)


def _check_stance(state: HouseClearingState, f: Figure, params: dict[str, Any]) -> Action:
    stance = actions.check_stance_order(state, f, params)
    return lambda: actions.carry_out_stance(state, f, stance)


def _check_fire(state: HouseClearingState, f: Figure, params: dict[str, Any]) -> Action:
    plan = actions.check_fire(state, f, params)
    if state.reaction is not None:
        spot = actions.check_reaction_spot(state, f, plan)
        return lambda: actions.carry_out_reaction(state, f, plan, spot)
    return lambda: actions.carry_out_declare(state, f, plan)


#: the orders a figure takes (actions.py refuses unknown parameters too: preview and the
#: computer ask it directly)
_CHECKERS: dict[str, Kind[HouseClearingState, Figure]] = {
    "move": Kind(frozenset({"to", "path", "floor", "stance"}), _check_move),
    "stance": Kind(frozenset({"stance"}), _check_stance),
    "fire": Kind(frozenset({"target", "auto", "loader"}), _check_fire),
}

_DISPATCH: Dispatcher[HouseClearingState, Figure] = Dispatcher(
    HouseClearing.order_syntax, _CHECKERS, _end,
    lambda state, fid: state.figures.get(fid), lambda f: f.in_action,
    noun="figure", out="is out of action")


def _candidates(state: HouseClearingState, figure: Figure) -> list[Order]:
    """A useful sample of the orders a figure might be given now (checked by the caller)."""
    side, fid = figure.side, figure.id
    if state.reaction is not None:
        if figure.id not in state.reaction.firers:
            return []
        return _fire_variants(state, figure, state.reaction.mover, automatic=False)
    if state.phase is Phase.MOVE:
        if not turn.can_act(state, figure):
            return []
        out = [Order(side, "stance", fid, {"stance": str(s)}) for s in Stance
               if s is not figure.stance]
        for k in range(MOVE_HEADINGS):
            angle = 2 * pi * k / MOVE_HEADINGS
            for dist in MOVE_SAMPLES:
                to = [round(figure.pos.x + dist * cos(angle), 2),
                      round(figure.pos.y + dist * sin(angle), 2)]
                out.append(Order(side, "move", fid, {"to": to}))
        return out
    if not turn.can_act(state, figure):
        return []
    out = []
    for enemy in state.side_figures(state.enemy_of(side)):
        if state.sees(fid, enemy.id):
            out += _fire_variants(state, figure, enemy.id, figure.arms.auto is not None)
    return out


def _fire_variants(state: HouseClearingState, figure: Figure, target: str,
                   automatic: bool) -> list[Order]:
    side, fid = figure.side, figure.id
    crew = loaders(state, figure)[:1]
    params: list[dict[str, Any]] = [{"target": target}]
    if automatic:
        params.append({"target": target, "auto": True})
    params += [dict(p, loader=c.id) for p in params for c in crew]
    return [Order(side, "fire", fid, p) for p in params]


RULES = HouseClearing()
register(RULES)
