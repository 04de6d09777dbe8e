"""Scenario files: the common schema. Each rule set validates its own `forces` and `options`.

Unknown keys are errors everywhere (`extra="forbid"`), so a typo never passes silently.
Every number is finite. A table is at most 120 in (or 300 cm) a side, so that nothing kept
per patch of table grows out of proportion; every point of the map, of a deployment zone
and of an objective lies on the table (edges included). Polygons are simple (they neither
cross themselves nor repeat a point), and a section's footprint runs anticlockwise, so
the outside of each wall is on its right. Obstacles are at most 12 in (30 cm) high.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from math import hypot, isfinite
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, PrivateAttr, model_validator
from pydantic_core import PydanticCustomError
from shapely.errors import ShapelyError
from shapely.geometry import LineString, Polygon

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Construction,
    LengthUnit,
    Obstacle,
    ObstacleKind,
    Opening,
    OpeningKind,
    Section,
    Table,
    TerrainArea,
    TerrainKind,
)

#: a point on the table; `nan` and `inf`, which TOML allows, are refused
XY = tuple[FiniteFloat, FiniteFloat]
PolygonPoints = Annotated[list[XY], Field(min_length=3)]

#: A place in a scenario table: keys and list indexes, as in pydantic's error locations.
Loc = tuple[int | str, ...]

#: pydantic error type of the checks in this module. A validator can raise only one error,
#: so its context carries `problems`: (place relative to the checked table, message) pairs,
#: which the loader reports one by one.
PROBLEMS = "scenario_problems"


def field_path(loc: Sequence[int | str]) -> str:
    """A location as a path a person reads: sides[0].forces.units[2].weapon"""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def problems_error(found: Sequence[tuple[Loc, str]]) -> PydanticCustomError:
    """One pydantic error carrying several located problems."""
    summary = "; ".join(f"{field_path(loc)}: {msg}" if loc else msg for loc, msg in found)
    return PydanticCustomError(
        PROBLEMS, "{summary}", {"summary": summary, "problems": list(found)}
    )

#: Heights in inches used when a file leaves an obstacle's height out (28 mm figures).
DEFAULT_HEIGHT_INCH: dict[ObstacleKind, float] = {
    ObstacleKind.LOW_WALL: 0.5,
    ObstacleKind.HIGH_WALL: 1.5,
    ObstacleKind.HEDGE: 1.0,
    ObstacleKind.FENCE: 0.6,
}

#: The longest table side a file may give, in each unit (10 ft): sight, cover and path
#: grids keep a cell per patch of table, so a larger one would only exhaust memory.
MAX_TABLE: dict[LengthUnit, float] = {LengthUnit.INCH: 120.0, LengthUnit.CM: 300.0}
#: The tallest obstacle, in each unit: taller than a wall a figure could see over.
MAX_OBSTACLE_HEIGHT: dict[LengthUnit, float] = {LengthUnit.INCH: 12.0, LengthUnit.CM: 30.0}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Meta(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    ruleset: str
    description: str = ""
    turns: int = Field(ge=1, le=200)
    history: str = ""


class TerrainSpec(Strict):
    id: str
    kind: TerrainKind
    polygon: PolygonPoints


class ObstacleSpec(Strict):
    id: str
    kind: ObstacleKind
    points: Annotated[list[XY], Field(min_length=2)]
    height: FiniteFloat | None = Field(default=None, gt=0)


class OpeningSpec(Strict):
    kind: OpeningKind
    wall: int = Field(ge=0)
    floor: int = Field(default=0, ge=0)
    at: FiniteFloat = Field(ge=0)
    width: FiniteFloat = Field(default=1.0, gt=0)


class SectionSpec(Strict):
    id: str
    footprint: PolygonPoints
    floors: int = Field(default=1, ge=1, le=20)
    flat_roof: bool = False
    construction: Construction = Construction.BRICK
    openings: list[OpeningSpec] = []

    @model_validator(mode="after")
    def openings_fit(self) -> SectionSpec:
        found = self.opening_problems()
        if found:
            raise problems_error(found)
        return self

    def opening_problems(self) -> list[tuple[Loc, str]]:
        """Every opening on a wall and floor that exist, fitting inside its wall."""
        levels = self.floors + (1 if self.flat_roof else 0)
        walls = len(self.footprint)
        found: list[tuple[Loc, str]] = []
        for i, spec in enumerate(self.openings):
            if spec.floor >= levels:
                roof = " (the flat roof is the top one)" if self.flat_roof else ""
                has = "only floor 0" if levels == 1 else f"floors 0..{levels - 1}{roof}"
                found.append((
                    ("openings", i, "floor"),
                    f"floor {spec.floor} does not exist: the section has {has}",
                ))
            if spec.wall >= walls:
                found.append((
                    ("openings", i, "wall"),
                    f"wall {spec.wall} does not exist: the footprint has {walls} points, so "
                    f"walls 0..{walls - 1} (wall i runs from point i to point i+1)",
                ))
                continue
            (x0, y0), (x1, y1) = self.footprint[spec.wall], self.footprint[(spec.wall + 1) % walls]
            length = hypot(x1 - x0, y1 - y0)
            half = spec.width / 2
            if spec.width > length + 1e-9:
                found.append((
                    ("openings", i, "width"),
                    f"a {spec.kind} {spec.width:g} wide does not fit on wall {spec.wall}, "
                    f"which is {length:g} long",
                ))
            elif spec.at - half < -1e-9 or spec.at + half > length + 1e-9:
                found.append((
                    ("openings", i, "at"),
                    f"a {spec.kind} {spec.width:g} wide centred at {spec.at:g} does not fit "
                    f"on wall {spec.wall}, which is {length:g} long: its centre must be "
                    f"between {half:g} and {length - half:g}",
                ))
        return found

    def to_section(self) -> Section:
        return Section(
            id=self.id,
            footprint=tuple(self.footprint),
            floors=self.floors,
            flat_roof=self.flat_roof,
            construction=self.construction,
            openings=tuple(
                Opening(o.kind, o.wall, o.floor, o.at, o.width) for o in self.openings
            ),
        )


class BuildingSpec(Strict):
    id: str
    name: str
    sections: Annotated[list[SectionSpec], Field(min_length=1)]
    connections: list[tuple[str, str]] = []

    @model_validator(mode="after")
    def connections_known(self) -> BuildingSpec:
        ids = [s.id for s in self.sections]
        found: list[tuple[Loc, str]] = []
        for i, pair in enumerate(self.connections):
            for j, name in enumerate(pair):
                if name not in ids:
                    found.append((
                        ("connections", i, j),
                        f"section {name!r} is not in this building (its sections: "
                        f"{', '.join(ids)})",
                    ))
            if pair[0] == pair[1]:
                found.append((("connections", i), f"connects section {pair[0]!r} to itself"))
            elif pair[0] in ids and pair[1] in ids:
                problem = self._passage_problem(pair)
                if problem:
                    found.append((("connections", i), problem))
        if found:
            raise problems_error(found)
        return self


    def _passage_problem(self, pair: tuple[str, str]) -> str | None:
        """Connected sections must share a wall with a door in it: the way through."""
        by_id = {s.id: s.to_section() for s in self.sections}
        a, b = by_id[pair[0]], by_id[pair[1]]
        try:
            shared = Polygon(a.footprint).boundary.intersection(Polygon(b.footprint).boundary)
        except ShapelyError:
            return None  # a malformed footprint is reported on its own
        if shared.length <= 0:
            return f"sections {pair[0]!r} and {pair[1]!r} share no wall"
        for section in (a, b):
            for opening in section.openings:
                if opening.kind is OpeningKind.DOOR and opening.floor == 0 and \
                        LineString(section.opening_segment(opening)).distance(shared) < 1e-6:
                    return None
        return (f"sections {pair[0]!r} and {pair[1]!r} have no ground-floor door in the "
                "wall they share (add one to either section)")


class MapSpec(Strict):
    width: FiniteFloat = Field(gt=0)
    height: FiniteFloat = Field(gt=0)
    unit: LengthUnit = LengthUnit.INCH
    terrain: list[TerrainSpec] = []
    obstacles: list[ObstacleSpec] = []
    buildings: list[BuildingSpec] = []

    @model_validator(mode="after")
    def map_sound(self) -> MapSpec:
        found = map_problems(self.model_dump())
        if found:
            raise problems_error(found)
        return self

    def to_battlefield(self) -> Battlefield:
        scale = 1.0 if self.unit is LengthUnit.INCH else 2.54
        return Battlefield(
            table=Table(self.width, self.height, self.unit),
            terrain=tuple(TerrainArea(t.id, t.kind, tuple(t.polygon)) for t in self.terrain),
            obstacles=tuple(
                Obstacle(
                    o.id,
                    o.kind,
                    tuple(o.points),
                    o.height if o.height is not None else DEFAULT_HEIGHT_INCH[o.kind] * scale,
                )
                for o in self.obstacles
            ),
            buildings=tuple(
                Building(
                    b.id,
                    b.name,
                    tuple(s.to_section() for s in b.sections),
                    tuple(b.connections),
                )
                for b in self.buildings
            ),
        )


class SideSpec(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    deployment: PolygonPoints | None = None
    forces: dict[str, Any]
    #: who plays this side when `fibua play` starts without --side: "human" or "computer"
    player: Literal["human", "computer"] = "computer"


class VictorySpec(Strict):
    """A condition scored at the end. `hold`: the side has troops in the zone or sections and
    the enemy has none; `reach`: the side has troops in the zone; `eliminate`: the enemy
    has no troops left able to fight; `survive`: the side still has troops able to fight."""

    side: str
    kind: Literal["hold", "reach", "eliminate", "survive"]
    points: int = Field(default=1, ge=0)
    zone: PolygonPoints | None = None
    sections: list[str] = []
    description: str = ""


class Scenario(Strict):
    """A whole scenario file; `forces` and `options` checked by the rule set named in it."""

    scenario: Meta
    map: MapSpec
    sides: Annotated[list[SideSpec], Field(min_length=2)]
    victory: list[VictorySpec] = []
    options: dict[str, Any] = {}
    _forces: dict[str, Any] = PrivateAttr(default_factory=dict)
    _options: Any = PrivateAttr(default=None)
    #: the file's raw table, embedded in logs so a replay needs no file
    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)
    #: objects derived from the scenario once and shared by its games (a sight engine)
    _memo: dict[str, Any] = PrivateAttr(default_factory=dict)
    #: what did not read, on a sketch the loader makes of a broken file to check the rest
    _gaps: MapGaps | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def references_known(self) -> Scenario:
        found = reference_problems(self.model_dump())
        if found:
            raise problems_error(found)
        return self

    @property
    def ruleset(self) -> str:
        return self.scenario.ruleset

    @property
    def name(self) -> str:
        return self.scenario.name

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sides)

    def side(self, name: str) -> SideSpec:
        for spec in self.sides:
            if spec.name == name:
                return spec
        raise KeyError(name)

    @cached_property
    def battlefield(self) -> Battlefield:
        return self.map.to_battlefield()

    def forces_of(self, side: str) -> Any:
        """A side's forces as the rule set's model (checked by the loader)."""
        return self._forces[side]

    def known_forces(self, side: str) -> Any | None:
        """A side's forces, or None when they did not read (on a sketch of a broken file:
        the rule set's checks then skip that side)."""
        return self._forces.get(side)

    @property
    def table_known(self) -> bool:
        """Whether the table's size read; on a sketch it may not have."""
        return self._gaps is None or self._gaps.table_known

    def unread_at(self, point: tuple[float, float]) -> bool:
        """Whether part of the map that did not read (a building) may cover this point, so
        that what stands there cannot be checked yet. Always False on a loaded scenario."""
        if self._gaps is None:
            return False
        x, y = point
        return not self._gaps.table_known or any(
            x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in self._gaps.boxes)

    @property
    def memo(self) -> dict[str, Any]:
        return self._memo

    @property
    def raw(self) -> dict[str, Any]:
        return self._raw

    @property
    def rule_options(self) -> Any:
        """The options as the rule set's options model (checked by the loader)."""
        return self._options


