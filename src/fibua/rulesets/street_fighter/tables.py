"""Street Fighter tables as data: the unit catalogue, formation presets, movement, the
shooting table and its modifiers, both observation tables, and the close-assault points.

Distances are in centimetres. A d10 is read 0-9; "N+" means face + modifiers >= N.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from math import inf
from typing import Literal


class Kind(StrEnum):
    INFANTRY = "infantry-section"
    HQ = "hq-section"
    MMG = "mmg-section"
    MORTAR = "mortar-section"
    SNIPER = "sniper"
    SHERMAN = "sherman"
    FIREFLY = "sherman-firefly"
    T34 = "t34"
    ASSAULT_GUN = "assault-gun"
    AT_GUN = "at-gun"
    HALFTRACK = "m3-halftrack"
    CARRIER = "bren-carrier"
    LORRY = "lorry"


class Body(StrEnum):
    """What a unit is as a target and as a mover."""

    FOOT = "foot"  # infantry: pinned by hits, enters building areas
    GUN = "gun"  # a manhandled gun and its crew: infantry as a target, cannot assault
    TANK = "tank"  # tanks and assault guns: only anti-tank fire harms them
    ARMOURED = "armoured"  # halftracks and carriers: "target in armoured halftrack"
    SOFT = "soft"  # lorries: any hit knocks them out


class Row(StrEnum):
    """Rows of the shooting table (and the infantry anti-tank rocket)."""

    TANK = "tank"
    INFANTRY = "infantry"
    MMG = "mmg"
    DIRECT_MORTAR = "direct-mortar"
    SNIPER = "sniper"
    ROCKET = "rocket"


@dataclass(frozen=True, slots=True)
class UnitType:
    kind: Kind
    title: str
    body: Body
    move: float  # cm for a normal move
    hit_points: int
    assault_points: int  # 0: cannot close assault
    row: Row | None  # how it shoots; None: it does not
    rocket: bool = False  # carries an infantry anti-tank rocket (PIAT, Panzerfaust)
    indirect: bool = False  # can fire indirect (mortars)
    capacity: int = 0  # passenger units it carries
    carries: str = ""  # what it is armed with, for the players

    @property
    def foot(self) -> bool:
        return self.body in (Body.FOOT, Body.GUN)

    @property
    def vehicle(self) -> bool:
        return not self.foot

    @property
    def kills_tanks(self) -> bool:
        return self.row is Row.TANK


TANK_MOVE = 8.0
HALFTRACK_MOVE = 8.0
FOOT_MOVE = 5.0
GUN_MOVE = 2.0  # manhandled guns
LORRY_MOVE = 10.0

#: Hit points are not in the seed; these are the values this implementation chose (see
#: docs/rules/street-fighter.md): a section of ten men takes three hits, everything smaller
#: or any vehicle takes one.
CATALOGUE: dict[Kind, UnitType] = {
    t.kind: t
    for t in (
        UnitType(Kind.INFANTRY, "Infantry section", Body.FOOT, FOOT_MOVE, 3, 8, Row.INFANTRY,
                 rocket=True, carries="rifles, a light machine gun, an anti-tank rocket"),
        UnitType(Kind.HQ, "HQ section", Body.FOOT, FOOT_MOVE, 1, 2, Row.INFANTRY,
                 carries="rifles, a radio (calls the artillery)"),
        UnitType(Kind.MMG, "MMG section", Body.FOOT, FOOT_MOVE, 1, 1, Row.MMG,
                 carries="a medium machine gun"),
        UnitType(Kind.MORTAR, "Mortar section", Body.FOOT, FOOT_MOVE, 1, 1, Row.DIRECT_MORTAR,
                 indirect=True, carries="a 3-inch mortar (direct or indirect)"),
        UnitType(Kind.SNIPER, "Sniper", Body.FOOT, FOOT_MOVE, 1, 1, Row.SNIPER,
                 carries="a scoped rifle"),
        UnitType(Kind.SHERMAN, "Sherman", Body.TANK, TANK_MOVE, 1, 0, Row.TANK,
                 carries="a 75 mm gun and machine guns"),
        UnitType(Kind.FIREFLY, "Sherman Firefly", Body.TANK, TANK_MOVE, 1, 0, Row.TANK,
                 carries="a 17-pounder gun"),
        UnitType(Kind.T34, "T34", Body.TANK, TANK_MOVE, 1, 0, Row.TANK,
                 carries="a 76 mm gun and machine guns"),
        UnitType(Kind.ASSAULT_GUN, "Assault gun", Body.TANK, TANK_MOVE, 1, 0, Row.TANK,
                 carries="a 75 mm gun in a fixed casemate"),
        UnitType(Kind.AT_GUN, "Anti-tank gun", Body.GUN, GUN_MOVE, 1, 0, Row.TANK,
                 carries="a 75 mm anti-tank gun, manhandled by its crew"),
        UnitType(Kind.HALFTRACK, "M3 halftrack", Body.ARMOURED, HALFTRACK_MOVE, 1, 0, Row.MMG,
                 capacity=1, carries="a heavy machine gun; carries one section"),
        UnitType(Kind.CARRIER, "Bren carrier", Body.ARMOURED, HALFTRACK_MOVE, 1, 0,
                 Row.INFANTRY, capacity=1, carries="a Bren gun; carries one small unit"),
        UnitType(Kind.LORRY, "Lorry", Body.SOFT, LORRY_MOVE, 1, 0, None, capacity=2,
                 carries="nothing; carries two units"),
    )
}

# ------------------------------------------------------------------ formations


@dataclass(frozen=True, slots=True)
class PresetUnit:
    suffix: str  # unit id = formation id + "-" + suffix
    kind: Kind
    title: str
    rides: str | None = None  # suffix of the vehicle it starts in


def _motor_platoon() -> tuple[PresetUnit, ...]:
    units = [PresetUnit("ht1", Kind.HALFTRACK, "halftrack 1"),
             PresetUnit("hq", Kind.HQ, "HQ", rides="ht1")]
    for n in (1, 2, 3):
        units += [PresetUnit(f"ht{n + 1}", Kind.HALFTRACK, f"halftrack {n + 1}"),
                  PresetUnit(f"s{n}", Kind.INFANTRY, f"section {n}", rides=f"ht{n + 1}")]
    return tuple(units)


def _scout_platoon() -> tuple[PresetUnit, ...]:
    units = [PresetUnit(f"hq{n}", Kind.CARRIER, f"HQ carrier {n}") for n in (1, 2, 3)]
    for section in (1, 2, 3):
        units += [PresetUnit(f"s{section}c{n}", Kind.CARRIER, f"section {section} carrier {n}")
                  for n in (1, 2, 3)]
    return tuple(units)


PresetName = Literal[
    "british-tank-troop", "soviet-tank-platoon", "motor-company-hq", "motor-platoon",
    "scout-platoon", "motor-company",
]

PRESETS: dict[str, tuple[PresetUnit, ...]] = {
    "british-tank-troop": (
        PresetUnit("t1", Kind.SHERMAN, "Sherman 1"),
        PresetUnit("t2", Kind.SHERMAN, "Sherman 2"),
        PresetUnit("t3", Kind.SHERMAN, "Sherman 3"),
        PresetUnit("ff", Kind.FIREFLY, "Firefly"),
    ),
    "soviet-tank-platoon": tuple(PresetUnit(f"t{n}", Kind.T34, f"T34 {n}") for n in (1, 2, 3)),
    "motor-company-hq": (
        PresetUnit("ht", Kind.HALFTRACK, "HQ halftrack"),
        PresetUnit("hq", Kind.HQ, "Company HQ", rides="ht"),
        PresetUnit("lorry", Kind.LORRY, "mortar lorry"),
        PresetUnit("mortars", Kind.MORTAR, "mortar section", rides="lorry"),
    ),
    "motor-platoon": _motor_platoon(),
    "scout-platoon": _scout_platoon(),
}


@dataclass(frozen=True, slots=True)
class Part:
    """One formation of a company preset: its own observation die and morale test."""

    suffix: str  # formation id = company id + "-" + suffix
    title: str  # formation name = company name + " " + title
    preset: PresetName  # a key of PRESETS


#: Presets of several formations, each one of PRESETS.
COMPANIES: dict[str, tuple[Part, ...]] = {
    "motor-company": (
        Part("hq", "HQ", "motor-company-hq"),
        Part("p1", "1st Platoon", "motor-platoon"),
        Part("p2", "2nd Platoon", "motor-platoon"),
        Part("p3", "3rd Platoon", "motor-platoon"),
        Part("scouts", "Scout Platoon", "scout-platoon"),
    ),
}


def placed_titles(preset: str) -> list[str]:
    """What stands at each of a preset's `at` points (passengers ride), in order."""
    if preset in COMPANIES:
        return [f"{part.title} {title}" for part in COMPANIES[preset]
                for title in placed_titles(part.preset)]
    return [u.title for u in PRESETS[preset] if u.rides is None]

