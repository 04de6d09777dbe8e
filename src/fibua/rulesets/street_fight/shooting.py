"""The chance to hit and the kill roll: pure functions of a firing situation, shared by
the game and by the odds."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from math import ceil

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


def term_names(s: Situation) -> tuple[str, ...]:
    weapon = WEAPONS[s.weapon]
    return (
        "base",
        f"range {increments(s.range, weapon.increment)} x {weapon.increment}in",
        f"cover {s.cover}/4",
        "moving target",
        "moving firer",
        f"aiming {min(s.aim, AIM_MAX_TURNS)} turns",
        f"{weapon.title} bonus",
        "overwatch, large area" if s.overwatch is OverwatchKind.AREA else "overwatch",
        f"spread over {increments(s.spread, 1)}in",
    )


def hit_basis(s: Situation) -> tuple[Modifier, ...]:
    """Every term of the chance to hit, by name, the base included (zero terms left out)."""
    return tuple(
        Modifier(name, value)
        for i, (name, value) in enumerate(zip(term_names(s), hit_terms(s), strict=True))
        if value or i == 0
    )


def hit_chance(s: Situation) -> int:
    """Percent chance that one shot (one round) hits, clamped to 0..100."""
    return max(0, min(100, sum(hit_terms(s))))


def kill_chance(weapon: WeaponName) -> float:
    """A hit kills on a d10 (1-10) of at least the weapon's number."""
    return (11 - WEAPONS[weapon].kill) / 10
