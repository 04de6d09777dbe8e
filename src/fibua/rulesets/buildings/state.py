"""Buildings game state: units of models, the order each has this turn, the die drawn from
the bag, a shot waiting for its target's answer, and what each side has seen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fibua.battlefield.model import Position
from fibua.battlefield.sight import SightEngine
from fibua.core.events import SideLogs
from fibua.core.knowledge import SideKnowledge, Sighting
from fibua.core.state import BaseState
from fibua.rulesets.buildings.bag import Bag
from fibua.rulesets.buildings.forces import Options
from fibua.rulesets.buildings.tables import (
    MORALE,
    Mobility,
    ObserverKind,
    OrderKind,
    Quality,
    UnitKind,
    VehicleKind,
    WeaponName,
)

#: events of a side's log its view carries, the most recent
LOG_LENGTH = 80


@dataclass(slots=True)
class Model:
    """One model: where it stands (inside a building, the unit's section and floor) and
    the weapon it fires (None: it serves the team weapon, or is a vehicle's hull)."""

    x: float
    y: float
    weapon: WeaponName | None

    def snapshot(self) -> dict[str, Any]:
        return {"x": self.x, "y": self.y,
                "weapon": None if self.weapon is None else str(self.weapon)}


@dataclass(slots=True)
class Unit:
    id: str
    name: str
    side: str
    kind: UnitKind
    quality: Quality
    mobility: Mobility
    models: list[Model]
    start: int  # models at the start of the game
    mounts: tuple[WeaponName, ...] = ()  # a gun's or vehicle's weapons
    vehicle: VehicleKind | None = None
    facing: float = 0.0  # degrees, vehicles and guns
    section: str | None = None  # inside this section (None: outside)
    floor: int = 0
    opening: int | None = None  # a gun's fixed opening inside
    pins: int = 0
    #: the order given this turn (None: none yet, its die still in the bag)
    order: OrderKind | None = None
    #: the unit kept its Down or Ambush die out of this turn's bag
    kept: bool = False
    #: a Down order that keeps its die through the next turn
    keep_down: bool = False
    destroyed: bool = False
    half_tested: bool = False  # took its test for falling to half strength
    immobilised: bool = False
    shaken: bool = False  # its next order is Down
    spent: list[int] = field(default_factory=list)  # models whose one-shot weapon is fired
    observer: ObserverKind | None = None
    shield: bool = False  # a gun shield
    aboard: str | None = None  # the transport it rides in (off the table)
    carrying: str | None = None  # the unit a transport carries
    #: where along a mover's path an ambush fires: first, nearest or last point in sight
    ambush_at: str = "first"

    @property
    def alive(self) -> bool:
        return not self.destroyed and bool(self.models)

    @property
    def morale(self) -> int:
        return MORALE[self.quality]

    @property
    def inside(self) -> bool:
        return self.section is not None

    @property
    def lead(self) -> Model:
        return self.models[0]

    @property
    def pos(self) -> Position:
        """Where the unit is reckoned to be: its first model, in its section and floor."""
        return Position(self.lead.x, self.lead.y, self.section, self.floor)

    def positions(self) -> list[Position]:
        return [Position(m.x, m.y, self.section, self.floor) for m in self.models]

    def snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "side": self.side, "kind": str(self.kind),
            "quality": str(self.quality), "models": [m.snapshot() for m in self.models],
            "start": self.start, "section": self.section, "floor": self.floor,
            "opening": self.opening, "pins": self.pins,
            "order": None if self.order is None else str(self.order), "kept": self.kept,
            "keep_down": self.keep_down, "destroyed": self.destroyed,
            "half_tested": self.half_tested, "immobilised": self.immobilised,
            "shaken": self.shaken, "facing": self.facing, "spent": list(self.spent),
            "aboard": self.aboard, "carrying": self.carrying,
            "observer": None if self.observer is None else str(self.observer),
            "shield": self.shield, "ambush_at": self.ambush_at,
        }


#: a side's sighting of an enemy unit: its kind as seen (infantry, gun, vehicle), the
#: order its die was seen spent on (None: none seen), its models counted (`strength`)
Seen = Sighting[UnitKind, OrderKind | None]
#: all a side knows of the enemy (core/knowledge.py)
Known = SideKnowledge[UnitKind, OrderKind | None]


def models_seen(s: Seen) -> int:
    """The models the side counted in an enemy unit when it last saw it (the rules always
    count them)."""
    return s.strength or 0


@dataclass(slots=True)
class Ranging:
    """An indirect firer's tries at one target from one place: its earlier tries, and
    whether it has hit (ranged in); it starts again once the firer moves or the target
    changes floor."""

    place: tuple[float, float]
    floor: int
    section: str | None
    tries: int = 0
    ranged_in: bool = False

    def snapshot(self) -> dict[str, Any]:
        return {"place": list(self.place), "floor": self.floor, "section": self.section,
                "tries": self.tries, "ranged_in": self.ranged_in}


@dataclass(slots=True)
class Call:
    """An air strike or a barrage called this turn, to arrive at the start of the next."""

    side: str
    by: str
    kind: ObserverKind
    turn: int
    target: str | None  # a unit (air strike)
    section: str | None  # a section (air strike)
    point: tuple[float, float]

    def snapshot(self) -> dict[str, Any]:
        return {"side": self.side, "by": self.by, "kind": str(self.kind), "turn": self.turn,
                "target": self.target, "section": self.section, "point": list(self.point)}


@dataclass(slots=True)
class Waiting:
    """A shot held while its target's side answers: go Down (a die spent) or take it.
    Small arms wait before the to-hit roll; HE and indirect fire after the hit."""

    firer: str
    target: str
    advanced: bool
    indirect: bool = False
    #: HE that has hit, its hits still to roll (empty: the shot is not yet rolled)
    landing: tuple[WeaponName, ...] = ()
    #: an air strike or a barrage's heavy hit (state.arriving), not a shot by a unit
    arrival: bool = False
    #: a unit inside dividing its fire: the targets still to fire at, the sides of its
    #: section spent before this target, and those spent once it has fired
    more: tuple[str, ...] = ()
    spent: tuple[int, ...] = ()
    used: tuple[int, ...] = ()

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "firer": self.firer, "target": self.target, "advanced": self.advanced,
            "indirect": self.indirect, "landing": [str(w) for w in self.landing],
            "arrival": self.arrival}
        if self.more:  # only then: the snapshots of games that do not divide fire stay
            out.update(more=list(self.more), spent=list(self.spent), used=list(self.used))
        return out


