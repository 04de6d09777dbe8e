"""The seven actions a unit can be given each turn. Each is checked completely first
(IllegalOrder, nothing changed) and returns a plan; carrying out the plan changes the game.

move (full distance, no fire) | move-fire (half distance, then fire with low effect) |
shoot (maximum effect, or indirect fire at a point) | assault (a building area, infantry) |
mount / dismount | observe | flat-out (double distance, no fire, no observation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.core.params import point, require_on_table, waypoints
from fibua.rulesets.street_fighter.combat import can_harm, close_assault, fire
from fibua.rulesets.street_fighter.ground import (
    blocked_for,
    distance_to_section,
    range_between,
)
from fibua.rulesets.street_fighter.knowledge import touched
from fibua.rulesets.street_fighter.shooting import base_need
from fibua.rulesets.street_fighter.state import Activity, Marker, StreetFighterState, Unit
from fibua.rulesets.street_fighter.tables import MOUNT_REACH, Body, Kind, Row, a_or_an

FLAT_OUT_FACTOR = 2.0
HALF = 0.5
EPS = 1e-6


def require_ready(state: StreetFighterState, unit: Unit, riding_ok: bool = False) -> None:
    if unit.acted:
        raise IllegalOrder(f"{unit.name} has already had its action this turn", code="acted")
    if state.demoralised(unit):
        raise IllegalOrder(f"{unit.name} is demoralised and takes no orders", code="morale")
    if unit.rides is not None and not riding_ok:
        raise IllegalOrder(f"{unit.name} is riding in a vehicle: dismount it first",
                           code="mounted")


def _require_free(unit: Unit) -> None:
    if unit.pinned:
        raise IllegalOrder(f"{unit.name} is pinned and cannot move", code="pinned")


def held_sections(state: StreetFighterState, side: str) -> frozenset[str]:
    """Building areas the side's troops stand in: the only ones it may walk into."""
    return frozenset(u.pos.section for u in state.side_units(side)
                     if u.pos.section is not None and u.rides is None)


# ---------------------------------------------------------------- movement


@dataclass(frozen=True, slots=True)
class MovePlan:
    unit: str
    legs: tuple[Position, ...]
    length: float
    activity: Activity


def allowance(unit: Unit, activity: Activity) -> float:
    factor = {Activity.MOVED: 1.0, Activity.MOVED_FIRED: HALF,
              Activity.FLAT_OUT: FLAT_OUT_FACTOR}[activity]
    return unit.spec.move * factor


def plan_move(state: StreetFighterState, unit: Unit, params: dict[str, Any],
              activity: Activity) -> MovePlan:
    require_ready(state, unit)
    _require_free(unit)
    if "to" in params and "path" in params:
        raise IllegalOrder("give to=x,y or path=[[x,y],...], not both", code="bad-parameter")
    points = waypoints(params)
    for x, y in points:
        require_on_table(state.battlefield.table, x, y)
    legs, length = _trace(state, unit, points)
    most = allowance(unit, activity)
    if length > most + EPS:
        raise IllegalOrder(f"that move is {length:.1f} cm; {unit.name} may go {most:g} cm "
                           f"with this action", code="too-far")
    return MovePlan(unit.id, legs, length, activity)


def _trace(state: StreetFighterState, unit: Unit,
           points: list[tuple[float, float]]) -> tuple[tuple[Position, ...], float]:
    sight = state.sight
    open_to = held_sections(state, unit.side)
    here = unit.pos
    legs: list[Position] = []
    length = 0.0
    for x, y in points:
        there = Position(x, y, sight.section_at((x, y)))
        why = blocked_for(sight, here, there, unit.spec.foot, open_to)
        if why:
            raise IllegalOrder(f"cannot move from ({here.x:g}, {here.y:g}) to ({x:g}, {y:g}): "
                               f"{why}", code="blocked")
        length += here.distance(there)
        legs.append(there)
        here = there
    return tuple(legs), length


def carry_out_move(state: StreetFighterState, unit: Unit, plan: MovePlan) -> None:
    start = unit.pos
    unit.pos = plan.legs[-1]
    for p in unit.passengers:
        state.units[p].pos = unit.pos
        touched(state, state.units[p])
    unit.activity = plan.activity
    unit.acted = True
    touched(state, unit)
    state.emit("moved", {"unit": unit.id, "from": list(start.point),
                         "to": list(unit.pos.point), "section": unit.pos.section,
                         "cm": round(plan.length, 2), "activity": str(plan.activity)},
               (unit.side,))


# ---------------------------------------------------------------- fire


