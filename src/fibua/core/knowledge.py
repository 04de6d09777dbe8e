"""What a side knows of the enemy, in one vocabulary for every rule set: its sightings (who
or what, where, when, how sure), the fire it was told of with the direction it came from,
and the scenario's public facts (the enemy's forces as briefed, its deployment zone).

A rule set works out sight its own way (its knowledge.py: who sees whom, when a mover is
glimpsed, what a side is told); what the side then knows is kept here, in its
`SideKnowledge`, through a few operations: record a sighting, lose sight of an enemy,
record a casualty, report fire. Its views, counters and the searching computer's worlds
(sampling.py) read that and nothing of the game.

A `Sighting` is immutable: a change is a new sighting, so views share them with the state
and with each other, and a copy of the game for a search (`BaseState.clone`) shares them
too. What a sighting tells differs a little by rule set, in its two type parameters: what
the side made the enemy out to be (`kind`: a unit kind, the weapon a figure carries) and
what it was seen doing (`doing`: the order its die was spent on, the stance it was in).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, NamedTuple, TypeVar

from fibua.battlefield.model import Position

#: what the side made an enemy out to be (the rule set's unit kind, or a figure's weapon)
K = TypeVar("K")
#: what it was seen doing (an order, a stance; None where the rules keep nothing)
D = TypeVar("D")


class Sure(StrEnum):
    """How a side knows where an enemy is."""

    SEEN = "seen"  # in sight now
    LAST_SEEN = "last-seen"  # seen there, out of sight since
    GLIMPSED = "glimpsed"  # seen passing on its way, not where it stopped
    BY_FIRE = "by-fire"  # placed by the fire it gave, not seen itself


class Sighting(NamedTuple, Generic[K, D]):
    """What a side knows of one enemy unit (or figure): who (`unit`, `name`) and what
    (`kind`) it was seen to be, where (a point; a building's section and floor where the
    rules have them), when (`turn`; `step`, the initiative step it was last seen acting
    in, where the rules have steps), how sure (`sure`), whether it is known to be out of
    the fight, how strong it was seen to be (`strength`: models counted; None where the
    side counts none) and what it was seen doing (`doing`).

    A tuple, so made as fast as the rules see (every order may bring a few) and never
    changed: `_replace` gives the changed sighting."""

    unit: str
    name: str
    kind: K
    x: float
    y: float
    section: str | None
    floor: int
    turn: int
    sure: Sure
    doing: D
    alive: bool = True
    strength: int | None = None
    step: int | None = None

    @property
    def visible(self) -> bool:
        """In sight now."""
        return self.sure is Sure.SEEN

    @property
    def pos(self) -> Position:
        return Position(self.x, self.y, self.section, self.floor)

    def age(self, turn: int) -> int:
        """Turns since it was last seen (at `turn`): none while it is in sight."""
        return 0 if self.sure is Sure.SEEN else max(0, turn - self.turn)

    def __copy__(self) -> Sighting[K, D]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Sighting[K, D]:
        return self  # immutable, and holding only immutable values


@dataclass(frozen=True, slots=True)
class FireReport:
    """A unit of the side was fired on (`unit`): when, from which direction (a compass
    point, as seen from the unit) and with how many hits. The side is always told."""

    unit: str
    direction: str
    turn: int
    hits: int = 0

    def __copy__(self) -> FireReport:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FireReport:
        return self


@dataclass(frozen=True, slots=True)
class Briefed(Generic[K]):
    """One enemy unit as the scenario's order of battle briefs the side: what it is (as
    far as the scenario tells: None where the dice choose at set-up) and its strength at
    the start (None where the rules count none). No id, no name and nothing of where it
    is set up: a player is never shown those of an enemy it has not seen (the rule sets'
    leak canaries)."""

    kind: K
    strength: int | None = None


@dataclass(frozen=True, slots=True)
class PublicFacts(Generic[K]):
    """What the scenario tells a side of its enemy before a shot is fired: the enemy's
    name and title, its forces as briefed (`Briefed`, in the scenario's order), and its
    deployment zone (None where the scenario gives none). The same all game long."""

    enemy: str
    title: str
    forces: tuple[Briefed[K], ...]
    zone: tuple[tuple[float, float], ...] | None

    def __deepcopy__(self, memo: dict[int, Any]) -> PublicFacts[K]:
        return self  # fixed by the scenario


def public_facts(scenario: Any, side: str, forces: Iterable[Briefed[K]]) -> PublicFacts[K]:
    """The side's public facts: `forces` is the enemy's roster as the rule set reads it
    from the scenario (`Briefed`), the rest is the scenario's entry for the enemy."""
    enemy = next(s for s in scenario.sides if s.name != side)
    zone = None if enemy.deployment is None else tuple(
        (float(x), float(y)) for x, y in enemy.deployment)
    return PublicFacts(enemy.name, enemy.title, tuple(forces), zone)


@dataclass(slots=True)
class SideKnowledge(Generic[K, D]):
    """All one side knows of the enemy: its sightings by enemy id, the fire it was told
    of, and the scenario's public facts. Changed only through its operations, each of
    which moves `news` when it changes what the side knows (a player's memo of what it
    worked out from the enemies holds until `news` moves)."""

    facts: PublicFacts[K]
    _sightings: dict[str, Sighting[K, D]] = field(default_factory=dict)
    reports: list[FireReport] = field(default_factory=list)
    news: int = 0
    #: the sightings in order of enemy id, at the `news` they were listed at
    _listed: tuple[int, tuple[tuple[str, Sighting[K, D]], ...]] | None = None

    # ------------------------------------------------------------ reading

    @property
    def sightings(self) -> Mapping[str, Sighting[K, D]]:
        """Every enemy the side has seen, by id (read only: change them through the
        operations below)."""
        return self._sightings

    def get(self, unit: str) -> Sighting[K, D] | None:
        return self._sightings.get(unit)

    def sees(self, unit: str) -> bool:
        """Whether the side has the enemy in sight now."""
        known = self._sightings.get(unit)
        return known is not None and known.sure is Sure.SEEN

    def in_sight(self) -> list[str]:
        """The enemies in sight now and not seen to fall."""
        return [i for i, s in self._sightings.items() if s.sure is Sure.SEEN and s.alive]

    def listed(self) -> tuple[tuple[str, Sighting[K, D]], ...]:
        """(id, sighting) pairs in order of id: the same tuple until `news` moves."""
        listed = self._listed
        if listed is not None and listed[0] == self.news:
            return listed[1]
        shown = tuple(sorted(self._sightings.items()))
        self._listed = (self.news, shown)
        return shown

    def age(self, unit: str, turn: int) -> int | None:
        """Turns since the enemy was last seen (0 while in sight; None: never seen)."""
        known = self._sightings.get(unit)
        return None if known is None else known.age(turn)

    def recent_reports(self, turn: int, turns: int) -> list[FireReport]:
        """The reports of fire of the last `turns` turns (this one included)."""
        return [r for r in self.reports if r.turn > turn - turns]

    # ------------------------------------------------------------ changing

    def record(self, sighting: Sighting[K, D]) -> None:
        """What the side now knows of the enemy `sighting.unit` (it replaces the last)."""
        self._sightings[sighting.unit] = sighting
        self.news += 1

    def lose(self, unit: str, turn: int) -> Sighting[K, D] | None:
        """The enemy went out of the side's sight on `turn`: it is remembered where it
        was last seen, and then (it was in sight until now, however long ago it came
        there). Returns the sighting it was in sight as (None: it was not in sight)."""
        known = self._sightings.get(unit)
        if known is None or known.sure is not Sure.SEEN:
            return None
        self.record(known._replace(sure=Sure.LAST_SEEN, turn=turn))
        return known

    def record_casualty(self, unit: str, turn: int,
                        fallback: Sighting[K, D] | None = None) -> bool:
        """The side knows the enemy is out of the fight (it saw it fall on `turn`, or was
        told): its last sighting (else `fallback`, a sighting of where it fell) is kept,
        out of sight and out of the fight; one in sight until now is dated `turn`. False
        when the side knows nothing of it to keep."""
        known = self._sightings.get(unit, fallback)
        if known is None:
            return False
        if known.sure is Sure.SEEN:
            known = known._replace(sure=Sure.LAST_SEEN, turn=turn)
        self.record(known._replace(alive=False))
        return True

    def report_fire(self, report: FireReport) -> None:
        """A unit of the side was fired on."""
        self.reports.append(report)
        self.news += 1

    def reset(self, sightings: Iterable[Sighting[K, D]] = (),
              reports: Sequence[FireReport] = ()) -> None:
        """Everything the side knew replaced (a searching computer's drawn world)."""
        self._sightings = {s.unit: s for s in sightings}
        self.reports = list(reports)
        self.news += 1


def knowledge_of(scenario: Any, sides: Sequence[str],
                 forces: Mapping[str, Iterable[Briefed[K]]]) -> dict[str, SideKnowledge[K, Any]]:
    """Each side's knowledge at the start: nothing seen, the public facts of its enemy
    (`forces`: each side's roster as briefed, by side)."""
    out: dict[str, SideKnowledge[K, Any]] = {}
    for side in sides:
        enemy = next(s for s in sides if s != side)
        out[side] = SideKnowledge(public_facts(scenario, side, forces[enemy]))
    return out
