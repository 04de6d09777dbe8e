"""Exact odds of Buildings actions, before they are ordered: a unit's fire, an HE hit, a
tank driving into a building, a shell falling through floors.

The odds use the same pure functions as the game (shooting.py, blast.py, vehicles.py);
distributions are worked out with icepool, in fractions, and reported as floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Literal

import icepool
from pydantic import BaseModel, ConfigDict, Field

from fibua.core.errors import IllegalOrder
from fibua.core.ruleset import OddsQuery, OddsReport
from fibua.rulesets.buildings.assault import CLOSE_QUARTERS, VEHICLE_ASSAULT
from fibua.rulesets.buildings.blast import collapses, halved, he_hit, indirect_need, template
from fibua.rulesets.buildings.forces import Options
from fibua.rulesets.buildings.shooting import (
    Hit,
    OutOfRange,
    Shot,
    Target,
    chance_for_target,
    check_range,
    damage_basis,
    damage_chance,
    hit_basis,
    hit_modifiers,
    hit_of,
    hit_target,
)
from fibua.rulesets.buildings.tables import (
    ARMOURED,
    BURST_ON,
    COLLAPSE_AT,
    COLLAPSING_DICE,
    FLAME_VEHICLE_BONUS,
    SIX_THEN,
    TANK_ASSAULT_DIE,
    VEHICLE_ASSAULT_HIT,
    VEHICLE_DAMAGE,
    WEAPONS,
    BuildingKind,
    Cover,
    Facing,
    Quality,
    VehicleKind,
    VehicleResult,
    WeaponName,
    is_small_arm,
)
from fibua.rulesets.buildings.vehicles import chart_result, check_tank_assault

D6_FACES = range(1, 7)


class _Question(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


def _bernoulli(p: Fraction) -> icepool.Die:
    """1 with chance p, else 0."""
    if p <= 0:
        return icepool.Die([0])
    if p >= 1:
        return icepool.Die([1])
    return icepool.Die({0: p.denominator - p.numerator, 1: p.numerator})


def _floats(die: icepool.Die) -> dict[str, float]:
    return {str(k): float(p) for k, p in zip(die.outcomes(), die.probabilities(), strict=True)}


def _p(die: icepool.Die, predicate: bool = True) -> Fraction:
    return Fraction(die.probability(predicate))


class ShootQuestion(_Question):
    weapon: WeaponName = Field(description="the firers' weapon")
    range: float = Field(ge=0, description="range in inches")
    quality: Quality = Field(Quality.REGULAR, description="the target's quality")
    cover: Cover = Field(Cover.NONE, description="the target's cover")
    target_down: bool = Field(False, description="the target is Down")
    advanced: bool = Field(False, description="the firers are on an Advance")
    pins: int = Field(0, ge=0, le=20, description="pins on the firing unit")
    inexperienced: bool = Field(False, description="the firers are inexperienced")
    models: int = Field(1, ge=1, le=30, description="models firing this weapon")
    inside: bool = Field(False, description=(
        "the target is inside a building or on its roof: hard cover at least, and extra "
        "protection"))
    target_models: int | None = Field(None, ge=1, le=30, description=(
        "models in the target unit (1 or 2: a small team; kills are capped at it)"))
    one_crew: bool = Field(False, description="a team weapon down to its last model")
    vehicle: VehicleKind | None = Field(None, description=(
        "the target is a vehicle of this kind (kills are then penetrating hits)"))
    facing: Facing = Field(Facing.FRONT, description="the vehicle's armour facing the firers")
    plunging: bool = Field(False, description=(
        "plunging fire: a heavy weapon from floor 1 or higher at armour within 12 in"))


def _target(q: ShootQuestion) -> Target:
    if q.vehicle is not None:
        return Target(None, q.vehicle)
    return Target(q.quality, inside=q.inside)


def _hit(q: ShootQuestion) -> Hit:
    facing = Facing.TOP if WEAPONS[q.weapon].flame and q.vehicle is not None else q.facing
    return hit_of(q.weapon, q.range, facing, q.plunging)


def _shot(q: ShootQuestion) -> Shot:
    cover = q.cover
    if q.inside and cover in (Cover.NONE, Cover.SOFT):
        cover = Cover.HARD
    quality = Quality.INEXPERIENCED if q.inexperienced else Quality.REGULAR
    models = None if q.vehicle is not None else q.target_models
    return Shot(q.weapon, q.range, quality, q.pins, q.advanced, q.one_crew, models,
                cover, q.target_down)


def _check_shoot(q: ShootQuestion) -> None:
    arms = WEAPONS[q.weapon]
    if arms.pen is None:
        raise IllegalOrder(f"a {arms.title} fires HE: ask the he question",
                           code="he-weapon")
    try:
        check_range(q.weapon, q.range)
    except OutOfRange as error:
        raise IllegalOrder(str(error), code="out-of-range") from None
    if q.advanced and arms.fixed:
        raise IllegalOrder(f"a {arms.title} cannot fire on an Advance", code="fixed")
    if q.vehicle is not None and q.inside:
        raise IllegalOrder("vehicles are never inside buildings", code="vehicle-inside")
    if q.plunging and (is_small_arm(q.weapon) or q.vehicle not in ARMOURED):
        raise IllegalOrder("only heavy weapons plunge, and only at armoured vehicles",
                           code="not-plunging")


def kills_die(q: ShootQuestion) -> tuple[Fraction, Fraction, icepool.Die]:
    """(chance a shot hits, chance a hit damages, the number of models removed)."""
    _check_shoot(q)
    shot = _shot(q)
    hit = chance_for_target(hit_target(shot))
    damage = damage_chance(_hit(q), _target(q))
    kills = q.models @ attack_die(q.weapon, hit, damage)
    if q.target_models is not None:
        cap = q.target_models
        kills = kills.map(lambda k: min(k, cap))
    return hit, damage, kills


@lru_cache(maxsize=4096)  # the dice are immutable; a forecast asks the same few often
def attack_die(weapon: WeaponName, hit: Fraction, damage: Fraction) -> icepool.Die:
    """What one model's fire with the weapon removes (or, at a vehicle, penetrates), given
    the chance a shot hits and a hit damages: each of its shots rolled to hit and to damage;
    a flamethrower rolls once to hit, and a hit is D6 hits (D6+1 from a vehicle)."""
    arms = WEAPONS[weapon]
    if not arms.flame:
        return arms.shots @ _bernoulli(hit * damage)
    bonus = FLAME_VEHICLE_BONUS if weapon is WeaponName.VEHICLE_FLAMETHROWER else 0
    return either(hit, (icepool.d6 + bonus) @ _bernoulli(damage))


def either(p: Fraction, die: icepool.Die) -> icepool.Die:
    """`die` with chance p, else 0 (what an attack does when its one roll succeeds)."""
    if p <= 0:
        return icepool.Die([0])
    if p >= 1:
        return die
    return icepool.Die([icepool.Die([0]), die],
                       times=[(1 - p).numerator * p.denominator,
                              p.numerator * (1 - p).denominator])


def knocked_out_chance(penetrating: icepool.Die, options: Options) -> Fraction:
    """The chance a vehicle is knocked out by some number of penetrating hits, each rolled
    on the damage chart (what else a hit does aside)."""
    ko = Fraction(sum(1 for f in D6_FACES
                      if chart_result(f, options) is VehicleResult.KNOCKED_OUT), 6)
    return 1 - sum((Fraction(p) * (1 - ko) ** k for k, p in
                    zip(penetrating.outcomes(), penetrating.probabilities(), strict=True)),
                   Fraction(0))


def shoot_odds(q: ShootQuestion) -> OddsReport:
    hit, damage, kills = kills_die(q)
    shot = _shot(q)
    arms = WEAPONS[q.weapon]
    need = hit_target(shot)
    attempts = q.models * (1 if arms.flame else arms.shots)
    dbasis = damage_basis(_hit(q), _target(q))
    values: dict[str, object] = {
        "hit": float(hit),
        "to_hit": need,
        "damage": float(damage),
        "shots": attempts,
        "expected_hits": float(attempts * hit * _hits_per_hit(q.weapon)),
        "expected_kills": float(Fraction(kills.mean())),
        "kills": _floats(kills),
        "modifiers": {m.name: m.value for m in hit_modifiers(shot)},
    }
    if q.vehicle is not None:
        values["knocked_out"] = float(knocked_out_chance(kills, Options()))
    rows = [(m.name, f"{m.value:+d}") for m in hit_basis(shot)]
    rows.append(("to hit", _hit_words(need)))
    rows.append(("chance a shot hits", f"{float(hit):.2%}"))
    rows += [(m.name, f"{m.value:+d}") for m in dbasis]
    if q.vehicle is not None:
        rows.append(("chance a hit penetrates", f"{float(damage):.2%}"))
        rows.append(("expected penetrating hits", f"{float(Fraction(kills.mean())):.2f}"))
        rows.append(("chance the vehicle is knocked out", f"{values['knocked_out']:.2%}"))
        return OddsReport(values, rows)
    rows.append(("chance a hit removes a model", f"{float(damage):.2%}"))
    rows.append(("expected models removed", f"{float(Fraction(kills.mean())):.2f}"))
    rows.append(("chance of removing at least one", f"{float(1 - _p(kills == 0)):.2%}"))
    return OddsReport(values, rows)


def _hits_per_hit(weapon: WeaponName) -> Fraction:
    """Hits a successful to-hit roll makes: one, or a flamethrower's D6 (D6+1)."""
    if not WEAPONS[weapon].flame:
        return Fraction(1)
    bonus = FLAME_VEHICLE_BONUS if weapon is WeaponName.VEHICLE_FLAMETHROWER else 0
    return Fraction(7, 2) + bonus


