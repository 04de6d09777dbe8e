"""Indirect fire and forward observers in the game.

Indirect fire: a Fire order with `indirect=true` (the only way a mortar fires) at a unit the
firer sees (a unit inside: the firer sees some wall of its section), within the weapon's
indirect ranges. The first try at a target needs a 6, each later try from the same place one
better, and 2+ once it has hit; no cover counts. A hit on a unit in the open is the HE
template on its models; on a building it falls from the top floor (4+ bursts there, else one
floor lower, the ground floor always) and hits whatever unit stands on that floor.

Observers (*ours*): an air observer's `fire OBS target=ID call=true` calls a strike at a
unit it sees; an artillery observer's `fire OBS at=X,Y call=true` a barrage at a point it
sees (once a game by default). Both arrive at the start of the next turn.
"""

from __future__ import annotations

from math import dist
from typing import Any

from fibua.battlefield.model import Position, SectionState
from fibua.core.errors import IllegalOrder
from fibua.core.params import point
from fibua.rulesets.buildings.blast import (
    burst_floor,
    collapses_total,
    he_in_building,
    he_in_open,
    roll_indirect,
)
from fibua.rulesets.buildings.firing import (
    collapse,
    he_at_section,
    he_on_vehicle,
    models_under,
)
from fibua.rulesets.buildings.geometry import centroid, distance_to_section, outside_marks
from fibua.rulesets.buildings.knowledge import enemy_sees, places, sees, tell, watchers
from fibua.rulesets.buildings.losses import add_pins, remove_models
from fibua.rulesets.buildings.observers import roll_barrage, roll_strike
from fibua.rulesets.buildings.shooting import Target
from fibua.rulesets.buildings.state import (
    Arrival,
    BuildingsState,
    Call,
    Ranging,
    Unit,
    Waiting,
)
from fibua.rulesets.buildings.tables import (
    AIR_STRIKE_HE,
    BARRAGE_HE,
    WEAPONS,
    BarrageResult,
    ObserverKind,
    OrderKind,
    StrikeResult,
    UnitKind,
    WeaponName,
)


def _refuse(reason: str, code: str) -> IllegalOrder:
    return IllegalOrder(reason, code=code)


def indirect_weapons(unit: Unit) -> list[WeaponName]:
    found = unit.mounts if unit.kind is not UnitKind.INFANTRY else tuple(
        m.weapon for m in unit.models if m.weapon is not None)
    return [w for w in found if WEAPONS[w].indirect is not None]


def only_indirect(unit: Unit) -> bool:
    """A unit whose only weapons fire indirect (mortars): its Fire is always indirect."""
    weapons = indirect_weapons(unit)
    direct = [m.weapon for m in unit.models if m.weapon is not None
              and WEAPONS[m.weapon].range > 0] if unit.kind is UnitKind.INFANTRY else [
        w for w in unit.mounts if WEAPONS[w].range > 0]
    return bool(weapons) and not direct


def sees_section(state: BuildingsState, unit: Unit, sid: str) -> bool:
    """Whether the unit sees some wall of the section (from just outside its middle)."""
    mine = places(state, unit)
    marks = outside_marks(state.battlefield.section(sid))
    return bool(mine) and bool(state.sight.visible_matrix(mine, marks).any())


def _in_sight(state: BuildingsState, unit: Unit, target: Unit) -> bool:
    if target.section is not None:
        return sees_section(state, unit, target.section)
    return sees(state, unit, target)


def check_indirect(state: BuildingsState, unit: Unit, target: Unit) -> WeaponName:
    """The indirect weapon that fires at the target (IllegalOrder if none may)."""
    weapons = _indirect_firer(state, unit)
    if target.aboard is not None or not _in_sight(state, unit, target):
        raise _refuse(f"{unit.name} cannot see {target.id}", "no-sight")
    if target.section is not None:
        return _in_range(weapons, _to_walls(state, unit, target.section), target.name)
    gap = dist((unit.lead.x, unit.lead.y), (target.lead.x, target.lead.y))
    return _in_range(weapons, gap, target.name)


def check_indirect_at(state: BuildingsState, unit: Unit, sid: str) -> WeaponName:
    """The indirect weapon that fires at a section (the seed: an empty building may be
    targeted); IllegalOrder if none may."""
    weapons = _indirect_firer(state, unit)
    if not sees_section(state, unit, sid):
        raise _refuse(f"{unit.name} cannot see a wall of {sid}", "no-sight")
    return _in_range(weapons, _to_walls(state, unit, sid), sid)


