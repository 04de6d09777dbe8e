"""The battlefield shared by every rule set: table, terrain, obstacles, buildings.

All values are immutable; what changes during a game (a building burning or collapsing) is
kept in the game state as a `SectionState` per section and handed to the sight engine.
Coordinates are in the table's unit, origin at the bottom-left corner, y growing north.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from math import hypot

Point = tuple[float, float]

CM_PER_INCH = 2.54


class LengthUnit(StrEnum):
    INCH = "inch"
    CM = "cm"


def convert_length(value: float, source: LengthUnit, target: LengthUnit) -> float:
    """Convert a length between table units (rule sets measure in their own unit)."""
    if source is target:
        return value
    return value * CM_PER_INCH if source is LengthUnit.INCH else value / CM_PER_INCH


class TerrainKind(StrEnum):
    OPEN = "open"
    ROAD = "road"
    ROUGH = "rough"
    RUBBLE = "rubble"
    PLOT = "plot"  # building plot: the ground around a building, inside its lot


class ObstacleKind(StrEnum):
    LOW_WALL = "low-wall"
    HIGH_WALL = "high-wall"
    HEDGE = "hedge"
    FENCE = "fence"


#: Whether a linear obstacle of this kind hides what is behind it from a figure on the ground.
BLOCKS_SIGHT: dict[ObstacleKind, bool] = {
    ObstacleKind.LOW_WALL: False,
    ObstacleKind.HIGH_WALL: True,
    ObstacleKind.HEDGE: True,
    ObstacleKind.FENCE: False,
}


class Construction(StrEnum):
    WOODEN = "wooden"
    BRICK = "brick"
    STRONG = "strong"
    BUNKER = "bunker"


class OpeningKind(StrEnum):
    DOOR = "door"
    WINDOW = "window"
    SLIT = "slit"  # firing slit of a bunker or pillbox


class SectionState(StrEnum):
    INTACT = "intact"
    BURNING = "burning"  # smoke: nothing is seen into, out of or through it
    RUBBLE = "rubble"  # collapsed: no longer blocks sight; counts as rubble terrain


@dataclass(frozen=True, slots=True)
class TerrainArea:
    id: str
    kind: TerrainKind
    polygon: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Obstacle:
    """A wall, hedge or fence along a polyline; `height` is in the table unit."""

    id: str
    kind: ObstacleKind
    points: tuple[Point, ...]
    height: float

    @property
    def blocks_sight(self) -> bool:
        return BLOCKS_SIGHT[self.kind]


@dataclass(frozen=True, slots=True)
class Opening:
    """A door, window or slit in wall `wall` of a section's footprint.

    Wall i runs from footprint vertex i to vertex i+1 (wrapping). `at` is the distance of the
    opening's centre from the wall's start and `width` its width, both in the table unit.
    """

    kind: OpeningKind
    wall: int
    floor: int
    at: float
    width: float


@dataclass(frozen=True, slots=True)
class Section:
    """One house-sized part of a building: a footprint with floors and openings."""

    id: str
    footprint: tuple[Point, ...]
    floors: int = 1  # storeys including the ground floor
    flat_roof: bool = False  # an accessible roof counts as the uppermost floor
    construction: Construction = Construction.BRICK
    openings: tuple[Opening, ...] = ()

    @property
    def levels(self) -> int:
        """Number of floors a figure can stand on, the flat roof included."""
        return self.floors + (1 if self.flat_roof else 0)

    def wall(self, index: int) -> tuple[Point, Point]:
        pts = self.footprint
        return pts[index % len(pts)], pts[(index + 1) % len(pts)]

    def opening_segment(self, opening: Opening) -> tuple[Point, Point]:
        (x0, y0), (x1, y1) = self.wall(opening.wall)
        length = hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        lo, hi = opening.at - opening.width / 2, opening.at + opening.width / 2
        return (x0 + ux * lo, y0 + uy * lo), (x0 + ux * hi, y0 + uy * hi)


@dataclass(frozen=True, slots=True)
class Building:
    """A building of one or more sections; `connections` are pairs of section ids joined by
    an inside passage (large buildings: factory halls, stations, terraces)."""

    id: str
    name: str
    sections: tuple[Section, ...]
    connections: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    width: float
    height: float
    unit: LengthUnit = LengthUnit.INCH


@dataclass(frozen=True, slots=True)
class Battlefield:
    table: Table
    terrain: tuple[TerrainArea, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    buildings: tuple[Building, ...] = ()
    _sections: dict[str, tuple[Building, Section]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for building in self.buildings:
            for section in building.sections:
                self._sections[section.id] = (building, section)

    def section(self, section_id: str) -> Section:
        return self._sections[section_id][1]

    def building_of(self, section_id: str) -> Building:
        return self._sections[section_id][0]

    @property
    def section_ids(self) -> tuple[str, ...]:
        return tuple(self._sections)


@dataclass(frozen=True, slots=True)
class Position:
    """Where a figure or unit stands: on the table, or inside a section on a floor (0 = ground)."""

    x: float
    y: float
    section: str | None = None
    floor: int = 0

    @property
    def point(self) -> Point:
        return (self.x, self.y)

    def distance(self, other: Position) -> float:
        return hypot(self.x - other.x, self.y - other.y)
