"""The town of a quick battle: randommap's lots, gardens and footprints, arranged for a
fight between two deployment zones.

The table is a square of `lots` x `lots` lots. The rows of lots along the south and north
edges carry gardens only: they are the deployment zones, so nobody starts inside a
building. Every row between them has buildings on about `density` of its lots (at least
one), so the middle of the town always has a building to fight over. A road runs along
each edge of the town and one or two cross it from south to north.

Unlike the sight tests' towns, no building is turned, and every coordinate, width and
distance along a wall is a whole number of tenths of the table's unit, so that the file
reads easily and rounding never moves an opening off its wall. Every section has a
ground-floor door to the outside (the computers walk into a room from the street), and
sections that share a wall are connected by a ground-floor door in it (the scenario
format asks for one); upper floors get a door in the shared wall now and then.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from math import ceil, floor

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Construction,
    LengthUnit,
    Obstacle,
    Opening,
    OpeningKind,
    Point,
    Section,
    Table,
    TerrainArea,
    TerrainKind,
)
from fibua.battlefield.randommap import (
    Rect,
    TownBuilder,
    l_shape,
    quad,
    rect,
    shared_walls,
    split_footprints,
    wall_length,
)

#: coordinates are whole tenths of the table's unit
TENTHS = 10
#: places tried for an opening before giving it up
TRIES = 6
#: inches: the narrowest room (a door and its frame fit in its shortest wall)
NARROWEST = 1.5

#: names of buildings (a slug of each is its id); a town uses each once
NAMES = (
    "Bakery", "Town Hall", "School", "Church", "Farmhouse", "Garage", "Inn", "Post Office",
    "Warehouse", "Chemist", "Butcher", "Smithy", "Mill", "Chapel", "Station", "Hotel",
    "Dairy", "Workshop", "Cafe", "Barn", "Brewery", "Tannery", "Granary", "Notary",
    "Schoolhouse", "Presbytery", "Cooperage", "Forge", "Laundry", "Grocer", "Saddler",
    "Printer", "Cinema", "Bank", "Pharmacy", "Tavern",
)


def snap(value: float) -> float:
    """The nearest whole tenth (an exact short decimal when written)."""
    return round(value * TENTHS) / TENTHS


def snap_down(value: float) -> float:
    return floor(value * TENTHS + 1e-9) / TENTHS


def snap_up(value: float) -> float:
    return ceil(value * TENTHS - 1e-9) / TENTHS


def snap_line(value: float) -> float:
    """The nearest whole tenth, moved a tenth on where it would end in .5: the computers'
    walking grids have a cell's middle on every half unit, and a wall or hedge through a
    cell's middle would cut the cell off on both sides."""
    tenths = round(value * TENTHS)
    return (tenths + 1 if tenths % TENTHS == TENTHS // 2 else tenths) / TENTHS


def snapped(points: tuple[Point, ...]) -> tuple[Point, ...]:
    return tuple((snap(x), snap(y)) for x, y in points)


def lined(points: tuple[Point, ...]) -> tuple[Point, ...]:
    """Points of walls, hedges and footprints: whole tenths, never on a half unit."""
    return tuple((snap_line(x), snap_line(y)) for x, y in points)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class TownPlan:
    """The shape of a rule set's quick-battle table."""

    size: float  # the table's side, in its unit
    unit: LengthUnit
    lots: int  # lots along a side
    density: float = 0.6  # share of each town row's lots that have a building
    max_floors: int = 3
    #: drawn from for each building (a kind listed twice is twice as likely)
    constructions: tuple[Construction, ...] = (
        Construction.WOODEN, Construction.BRICK, Construction.BRICK, Construction.STRONG)
    #: doors and windows are sized in inches; this turns them into the table's unit
    opening_scale: float = 1.0

    @property
    def lot(self) -> float:
        return self.size / self.lots


@dataclass(frozen=True)
class Town:
    """A made town: the map, each side's deployment zone and where the buildings stand."""

    battlefield: Battlefield
    plan: TownPlan
    #: the south and the north deployment zones (the first and last rows of lots)
    zones: tuple[tuple[Point, ...], tuple[Point, ...]]
    #: each building's lot (column, row); rows count from the south edge
    lot_of: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: lots of the town rows that have no building (a zone objective may be one)
    gardens: tuple[tuple[int, int], ...] = ()

    def lot_rect(self, lot: tuple[int, int]) -> Rect:
        size = self.plan.lot
        i, j = lot
        return (snap(i * size), snap(j * size), snap((i + 1) * size), snap((j + 1) * size))


class QuickTown(TownBuilder):
    def __init__(self, seed: int, plan: TownPlan) -> None:
        super().__init__(seed, plan.lots * plan.lots, plan.size)
        self.plan = plan
        self.k = plan.lots
        self.lot = plan.lot
        self.names = list(NAMES)
        self.rng.shuffle(self.names)
        self.lot_of: dict[str, tuple[int, int]] = {}
        self.gardens: list[tuple[int, int]] = []
        self._lot: tuple[int, int] = (0, 0)

    def lot_rect(self, i: int, j: int) -> Rect:
        return (snap(i * self.lot), snap(j * self.lot), snap((i + 1) * self.lot),
                snap((j + 1) * self.lot))

    def town(self) -> Town:
        k, rng = self.k, self.rng
        built: set[tuple[int, int]] = set()
        for j in range(1, k - 1):
            row = [(i, j) for i in range(k)]
            rng.shuffle(row)
            built.update(row[:max(1, round(self.plan.density * k))])
        for j in range(k):
            for i in range(k):
                self._lot = (i, j)
                if (i, j) in built:
                    self.building_lot(j * k + i, self.lot_rect(i, j))
                    continue
                self.garden_lot(j * k + i, self.lot_rect(i, j))
                if 0 < j < k - 1:
                    self.gardens.append((i, j))
        self.roads()
        size = snap(self.size)
        south = ((0.0, 0.0), (size, 0.0), (size, snap(self.lot)), (0.0, snap(self.lot)))
        top = snap(size - self.lot)
        north = ((0.0, top), (size, top), (size, size), (0.0, size))
        field = Battlefield(
            table=Table(size, size, self.plan.unit),
            terrain=tuple(TerrainArea(t.id, t.kind, snapped(t.polygon)) for t in self.terrain),
            obstacles=tuple(Obstacle(o.id, o.kind, lined(o.points), o.height)
                            for o in self.obstacles),
            buildings=tuple(self.buildings),
        )
        return Town(field, self.plan, (south, north), dict(self.lot_of), tuple(self.gardens))

    def roads(self) -> None:
        """A road along the south and the north edge of the town, and one or two across
        it, each on a line between lots (inside every lot's margin: they miss buildings)."""
        half = self.lot * 0.08
        size = self.size
        for n in (1, self.k - 1):
            c = n * self.lot
            self.terrain.append(TerrainArea(f"road-{n}", TerrainKind.ROAD,
                                            rect(0, c - half, size, c + half)))
        across = self.rng.sample(range(1, self.k), min(self.k - 1, self.rng.randint(1, 2)))
        for n in sorted(across):
            c = n * self.lot
            self.terrain.append(TerrainArea(f"street-{n}", TerrainKind.ROAD,
                                            rect(c - half, 0, c + half, size)))

    def building_lot(self, n: int, r: Rect) -> None:
        """A plot with a building no nearer its lot's edge than 12% of the lot."""
        rng = self.rng
        self.terrain.append(TerrainArea(f"plot-{n}", TerrainKind.PLOT, rect(*r)))
        reach = self.lot * (0.5 - 0.12)
        cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
        w, h = reach * rng.uniform(0.6, 1.0), reach * rng.uniform(0.6, 1.0)
        box = (snap(cx - w), snap(cy - h), snap(cx + w), snap(cy + h))
        name = self.names.pop() if self.names else f"House {n}"
        building = self.building(slug(name), name, box)
        self.lot_of[building.id] = self._lot
        self.buildings.append(building)

    def building(self, ident: str, name: str, box: Rect) -> Building:
        rng = self.rng
        roll = rng.random()
        if roll < 0.5:
            shapes = [rect(*box)]
        elif roll < 0.65:
            shapes = [l_shape(rng, *box)]
        elif roll < 0.75:
            shapes = [quad(rng, *box)]
        else:
            shapes = split_footprints(rng, box)
        shapes = [lined(s) for s in shapes]
        if min(_narrowest(s) for s in shapes) < NARROWEST * self.plan.opening_scale:
            shapes = [lined(rect(*box))]  # a room too narrow for a door: one room instead
        floors = rng.randint(1, self.plan.max_floors)
        flat_roof = rng.random() < 0.25
        construction = rng.choice(self.plan.constructions)
        ids = [f"{ident}-{chr(ord('a') + k)}" for k in range(len(shapes))]
        openings = [self.outside_openings(shape, shapes, floors) for shape in shapes]
        pairs = [(a, b) for a, b in combinations(range(len(shapes)), 2)
                 if shared_walls(shapes[a], shapes[b])]
        for a, b in pairs:
            openings[a] += self.inside_doors(shapes[a], shapes[b], floors, openings[a])
        sections = tuple(Section(sid, shape, floors, flat_roof, construction, tuple(found))
                         for sid, shape, found in zip(ids, shapes, openings, strict=True))
        return Building(ident, name, sections, tuple((ids[a], ids[b]) for a, b in pairs))

    def opening(self, footprint: tuple[Point, ...], wall: int, kind: OpeningKind,
                floor: int, placed: list[Opening]) -> Opening | None:
        """A door or window somewhere along a wall clear of the openings `placed` there, or
        None where it does not fit."""
        rng = self.rng
        size = rng.uniform(0.8, 1.2) if kind is OpeningKind.DOOR else rng.uniform(0.6, 1.2)
        width = snap_down(size * self.plan.opening_scale)
        return self.opening_between(footprint, wall, kind, floor, width,
                                    (0.0, wall_length(footprint, wall)), placed)

    def opening_between(self, footprint: tuple[Point, ...], wall: int, kind: OpeningKind,
                        floor: int, width: float, span: tuple[float, float],
                        placed: list[Opening]) -> Opening | None:
        """An opening wholly within `span` along the wall (distances from its start),
        clear of the openings `placed` on that wall and floor, or None; a few places are
        tried."""
        start, end = span
        low, high = snap_up(start + width / 2 + 0.1), snap_down(end - width / 2 - 0.1)
        if width <= 0 or high < low:
            return None
        taken = [(o.at - o.width / 2, o.at + o.width / 2) for o in placed
                 if o.wall == wall and o.floor == floor]
        for _ in range(TRIES):
            at = snap(self.rng.uniform(low, high))
            if all(at + width / 2 + 0.1 <= a or at - width / 2 - 0.1 >= b for a, b in taken):
                return Opening(kind, wall, floor, at, width)
        return None

    def outside_openings(self, shape: tuple[Point, ...], shapes: list[tuple[Point, ...]],
                         floors: int) -> list[Opening]:
        """A ground-floor door on about half the outside walls, and on the longest one that
        takes it when that left none (every room can be walked into from the street: the
        computers count on it), then up to two windows a floor on each."""
        rng = self.rng
        inner = set().union(*(shared_walls(shape, other) for other in shapes
                              if other is not shape))
        outside = [wall for wall in range(len(shape)) if wall not in inner]
        found: list[Opening] = []
        for wall in outside:
            if rng.random() < 0.5:
                self.add(found, self.opening(shape, wall, OpeningKind.DOOR, 0, found))
        for wall in sorted(outside, key=lambda w: -wall_length(shape, w)):
            if any(o.kind is OpeningKind.DOOR for o in found):
                break
            self.add(found, self.opening_between(
                shape, wall, OpeningKind.DOOR, 0, snap_down(self.plan.opening_scale),
                (0.0, wall_length(shape, wall)), found))
        for wall in outside:
            for level in range(floors):
                for _ in range(rng.randint(0, 2)):
                    self.add(found, self.opening(shape, wall, OpeningKind.WINDOW, level, found))
        return found

    @staticmethod
    def add(found: list[Opening], made: Opening | None) -> None:
        if made is not None:
            found.append(made)

    def inside_doors(self, a: tuple[Point, ...], b: tuple[Point, ...], floors: int,
                     placed: list[Opening]) -> list[Opening]:
        """Doors in a's wall where it meets b (clear of a's openings `placed`): always on
        the ground floor, on each upper floor half the time."""
        for wall in sorted(shared_walls(a, b)):
            span = _overlap(a, wall, b)
            if span is None:
                continue
            width = snap_down(min(self.plan.opening_scale, 0.8 * (span[1] - span[0])))
            doors = []
            for level in range(floors):
                if level and self.rng.random() < 0.5:
                    continue
                door = self.opening_between(a, wall, OpeningKind.DOOR, level, width, span,
                                            placed)
                if door is not None:
                    doors.append(door)
            if doors and doors[0].floor == 0:
                return doors
        raise ValueError("sections share a wall too short for a door")


def _narrowest(shape: tuple[Point, ...]) -> float:
    """The shorter side of the box around a footprint."""
    xs, ys = [x for x, _ in shape], [y for _, y in shape]
    return min(max(xs) - min(xs), max(ys) - min(ys))


def _overlap(a: tuple[Point, ...], wall: int, b: tuple[Point, ...]) -> tuple[float, float] | None:
    """Where along wall `wall` of axis-aligned `a` it lies on a wall of `b` (distances from
    the wall's start), or None."""
    (px, py), (qx, qy) = a[wall], a[(wall + 1) % len(a)]
    vertical = px == qx
    lo_a, hi_a = sorted((py, qy) if vertical else (px, qx))
    best: tuple[float, float] | None = None
    for other in range(len(b)):
        (rx, ry), (sx, sy) = b[other], b[(other + 1) % len(b)]
        if vertical and not (rx == sx == px):
            continue
        if not vertical and not (ry == sy == py):
            continue
        lo_b, hi_b = sorted((ry, sy) if vertical else (rx, sx))
        lo, hi = max(lo_a, lo_b), min(hi_a, hi_b)
        if hi > lo and (best is None or hi - lo > best[1] - best[0]):
            best = (lo, hi)
    if best is None:
        return None
    start = py if vertical else px
    forward = (qy if vertical else qx) > start
    if forward:
        return (best[0] - start, best[1] - start)
    return (start - best[1], start - best[0])


def make_town(seed: int, plan: TownPlan) -> Town:
    """The town for this seed: the same seed, the same town."""
    return QuickTown(seed, plan).town()