@dataclass(slots=True)
class Arrival:
    """A strike or barrage arriving at the turn's start, held while a unit it hits may go
    Down: a strike keeps where it hits, a barrage the units it has rolled for."""

    call: Call
    started: bool = False
    #: a strike: the unit its HE falls on, and the floor it bursts on (inside)
    victim: str | None = None
    floor: int | None = None
    centre: tuple[float, float] = (0.0, 0.0)
    #: a barrage: units rolled for, the heavy hit waiting for its unit, hits by section
    rolled: list[str] = field(default_factory=list)
    heavy: str | None = None
    totals: dict[str, int] = field(default_factory=dict)

    def snapshot(self) -> dict[str, Any]:
        return {"call": self.call.snapshot(), "started": self.started,
                "victim": self.victim, "floor": self.floor, "centre": list(self.centre),
                "rolled": list(self.rolled), "heavy": self.heavy,
                "totals": dict(sorted(self.totals.items()))}


@dataclass(slots=True)
class BuildingsState(BaseState[Options]):
    units: dict[str, Unit]
    #: each side's own fork of the engine, for its views and players
    side_sight: dict[str, SightEngine] = field(default_factory=dict)
    #: the side whose die was drawn (None between draws)
    drawn: str | None = None
    waiting: Waiting | None = None
    limit: int = 6  # the last turn, once the extra turn has been rolled for
    extra_rolled: bool = False
    #: what each side knows of the enemy
    knowledge: dict[str, Known] = field(default_factory=dict)
    destroyed_by: dict[str, int] = field(default_factory=dict)  # enemy units destroyed
    #: indirect fire: each firer's tries at a target ("firer>target")
    ranging: dict[str, Ranging] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    barrages_called: dict[str, int] = field(default_factory=dict)  # by observer
    arriving: Arrival | None = None
    logs: SideLogs = field(default_factory=lambda: SideLogs(LOG_LENGTH), kw_only=True)

    def side_units(self, side: str) -> list[Unit]:
        # Unit.alive written out: asked many times an order
        return [u for u in self.units.values()
                if u.side == side and not u.destroyed and u.models]

    def bag(self) -> Bag:
        """The dice left in the bag: one for each unit with no order yet this turn, less
        the die drawn and not yet given to a unit."""
        counts = {side: sum(1 for u in self.side_units(side) if u.order is None)
                  for side in self.sides}
        if self.drawn is not None and self.waiting is None and counts[self.drawn]:
            counts[self.drawn] -= 1
        return Bag.of(counts)

    def occupant(self, section: str, floor: int) -> Unit | None:
        for u in self.units.values():
            if u.alive and u.section == section and u.floor == floor:
                return u
        return None

    @property
    def acting_side(self) -> str | None:
        if self.result is not None:
            return None
        if self.waiting is not None:
            return self.units[self.waiting.target].side
        return self.drawn
