"""HE, indirect fire and flamethrowers, against units in buildings and in the open: pure
procedures over plain values, each roll returned.

The order of an HE hit inside a building: roll the hits; if the damage dice are 2D6 or 3D6
and the hits reach 10 (12 for a bunker), the section collapses and everyone inside is
destroyed with no damage rolls; otherwise halve for Down (rounding up), then the template's
pins, then a damage roll a hit (none in a bunker).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from fibua.core.dice import Modifier, Rng, Roll, roll
from fibua.rulesets.buildings.shooting import Hit, Target, roll_damage
from fibua.rulesets.buildings.tables import (
    BURNS,
    BURST_ON,
    COLLAPSE_AT,
    COLLAPSING_DICE,
    FIRE_ON,
    FLAME_EXTRA_PINS,
    FLAME_HITS,
    FLAME_PINS,
    FLAME_VEHICLE_BONUS,
    HE_TEMPLATES,
    INDIRECT_BEST,
    INDIRECT_FIRST,
    BuildingKind,
    HeTemplate,
)


def template(size: int) -> HeTemplate:
    if size not in HE_TEMPLATES:
        raise ValueError(f"no {size}in HE template (1 to 4)")
    return HE_TEMPLATES[size]


def halved(hits: int) -> int:
    """A unit Down takes half the hits, rounding up."""
    return ceil(hits / 2)


def collapses(hits: int, dice: str, building: BuildingKind) -> bool:
    """Whether one HE hit's hits bring the section down: only 2D6 or 3D6 damage dice, and
    hits (before halving) of 10 or more, 12 for a bunker."""
    return dice in COLLAPSING_DICE and hits >= COLLAPSE_AT[building]


def collapses_total(hits: int, building: BuildingKind) -> bool:
    """Whether the hits of one air strike, or the heavy hits of one barrage on one
    building, bring it down."""
    return hits >= COLLAPSE_AT[building]


def he_hit(size: int) -> Hit:
    return Hit(template(size).pen, he=True)


@dataclass(frozen=True, slots=True)
class HeInside:
    """What one HE hit on a floor of a section did."""

    hits_roll: Roll
    collapsed: bool
    hits: int  # after halving, 0 when it collapsed
    pins: Roll | None  # none on an empty floor or once it collapsed
    damage: tuple[Roll, ...]  # one roll a hit; none in a bunker

    @property
    def casualties(self) -> int:
        return sum(1 for r in self.damage if r.success)


def he_in_building(rng: Rng, size: int, building: BuildingKind, target: Target | None,
                   down: bool = False) -> HeInside:
    """One HE hit on a floor: `target` is the unit there (None: an empty floor, whose hits
    are still rolled as they may bring the section down)."""
    dice = template(size).in_buildings
    hits_roll = roll(rng, dice, "HE hits in the building")
    if collapses(hits_roll.value, dice, building):
        return HeInside(hits_roll, True, 0, None, ())
    if target is None:
        return HeInside(hits_roll, False, hits_roll.value, None, ())
    hits = halved(hits_roll.value) if down else hits_roll.value
    pins = roll(rng, template(size).pins, "HE pins")
    if building is BuildingKind.BUNKER:
        return HeInside(hits_roll, False, hits, pins, ())
    hit = he_hit(size)
    damage = tuple(roll_damage(rng, hit, target) for _ in range(hits))
    return HeInside(hits_roll, False, hits, pins, damage)


def he_in_open(rng: Rng, size: int, under: int, target: Target,
               down: bool = False) -> tuple[Roll, tuple[Roll, ...]]:
    """One HE hit in the open: the `under` models inside the template are hit (halved if
    the unit is Down); the template's pins, then a damage roll a hit."""
    hits = halved(under) if down else under
    pins = roll(rng, template(size).pins, "HE pins")
    hit = he_hit(size)
    return pins, tuple(roll_damage(rng, hit, target) for _ in range(hits))


def indirect_need(earlier: int, ranged_in: bool) -> int:
    """The D6 an indirect shot needs: 6 at first, one better for each earlier try at the
    same target from the same place, and 2+ once it has hit."""
    if ranged_in:
        return INDIRECT_BEST
    return max(INDIRECT_BEST, INDIRECT_FIRST - earlier)


def roll_indirect(rng: Rng, earlier: int, ranged_in: bool) -> Roll:
    basis = (Modifier("ranged in", INDIRECT_BEST),) if ranged_in else (
        Modifier("first try", INDIRECT_FIRST), Modifier("earlier tries", -earlier))
    return roll(rng, "d6", "indirect fire", need=indirect_need(earlier, ranged_in),
                basis=basis)


@dataclass(frozen=True, slots=True)
class Burst:
    floor: int  # 0 is the ground floor
    rolls: tuple[Roll, ...]


def burst_floor(rng: Rng, top: int) -> Burst:
    """Where a shell or strike that hit a building bursts: from the top floor (`top`, a
    flat roof counting as one) down, on a D6 of 4+ at each, else one floor lower; the
    ground floor always."""
    if top < 0:
        raise ValueError("a building has a ground floor at least")
    rolls: list[Roll] = []
    floor = top
    while floor > 0:
        made = roll(rng, "d6", f"shell bursts on floor {floor}", need=BURST_ON)
        rolls.append(made)
        if made.success:
            return Burst(floor, tuple(rolls))
        floor -= 1
    return Burst(0, tuple(rolls))


def flame_hits(rng: Rng, from_vehicle: bool) -> Roll:
    """A flamethrower's hit is D6 hits, D6+1 from a vehicle's."""
    bonus = (Modifier("vehicle flamethrower", FLAME_VEHICLE_BONUS),) if from_vehicle else ()
    return roll(rng, FLAME_HITS, "flamethrower hits", modifiers=bonus)


def flame_pins(rng: Rng) -> Roll:
    """The pins of a flamethrower hit: D3+1."""
    return roll(rng, FLAME_PINS, "flamethrower pins",
                modifiers=(Modifier("flamethrower", FLAME_EXTRA_PINS),))


def fire_roll(rng: Rng, building: BuildingKind) -> Roll | None:
    """One roll per flamethrower attack at a building, hit or miss: a 4+ sets it alight.
    Bunkers never burn (no roll)."""
    if building not in BURNS:
        return None
    return roll(rng, "d6", "building catches fire", need=FIRE_ON)
