"""Expected losses of a Buildings unit's fire, for the computer: the rules' own pure
functions (shooting.py) over what a side's view holds - its own unit, and an enemy as last
seen (kind, models, where). What a view cannot tell (an enemy's quality, a vehicle's kind,
which openings see the target) is taken at a middling value.

The distance to the mark counts only by the bands it falls in (out of range, point blank,
long range), so each weapon's answer is kept by those bands and the rest of its inputs:
the computer asks the same few many times a decision."""

from __future__ import annotations

from typing import NamedTuple

from fibua.rulesets.buildings.shooting import Hit, Shot, Target, damage_chance, hit_chance
from fibua.rulesets.buildings.tables import (
    HE_TEMPLATES,
    POINT_BLANK,
    WEAPONS,
    Cover,
    Quality,
    VehicleKind,
    WeaponName,
)

#: mean of each dice expression the HE templates use
MEAN = {"d2": 1.5, "d3": 2.0, "d6": 3.5, "2d6": 7.0, "3d6": 10.5}
#: hits of a flamethrower that hits: D6
FLAME_HITS = 3.5
#: firers inside a building: two at an opening, say two openings on the side facing out
FIRERS_INSIDE = 4
#: an enemy vehicle of a kind the view does not tell: taken as a medium tank
UNKNOWN_VEHICLE = VehicleKind.MEDIUM_TANK
#: answers kept at most per memo (it starts again when full)
MEMO_LIMIT = 65536

#: weapon_losses and pin_chance's per-weapon miss chance, by `_key`
_LOSSES: dict[tuple[object, ...], float] = {}
_MISSES: dict[tuple[object, ...], float] = {}
#: unit_losses and pin_chance, by all they are given
_UNITS: dict[tuple[object, ...], float] = {}
_PINS: dict[tuple[object, ...], float] = {}


class Mark(NamedTuple):
    """An enemy unit as the computer reckons it for a shot (a named tuple: the computer
    makes one for each enemy each of its units might fire at, each decision)."""

    models: int
    distance: float
    inside: bool = False
    bunker: bool = False
    down: bool = False
    vehicle: bool = False


def weapon_losses(weapon: WeaponName, mark: Mark, quality: Quality = Quality.REGULAR,
                  pins: int = 0, advanced: bool = False) -> float:
    """Expected models (or, at a vehicle, penetrating hits) one weapon takes off the mark
    by direct fire; 0 out of range or for a weapon that fires only indirect."""
    arms = WEAPONS[weapon]
    if arms.range <= 0 or mark.distance > arms.range or (advanced and arms.fixed):
        return 0.0
    key = _key(weapon, mark, quality, pins, advanced)
    found = _LOSSES.get(key)
    if found is None:
        found = _remember(_LOSSES, key, _weapon_losses(weapon, mark, quality, pins, advanced))
    return found


def _key(weapon: WeaponName, mark: Mark, quality: Quality, pins: int, advanced: bool
         ) -> tuple[object, ...]:
    """What an estimate at a mark in range depends on: the mark but its distance, and the
    distance's bands (shooting.hit_modifiers, hit_of)."""
    return (weapon, mark.models, mark.inside, mark.bunker, mark.down, mark.vehicle, quality,
            pins, advanced, mark.distance <= POINT_BLANK,
            mark.distance > WEAPONS[weapon].range / 2)


