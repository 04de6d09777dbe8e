"""The chance to hit and the kill roll: pure functions of a firing situation, shared by
the game and by the odds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from math import ceil
from typing import TypeVar

from fibua.core.dice import Modifier
from fibua.rulesets.street_fight.tables import (
    AIM_MAX_TURNS,
    AIM_STEP,
    BASE_CHANCE,
    COVER_STEP,
    MOVING_FIRER,
    MOVING_TARGET,
    OVERWATCH_AREA,
    OVERWATCH_POINT,
    RANGE_STEP,
    SPREAD_STEP,
    WEAPONS,
    Weapon,
    WeaponName,
)


class OverwatchKind(StrEnum):
    NONE = "none"
    POINT = "point"
    AREA = "area"


@dataclass(frozen=True, slots=True)
class Situation:
    weapon: WeaponName
    range: float  # inches
    cover: int = 0  # quarters: 0..3
    target_moving: bool = False
    firer_moving: bool = False
    aim: int = 0  # turns spent aiming
    overwatch: OverwatchKind = OverwatchKind.NONE
    spread: float = 0.0  # inches of frontage the fire is spread over


def increments(distance: float, step: int) -> int:
    """Range increments, a part of one counting as a whole (rounding guards float noise)."""
    return ceil(round(distance / step, 9))


def hit_terms(s: Situation) -> tuple[int, int, int, int, int, int, int, int, int]:
    """The value of every term of the chance, in the order of TERM_NAMES."""
    weapon = WEAPONS[s.weapon]
    aims = s.overwatch is OverwatchKind.NONE and weapon.aims
    return (
        BASE_CHANCE,
        RANGE_STEP * increments(s.range, weapon.increment),
        COVER_STEP * s.cover,
        MOVING_TARGET if s.target_moving else 0,
        MOVING_FIRER if s.firer_moving else 0,
        AIM_STEP * min(s.aim, AIM_MAX_TURNS) if aims else 0,
        weapon.bonus,
        OVERWATCH_PENALTY[s.overwatch],
        SPREAD_STEP * increments(s.spread, 1),
    )


OVERWATCH_PENALTY = {
    OverwatchKind.NONE: 0,
    OverwatchKind.POINT: OVERWATCH_POINT,
    OverwatchKind.AREA: OVERWATCH_AREA,
}


def _weapon_of(s: Situation) -> Weapon:
    return WEAPONS[s.weapon]


#: how each term of the chance is named, in the order of `hit_terms`
_TERM_NAMES: tuple[Callable[[Situation], str], ...] = (
    lambda s: "base",
    lambda s: (f"range {increments(s.range, _weapon_of(s).increment)} x "
               f"{_weapon_of(s).increment}in"),
    lambda s: cover_words(s.cover),
    lambda s: "moving target",
    lambda s: "moving firer",
    lambda s: f"aiming {min(s.aim, AIM_MAX_TURNS)} turns",
    lambda s: f"{_weapon_of(s).title} bonus",
    lambda s: "overwatch, large area" if s.overwatch is OverwatchKind.AREA else "overwatch",
    lambda s: f"spread over {increments(s.spread, 1)}in",
)


#: quarters of cover as players say them
COVER_FRACTIONS = {1: "1/4", 2: "1/2", 3: "3/4"}


def cover_words(quarters: int) -> str:
    """Quarters of cover in words: "no cover", "cover 1/4", "cover 1/2", "cover 3/4"."""
    fraction = COVER_FRACTIONS.get(quarters)
    return f"cover {fraction}" if fraction else "no cover"


def term_names(s: Situation) -> tuple[str, ...]:
    return tuple(name(s) for name in _TERM_NAMES)


def hit_basis(s: Situation, terms: Sequence[int] | None = None) -> tuple[Modifier, ...]:
    """Every term of the chance to hit, by name, the base included (zero terms left out).
    `terms` are the situation's `hit_terms` when already worked out.

    Every shot is recorded, so the bases are remembered: a term's name depends on the
    situation only through the weapon, the kind of overwatch and the terms' values (the
    range increments, quarters of cover, turns aimed and inches of spread each cost a
    fixed step)."""
    values = hit_terms(s) if terms is None else tuple(terms)
    key = (s.weapon, s.overwatch, values)
    found = _BASES.get(key)
    if found is None:
        if len(_BASES) >= _BASES_KEPT:
            _BASES.clear()
        found = _BASES[key] = tuple(Modifier(_TERM_NAMES[i](s), value)
                                    for i, value in enumerate(values) if value or i == 0)
    return found


_BASES: dict[tuple[WeaponName, OverwatchKind, tuple[int, ...]], tuple[Modifier, ...]] = {}
_BASES_KEPT = 4096


def hit_chance(s: Situation) -> int:
    """Percent chance that one shot (one round) hits, clamped to 0..100."""
    return chance_of(hit_terms(s))


def chance_of(terms: Sequence[int]) -> int:
    """The chance the terms of `hit_terms` add up to, clamped to 0..100."""
    return max(0, min(100, sum(terms)))


T = TypeVar("T")


def covered_targets(targets: Sequence[T], rounds: int,
                    width: Callable[[Sequence[T]], float]) -> list[T]:
    """The named targets, in order, that a burst of `rounds` covers: the fire may spread
    over as many inches as rounds were fired, and reaches no more targets than rounds (a
    target no round reaches widens nothing). `width` is the frontage of a group."""
    kept = [targets[0]]
    for target in targets[1:]:
        if len(kept) == rounds:
            break
        if increments(width([*kept, target]), 1) <= rounds:
            kept.append(target)
    return kept


def spread_of(covered: Sequence[T], width: Callable[[Sequence[T]], float]) -> float:
    """Inches of frontage the fire is spread over: none at a single target."""
    return width(covered) if len(covered) > 1 else 0.0


def round_shares(rounds: int, count: int) -> list[int]:
    """How many of the rounds go to each of `count` covered targets: they are shared out in
    turn, the first round to the first target named."""
    return [len(range(k, rounds, count)) for k in range(count)]


def kill_chance(weapon: WeaponName) -> float:
    """A hit kills on a d10 (1-10) of at least the weapon's number."""
    return (11 - WEAPONS[weapon].kill) / 10
