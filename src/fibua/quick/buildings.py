"""Buildings quick battles: a side is typical units of the catalogue (regular troops),
each priced by its models, its weapons, its armour and how fast it goes.

A unit's points: 3 a model (infantry or gun crew), and for each weapon it fires 10 x the
models it can expect to put down in one Fire order (shots x the chance to hit, a 3+ on the
D6, x the chance that a regular man's D6 + the penetration reaches 4, x the weapon's reach
over 24 in, at most 36 in; an HE template catching a man for each inch of its radius;
a one-shot weapon half) and 30 x the medium tanks it can expect to penetrate from the
front; a vehicle 5 for each point of damage value beyond a man's, 5 if it carries troops,
and a point for each inch of its Advance beyond a man's; a gun shield 2. An observer is
worth the HE of one air strike (a 4 in template) half the time it is called, as the D6
of an air strike arrives with the scenario's default options.
"""

from __future__ import annotations

import random
from typing import Any

from fibua.battlefield.model import LengthUnit
from fibua.quick.army import Muster, mean_roll
from fibua.quick.compose import Item
from fibua.quick.nations import AMERICANS, BRITISH, GERMANS, SOVIETS, Nation
from fibua.quick.town import TownPlan
from fibua.rulesets.buildings.forces import Forces, Options
from fibua.rulesets.buildings.tables import (
    AIR_STRIKE_HE,
    CATALOGUE,
    FLAME_HITS,
    HE_TEMPLATES,
    HIT_BASE,
    INFANTRY_DAMAGE,
    MOVEMENT,
    VEHICLE_DAMAGE,
    WEAPONS,
    Mobility,
    Quality,
    UnitKind,
    UnitType,
    VehicleKind,
    WeaponName,
    weapons_of,
)

MODEL_POINTS = 3
FIRE_POINTS = 10
ARMOUR_POINTS = 30
HULL_POINTS = 5
TRANSPORT_POINTS = 5
SHIELD_POINTS = 2
REACH = 24.0  # inches: the reach a weapon is priced against
LONGEST = 36.0  # inches: no town street is longer
D6 = 6
SPACING = 1.0  # inches between models of a unit as they start
VEHICLE_SPACING = 3.0
FOOT = MOVEMENT[Mobility.FOOT].advance

#: what a side picks from beyond its core, at most so many of each; only these nations
#: (None: every nation). Trucks carry and fight not; the super-heavy tank and the heavy
#: howitzer outweigh a town fight: left out.
LIST: dict[UnitType, tuple[int, frozenset[str] | None]] = {
    UnitType.RIFLE_SQUAD: (2, None),
    UnitType.SMG_SQUAD: (1, None),
    UnitType.ASSAULT_SQUAD: (1, frozenset({GERMANS.name})),
    UnitType.MMG_TEAM: (1, None),
    UnitType.HMG_TEAM: (1, None),
    UnitType.AT_RIFLE_TEAM: (1, frozenset({SOVIETS.name})),
    UnitType.PIAT_TEAM: (1, frozenset({BRITISH.name})),
    UnitType.BAZOOKA_TEAM: (1, frozenset({AMERICANS.name})),
    UnitType.PANZERSCHRECK_TEAM: (1, frozenset({GERMANS.name})),
    UnitType.FLAMETHROWER_TEAM: (1, None),
    UnitType.LIGHT_MORTAR_TEAM: (1, None),
    UnitType.MEDIUM_MORTAR_TEAM: (1, None),
    UnitType.AIR_OBSERVER: (1, None),
    UnitType.ARTILLERY_OBSERVER: (1, None),
    UnitType.LIGHT_AT_GUN: (1, None),
    UnitType.MEDIUM_AT_GUN: (1, None),
    UnitType.HEAVY_AT_GUN: (1, None),
    UnitType.LIGHT_HOWITZER: (1, None),
    UnitType.MEDIUM_HOWITZER: (1, None),
    UnitType.CARRIER: (1, None),
    UnitType.ARMOURED_CAR: (1, None),
    UnitType.LIGHT_TANK: (1, None),
    UnitType.MEDIUM_TANK: (1, None),
    UnitType.FLAME_TANK: (1, None),
    UnitType.HEAVY_TANK: (1, None),
}


