"""To hit and to damage: pure functions of the firer, the target and the weapon, shared by
the game and by the odds.

Each roll is recorded as the raw D6 against the number it had to reach, with every term
of that number by name in `basis` (the base, each modifier, the damage value, the
penetration), so that a natural 1 that misses and the 6-then rule read plainly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from fibua.core.dice import Modifier, Rng, Roll, roll
from fibua.rulesets.buildings.tables import (
    ADVANCED,
    COVER,
    EXTRA_PROTECTION,
    FACING_BONUS,
    GUN_SHIELD,
    HE_TEMPLATES,
    HIT_BASE,
    IMPOSSIBLE_HIT,
    INEXPERIENCED,
    INFANTRY_DAMAGE,
    LONG_RANGE,
    LONG_RANGE_PEN,
    ONE_CREW,
    PER_PIN,
    POINT_BLANK,
    POINT_BLANK_BONUS,
    SIX_THEN,
    SMALL_TEAM,
    SMALL_TEAM_MODELS,
    TARGET_DOWN,
    VEHICLE_DAMAGE,
    WEAPONS,
    BuildingKind,
    Cover,
    Facing,
    Quality,
    VehicleKind,
    WeaponName,
)

D6 = 6


class OutOfRange(ValueError):
    """The weapon cannot reach the target."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One firer's shots at one target, as far as the chance to hit goes."""

    weapon: WeaponName
    range: float  # inches
    firer_quality: Quality = Quality.REGULAR
    firer_pins: int = 0
    advanced: bool = False
    #: a team weapon whose team is down to one model
    one_crew: bool = False
    #: models in the target unit, if it is infantry or a gun (None: a vehicle)
    target_models: int | None = None
    cover: Cover = Cover.NONE
    target_down: bool = False
    #: an HE shot fired straight at a building: its cover does not count (Down does)
    he_at_building: bool = False


def cover_inside(building: BuildingKind) -> Cover:
    """The cover of a unit inside a building, or on its roof: hard, or bunker."""
    return Cover.BUNKER if building is BuildingKind.BUNKER else Cover.HARD


def is_long_range(weapon: WeaponName, distance: float) -> bool:
    return distance > WEAPONS[weapon].range / 2


def check_range(weapon: WeaponName, distance: float) -> None:
    arms = WEAPONS[weapon]
    if arms.range <= 0:
        raise OutOfRange(f"a {arms.title} fires only indirect")
    if round(distance, 9) > arms.range:
        raise OutOfRange(f"out of range: {distance:g}in is beyond the {arms.title}'s "
                         f"{arms.range:g}in")


def hit_modifiers(shot: Shot) -> tuple[Modifier, ...]:
    """Every term that changes the to-hit roll, by name (those that apply)."""
    arms = WEAPONS[shot.weapon]
    terms: list[Modifier] = []
    # both can apply: a pistol at 4 in is at point blank and at long range
    if shot.range <= POINT_BLANK:
        terms.append(Modifier("point blank", POINT_BLANK_BONUS))
    if is_long_range(shot.weapon, shot.range):
        terms.append(Modifier("long range", LONG_RANGE))
    if shot.advanced and not arms.assault:
        terms.append(Modifier("advanced", ADVANCED))
    if shot.firer_pins:
        terms.append(Modifier(f"pins ({shot.firer_pins})", PER_PIN * shot.firer_pins))
    if shot.firer_quality is Quality.INEXPERIENCED:
        terms.append(Modifier("inexperienced", INEXPERIENCED))
    if shot.one_crew and arms.team:
        terms.append(Modifier("team down to one", ONE_CREW))
    if shot.target_models is not None and shot.target_models <= SMALL_TEAM_MODELS:
        terms.append(Modifier("small team", SMALL_TEAM))
    # flamethrowers and HE at a building ignore cover; Down is not cover
    if not arms.flame and not shot.he_at_building and COVER[shot.cover]:
        terms.append(Modifier(f"{shot.cover} cover", COVER[shot.cover]))
    if shot.target_down:
        terms.append(Modifier("target down", TARGET_DOWN))
    return tuple(terms)


def hit_target(shot: Shot) -> int:
    """The number a D6 must reach before the natural-1 and 6-then rules: 3 less the sum of
    the modifiers."""
    return HIT_BASE - sum(m.value for m in hit_modifiers(shot))


def hit_basis(shot: Shot) -> tuple[Modifier, ...]:
    """The terms of the to-hit number: the base, then each modifier (a -1 to the roll is +1
    to the number)."""
    return (Modifier("base", HIT_BASE),
            *(Modifier(m.name, -m.value) for m in hit_modifiers(shot)))


def chance_for_target(target: int) -> Fraction:
    """Chance one shot hits: a natural 1 misses; 7-9 need a 6 then 4+, 5+, 6; 10+ never."""
    if target >= IMPOSSIBLE_HIT:
        return Fraction(0)
    if target > D6:
        return Fraction(1, D6) * Fraction(D6 + 1 - SIX_THEN[target], D6)
    return Fraction(D6 + 1 - max(2, target), D6)


def hit_chance(shot: Shot) -> Fraction:
    return chance_for_target(hit_target(shot))


def can_hit(target: int) -> bool:
    return target < IMPOSSIBLE_HIT


