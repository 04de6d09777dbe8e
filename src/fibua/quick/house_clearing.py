"""House-Clearing quick battles: a side is two players' groups, each led by an officer or
an NCO, the rest soldiers priced by rank and weapon.

A figure's points: 4 for each point of initiative it can expect (D3, +1 for a leader), and
20 x its expected weapon skill / 100 (3D6x10, 4D6x10 for a leader) x the share of that
skill its weapon keeps, averaged over the ranges 1, 3, 6, 10 and 15 in: the band divisor of
the range (none beyond the last band), on single shots or, for a weapon that has it, on
automatic, where the halved chance is taken as falling on three figures in the cone.
"""

from __future__ import annotations

import random
from typing import Any

from fibua.battlefield.model import LengthUnit, TerrainKind
from fibua.quick.army import Muster, mean_roll
from fibua.quick.compose import Item
from fibua.quick.nations import Nation, ident
from fibua.quick.town import TownPlan
from fibua.rulesets.house_clearing.forces import Forces
from fibua.rulesets.house_clearing.shooting import OutOfRange, band_for, fire_row
from fibua.rulesets.house_clearing.tables import (
    AUTO_CHANCE_DIVISOR,
    INITIATIVE_DIE,
    INITIATIVE_LEADER_BONUS,
    MOVE_RATE,
    SKILL_DICE,
    WEAPONS,
    Rank,
    WeaponName,
)

RANGES = (1.0, 3.0, 6.0, 10.0, 15.0)  # inches: across a room, a yard, a street
AUTO_TARGETS = 3
INITIATIVE_POINTS = 4
SKILL_POINTS = 20
MOST: dict[WeaponName, int] = {
    WeaponName.PISTOL: 1, WeaponName.SMG: 3, WeaponName.CARBINE: 3, WeaponName.RIFLE: 7,
    WeaponName.BOX_LMG: 2, WeaponName.BELT_LMG: 1, WeaponName.ASSAULT_RIFLE: 2,
}
#: what leaders carry, one drawn for each
LEADER_WEAPONS = (WeaponName.SMG, WeaponName.ASSAULT_RIFLE, WeaponName.CARBINE,
                  WeaponName.RIFLE)
PLAYERS = 2
SPACING = 1.0  # inches between figures as they start


def _share(row_of: WeaponName, auto: bool, distance: float) -> float:
    try:
        band = band_for(fire_row(row_of, auto), distance)
    except OutOfRange:
        return 0.0
    share = 1 / band.divisor
    return share * AUTO_TARGETS / AUTO_CHANCE_DIVISOR if auto else share


def weapon_share(weapon: WeaponName) -> float:
    """The share of its skill a weapon keeps, averaged over RANGES (its better mode)."""
    automatic = WEAPONS[weapon].auto is not None
    best = [max(_share(weapon, False, r), _share(weapon, True, r) if automatic else 0.0)
            for r in RANGES]
    return sum(best) / len(best)


def figure_points(weapon: WeaponName, rank: Rank) -> int:
    leader = rank is not Rank.SOLDIER
    initiative = float(mean_roll(INITIATIVE_DIE)) + (INITIATIVE_LEADER_BONUS if leader else 0)
    skill = float(mean_roll(SKILL_DICE[leader]))
    return round(INITIATIVE_POINTS * initiative + SKILL_POINTS * skill / 100
                 * weapon_share(weapon))


def _item(weapon: WeaponName, rank: Rank, most: int) -> Item:
    title = f"{rank} with {WEAPONS[weapon].title}"
    return Item(f"{rank}:{weapon}", title, figure_points(weapon, rank), most)


class HouseClearingArmy:
    ruleset = "house-clearing"
    plan = TownPlan(36.0, LengthUnit.INCH, 4, density=0.75, max_floors=2)
    pace = MOVE_RATE[TerrainKind.PLOT]
    clearance = 0.6
    budget = 230
    picks = (6, 9)

    def prices(self, nation: Nation) -> tuple[Item, ...]:
        return tuple(_item(w, Rank.SOLDIER, MOST[w]) for w in WeaponName)

    def core(self, rng: random.Random) -> list[Item]:
        ranks = (Rank.OFFICER, *[Rank.NCO] * (PLAYERS - 1))
        return [_item(rng.choice(LEADER_WEAPONS), rank, 1) for rank in ranks]

    def forces(self, muster: Muster) -> dict[str, Any]:
        leaders, soldiers = muster.picks[:PLAYERS], list(muster.picks[PLAYERS:])
        muster.rng.shuffle(soldiers)
        nation = muster.nation
        players = []
        for n, leader in enumerate(leaders, start=1):
            group = [leader, *soldiers[n - 1::PLAYERS]]
            spots = muster.placer.cluster((n - 0.5) / PLAYERS, len(group), SPACING, 5)
            figures = []
            for item, at in zip(group, spots, strict=True):
                rank, weapon = item.key.split(":")
                surname = muster.names.surname()
                word = nation.ranks[{"officer": 0, "nco": 1}.get(rank, 2)]
                figure: dict[str, Any] = {"id": ident(surname), "name": f"{word} {surname}",
                                          "weapon": weapon, "at": list(at)}
                if rank != Rank.SOLDIER:
                    figure["rank"] = rank
                figures.append(figure)
            players.append({"id": f"{nation.code}-{ident(nation.squad)}-{n}",
                            "name": f"{nation.squad} {n} ({figures[0]['name']})",
                            "figures": figures})
        return {"players": players}

    def price(self, forces: Forces) -> int:
        return sum(figure_points(f.weapon, f.rank) for p in forces.players for f in p.figures)

    def options(self) -> dict[str, Any]:
        return {}