# ------------------------------------------------------------------ shooting

#: Range bands of the shooting table: up to 10 cm, up to 25 cm, over 25 cm.
RANGE_BANDS: tuple[float, ...] = (10.0, 25.0, inf)
BAND_NAMES = ("10 cm", "25 cm", "over 25 cm")

#: Score needed on the d10 (or more), by row and band; None: the weapon cannot fire there.
SHOOTING: dict[Row, tuple[int | None, int | None, int | None]] = {
    Row.TANK: (4, 4, 4),
    Row.INFANTRY: (4, 5, 6),
    Row.MMG: (4, 4, 5),
    Row.DIRECT_MORTAR: (None, 5, 5),
    Row.SNIPER: (8, 8, 9),
    Row.ROCKET: (5, None, None),  # infantry anti-tank rockets: up to 10 cm only, 5+
}

FIRER_MOVED = -4  # "move half and shoot with low effect"
TARGET_FLAT_OUT = -1
FIRER_PINNED = -2
TARGET_BUILDING = -4
TARGET_STRONG_BUILDING = -5
TARGET_ARMOURED_HALFTRACK = -2
TARGET_LORRY = 1


class Cover(StrEnum):
    """Where the target is, as the shooting table's modifiers see it."""

    OPEN = "open"
    BUILDING = "building"
    STRONG_BUILDING = "strong-building"
    ARMOURED_HALFTRACK = "armoured-halftrack"
    LORRY = "lorry"


