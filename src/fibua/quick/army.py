"""What a rule set tells a quick battle: its table, its price list and how it writes a
side's forces. Each rule set's `Army` lives in its own module of this package."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, Protocol

from fibua.core.dice import parse_dice
from fibua.quick.compose import Item
from fibua.quick.nations import Nation, Roll
from fibua.quick.place import Placer
from fibua.quick.town import TownPlan


def mean_roll(notation: str) -> Fraction:
    """The average of a roll (every face of every die alike likely)."""
    dice = parse_dice(notation)
    faces = range(dice.low, dice.low + dice.sides)
    outcomes = [dice.value_of(list(f)) for f in product(faces, repeat=dice.count)]
    return Fraction(sum(outcomes), len(outcomes))


@dataclass
class Muster:
    """What a side's forces are written from: its nation, its picks (the core first), the
    names to give its troops, where they stand and which way the enemy is."""

    nation: Nation
    picks: list[Item]
    names: Roll
    placer: Placer
    #: degrees, counter-clockwise from east: towards the enemy's edge
    facing: float
    rng: random.Random


class Army(Protocol):
    """A rule set's side of a quick battle."""

    ruleset: str
    plan: TownPlan
    #: a foot unit's usual move in a turn, in the table's unit (the turn limit's yardstick)
    pace: float
    #: how far a starting place keeps from walls, hedges and buildings (the table's unit)
    clearance: float
    #: the points a side's picks come near (the core included)
    budget: int
    #: how many picks beyond the core a side gets, at least and at most
    picks: tuple[int, int]

    def prices(self, nation: Nation) -> tuple[Item, ...]:
        """What a side of this nation may pick from, with its points."""
        ...

    def core(self, rng: random.Random) -> list[Item]:
        """What both sides have before their picks (the same for both)."""
        ...

    def forces(self, muster: Muster) -> dict[str, Any]:
        """The side's `forces` table, placed in its zone."""
        ...

    def price(self, forces: Any) -> int:
        """The points of a side's forces as the rule set read them (its forces model)."""
        ...

    def options(self) -> dict[str, Any]:
        """The scenario's `options` table."""
        ...