def _remember(memo: dict[tuple[object, ...], float], key: tuple[object, ...],
              value: float) -> float:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def _weapon_losses(weapon: WeaponName, mark: Mark, quality: Quality, pins: int,
                   advanced: bool) -> float:
    arms = WEAPONS[weapon]
    cover = Cover.BUNKER if mark.bunker else Cover.HARD if mark.inside else Cover.NONE
    he = arms.he is not None and (arms.pen is None or not mark.vehicle)
    shot = Shot(weapon, mark.distance, quality, pins, advanced, False,
                None if mark.vehicle else mark.models, cover, mark.down,
                he_at_building=he and mark.inside)
    p_hit = float(hit_chance(shot))
    if mark.vehicle:
        if arms.pen is None:
            return 0.0
        hit = Hit(arms.pen, flame=arms.flame, shaped=arms.shaped,
                  long_range=mark.distance > arms.range / 2)
        return arms.shots * p_hit * float(damage_chance(hit, Target(None, UNKNOWN_VEHICLE)))
    target = Target(Quality.REGULAR, inside=mark.inside)
    if he:
        assert arms.he is not None
        template = HE_TEMPLATES[arms.he]
        hits = MEAN[template.in_buildings] if mark.inside else min(
            float(mark.models), 2.0 * template.radius)
        p_dmg = float(damage_chance(Hit(template.pen, he=True), target))
        return min(float(mark.models), p_hit * hits * p_dmg)
    if arms.flame:
        assert arms.pen is not None
        p_dmg = float(damage_chance(Hit(arms.pen, flame=True), target))
        return min(float(mark.models), p_hit * FLAME_HITS * p_dmg)
    assert arms.pen is not None
    p_dmg = float(damage_chance(Hit(arms.pen, long_range=mark.distance > arms.range / 2),
                                target))
    return arms.shots * p_hit * p_dmg


def unit_losses(weapons: list[WeaponName], mark: Mark, quality: Quality = Quality.REGULAR,
                pins: int = 0, advanced: bool = False, inside: bool = False) -> float:
    """Expected losses of a whole unit's fire at the mark, the best weapons first when only
    some can fire from inside, capped at the mark's models."""
    key = (tuple(weapons), mark, quality, pins, advanced, inside)
    found = _UNITS.get(key)
    if found is None:
        found = _remember(_UNITS, key, _unit_losses(weapons, mark, quality, pins, advanced,
                                                    inside))
    return found


def _unit_losses(weapons: list[WeaponName], mark: Mark, quality: Quality, pins: int,
                 advanced: bool, inside: bool) -> float:
    # a squad's rifles are one weapon many times: each worked out once
    kinds: list[WeaponName] = []
    losses: list[float] = []
    each = []
    for w in weapons:
        for k, kind in enumerate(kinds):
            if kind is w:
                each.append(losses[k])
                break
        else:
            kinds.append(w)
            losses.append(weapon_losses(w, mark, quality, pins, advanced))
            each.append(losses[-1])
    each.sort(reverse=True)
    if inside:
        each = each[:FIRERS_INSIDE]
    return min(float(mark.models), sum(each))


def pin_chance(weapons: list[WeaponName], mark: Mark, quality: Quality = Quality.REGULAR,
               pins: int = 0) -> float:
    """Chance the fire puts at least one pin on the mark (at least one hit), roughly."""
    # the whole answer kept too (as `unit_losses`): a squad's rifles each make a key
    key = (tuple(weapons), mark, quality, pins)
    found = _PINS.get(key)
    if found is None:
        found = _remember(_PINS, key, _pin_chance(weapons, mark, quality, pins))
    return found


def _pin_chance(weapons: list[WeaponName], mark: Mark, quality: Quality, pins: int
                ) -> float:
    miss = 1.0
    for w in weapons:
        arms = WEAPONS[w]
        if arms.range <= 0 or mark.distance > arms.range:
            continue
        key = _key(w, mark, quality, pins, False)
        found = _MISSES.get(key)
        if found is None:
            found = _remember(_MISSES, key, _misses(w, mark, quality, pins))
        miss *= found
    return 1.0 - miss


def _misses(weapon: WeaponName, mark: Mark, quality: Quality, pins: int) -> float:
    """The chance all of one weapon's shots miss."""
    cover = Cover.BUNKER if mark.bunker else Cover.HARD if mark.inside else Cover.NONE
    shot = Shot(weapon, mark.distance, quality, pins, False, False,
                None if mark.vehicle else mark.models, cover, mark.down)
    return (1.0 - float(hit_chance(shot))) ** WEAPONS[weapon].shots
