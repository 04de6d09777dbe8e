"""Dice: notation, a seeded generator that lives in the game state, and roll records.

The generator is SplitMix64 over (seed, counter): its whole state is two integers, so it
serialises, hashes and replays trivially. Every roll is returned as a `Roll` carrying its
purpose, raw faces, named modifiers and the number it needed; rules turn it into an event.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from math import ceil
from typing import Any

from fibua.core.errors import DiceExhausted
from fibua.core.values import is_number

MASK64 = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Dice:
    """A kind of roll: `count` dice of `sides`, read from `low`, then scaled.

    `multiplier` covers 4D6x10; `halve` covers D3 (= ceil(D6/2)) and D10/2 (= ceil(D10/2)).
    """

    notation: str
    count: int
    sides: int
    low: int = 1
    multiplier: int = 1
    halve: bool = False

    @property
    def minimum(self) -> int:
        return self.value_of([self.low] * self.count)

    @property
    def maximum(self) -> int:
        return self.value_of([self.low + self.sides - 1] * self.count)

    def value_of(self, faces: list[int]) -> int:
        total = sum(faces)
        if self.halve:
            total = ceil(total / 2)
        return total * self.multiplier


_NOTATION = re.compile(
    r"^(?P<count>[1-9]\d*)?d(?P<sides>\d+)(?P<zero>\[0-9\])?(?:x(?P<mult>\d+)|(?P<half>/2))?$"
)


@lru_cache(maxsize=64)
def parse_dice(notation: str) -> Dice:
    """Parse notation: d6, 2d6, 3d6, 4d6x10, d3, d10, d10[0-9] (read 0-9), d10/2, d100.

    d3 is a d6 halved rounding up; d100 reads 1..100 (the face "00" is 100).
    """
    text = notation.strip().lower()
    if text == "d3":
        return Dice(notation, 1, 6, halve=True)
    m = _NOTATION.match(text)
    if not m:
        raise ValueError(f"unknown dice notation {notation!r}")
    sides = int(m["sides"])
    if sides < 2:
        raise ValueError(f"dice need at least two sides: {notation!r}")
    low = 0 if m["zero"] else 1
    if m["zero"] and sides != 10:
        raise ValueError(f"only the d10 can be read 0-9: {notation!r}")
    return Dice(
        notation=notation,
        count=int(m["count"] or 1),
        sides=sides,
        low=low,
        multiplier=int(m["mult"] or 1),
        halve=bool(m["half"]),
    )


def _splitmix64(value: int) -> int:
    z = (value + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


@dataclass(slots=True)
class Rng:
    """Seeded generator kept inside the game state. Never sent to a player."""

    seed: int
    counter: int = 0

    def next_u64(self) -> int:
        self.counter += 1
        return _splitmix64((self.seed * 0x2545F4914F6CDD1D + self.counter) & MASK64)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def face(self, dice: Dice) -> int:
        return dice.low + self.below(dice.sides)

    def random(self) -> float:
        return (self.next_u64() >> 11) / float(1 << 53)

    def snapshot(self) -> dict[str, int]:
        return {"seed": self.seed, "counter": self.counter}


@dataclass(slots=True)
class ForcedDice(Rng):
    """Test double: hands out the given faces in order (as read, e.g. 0 on a d10[0-9],
    100 for a d100 "00"). Running out raises, so a test states every roll it expects."""

    faces: list[int] = field(default_factory=list)

    def face(self, dice: Dice) -> int:
        if not self.faces:
            raise DiceExhausted(f"no forced face left for a {dice.notation}")
        value = self.faces.pop(0)
        high = dice.low + dice.sides - 1
        if not dice.low <= value <= high:
            raise ValueError(f"forced face {value} is not on a {dice.notation}")
        self.counter += 1
        return value


@dataclass(frozen=True, slots=True)
class Modifier:
    name: str
    value: int


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll as recorded: raw faces, value, modifiers, what it needed and whether it made it.

    `need` is the number the modified total had to reach: at least it when `at_most` is
    False ("N+"), at most it when True (percentile "N or less").
    """

    purpose: str
    dice: str
    faces: tuple[int, ...]
    value: int
    modifiers: tuple[Modifier, ...] = ()
    need: int | None = None
    at_most: bool = False
    #: how `need` was reached, for percentile chances: ("base", 100), ("range", -20), ...
    basis: tuple[Modifier, ...] = ()

    @property
    def total(self) -> int:
        if not self.modifiers:
            return self.value
        return self.value + sum(m.value for m in self.modifiers)

    @property
    def success(self) -> bool | None:
        return self._made(self.total)

    def _made(self, total: int) -> bool | None:
        if self.need is None:
            return None
        return total <= self.need if self.at_most else total >= self.need

    def to_dict(self) -> dict[str, object]:
        total = self.total  # worked out once: every shot is recorded
        return {
            "purpose": self.purpose,
            "dice": self.dice,
            "faces": list(self.faces),
            "value": self.value,
            "modifiers": [[m.name, m.value] for m in self.modifiers],
            "total": total,
            "need": self.need,
            "at_most": self.at_most,
            "success": self._made(total),
            "basis": [[m.name, m.value] for m in self.basis],
        }

    def describe(self) -> str:
        return describe_roll(self.to_dict())


def _pairs(raw: Any) -> list[tuple[str, int]]:
    """Named modifiers as recorded ([[name, value], ...]); anything else is skipped."""
    out: list[tuple[str, int]] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, list | tuple) and len(item) == 2 and is_number(item[1]):
            out.append((str(item[0]), int(item[1])))
    return out


def describe_roll(raw: Mapping[str, Any]) -> str:
    """`to hit: 2d6 rolled 3+5 +1 cover = 9, needed 7+ (base 6, range +1) - success`."""
    faces = "+".join(str(f) for f in raw.get("faces", [])) or "?"
    text = f"{raw.get('purpose', 'roll')}: {raw.get('dice', '?')} rolled {faces}"
    mods = _pairs(raw.get("modifiers"))
    if mods:
        text += "".join(f" {value:+d} {name}" for name, value in mods)
        text += f" = {raw.get('total')}"
    elif raw.get("value") is not None and raw.get("value") != raw.get("faces", [None])[0]:
        text += f" = {raw.get('value')}"
    need = raw.get("need")
    if need is not None:
        text += f", needed {need}{' or less' if raw.get('at_most') else '+'}"
        basis = _pairs(raw.get("basis"))
        if basis:
            text += " (" + ", ".join(f"{name} {value:+d}" for name, value in basis) + ")"
    success = raw.get("success")
    if success is not None:
        text += " - success" if success else " - failure"
    return text


def roll(
    rng: Rng,
    notation: str,
    purpose: str,
    modifiers: tuple[Modifier, ...] = (),
    need: int | None = None,
    at_most: bool = False,
    basis: tuple[Modifier, ...] = (),
) -> Roll:
    """Roll `notation` for `purpose`; zero-valued modifiers are dropped from the record."""
    dice = parse_dice(notation)
    # most rolls are one die with no modifier: no generator for those
    faces = (rng.face(dice),) if dice.count == 1 else tuple(
        rng.face(dice) for _ in range(dice.count))
    kept = tuple(m for m in modifiers if m.value) if modifiers else ()
    value = dice.value_of(list(faces))
    return Roll(purpose, notation, faces, value, kept, need, at_most, basis)