def _hit_words(need: int) -> str:
    if need >= 10:
        return "cannot hit"
    if need > 6:
        return f"{need}: a 6, then {SIX_THEN[need]}+"
    return f"{max(2, need)}+"


class HeQuestion(_Question):
    size: Literal[1, 2, 3, 4] = Field(description="the HE template, inches")
    target_in: Literal["building", "bunker", "open"] = Field(
        "building", description="where the unit hit is")
    down: bool = Field(False, description="the unit is Down (halves the hits, rounding up)")
    quality: Quality = Field(Quality.REGULAR, description="the target's quality")
    under: int = Field(1, ge=0, le=30, description=(
        "in the open: models of the target under the template"))


@dataclass(frozen=True)
class HeKills:
    """One HE hit on a unit: the hits rolled (in the open, the models under the template),
    the models it removes when the section stands (a collapse counts none: everyone inside
    is destroyed instead), the chance the section collapses, and a hit's damage chance."""

    raw: icepool.Die
    kills: icepool.Die
    collapse: Fraction
    damage: Fraction


@lru_cache(maxsize=4096)
def he_kills(size: int, building: BuildingKind | None, quality: Quality = Quality.REGULAR,
             down: bool = False, under: int = 1, on_collapse: int = 0) -> HeKills:
    """One HE hit of the template on a unit in the open (`building` None: `under` models
    under it) or inside a building: hits halved for Down after the collapse check, then a
    damage roll a hit (none in a bunker). A collapse counts `on_collapse` models removed
    (the unit's models, to count the unit destroyed)."""
    damage = damage_chance(he_hit(size), Target(quality))
    if building is None:
        landing = icepool.Die([halved(under) if down else under])
        return HeKills(landing, landing @ _bernoulli(damage), Fraction(0), damage)
    dice = template(size).in_buildings
    raw = _die_of(dice)
    if building is BuildingKind.BUNKER:
        damage = Fraction(0)  # HE cannot damage troops in a bunker, only bring it down
    per_hit = _bernoulli(damage)

    def removed(hits: int) -> icepool.Die:
        if collapses(hits, dice, building):
            return icepool.Die([on_collapse])
        return (halved(hits) if down else hits) @ per_hit

    return HeKills(raw, raw.map(removed), collapse_chance(size, building), damage)