def _indirect_firer(state: BuildingsState, unit: Unit) -> list[WeaponName]:
    if unit.section is not None:
        section = state.battlefield.section(unit.section)
        if unit.kind is UnitKind.GUN or not (section.flat_roof
                                             and unit.floor == section.floors):
            raise _refuse("inside a building, mortars fire only from a flat roof and guns "
                          "only directly", "no-indirect")
    weapons = indirect_weapons(unit)
    if not weapons:
        raise _refuse(f"{unit.name} has no weapon that fires indirect", "no-indirect")
    return weapons


def _to_walls(state: BuildingsState, unit: Unit, sid: str) -> float:
    """The range to a building: to its nearest wall (the seed: measure the range to the
    building, as for HE shells fired directly, which are measured to the walls)."""
    return distance_to_section((unit.lead.x, unit.lead.y), state.battlefield.section(sid))


def _in_range(weapons: list[WeaponName], gap: float, name: str) -> WeaponName:
    for w in weapons:
        low, high = WEAPONS[w].indirect or (0.0, 0.0)
        if low - 1e-9 <= gap <= high + 1e-9:
            return w
    raise _refuse(f"{name} is {gap:.1f}in away, outside the indirect ranges",
                  "out-of-range")


def fire_indirect(state: BuildingsState, unit: Unit, target: Unit) -> None:
    weapon = indirect_roll(state, unit, target)
    if weapon is not None:
        indirect_land(state, target, weapon)


def indirect_roll(state: BuildingsState, unit: Unit, target: Unit) -> WeaponName | None:
    """The to-hit roll of indirect fire: the weapon if it hit, else None."""
    try:
        weapon = check_indirect(state, unit, target)
    except IllegalOrder as why:  # the target moved out of reach while its side answered
        state.emit("no-shot", {"unit": unit.id, "target": target.id, "why": why.reason},
                   state.sides)
        return None
    key = f"{unit.id}>{target.id}"
    here = (unit.lead.x, unit.lead.y)
    ranging = state.ranging.get(key)
    if ranging is None or ranging.place != here or ranging.floor != target.floor \
            or ranging.section != target.section:
        ranging = state.ranging[key] = Ranging(here, target.floor, target.section)
    made = roll_indirect(state.rng, ranging.tries, ranging.ranged_in)
    ranging.tries += 1
    tell(state, unit, enemy_sees(state, unit), "indirect-fire", {
        "unit": unit.id, "target": target.id, "weapon": str(weapon),
        "roll": made.to_dict()})
    if not made.success:
        return None
    ranging.ranged_in = True
    return weapon


def fire_indirect_at(state: BuildingsState, unit: Unit, sid: str) -> None:
    """Indirect fire at a section the firer sees no unit in: ranged in like fire at a
    unit; a hit falls through the floors and bursts on one, empty or not."""
    try:
        weapon = check_indirect_at(state, unit, sid)
    except IllegalOrder as why:
        state.emit("no-shot", {"unit": unit.id, "section": sid, "why": why.reason},
                   (unit.side,))
        return
    here = (unit.lead.x, unit.lead.y)
    key = f"{unit.id}>{sid}"
    ranging = state.ranging.get(key)
    if ranging is None or ranging.place != here:
        ranging = state.ranging[key] = Ranging(here, 0, sid)
    made = roll_indirect(state.rng, ranging.tries, ranging.ranged_in)
    ranging.tries += 1
    tell(state, unit, enemy_sees(state, unit), "indirect-fire", {
        "unit": unit.id, "section": sid, "weapon": str(weapon), "roll": made.to_dict()})
    if not made.success:
        return
    ranging.ranged_in = True
    size = WEAPONS[weapon].he
    assert size is not None
    fall_on_building(state, sid, size)


def indirect_land(state: BuildingsState, target: Unit, weapon: WeaponName) -> None:
    """A shell that hit: on the building's floors from the top down, or the template on
    the unit's models in the open."""
    size = WEAPONS[weapon].he
    assert size is not None
    if not target.alive:
        return
    down = target.order is OrderKind.DOWN
    if target.section is not None:
        fall_on_building(state, target.section, size)
        return
    if target.vehicle is not None:
        he_on_vehicle(state, target, size, "indirect fire")
        return
    under = models_under(target, float(size))
    pins, rolls = he_in_open(state.rng, size, under, Target(target.quality), down)
    state.emit("he", {"unit": target.id, "template": size, "under": under,
                      "pins": pins.to_dict(), "damage": [r.to_dict() for r in rolls]},
               state.sides)
    remove_models(state, target, sum(1 for r in rolls if r.success), "HE")
    add_pins(state, target, pins.value, "HE")


