"""The order test, the morale test, rout, Rally and a kept Down: pure functions over a
unit's quality and pins."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from fibua.core.dice import Modifier, Rng, Roll, roll
from fibua.rulesets.buildings.tables import (
    KEPT_DOWN_PINS,
    MORALE,
    RALLY_PINS,
    TEST_DICE,
    TEST_HIGHEST,
    TEST_LOWEST,
    Quality,
)

BLUNDER_FACES = (6, 6)


def order_need(quality: Quality, pins: int) -> int:
    """2D6 must be at most morale - pins, clamped to 2..11: so a double 1 always passes and
    a double 6 always fails."""
    return min(TEST_HIGHEST, max(TEST_LOWEST, MORALE[quality] - pins))


@lru_cache(maxsize=64)  # (a Fraction is immutable; the computer asks it of every pinned unit)
def pass_chance(need: int) -> Fraction:
    """The chance 2D6 comes to `need` or less (an order test's `need`, from `order_need`)."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= need), 36)


def order_basis(quality: Quality, pins: int) -> tuple[Modifier, ...]:
    terms = [Modifier(f"{quality} morale", MORALE[quality])]
    if pins:
        terms.append(Modifier("pins", -pins))
    return tuple(terms)


@dataclass(frozen=True, slots=True)
class Tested:
    roll: Roll
    passed: bool
    #: a double 6 on an order test (never on a morale test)
    blunder: bool


def order_test(rng: Rng, quality: Quality, pins: int, purpose: str = "order test",
               blunders: bool = True) -> Tested:
    """Roll an order test: a pass carries out the order and removes a pin (the caller
    does both); a fail goes Down instead; a blunder (if `blunders`) is the option's."""
    made = roll(rng, TEST_DICE, purpose, need=order_need(quality, pins), at_most=True,
                basis=order_basis(quality, pins))
    return Tested(made, bool(made.success), blunders and made.faces == BLUNDER_FACES)


def morale_test(rng: Rng, quality: Quality, pins: int) -> Tested:
    """After falling to half strength, or after a flamethrower attack: failing destroys the
    unit; a double 6 is only a fail."""
    return order_test(rng, quality, pins, "morale test", blunders=False)


def needs_test(pins: int) -> bool:
    """A unit with no pins carries out its order without a test (and Down never needs one)."""
    return pins > 0


def routs(quality: Quality, pins: int) -> bool:
    """Pins reaching the unit's morale destroy it."""
    return pins >= MORALE[quality]


def half_strength(start: int, now: int) -> bool:
    """At or below half its starting models (the test comes the first time it is)."""
    return 2 * now <= start


def rally(rng: Rng, pins: int) -> tuple[Roll, int]:
    """A Rally order: lose D6 pins. Returns the roll and the pins left."""
    made = roll(rng, RALLY_PINS, "rally: pins removed")
    return made, max(0, pins - made.value)


def kept_down(rng: Rng, pins: int) -> tuple[Roll, int]:
    """A unit that kept its Down die through a turn loses D3 pins at the end of it."""
    made = roll(rng, KEPT_DOWN_PINS, "kept down: pins removed")
    return made, max(0, pins - made.value)
