"""The six orders, each as `check_<kind>` (reads the parameters, returns a plan, changes
nothing, raises IllegalOrder) and `carry_out_<kind>` (the order test, then the order, each
roll an event); the reaction Down to a shot; Ambush fire; assaults.

Movement: outside, every model of a unit moves by the same step (so it keeps its
coherency), the first model's step no longer than the allowance, no model through a wall
or into a standing building. Inside, the unit's models stand at the section's middle and
the unit moves floor by floor or to a connected section; it enters with a Run to a
ground-floor door or window and leaves from one, each model placed near the point named.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import dist, hypot
from typing import Any

from fibua.battlefield.model import Position, Section, SectionState
from fibua.core.errors import IllegalOrder
from fibua.core.params import point
from fibua.rulesets.buildings.assault import (
    RoundResult,
    casualties,
    round_result,
    strike,
    strike_vehicle,
    surprise,
)
from fibua.rulesets.buildings.firing import (
    collapse,
    firers,
    he_only,
    knows_of,
    land_he,
    resolve,
    resolve_section,
    roll_he,
    section_firers,
    sides_used,
)
from fibua.rulesets.buildings.geometry import (
    centroid,
    distance_to_section,
    distance_to_segment,
    ground_doors,
)
from fibua.rulesets.buildings.indirect import (
    arrivals,
    check_call,
    check_indirect,
    check_indirect_at,
    fire_indirect,
    fire_indirect_at,
    indirect_land,
    indirect_roll,
    only_indirect,
    place_call,
    sees_section,
)
from fibua.rulesets.buildings.knowledge import enemy_sees, refresh, sees, tell, watchers
from fibua.rulesets.buildings.losses import add_pins, destroy, remove_models
from fibua.rulesets.buildings.morale import needs_test, order_test, rally
from fibua.rulesets.buildings.movement import allowance, coherent
from fibua.rulesets.buildings.shooting import Target
from fibua.rulesets.buildings.state import BuildingsState, Call, Unit, Waiting
from fibua.rulesets.buildings.tables import (
    ENTER_WITHIN,
    MOVEMENT,
    WEAPONS,
    Mobility,
    OrderKind,
    UnitKind,
    WeaponName,
)
from fibua.rulesets.buildings.transport import (
    bail_out,
    carry,
    follow,
    passenger_of,
    vehicle_result,
)
from fibua.rulesets.buildings.vehicles import check_tank_assault, tank_assault

EDGE = 1e-6
SPACING = 0.9  # inches between models placed on leaving a building (within coherency)
MOST_ROUNDS = 20  # a fight that ties this often ends with both sides where they are


@dataclass(frozen=True, slots=True)
class Move:
    """Where an order takes a unit: new model places outside, or a section and floor."""

    points: tuple[tuple[float, float], ...]
    section: str | None
    floor: int
    length: float
    mount: str | None = None  # the transport the unit gets into
    ram: str | None = None  # the section a heavy tank drives into
    via: str | None = None  # the section a Run passes through to a second one


@dataclass(frozen=True, slots=True)
class Plan:
    kind: OrderKind
    move: Move | None = None
    target: str | None = None
    assault: str | None = None
    keep: bool = False
    indirect: bool = False
    call: Call | None = None
    section: tuple[str, int] | None = None  # an empty section fired at, and the floor
    regroup: tuple[float, float] | None = None  # where a winning assaulter regroups to
    ambush_at: str = "first"  # where along a mover's path an Ambush fires
    opening: int | None = None  # the opening a team inside assigns its fixed weapon to
    take: bool = True  # a winning assaulter takes the floor it cleared
    more: tuple[str, ...] = ()  # further targets of a unit inside, a side of it each


def _refuse(reason: str, code: str) -> IllegalOrder:
    return IllegalOrder(reason, code=code)


def _enemy(state: BuildingsState, unit: Unit, params: dict[str, Any], key: str) -> Unit:
    ident = params.get(key)
    target = state.units.get(ident) if isinstance(ident, str) else None
    if target is None or target.side == unit.side or not target.alive:
        raise _refuse(f"{ident!r} is no enemy unit in the fight", "no-target")
    return target


def _ready(state: BuildingsState, unit: Unit) -> None:
    if state.waiting is not None:
        raise _refuse("a shot waits for its target's answer: down or end", "reacting")
    if unit.order is not None:
        raise _refuse(f"{unit.name} already has an order this turn", "has-order")


# ------------------------------------------------------------------ checks


def _flag(params: dict[str, Any], name: str) -> bool:
    value = params.get(name, False)
    if not isinstance(value, bool):
        raise _refuse(f"{name} is true or false", "bad-parameter")
    return value


def check_fire(state: BuildingsState, unit: Unit, params: dict[str, Any]) -> Plan:
    _ready(state, unit)
    if _flag(params, "call"):
        return Plan(OrderKind.FIRE, call=check_call(state, unit, params))
    if "at" in params:
        raise _refuse("at=X,Y is for an artillery observer's call=true", "bad-parameter")
    if "section" in params:
        return _check_at_section(state, unit, params,
                                 indirect=_flag(params, "indirect") or only_indirect(unit))
    if _flag(params, "indirect") or only_indirect(unit):
        target = _enemy(state, unit, params, "target")
        check_indirect(state, unit, target)
        return Plan(OrderKind.FIRE, target=target.id, indirect=True)
    if "targets" in params:
        return _check_targets(state, unit, params)
    target_id = _check_target(state, unit, params, advanced=False)
    return Plan(OrderKind.FIRE, target=target_id)


def _check_targets(state: BuildingsState, unit: Unit, params: dict[str, Any]) -> Plan:
    """targets=[A, B, ...]: a unit inside divides its fire, one target a side of its
    section (the seed: different targets on different sides of a building, all fire from
    each side at the same target); each in turn from a side the others leave."""
    ids = params["targets"]
    if "target" in params or not isinstance(ids, list) or len(ids) < 2 or \
            len(set(map(str, ids))) != len(ids):
        raise _refuse("targets=[A, B, ...] names two or more enemy units, instead of "
                      "target", "bad-parameter")
    if unit.section is None:
        raise _refuse("only a unit inside a building divides its fire between sides",
                      "outside")
    spent: frozenset[int] = frozenset()
    for tid in ids:
        target = _enemy(state, unit, {"target": tid}, "target")
        if not knows_of(state, unit, target) or not firers(state, unit, target, False,
                                                            spent):
            raise _refuse(f"{unit.name} has no side left that fires at {target.name}",
                          "no-sight")
        spent = sides_used(state, unit, target, False, spent)
    return Plan(OrderKind.FIRE, target=ids[0], more=tuple(ids[1:]))


def _check_at_section(state: BuildingsState, unit: Unit, params: dict[str, Any],
                      indirect: bool) -> Plan:
    """HE or a flamethrower at an empty section (on `floor`, the ground floor by default),
    or indirect fire at it (the shell falls through the floors)."""
    sid, floor = params["section"], params.get("floor", 0)
    if not isinstance(sid, str) or sid not in state.battlefield.section_ids:
        raise _refuse(f"no section {sid!r}", "no-section")
    if not isinstance(floor, int) or isinstance(floor, bool) or \
            not 0 <= floor < state.battlefield.section(sid).levels:
        raise _refuse(f"{sid} has no floor {floor!r}", "no-floor")
    if state.sight.section_state(sid) is not SectionState.INTACT:
        raise _refuse(f"{sid} is {state.sight.section_state(sid)}", "not-intact")
    # judged on what the side knows: a unit it does not see in there is hit all the same
    known = state.knowledge[unit.side]
    if any(u.alive and u.section == sid and (u.side == unit.side or known.sees(u.id))
           for u in state.units.values()):
        raise _refuse(f"{sid} holds a unit {unit.side} sees: fire at the unit",
                      "not-empty")
    if indirect:
        check_indirect_at(state, unit, sid)
        return Plan(OrderKind.FIRE, section=(sid, floor), indirect=True)
    if not section_firers(state, unit, sid):
        raise _refuse(f"no HE or flame weapon of {unit.name} reaches a wall of {sid} it "
                      "sees", "out-of-range")
    return Plan(OrderKind.FIRE, section=(sid, floor))


def _check_target(state: BuildingsState, unit: Unit, params: dict[str, Any],
                  advanced: bool) -> str:
    target = _enemy(state, unit, params, "target")
    if not knows_of(state, unit, target):
        raise _refuse(f"{unit.name} cannot see {target.id}", "no-sight")
    if not firers(state, unit, target, advanced):
        if not sees(state, unit, target):
            raise _refuse(f"{unit.name} has no line of fire to {target.id}", "no-sight")
        raise _refuse(f"no weapon of {unit.name} has {target.name} in range and line of "
                      "fire", "out-of-range")
    return target.id


def check_advance(state: BuildingsState, unit: Unit, params: dict[str, Any]) -> Plan:
    _ready(state, unit)
    move = _stay(unit) if _only_reassigns(params) else \
        check_move(state, unit, params, OrderKind.ADVANCE)
    target = None
    if "target" in params:
        # shooting is judged from where the move ends (carry_out_advance checks again)
        target = _enemy(state, unit, params, "target").id
    return Plan(OrderKind.ADVANCE, move=move, target=target,
                opening=_check_opening(state, unit, params, move))


def check_run(state: BuildingsState, unit: Unit, params: dict[str, Any]) -> Plan:
    _ready(state, unit)
    if "assault" in params:
        target = _enemy(state, unit, params, "assault")
        if target.aboard is not None:
            raise _refuse(f"{target.name} is aboard a vehicle: assault the vehicle",
                          "no-target")
        move = check_assault(state, unit, target)
        regroup = point(params["regroup"], "regroup") if "regroup" in params else None
        return Plan(OrderKind.RUN, move=move, assault=target.id, regroup=regroup,
                    take=_flag(params, "take") if "take" in params else True)
    if "regroup" in params or "take" in params:
        raise _refuse("regroup=X,Y and take= go with an assault", "bad-parameter")
    move = _stay(unit) if _only_reassigns(params) else \
        check_move(state, unit, params, OrderKind.RUN)
    return Plan(OrderKind.RUN, move=move, opening=_check_opening(state, unit, params, move))


_MOVES = ("to", "enter", "mount", "floor", "section")


def _only_reassigns(params: dict[str, Any]) -> bool:
    """An Advance or Run that only reassigns a team's fixed weapon (no move named)."""
    return "opening" in params and not any(k in params for k in _MOVES)