@dataclass(frozen=True)
class MapGaps:
    """The parts of a map that did not read: whether the table did, and boxes around the
    buildings that did not (unbounded when a building gives no readable point)."""

    table_known: bool
    boxes: tuple[tuple[float, float, float, float], ...] = ()


# -- checks across parts of a file -----------------------------------------------------------
# They read plain tables and skip whatever they cannot read, so the loader can also run them
# on a file that failed the schema and report these problems beside the others.


def _tables(container: Any, key: str) -> list[tuple[int, dict[str, Any]]]:
    """(index, table) for each table in the list container[key]; [] for any other shape."""
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]


def duplicate_ids(raw_map: Any) -> list[tuple[Loc, str]]:
    """Ids used twice on a map (terrain, obstacles, buildings and sections share one space);
    each repeat is reported where it occurs, naming the first use."""
    places: list[tuple[Loc, Any]] = []
    for key in ("terrain", "obstacles", "buildings"):
        places += [((key, i, "id"), item.get("id")) for i, item in _tables(raw_map, key)]
    for i, building in _tables(raw_map, "buildings"):
        places += [
            (("buildings", i, "sections", j, "id"), section.get("id"))
            for j, section in _tables(building, "sections")
        ]
    first: dict[str, Loc] = {}
    found: list[tuple[Loc, str]] = []
    for loc, name in places:
        if not isinstance(name, str):
            continue
        if name in first:
            where = field_path(first[name][:-1])
            found.append((loc, f"id {name!r} is already used on the map, by map.{where}"))
        else:
            first[name] = loc
    return found