def he_odds(q: HeQuestion) -> OddsReport:
    plate = template(q.size)
    pins = _die_of(plate.pins)
    rows: list[tuple[str, str]] = [("pins", plate.pins), ("penetration", f"+{plate.pen}")]
    building = None if q.target_in == "open" else (
        BuildingKind.BUNKER if q.target_in == "bunker" else BuildingKind.BRICK)
    found = he_kills(q.size, building, q.quality, q.down, q.under)
    raw, kills, collapse, damage = found.raw, found.kills, found.collapse, found.damage
    if building is not None:
        rows.append(("hits in the building", plate.in_buildings))
        can = plate.in_buildings in COLLAPSING_DICE
        rows.append(("collapses at", f"{COLLAPSE_AT[building]}+ hits"
                     + ("" if can else " (these dice cannot reach it)")))
    expected = Fraction(kills.mean())
    standing = 1 - collapse
    values: dict[str, object] = {
        "collapse": float(collapse),
        "pins": _floats(pins),
        "damage": float(damage),
        "hits": _floats(raw),
        "expected_kills": float(expected),
        "expected_kills_if_standing": float(expected / standing) if standing else 0.0,
    }
    rows.append(("chance the section collapses", f"{float(collapse):.2%}"))
    rows.append(("chance a hit removes a model", f"{float(damage):.2%}"))
    rows.append(("expected models removed, a collapse apart", f"{float(expected):.2f}"))
    return OddsReport(values, rows)