def _stay(unit: Unit) -> Move:
    if unit.section is None:
        raise _refuse("opening=K is for a team inside a building", "bad-parameter")
    return Move(tuple((m.x, m.y) for m in unit.models), unit.section, unit.floor, 0.0)


def _check_opening(state: BuildingsState, unit: Unit, params: dict[str, Any],
                   move: Move) -> int | None:
    """opening=K: a team with a fixed weapon (MMG, HMG) assigns it to opening K (the
    section's openings counted from 0) of the floor its move ends on."""
    if "opening" not in params:
        return None
    k = params["opening"]
    if unit.kind is not UnitKind.INFANTRY or not any(
            m.weapon is not None and WEAPONS[m.weapon].fixed for m in unit.models):
        raise _refuse(f"{unit.name} has no fixed weapon to assign (a gun never "
                      "reassigns)", "no-fixed-weapon")
    if move.section is None:
        raise _refuse("opening=K is for a team that ends its move inside", "bad-parameter")
    section = state.battlefield.section(move.section)
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(section.openings) \
            or section.openings[k].floor != move.floor:
        raise _refuse(f"{move.section} has no opening {k!r} on floor {move.floor}",
                      "no-opening")
    return k


def check_still(state: BuildingsState, unit: Unit, params: dict[str, Any],
                kind: OrderKind) -> Plan:
    keep = params.get("keep", False)
    if not isinstance(keep, bool):
        raise _refuse("keep is true or false", "bad-parameter")
    if kind is OrderKind.DOWN and state.waiting is not None:
        if state.waiting.target != unit.id:
            raise _refuse("only the unit shot at may go Down now", "reacting")
        return Plan(kind, keep=keep)
    _ready(state, unit)
    if keep and kind is not OrderKind.DOWN:
        raise _refuse("only a Down order keeps its die", "bad-parameter")
    at = params.get("at", "first")
    if at not in AMBUSH_POINTS:
        raise _refuse(f"at is one of {', '.join(AMBUSH_POINTS)}", "bad-parameter")
    return Plan(kind, keep=keep, ambush_at=str(at))


# ------------------------------------------------------------------ movement


def check_move(state: BuildingsState, unit: Unit, params: dict[str, Any],
               kind: OrderKind) -> Move:
    if unit.immobilised:
        raise _refuse(f"{unit.name} is immobilised", "cannot-move")
    reach = allowance(unit.mobility, kind)
    if reach is None or (unit.kind is UnitKind.GUN and unit.section is not None):
        raise _refuse(f"{unit.name} cannot move on a {kind} order", "cannot-move")
    if unit.aboard is not None and "to" not in params:
        raise _refuse(f"{unit.name} is aboard a transport: it dismounts with to=X,Y",
                      "aboard")
    if "mount" in params:
        return _check_mount(state, unit, params["mount"], kind, reach)
    if "enter" in params:
        return _check_enter(state, unit, params["enter"], kind, reach)
    if "floor" in params or "section" in params:
        return _check_inside_move(state, unit, params, kind)
    if "to" not in params:
        raise _refuse("a move names to=X,Y, enter=SECTION, or floor=N / section=S",
                      "bad-parameter")
    to = point(params["to"], "to")
    if unit.aboard is not None:
        return _check_dismount(state, unit, to, reach)
    if unit.section is not None:
        return _check_leave(state, unit, to, reach)
    return _check_outside(state, unit, to, reach)


