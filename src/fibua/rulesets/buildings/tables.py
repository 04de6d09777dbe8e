"""Buildings tables as data: troops, movement, weapons, HE, damage, vehicles, buildings,
the forward observers' tables and a catalogue of typical units (distances in inches).

Values the rules leave to us (*ours* in docs/rules/buildings.md) are the defaults of the
named options in forces.py; the constants here are the numbers the rules give.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fibua.battlefield.model import Construction

#: the four kinds of building the chapter knows: the map's construction names them
BuildingKind = Construction


class Quality(StrEnum):
    INEXPERIENCED = "inexperienced"
    REGULAR = "regular"
    VETERAN = "veteran"


#: the order test passes on 2D6 at most morale - pins
MORALE: dict[Quality, int] = {Quality.INEXPERIENCED: 8, Quality.REGULAR: 9, Quality.VETERAN: 10}
#: the D6 + penetration an infantry or gun-crew model needs to be damaged
INFANTRY_DAMAGE: dict[Quality, int] = {
    Quality.INEXPERIENCED: 3, Quality.REGULAR: 4, Quality.VETERAN: 5}


class UnitKind(StrEnum):
    INFANTRY = "infantry"  # squads, teams, observers
    GUN = "gun"  # a gun or howitzer with its crew
    VEHICLE = "vehicle"


class VehicleKind(StrEnum):
    SOFT_SKINNED = "soft-skinned"
    ARMOURED_CAR = "armoured-car"  # armoured cars and carriers
    LIGHT_TANK = "light-tank"
    MEDIUM_TANK = "medium-tank"
    HEAVY_TANK = "heavy-tank"
    SUPER_HEAVY_TANK = "super-heavy-tank"


#: the D6 + penetration a vehicle needs to be penetrated
VEHICLE_DAMAGE: dict[VehicleKind, int] = {
    VehicleKind.SOFT_SKINNED: 6,
    VehicleKind.ARMOURED_CAR: 7,
    VehicleKind.LIGHT_TANK: 8,
    VehicleKind.MEDIUM_TANK: 9,
    VehicleKind.HEAVY_TANK: 10,
    VehicleKind.SUPER_HEAVY_TANK: 11,
}
ARMOURED: frozenset[VehicleKind] = frozenset(VEHICLE_DAMAGE) - {VehicleKind.SOFT_SKINNED}


class Mobility(StrEnum):
    FOOT = "foot"
    MANHANDLED = "manhandled"  # a gun moved by its crew, Advance only
    TRACKED = "tracked"
    WHEELED = "wheeled"


@dataclass(frozen=True, slots=True)
class Rate:
    advance: float  # inches
    run: float | None  # inches; None: cannot Run


MOVEMENT: dict[Mobility, Rate] = {
    Mobility.FOOT: Rate(6.0, 12.0),
    Mobility.MANHANDLED: Rate(6.0, None),
    Mobility.TRACKED: Rate(9.0, 18.0),
    Mobility.WHEELED: Rate(12.0, 24.0),
}


DEFAULT_TURNS = 6  # a game's usual length, before the roll for one more turn


class OrderKind(StrEnum):
    FIRE = "fire"
    ADVANCE = "advance"
    RUN = "run"
    AMBUSH = "ambush"
    RALLY = "rally"
    DOWN = "down"


class Facing(StrEnum):
    FRONT = "front"
    SIDE = "side"
    REAR = "rear"
    TOP = "top"  # indirect fire, plunging fire, flamethrowers


#: added to the penetration of a hit on a vehicle from each facing
FACING_BONUS: dict[Facing, int] = {Facing.FRONT: 0, Facing.SIDE: 1, Facing.REAR: 2, Facing.TOP: 1}


class WeaponName(StrEnum):
    PISTOL = "pistol"
    RIFLE = "rifle"
    SMG = "smg"
    ASSAULT_RIFLE = "assault-rifle"
    LMG = "lmg"
    MMG = "mmg"
    HMG = "hmg"
    AT_RIFLE = "anti-tank-rifle"
    PIAT = "piat"
    BAZOOKA = "bazooka"
    PANZERSCHRECK = "panzerschreck"
    PANZERFAUST = "panzerfaust"
    FLAMETHROWER = "flamethrower"
    VEHICLE_FLAMETHROWER = "vehicle-flamethrower"
    LIGHT_MORTAR = "light-mortar"
    MEDIUM_MORTAR = "medium-mortar"
    LIGHT_HOWITZER = "light-howitzer"
    MEDIUM_HOWITZER = "medium-howitzer"
    HEAVY_HOWITZER = "heavy-howitzer"
    LIGHT_GUN = "light-gun"
    MEDIUM_GUN = "medium-gun"
    HEAVY_GUN = "heavy-gun"
    SUPER_HEAVY_GUN = "super-heavy-gun"


@dataclass(frozen=True, slots=True)
class Weapon:
    name: WeaponName
    title: str
    range: float  # inches, direct fire; 0 for a weapon that fires only indirect
    shots: int
    pen: int | None  # penetration of a shot that is not HE; None: fires only HE
    assault: bool = False  # no -1 for firing on an Advance
    team: bool = False  # -1 to hit when its team is down to one model
    fixed: bool = False  # cannot fire on an Advance; one opening at a time inside
    shaped: bool = False  # shaped charge: keeps its penetration at long range
    one_shot: bool = False
    he: int | None = None  # HE template radius in inches (1..4), if it fires HE
    indirect: tuple[float, float] | None = None  # inches, minimum and maximum
    flame: bool = False


SMALL_ARMS: frozenset[WeaponName] = frozenset({
    WeaponName.PISTOL, WeaponName.RIFLE, WeaponName.SMG, WeaponName.ASSAULT_RIFLE,
    WeaponName.LMG, WeaponName.MMG, WeaponName.HMG,
})

W = WeaponName
WEAPONS: dict[WeaponName, Weapon] = {
    w.name: w
    for w in (
        Weapon(W.PISTOL, "Pistol", 6, 1, 0, assault=True),
        Weapon(W.RIFLE, "Rifle", 24, 1, 0),
        Weapon(W.SMG, "SMG", 12, 2, 0, assault=True),
        Weapon(W.ASSAULT_RIFLE, "Assault rifle", 18, 2, 0, assault=True),
        Weapon(W.LMG, "LMG", 36, 4, 0, team=True),
        Weapon(W.MMG, "MMG", 36, 5, 0, team=True, fixed=True),
        Weapon(W.HMG, "HMG", 36, 3, 1, team=True, fixed=True),
        Weapon(W.AT_RIFLE, "Anti-tank rifle", 36, 1, 2),
        Weapon(W.PIAT, "PIAT", 12, 1, 5, shaped=True),
        Weapon(W.BAZOOKA, "Bazooka", 24, 1, 5, shaped=True),
        Weapon(W.PANZERSCHRECK, "Panzerschreck", 24, 1, 6, shaped=True),
        Weapon(W.PANZERFAUST, "Panzerfaust", 12, 1, 6, shaped=True, one_shot=True),
        Weapon(W.FLAMETHROWER, "Flamethrower", 6, 1, 3, flame=True),
        Weapon(W.VEHICLE_FLAMETHROWER, "Vehicle flamethrower", 12, 1, 3, flame=True),
        Weapon(W.LIGHT_MORTAR, "Light mortar", 0, 1, None, he=1, indirect=(12, 24)),
        Weapon(W.MEDIUM_MORTAR, "Medium mortar", 0, 1, None, he=2, indirect=(12, 60)),
        Weapon(W.LIGHT_HOWITZER, "Light howitzer", 48, 1, None, fixed=True, he=2,
               indirect=(24, 60)),
        Weapon(W.MEDIUM_HOWITZER, "Medium howitzer", 60, 1, None, fixed=True, he=3,
               indirect=(30, 72)),
        Weapon(W.HEAVY_HOWITZER, "Heavy howitzer", 72, 1, None, fixed=True, he=4,
               indirect=(36, 84)),
        Weapon(W.LIGHT_GUN, "Light gun", 48, 1, 4, fixed=True, he=1),
        Weapon(W.MEDIUM_GUN, "Medium gun", 60, 1, 5, fixed=True, he=1),
        Weapon(W.HEAVY_GUN, "Heavy gun", 72, 1, 6, fixed=True, he=2),
        Weapon(W.SUPER_HEAVY_GUN, "Super-heavy gun", 84, 1, 7, fixed=True, he=3),
    )
}
del W


def is_small_arm(weapon: WeaponName) -> bool:
    return weapon in SMALL_ARMS


@dataclass(frozen=True, slots=True)
class HeTemplate:
    radius: int  # inches
    pins: str  # dice of pins on the unit hit
    pen: int
    in_buildings: str  # dice of hits on a unit inside a building (or a bunker)


HE_TEMPLATES: dict[int, HeTemplate] = {
    t.radius: t
    for t in (
        HeTemplate(1, "d2", 1, "d3"),
        HeTemplate(2, "d3", 2, "d6"),
        HeTemplate(3, "d3", 3, "2d6"),
        HeTemplate(4, "d6", 4, "3d6"),
    )
}
#: an HE hit in a building can bring it down only with these damage dice
COLLAPSING_DICE: frozenset[str] = frozenset({"2d6", "3d6"})
#: hits from one HE hit (or strike, or barrage) that bring a section down
COLLAPSE_AT: dict[Construction, int] = {
    Construction.WOODEN: 10, Construction.BRICK: 10, Construction.STRONG: 10,
    Construction.BUNKER: 12,
}
#: the building's dice against a tank driving into it; strong buildings and bunkers: never
TANK_ASSAULT_BUILDING: dict[Construction, str] = {
    Construction.WOODEN: "2d6", Construction.BRICK: "3d6"}
#: the tank's D6 is added to its damage value
TANK_ASSAULT_TANKS: frozenset[VehicleKind] = frozenset({
    VehicleKind.HEAVY_TANK, VehicleKind.SUPER_HEAVY_TANK})
#: which buildings a flamethrower can set alight
BURNS: frozenset[Construction] = frozenset(Construction) - {Construction.BUNKER}


class Cover(StrEnum):
    NONE = "none"
    SOFT = "soft"
    HARD = "hard"
    BUNKER = "bunker"


COVER: dict[Cover, int] = {Cover.NONE: 0, Cover.SOFT: -1, Cover.HARD: -2, Cover.BUNKER: -4}

# to hit: D6, then these terms
HIT_BASE = 3
POINT_BLANK = 6.0  # inches, within
POINT_BLANK_BONUS = 1
LONG_RANGE = -1  # over half the weapon's range
ADVANCED = -1  # the firer moved (not assault weapons)
PER_PIN = -1
INEXPERIENCED = -1
ONE_CREW = -1  # a team weapon with one model left to fire it
SMALL_TEAM = -1  # the target is a team of this many models or fewer
SMALL_TEAM_MODELS = 2
TARGET_DOWN = -2
#: beyond 6, a to-hit target of N needs a 6 then this on a second die; from 10, no hit
SIX_THEN: dict[int, int] = {7: 4, 8: 5, 9: 6}
IMPOSSIBLE_HIT = 10

EXTRA_PROTECTION = 1  # to the damage value of infantry and guns inside a building
LONG_RANGE_PEN = -1  # against vehicles, not HE, shaped charges or flamethrowers
GUN_SHIELD = 1  # to the damage value of the crew, from the gun's front
PLUNGING_RANGE = 12.0  # inches: heavy weapons from floor 1 up at armour this close

# order test: 2D6 at most morale - pins, the target clamped
TEST_DICE = "2d6"
TEST_LOWEST = 2
TEST_HIGHEST = 11
RALLY_PINS = "d6"  # pins a Rally order removes
KEPT_DOWN_PINS = "d3"  # pins a unit kept Down through a turn loses at its end

# indirect fire: the first try at a target needs a 6, each later one one better, down to
INDIRECT_FIRST = 6
INDIRECT_BEST = 2  # once ranged in
#: a shell that hit a building bursts on a floor on this D6, else falls one floor
BURST_ON = 4

FLAME_HITS = "d6"
FLAME_VEHICLE_BONUS = 1  # hits from a vehicle's flamethrower: D6+1
FLAME_PINS = "d3"
FLAME_EXTRA_PINS = 1  # D3+1
FIRE_ON = 4  # a flamethrower attack sets a building alight on this D6

TANK_ASSAULT_DIE = "d6"  # added to the tank's damage value

FIRERS_PER_OPENING = 2
FIRERS_PER_ROOF_SIDE = 5
ENTER_WITHIN = 1.0  # inches from the section (and a transport) to go in
ASSAULT_REACH = 6.0  # inches: models this close join a fight; a charge from within surprises
VEHICLE_ASSAULT_HIT = 6  # D6 each attacker within reach needs to hit a vehicle
VEHICLE_ASSAULT_PEN = 2  # and its penetration, against side armour


class VehicleResult(StrEnum):
    NONE = "none"
    SHAKEN = "crew-shaken"  # one pin, next order Down
    IMMOBILISED = "immobilised"
    KNOCKED_OUT = "knocked-out"


class StrikeResult(StrEnum):
    FRIENDLY = "strikes-friends"  # the nearest friendly unit is hit instead
    NO_SHOW = "does-not-come"
    STRIKE = "strikes"


class BarrageResult(StrEnum):
    NOTHING = "nothing"
    PINS = "pins"
    HEAVY_HIT = "heavy-hit"


class ObserverKind(StrEnum):
    AIR = "air"
    ARTILLERY = "artillery"


AIR_STRIKE_HE = 4  # inches: the template of one strike hit
BARRAGE_HE = 4  # a barrage's 6: a heavy howitzer hit
BARRAGE_PINS = "d3"


class UnitType(StrEnum):
    """Typical units a scenario may name instead of listing every weapon."""

    RIFLE_SQUAD = "rifle-squad"
    SMG_SQUAD = "smg-squad"
    ASSAULT_SQUAD = "assault-squad"
    HQ = "hq"
    MMG_TEAM = "mmg-team"
    HMG_TEAM = "hmg-team"
    AT_RIFLE_TEAM = "anti-tank-rifle-team"
    PIAT_TEAM = "piat-team"
    BAZOOKA_TEAM = "bazooka-team"
    PANZERSCHRECK_TEAM = "panzerschreck-team"
    FLAMETHROWER_TEAM = "flamethrower-team"
    LIGHT_MORTAR_TEAM = "light-mortar-team"
    MEDIUM_MORTAR_TEAM = "medium-mortar-team"
    AIR_OBSERVER = "air-observer"
    ARTILLERY_OBSERVER = "artillery-observer"
    LIGHT_AT_GUN = "light-anti-tank-gun"
    MEDIUM_AT_GUN = "medium-anti-tank-gun"
    HEAVY_AT_GUN = "heavy-anti-tank-gun"
    LIGHT_HOWITZER = "light-howitzer"
    MEDIUM_HOWITZER = "medium-howitzer"
    HEAVY_HOWITZER = "heavy-howitzer"
    TRUCK = "truck"
    CARRIER = "carrier"
    ARMOURED_CAR = "armoured-car"
    LIGHT_TANK = "light-tank"
    MEDIUM_TANK = "medium-tank"
    FLAME_TANK = "flame-tank"
    HEAVY_TANK = "heavy-tank"
    SUPER_HEAVY_TANK = "super-heavy-tank"


@dataclass(frozen=True, slots=True)
class Carried:
    weapon: WeaponName
    count: int  # models carrying it (infantry), or mounts (guns and vehicles)


@dataclass(frozen=True, slots=True)
class Typical:
    """A typical unit: its kind, how many models (a vehicle is one), and its weapons. The
    models of infantry with no weapon named carry `weapon`; a gun's crew and a vehicle
    fire only the weapons in `carried`."""

    type: UnitType
    title: str
    kind: UnitKind
    models: int
    weapon: WeaponName | None  # the weapon of every model not named in `carried`
    carried: tuple[Carried, ...] = ()
    mobility: Mobility = Mobility.FOOT
    vehicle: VehicleKind | None = None
    transport: bool = False  # carries one infantry unit
    gun_shield: bool = False
    observer: ObserverKind | None = None


def _c(weapon: WeaponName, count: int = 1) -> Carried:
    return Carried(weapon, count)


T, K, M, V = UnitType, UnitKind, Mobility, VehicleKind
CATALOGUE: dict[UnitType, Typical] = {
    t.type: t
    for t in (
        Typical(T.RIFLE_SQUAD, "Rifle squad", K.INFANTRY, 10, WeaponName.RIFLE,
                (_c(WeaponName.LMG), _c(WeaponName.SMG))),
        Typical(T.SMG_SQUAD, "SMG squad", K.INFANTRY, 8, WeaponName.SMG),
        Typical(T.ASSAULT_SQUAD, "Assault squad", K.INFANTRY, 8, WeaponName.ASSAULT_RIFLE,
                (_c(WeaponName.PANZERFAUST, 2),)),
        Typical(T.HQ, "Headquarters", K.INFANTRY, 2, WeaponName.PISTOL,
                (_c(WeaponName.SMG),)),
        Typical(T.MMG_TEAM, "MMG team", K.INFANTRY, 3, None, (_c(WeaponName.MMG),)),
        Typical(T.HMG_TEAM, "HMG team", K.INFANTRY, 3, None, (_c(WeaponName.HMG),)),
        Typical(T.AT_RIFLE_TEAM, "Anti-tank rifle team", K.INFANTRY, 2, None,
                (_c(WeaponName.AT_RIFLE),)),
        Typical(T.PIAT_TEAM, "PIAT team", K.INFANTRY, 2, None, (_c(WeaponName.PIAT),)),
        Typical(T.BAZOOKA_TEAM, "Bazooka team", K.INFANTRY, 2, None,
                (_c(WeaponName.BAZOOKA),)),
        Typical(T.PANZERSCHRECK_TEAM, "Panzerschreck team", K.INFANTRY, 2, None,
                (_c(WeaponName.PANZERSCHRECK),)),
        Typical(T.FLAMETHROWER_TEAM, "Flamethrower team", K.INFANTRY, 2, None,
                (_c(WeaponName.FLAMETHROWER),)),
        Typical(T.LIGHT_MORTAR_TEAM, "Light mortar team", K.INFANTRY, 2, None,
                (_c(WeaponName.LIGHT_MORTAR),)),
        Typical(T.MEDIUM_MORTAR_TEAM, "Medium mortar team", K.INFANTRY, 3, None,
                (_c(WeaponName.MEDIUM_MORTAR),)),
        Typical(T.AIR_OBSERVER, "Air observer", K.INFANTRY, 2, WeaponName.RIFLE,
                observer=ObserverKind.AIR),
        Typical(T.ARTILLERY_OBSERVER, "Artillery observer", K.INFANTRY, 2, WeaponName.RIFLE,
                observer=ObserverKind.ARTILLERY),
        Typical(T.LIGHT_AT_GUN, "Light anti-tank gun", K.GUN, 3, None,
                (_c(WeaponName.LIGHT_GUN),), M.MANHANDLED, gun_shield=True),
        Typical(T.MEDIUM_AT_GUN, "Medium anti-tank gun", K.GUN, 4, None,
                (_c(WeaponName.MEDIUM_GUN),), M.MANHANDLED, gun_shield=True),
        Typical(T.HEAVY_AT_GUN, "Heavy anti-tank gun", K.GUN, 5, None,
                (_c(WeaponName.HEAVY_GUN),), M.MANHANDLED, gun_shield=True),
        Typical(T.LIGHT_HOWITZER, "Light howitzer", K.GUN, 4, None,
                (_c(WeaponName.LIGHT_HOWITZER),), M.MANHANDLED, gun_shield=True),
        Typical(T.MEDIUM_HOWITZER, "Medium howitzer", K.GUN, 5, None,
                (_c(WeaponName.MEDIUM_HOWITZER),), M.MANHANDLED, gun_shield=True),
        Typical(T.HEAVY_HOWITZER, "Heavy howitzer", K.GUN, 6, None,
                (_c(WeaponName.HEAVY_HOWITZER),), M.MANHANDLED, gun_shield=True),
        Typical(T.TRUCK, "Truck", K.VEHICLE, 1, None, (), M.WHEELED, V.SOFT_SKINNED,
                transport=True),
        Typical(T.CARRIER, "Carrier", K.VEHICLE, 1, None, (_c(WeaponName.LMG),), M.TRACKED,
                V.ARMOURED_CAR, transport=True),
        Typical(T.ARMOURED_CAR, "Armoured car", K.VEHICLE, 1, None,
                (_c(WeaponName.LIGHT_GUN), _c(WeaponName.MMG)), M.WHEELED, V.ARMOURED_CAR),
        Typical(T.LIGHT_TANK, "Light tank", K.VEHICLE, 1, None,
                (_c(WeaponName.LIGHT_GUN), _c(WeaponName.MMG)), M.TRACKED, V.LIGHT_TANK),
        Typical(T.MEDIUM_TANK, "Medium tank", K.VEHICLE, 1, None,
                (_c(WeaponName.MEDIUM_GUN), _c(WeaponName.MMG, 2)), M.TRACKED, V.MEDIUM_TANK),
        Typical(T.FLAME_TANK, "Flame tank", K.VEHICLE, 1, None,
                (_c(WeaponName.VEHICLE_FLAMETHROWER), _c(WeaponName.MMG)), M.TRACKED,
                V.MEDIUM_TANK),
        Typical(T.HEAVY_TANK, "Heavy tank", K.VEHICLE, 1, None,
                (_c(WeaponName.HEAVY_GUN), _c(WeaponName.MMG, 2)), M.TRACKED, V.HEAVY_TANK),
        Typical(T.SUPER_HEAVY_TANK, "Super-heavy tank", K.VEHICLE, 1, None,
                (_c(WeaponName.SUPER_HEAVY_GUN), _c(WeaponName.MMG, 2)), M.TRACKED,
                V.SUPER_HEAVY_TANK),
    )
}
del T, K, M, V


def weapons_of(typical: Typical) -> list[WeaponName]:
    """The weapon of each model of an infantry unit, or each mount of a gun or vehicle,
    named weapons first."""
    named = [c.weapon for c in typical.carried for _ in range(c.count)]
    if typical.kind is not UnitKind.INFANTRY or typical.weapon is None:
        return named
    return named + [typical.weapon] * (typical.models - len(named))
