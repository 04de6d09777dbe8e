"""Street-Fight quick battles: a side is figures, each priced by its weapon, dealt out into
groups of three to five.

A figure's points: 10 for the figure (one hit puts any figure out), 10 for each enemy it
can expect to kill with one firing at 8 in (rounds x the chance to hit in the open x the
chance a hit kills, all from the weapon table), and 2 for each point of its weapon's
close-combat modifier.
"""

from __future__ import annotations

import random
from math import ceil
from typing import Any

from fibua.battlefield.model import LengthUnit
from fibua.quick.army import Muster, mean_roll
from fibua.quick.compose import Item
from fibua.quick.nations import Nation, ident
from fibua.quick.town import TownPlan
from fibua.rulesets.street_fight.forces import Forces
from fibua.rulesets.street_fight.shooting import increments, kill_chance
from fibua.rulesets.street_fight.tables import (
    BASE_CHANCE,
    MOVE_NORMAL,
    RANGE_STEP,
    WEAPONS,
    WeaponName,
)

RANGE = 8.0  # inches: a street's width or two, where most fire is exchanged
FIGURE_POINTS = 10
KILL_POINTS = 10
CLOSE_COMBAT_POINTS = 2
#: at most this many of each weapon a side
MOST: dict[WeaponName, int] = {
    WeaponName.PISTOL: 2, WeaponName.RIFLE: 8, WeaponName.SCOPED_RIFLE: 2,
    WeaponName.ASSAULT_RIFLE: 3, WeaponName.LMG: 2, WeaponName.HMG: 1,
}
GROUP = 5  # figures a group at most
SPACING = 1.5  # inches between figures of a group as they start


def expected_kills(weapon: WeaponName) -> float:
    spec = WEAPONS[weapon]
    chance = BASE_CHANCE + spec.bonus + RANGE_STEP * increments(RANGE, spec.increment)
    rounds = float(mean_roll(spec.rounds)) if spec.rounds else 1.0
    return rounds * min(max(chance, 0), 100) / 100 * kill_chance(weapon)


def figure_points(weapon: WeaponName) -> int:
    return round(FIGURE_POINTS + KILL_POINTS * expected_kills(weapon)
                 + CLOSE_COMBAT_POINTS * WEAPONS[weapon].close_combat)


class StreetFightArmy:
    ruleset = "street-fight"
    plan = TownPlan(40.0, LengthUnit.INCH, 5, max_floors=2)
    pace = MOVE_NORMAL
    clearance = 0.6
    budget = 180
    picks = (6, 10)

    def prices(self, nation: Nation) -> tuple[Item, ...]:
        return tuple(Item(str(w), WEAPONS[w].title, figure_points(w), MOST[w]) for w in WEAPONS)

    def core(self, rng: random.Random) -> list[Item]:
        return []

    def forces(self, muster: Muster) -> dict[str, Any]:
        figures = list(muster.picks)
        muster.rng.shuffle(figures)
        count = ceil(len(figures) / GROUP)
        groups = [figures[n::count] for n in range(count)]
        nation = muster.nation
        units = []
        for n, group in enumerate(groups, start=1):
            spots = muster.placer.cluster((n - 0.5) / count, len(group), SPACING, GROUP)
            members = []
            for k, (item, at) in enumerate(zip(group, spots, strict=True)):
                surname = muster.names.surname()
                rank = nation.ranks[1] if k == 0 else nation.ranks[2]
                members.append({"id": ident(surname), "name": f"{rank} {surname}",
                                "weapon": item.key, "at": list(at)})
            leader = members[0]["name"]
            units.append({"id": f"{nation.code}-{ident(nation.squad)}-{n}",
                          "name": f"{nation.squad} {n} ({leader})", "figures": members})
        return {"units": units}

    def price(self, forces: Forces) -> int:
        return sum(figure_points(WeaponName(f.weapon)) for u in forces.units for f in u.figures)

    def options(self) -> dict[str, Any]:
        return {"morale": True}