def fall_on_building(state: BuildingsState, sid: str, size: int) -> None:
    """A shell or strike on a building bursts on a floor from the top down."""
    section = state.battlefield.section(sid)
    burst = burst_floor(state.rng, section.levels - 1)
    state.emit("burst", {"section": sid, "floor": burst.floor,
                         "rolls": [r.to_dict() for r in burst.rolls]}, state.sides)
    occupant = state.occupant(sid, burst.floor)
    he_at_section(state, sid, burst.floor, size,
                  occupant is not None and occupant.order is OrderKind.DOWN)


# ------------------------------------------------------------------ observers


def check_call(state: BuildingsState, unit: Unit, params: dict[str, Any]) -> Call:
    if not state.options.observers:
        raise _refuse("forward observers are not in play (observers = false)", "no-observer")
    if unit.observer is None:
        raise _refuse(f"{unit.name} is no forward observer", "no-observer")
    if any(c.by == unit.id for c in state.calls):
        raise _refuse(f"{unit.name} has a call on its way", "called")
    if unit.observer is ObserverKind.AIR and "section" in params:
        sid = params["section"]
        if not isinstance(sid, str) or sid not in state.battlefield.section_ids:
            raise _refuse(f"no section {sid!r}", "no-section")
        if state.sight.section_state(sid) is not SectionState.INTACT:
            raise _refuse(f"{sid} is {state.sight.section_state(sid)}", "not-intact")
        if not sees_section(state, unit, sid):
            raise _refuse(f"{unit.name} cannot see {sid}", "no-sight")
        return Call(unit.side, unit.id, ObserverKind.AIR, state.turn, None, sid,
                    centroid(state.battlefield.section(sid)))
    if unit.observer is ObserverKind.AIR:
        ident = params.get("target")
        target = state.units.get(ident) if isinstance(ident, str) else None
        if target is None or target.side == unit.side or not target.alive:
            raise _refuse(f"{ident!r} is no enemy unit in the fight", "no-target")
        if not _in_sight(state, unit, target):
            raise _refuse(f"{unit.name} cannot see {target.id}", "no-sight")
        return Call(unit.side, unit.id, ObserverKind.AIR, state.turn, target.id,
                    target.section, (target.lead.x, target.lead.y))
    if state.barrages_called.get(unit.id, 0) >= state.options.barrages:
        raise _refuse(f"{unit.name} has called all its barrages", "no-barrage")
    if "at" not in params:
        raise _refuse("a barrage is called at=X,Y", "bad-parameter")
    at = point(params["at"], "at")
    sid = state.sight.section_at(at)
    if sid is not None and state.sight.section_state(sid) is not SectionState.RUBBLE:
        seen = sees_section(state, unit, sid)
    else:
        seen = any(state.sight.visible(p, Position(at[0], at[1]))
                   for p in places(state, unit))
    if not seen:
        raise _refuse(f"{unit.name} cannot see ({at[0]:g}, {at[1]:g})", "no-sight")
    return Call(unit.side, unit.id, ObserverKind.ARTILLERY, state.turn, None, sid, at)


def place_call(state: BuildingsState, unit: Unit, call: Call) -> None:
    state.calls.append(call)
    if call.kind is ObserverKind.ARTILLERY:
        state.barrages_called[unit.id] = state.barrages_called.get(unit.id, 0) + 1
    state.emit("called", call.snapshot(), (unit.side,))


def arrivals(state: BuildingsState) -> None:
    """At the start of a turn, the strikes and barrages called in the last one arrive, one
    by one. A unit one hits that may still go Down is asked first (state.waiting): this
    stops, and the answer (`take_shot`) calls it again to go on where it stopped."""
    while state.waiting is None:
        if state.arriving is None:
            due = next((c for c in state.calls if c.turn < state.turn), None)
            if due is None:
                return
            state.calls.remove(due)
            state.arriving = Arrival(due)
        arrival = state.arriving
        done = _strike(state, arrival) if arrival.call.kind is ObserverKind.AIR \
            else _barrage(state, arrival)
        if done:
            state.arriving = None


def may_go_down(unit: Unit) -> bool:
    """A unit hit that may still go Down as a reaction: no order yet, or on Ambush."""
    return unit.alive and unit.aboard is None and unit.order in (None, OrderKind.AMBUSH)