COVER_MODIFIER: dict[Cover, int] = {
    Cover.OPEN: 0,
    Cover.BUILDING: TARGET_BUILDING,
    Cover.STRONG_BUILDING: TARGET_STRONG_BUILDING,
    Cover.ARMOURED_HALFTRACK: TARGET_ARMOURED_HALFTRACK,
    Cover.LORRY: TARGET_LORRY,
}

LORRY_HIT_MULTIPLIER = 2  # "all effects on occupants doubled"

# ------------------------------------------------------------------ indirect fire

INDIRECT_RADIUS = 5.0  # cm
INDIRECT_NEED = 5  # every unit under the fire (tanks immune) is hit on 5+
#: The landing roll (this implementation's): a d10 when the fire comes down.
LANDING_LOST = 2  # face below this: the fire never comes (radio, ammunition)
LANDING_ON_TARGET = 5  # face at least this: on the marker; between: drifts
DRIFT = 5.0  # cm the fire drifts, in the direction of a d8 (N, NE, E, ...)

# ------------------------------------------------------------------ pinning

UNPIN_NEED = 8  # 8 or 9 on the d10
UNPIN_HQ = 1  # the formation's HQ is unpinned and in sight
UNPIN_TANKS = 1  # friendly tanks in support
UNPIN_ENEMY_TANKS = -1  # facing enemy tanks
#: cm: friendly tanks this close support; enemy tanks are faced from farther off
#: (morale.FACING_RANGE, 25 cm)
SUPPORT_RANGE = 10.0