def _chance(faces_needed_at_least: float) -> float:
    """The chance a D6 shows at least this (clamped to a die's faces)."""
    return min(max((D6 + 1 - faces_needed_at_least) / D6, 0.0), 1.0)


HIT = _chance(HIT_BASE)
MAN = INFANTRY_DAMAGE[Quality.REGULAR]
TANK = VEHICLE_DAMAGE[VehicleKind.MEDIUM_TANK]


def weapon_points(weapon: WeaponName) -> float:
    spec = WEAPONS[weapon]
    reach = min(max(spec.range, spec.indirect[1] if spec.indirect else 0.0), LONGEST) / REACH
    men = spec.shots * HIT * _chance(MAN - (spec.pen or 0)) * reach if spec.pen is not None \
        else 0.0
    if spec.flame:
        men = float(mean_roll(FLAME_HITS)) * _chance(MAN - (spec.pen or 0))
    if spec.he is not None:
        template = HE_TEMPLATES[spec.he]
        men += HIT * template.radius * _chance(MAN - template.pen)
    tanks = spec.shots * HIT * _chance(TANK - spec.pen) if spec.pen else 0.0
    value = FIRE_POINTS * men + ARMOUR_POINTS * tanks
    return value / 2 if spec.one_shot else value


def observer_points() -> float:
    """One air strike's HE, which comes half the time (the D6 above strike_no_show_up_to)."""
    options = Options()
    template = HE_TEMPLATES[AIR_STRIKE_HE]
    arrives = (D6 - options.strike_no_show_up_to) / D6
    return FIRE_POINTS * arrives * template.radius * _chance(MAN - template.pen)


def unit_points(kind: UnitType) -> int:
    typical = CATALOGUE[kind]
    weapons = weapons_of(typical)
    value = sum(weapon_points(w) for w in weapons)
    if typical.kind is UnitKind.VEHICLE:
        vehicle = typical.vehicle or VehicleKind.SOFT_SKINNED
        value += HULL_POINTS * (VEHICLE_DAMAGE[vehicle] - MAN)
        value += TRANSPORT_POINTS if typical.transport else 0
    else:
        value += MODEL_POINTS * typical.models
    value += MOVEMENT[typical.mobility].advance - FOOT
    value += SHIELD_POINTS if typical.gun_shield else 0
    value += observer_points() if typical.observer is not None else 0
    return round(value)


def _item(kind: UnitType, most: int) -> Item:
    return Item(str(kind), CATALOGUE[kind].title, unit_points(kind), most)


class BuildingsArmy:
    ruleset = "buildings"
    plan = TownPlan(48.0, LengthUnit.INCH, 6)
    pace = FOOT
    clearance = 0.6
    budget = 300
    picks = (2, 5)

    def prices(self, nation: Nation) -> tuple[Item, ...]:
        return tuple(_item(kind, most) for kind, (most, nations) in LIST.items()
                     if nations is None or nation.name in nations)

    def core(self, rng: random.Random) -> list[Item]:
        return [_item(UnitType.HQ, 1), _item(UnitType.RIFLE_SQUAD, 1),
                _item(UnitType.RIFLE_SQUAD, 1)]

    def forces(self, muster: Muster) -> dict[str, Any]:
        nation = muster.nation
        numbers: dict[str, int] = {}
        units = []
        count = len(muster.picks)
        for slot, item in enumerate(muster.picks):
            typical = CATALOGUE[UnitType(item.key)]
            numbers[item.key] = numbers.get(item.key, 0) + 1
            n = numbers[item.key]
            vehicle = typical.kind is UnitKind.VEHICLE
            spacing = VEHICLE_SPACING if vehicle else SPACING
            spots = muster.placer.cluster((slot + 0.5) / count, typical.models, spacing, 5)
            unit: dict[str, Any] = {"id": f"{nation.code}-{item.key}-{n}",
                                    "name": f"{typical.title} {n}", "type": item.key}
            if typical.kind is not UnitKind.INFANTRY:
                unit["facing"] = muster.facing
            unit["models"] = [{"at": list(at)} for at in spots]
            units.append(unit)
        return {"units": units}

    def price(self, forces: Forces) -> int:
        return sum(unit_points(u.type) if u.type is not None else 0 for u in forces.units)

    def options(self) -> dict[str, Any]:
        return {}