def _ask(state: BuildingsState, by: str, unit: Unit) -> None:
    state.waiting = Waiting(by, unit.id, False, arrival=True)
    caller = state.units[by]
    tell(state, caller, caller.alive and enemy_sees(state, caller), "shot-at",
         {"unit": unit.id, "by": by, "hit": True}, key="by")


def _strike(state: BuildingsState, arrival: Arrival) -> bool:
    """The strike's roll and where it falls; then (once the unit hit has answered) its
    HE and the pins nearby. True when done."""
    call = arrival.call
    if not arrival.started:
        arrival.started = True
        target, section = _strike_target(state, call)
        if target is None and section is None:
            return True
        if target is not None:
            arrival.victim = target.id
            arrival.centre = (target.lead.x, target.lead.y)
            section = target.section
        else:
            assert section is not None
            arrival.centre = centroid(state.battlefield.section(section))
        if section is not None:
            burst = burst_floor(state.rng, state.battlefield.section(section).levels - 1)
            state.emit("burst", {"section": section, "floor": burst.floor,
                                 "rolls": [r.to_dict() for r in burst.rolls]}, state.sides)
            arrival.floor = burst.floor
            hit = state.occupant(section, burst.floor)
        else:
            assert target is not None
            hit = target if target.aboard is None else None
        if hit is not None and may_go_down(hit):
            _ask(state, call.by, hit)
            return False
    _strike_lands(state, arrival)
    return True


def _strike_target(state: BuildingsState, call: Call) -> tuple[Unit | None, str | None]:
    """What the strike falls on: the unit called (or the caller's unit nearest the point,
    on a 1), or the section called; (None, None) when it does not come."""
    made, result = roll_strike(state.rng, state.options)
    caller = state.units[call.by]
    tell(state, caller, caller.alive and enemy_sees(state, caller), "air-strike",
         {"by": call.by, "roll": made.to_dict(), "result": str(result)}, key="by")
    if result is StrikeResult.NO_SHOW:
        return None, None
    if result is StrikeResult.FRIENDLY:
        friends = state.side_units(call.side)
        if not friends:
            return None, None
        return min(friends, key=lambda u: dist((u.lead.x, u.lead.y), call.point)), None
    target = state.units.get(call.target or "")
    if target is not None:
        return (target, None) if target.alive else (None, None)
    if call.section is not None and state.sight.section_state(call.section) is \
            SectionState.INTACT:
        return None, call.section
    return None, None


def _strike_lands(state: BuildingsState, arrival: Arrival) -> None:
    """The strike's HE on the unit or floor it falls on; then a pin on every other unit
    near (the unit hit takes the HE's pins, not this one as well)."""
    target = None if arrival.victim is None else state.units[arrival.victim]
    section = target.section if target is not None else arrival.call.section
    hit: Unit | None = None
    if section is not None and arrival.floor is not None:
        hit = state.occupant(section, arrival.floor)
        he_at_section(state, section, arrival.floor, AIR_STRIKE_HE,
                      hit is not None and hit.order is OrderKind.DOWN)
    elif target is not None and target.alive and target.aboard is None:
        hit = target
        if target.vehicle is not None:
            he_on_vehicle(state, target, AIR_STRIKE_HE, "air strike")
        else:
            _strike_open(state, target)
    for other in state.units.values():
        if other is hit or not other.alive or other.aboard is not None:
            continue
        if struck_near(state, other, arrival.centre, section, state.options.strike_pin_radius):
            add_pins(state, other, 1, "air strike nearby")


def _strike_open(state: BuildingsState, target: Unit) -> None:
    under = models_under(target, float(AIR_STRIKE_HE))
    pins, rolls = he_in_open(state.rng, AIR_STRIKE_HE, under, Target(target.quality),
                             target.order is OrderKind.DOWN)
    state.emit("he", {"unit": target.id, "template": AIR_STRIKE_HE, "under": under,
                      "pins": pins.to_dict(), "damage": [r.to_dict() for r in rolls]},
               watchers(state, target))
    remove_models(state, target, sum(1 for r in rolls if r.success), "air strike")
    add_pins(state, target, pins.value, "air strike")


def struck_near(state: BuildingsState, unit: Unit, centre: tuple[float, float],
          section: str | None, radius: float) -> bool:
    if section is not None:
        walls = state.battlefield.section(section)
        return unit.section == section or distance_to_section(
            (unit.lead.x, unit.lead.y), walls) <= radius + 1e-9
    return dist((unit.lead.x, unit.lead.y), centre) <= radius + 1e-9


