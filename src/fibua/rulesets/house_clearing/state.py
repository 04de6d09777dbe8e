"""House-Clearing game state: figures with their statistics, what each side has seen, the
turn, phase and initiative step, a pending reaction to a move, and declared fire."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from fibua.battlefield.model import Position
from fibua.core.events import SideLogs
from fibua.core.knowledge import SideKnowledge, Sighting
from fibua.core.state import BaseState
from fibua.rulesets.house_clearing.forces import Options
from fibua.rulesets.house_clearing.tables import WEAPONS, Rank, Stance, Weapon, WeaponName

if TYPE_CHECKING:
    from fibua.rulesets.house_clearing.geometry import MapGeometry

LOG_LENGTH = 40  # events of a side's log its view carries, the most recent


class Phase(StrEnum):
    MOVE = "move"
    FIRE = "fire"


@dataclass(slots=True)
class Figure:
    id: str
    name: str
    side: str
    unit: str  # the player (seat) whose figure it is
    weapon: WeaponName
    rank: Rank
    initiative: int
    skill: int
    pos: Position
    stance: Stance = Stance.STANDING
    moved: bool = False  # has had its move step this turn (moved or changed stance)
    fired: bool = False  # has fired, declared fire, or fed a belt this turn
    reacted: bool = False  # fired during the move phase this turn
    ducked: bool = False  # ducked back: counts initiative 0 for the rest of the turn
    loading: bool = False  # feeding a belt-fed gun this turn

    @property
    def arms(self) -> Weapon:
        return WEAPONS[self.weapon]

    @property
    def in_action(self) -> bool:
        """Below 0 initiative a figure is dead or seriously wounded."""
        return self.initiative >= 0

    @property
    def step(self) -> int:
        """The initiative it moves and fires at now."""
        return 0 if self.ducked else self.initiative

    def snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "side": self.side, "unit": self.unit,
            "weapon": str(self.weapon), "rank": str(self.rank), "initiative": self.initiative,
            "skill": self.skill, "x": self.pos.x, "y": self.pos.y, "section": self.pos.section,
            "floor": self.pos.floor, "stance": str(self.stance), "moved": self.moved,
            "fired": self.fired, "reacted": self.reacted, "ducked": self.ducked,
            "loading": self.loading,
        }


#: a side's sighting of an enemy figure: the weapon it was seen to carry and the stance it
#: was seen in (its `step`: the initiative step it was last seen moving or firing in)
Seen = Sighting[WeaponName, Stance]
#: all a side knows of the enemy (core/knowledge.py)
Known = SideKnowledge[WeaponName, Stance]


@dataclass(slots=True)
class Reaction:
    """The enemy's answer to a move, asked after every move and after every shot at the
    mover until it lets the mover go, whether or not it can still fire (so the moving side
    learns nothing from being asked): where the mover could be fired on (`spots`, along
    its path; the last is where it stopped) and which enemy figures that have not fired
    yet see it at which spots (none: the enemy can only let it go)."""

    mover: str
    side: str  # the side that may fire
    shown: bool  # the side that may fire saw the mover somewhere along its path
    start: Position
    start_stance: Stance
    spots: list[Position]
    stances: list[Stance]  # the mover's stance at each spot (upright on the move)
    firers: dict[str, list[int]]  # eligible firer -> indexes of the spots it sees

    def snapshot(self) -> dict[str, Any]:
        return {
            "mover": self.mover, "side": self.side, "shown": self.shown,
            "start": [self.start.x, self.start.y, self.start.section, self.start.floor],
            "start_stance": str(self.start_stance),
            "spots": [[p.x, p.y, p.section, p.floor] for p in self.spots],
            "stances": [str(s) for s in self.stances],
            "firers": {k: list(v) for k, v in sorted(self.firers.items())},
        }


@dataclass(frozen=True, slots=True)
class Declaration:
    """Fire declared in a fire step, resolved once every side has declared."""

    firer: str
    target: str
    auto: bool
    loader: str | None

    def snapshot(self) -> list[Any]:
        return [self.firer, self.target, self.auto, self.loader]


@dataclass(slots=True)
class HouseClearingState(BaseState[Options]):
    geometry: MapGeometry  # the scenario's geometry, reading the rules' fork
    figures: dict[str, Figure]
    #: each side's geometry, reading its own fork of the engine, for its views and
    #: players (see views.observe)
    side_geometry: dict[str, MapGeometry] = field(default_factory=dict)
    phase: Phase = Phase.MOVE
    step: int = 0
    top_step: int = 4
    order: tuple[str, str] = ("", "")  # who acts first in each step this turn
    acting: int = 0  # index into order
    reaction: Reaction | None = None
    declared: list[Declaration] = field(default_factory=list)
    #: fifths of b that a sees, for enemies a and b that see each other (else absent)
    exposure: dict[tuple[str, str], int] = field(default_factory=dict)
    #: what each side knows of the enemy
    knowledge: dict[str, Known] = field(default_factory=dict)
    #: paths already traced and what they cost (`movement.paths_traced`, shared by the
    #: scenario's games): no part of the game, only spares tracing a path again
    traced: dict[Any, Any] = field(default_factory=dict)
    #: a copy of the game (`clone`) traces paths into the same store
    shared_on_clone: ClassVar[tuple[str, ...]] = ("traced",)
    #: each side's last LOG_LENGTH events, only ones addressed to it
    logs: SideLogs = field(default_factory=lambda: SideLogs(LOG_LENGTH), kw_only=True)
    #: each side's figures in the order of `figures` (set once they are all placed)
    teams: dict[str, tuple[Figure, ...]] = field(default_factory=dict, kw_only=True)

    def side_figures(self, side: str) -> list[Figure]:
        # `Figure.in_action` written out: asked many times an order
        return [f for f in self.teams[side] if f.initiative >= 0]

    def sees(self, a: str, b: str) -> bool:
        return (a, b) in self.exposure

    def fifths(self, a: str, b: str) -> int:
        return self.exposure.get((a, b), 0)

    @property
    def acting_side(self) -> str | None:
        if self.result is not None:
            return None
        if self.reaction is not None:
            return self.reaction.side
        return self.order[self.acting]