@dataclass(frozen=True, slots=True)
class FirePlan:
    unit: str
    target: str
    row: Row
    moved: bool


def check_fire(state: StreetFighterState, unit: Unit, params: dict[str, Any],
               at: Position, moved: bool) -> FirePlan:
    """A direct firing from `at` (where the unit will stand) at a unit its side sees."""
    row = _row(unit, params.get("weapon"))
    raw = params.get("target")
    if not isinstance(raw, str):
        raise IllegalOrder("shoot needs target=ID (or point=x,y for indirect fire)",
                           code="bad-parameter")
    target = _seen_target(state, unit, raw, at)
    # judged on the target's kind alone, which the side sees: whether anyone rides inside
    # an armoured vehicle is found out by firing at it (see combat.fire), not by asking
    if not can_harm(row, target.kind):
        raise IllegalOrder(f"{unit.name}'s {row} fire cannot harm a tank",
                           code="no-effect")
    if row is Row.ROCKET and not target.spec.vehicle:
        raise IllegalOrder("an anti-tank rocket is fired at vehicles only", code="no-effect")
    base_need(row, range_between(state.sight, at, target.pos))
    return FirePlan(unit.id, target.id, row, moved)


def _row(unit: Unit, weapon: Any) -> Row:
    if weapon is None:
        if unit.spec.row is None:
            raise IllegalOrder(f"{a_or_an(unit.spec.title)} has no weapons", code="unarmed")
        return unit.spec.row
    if weapon == "rocket" and unit.spec.rocket:
        return Row.ROCKET
    raise IllegalOrder(f"{unit.name} has no weapon {weapon!r}", code="bad-parameter")


def _seen_target(state: StreetFighterState, unit: Unit, target_id: str, at: Position) -> Unit:
    # the same words whether the unit is hidden or does not exist: nothing leaks
    known = state.knowledge[unit.side].get(target_id)
    target = state.units.get(target_id)
    if known is None or not known.visible or target is None or not target.alive or \
            target.side == unit.side or not state.sight.visible(at, target.pos):
        raise IllegalOrder(f"{unit.name} sees no enemy {target_id!r}", code="no-target")
    return target


def carry_out_fire(state: StreetFighterState, unit: Unit, plan: FirePlan) -> None:
    target = state.units[plan.target]
    if target.alive and target.rides is None:
        fire(state, unit, target, plan.row, plan.moved)


@dataclass(frozen=True, slots=True)
class IndirectPlan:
    unit: str
    x: float
    y: float
    artillery: bool


