"""Street-Fight game state: figures, units, what each side has seen, the turn and phase."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fibua.battlefield.model import Position
from fibua.battlefield.sight import PositionArrays
from fibua.core.events import SideLogs
from fibua.core.knowledge import SideKnowledge, Sighting
from fibua.core.state import BaseState
from fibua.rulesets.street_fight.forces import Options
from fibua.rulesets.street_fight.tables import MOVE_NORMAL, WEAPONS, Weapon, WeaponName

LOG_LENGTH = 40  # events of a side's log its view carries, the most recent
EVENT_DECIMALS = 2  # places of inches in event data: the state keeps distances exact


def inches(value: float) -> float:
    """A distance or coordinate as events show it, to a hundredth of an inch."""
    return round(value, EVENT_DECIMALS)


def spot(x: float, y: float) -> list[float]:
    """A place as events show it."""
    return [round(x, EVENT_DECIMALS), round(y, EVENT_DECIMALS)]


class Phase(StrEnum):
    MOVE = "move"
    SHOOT = "shoot"


@dataclass(frozen=True, slots=True)
class Overwatch:
    x: float
    y: float
    radius: float
    large: bool

    def covers(self, x: float, y: float) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 <= self.radius**2


@dataclass(slots=True)
class Figure:
    id: str
    name: str
    side: str
    unit: str
    weapon: WeaponName
    pos: Position
    alive: bool = True
    moved: float = 0.0  # inches moved this turn
    ran_last_turn: bool = False
    aim: int = 0  # turns spent aiming, capped at AIM_MAX_TURNS
    fired: bool = False
    took_cover: bool = False  # gave its take-cover order this turn
    overwatch: Overwatch | None = None
    full_cover: bool = False
    charged: bool = False
    #: the enemies that charged into it and that it is still fighting: it defends
    #: against them (see combat.note_defenders)
    defending: tuple[str, ...] = ()
    lost_last_combat: bool = False
    sheltering: int = 0  # turns left sheltering after falling back
    fleeing_from: tuple[float, float] | None = None

    @property
    def arms(self) -> Weapon:
        return WEAPONS[self.weapon]

    @property
    def ran(self) -> bool:
        return self.moved > MOVE_NORMAL

    @property
    def counts_as_moving(self) -> bool:
        return self.moved > 0 or self.ran_last_turn

    @property
    def steady(self) -> bool:
        """Not falling back and not sheltering: the figure takes orders."""
        return self.alive and self.fleeing_from is None and self.sheltering == 0

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "name": self.name, "side": self.side, "unit": self.unit,
            "weapon": str(self.weapon), "x": self.pos.x, "y": self.pos.y,
            "section": self.pos.section, "floor": self.pos.floor, "alive": self.alive,
            "moved": self.moved, "ran_last_turn": self.ran_last_turn, "aim": self.aim,
            "fired": self.fired, "took_cover": self.took_cover, "full_cover": self.full_cover,
            "charged": self.charged, "defending": list(self.defending),
            "lost_last_combat": self.lost_last_combat,
            "sheltering": self.sheltering,
            "fleeing_from": list(self.fleeing_from) if self.fleeing_from else None,
            "overwatch": None,
        }
        if self.overwatch is not None:
            ow = self.overwatch
            out["overwatch"] = {"x": ow.x, "y": ow.y, "radius": ow.radius, "large": ow.large}
        return out


@dataclass(slots=True)
class Unit:
    id: str
    name: str
    side: str
    figures: list[str]
    tested_losses: int = 0  # casualties already covered by morale tests
    last_casualty_from: tuple[float, float] | None = None

    @property
    def start(self) -> int:
        return len(self.figures)


#: a side's sighting of an enemy figure: the weapon it was seen to carry (None: not made
#: out), and whether it counted as moving when last seen (a shot at it is harder)
Seen = Sighting[WeaponName | None, bool]
#: all a side knows of the enemy (core/knowledge.py)
Known = SideKnowledge[WeaponName | None, bool]


@dataclass(slots=True)
class StreetFightState(BaseState[Options]):
    figures: dict[str, Figure]
    units: dict[str, Unit]
    phase: Phase = Phase.MOVE
    initiative: list[str] = field(default_factory=list)  # sides, first to act first
    acting: int = 0  # index into initiative for the current phase
    #: line of sight: for each figure, the enemy figures it sees (and that see it)
    lines: dict[str, set[str]] = field(default_factory=dict)
    #: what each side knows of the enemy (its `news` moves with every change)
    knowledge: dict[str, Known] = field(default_factory=dict)
    #: each side's last LOG_LENGTH events, only ones addressed to it
    logs: SideLogs = field(default_factory=lambda: SideLogs(LOG_LENGTH), kw_only=True)
    #: each side's briefing (see views.briefing), public and fixed for the whole game
    briefings: dict[str, Any] = field(default_factory=dict)
    _rosters: dict[str, list[Figure]] = field(default_factory=dict, init=False, repr=False)
    _roster_size: int = field(default=-1, init=False, repr=False)
    #: per side, its living figures' positions and those positions as the sight engine's
    #: arrays: a side's figures stand still while the other side moves
    sight_arrays: dict[str, tuple[tuple[Position, ...], PositionArrays]] = field(
        default_factory=dict, init=False, repr=False)

    def side_figures(self, side: str) -> list[Figure]:
        return [f for f in self.roster(side) if f.alive]

    def roster(self, side: str) -> list[Figure]:
        """Every figure of a side, fallen ones too, in the order of `figures`. Figures are
        only ever added (at set-up) and never change side, so the lists are made again
        only when the roster has grown."""
        if self._roster_size != len(self.figures):
            self._rosters = {s: [] for s in self.sides}
            for f in self.figures.values():
                self._rosters.setdefault(f.side, []).append(f)
            self._roster_size = len(self.figures)
        return self._rosters.get(side, [])

    def can_see(self, a: str, b: str) -> bool:
        return b in self.lines.get(a, ())

    @property
    def acting_side(self) -> str | None:
        if self.result is not None:
            return None
        return self.initiative[self.acting]