# ------------------------------------------------------------------ observation

ALWAYS = 0  # any face of a d10 read 0-9 makes 0+
NEVER = None


class Sign(StrEnum):
    """What an observer sees of a target: the rows of the observation tables."""

    INFANTRY_HIDDEN = "infantry-hidden"  # not firing, in buildings or cover
    INFANTRY_OPEN = "infantry-open"  # not firing, in the open
    INFANTRY_FIRING_COVER = "infantry-firing-cover"
    SNIPER_FIRING_COVER = "sniper-firing-cover"
    INFANTRY_FIRING_OPEN = "infantry-firing-open"
    VEHICLE_STATIONARY = "vehicle-stationary"
    VEHICLE_MOVING = "vehicle-moving"
    VEHICLE_FIRING = "vehicle-firing"


#: Each row is a list of (up to this range in cm, score needed): ALWAYS, NEVER or N+.
#: A range exactly on a band edge belongs to the nearer band (rulings.md): "within" and
#: "up to" include the edge, and so does "under X" in the sniper and stationary-vehicle
#: rows, whose other band begins "over X"; so every range falls in one band.
Bands = tuple[tuple[float, int | None], ...]

OBSERVING: dict[Sign, Bands] = {
    Sign.INFANTRY_HIDDEN: ((inf, NEVER),),
    Sign.INFANTRY_OPEN: ((25.0, ALWAYS), (inf, 5)),
    Sign.INFANTRY_FIRING_COVER: ((10.0, ALWAYS), (inf, 5)),
    Sign.SNIPER_FIRING_COVER: ((25.0, 7), (inf, NEVER)),
    Sign.INFANTRY_FIRING_OPEN: ((inf, ALWAYS),),
    Sign.VEHICLE_STATIONARY: ((25.0, ALWAYS), (inf, 2)),
    Sign.VEHICLE_MOVING: ((inf, ALWAYS),),
    Sign.VEHICLE_FIRING: ((inf, ALWAYS),),
}

NOT_OBSERVING: dict[Sign, Bands] = {
    Sign.INFANTRY_HIDDEN: ((inf, NEVER),),
    Sign.INFANTRY_OPEN: ((10.0, ALWAYS), (inf, 7)),
    Sign.INFANTRY_FIRING_COVER: ((10.0, 5), (inf, 8)),
    Sign.SNIPER_FIRING_COVER: ((10.0, 7), (inf, NEVER)),
    Sign.INFANTRY_FIRING_OPEN: ((25.0, ALWAYS), (inf, 5)),
    Sign.VEHICLE_STATIONARY: ((10.0, ALWAYS), (inf, 2)),
    Sign.VEHICLE_MOVING: ((25.0, ALWAYS), (inf, 2)),
    Sign.VEHICLE_FIRING: ((inf, ALWAYS),),
}

COVER_REACH = 2.0  # cm: infantry this close to a wall or hedge is "in cover"

# ------------------------------------------------------------------ close assault

ASSAULT_NEED = 7  # d10 + 1 per full 10 points: 7+ inflicts one hit
ASSAULT_POINTS_STEP = 10

# ------------------------------------------------------------------ morale

DEMORALISED_AT_MOST = 1  # a face of 0 or 1 demoralises
SURRENDER_RANGE = 10.0  # cm: demoralised troops in the open surrender to enemy this close

MOUNT_REACH = FOOT_MOVE  # cm between a unit and the vehicle it mounts or leaves

COMPASS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")  # counter-clockwise from east


def a_or_an(noun: str) -> str:
    """The noun with its indefinite article, chosen by sound: an anti-tank gun, an M3
    halftrack, an HQ section, an MMG section, a T34, a Sherman."""
    word = noun.split()[0] if noun.strip() else ""
    initialism = len(word) > 1 and (word[:2].isupper() or word[1].isdigit())
    letters = "AEFHILMNORSX" if initialism else "AEIOU"
    return f"{'an' if word[:1].upper() in letters and word else 'a'} {noun}"
