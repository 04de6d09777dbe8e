"""What hits do: hit points, pinning, knocked-out vehicles and their passengers; and the
close assault of a building area."""

from __future__ import annotations

from fibua.battlefield.model import Position
from fibua.core.dice import Modifier, roll
from fibua.rulesets.street_fighter.ground import cover_for, range_between, section_spots
from fibua.rulesets.street_fighter.knowledge import record_loss, report_fire, reveal, touched
from fibua.rulesets.street_fighter.shooting import Shot, base_need, modifiers, need_at
from fibua.rulesets.street_fighter.state import Activity, StreetFighterState, Unit
from fibua.rulesets.street_fighter.tables import (
    ASSAULT_NEED,
    ASSAULT_POINTS_STEP,
    CATALOGUE,
    LORRY_HIT_MULTIPLIER,
    Body,
    Cover,
    Kind,
    Row,
)

D10 = "d10[0-9]"
ANTI_TANK = frozenset({Row.TANK, Row.ROCKET})


def can_harm(row: Row | None, kind: Kind) -> bool:
    """Whether fire of this row could ever harm a unit of this kind. It reads only the
    kind, which the firing side sees, so the orders it allows give nothing away: infantry
    weapons never harm a tank."""
    if CATALOGUE[kind].body is Body.TANK:
        return row in ANTI_TANK
    return True


def harms(row: Row | None, target: Unit) -> bool:
    """Whether this fire can do anything to the target as it is now (the umpire's
    knowledge): besides tanks, small arms cannot hurt an armoured vehicle with nobody
    riding inside it, for their hits fall on the passengers."""
    if not can_harm(row, target.kind):
        return False
    if target.spec.body is Body.ARMOURED and row is not None and row not in ANTI_TANK:
        return bool(target.passengers)
    return True


def take_hit(state: StreetFighterState, target: Unit, row: Row | None,
             source: tuple[float, float]) -> None:
    """One hit from fire of `row` (None: indirect fire) lands on the target."""
    body = target.spec.body
    anti_tank = row in (Row.TANK, Row.ROCKET)
    if body is Body.TANK:
        knock_out(state, target, "knocked out")
    elif body is Body.SOFT:
        knock_out(state, target, "knocked out", passenger_hits=LORRY_HIT_MULTIPLIER)
    elif body is Body.ARMOURED and anti_tank:
        knock_out(state, target, "knocked out", passenger_hits=1)
    elif body is Body.ARMOURED:
        inside = [state.units[p] for p in target.passengers]
        if inside:
            wound(state, inside[0], 1, source)
    else:
        wound(state, target, 1, source)


def wound(state: StreetFighterState, unit: Unit, hits: int, source: tuple[float, float],
          pin: bool = True) -> None:
    """Hits on a unit on foot: lose hit points; any hit pins (not in close assault). A hit
    on a unit already pinned pins it afresh: it again cannot move for the rest of this turn
    nor the next, so its unpinning starts over from this turn."""
    unit.hp = max(0, unit.hp - hits)
    if unit.hp == 0:
        remove(state, unit, "destroyed")
        return
    if pin and unit.spec.foot:
        data: dict[str, object] = {"unit": unit.id}
        if unit.pinned:
            data["again"] = True
        unit.pinned = True
        unit.pinned_turn = state.turn
        state.emit("pinned", data, (unit.side,))


def knock_out(state: StreetFighterState, vehicle: Unit, how: str,
              passenger_hits: int = 0) -> None:
    spot = vehicle.pos
    riders = [state.units[p] for p in vehicle.passengers]
    vehicle.hp = 0
    remove(state, vehicle, how)
    for rider in riders:
        rider.rides = None
        rider.pos = Position(spot.x, spot.y)
        touched(state, rider)
        state.emit("bailed-out", {"unit": rider.id, "hits": passenger_hits}, (rider.side,))
        if passenger_hits:
            wound(state, rider, passenger_hits, spot.point)


def remove(state: StreetFighterState, unit: Unit, how: str) -> None:
    if unit.hp > 0 and how == "surrendered":
        unit.surrendered = True
    unit.pinned = False
    touched(state, unit)
    for p in unit.passengers:
        state.units[p].rides = None
        touched(state, state.units[p])
    unit.passengers = []
    if unit.rides is not None:
        state.units[unit.rides].passengers.remove(unit.id)
        unit.rides = None
    record_loss(state, unit, how)


# ------------------------------------------------------------------ firing


def shot_for(state: StreetFighterState, firer: Unit, target: Unit, row: Row,
             moved: bool, at: Position | None = None) -> Shot:
    """The firing situation, the firer standing `at` (by default where it stands now; a
    move-fire shoots from where its move ends)."""
    return Shot(
        row=row,
        range=range_between(state.sight, firer.pos if at is None else at, target.pos),
        cover=cover_of(state, target),
        firer_moved=moved,
        firer_pinned=firer.pinned,
        target_flat_out=target.activity is Activity.FLAT_OUT,
    )


def cover_of(state: StreetFighterState, target: Unit) -> Cover:
    return cover_for(state.sight, target.spec.body, target.pos, state.options.cover_is_building)