def _rubble_at(state: BuildingsState, p: tuple[float, float]) -> bool:
    from fibua.battlefield.model import TerrainKind

    if state.sight.terrain_at(p) is TerrainKind.RUBBLE:
        return True
    sid = state.sight.section_at(p)
    return sid is not None and state.sight.section_state(sid) is SectionState.RUBBLE


#: the rules' memo entry (`SightEngine.memo`) of `_check_outside`, and its size at most
OUTSIDE = "buildings.actions.outside"
OUTSIDE_LIMIT = 50_000


def _check_outside(state: BuildingsState, unit: Unit, to: tuple[float, float],
                   reach: float) -> Move:
    """A move in the open: its plan, or its refusal.

    Kept in the rules' own memo of the sight engine (one for each set of the sections'
    states, see knowledge.py) by all that the check reads besides the map: the unit's name
    (refusals name it), its mobility (in rubble), where its models stand, the point, the
    reach and the coherency. The computer checks the moves of a unit that has not moved
    again order after order, most of them the same. A point or place on a zero (-0.0
    equals 0.0, and would move a model to the other) is checked afresh."""
    places = tuple([(m.x, m.y) for m in unit.models])
    if 0.0 in to or any(0.0 in p for p in places):
        return _outside_now(state, unit, to, reach)
    memo: dict[Any, Any] = state.sight.memo
    known: dict[tuple[object, ...], Move | tuple[str, str]] | None = memo.get(OUTSIDE)
    if known is None or len(known) >= OUTSIDE_LIMIT:
        known = memo[OUTSIDE] = {}
    key = (unit.name, unit.mobility, places, to, reach, state.options.coherency)
    found = known.get(key)
    if found is None:
        try:
            found = known[key] = _outside_now(state, unit, to, reach)
        except IllegalOrder as error:
            known[key] = (error.reason, error.code)
            raise
    elif type(found) is tuple:
        raise _refuse(*found)
    assert isinstance(found, Move)
    return found


def _outside_now(state: BuildingsState, unit: Unit, to: tuple[float, float],
                 reach: float) -> Move:
    """`_check_outside`, worked out."""
    lead = unit.lead
    dx, dy = to[0] - lead.x, to[1] - lead.y
    length = hypot(dx, dy)
    if _rubble_at(state, to):
        rubble = allowance(unit.mobility, OrderKind.ADVANCE, rubble=True)
        if rubble is None:
            raise _refuse(f"{unit.name} cannot enter rubble", "rubble")
        reach = min(reach, rubble)
    if length > reach + EDGE:
        raise _refuse(f"{length:.1f}in is beyond {unit.name}'s {reach:g}in", "too-far")
    points = tuple((m.x + dx, m.y + dy) for m in unit.models)
    _check_places(state, unit, [(m.x, m.y) for m in unit.models], points)
    return Move(points, None, 0, length)


def _check_places(state: BuildingsState, unit: Unit, start: list[tuple[float, float]],
                  points: tuple[tuple[float, float], ...]) -> None:
    table = state.battlefield.table
    for a, b in zip(start, points, strict=True):
        if not (0 <= b[0] <= table.width and 0 <= b[1] <= table.height):
            raise _refuse(f"({b[0]:.1f}, {b[1]:.1f}) is off the table", "off-table")
        sid = state.sight.section_at(b)
        if sid is not None and state.sight.section_state(sid) is not SectionState.RUBBLE:
            raise _refuse(f"({b[0]:.1f}, {b[1]:.1f}) is inside {sid}: enter with Run "
                          "enter=SECTION", "in-building")
        if state.sight.move_blocked(Position(a[0], a[1]), Position(b[0], b[1])):
            raise _refuse(f"a model's path to ({b[0]:.1f}, {b[1]:.1f}) goes through a wall",
                          "blocked")
    if not coherent(points, state.options.coherency):
        raise _refuse("the models would not keep together", "coherency")


def _check_mount(state: BuildingsState, unit: Unit, tid: Any, kind: OrderKind,
                 reach: float) -> Move:
    if kind is not OrderKind.RUN:
        raise _refuse("a unit mounts a transport only with a Run", "mount-run")
    ride = state.units.get(tid) if isinstance(tid, str) else None
    if ride is None or ride.side != unit.side or not ride.alive or ride.vehicle is None:
        raise _refuse(f"{tid!r} is no vehicle of {unit.side}", "no-transport")
    transport = state.units[ride.id]
    from fibua.rulesets.buildings.forces import Forces

    forces: Forces = state.scenario.forces_of(unit.side)
    if not any(s.id == transport.id and s.carries for s in forces.units):
        raise _refuse(f"{transport.name} carries no troops", "no-transport")
    if unit.kind is not UnitKind.INFANTRY or unit.section is not None \
            or unit.aboard is not None:
        raise _refuse("only infantry in the open mount a transport", "mount-infantry")
    if transport.carrying is not None and passenger_of(state, transport) is not None:
        raise _refuse(f"{transport.name} already carries a unit", "occupied")
    here = (transport.lead.x, transport.lead.y)
    for m in unit.models:
        if dist((m.x, m.y), here) > reach + ENTER_WITHIN + EDGE:
            raise _refuse(f"not every model can come within {ENTER_WITHIN:g}in of "
                          f"{transport.name}", "too-far")
    return Move(tuple(here for _ in unit.models), None, 0, dist((unit.lead.x, unit.lead.y), here),
                mount=transport.id)