def _barrage(state: BuildingsState, arrival: Arrival) -> bool:
    """Every unit within the radius rolls; an empty section in range rolls once, its heavy
    hits counting toward collapse only; the heavy hits of the barrage on each section add
    up toward its collapse. A heavy hit on a unit that may go Down waits for its answer.
    True when done."""
    call = arrival.call
    radius = state.options.barrage_radius
    if not arrival.started:
        arrival.started = True
        caller = state.units[call.by]
        tell(state, caller, caller.alive and enemy_sees(state, caller), "barrage",
             {"by": call.by, "point": list(call.point)}, key="by")
    totals = arrival.totals
    if arrival.heavy is not None:
        waited, arrival.heavy = state.units[arrival.heavy], None
        if waited.alive:
            _heavy_on(state, waited, totals)
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if not unit.alive or unit.aboard is not None or unit.id in arrival.rolled:
            continue
        if not in_barrage(state, call.point, unit.section, (unit.lead.x, unit.lead.y)):
            continue
        arrival.rolled.append(unit.id)
        made, result, pins = roll_barrage(state.rng, state.options)
        # a barrage falls on units its caller may not see: each roll is told to the
        # unit's side, and to the enemy only if it sees the unit
        state.emit("barrage-roll", {"unit": unit.id, "roll": made.to_dict(),
                                    "result": str(result)}, watchers(state, unit))
        if result is BarrageResult.PINS and pins is not None:
            add_pins(state, unit, pins.value, "barrage")
        elif result is BarrageResult.HEAVY_HIT:
            if may_go_down(unit):
                arrival.heavy = unit.id
                _ask(state, call.by, unit)
                return False
            _heavy_on(state, unit, totals)
    for sid in state.battlefield.section_ids:
        if state.sight.section_state(sid) is SectionState.RUBBLE:
            continue
        section = state.battlefield.section(sid)
        if any(u.alive and u.section == sid for u in state.units.values()):
            continue
        if distance_to_section(call.point, section) > radius and \
                state.sight.section_at(call.point) != sid:
            continue
        made, result, _ = roll_barrage(state.rng, state.options)
        rolled = None
        if result is BarrageResult.HEAVY_HIT:
            rolled = he_in_building(state.rng, BARRAGE_HE, section.construction,
                                    None).hits_roll
            totals[sid] = totals.get(sid, 0) + rolled.value
        state.emit("barrage-on-building", {
            "section": sid, "roll": made.to_dict(),
            "hits": None if rolled is None else rolled.to_dict()}, state.sides)
    for sid, total in sorted(totals.items()):
        if state.sight.section_state(sid) is not SectionState.RUBBLE and collapses_total(
                total, state.battlefield.section(sid).construction):
            collapse(state, sid)
    return True


def in_barrage(state: BuildingsState, point: tuple[float, float], section: str | None,
               at: tuple[float, float]) -> bool:
    """Whether a unit rolls on a barrage aimed at `point`: inside, any part of its section
    within the radius (or the point in it); outside, its first model (`at`) within it."""
    radius = state.options.barrage_radius
    if section is not None:
        return distance_to_section(point, state.battlefield.section(section)) <= radius \
            or state.sight.section_at(point) == section
    return dist(at, point) <= radius + 1e-9


def _heavy_on(state: BuildingsState, unit: Unit, totals: dict[str, int]) -> None:
    sid = unit.section
    hits = _heavy(state, unit)
    if sid is not None:
        totals[sid] = totals.get(sid, 0) + hits


def _heavy(state: BuildingsState, unit: Unit) -> int:
    """A heavy howitzer hit of a barrage on one unit; the hits rolled on a building (0 in
    the open)."""
    down = unit.order is OrderKind.DOWN
    if unit.section is not None:
        return he_at_section(state, unit.section, unit.floor, BARRAGE_HE, down)
    if unit.vehicle is not None:
        he_on_vehicle(state, unit, BARRAGE_HE, "barrage")
        return 0
    under = models_under(unit, float(BARRAGE_HE))
    pins, rolls = he_in_open(state.rng, BARRAGE_HE, under, Target(unit.quality), down)
    state.emit("he", {"unit": unit.id, "template": BARRAGE_HE, "under": under,
                      "pins": pins.to_dict(), "damage": [r.to_dict() for r in rolls]},
               watchers(state, unit))
    remove_models(state, unit, sum(1 for r in rolls if r.success), "barrage")
    add_pins(state, unit, pins.value, "barrage")
    return 0
