"""The turn: initiative, the move phase, the shoot phase, close combat, morale; and the end
of the game with its scoring."""

from __future__ import annotations

from fibua.core.dice import roll
from fibua.core.ruleset import Result
from fibua.rulesets.street_fight.combat import close_combat_phase
from fibua.rulesets.street_fight.contact import engaged
from fibua.rulesets.street_fight.knowledge import refresh_sight
from fibua.rulesets.street_fight.morale import fall_back, morale_phase
from fibua.rulesets.street_fight.state import Figure, Phase, StreetFightState
from fibua.scenario.objectives import decide, victory_points


def begin_turn(state: StreetFightState) -> None:
    state.turn += 1
    if state.turn > state.scenario.scenario.turns:
        finish(state, "turn limit reached")
        return
    state.emit("turn", {"turn": state.turn}, state.sides)
    if state.turn == 1 or not state.options.fixed_initiative:
        roll_initiative(state)
    for figure in list(state.figures.values()):
        if figure.alive and figure.fleeing_from is not None:
            fall_back(state, figure)
    state.phase = Phase.MOVE
    state.acting = 0
    _open_side_phase(state)


def roll_initiative(state: StreetFightState) -> None:
    """Each side rolls a d10, ties rolled again; the highest acts first."""
    while True:
        rolls = {side: roll(state.rng, "d10", f"initiative: {side}") for side in state.sides}
        state.emit("initiative", {side: r.to_dict() for side, r in rolls.items()}, state.sides)
        first, second = state.sides
        if rolls[first].total != rolls[second].total:
            break
    state.initiative = sorted(state.sides, key=lambda s: -rolls[s].total)
    state.emit("initiative-order", {"order": state.initiative}, state.sides)


def end_side_phase(state: StreetFightState) -> None:
    """The acting side is done with this phase: the next side, the next phase or turn."""
    state.acting += 1
    if state.acting < len(state.initiative):
        _open_side_phase(state)
        return
    if state.phase is Phase.MOVE:
        state.phase = Phase.SHOOT
        state.acting = 0
        _open_side_phase(state)
        return
    close_combat_phase(state)
    if state.options.morale:
        morale_phase(state)
    end_turn(state)


def _open_side_phase(state: StreetFightState) -> None:
    side = state.initiative[state.acting]
    if state.phase is Phase.MOVE:
        for figure in state.side_figures(side):
            figure.overwatch = None  # overwatch lasts until the figure's next move phase
    state.emit("phase", {"phase": str(state.phase), "side": side}, state.sides)
    if not any(can_act(state, f) for f in state.side_figures(side)):
        # said to both sides, as the phase is: either sees it pass with no order given
        state.emit("phase-passed", {"phase": str(state.phase), "side": side}, state.sides)
        end_side_phase(state)


def can_act(state: StreetFightState, figure: Figure) -> bool:
    """Whether the figure can still be given any order in the current phase."""
    if not figure.steady:
        return False
    if state.phase is Phase.MOVE:
        ready = figure.moved == 0 and figure.overwatch is None and not figure.took_cover
    else:
        ready = not figure.fired and not figure.ran and figure.overwatch is None and (
            figure.arms.moves_and_fires or not figure.counts_as_moving
        )
    # close combat is looked for last: it scans the enemies
    return ready and not engaged(state, figure)


def end_turn(state: StreetFightState) -> None:
    for figure in state.figures.values():
        figure.ran_last_turn = figure.ran
        figure.moved = 0.0
        figure.fired = False
        figure.took_cover = False
        figure.charged = False
        figure.sheltering = max(0, figure.sheltering - 1)
    # the enemies in sight that stopped moving are seen to have stopped
    refresh_sight(state, [])
    if any(not state.side_figures(side) for side in state.sides):
        finish(state, "a side has no figures left")
        return
    begin_turn(state)


def finish(state: StreetFightState, reason: str) -> None:
    state.result = score(state, reason)
    state.emit("game-over", state.result.to_dict(), state.sides)


def score(state: StreetFightState, reason: str) -> Result:
    """Victory points from the scenario; a side wiped out loses outright; equal points
    go to the side that caused more casualties, else a draw."""
    alive = {side: state.side_figures(side) for side in state.sides}
    wiped = [side for side in state.sides if not alive[side]]
    kills = {side: sum(1 for f in state.figures.values() if f.side != side and not f.alive)
             for side in state.sides}
    if len(wiped) == 1:
        winner = state.enemy_of(wiped[0])
        scores = {s: float(kills[s]) for s in kills}
        return Result(winner, f"{reason}: {wiped[0]} wiped out", scores)
    points = victory_points(state.scenario.victory, alive)
    if not state.scenario.victory:
        points = {s: float(kills[s]) for s in kills}
    return decide(reason, points, "on points", kills, "on casualties")
