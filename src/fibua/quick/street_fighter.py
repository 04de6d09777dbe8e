"""Street Fighter quick battles: a side is units of the catalogue, in an infantry formation
and, when it has vehicles, an armoured one, under one commander.

A unit's points: 10 x its toughness x (1 + its attack), plus a point for each cm it moves
beyond a man on foot and 5 for each unit it carries. Its attack is the chance to hit of its
row of the shooting table averaged over the three range bands (doubled for a row that
harms tanks, which can hit everything), the rocket's row averaged the same way, the chance
of indirect fire to hit, and its assault points / 10 (the assault die's step). Its
toughness is its hit points x the average chance of the table's rows and bands against a
man in the open / the same average against it: the rows that cannot harm it count nothing
(small arms against tanks) and its own target modifier counts (halftracks, lorries).
A section riding a halftrack is one pick, priced as both.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from fibua.battlefield.model import LengthUnit
from fibua.quick.army import Muster
from fibua.quick.compose import Item
from fibua.quick.nations import AMERICANS, BRITISH, GERMANS, SOVIETS, Nation
from fibua.quick.town import TownPlan
from fibua.rulesets.street_fighter.combat import can_harm
from fibua.rulesets.street_fighter.forces import Forces, placements
from fibua.rulesets.street_fighter.shooting import success_chance
from fibua.rulesets.street_fighter.tables import (
    ASSAULT_POINTS_STEP,
    CATALOGUE,
    COVER_MODIFIER,
    FOOT_MOVE,
    INDIRECT_NEED,
    SHOOTING,
    Body,
    Cover,
    Kind,
    Row,
)

CAPACITY_POINTS = 5
SPACING = 6.0  # cm between units as they start
MOUNTED = "mounted-section"  # an infantry section riding an M3 halftrack
#: the modifier of being shot at that each body brings
TARGET_COVER = {Body.ARMOURED: Cover.ARMOURED_HALFTRACK, Body.SOFT: Cover.LORRY}


@dataclass(frozen=True, slots=True)
class Entry:
    most: int  # beyond the core
    nations: frozenset[str] | None = None  # None: every nation


ALL_ALLIES = frozenset({BRITISH.name, AMERICANS.name})
#: the catalogue a side picks from (lorries carry and fight not: left out)
LIST: dict[str, Entry] = {
    Kind.INFANTRY: Entry(2),
    Kind.MMG: Entry(2),
    Kind.MORTAR: Entry(1),
    Kind.SNIPER: Entry(1),
    Kind.AT_GUN: Entry(1),
    MOUNTED: Entry(2, frozenset({BRITISH.name, AMERICANS.name, GERMANS.name})),
    Kind.CARRIER: Entry(2, frozenset({BRITISH.name})),
    Kind.SHERMAN: Entry(2, ALL_ALLIES),
    Kind.FIREFLY: Entry(1, frozenset({BRITISH.name})),
    Kind.T34: Entry(2, frozenset({SOVIETS.name})),
    Kind.ASSAULT_GUN: Entry(2, frozenset({GERMANS.name})),
}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _row_chance(row: Row, modifier: int = 0) -> float:
    return _mean([float(success_chance(need, modifier)) if need is not None else 0.0
                  for need in SHOOTING[row]])


def attack(kind: Kind) -> float:
    spec = CATALOGUE[kind]
    fire = 0.0
    if spec.row is not None:
        fire = _row_chance(spec.row) * (2 if spec.kills_tanks else 1)
    if spec.rocket:
        fire += _row_chance(Row.ROCKET)
    if spec.indirect:
        fire += float(success_chance(INDIRECT_NEED, 0))
    return fire + spec.assault_points / ASSAULT_POINTS_STEP


def toughness(kind: Kind) -> float:
    spec = CATALOGUE[kind]
    cover = TARGET_COVER.get(spec.body)
    modifier = COVER_MODIFIER[cover] if cover is not None else 0
    against_man = _mean([_row_chance(row) for row in Row])
    against_it = _mean([_row_chance(row, 0 if row is Row.ROCKET else modifier)
                        if can_harm(row, kind) else 0.0 for row in Row])
    return spec.hit_points * against_man / against_it


def unit_points(kind: Kind) -> int:
    spec = CATALOGUE[kind]
    return (round(10 * toughness(kind) * (1 + attack(kind))) + round(spec.move - FOOT_MOVE)
            + CAPACITY_POINTS * spec.capacity)


def _on_foot(item: Item) -> bool:
    """Whether the pick belongs to the infantry formation (mounted sections do)."""
    return item.key == MOUNTED or CATALOGUE[Kind(item.key)].foot


def _item(key: str, most: int) -> Item:
    if key == MOUNTED:
        points = unit_points(Kind.HALFTRACK) + unit_points(Kind.INFANTRY)
        return Item(MOUNTED, "Infantry section in an M3 halftrack", points, most)
    return Item(str(key), CATALOGUE[Kind(key)].title, unit_points(Kind(key)), most)


class StreetFighterArmy:
    ruleset = "street-fighter"
    plan = TownPlan(100.0, LengthUnit.CM, 5, max_floors=2, opening_scale=2.54)
    pace = FOOT_MOVE
    clearance = 2.0
    budget = 330
    picks = (2, 6)

    def prices(self, nation: Nation) -> tuple[Item, ...]:
        return tuple(_item(key, entry.most) for key, entry in LIST.items()
                     if entry.nations is None or nation.name in entry.nations)

    def core(self, rng: random.Random) -> list[Item]:
        return [_item(Kind.HQ, 1), _item(Kind.INFANTRY, 2), _item(Kind.INFANTRY, 2)]

    def forces(self, muster: Muster) -> dict[str, Any]:
        nation = muster.nation
        officer = f"{nation.ranks[0]} {muster.names.surname()}"
        foot = [i for i in muster.picks if _on_foot(i)]
        armour = [i for i in muster.picks if not _on_foot(i)]
        placed = len(foot) + len(armour)
        numbers: dict[str, int] = {}
        formations = []
        slot = 0
        for title, picks in (("Infantry", foot), ("Armour", armour)):
            if not picks:
                continue
            units = []
            for item in picks:
                at = muster.placer.cluster((slot + 0.5) / placed, 1, SPACING, 1)[0]
                slot += 1
                units += self._units(muster, item, list(at), numbers)
            formations.append({"id": f"{nation.code}-{title.lower()}",
                               "name": f"{title} ({officer})", "commander": officer,
                               "units": units})
        return {"doctrine": "attack", "formations": formations}

    @staticmethod
    def _units(muster: Muster, item: Item, at: list[float],
               numbers: dict[str, int]) -> list[dict[str, Any]]:
        code = muster.nation.code

        def made(kind: Kind) -> tuple[str, str]:
            numbers[kind] = numbers.get(kind, 0) + 1
            n = numbers[kind]
            return f"{code}-{kind}-{n}", f"{CATALOGUE[kind].title} {n}"

        if item.key != MOUNTED:
            ident, name = made(Kind(item.key))
            return [{"id": ident, "name": name, "kind": item.key, "at": at}]
        carrier, carrier_name = made(Kind.HALFTRACK)
        section, section_name = made(Kind.INFANTRY)
        return [{"id": carrier, "name": carrier_name, "kind": str(Kind.HALFTRACK), "at": at},
                {"id": section, "name": f"{section_name} (mounted)",
                 "kind": str(Kind.INFANTRY), "rides": carrier}]

    def price(self, forces: Forces) -> int:
        return sum(unit_points(p.kind) for f in forces.formations for p in placements(f))

    def options(self) -> dict[str, Any]:
        return {}
