"""The order-dice bag as a value: how many dice of each side it holds.

A turn's bag holds one die for each unit that has no kept die (Down or Ambush kept from the
last turn). A draw is a roll of the game's generator, recorded with its purpose: face k of a
D(n) picks the k-th die with the sides in name order, so every die is equally likely. A
unit destroyed before its order takes one of its side's dice out. Draws and removals return
a new bag; the state keeps the current one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fibua.core.dice import Rng, Roll, roll


class EmptyBag(ValueError):
    """No die to draw or take out."""


@dataclass(frozen=True, slots=True)
class Bag:
    #: (side, dice left), sides in name order, sides with none left included
    dice: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> Bag:
        if any(n < 0 for n in counts.values()):
            raise ValueError("a side cannot have fewer than no dice")
        return cls(tuple(sorted(counts.items())))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.dice)

    @property
    def empty(self) -> bool:
        return self.total == 0

    def count(self, side: str) -> int:
        return dict(self.dice).get(side, 0)

    def side_at(self, index: int) -> str:
        """The side of the die at `index` (0-based), the dice lined up side by side."""
        for side, n in self.dice:
            if index < n:
                return side
            index -= n
        raise EmptyBag(f"no die at {index}")

    def without(self, side: str) -> Bag:
        """The bag with one of the side's dice taken out (a draw, or a unit destroyed)."""
        if self.count(side) < 1:
            raise EmptyBag(f"no {side} die left in the bag")
        return Bag(tuple((s, n - 1 if s == side else n) for s, n in self.dice))

    def draw(self, rng: Rng) -> tuple[Draw, Bag]:
        """Draw one die at random: the side whose die it is, the roll, and the bag left."""
        total = self.total
        if total == 0:
            raise EmptyBag("the bag is empty")
        if total == 1:
            # one die left: nothing to choose, so no value drawn from the generator
            made = Roll("order die", "d1", (1,), 1)
        else:
            made = roll(rng, f"d{total}", "order die")
        side = self.side_at(made.value - 1)
        return Draw(side, made), self.without(side)


@dataclass(frozen=True, slots=True)
class Draw:
    side: str
    roll: Roll


def new_bag(units: Mapping[str, int], kept: Mapping[str, int] | None = None) -> Bag:
    """The bag of a new turn: each side's units able to take an order, less those that
    keep their die (Down or Ambush) out of it."""
    kept = kept or {}
    unknown = set(kept) - set(units)
    if unknown:
        raise ValueError(f"kept dice of sides with no units: {sorted(unknown)}")
    counts = {side: n - kept.get(side, 0) for side, n in units.items()}
    if any(n < 0 for n in counts.values()):
        raise ValueError("a side cannot keep more dice than it has units")
    return Bag.of(counts)