def fire(state: StreetFighterState, firer: Unit, target: Unit, row: Row, moved: bool,
         purpose: str = "shoots at") -> bool:
    """One to-hit roll; a success is one hit. Returns whether it hit.

    Fire that cannot do anything to the target (small arms at an armoured vehicle nobody
    rides in) rolls nothing: the firing side is told it had no effect, and the target's
    side that it was fired on, as for any fire."""
    if not harms(row, target):
        firer.last_fired_turn = state.turn
        state.emit("no-effect", {"firer": firer.id, "target": target.id, "row": str(row)},
                   (firer.side,))
        report_fire(state, target, firer.pos.point, 0)
        return False
    s = shot_for(state, firer, target, row, moved)
    need = base_need(row, s.range)
    hit = state.record(roll(state.rng, D10, f"{firer.name} {purpose} {target.name}",
                            modifiers(s), need=need))
    firer.last_fired_turn = state.turn
    state.emit("shot", {"firer": firer.id, "target": target.id, "row": str(row),
                        "range": round(s.range, 2), "cover": str(s.cover),
                        "roll": hit.to_dict(), "hit": bool(hit.success)},
               (firer.side,))
    if hit.success:
        take_hit(state, target, row, firer.pos.point)
    report_fire(state, target, firer.pos.point, 1 if hit.success else 0)
    return bool(hit.success)


# ------------------------------------------------------------------ close assault


def assault_points(units: list[Unit]) -> int:
    return sum(u.spec.assault_points for u in units if u.alive)


def assault_roll(state: StreetFighterState, side: str, units: list[Unit], what: str) -> bool:
    points = assault_points(units)
    bonus = points // ASSAULT_POINTS_STEP
    result = state.record(roll(state.rng, D10, f"close assault: {what}",
                               (Modifier(f"{points} points", bonus),), need=ASSAULT_NEED))
    state.emit("assault-roll", {"side": side, "points": points, "roll": result.to_dict()},
               state.sides)
    return bool(result.success)


def hit_in_assault(state: StreetFighterState, units: list[Unit]) -> None:
    """The hit falls on the unit with most assault points (then most hit points)."""
    alive = [u for u in units if u.alive]
    if alive:
        victim = max(alive, key=lambda u: (u.spec.assault_points, u.hp, u.id))
        wound(state, victim, 1, victim.pos.point, pin=False)


def defensive_fire(state: StreetFighterState, defenders: list[Unit],
                   attackers: list[Unit]) -> None:
    """Each defender that can fire shoots once at the strongest assaulting unit, before
    the assault goes in; a pinned assaulter stays in the street. Mortars do not fire, nor
    a defender whose row of the shooting table has no score at the range to its mark."""
    for defender in defenders:
        row = defender.spec.row
        standing = [a for a in attackers if a.alive and not a.pinned]
        if not standing or row is None or row is Row.DIRECT_MORTAR:
            continue
        if state.demoralised(defender):
            continue
        mark = max(standing, key=lambda u: (u.spec.assault_points, u.hp, u.id))
        if need_at(row, range_between(state.sight, defender.pos, mark.pos)) is None:
            continue
        fire(state, defender, mark, row, moved=False, purpose="fires on")


def occupy(state: StreetFighterState, units: list[Unit], section: str) -> None:
    taken = {u.pos.point for u in state.units.values() if u.alive and u.pos.section == section}
    spots = [s for s in section_spots(state.sight, section) if s not in taken] or \
        section_spots(state.sight, section)
    for i, unit in enumerate(units):
        x, y = spots[i % len(spots)]
        unit.pos = Position(x, y, section)
        touched(state, unit)


def close_assault(state: StreetFighterState, attackers: list[Unit], section: str) -> None:
    side = attackers[0].side
    defenders = [u for u in state.side_units(state.enemy_of(side))
                 if u.pos.section == section and u.rides is None]
    enemy = state.enemy_of(side)
    for d in defenders:
        reveal(state, side, d)
    for a in attackers if defenders else []:
        reveal(state, enemy, a)
    # an assault into an empty area is seen by the attacker alone, and so is its outcome
    audience = state.sides if defenders else (side,)
    state.emit("assault", {"side": side, "units": [a.id for a in attackers],
                           "section": section, "defended": bool(defenders)}, audience)
    defensive_fire(state, defenders, attackers)
    going_in = [a for a in attackers if a.alive and not a.pinned]
    if not going_in:
        state.emit("assault-stopped", {"section": section}, audience)
        return
    for d in defenders:
        if d.alive and state.demoralised(d):
            remove(state, d, "surrendered")
    standing = [d for d in defenders if d.alive]
    if standing:
        attacker_hits = assault_roll(state, side, going_in, "attackers")
        defender_hits = assault_roll(state, enemy, standing, "defenders")
        if attacker_hits:
            hit_in_assault(state, standing)
        if defender_hits:
            hit_in_assault(state, going_in)
    if not any(d.alive for d in defenders):
        winners = [a for a in going_in if a.alive]
        occupy(state, winners, section)
        state.emit("cleared", {"section": section, "units": [a.id for a in winners]},
                   (side,))
