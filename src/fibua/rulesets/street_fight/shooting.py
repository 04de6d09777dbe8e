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


def hit_basis(s: Situation) -> tuple[Modifier, ...]:
    """Every term of the chance to hit, by name, the base included."""
    weapon = WEAPONS[s.weapon]
    aim = 0
    if s.overwatch is OverwatchKind.NONE and weapon.aims:
        aim = AIM_STEP * min(s.aim, AIM_MAX_TURNS)
    overwatch = {
        OverwatchKind.NONE: 0,
        OverwatchKind.POINT: OVERWATCH_POINT,
        OverwatchKind.AREA: OVERWATCH_AREA,
    }[s.overwatch]
    terms = (
        Modifier("base", BASE_CHANCE),
        Modifier(f"range {increments(s.range, weapon.increment)} x {weapon.increment}in",
                 RANGE_STEP * increments(s.range, weapon.increment)),
        Modifier(f"cover {s.cover}/4", COVER_STEP * s.cover),
        Modifier("moving target", MOVING_TARGET if s.target_moving else 0),
        Modifier("moving firer", MOVING_FIRER if s.firer_moving else 0),
        Modifier(f"aiming {min(s.aim, AIM_MAX_TURNS)} turns", aim),
        Modifier(f"{weapon.title} bonus", weapon.bonus),
        Modifier("overwatch, large area" if s.overwatch is OverwatchKind.AREA
                 else "overwatch", overwatch),
        Modifier(f"spread over {increments(s.spread, 1)}in", SPREAD_STEP * increments(s.spread, 1)),
    )
    return tuple(t for t in terms if t.value or t.name == "base")


def hit_chance(s: Situation) -> int:
    """Percent chance that one shot (one round) hits, clamped to 0..100."""
    return max(0, min(100, sum(t.value for t in hit_basis(s))))


def kill_chance(weapon: WeaponName) -> float:
    """A hit kills on a d10 (1-10) of at least the weapon's number."""
    return (11 - WEAPONS[weapon].kill) / 10
