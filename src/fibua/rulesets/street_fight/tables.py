"""Street-Fight tables as data: weapons, the random weapon table, movement and close combat."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class WeaponName(StrEnum):
    PISTOL = "pistol"
    RIFLE = "rifle"
    SCOPED_RIFLE = "scoped-rifle"
    ASSAULT_RIFLE = "assault-rifle"
    LMG = "lmg"
    HMG = "hmg"


@dataclass(frozen=True, slots=True)
class Weapon:
    name: WeaponName
    title: str
    bonus: int  # percent added to the chance to hit
    increment: int  # inches per range increment; each one, or part of one, costs 10%
    kill: int  # a hit kills on a d10 of at least this
    rounds: str | None  # dice for the number of rounds of an automatic weapon
    moves_and_fires: bool = True
    aims: bool = True
    close_combat: int = 0  # modifier to its carrier's close-combat roll
    table: tuple[int, int] = (0, 0)  # d100 faces on the random weapon table


WEAPONS: dict[WeaponName, Weapon] = {
    w.name: w
    for w in (
        Weapon(WeaponName.PISTOL, "Pistol", 0, 2, 5, None, table=(1, 50)),
        Weapon(WeaponName.RIFLE, "Rifle", 10, 4, 4, None, table=(51, 70)),
        Weapon(WeaponName.SCOPED_RIFLE, "Scoped rifle", 20, 4, 4, None, table=(71, 80)),
        Weapon(WeaponName.ASSAULT_RIFLE, "Assault rifle", 10, 3, 4, "d10/2", table=(81, 90)),
        Weapon(WeaponName.LMG, "LMG", 0, 4, 3, "d10", close_combat=-1, table=(91, 99)),
        Weapon(
            WeaponName.HMG, "HMG", 0, 5, 2, "d10",
            moves_and_fires=False, aims=False, close_combat=-2, table=(100, 100),
        ),
    )
}


def weapon_for_d100(face: int) -> Weapon:
    """The random weapon table: a d100 face (1..100, 100 read as 00) to a weapon."""
    for weapon in WEAPONS.values():
        low, high = weapon.table
        if low <= face <= high:
            return weapon
    raise ValueError(f"{face} is not a d100 face")


BASE_CHANCE = 100
RANGE_STEP = -10  # per range increment or part of one
COVER_STEP = -25  # per quarter of cover: 1/4, 1/2, 3/4
MOVING_TARGET = -20
MOVING_FIRER = -20
AIM_STEP = 10  # per turn spent aiming
AIM_MAX_TURNS = 3
OVERWATCH_POINT = -10
OVERWATCH_AREA = -20
SPREAD_STEP = -10  # per inch of frontage or part of one

MOVE_NORMAL = 5.0  # inches
MOVE_MAX = 9.0  # inches; more than MOVE_NORMAL: no fire, no cover, moving next turn too
FLOOR_CHANGE_COST = 2.0  # inches of movement to go up or down one floor inside a building
CONTACT = 1.0  # within this many inches figures are in close combat
OVERWATCH_POINT_RADIUS = 1.0  # a nominated point: a doorway, a window
OVERWATCH_AREA_MAX_RADIUS = 6.0  # a large area: a courtyard, a crossroads

CLOSE_COMBAT_WOUND = 8  # the winner wounds on a modified total of at least this
CC_LOST_LAST_ROUND = -1
CC_EXTRA_ATTACKER = -1  # for each enemy beyond the first in contact with the figure
CC_CHARGED = 1
CC_DEFENDING_COVER = 1

MORALE_LOSS_FRACTION = 1 / 3  # first test once a unit has lost this share of its figures
