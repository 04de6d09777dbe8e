"""Platoon morale, demoralised troops (retreat, surrender) and unpinning."""

from __future__ import annotations

from math import hypot

from fibua.battlefield.model import Position
from fibua.core.dice import Modifier, roll
from fibua.rulesets.street_fighter.actions import held_sections
from fibua.rulesets.street_fighter.combat import D10, remove
from fibua.rulesets.street_fighter.ground import blocked_for, in_cover
from fibua.rulesets.street_fighter.knowledge import touched
from fibua.rulesets.street_fighter.state import Formation, StreetFighterState, Unit
from fibua.rulesets.street_fighter.tables import (
    DEMORALISED_AT_MOST,
    SUPPORT_RANGE,
    SURRENDER_RANGE,
    UNPIN_ENEMY_TANKS,
    UNPIN_HQ,
    UNPIN_NEED,
    UNPIN_TANKS,
    Kind,
)

RETREAT_STEP = 0.5  # cm between the points tried when retreating
FACING_RANGE = 25.0  # cm: enemy tanks the unit's side sees this close are faced


def hit_points(state: StreetFighterState, formation: Formation) -> int:
    return sum(state.units[u].hp for u in formation.units if state.units[u].alive)


def morale_phase(state: StreetFighterState) -> None:
    """Each platoon at or below half its hit points rolls a d10: 0 or 1 demoralises it."""
    for formation in state.formations.values():
        left = hit_points(state, formation)
        if formation.demoralised or left == 0 or 2 * left > formation.start_hp:
            continue
        test = state.record(roll(state.rng, D10, f"morale of {formation.name}",
                                 need=DEMORALISED_AT_MOST, at_most=True))
        formation.demoralised = bool(test.success)
        state.emit("morale", {"formation": formation.id, "hit_points": left,
                              "start": formation.start_hp, "roll": test.to_dict(),
                              "demoralised": formation.demoralised}, (formation.side,))
    for formation in state.formations.values():
        if formation.demoralised:
            for uid in formation.units:
                unit = state.units[uid]
                if unit.alive and unit.rides is None and unit.pos.section is None:
                    give_way(state, unit)


def give_way(state: StreetFighterState, unit: Unit) -> None:
    """Demoralised in the open: surrender to enemy close by and in sight, else retreat."""
    close = [e for e in state.side_units(state.enemy_of(unit.side))
             if e.rides is None and e.pos.distance(unit.pos) <= SURRENDER_RANGE
             and state.sight.visible(e.pos, unit.pos)]
    if close:
        remove(state, unit, "surrendered")
        return
    retreat(state, unit)


def rear_of(state: StreetFighterState, side: str) -> tuple[float, float]:
    spec = state.scenario.side(side)
    if spec.deployment:
        xs = [p[0] for p in spec.deployment]
        ys = [p[1] for p in spec.deployment]
        return sum(xs) / len(xs), sum(ys) / len(ys)
    table = state.battlefield.table
    return table.width / 2, 0.0


def retreat(state: StreetFighterState, unit: Unit) -> None:
    """Toward the side's rear, a normal move at most, stopping in the first cover. A unit
    already in cover is in a safe area: it stays."""
    if in_cover(state.sight, unit.pos):
        return
    rx, ry = rear_of(state, unit.side)
    dx, dy = rx - unit.pos.x, ry - unit.pos.y
    norm = hypot(dx, dy)
    if norm < RETREAT_STEP:
        return
    ux, uy = dx / norm, dy / norm
    open_to = held_sections(state, unit.side)
    here = unit.pos
    steps = int(min(unit.spec.move, norm) / RETREAT_STEP)
    for i in range(1, steps + 1):
        x, y = unit.pos.x + ux * RETREAT_STEP * i, unit.pos.y + uy * RETREAT_STEP * i
        there = Position(x, y, state.sight.section_at((x, y)))
        if blocked_for(state.sight, here, there, unit.spec.foot, open_to):
            break
        here = there
        if in_cover(state.sight, here):
            break
    moved = unit.pos.distance(here)
    unit.pos = here
    touched(state, unit)
    for p in unit.passengers:
        state.units[p].pos = here
        touched(state, state.units[p])
    state.emit("retreated", {"unit": unit.id, "to": list(here.point), "cm": round(moved, 2)},
               (unit.side,))


def unpin_phase(state: StreetFighterState) -> None:
    """Pinned units roll 8 or 9 to unpin: from the turn after the one they were pinned in
    (they cannot move that next turn), or at once under the early_unpin option."""
    for unit in state.units.values():
        if not unit.alive or not unit.pinned:
            continue
        if unit.pinned_turn >= state.turn and not state.options.early_unpin:
            continue
        test = state.record(roll(state.rng, D10, f"unpin {unit.name}",
                                 unpin_modifiers(state, unit), need=UNPIN_NEED))
        unit.pinned = not test.success
        state.emit("unpin", {"unit": unit.id, "roll": test.to_dict(),
                             "unpinned": not unit.pinned}, (unit.side,))


def unpin_modifiers(state: StreetFighterState, unit: Unit) -> tuple[Modifier, ...]:
    friends = [u for u in state.side_units(unit.side) if u.rides is None and u is not unit]
    hq = any(u.kind is Kind.HQ and u.formation == unit.formation and not u.pinned
             and state.sight.visible(u.pos, unit.pos) for u in friends)
    support = any(u.is_tank and u.pos.distance(unit.pos) <= SUPPORT_RANGE for u in friends)
    enemy = state.enemy_of(unit.side)
    seen = state.knowledge[unit.side].sightings
    facing = any(s.visible and state.units[i].is_tank and
                 hypot(s.x - unit.pos.x, s.y - unit.pos.y) <= FACING_RANGE
                 for i, s in seen.items() if state.units[i].side == enemy)
    return (
        Modifier("HQ unpinned and in sight", UNPIN_HQ if hq else 0),
        Modifier("tanks in support", UNPIN_TANKS if support else 0),
        Modifier("facing enemy tanks", UNPIN_ENEMY_TANKS if facing else 0),
    )
