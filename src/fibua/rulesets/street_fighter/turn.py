"""The turn: indirect fire lands, each formation rolls its observation die, the sides give
their orders in the scenario's order, then morale and unpinning; and the end of the game
with its scoring."""

from __future__ import annotations

from math import cos, pi, sin

from fibua.battlefield.model import Position
from fibua.core.dice import roll
from fibua.core.ruleset import Result
from fibua.rulesets.street_fighter.combat import D10, take_hit
from fibua.rulesets.street_fighter.knowledge import refresh, report_fire
from fibua.rulesets.street_fighter.morale import morale_phase, unpin_phase
from fibua.rulesets.street_fighter.state import Activity, Marker, StreetFighterState, Unit
from fibua.rulesets.street_fighter.tables import (
    DRIFT,
    INDIRECT_NEED,
    INDIRECT_RADIUS,
    LANDING_LOST,
    LANDING_ON_TARGET,
)
from fibua.scenario.objectives import decide, victory_points

EDGE = 1e-9


def begin_turn(state: StreetFighterState) -> None:
    state.turn += 1
    if state.turn > state.scenario.scenario.turns:
        finish(state, "turn limit reached")
        return
    state.emit("turn", {"turn": state.turn}, state.sides)
    for marker in [m for m in state.markers if m.turn < state.turn]:
        state.markers.remove(marker)
        land(state, marker)
    if decided(state):
        finish(state, "a side has no units left")
        return
    roll_observation(state)
    state.acting = 0
    open_side(state)


def roll_observation(state: StreetFighterState) -> None:
    """One d10 per formation per turn, for all its spotting (Control keeps it secret)."""
    for formation in state.formations.values():
        if not any(state.units[u].alive for u in formation.units):
            formation.die = None
            continue
        die = state.record(roll(state.rng, D10, f"observation: {formation.name}"))
        formation.die = die.total
        state.emit("observation-die", {"formation": formation.id, "roll": die.to_dict()}, ())


def open_side(state: StreetFighterState) -> None:
    side = state.sides[state.acting]
    for unit in state.units.values():
        if unit.side == side:
            unit.acted = False
            unit.activity = Activity.IDLE
    state.emit("orders", {"side": side}, state.sides)
    refresh(state)
    if not any(can_act(state, u) for u in state.side_units(side)):
        end_side(state)


def can_act(state: StreetFighterState, unit: Unit) -> bool:
    return unit.alive and not unit.acted and not state.demoralised(unit)


def end_side(state: StreetFighterState) -> None:
    """The acting side is done: the next side, or the end of the turn."""
    state.acting += 1
    if state.acting < len(state.sides):
        open_side(state)
        return
    state.acting = len(state.sides) - 1
    morale_phase(state)
    unpin_phase(state)
    refresh(state)
    if decided(state):
        finish(state, "a side has no units left")
        return
    begin_turn(state)


# ---------------------------------------------------------------- indirect fire


def land(state: StreetFighterState, marker: Marker) -> None:
    """The landing roll: lost below 2, drifts 5 cm (d8 direction) below 5, else on target;
    then every unit within 5 cm but tanks is hit on 5+."""
    what = "artillery" if marker.artillery else "mortar fire"
    arrival = state.record(roll(state.rng, D10, f"{what} called by {marker.by} arrives"))
    x, y = marker.x, marker.y
    if arrival.total < LANDING_LOST:
        state.emit("fire-lost", {"by": marker.by, "roll": arrival.to_dict()}, (marker.side,))
        return
    drift = None
    if arrival.total < LANDING_ON_TARGET:
        way = state.record(roll(state.rng, "d8", "drift direction (1 = north, clockwise)"))
        x, y = drifted(x, y, way.total)
        drift = way.to_dict()
    state.emit("fire-lands", {"by": marker.by, "point": [round(x, 2), round(y, 2)],
                              "roll": arrival.to_dict(), "drift": drift}, (marker.side,))
    for unit in under_fire(state, x, y):
        bombard(state, marker, unit)


def drifted(x: float, y: float, way: int) -> tuple[float, float]:
    """Where fire drifts to from (x, y) on a d8 of `way` (1 = north, clockwise)."""
    angle = pi / 2 - (way - 1) * pi / 4
    return x + DRIFT * cos(angle), y + DRIFT * sin(angle)


def under_fire(state: StreetFighterState, x: float, y: float) -> list[Unit]:
    return [u for u in state.units.values()
            if u.alive and u.rides is None and not u.is_tank and in_blast(u.pos, x, y)]


def in_blast(pos: Position, x: float, y: float) -> bool:
    """Whether a place is under indirect fire come down at (x, y)."""
    return pos.distance(Position(x, y)) <= INDIRECT_RADIUS + EDGE


def bombard(state: StreetFighterState, marker: Marker, unit: Unit) -> None:
    hit = state.record(roll(state.rng, D10, f"indirect fire on {unit.name}", need=INDIRECT_NEED))
    state.emit("bombarded", {"unit": unit.id, "roll": hit.to_dict()}, ())
    seen = state.knowledge[marker.side].get(unit.id)
    if unit.side != marker.side and seen is not None and seen.visible:
        state.emit("bombard-result", {"unit": unit.id, "hit": bool(hit.success)},
                   (marker.side,))
    if hit.success:
        take_hit(state, unit, None, marker.source)
    report_fire(state, unit, marker.source, 1 if hit.success else 0)


# ---------------------------------------------------------------- the end


def decided(state: StreetFighterState) -> bool:
    return any(not state.side_units(side) for side in state.sides)


def finish(state: StreetFighterState, reason: str) -> None:
    state.result = score(state, reason)
    state.emit("game-over", state.result.to_dict(), state.sides)


def losses_inflicted(state: StreetFighterState, side: str) -> int:
    return sum(u.start_hp - (u.hp if u.alive else 0)
               for u in state.units.values() if u.side != side)


def score(state: StreetFighterState, reason: str) -> Result:
    """Objective points; equal points go to the side that inflicted more hit points of
    loss, else a draw."""
    alive = {side: state.side_units(side) for side in state.sides}
    points = victory_points(state.scenario.victory, alive)
    for goal in state.options.destroy:
        if goal.side in points and all(not state.units[u].alive for u in goal.units):
            points[goal.side] += goal.points
    inflicted = {s: float(losses_inflicted(state, s)) for s in state.sides}
    return decide(reason, points, "on objectives", inflicted, "on losses inflicted")
