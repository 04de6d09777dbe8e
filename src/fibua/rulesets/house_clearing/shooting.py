"""The chance to hit and what it leads to: pure functions of the weapon, skill, range and
how much of the target shows, shared by the game and by the odds."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from fibua.core.dice import Modifier
from fibua.rulesets.house_clearing.tables import (
    AUTO_CHANCE_DIVISOR,
    BAND_DIVISORS,
    BAND_NAMES,
    HITS_PER_HUNDRED,
    RANGE_BANDS,
    WEAPONS,
    Row,
    WeaponName,
)

COVER_FACES = 6


class OutOfRange(ValueError):
    """The weapon cannot reach: the range is beyond its Sixteenth band."""


class NotAutomatic(ValueError):
    """Single shots only."""


@dataclass(frozen=True, slots=True)
class Band:
    index: int
    name: str
    divisor: int
    limit: int  # inches


def fire_row(weapon: WeaponName, auto: bool, crew: int = 2) -> Row:
    """The range-band row a weapon fires from: assault rifles as carbines on single shot
    and SMGs on automatic; a belt-fed gun short of crew as a box-fed one."""
    arms = WEAPONS[weapon]
    if auto and arms.auto is None:
        raise NotAutomatic(f"a {arms.title} fires single shots only")
    row = arms.auto if auto and arms.auto is not None else arms.single
    if arms.short_crew is not None and crew < arms.crew:
        return arms.short_crew
    return row


def band_for(row: Row, distance: float) -> Band:
    """The first band whose limit the range does not exceed."""
    span = round(distance, 9)  # float noise must not push a range over a limit
    for index, limit in enumerate(RANGE_BANDS[row]):
        if span <= limit:
            return Band(index, BAND_NAMES[index], BAND_DIVISORS[index], limit)
    reach = RANGE_BANDS[row][-1]
    raise OutOfRange(f"out of range: {distance:.1f}in is beyond the {row} row's Sixteenth "
                     f"band ({reach}in)")


def reach(row: Row) -> int:
    return RANGE_BANDS[row][-1]


def hit_chance(skill: int, row: Row, distance: float, auto: bool = False) -> int:
    """Skill divided by the band, rounded down; on automatic halved again, rounded down."""
    chance = skill // band_for(row, distance).divisor
    return chance // AUTO_CHANCE_DIVISOR if auto else chance


def chance_basis(skill: int, row: Row, distance: float, auto: bool = False) -> tuple[Modifier, ...]:
    """The terms of the chance by name: they add up to it."""
    band = band_for(row, distance)
    banded = skill // band.divisor
    terms = [Modifier("weapon skill", skill),
             Modifier(f"{band.name} band ({row}, up to {band.limit}in): /{band.divisor}",
                      banded - skill)]
    if auto:
        terms.append(Modifier("automatic: halved", banded // AUTO_CHANCE_DIVISOR - banded))
    return tuple(terms)


def split_chance(chance: int) -> tuple[int, int]:
    """(automatic hits, percent chance of one more)."""
    return chance // HITS_PER_HUNDRED, chance % HITS_PER_HUNDRED


def hits_distribution(chance: int, fifths: int) -> dict[int, Fraction]:
    """Exact chance of each number of confirmed hits: the automatic hits and the chance of
    one more, each then passing the cover die (D6 of at most the fifths visible)."""
    return dict(_distribution(chance, fifths))


# a few hundred (chance, fifths) pairs come up, asked again and again: exact fractions
# are worked out once each (kept as a tuple, so no caller can change what is kept)
@lru_cache(maxsize=4096)
def _distribution(chance: int, fifths: int) -> tuple[tuple[int, Fraction], ...]:
    sure, extra = split_chance(chance)
    keep = _keep(fifths)
    attempts = {sure: 1 - Fraction(extra, 100), sure + 1: Fraction(extra, 100)}
    out: dict[int, Fraction] = {}
    for n, p in attempts.items():
        if p == 0:
            continue
        for k, q in _binomial(n, keep).items():
            out[k] = out.get(k, Fraction(0)) + p * q
    return tuple(sorted(out.items()))


def _keep(fifths: int) -> Fraction:
    """Chance the cover die confirms one hit: a D6 of at most the fifths visible."""
    return Fraction(max(0, min(fifths, COVER_FACES)), COVER_FACES)


def _binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


@lru_cache(maxsize=4096)
def at_least_one_hit(chance: int, fifths: int) -> Fraction:
    return 1 - hits_distribution(chance, fifths).get(0, Fraction(0))


def expected_hits(chance: int, fifths: int) -> Fraction:
    sure, extra = split_chance(chance)
    return (sure + Fraction(extra, 100)) * _keep(fifths)


D3_FACES = 3  # a D3: 1, 2 or 3 initiative points, each as likely


@lru_cache(maxsize=64)
def loss_distribution(hits: int) -> tuple[tuple[int, Fraction], ...]:
    """Exact chance of each initiative loss from `hits` confirmed hits: a D3 each, added."""
    found = {0: Fraction(1)}
    for _ in range(hits):
        nxt: dict[int, Fraction] = {}
        for total, p in found.items():
            for face in range(1, D3_FACES + 1):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / D3_FACES
        found = nxt
    return tuple(sorted(found.items()))


def out_of_action_chance(chance: int, fifths: int, initiative: int) -> Fraction:
    """Chance that one firing puts a figure of this initiative out of action: its confirmed
    hits cost it more initiative than it has (below 0 it is out)."""
    return sum((p * q for hits, p in hits_distribution(chance, fifths).items()
                for loss, q in loss_distribution(hits) if loss > initiative), Fraction(0))


def duck_back_chance(chance: int, fifths: int) -> Fraction:
    """Chance the dice hit at least once and the cover die turns every hit away."""
    sure, extra = split_chance(chance)
    miss = 1 - _keep(fifths)
    none_rolled = 1 - Fraction(extra, 100) if sure == 0 else Fraction(0)
    all_turned = (1 - Fraction(extra, 100)) * miss**sure + Fraction(extra, 100) * miss ** (sure + 1)
    return all_turned - none_rolled
