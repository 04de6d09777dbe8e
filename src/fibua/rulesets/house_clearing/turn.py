"""The turn: figures move by initiative from the lowest to the highest, then fire from the
highest to the lowest; equal initiative is simultaneous. Within a step the sides give
their orders in turn; fire declared in a fire step is resolved once both sides have
declared, and its effects applied together. The end of the game and its scoring."""

from __future__ import annotations

from functools import cache

from fibua.core.dice import roll
from fibua.core.ruleset import Result
from fibua.rulesets.house_clearing.firing import (
    Outcome,
    Victim,
    apply_losses,
    cone_victims,
    fire,
    firing_row,
)
from fibua.rulesets.house_clearing.shooting import fire_row, reach
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState, Phase
from fibua.rulesets.house_clearing.tables import WEAPONS, WeaponName
from fibua.scenario.objectives import decide, victory_points


def start_game(state: HouseClearingState) -> None:
    begin_turn(state)
    next_step(state)


def begin_turn(state: HouseClearingState) -> None:
    """A new turn, before its first step (or the end of the game at the turn limit)."""
    state.turn += 1
    if state.turn > state.scenario.scenario.turns:
        finish(state, "turn limit reached")
        return
    for figure in state.figures.values():
        figure.moved = figure.fired = figure.reacted = figure.ducked = figure.loading = False
    state.order = _first_side(state)
    state.emit("turn", {"turn": state.turn, "first": state.order[0]}, state.sides)
    state.top_step = max([f.initiative for f in state.figures.values()] + [1])
    state.phase = Phase.MOVE
    state.step = 0


def _first_side(state: HouseClearingState) -> tuple[str, str]:
    """Sides alternate moving first in every step (option: a D6 each, ties again)."""
    a, b = state.sides
    if not state.options.roll_for_first:
        return (a, b) if state.turn % 2 == 1 else (b, a)
    while True:
        ra = roll(state.rng, "d6", f"first to move: {a}")
        rb = roll(state.rng, "d6", f"first to move: {b}")
        state.emit("first-roll", {a: ra.to_dict(), b: rb.to_dict()}, state.sides)
        if ra.value != rb.value:
            return (a, b) if ra.value > rb.value else (b, a)


def next_step(state: HouseClearingState) -> None:
    """On to the next initiative step in which some figure can act, turn after turn (a
    loop, not a recursion: whole turns can pass with nobody able to act)."""
    while state.result is None:
        if state.phase is Phase.MOVE and state.step < state.top_step:
            state.step += 1
        elif state.phase is Phase.MOVE:
            state.phase, state.step = Phase.FIRE, state.top_step
        elif state.step > 0:
            state.step -= 1
        else:
            if not check_wiped_out(state):
                begin_turn(state)
            continue
        if _open_step(state, 0):
            return


def _open_step(state: HouseClearingState, start: int) -> bool:
    """Hand the step to the first side, from `start`, that has a figure able to act. Only
    that side is told: which steps a side acts in gives away its figures' initiative."""
    for index in range(start, len(state.order)):
        side = state.order[index]
        if any(can_act(state, f) for f in state.side_figures(side)):
            state.acting = index
            state.emit("step", {"phase": str(state.phase), "step": state.step, "side": side},
                       (side,))
            return True
    return False


def can_act(state: HouseClearingState, figure: Figure) -> bool:
    """Whether the figure can still be given an order in the current step."""
    if not figure.in_action or figure.step != state.step:
        return False
    if state.phase is Phase.MOVE:
        reacted = figure.reacted and not state.options.move_after_reaction_fire
        return state.step >= 1 and not figure.moved and not reacted
    return not figure.fired and has_target(state, figure)


def has_target(state: HouseClearingState, figure: Figure) -> bool:
    """An enemy it sees within the furthest its weapon could fire, a loader or not: the
    enemy sees the figure too, and whether the side is asked must not hang on where a
    friend it cannot see (a loader) stands."""
    longest = longest_reach(figure)
    return any(
        state.sees(figure.id, e.id) and figure.pos.distance(e.pos) <= longest + 1e-9
        for e in state.side_figures(state.enemy_of(figure.side))
    )


def longest_reach(figure: Figure) -> float:
    """The furthest the figure's weapon fires in any mode, with its full crew."""
    return _longest_reach(figure.weapon)


@cache  # asked of every figure in every fire step: a few weapons, each worked out once
def _longest_reach(weapon: WeaponName) -> float:
    rows = [fire_row(weapon, False)]
    if WEAPONS[weapon].auto is not None:
        rows.append(fire_row(weapon, True))
    return float(max(reach(row) for row in rows))


def end_side_step(state: HouseClearingState) -> None:
    """The acting side is done with this step: the other side, or the step is over."""
    if _open_step(state, state.acting + 1):
        return
    if state.phase is Phase.FIRE:
        resolve_declared(state)
    if state.result is None:
        next_step(state)


def after_order(state: HouseClearingState) -> None:
    """Once an order is carried out: pass the step on when the acting side has no figure
    left to act in it."""
    if state.result is not None or state.reaction is not None:
        return
    if check_wiped_out(state):
        return
    side = state.order[state.acting]
    if not any(can_act(state, f) for f in state.side_figures(side)):
        end_side_step(state)


def resolve_declared(state: HouseClearingState) -> None:
    """All the fire declared in this step, then all of its effects together."""
    declared, state.declared = state.declared, []
    if not declared:
        return
    state.emit("fire-resolved", {"step": state.step}, state.sides)
    outcomes: list[Outcome] = []
    for d in declared:
        firer, target = state.figures[d.firer], state.figures[d.target]
        loader = state.figures[d.loader] if d.loader else None
        row = firing_row(firer, d.auto, loader)
        victims = cone_victims(state, firer, target, row) if d.auto else \
            [Victim(target, target.pos, state.fifths(firer.id, target.id))]
        outcomes += fire(state, firer, victims, row, d.auto)
    apply_losses(state, outcomes)
    check_wiped_out(state)


def check_wiped_out(state: HouseClearingState) -> bool:
    if state.result is None and any(not state.side_figures(s) for s in state.sides):
        finish(state, "a side has no figures left in action")
    return state.result is not None


def finish(state: HouseClearingState, reason: str) -> None:
    state.reaction = None
    state.result = score(state, reason)
    state.emit("game-over", state.result.to_dict(), state.sides)


def score(state: HouseClearingState, reason: str) -> Result:
    """Victory points from the scenario; a side with no one left in action loses
    outright; equal points go to the side that put more enemies out of action, else a
    draw."""
    alive = {side: state.side_figures(side) for side in state.sides}
    kills = {side: sum(1 for f in state.figures.values() if f.side != side
                       and not f.in_action) for side in state.sides}
    wiped = [side for side in state.sides if not alive[side]]
    if len(wiped) == 1:
        return Result(state.enemy_of(wiped[0]), f"{reason}: {wiped[0]} wiped out",
                      {s: float(kills[s]) for s in state.sides})
    points = victory_points(state.scenario.victory, alive)
    if not state.scenario.victory:
        points = {s: float(kills[s]) for s in state.sides}
    return decide(reason, points, "on points", kills, "on casualties")
