"""Street Fighter game state: units, formations, fire markers, what each side has seen."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fibua.battlefield.model import Position
from fibua.battlefield.sight import PositionArrays, SightEngine
from fibua.core.dice import Roll
from fibua.core.events import SideLogs
from fibua.core.knowledge import SideKnowledge, Sighting
from fibua.core.state import BaseState
from fibua.rulesets.street_fighter.forces import Options
from fibua.rulesets.street_fighter.tables import CATALOGUE, Body, Kind, UnitType

#: events of a side's log its view carries, the most recent: a motor company's turn of
#: orders and what it saw fits
LOG_LENGTH = 80


class Activity(StrEnum):
    """A unit's latest action: what the enemy sees it doing until its next action."""

    IDLE = "idle"  # given no order (or not yet this turn)
    MOVED = "moved"
    MOVED_FIRED = "moved-and-fired"
    FIRED = "fired"
    ASSAULTED = "assaulted"
    MOUNTED = "mounted-or-dismounted"
    OBSERVING = "observing"
    FLAT_OUT = "flat-out"


MOVING = frozenset({Activity.MOVED, Activity.MOVED_FIRED, Activity.FLAT_OUT,
                    Activity.ASSAULTED, Activity.MOUNTED})
FIRING = frozenset({Activity.FIRED, Activity.MOVED_FIRED, Activity.ASSAULTED})


@dataclass(slots=True)
class Unit:
    id: str
    name: str
    side: str
    formation: str
    kind: Kind
    pos: Position
    hp: int
    start_hp: int
    activity: Activity = Activity.IDLE
    acted: bool = False  # has had its action this turn
    pinned: bool = False
    pinned_turn: int = 0
    rides: str | None = None  # the vehicle it is in
    passengers: list[str] = field(default_factory=list)
    surrendered: bool = False
    last_fired_turn: int = 0

    @property
    def spec(self) -> UnitType:
        return CATALOGUE[self.kind]

    @property
    def alive(self) -> bool:
        """Still on the table and in the fight (it may be demoralised)."""
        return self.hp > 0 and not self.surrendered

    @property
    def is_tank(self) -> bool:
        return self.spec.body is Body.TANK

    def snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "side": self.side, "formation": self.formation,
            "kind": str(self.kind), "x": self.pos.x, "y": self.pos.y,
            "section": self.pos.section, "hp": self.hp, "start_hp": self.start_hp,
            "activity": str(self.activity), "acted": self.acted, "pinned": self.pinned,
            "pinned_turn": self.pinned_turn, "rides": self.rides,
            "passengers": list(self.passengers), "surrendered": self.surrendered,
            "last_fired_turn": self.last_fired_turn,
        }


@dataclass(slots=True)
class Formation:
    id: str
    name: str
    side: str
    commander: str | None
    units: list[str]
    start_hp: int
    demoralised: bool = False
    die: int | None = None  # this turn's observation d10, one for the whole formation

    def snapshot(self) -> dict[str, Any]:
        return {"id": self.id, "demoralised": self.demoralised, "die": self.die}


@dataclass(slots=True)
class Marker:
    """Indirect fire called down this turn, to land at the start of the next."""

    side: str
    by: str  # the mortar section or HQ that called it
    x: float
    y: float
    turn: int
    source: tuple[float, float]  # where the fire comes from (for the fired-on report)
    artillery: bool


#: units listed with their places as arrays (`SightEngine.position_arrays`)
Placed = tuple[list[Unit], PositionArrays]


@dataclass(slots=True)
class Look:
    """A side's look at the enemy as last worked out (knowledge.py), kept so that after an
    order only the pairs of an observer and a target that involve a unit the order changed
    are worked out again."""

    eyes: dict[str, Unit]  # the side's observers, by id
    marks: dict[str, Unit]  # the enemy units it could see, by id
    at: dict[str, Position]  # where each eye and mark stood when its lines were found
    lines: dict[str, set[str]]  # each mark: the ids of the eyes with a line of sight to it
    #: each mark: the id of an eye that picks it out (the first found), None if none does
    seer: dict[str, str | None]
    #: the eyes and the marks listed with their places as the sight engine reads them,
    #: kept while no eye (mark) comes, goes or moves
    eyes_placed: Placed | None = None
    marks_placed: Placed | None = None
    #: ids of the units whose place, activity, riding or being in the fight changed since
    #: (`knowledge.touched`): their pairs are to be worked out again
    changed: set[str] = field(default_factory=set)


class Looks(dict[str, Look]):
    """Each side's kept look, by side. A copy of the state (`BaseState.clone`, then
    changed at will by a search or a sampled world) starts without any: it looks afresh."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Looks:
        return Looks()


#: a side's sighting of an enemy unit: the kind of unit it was seen to be, and whether it
#: was seen moving flat out (a shot at it is harder; sightings have no floor here: 0)
Seen = Sighting[Kind, bool]
#: all a side knows of the enemy, the reports of being fired on with it (core/knowledge.py)
Known = SideKnowledge[Kind, bool]


@dataclass(slots=True)
class StreetFighterState(BaseState[Options]):
    units: dict[str, Unit]
    formations: dict[str, Formation]
    #: each side's own fork of the engine, for its views and players (see views.observe)
    side_sight: dict[str, SightEngine] = field(default_factory=dict)
    acting: int = 0  # index into sides of the side giving orders
    markers: list[Marker] = field(default_factory=list)
    #: what each side knows of the enemy, the fire reported to it included
    knowledge: dict[str, Known] = field(default_factory=dict)
    artillery: dict[str, int] = field(default_factory=dict)  # fire missions left
    deployment: dict[str, tuple[float, float]] = field(default_factory=dict)  # Control's picks
    rolls: list[tuple[int, Roll]] = field(default_factory=list)  # every roll, for the report
    #: each side's last LOG_LENGTH events, only ones addressed to it
    logs: SideLogs = field(default_factory=lambda: SideLogs(LOG_LENGTH), kw_only=True)
    #: the `version` at which what each side sees was last worked out (knowledge.refresh):
    #: no part of the game, only of the rules' bookkeeping
    spotted: int = field(default=-1, kw_only=True)
    #: each side's look as last worked out (knowledge.refresh): only of the bookkeeping
    looks: Looks = field(default_factory=Looks, kw_only=True)

    def record(self, roll: Roll) -> Roll:
        self.rolls.append((self.turn, roll))
        return roll

    def side_units(self, side: str) -> list[Unit]:
        # `Unit.alive` written out: asked for every side's units after every order
        return [u for u in self.units.values()
                if u.side == side and u.hp > 0 and not u.surrendered]

    def formation_of(self, unit: Unit) -> Formation:
        return self.formations[unit.formation]

    def demoralised(self, unit: Unit) -> bool:
        return self.formations[unit.formation].demoralised

    @property
    def acting_side(self) -> str | None:
        return None if self.result is not None else self.sides[self.acting]