@dataclass(frozen=True, slots=True)
class HitRoll:
    """One shot's to-hit dice: one roll, or a 6 and then the second die."""

    rolls: tuple[Roll, ...]

    @property
    def hit(self) -> bool:
        return bool(self.rolls) and all(r.success for r in self.rolls)


def roll_to_hit(rng: Rng, shot: Shot) -> HitRoll:
    """Roll one shot (none if it cannot hit: the game refuses such a shot)."""
    return roll_hit_target(rng, hit_target(shot), hit_basis(shot))


def roll_hit_target(rng: Rng, target: int, basis: tuple[Modifier, ...] = ()) -> HitRoll:
    if not can_hit(target):
        return HitRoll(())
    if target <= D6:
        return HitRoll((roll(rng, "d6", "to hit", need=max(2, target), basis=basis),))
    first = roll(rng, "d6", f"to hit ({target}: a 6, then {SIX_THEN[target]}+)", need=D6,
                 basis=basis)
    if not first.success:
        return HitRoll((first,))
    second = roll(rng, "d6", "to hit, second die", need=SIX_THEN[target])
    return HitRoll((first, second))


@dataclass(frozen=True, slots=True)
class Target:
    """What a hit strikes, as far as damage goes: troops of a quality, or a vehicle."""

    quality: Quality | None = Quality.REGULAR  # infantry and gun crews
    vehicle: VehicleKind | None = None
    inside: bool = False  # inside a building or on its roof
    #: a gun's crew hit from the gun's front 90 degrees, the gun having a shield
    behind_shield: bool = False

    def __post_init__(self) -> None:
        if (self.quality is None) == (self.vehicle is None):
            raise ValueError("a target is troops of a quality or a vehicle")


@dataclass(frozen=True, slots=True)
class Hit:
    """One hit as far as damage goes."""

    pen: int
    he: bool = False
    flame: bool = False
    shaped: bool = False
    close_quarters: bool = False
    long_range: bool = False
    facing: Facing = Facing.FRONT
    #: a heavy weapon from floor 1 or higher at armour within 12 in
    plunging: bool = False


def hit_of(weapon: WeaponName, distance: float, facing: Facing = Facing.FRONT,
           plunging: bool = False, he: bool = False) -> Hit:
    """The hit a weapon's shot makes (`he`: a gun firing its HE, at the template's pen)."""
    arms = WEAPONS[weapon]
    if he or arms.pen is None:
        if arms.he is None:
            raise ValueError(f"a {arms.title} fires no HE")
        return Hit(HE_TEMPLATES[arms.he].pen, he=True, facing=facing, plunging=plunging)
    return Hit(arms.pen, flame=arms.flame, shaped=arms.shaped,
               long_range=is_long_range(weapon, distance), facing=facing, plunging=plunging)


def damage_basis(hit: Hit, target: Target) -> tuple[Modifier, ...]:
    """The terms of the number the D6 must reach to damage: the damage value, what adds to
    it, and the penetration (taken off)."""
    terms: list[Modifier] = []
    if target.vehicle is not None:
        terms.append(Modifier(f"{target.vehicle} damage value", VEHICLE_DAMAGE[target.vehicle]))
        terms.append(Modifier("penetration", -hit.pen))
        if hit.long_range and not (hit.he or hit.shaped or hit.flame):
            terms.append(Modifier("long range", -LONG_RANGE_PEN))
        name, bonus = f"{hit.facing} armour", FACING_BONUS[hit.facing]
        if hit.plunging and FACING_BONUS[Facing.TOP] > bonus:  # the better one, never both
            name, bonus = "plunging fire: top armour", FACING_BONUS[Facing.TOP]
        if bonus:
            terms.append(Modifier(name, -bonus))
        return tuple(terms)
    assert target.quality is not None
    terms.append(Modifier(f"{target.quality} damage value", INFANTRY_DAMAGE[target.quality]))
    blast = hit.he or hit.flame or hit.close_quarters
    if target.inside and not blast:
        terms.append(Modifier("extra protection", EXTRA_PROTECTION))
    if target.behind_shield and not blast and not target.inside:
        terms.append(Modifier("gun shield", GUN_SHIELD))
    terms.append(Modifier("penetration", -hit.pen))
    return tuple(terms)


def damage_need(hit: Hit, target: Target) -> int | None:
    """The D6 face a hit needs to damage; None: it cannot. Troops: a natural 6 always
    damages and a natural 1 never; a vehicle needs the plain total."""
    need = sum(m.value for m in damage_basis(hit, target))
    if target.vehicle is None:
        return min(D6, max(2, need))
    if need > D6:
        return None
    return max(1, need)


def damage_chance(hit: Hit, target: Target) -> Fraction:
    need = damage_need(hit, target)
    return Fraction(0) if need is None else Fraction(D6 + 1 - need, D6)


def roll_damage(rng: Rng, hit: Hit, target: Target) -> Roll:
    """The damage roll of one hit. A hit that cannot penetrate a vehicle is still rolled
    (the record shows why it failed): its need is above 6."""
    need = damage_need(hit, target)
    if need is None:
        need = sum(m.value for m in damage_basis(hit, target))
    return roll(rng, "d6", "damage", need=need, basis=damage_basis(hit, target))