def _check_dismount(state: BuildingsState, unit: Unit, to: tuple[float, float],
                    reach: float) -> Move:
    assert unit.aboard is not None
    ride = state.units[unit.aboard]
    start = (ride.lead.x, ride.lead.y)
    length = dist(start, to)
    if length > reach + EDGE:
        raise _refuse(f"{length:.1f}in from {ride.name} is beyond {reach:g}in", "too-far")
    points = tuple((to[0] + SPACING * (k % 4), to[1] + SPACING * (k // 4))
                   for k in range(len(unit.models)))
    _check_places(state, unit, [start] * len(points), points)
    return Move(points, None, 0, length)


def _check_ram(state: BuildingsState, unit: Unit, sid: Any, reach: float) -> Move:
    """A heavy tank's Run into contact with one intact wooden or brick section."""
    assert unit.vehicle is not None
    if not isinstance(sid, str) or sid not in state.battlefield.section_ids:
        raise _refuse(f"no section {sid!r}", "no-section")
    if state.sight.section_state(sid) is not SectionState.INTACT:
        raise _refuse(f"{sid} is {state.sight.section_state(sid)}", "not-intact")
    section = state.battlefield.section(sid)
    check_tank_assault(unit.vehicle, section.construction)
    gap = distance_to_section((unit.lead.x, unit.lead.y), section)
    if gap > reach + EDGE:
        raise _refuse(f"{sid} is {gap:.1f}in away, beyond the {reach:g}in Run", "too-far")
    return Move(((unit.lead.x, unit.lead.y),), None, 0, gap, ram=sid)


def _check_enter(state: BuildingsState, unit: Unit, sid: Any, kind: OrderKind,
                 reach: float) -> Move:
    if kind is not OrderKind.RUN:
        raise _refuse("a unit enters a building only with a Run", "enter-run")
    if unit.vehicle is not None:
        return _check_ram(state, unit, sid, reach)
    if unit.kind is not UnitKind.INFANTRY:
        raise _refuse("only infantry enter buildings", "enter-infantry")
    if not state.options.enter_buildings:
        raise _refuse("no unit goes into a building in this game (enter_buildings = "
                      "false)", "no-entering")
    if not isinstance(sid, str) or sid not in state.battlefield.section_ids:
        raise _refuse(f"no section {sid!r}", "no-section")
    if unit.section == sid:
        raise _refuse(f"{unit.name} is already inside; move with floor= or section=",
                      "inside")
    if unit.section is not None and unit.floor != 0:
        raise _refuse("a unit leaves a building from its ground floor", "not-ground")
    if state.sight.section_state(sid) is not SectionState.INTACT:
        raise _refuse(f"{sid} is {state.sight.section_state(sid)}", "not-intact")
    if _known_occupant(state, unit.side, sid, 0) is not None:
        raise _refuse(f"the ground floor of {sid} holds a unit", "occupied")
    section = state.battlefield.section(sid)
    doors = ground_doors(section)
    if not doors:
        raise _refuse(f"{sid} has no ground-floor door or window", "no-door")
    # from inside, one Run leaves by a ground-floor opening and enters the other building
    starts = [(m.x, m.y) for m in unit.models] if unit.section is None else \
        ground_doors(state.battlefield.section(unit.section))
    length = _reach_an_opening(state, starts, doors, reach, sid)
    if unit.section is None:
        for m in unit.models:
            if distance_to_section((m.x, m.y), section) > reach + ENTER_WITHIN + EDGE:
                raise _refuse(f"not every model can come within {ENTER_WITHIN:g}in of "
                              f"{sid}", "too-far")
    cx, cy = centroid(section)
    return Move(tuple((cx, cy) for _ in unit.models), sid, 0, length)


def _reach_an_opening(state: BuildingsState, starts: list[tuple[float, float]],
                      doors: list[tuple[float, float]], reach: float, sid: str) -> float:
    """The shortest clear way from one of the starts (any model: the seed asks only that
    one model reach an opening) to a ground-floor opening of the section, within reach."""
    ways = sorted((dist(a, d), a, d) for a in starts for d in doors)
    if not ways or ways[0][0] > reach + EDGE:
        near = ways[0][0] if ways else math.inf
        raise _refuse(f"the nearest door or window of {sid} is {near:.1f}in away, beyond "
                      f"{reach:g}in", "too-far")
    for length, a, d in ways:
        if length > reach + EDGE:
            break
        if not state.sight.move_blocked(Position(a[0], a[1]), Position(d[0], d[1])):
            return length
    raise _refuse(f"no clear path to a door or window of {sid}", "blocked")


def _connected(state: BuildingsState, a: str) -> set[str]:
    building = state.battlefield.building_of(a)
    out = set()
    for x, y in building.connections:
        if a in (x, y):
            other = y if x == a else x
            if state.sight.section_state(other) is SectionState.INTACT:
                out.add(other)
    return out


def _check_inside_move(state: BuildingsState, unit: Unit, params: dict[str, Any],
                       kind: OrderKind) -> Move:
    if unit.section is None:
        raise _refuse(f"{unit.name} is not inside a building", "outside")
    floor = params.get("floor", unit.floor)
    sid = params.get("section", unit.section)
    if not isinstance(floor, int) or isinstance(floor, bool):
        raise _refuse("floor is a whole number", "bad-parameter")
    if not isinstance(sid, str) or sid not in state.battlefield.section_ids:
        raise _refuse(f"no section {sid!r}", "no-section")
    steps = 1 if kind is OrderKind.ADVANCE else 2
    via: str | None = None
    if sid == unit.section:
        if floor == unit.floor:
            raise _refuse("the unit is there already", "no-move")
        if abs(floor - unit.floor) > steps:
            raise _refuse(f"a {kind} moves at most {steps} floor(s)", "too-far")
        section = state.battlefield.section(sid)
        if not 0 <= floor < section.levels:
            raise _refuse(f"{sid} has floors 0..{section.levels - 1}", "no-floor")
        lo, hi = sorted((unit.floor, floor))
        for f in range(lo + 1, hi):
            other = _known_occupant(state, unit.side, sid, f)
            if other is not None and other.side != unit.side:
                raise _refuse(f"an enemy holds floor {f}", "enemy-floor")
    else:
        if floor != unit.floor:
            raise _refuse("a move to another section keeps to the same floor", "no-floor")
        one = _connected(state, unit.section)
        if sid not in one:
            if steps == 1 or sid == unit.section:
                raise _refuse(f"{sid} is not connected to {unit.section}", "not-connected")
            via = _via(state, unit, sid, floor, one)
        if floor >= state.battlefield.section(sid).levels:
            raise _refuse(f"{sid} has no floor {floor}", "no-floor")
    if state.sight.section_state(sid) is not SectionState.INTACT:
        raise _refuse(f"{sid} is not intact", "not-intact")
    if _known_occupant(state, unit.side, sid, floor) is not None:
        raise _refuse(f"floor {floor} of {sid} holds a unit: one unit a floor", "occupied")
    cx, cy = centroid(state.battlefield.section(sid))
    return Move(tuple((cx, cy) for _ in unit.models), sid, floor, 0.0, via=via)


def _via(state: BuildingsState, unit: Unit, sid: str, floor: int, one: set[str]) -> str:
    """The section a Run passes through to reach a second one: connected to both, with the
    floor, no side over a standard move (the seed: running troops may not move through two
    sections at once where one is larger), and no enemy the side knows of on that floor."""
    ways = sorted(c for c in one if sid in _connected(state, c))
    if not ways:
        raise _refuse(f"{sid} is not connected to {unit.section} within 2", "not-connected")
    why = ""
    for c in ways:
        section = state.battlefield.section(c)
        other = _known_occupant(state, unit.side, c, floor)
        if floor >= section.levels:
            why = f"{c} has no floor {floor}"
        elif _larger_than_a_move(section):
            why = f"{c} is larger than a standard move: a Run goes through one section"
        elif other is not None and other.side != unit.side:
            why = f"an enemy holds floor {floor} of {c}"
        else:
            return c
    raise _refuse(why, "no-way-through")


def _larger_than_a_move(section: Section) -> bool:
    xs = [p[0] for p in section.footprint]
    ys = [p[1] for p in section.footprint]
    standard = MOVEMENT[Mobility.FOOT].advance
    return max(xs) - min(xs) > standard + EDGE or max(ys) - min(ys) > standard + EDGE


def _known_occupant(state: BuildingsState, side: str, sid: str, floor: int) -> Unit | None:
    """The unit on a floor as far as the side knows: its own, or an enemy it sees now (an
    order is judged on what the side knows; `_bumped` settles the rest)."""
    there = state.occupant(sid, floor)
    if there is None or there.side == side:
        return there
    return there if state.knowledge[side].sees(there.id) else None


def _bumped(state: BuildingsState, unit: Unit, move: Move) -> Unit | None:
    """An enemy the side did not see that stops a move into (or through) a floor."""
    sid = move.section
    if sid is None or (sid == unit.section and move.floor == unit.floor):
        return None
    if move.via is not None:
        there = state.occupant(move.via, move.floor)
        if there is not None and there.side != unit.side:
            return there
    floors = [move.floor]
    if sid == unit.section:
        lo, hi = sorted((unit.floor, move.floor))
        floors = list(range(lo + 1, hi + 1)) if move.floor > unit.floor else list(
            range(lo, hi))
    for f in floors:
        there = state.occupant(sid, f)
        if there is not None and there.side != unit.side:
            return there
    return None


def _check_leave(state: BuildingsState, unit: Unit, to: tuple[float, float],
                 reach: float) -> Move:
    assert unit.section is not None
    if unit.floor != 0:
        raise _refuse("a unit leaves a building from its ground floor", "not-ground")
    section = state.battlefield.section(unit.section)
    doors = [d for d in ground_doors(section)
             if not state.sight.move_blocked(Position(d[0], d[1]), Position(to[0], to[1]))]
    if not doors:
        raise _refuse("no ground-floor door or window leads there", "blocked")
    near = min(doors, key=lambda d: dist(d, to))
    length = dist(near, to)
    if length > reach + EDGE:
        raise _refuse(f"{length:.1f}in from the nearest opening is beyond {reach:g}in",
                      "too-far")
    points = tuple((to[0] + SPACING * (k % 4), to[1] + SPACING * (k // 4))
                   for k in range(len(unit.models)))
    _check_places(state, unit, [to] * len(points), points)
    return Move(points, None, 0, length)


# ------------------------------------------------------------------ assault


def adjoining(state: BuildingsState, unit: Unit, target: Unit) -> bool:
    """Whether both are inside one section or two connected ones: the assault is then
    made inside (a surprise, no reaction fire)."""
    if unit.section is None or target.section is None:
        return False
    return unit.section == target.section or target.section in _connected(state,
                                                                            unit.section)


def _starts(state: BuildingsState, unit: Unit) -> list[tuple[float, float]]:
    """Where an assault is measured from: the models, or from inside the ground-floor
    ways out (the seed: leaving is measured from any opening on the ground floor)."""
    if unit.section is not None:
        return ground_doors(state.battlefield.section(unit.section))
    return [(m.x, m.y) for m in unit.models]


def assault_distance(state: BuildingsState, unit: Unit, target: Unit) -> float:
    """How far the assault starts from its target, for a surprise charge: nearest model to
    nearest model, or to the section's walls; from inside, from the exit opening (option
    `leap_out_from_walls`: an enemy outside is measured to the building's walls)."""
    if unit.section is not None and target.section is None and \
            state.options.leap_out_from_walls:
        own = state.battlefield.section(unit.section)
        return min(distance_to_section((m.x, m.y), own) for m in target.models)
    starts = _starts(state, unit)
    if target.section is not None:
        section = state.battlefield.section(target.section)
        return min(distance_to_section(p, section) for p in starts)
    return min(dist(p, (m.x, m.y)) for p in starts for m in target.models)


def _charge(state: BuildingsState, unit: Unit, target: Unit) -> tuple[float, tuple[
        float, float] | None]:
    """The length of the charge and, at a building, the ground-floor opening it reaches
    (the seed: measure the move to any opening on the ground floor)."""
    starts = _starts(state, unit)
    if target.section is None:
        return assault_distance(state, unit, target), None
    doors = ground_doors(state.battlefield.section(target.section))
    if not doors:
        raise _refuse(f"{target.section} has no ground-floor way in", "no-door")
    gap, door = min((dist(p, d), d) for p in starts for d in doors)
    return gap, door


def check_assault(state: BuildingsState, unit: Unit, target: Unit) -> Move:
    if unit.aboard is not None:
        raise _refuse(f"{unit.name} is aboard a transport: it dismounts first", "aboard")
    if unit.kind is not UnitKind.INFANTRY:
        raise _refuse("only infantry assault here", "assault-infantry")
    reach = allowance(unit.mobility, OrderKind.RUN)
    if reach is None:
        raise _refuse(f"{unit.name} cannot Run", "cannot-move")
    if adjoining(state, unit, target):
        return _check_inside_assault(state, unit, target)
    seen = sees(state, unit, target) or (
        target.section is not None and sees_section(state, unit, target.section))
    if not seen:
        raise _refuse(f"{unit.name} cannot see {target.id}", "no-sight")
    if target.section is not None and target.floor != 0:
        raise _refuse("from outside only the ground floor is assaulted", "not-ground")
    if unit.section is not None and unit.floor != 0:
        raise _refuse("a unit leaps out to assault only from the ground floor", "not-ground")
    gap, door = _charge(state, unit, target)
    if gap > reach + EDGE:
        raise _refuse(f"{target.name} is {gap:.1f}in away, beyond the {reach:g}in Run",
                      "too-far")
    if door is not None:
        assert target.section is not None
        return Move(_at_opening(state.battlefield.section(target.section), door,
                                len(unit.models)), None, 0, gap)
    tx, ty = target.lead.x, target.lead.y
    points = tuple((tx + SPACING * (1 + k % 4), ty + SPACING * (k // 4))
                   for k in range(len(unit.models)))
    return Move(points, None, 0, gap)


def _at_opening(section: Section, door: tuple[float, float],
                n: int) -> tuple[tuple[float, float], ...]:
    """Models brought into contact with a building, the first at the opening: rows of four
    along the wall, outwards from it."""
    cx, cy = centroid(section)
    norm = max(1e-9, hypot(door[0] - cx, door[1] - cy))
    ox, oy = (door[0] - cx) / norm, (door[1] - cy) / norm
    lx, ly = -oy, ox
    out = []
    for k in range(n):
        side = (k % 4 + 1) // 2 * (1 if k % 4 % 2 else -1)  # 0, 1, -1, 2
        depth = k // 4
        out.append((door[0] + SPACING * (side * lx + depth * ox),
                    door[1] + SPACING * (side * ly + depth * oy)))
    return tuple(out)


def _check_inside_assault(state: BuildingsState, unit: Unit, target: Unit) -> Move:
    assert unit.section is not None and target.section is not None
    same = unit.section == target.section and abs(unit.floor - target.floor) == 1
    beside = (unit.floor == target.floor and target.section in _connected(state, unit.section))
    if not (same or beside):
        raise _refuse("inside, a unit assaults the floor above or below, or the same floor "
                      "of a connected section", "not-adjacent")
    return Move(tuple((m.x, m.y) for m in unit.models), unit.section, unit.floor, 0.0)


# ------------------------------------------------------------------ carrying out


def _take_order(state: BuildingsState, unit: Unit, kind: OrderKind) -> bool:
    """Give the unit its order (its die) and take its order test if it has pins: True if
    it carries the order out; a fail (or a shaken crew) goes Down instead."""
    unit.order = kind
    state.emit("order", {"unit": unit.id, "name": unit.name, "order": str(kind)},
               watchers(state, unit))
    if unit.shaken:
        unit.shaken = False
        unit.order = OrderKind.DOWN
        state.emit("down-instead", {"unit": unit.id, "why": "crew shaken"}, watchers(state, unit))
        return False
    if kind is OrderKind.DOWN or not needs_test(unit.pins):
        return True
    test = order_test(state.rng, unit.quality, unit.pins,
                      blunders=state.options.blunder)
    state.emit("order-test", {"unit": unit.id, "roll": test.roll.to_dict(),
                              "passed": test.passed, "blunder": test.blunder},
               watchers(state, unit))
    if test.passed:
        unit.pins -= 1
        return True
    unit.order = OrderKind.DOWN
    state.emit("down-instead", {"unit": unit.id, "why": "failed its order test"},
               watchers(state, unit))
    if test.blunder:
        add_pins(state, unit, state.options.blunder_pins, "blunder")
    return False


def carry_out(state: BuildingsState, unit: Unit, plan: Plan) -> None:
    if plan.kind is OrderKind.DOWN and state.waiting is not None:
        _react_down(state, unit, plan)
        return
    if not _take_order(state, unit, plan.kind):
        return
    spring_ambush(state, unit)
    if not unit.alive:
        return
    if plan.kind is OrderKind.DOWN:
        unit.keep_down = plan.keep
    elif plan.kind is OrderKind.AMBUSH:
        unit.ambush_at = plan.ambush_at
    elif plan.kind is OrderKind.RALLY:
        made, left = rally(state.rng, unit.pins)
        unit.pins = left
        state.emit("rally", {"unit": unit.id, "roll": made.to_dict(), "pins": left},
                   watchers(state, unit))
    elif plan.kind is OrderKind.FIRE and plan.call is not None:
        place_call(state, unit, plan.call)
    elif plan.kind is OrderKind.FIRE and plan.section is not None and plan.indirect:
        fire_indirect_at(state, unit, plan.section[0])
    elif plan.kind is OrderKind.FIRE and plan.section is not None:
        resolve_section(state, unit, *plan.section)
    elif plan.kind is OrderKind.FIRE:
        assert plan.target is not None
        shoot(state, unit, state.units[plan.target], advanced=False, indirect=plan.indirect,
              more=plan.more)
    elif plan.kind in (OrderKind.ADVANCE, OrderKind.RUN):
        _carry_move(state, unit, plan)


def _carry_move(state: BuildingsState, unit: Unit, plan: Plan) -> None:
    move = plan.move
    assert move is not None
    if plan.assault is not None:
        won = fight(state, unit, state.units[plan.assault], move, plan.take)
        if won and plan.regroup is not None and unit.section is None:
            regroup(state, unit, plan.regroup)
        return
    if move.ram is not None:
        ram(state, unit, move.ram)
        return
    blocker = _bumped(state, unit, move)
    if blocker is not None:
        # the mover learns the floor is held, not by whom; the holders hear of the mover
        # only if they see it, as of any other move
        state.emit("bumped", {"unit": unit.id, "section": move.section,
                              "floor": blocker.floor}, watchers(state, unit))
        return
    _along_the_way(state, unit, move)
    if not unit.alive:
        return
    place(state, unit, move)
    if plan.opening is not None:
        unit.opening = plan.opening
        state.emit("assigned", {"unit": unit.id, "opening": plan.opening},
                   watchers(state, unit))
    state.emit("moved", {"unit": unit.id, "section": move.section, "floor": move.floor,
                         "to": [list(p) for p in move.points[:1]],
                         "length": round(move.length, 2)}, watchers(state, unit))
    refresh(state)
    spring_ambush(state, unit)
    if plan.target is not None and unit.alive:
        target = state.units[plan.target]
        if target.alive and knows_of(state, unit, target) and firers(state, unit, target,
                                                                     True):
            shoot(state, unit, target, advanced=True)
        else:
            state.emit("no-shot", {"unit": unit.id, "target": target.id}, (unit.side,))


#: the points of a move in the open where an enemy on Ambush may fire at the mover (and
#: where the move ends, where `spring_ambush` fires after it)
AMBUSH_STEPS = (0.25, 0.5, 0.75)
END = 1.0
#: an ambusher's choice among the points of a path where it sees the mover
AMBUSH_POINTS = ("first", "nearest", "last")


def _along_the_way(state: BuildingsState, unit: Unit, move: Move) -> None:
    """A move in the open passes points where an ambusher may see the mover come into
    sight. The first ambusher (by id) to see it at the earliest such point fires, at the
    point of the path it chose with its order: the first, the nearest to it, or the last
    where it sees the mover (the move's end: `spring_ambush` after the move)."""
    if move.section is not None or unit.section is not None or move.mount is not None \
            or unit.aboard is not None:
        return
    ambushers = sorted((u for u in state.side_units(state.enemy_of(unit.side))
                        if u.order is OrderKind.AMBUSH), key=lambda u: u.id)
    if not ambushers:
        return
    start = [(m.x, m.y) for m in unit.models]
    seen: dict[str, list[tuple[float, float]]] = {}
    for t in (*AMBUSH_STEPS, END):
        _stand_at(unit, start, move, t)
        for ambusher in ambushers:
            if sees(state, ambusher, unit) and firers(state, ambusher, unit, False):
                gap = dist((ambusher.lead.x, ambusher.lead.y), (unit.lead.x, unit.lead.y))
                seen.setdefault(ambusher.id, []).append((t, gap))
    _stand_at(unit, start, move, 0.0)
    if not seen:
        return
    earliest = min(t for points in seen.values() for t, _ in points)
    ambusher = next(a for a in ambushers if seen.get(a.id, [(END + 1, 0.0)])[0][0] == earliest)
    t = _ambush_point(ambusher.ambush_at, seen[ambusher.id])
    if t >= END:
        return
    _stand_at(unit, start, move, t)
    ambusher.order = OrderKind.FIRE
    ambusher.kept = False
    state.emit("ambush", {"unit": ambusher.id, "target": unit.id, "along": t}, state.sides)
    resolve(state, ambusher, unit, False)
    _stand_at(unit, start, move, 0.0)


def _ambush_point(choice: str, points: list[tuple[float, float]]) -> float:
    """The share of the path where the ambusher fires, of the points it sees the mover."""
    if choice == "last":
        return points[-1][0]
    if choice == "nearest":
        return min(points, key=lambda p: (p[1], p[0]))[0]
    return points[0][0]


def _stand_at(unit: Unit, start: list[tuple[float, float]], move: Move, t: float) -> None:
    for m, (x0, y0), (x1, y1) in zip(unit.models, start, move.points, strict=False):
        m.x, m.y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)


def place(state: BuildingsState, unit: Unit, move: Move) -> None:
    """Put the unit where the move ends; a transport takes its passengers along, a
    passenger that mounts or dismounts changes vehicle."""
    for m, (x, y) in zip(unit.models, move.points, strict=False):
        m.x, m.y = x, y
    if unit.kind is UnitKind.INFANTRY and (unit.section, unit.floor) != (move.section,
                                                                         move.floor):
        unit.opening = None  # a team's fixed weapon is assigned anew where it goes
    unit.section, unit.floor = move.section, move.floor
    if unit.aboard is not None and move.mount is None:
        ride = state.units[unit.aboard]
        ride.carrying, unit.aboard = None, None
    if move.mount is not None:
        carry(state.units[move.mount], unit)
    rider = passenger_of(state, unit)
    if rider is not None:
        follow(rider, unit)


def shoot(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
          indirect: bool = False, more: tuple[str, ...] = (),
          spent: frozenset[int] = frozenset()) -> None:
    """A target with no order yet (or on Ambush) may go Down: its side answers before the
    to-hit roll against small arms, after the hit against HE and indirect fire. A unit
    inside then fires at the `more` targets in turn, each from a side not yet `spent`."""
    used = spent if indirect else sides_used(state, unit, target, advanced, spent)
    if target.order is not None and target.order is not OrderKind.AMBUSH:
        _fire_now(state, unit, target, advanced, indirect, spent)
        shoot_next(state, unit, more, used)
        return
    landing: tuple[WeaponName, ...] = ()
    if indirect:
        weapon = indirect_roll(state, unit, target)
        if weapon is None:
            return
        landing = (weapon,)
    elif he_only(state, unit, target, advanced, spent):
        landing = tuple(roll_he(state, unit, target, advanced, spent))
        if not landing:
            shoot_next(state, unit, more, used)
            return
    state.waiting = Waiting(unit.id, target.id, advanced, indirect, landing,
                            more=more, spent=tuple(sorted(spent)), used=tuple(sorted(used)))
    tell(state, unit, enemy_sees(state, unit), "shot-at",
         {"unit": target.id, "by": unit.id, "hit": bool(landing)}, key="by")


def shoot_next(state: BuildingsState, unit: Unit, more: tuple[str, ...],
               spent: frozenset[int]) -> None:
    """The next of a unit's further targets it can still fire at from a side not spent."""
    for k, tid in enumerate(more):
        target = state.units[tid]
        if unit.alive and target.alive and firers(state, unit, target, False, spent):
            shoot(state, unit, target, False, more=more[k + 1:], spent=spent)
            return


def _fire_now(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
              indirect: bool, spent: frozenset[int] = frozenset()) -> None:
    if indirect:
        fire_indirect(state, unit, target)
    else:
        resolve(state, unit, target, advanced, spent)


def _react_down(state: BuildingsState, unit: Unit, plan: Plan) -> None:
    waiting = state.waiting
    assert waiting is not None
    unit.order = OrderKind.DOWN
    unit.keep_down = plan.keep
    state.emit("reaction-down", {"unit": unit.id}, state.sides)
    take_shot(state)


def take_shot(state: BuildingsState) -> None:
    """The waiting shot is fired (the target went Down, or took it as it was)."""
    waiting = state.waiting
    assert waiting is not None
    state.waiting = None
    if waiting.arrival:
        arrivals(state)
        return
    firer, target = state.units[waiting.firer], state.units[waiting.target]
    if not target.alive:
        pass
    elif waiting.indirect and waiting.landing:
        indirect_land(state, target, waiting.landing[0])
    elif waiting.landing:
        land_he(state, target, list(waiting.landing))
    elif firer.alive:
        _fire_now(state, firer, target, waiting.advanced, waiting.indirect,
                  frozenset(waiting.spent))
    shoot_next(state, firer, waiting.more, frozenset(waiting.used))


def spring_ambush(state: BuildingsState, mover: Unit) -> bool:
    """An enemy on Ambush that sees the acting unit fires at it (the first such, by id),
    then counts as on Fire. True if one fired."""
    for ambusher in sorted(state.side_units(state.enemy_of(mover.side)), key=lambda u: u.id):
        if ambusher.order is not OrderKind.AMBUSH or not mover.alive:
            continue
        if sees(state, ambusher, mover) and firers(state, ambusher, mover, False):
            ambusher.order = OrderKind.FIRE
            ambusher.kept = False
            state.emit("ambush", {"unit": ambusher.id, "target": mover.id}, state.sides)
            resolve(state, ambusher, mover, False)
            return True
    return False


def fight(state: BuildingsState, unit: Unit, target: Unit, move: Move,
          take: bool = True) -> bool:
    """An assault: reaction fire unless a surprise, the charge, then rounds until one side
    causes more casualties; the loser is destroyed and a winner may take the floor it
    cleared. True if the assaulting unit won."""
    gap = assault_distance(state, unit, target)
    inside = adjoining(state, unit, target)
    state.emit("assault", {"unit": unit.id, "target": target.id,
                           "distance": round(gap, 2)}, state.sides)
    if not inside and not surprise(gap) and target.order in (None, OrderKind.AMBUSH) \
            and target.vehicle is None:
        if unit.section is not None:
            _leap_out(state, unit, target)
        _reaction_fire(state, target, unit)
    if not unit.alive or not target.alive:
        return False
    place(state, unit, move)
    if target.vehicle is not None:
        return _assault_vehicle(state, unit, target)
    together = unit.section is not None or target.section is not None
    return _melee(state, unit, target, together, take) is True


def _leap_out(state: BuildingsState, unit: Unit, target: Unit) -> None:
    """Assaulters leaping out of a building are out of it, at their way out, when the
    enemy fires at them (the seed: once they have left the building, without the benefit
    of cover)."""
    way = min(ground_doors(state.battlefield.section(str(unit.section))),
              key=lambda d: min(dist(d, (m.x, m.y)) for m in target.models))
    place(state, unit, Move(tuple(way for _ in unit.models), None, 0, 0.0))
    state.emit("leaps-out", {"unit": unit.id, "at": list(way)}, watchers(state, unit))


def _assault_vehicle(state: BuildingsState, unit: Unit, target: Unit) -> bool:
    """Its passengers bail out and fight first, as an assault in the open (*ours*: the
    attackers reach the vehicle only past them); the survivors of a win then attack the
    vehicle, each hitting on a 6. True if the vehicle is knocked out."""
    assert target.vehicle is not None
    rider = passenger_of(state, target)
    bail_out(state, target)
    if rider is not None and rider.alive:
        state.emit("passengers-fight", {"unit": rider.id, "from": target.id,
                                        "assaulter": unit.id}, state.sides)
        if _melee(state, unit, rider, together=False) is not True or not unit.alive:
            return False
    for attack in strike_vehicle(state.rng, len(unit.models), target.vehicle):
        state.emit("close-assault", {"unit": target.id, "hit": attack.hit.to_dict(),
                                     "damage": None if attack.damage is None
                                     else attack.damage.to_dict()}, state.sides)
        if attack.damage is not None and attack.damage.success:
            destroy(state, target, "knocked out in close assault")
            break
    return not target.alive


def _melee(state: BuildingsState, unit: Unit, target: Unit, together: bool,
           take: bool = True) -> bool | None:
    """Rounds until one side causes more casualties: the loser is destroyed and a winner
    takes the floor it cleared if `take` (the seed: it can). True if the assaulter won,
    False if it lost, None if neither after the most rounds."""
    for n in range(1, MOST_ROUNDS + 1):
        result = _round(state, unit, target, together, n)
        if result is not RoundResult.ANOTHER_ROUND:
            loser, winner = ((target, unit) if result is RoundResult.ATTACKER_WINS
                             else (unit, target))
            destroy(state, loser, f"lost the assault with {winner.name}")
            if take and winner is unit and target.section is not None and winner.alive:
                cx, cy = centroid(state.battlefield.section(target.section))
                place(state, unit, Move(tuple((cx, cy) for _ in unit.models),
                                        target.section, target.floor, 0.0))
                state.emit("takes-floor", {"unit": unit.id, "section": target.section,
                                           "floor": target.floor}, watchers(state, unit))
            return winner is unit
        if not unit.alive or not target.alive:
            return unit.alive
    return None


def regroup(state: BuildingsState, unit: Unit, to: tuple[float, float]) -> None:
    """A winner regroups: its first model up to `regroup` inches, never into a building
    (a place it cannot go: it stays)."""
    try:
        move = _check_outside(state, unit, to, state.options.regroup)
    except IllegalOrder as why:
        state.emit("no-regroup", {"unit": unit.id, "why": why.reason}, (unit.side,))
        return
    place(state, unit, move)
    state.emit("regrouped", {"unit": unit.id, "to": list(to)}, watchers(state, unit))


def ram(state: BuildingsState, tank: Unit, sid: str) -> None:
    """A heavy tank drives into a section: the units inside may fire first, then the
    tank's D6 and damage value against the building's dice."""
    section = state.battlefield.section(sid)
    state.emit("tank-assault", {"unit": tank.id, "section": sid}, state.sides)
    for unit in sorted(state.units.values(), key=lambda u: (u.floor, u.id)):
        if unit.alive and unit.section == sid and unit.side != tank.side \
                and unit.order in (None, OrderKind.AMBUSH):
            _reaction_fire(state, unit, tank)
    if not tank.alive:
        return
    assert tank.vehicle is not None
    done = tank_assault(state.rng, tank.vehicle, section.construction, state.options)
    state.emit("tank-assault-roll", {
        "unit": tank.id, "section": sid, "tank": done.tank_roll.to_dict(),
        "building": done.building_roll.to_dict(), "outcome": str(done.outcome),
        "damage": None if done.damage is None else {"roll": done.damage[0].to_dict(),
                                                    "result": str(done.damage[1])},
        "penetrating": done.penetrating}, state.sides)
    if done.damage is not None:
        vehicle_result(state, tank, done.damage[1], superficial=not done.penetrating)
    if done.collapsed:
        collapse(state, sid)
        if tank.alive:
            cx, cy = centroid(section)
            place(state, tank, Move(((cx, cy),), None, 0, 0.0))
            tank.order = OrderKind.DOWN
    else:
        _stop_at(state, tank, section)
    if tank.alive:
        add_pins(state, tank, 1, "drove into a building")


def _stop_at(state: BuildingsState, tank: Unit, section: Section) -> None:
    """A tank that failed stops in contact: half an inch out from the nearest wall."""
    here = (tank.lead.x, tank.lead.y)
    best = min(range(len(section.footprint)),
               key=lambda k: distance_to_segment(here, *section.wall(k)))
    (x0, y0), (x1, y1) = section.wall(best)
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((here[0] - x0) * dx + (here[1] - y0) * dy)
                     / max(1e-12, dx * dx + dy * dy)))
    px, py = x0 + t * dx, y0 + t * dy
    gap = max(1e-9, hypot(here[0] - px, here[1] - py))
    off = min(0.5, gap)
    to = (px + (here[0] - px) / gap * off, py + (here[1] - py) / gap * off)
    place(state, tank, Move((to,), None, 0, 0.0))


def _round(state: BuildingsState, unit: Unit, target: Unit, together: bool,
           n: int) -> RoundResult:
    """One round: the attacker strikes first in the open; in a building both at once."""
    theirs = Target(target.quality)
    mine = Target(unit.quality)
    first = strike(state.rng, len(unit.models), theirs)
    back_models = len(target.models) if together else \
        max(0, len(target.models) - casualties(first))
    second = strike(state.rng, back_models, mine)
    by_attacker, by_defender = casualties(first), casualties(second)
    state.emit("assault-round", {"round": n, "unit": unit.id, "target": target.id,
                                 "attacks": [r.to_dict() for r in first],
                                 "back": [r.to_dict() for r in second]}, state.sides)
    remove_models(state, target, by_attacker, f"assaulted by {unit.name}")
    remove_models(state, unit, by_defender, f"fought back by {target.name}")
    if not target.alive and not unit.alive:
        return RoundResult.ANOTHER_ROUND
    if not target.alive:
        return RoundResult.ATTACKER_WINS
    if not unit.alive:
        return RoundResult.DEFENDER_WINS
    return round_result(by_attacker, by_defender)


def _reaction_fire(state: BuildingsState, target: Unit, unit: Unit) -> None:
    """The assaulted unit fires first if it can, spending its die (an order test if
    pinned)."""
    if not firers(state, target, unit, False) or not sees(state, target, unit):
        return
    was_ambush = target.order is OrderKind.AMBUSH
    if not was_ambush and not _take_order(state, target, OrderKind.FIRE):
        return
    target.order = OrderKind.FIRE
    state.emit("reaction-fire", {"unit": target.id, "target": unit.id}, state.sides)
    resolve(state, target, unit, False)


def end_side(state: BuildingsState) -> None:
    """`end`: answering a shot, take it as it is; otherwise the drawn die goes to the
    first unit of the side without an order, which holds (a Fire order with no shot)."""
    if state.waiting is not None:
        take_shot(state)
        return
    side = state.drawn
    for unit in state.units.values():
        if unit.side == side and unit.alive and unit.order is None:
            unit.order = OrderKind.FIRE
            state.emit("holds", {"unit": unit.id}, watchers(state, unit))
            return
