"""House-Clearing tables as data: weapons and their range bands, movement, climbing, the
body model, and the statistics figures are rolled with. Distances are in inches."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fibua.battlefield.model import TerrainKind

# ---------------------------------------------------------------- weapons and range bands


class WeaponName(StrEnum):
    PISTOL = "pistol"
    SMG = "smg"
    CARBINE = "carbine"
    RIFLE = "rifle"
    BOX_LMG = "box-lmg"
    BELT_LMG = "belt-lmg"
    ASSAULT_RIFLE = "assault-rifle"


class Row(StrEnum):
    """A row of the range-band table (the assault rifle has none of its own)."""

    PISTOL = "pistol"
    SMG = "smg"
    CARBINE = "carbine"
    RIFLE = "rifle"
    BOX_LMG = "box-lmg"
    BELT_LMG = "belt-lmg"


BAND_NAMES = ("Full", "Half", "Quarter", "Eighth", "Sixteenth")
BAND_DIVISORS = (1, 2, 4, 8, 16)

#: The outer limit of each band, Full to Sixteenth, in inches.
RANGE_BANDS: dict[Row, tuple[int, int, int, int, int]] = {
    Row.PISTOL: (1, 2, 3, 4, 5),
    Row.SMG: (2, 4, 6, 8, 10),
    Row.CARBINE: (4, 8, 12, 16, 20),
    Row.RIFLE: (5, 10, 15, 20, 25),
    Row.BOX_LMG: (4, 8, 12, 16, 20),
    Row.BELT_LMG: (5, 10, 15, 20, 25),
}


@dataclass(frozen=True, slots=True)
class Weapon:
    name: WeaponName
    title: str
    single: Row  # the row used for single shots
    auto: Row | None  # the row used on automatic; None: single shots only
    #: a belt-fed gun with fewer crew than this fires from `short_crew` instead
    crew: int = 1
    short_crew: Row | None = None


WEAPONS: dict[WeaponName, Weapon] = {
    w.name: w
    for w in (
        Weapon(WeaponName.PISTOL, "pistol", Row.PISTOL, None),
        Weapon(WeaponName.SMG, "SMG", Row.SMG, Row.SMG),
        Weapon(WeaponName.CARBINE, "carbine", Row.CARBINE, None),
        Weapon(WeaponName.RIFLE, "rifle", Row.RIFLE, None),
        Weapon(WeaponName.BOX_LMG, "box-fed LMG", Row.BOX_LMG, Row.BOX_LMG),
        Weapon(WeaponName.BELT_LMG, "belt-fed LMG", Row.BELT_LMG, Row.BELT_LMG,
               crew=2, short_crew=Row.BOX_LMG),
        # fires as a carbine on single shot, as an SMG on automatic
        Weapon(WeaponName.ASSAULT_RIFLE, "assault rifle", Row.CARBINE, Row.SMG),
    )
}

#: Automatic fire: the cone's far end is this share of the range wide...
CONE_WIDTH_SHARE = 4  # a quarter of the range
#: ...and every figure in it is fired at with the chance divided by this (rounded down).
AUTO_CHANCE_DIVISOR = 2
HITS_PER_HUNDRED = 100  # every complete 100 of the chance is an automatic hit
COVER_DIE = "d6"  # a hit is confirmed on this die of at most the fifths visible
EFFECT_DIE = "d3"  # initiative points a confirmed hit costs
CREW_REACH = 1.0  # the second crewman of a belt-fed gun stands within this of the gunner

# ---------------------------------------------------------------- figures' statistics


class Rank(StrEnum):
    OFFICER = "officer"
    NCO = "nco"
    HERO = "hero"
    SOLDIER = "soldier"


LEADERS = frozenset({Rank.OFFICER, Rank.NCO, Rank.HERO})
INITIATIVE_DIE = "d3"
INITIATIVE_LEADER_BONUS = 1
SKILL_DICE = {True: "4d6x10", False: "3d6x10"}
#: The highest initiative a rolled figure can have: the last move step, the first fire step.
TOP_STEP = 4

# ---------------------------------------------------------------- movement

#: Inches a whole move covers, by where the figure is.
MOVE_INSIDE = 3.0  # inside a building
MOVE_RATE: dict[TerrainKind, float] = {
    TerrainKind.OPEN: 9.0,
    TerrainKind.ROAD: 9.0,
    TerrainKind.PLOT: 6.0,  # on a tile but not in a building
    TerrainKind.ROUGH: 6.0,  # fibua's reading: broken ground moves as a tile
    TerrainKind.RUBBLE: 6.0,
}
#: Climbing, as shares of a whole move: up to chest height half a move, higher than the
#: figure up to one and a half times its height a whole move, anything higher not at all.
CLIMB_HALF = 0.5
CLIMB_WHOLE = 1.0
CHEST_LINE = 0.8  # share of the figure's height: the top of the chest band
CLIMB_LIMIT = 1.5  # share of the figure's height
#: A whole-move climb takes the figure from the foot of the wall to just beyond it: the
#: ground it covers on either side may total at most this.
CLIMB_REACH = 2.0
FLOOR_CHANGE = 0.5  # share of a move to go up or down one floor inside a building
SPACING = 0.5  # inches: no figure may end its move this close to another it knows of
PATH_SAMPLE = 1.0  # inches: where along its path a mover can be seen and fired on

# ---------------------------------------------------------------- the body model


class Stance(StrEnum):
    STANDING = "standing"
    CROUCHING = "crouching"
    PRONE = "prone"
    LEANING = "leaning"  # standing beside a door or window of its room, leaning out


BAND_LABELS = ("head", "chest", "stomach", "groin", "boots")

#: Each stance's body bands, head first, as (bottom, top) shares of the figure's standing
#: height. A crouching figure has folded its legs away: head, chest and stomach remain,
#: lowered; a prone figure shows its head alone, at ground level.
PROFILES: dict[Stance, tuple[tuple[float, float], ...]] = {
    Stance.STANDING: ((0.8, 1.0), (0.6, 0.8), (0.4, 0.6), (0.2, 0.4), (0.0, 0.2)),
    Stance.CROUCHING: ((0.4, 0.6), (0.2, 0.4), (0.0, 0.2)),
    Stance.PRONE: ((0.0, 0.2),),
    Stance.LEANING: ((0.8, 1.0), (0.6, 0.8), (0.4, 0.6), (0.2, 0.4), (0.0, 0.2)),
}
#: A leaning figure seen from outside its room shows only its first bands (the door or
#: window frame hides the rest): the seed's "head, chest and stomach".
LEANING_SHOWS = 3
LEAN_REACH = 1.0  # inches from a door or window of its room
COVER_REACH = 1.0  # inches: an obstacle this close to a figure, in the line of fire, hides it

#: Sill height, in inches above the floor, of each kind of opening (a window's comes from
#: the `window_sill` option).
DOOR_SILL = 0.0
SLIT_SILL = 0.7
OPENING_REACH = 0.5  # a figure this close to an opening it is not seen through stands in it
