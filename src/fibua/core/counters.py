"""What a unit's counter on the map shows, whatever the rules: the typed contract between
a rule set's views and the pages that draw the counters (`RuleSet.counters`).

A counter is built from a side's view alone (`RuleSet.observe`): its own units in full,
an enemy only as the side last saw it. So a counter never tells more than the view, and
moving an enemy the side has not seen changes no counter.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Symbol(StrEnum):
    """The symbol inside a counter's frame (after NATO's APP-6, as far as the rules tell
    troops apart)."""

    INFANTRY = "infantry"
    HQ = "hq"
    MACHINE_GUN = "machine-gun"
    MORTAR = "mortar"
    SNIPER = "sniper"
    ANTI_TANK = "anti-tank"  # infantry with an anti-tank weapon (rifle, rocket)
    FLAME = "flame"
    OBSERVER = "observer"
    ANTI_TANK_GUN = "anti-tank-gun"
    HOWITZER = "howitzer"  # a gun firing high explosive
    GUN = "gun"  # a gun of a kind the side has not made out
    TANK = "tank"
    ASSAULT_GUN = "assault-gun"
    ARMOURED_CAR = "armoured-car"  # halftracks, carriers, armoured cars
    LORRY = "lorry"
    VEHICLE = "vehicle"  # a vehicle of a kind the side has not made out
    UNKNOWN = "unknown"


class Measure(StrEnum):
    """What a counter's strength counts."""

    MODELS = "models"
    HIT_POINTS = "hit points"
    INITIATIVE = "initiative"  # House Clearing: wounds take it away
    FIGURE = "figure"  # one man: in the fight or not


@dataclass(frozen=True, slots=True)
class Strength:
    """How much of the unit is left: `now` of `start` (None: the side does not know how
    many it started with, as of an enemy)."""

    now: int
    start: int | None
    measure: Measure

    @property
    def text(self) -> str:
        """As written on the counter."""
        if self.measure is Measure.INITIATIVE:
            return f"I{self.now}"
        if self.measure is Measure.FIGURE:
            return "fit" if self.now > 0 else "out"
        return str(self.now) if self.start is None else f"{self.now}/{self.start}"

    @property
    def words(self) -> str:
        """As the counter's tooltip says it."""
        if self.measure is Measure.INITIATIVE:
            return f"initiative {self.now}"
        if self.measure is Measure.FIGURE:
            return "in the fight" if self.now > 0 else "out of action"
        seen = f"{self.now}" if self.start is None else f"{self.now} of {self.start}"
        return f"{seen} {self.measure}"


class Tag(StrEnum):
    """A state a counter carries as a badge."""

    PINNED = "pinned"
    PINS = "pins"
    DOWN = "down"
    SHAKEN = "shaken"
    OVERWATCH = "overwatch"
    AMBUSH = "ambush"
    AIMING = "aiming"
    DUCKED = "ducked"
    ORDER = "order"  # an order die spent this turn (with the order)
    ACTED = "acted"  # had its action this turn (with what it did)
    MOVED = "moved"
    FIRED = "fired"
    OBSERVING = "observing"
    LOADING = "loading"
    COVER = "cover"
    REACT = "react"  # may fire at the enemy's mover now
    SHOT_AT = "shot-at"  # may answer a shot by going down now
    STANCE = "stance"
    SEEN_STEP = "seen-step"  # an enemy: the initiative step it was seen acting in
    SHELTERING = "sheltering"
    FALLING_BACK = "falling-back"
    DEMORALISED = "demoralised"
    IMMOBILISED = "immobilised"
    ABOARD = "aboard"
    CARRYING = "carrying"


@dataclass(frozen=True, slots=True)
class Mark:
    """A badge: its tag, the few letters written on it, and the words of its tooltip."""

    tag: Tag
    short: str
    words: str


@dataclass(frozen=True, slots=True)
class Counter:
    """One unit's counter as its side knows it. `facing` is in degrees counter-clockwise
    from east (+x), for units the rules give one; `seen_turn` and `age` (turns since:
    `Sighting.age`) are an enemy's last sighting, `in_sight` whether the side sees it
    now; `carried_by` the vehicle it rides in (it stands where its vehicle does); `spots`
    where each of a unit's models stands, when the view holds them; `on_table` False for
    a unit with no place left (its last model gone); `stats` the tooltip's lines."""

    id: str
    hostile: bool
    symbol: Symbol
    strength: Strength | None
    marks: tuple[Mark, ...] = ()
    facing: float | None = None
    out_of_action: bool = False
    seen_turn: int | None = None
    age: int | None = None
    in_sight: bool = True
    carried_by: str | None = None
    spots: tuple[tuple[float, float], ...] = ()
    on_table: bool = True
    stats: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        strength = self.strength
        return {
            "id": self.id, "hostile": self.hostile, "symbol": str(self.symbol),
            "strength": None if strength is None else {
                "now": strength.now, "start": strength.start,
                "measure": str(strength.measure), "text": strength.text,
                "words": strength.words},
            "marks": [{"tag": str(m.tag), "short": m.short, "words": m.words}
                      for m in self.marks],
            "facing": self.facing, "out_of_action": self.out_of_action,
            "seen_turn": self.seen_turn, "age": self.age, "in_sight": self.in_sight,
            "carried_by": self.carried_by, "spots": [list(p) for p in self.spots],
            "on_table": self.on_table, "stats": list(self.stats),
        }


def mark(tag: Tag, short: str, words: str | None = None) -> Mark:
    return Mark(tag, short, words if words is not None else str(tag).replace("-", " "))


def last_seen(turn: int, age: int, in_sight: bool) -> str:
    """An enemy's sighting in words, for its tooltip."""
    if in_sight:
        return "in sight now"
    if age == 0:
        return f"last seen this turn (turn {turn})"
    return f"last seen {age} turn{'s' if age != 1 else ''} ago (turn {turn - age})"