def collapse_chance(size: int, building: BuildingKind) -> Fraction:
    """Chance one HE hit of this size on a unit in the building brings the section down."""
    dice = template(size).in_buildings
    return _p(_die_of(dice).map(lambda h: collapses(h, dice, building)))


def _die_of(notation: str) -> icepool.Die:
    """An icepool die for the notations of the HE table (d2, d3, d6, 2d6, 3d6)."""
    if notation == "d3":
        return (icepool.d6 + 1) // 2
    count, _, sides = notation.partition("d")
    return int(count or 1) @ icepool.d(int(sides))


class TankAssaultQuestion(_Question):
    tank: Literal["heavy", "super-heavy"] = Field(description="the tank")
    building: BuildingKind = Field(description="the building it drives into")


def tank_assault_chances(tank: VehicleKind, building: BuildingKind,
                         options: Options | None = None) -> dict[str, Fraction]:
    """Exact chances of each way a tank driving into a building ends (IllegalOrder for a
    tank or building the rules refuse)."""
    options = options or Options()
    dice = check_tank_assault(tank, building)
    ours = _die_of(TANK_ASSAULT_DIE) + VEHICLE_DAMAGE[tank]
    theirs = _die_of(dice)
    tank_wins, equal, holds = _p(ours > theirs), _p(ours == theirs), _p(theirs > ours)
    penetrating = Fraction(0) if building is BuildingKind.WOODEN else holds
    superficial = holds + equal - penetrating
    knocked_out = penetrating * Fraction(sum(
        1 for f in D6_FACES if chart_result(f, options) is VehicleResult.KNOCKED_OUT), 6)
    immobilised = superficial * Fraction(sum(
        1 for f in D6_FACES if f >= options.superficial_immobilised_on), 6)
    return {
        "collapse": tank_wins + equal,
        "tank_damaged": holds + equal,
        "tank_wins": tank_wins,
        "equal": equal,
        "building_holds": holds,
        "penetrating_hit": penetrating,
        "superficial_hit": superficial,
        "knocked_out": knocked_out,
        "immobilised_by_superficial": immobilised,
    }


def tank_assault_odds(q: TankAssaultQuestion) -> OddsReport:
    tank = VehicleKind.HEAVY_TANK if q.tank == "heavy" else VehicleKind.SUPER_HEAVY_TANK
    found = tank_assault_chances(tank, q.building)
    values = {k: float(v) for k, v in found.items()}
    rows = [
        ("tank", f"D6+{VEHICLE_DAMAGE[tank]}"),
        ("building", check_tank_assault(tank, q.building)),
        ("chance the building collapses", f"{values['collapse']:.2%}"),
        ("chance the tank is damaged", f"{values['tank_damaged']:.2%}"),
        ("chance of a penetrating hit", f"{values['penetrating_hit']:.2%}"),
        ("chance the tank is knocked out", f"{values['knocked_out']:.2%}"),
    ]
    return OddsReport(dict(values), rows)


class IndirectQuestion(_Question):
    floors: int = Field(ge=1, le=20, description=(
        "floors of the building, a flat roof counting as one"))
    earlier: int = Field(0, ge=0, le=10, description=(
        "earlier tries at the same target from the same place"))
    ranged_in: bool = Field(False, description="the firer has already hit this target")


