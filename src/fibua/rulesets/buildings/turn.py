"""The turn, top to bottom: a new bag (kept Down and Ambush dice left out), dice drawn one
at a time with the game's generator (each draw seen by both sides), the drawn side's order,
the turn's end (kept Down loses D3 pins), the turn limit with its roll for one more turn,
and the scoring."""

from __future__ import annotations

from fibua.core.dice import roll
from fibua.core.ruleset import Result
from fibua.rulesets.buildings.indirect import arrivals
from fibua.rulesets.buildings.knowledge import refresh, watchers
from fibua.rulesets.buildings.morale import kept_down
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import OrderKind
from fibua.scenario.objectives import decide, victory_points

KEEPS = frozenset({OrderKind.DOWN, OrderKind.AMBUSH})


def start_game(state: BuildingsState) -> None:
    refresh(state)
    begin_turn(state)


def begin_turn(state: BuildingsState) -> None:
    state.turn += 1
    if state.turn > state.limit and not _one_more(state):
        finish(state, "turn limit reached")
        return
    for unit in state.units.values():
        keep = unit.alive and (unit.order is OrderKind.AMBUSH
                               or (unit.order is OrderKind.DOWN and unit.keep_down))
        unit.kept = keep and not unit.kept
        if not unit.kept:
            unit.order = None
        unit.keep_down = False
    state.emit("turn", {"turn": state.turn, "bag": dict(state.bag().dice)}, state.sides)
    arrivals(state)
    refresh(state)
    if decided(state):
        finish(state, "a side has no units left")
        return
    if state.waiting is None:  # else a unit hit by a strike or barrage answers first
        draw(state)


def _one_more(state: BuildingsState) -> bool:
    """After the last turn, a D6 (once) may play one more."""
    on = state.options.extra_turn_on
    if state.extra_rolled or on is None:
        return False
    state.extra_rolled = True
    made = roll(state.rng, "d6", "one more turn", need=on)
    state.emit("extra-turn", {"roll": made.to_dict(), "played": bool(made.success)},
               state.sides)
    if made.success:
        state.limit += 1
    return bool(made.success)


def draw(state: BuildingsState) -> None:
    """Draw the next die; an empty bag ends the turn."""
    state.drawn = None
    if state.result is not None:
        return
    bag = state.bag()
    if bag.empty:
        end_turn(state)
        return
    drawn, left = bag.draw(state.rng)
    state.drawn = drawn.side
    state.emit("order-die", {"side": drawn.side, "roll": drawn.roll.to_dict(),
                             "left": dict(left.dice)}, state.sides)


def can_act(state: BuildingsState, unit: Unit) -> bool:
    """A unit may be given the drawn die: its side's, alive, with no order yet."""
    return (state.result is None and state.waiting is None and unit.alive
            and unit.side == state.drawn and unit.order is None)


def after_order(state: BuildingsState) -> None:
    refresh(state)
    if decided(state):
        finish(state, "a side has no units left")
        return
    if state.waiting is None:
        draw(state)


def end_turn(state: BuildingsState) -> None:
    for unit in state.units.values():
        if unit.alive and unit.kept and unit.order is OrderKind.DOWN:
            made, left = kept_down(state.rng, unit.pins)
            unit.pins = left
            state.emit("kept-down", {"unit": unit.id, "roll": made.to_dict(),
                                     "pins": left}, watchers(state, unit))
    state.emit("turn-end", {"turn": state.turn}, state.sides)
    begin_turn(state)


def decided(state: BuildingsState) -> bool:
    return any(not state.side_units(side) for side in state.sides)


def finish(state: BuildingsState, reason: str) -> None:
    state.drawn = None
    state.waiting = None
    state.result = score(state, reason)
    state.emit("game-over", state.result.to_dict(), state.sides)


def score(state: BuildingsState, reason: str) -> Result:
    """A side with no units left loses; else objective points, then more enemy units
    destroyed, else a draw."""
    alive = {side: state.side_units(side) for side in state.sides}
    gone = [s for s in state.sides if not alive[s]]
    if len(gone) == 1:
        return Result(state.enemy_of(gone[0]), f"{reason}: {gone[0]} has no units left",
                      {side: 0.0 for side in state.sides})
    points = victory_points(state.scenario.victory, alive)
    killed = {s: float(state.destroyed_by.get(s, 0)) for s in state.sides}
    return decide(reason, points, "on objectives", killed, "on enemy units destroyed")