def _section_ids(raw_map: Any) -> set[str] | None:
    """The section ids on a map, or None when the buildings cannot all be read."""
    buildings = raw_map.get("buildings", []) if isinstance(raw_map, dict) else None
    if not isinstance(buildings, list):
        return None
    ids: set[str] = set()
    for building in buildings:
        sections = building.get("sections") if isinstance(building, dict) else None
        if not isinstance(sections, list):
            return None
        for section in sections:
            if not isinstance(section, dict) or not isinstance(section.get("id"), str):
                return None
            ids.add(section["id"])
    return ids


def _side_names(raw: dict[str, Any]) -> list[str] | None:
    """The side names in order, or None when a side cannot be read."""
    sides = raw.get("sides")
    if not isinstance(sides, list):
        return None
    names: list[str] = []
    for side in sides:
        name = side.get("name") if isinstance(side, dict) else None
        if not isinstance(name, str):
            return None
        names.append(name)
    return names


def _connection_problems(raw_map: Any) -> list[tuple[Loc, str]]:
    """Connections naming a section that is not in their building."""
    found: list[tuple[Loc, str]] = []
    for i, building in _tables(raw_map, "buildings"):
        sections = building.get("sections")
        connections = building.get("connections", [])
        if not isinstance(sections, list) or not isinstance(connections, list):
            continue
        ids = [s.get("id") if isinstance(s, dict) else None for s in sections]
        if not all(isinstance(name, str) for name in ids):
            continue  # a section without a readable id: the schema reports that
        for k, pair in enumerate(connections):
            for j, name in enumerate(pair if isinstance(pair, list | tuple) else []):
                if isinstance(name, str) and name not in ids:
                    found.append((
                        ("map", "buildings", i, "connections", k, j),
                        f"section {name!r} is not in this building (its sections: "
                        f"{', '.join(str(n) for n in ids)})",
                    ))
    return found