def floor_chances(floors: int) -> dict[int, Fraction]:
    """Where a shell that hit a building bursts: the top floor on 4+, else one floor down
    and again; the ground floor always. Floors counted from 0 (the ground)."""
    if floors < 1:
        raise IllegalOrder("a building has one floor at least", code="no-floor")
    burst = Fraction(7 - BURST_ON, 6)
    out: dict[int, Fraction] = {}
    falling = Fraction(1)
    for floor in range(floors - 1, 0, -1):
        out[floor] = falling * burst
        falling *= 1 - burst
    out[0] = falling
    return out


def indirect_odds(q: IndirectQuestion) -> OddsReport:
    need = indirect_need(q.earlier, q.ranged_in)
    hit = Fraction(7 - need, 6)
    floor = floor_chances(q.floors)
    values = {
        "hit": float(hit),
        "to_hit": need,
        "floor": {str(k): float(p) for k, p in sorted(floor.items())},
        "floor_and_hit": {str(k): float(p * hit) for k, p in sorted(floor.items())},
    }
    rows = [("to hit", f"{need}+ ({float(hit):.2%})")]
    rows += [(f"bursts on floor {k}" + (" (ground)" if k == 0 else ""), f"{float(p):.2%}")
             for k, p in sorted(floor.items(), reverse=True)]
    return OddsReport(values, rows)


@dataclass(frozen=True)
class AssaultOdds:
    """How an assault's fight ends: the assaulter wins (the target destroyed), loses (the
    assaulter destroyed), both are destroyed in one round, or neither after the most
    rounds."""

    win: float
    lose: float
    both: float
    neither: float


def assault_odds(attackers: int, defenders: int, attacker: Quality, defender: Quality,
                 together: bool, rounds: int) -> AssaultOdds:
    """The fight of an assault, round by round: each model makes one attack that hits by
    itself and removes a model on its damage roll (no cover); in the open the attackers
    strike first and only the defenders left strike back, in a building both at once. The
    side that causes more casualties wins; a tie fights on with those left. Reaction fire
    and the tests at half strength aside. Worked out in floats: the rounds multiply the
    fractions' sizes."""
    hurt = float(damage_chance(CLOSE_QUARTERS, Target(defender)))
    back = float(damage_chance(CLOSE_QUARTERS, Target(attacker)))
    win = lose = both = 0.0
    # a tie costs both sides the same: the fights still going are one line of states
    going = {(attackers, defenders): 1.0}
    for _ in range(rounds):
        after: dict[tuple[int, int], float] = {}
        for (a, d), weight in going.items():
            for k, pk in _binomial(a, hurt):
                strikers = d if together else max(0, d - k)
                for j, pj in _binomial(strikers, back):
                    w = weight * pk * pj
                    if k >= d and j >= a:
                        both += w
                    elif k >= d or (j < a and k > j):
                        win += w
                    elif j >= a or j > k:
                        lose += w
                    else:
                        after[a - j, d - k] = after.get((a - j, d - k), 0.0) + w
        going = after
    return AssaultOdds(win, lose, both, sum(going.values()))


def _binomial(n: int, p: float) -> list[tuple[int, float]]:
    return [(k, comb(n, k) * p ** k * (1 - p) ** (n - k)) for k in range(n + 1)]


def vehicle_assault_chance(attackers: int, vehicle: VehicleKind) -> Fraction:
    """The chance attackers knock out a vehicle they assault: each hits on a 6 and then
    rolls to damage its side armour; the first that damages knocks it out."""
    hit = Fraction(7 - VEHICLE_ASSAULT_HIT, 6)
    each = hit * damage_chance(VEHICLE_ASSAULT, Target(None, vehicle))
    return 1 - (1 - each) ** attackers


ODDS_QUERIES = {
    "shoot": OddsQuery("shoot", "chance to hit and models removed by one unit's fire with "
                                "one weapon", ShootQuestion, shoot_odds),
    "he": OddsQuery("he", "an HE hit: pins, hits, and the chance a building collapses",
                    HeQuestion, he_odds),
    "tank-assault": OddsQuery("tank-assault", "a heavy tank drives into a building",
                              TankAssaultQuestion, tank_assault_odds),
    "indirect": OddsQuery("indirect", "indirect fire at a building: to hit, and the floor "
                                      "the shell bursts on", IndirectQuestion, indirect_odds),
}