def check_indirect(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> IndirectPlan:
    x, y = point(params.get("point"), "point")
    require_on_table(state.battlefield.table, x, y)
    artillery = not unit.spec.indirect
    if artillery and (unit.kind is not Kind.HQ or state.artillery.get(unit.side, 0) <= 0):
        raise IllegalOrder(f"{unit.name} cannot bring down indirect fire (mortar sections "
                           "can; HQ sections call the artillery while missions last)",
                           code="no-indirect")
    # mortars fire where they are told (the seed: "where you want"); artillery needs the
    # calling HQ to see the point, as its forward observer
    spot = Position(x, y, state.sight.section_at((x, y)))
    if artillery and not state.sight.visible(unit.pos, spot):
        raise IllegalOrder(f"{unit.name} cannot see ({x:g}, {y:g}) to direct the fire",
                           code="unseen-point")
    return IndirectPlan(unit.id, x, y, artillery)


def carry_out_indirect(state: StreetFighterState, unit: Unit, plan: IndirectPlan) -> None:
    if plan.artillery:
        state.artillery[unit.side] -= 1
    source = unit.pos.point
    state.markers.append(Marker(unit.side, unit.id, plan.x, plan.y, state.turn, source,
                                plan.artillery))
    unit.last_fired_turn = state.turn
    state.emit("fire-called", {"unit": unit.id, "point": [plan.x, plan.y],
                               "artillery": plan.artillery}, (unit.side,))


# ---------------------------------------------------------------- close assault


@dataclass(frozen=True, slots=True)
class AssaultPlan:
    units: tuple[str, ...]
    section: str


def check_assault(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> AssaultPlan:
    section = params.get("section")
    if not isinstance(section, str) or section not in state.battlefield.section_ids:
        raise IllegalOrder(f"assault needs section=ID of a building area, not {section!r}",
                           code="bad-parameter")
    others = params.get("with", [])
    if not isinstance(others, list) or not all(isinstance(o, str) for o in others):
        raise IllegalOrder("with must be a list of unit ids", code="bad-parameter")
    if section in held_sections(state, unit.side):
        raise IllegalOrder(f"your troops already hold {section!r}: move in", code="held")
    ids = [unit.id, *others]
    if len(set(ids)) != len(ids):
        raise IllegalOrder("a unit is named twice", code="bad-parameter")
    for uid in ids:
        _check_assaulter(state, unit.side, uid, section)
    return AssaultPlan(tuple(ids), section)


def _check_assaulter(state: StreetFighterState, side: str, uid: str, section: str) -> None:
    member = state.units.get(uid)
    if member is None or member.side != side or not member.alive:
        raise IllegalOrder(f"{side} has no unit {uid!r}", code="no-unit")
    require_ready(state, member)
    _require_free(member)
    if member.spec.assault_points == 0:
        raise IllegalOrder(f"only infantry close assault; {member.name} cannot",
                           code="not-infantry")
    gap = distance_to_section(state.sight, member.pos, section)
    if gap > member.spec.move + EPS:
        raise IllegalOrder(f"{member.name} is {gap:.1f} cm from {section!r}; it must be within "
                           f"{member.spec.move:g} cm to assault", code="too-far")


def carry_out_assault(state: StreetFighterState, plan: AssaultPlan) -> None:
    units = [state.units[u] for u in plan.units]
    for u in units:
        u.activity = Activity.ASSAULTED
        u.acted = True
        touched(state, u)
    close_assault(state, units, plan.section)


# ---------------------------------------------------------------- mount and dismount


def check_mount(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Unit:
    require_ready(state, unit)
    _require_free(unit)
    if unit.spec.body is not Body.FOOT:
        raise IllegalOrder(f"{a_or_an(unit.spec.title)} cannot ride in a vehicle",
                           code="cannot-ride")
    vid = params.get("vehicle")
    vehicle = state.units.get(vid) if isinstance(vid, str) else None
    if vehicle is None or vehicle.side != unit.side or not vehicle.alive:
        raise IllegalOrder(f"{unit.side} has no vehicle {vid!r}", code="no-vehicle")
    if len(vehicle.passengers) >= vehicle.spec.capacity:
        raise IllegalOrder(f"{vehicle.name} has no room", code="full")
    if unit.pos.section is not None:
        raise IllegalOrder(f"{unit.name} must be out in the street to mount", code="in-building")
    if unit.pos.distance(vehicle.pos) > MOUNT_REACH + EPS:
        raise IllegalOrder(f"{vehicle.name} is more than {MOUNT_REACH:g} cm away", code="too-far")
    return vehicle


def carry_out_mount(state: StreetFighterState, unit: Unit, vehicle: Unit) -> None:
    unit.rides = vehicle.id
    vehicle.passengers.append(unit.id)
    unit.pos = vehicle.pos
    unit.activity = Activity.MOUNTED
    unit.acted = True
    touched(state, unit)
    state.emit("mounted", {"unit": unit.id, "vehicle": vehicle.id}, (unit.side,))


def check_dismount(state: StreetFighterState, unit: Unit, params: dict[str, Any]) -> Position:
    require_ready(state, unit, riding_ok=True)
    _require_free(unit)
    if unit.rides is None:
        raise IllegalOrder(f"{unit.name} is not riding in a vehicle", code="not-mounted")
    vehicle = state.units[unit.rides]
    x, y = point(params["to"], "to") if "to" in params else vehicle.pos.point
    require_on_table(state.battlefield.table, x, y)
    there = Position(x, y, state.sight.section_at((x, y)))
    if vehicle.pos.distance(there) > MOUNT_REACH + EPS:
        raise IllegalOrder(f"dismount within {MOUNT_REACH:g} cm of the vehicle", code="too-far")
    why = blocked_for(state.sight, vehicle.pos, there, True, held_sections(state, unit.side))
    if why:
        raise IllegalOrder(f"cannot dismount there: {why}", code="blocked")
    return there


def carry_out_dismount(state: StreetFighterState, unit: Unit, there: Position) -> None:
    assert unit.rides is not None
    state.units[unit.rides].passengers.remove(unit.id)
    unit.rides = None
    unit.pos = there
    unit.activity = Activity.MOUNTED
    unit.acted = True
    touched(state, unit)
    state.emit("dismounted", {"unit": unit.id, "at": list(there.point)}, (unit.side,))


# ---------------------------------------------------------------- observe


def check_observe(state: StreetFighterState, unit: Unit) -> None:
    require_ready(state, unit)


def carry_out_observe(state: StreetFighterState, unit: Unit) -> None:
    unit.activity = Activity.OBSERVING
    unit.acted = True
    touched(state, unit)
    state.emit("observing", {"unit": unit.id}, (unit.side,))