def reference_problems(raw: Any) -> list[tuple[Loc, str]]:
    """What refers across parts of a scenario table: ids on the map, side names, the sides
    and sections that victory conditions name, and what must lie on the table."""
    if not isinstance(raw, dict):
        return []
    found = [(("map", *loc), message) for loc, message in map_problems(raw.get("map"))]
    found += _connection_problems(raw.get("map"))
    found += zone_problems(raw)
    names = _side_names(raw)
    if names is not None:
        for i, name in enumerate(names):
            if name in names[:i]:
                found.append((("sides", i, "name"), f"side name {name!r} is used twice"))
    sections = _section_ids(raw.get("map"))
    for i, condition in _tables(raw, "victory"):
        side = condition.get("side")
        if names is not None and isinstance(side, str) and side not in names:
            found.append((
                ("victory", i, "side"),
                f"no side is called {side!r}; the sides are {', '.join(names)}",
            ))
        listed = condition.get("sections", [])
        if sections is not None and isinstance(listed, list):
            for j, name in enumerate(listed):
                if isinstance(name, str) and name not in sections:
                    known = ", ".join(sorted(sections)) or "none"
                    found.append((
                        ("victory", i, "sections", j),
                        f"no section {name!r} on the map (sections: {known})",
                    ))
        kind = condition.get("kind")
        if kind in ("hold", "reach") and condition.get("zone") is None and not listed:
            found.append((("victory", i), f"a {kind} condition needs a zone or sections"))
    return found


