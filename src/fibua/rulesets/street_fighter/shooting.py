"""The chance to hit: pure functions of a firing situation, shared by the game and the odds.

One to-hit roll per firing unit per action: a d10 read 0-9, plus the modifiers, must reach
the score in the shooting table for the row and range band.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from fibua.core.dice import Modifier
from fibua.core.errors import IllegalOrder
from fibua.rulesets.street_fighter.tables import (
    BAND_NAMES,
    COVER_MODIFIER,
    FIRER_MOVED,
    FIRER_PINNED,
    RANGE_BANDS,
    SHOOTING,
    TARGET_FLAT_OUT,
    Cover,
    Row,
)

#: The firers of the odds question, by the row they use (anti-tank guns use the Tank row).
FIRERS: dict[str, Row] = {
    "tank": Row.TANK,
    "infantry": Row.INFANTRY,
    "mmg": Row.MMG,
    "direct-mortar": Row.DIRECT_MORTAR,
    "sniper": Row.SNIPER,
    "at-gun": Row.TANK,
    "rocket": Row.ROCKET,
}

EDGE = 1e-9  # a range on a band edge belongs to the nearer band


@dataclass(frozen=True, slots=True)
class Shot:
    row: Row
    range: float  # cm
    cover: Cover = Cover.OPEN
    firer_moved: bool = False
    firer_pinned: bool = False
    target_flat_out: bool = False


def band(distance: float) -> int:
    """Index of the range band: up to 10 cm, up to 25 cm, over 25 cm."""
    for i, limit in enumerate(RANGE_BANDS):
        if distance <= limit + EDGE:
            return i
    return len(RANGE_BANDS) - 1


def need_at(row: Row, distance: float) -> int | None:
    """The table's score for the row at this range; None where the row cannot fire."""
    return SHOOTING[row][band(distance)]


def base_need(row: Row, distance: float) -> int:
    """The table's score for the row at this range; IllegalOrder where it has none."""
    need = need_at(row, distance)
    if need is None:
        raise IllegalOrder(_forbidden(row, distance), code="out-of-range")
    return need


def _forbidden(row: Row, distance: float) -> str:
    where = BAND_NAMES[band(distance)]
    if row is Row.DIRECT_MORTAR:
        return f"a direct mortar cannot fire at 10 cm or less (range {distance:.1f} cm)"
    if row is Row.ROCKET:
        return f"an anti-tank rocket reaches 10 cm at most (range {distance:.1f} cm)"
    return f"the {row} row cannot fire at {where}"


def modifiers(s: Shot) -> tuple[Modifier, ...]:
    """Every modifier by name; the rocket's flat 5+ takes no target modifiers."""
    cover = 0 if s.row is Row.ROCKET else COVER_MODIFIER[s.cover]
    return (
        Modifier("firer moved", FIRER_MOVED if s.firer_moved else 0),
        Modifier("target moving flat out", TARGET_FLAT_OUT if s.target_flat_out else 0),
        Modifier("firer pinned", FIRER_PINNED if s.firer_pinned else 0),
        Modifier(f"target in {s.cover}", cover),
    )


def success_chance(need: int, total_modifier: int) -> Fraction:
    """Chance that a d10 read 0-9 plus the modifier reaches `need`."""
    faces = sum(1 for face in range(10) if face + total_modifier >= need)
    return Fraction(faces, 10)


def hit_chance(s: Shot) -> Fraction:
    need = base_need(s.row, s.range)
    return success_chance(need, sum(m.value for m in modifiers(s)))