# -- where things lie on the table -----------------------------------------------------------


def _number(value: Any) -> float | None:
    """A finite number as written in a file (a bool is not one), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        return None
    return number if isfinite(number) else None


def _point(value: Any) -> tuple[float, float] | None:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    x, y = _number(value[0]), _number(value[1])
    return None if x is None or y is None else (x, y)


def read_points(value: Any) -> list[tuple[float, float]] | None:
    """A list of points, or None when any of them does not read (the schema reports it)."""
    if not isinstance(value, list | tuple):
        return None
    points = [_point(item) for item in value]
    return None if any(p is None for p in points) else [p for p in points if p is not None]


@dataclass(frozen=True)
class TableSize:
    width: float
    height: float
    unit: LengthUnit

    def off(self, point: tuple[float, float]) -> str | None:
        """Why a point is not on the table (edges count as on it), or None."""
        x, y = point
        if 0 <= x <= self.width and 0 <= y <= self.height:
            return None
        return f"({x:g}, {y:g}) is off the {self.width:g} x {self.height:g} table"


def table_size(raw_map: Any) -> TableSize | None:
    """The table a map table gives, or None when its size does not read or is refused."""
    if not isinstance(raw_map, dict):
        return None
    width, height = _number(raw_map.get("width")), _number(raw_map.get("height"))
    try:
        unit = LengthUnit(raw_map.get("unit", LengthUnit.INCH))
    except ValueError:
        return None
    if width is None or height is None:
        return None
    if not (0 < width <= MAX_TABLE[unit] and 0 < height <= MAX_TABLE[unit]):
        return None
    return TableSize(width, height, unit)


def _table_problems(raw_map: dict[str, Any]) -> list[tuple[Loc, str]]:
    try:
        unit = LengthUnit(raw_map.get("unit", LengthUnit.INCH))
    except ValueError:
        return []
    most = MAX_TABLE[unit]
    found: list[tuple[Loc, str]] = []
    for key in ("width", "height"):
        size = _number(raw_map.get(key))
        if size is not None and size > most:
            found.append(((key,), f"a table side of {size:g} {unit} is longer than the "
                                  f"format allows ({most:g} {unit})"))
    return found


def _line_problems(points: list[tuple[float, float]], table: TableSize,
                   closed: bool) -> list[tuple[Loc, str]]:
    """Points off the table, and a point that repeats the one before it (a wall or side of
    no length)."""
    found: list[tuple[Loc, str]] = []
    for k, point in enumerate(points):
        off = table.off(point)
        if off is not None:
            found.append(((k,), off))
        elif k and point == points[k - 1]:
            found.append(((k,), f"point {k} repeats the point before it"))
    if closed and len(points) > 1 and points[-1] == points[0] and not found:
        found.append(((len(points) - 1,), "the last point repeats the first: a polygon closes "
                                          "by itself, so leave it out"))
    return found


def ring_problems(value: Any, table: TableSize, anticlockwise: bool = False
                  ) -> list[tuple[Loc, str]]:
    """What is wrong with a polygon on a table: points off it or repeated, an outline that
    crosses itself or encloses nothing, a footprint that runs clockwise. Locations are
    relative to the list of points; a list that does not read is left to the schema."""
    points = read_points(value)
    if points is None:
        return []
    found = _line_problems(points, table, closed=True)
    if found or len(points) < 3:
        return found
    polygon = Polygon(points)
    if polygon.convex_hull.area <= 0:
        return [((), "the points enclose no area (they lie on one line)")]
    if not polygon.is_valid or polygon.area <= 0:
        return [((), "the outline crosses itself")]
    if anticlockwise and not polygon.exterior.is_ccw:
        return [((), "the points run clockwise: list a footprint anticlockwise, so the "
                     "outside of each wall is on its right")]
    return []


def map_problems(raw_map: Any) -> list[tuple[Loc, str]]:
    """What is wrong with a map table beyond each value's type: ids used twice, a table too
    large, anything off the table, malformed polygons, obstacles too high. It reads plain
    tables and skips what it cannot read, like the checks across parts below."""
    if not isinstance(raw_map, dict):
        return []
    found = duplicate_ids(raw_map) + _table_problems(raw_map)
    table = table_size(raw_map)
    if table is None:
        return found
    for i, area in _tables(raw_map, "terrain"):
        found += [(("terrain", i, "polygon", *loc), message)
                  for loc, message in ring_problems(area.get("polygon"), table)]
    for i, obstacle in _tables(raw_map, "obstacles"):
        found += _obstacle_problems(obstacle, table, ("obstacles", i))
    for i, building in _tables(raw_map, "buildings"):
        for j, section in _tables(building, "sections"):
            found += [(("buildings", i, "sections", j, "footprint", *loc), message)
                      for loc, message in ring_problems(section.get("footprint"), table,
                                                        anticlockwise=True)]
    return found


def _obstacle_problems(obstacle: dict[str, Any], table: TableSize,
                       where: Loc) -> list[tuple[Loc, str]]:
    points = read_points(obstacle.get("points"))
    found = [((*where, "points", *loc), message) for loc, message in
             _line_problems(points or [], table, closed=False)]
    height = _number(obstacle.get("height"))
    most = MAX_OBSTACLE_HEIGHT[table.unit]
    if height is not None and height > most:
        found.append(((*where, "height"), f"an obstacle {height:g} {table.unit} high is "
                                          f"higher than the format allows ({most:g})"))
    return found


def zone_problems(raw: dict[str, Any]) -> list[tuple[Loc, str]]:
    """Deployment zones and objective zones on the table, each a simple polygon."""
    table = table_size(raw.get("map"))
    if table is None:
        return []
    found: list[tuple[Loc, str]] = []
    for i, side in _tables(raw, "sides"):
        found += [(("sides", i, "deployment", *loc), message)
                  for loc, message in ring_problems(side.get("deployment"), table)]
    for i, condition in _tables(raw, "victory"):
        found += [(("victory", i, "zone", *loc), message)
                  for loc, message in ring_problems(condition.get("zone"), table)]
    return found
