"""Random town maps and figure positions, for tests and benchmarks.

The table is cut into a square grid of lots. Each building stands in its own lot, inside
the circle inscribed in the lot less a margin, so buildings never overlap whatever their
shape or rotation. Lots without a building become gardens; roads run along every third lot
line; walls, hedges and fences run along lot edges.
"""

from __future__ import annotations

import random
from math import ceil, cos, hypot, pi, sin, sqrt

from shapely import STRtree
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Construction,
    Obstacle,
    ObstacleKind,
    Opening,
    OpeningKind,
    Point,
    Position,
    Section,
    Table,
    TerrainArea,
    TerrainKind,
)

_HEIGHTS = {
    ObstacleKind.LOW_WALL: 0.4,
    ObstacleKind.HIGH_WALL: 2.0,
    ObstacleKind.HEDGE: 1.5,
    ObstacleKind.FENCE: 1.0,
}

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def l_shape(rng: random.Random, x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    xm = x0 + (x1 - x0) * rng.uniform(0.35, 0.65)
    ym = y0 + (y1 - y0) * rng.uniform(0.35, 0.65)
    return ((x0, y0), (x1, y0), (x1, ym), (xm, ym), (xm, y1), (x0, y1))


def quad(rng: random.Random, x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    jx, jy = (x1 - x0) * 0.15, (y1 - y0) * 0.15
    return (
        (x0 + rng.uniform(0, jx), y0 + rng.uniform(0, jy)),
        (x1 - rng.uniform(0, jx), y0 + rng.uniform(0, jy)),
        (x1 - rng.uniform(0, jx), y1 - rng.uniform(0, jy)),
        (x0 + rng.uniform(0, jx), y1 - rng.uniform(0, jy)),
    )


def split_footprints(rng: random.Random, r: Rect) -> list[tuple[Point, ...]]:
    """Two or three adjoining sections sharing walls (the third sometimes only part of one)."""
    x0, y0, x1, y1 = r
    xm = x0 + (x1 - x0) * rng.uniform(0.35, 0.65)
    if rng.random() < 0.5:
        return [rect(x0, y0, xm, y1), rect(xm, y0, x1, y1)]
    if rng.random() < 0.5:
        xn = xm + (x1 - xm) * rng.uniform(0.4, 0.6)
        return [rect(x0, y0, xm, y1), rect(xm, y0, xn, y1), rect(xn, y0, x1, y1)]
    ym = y0 + (y1 - y0) * rng.uniform(0.35, 0.65)
    return [rect(x0, y0, xm, y1), rect(xm, y0, x1, ym), rect(xm, ym, x1, y1)]


def _rotate(points: tuple[Point, ...], cx: float, cy: float, angle: float) -> tuple[Point, ...]:
    c, s = cos(angle), sin(angle)
    return tuple(
        (cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in points
    )


def wall_length(footprint: tuple[Point, ...], wall: int) -> float:
    (x0, y0), (x1, y1) = footprint[wall], footprint[(wall + 1) % len(footprint)]
    return hypot(x1 - x0, y1 - y0)


def _opening(
    rng: random.Random, footprint: tuple[Point, ...], wall: int, kind: OpeningKind, floor: int
) -> Opening | None:
    length = wall_length(footprint, wall)
    width = rng.uniform(0.8, 1.2) if kind is OpeningKind.DOOR else rng.uniform(0.4, 1.0)
    if kind is OpeningKind.SLIT:
        width = rng.uniform(0.2, 0.4)
    if length <= width * 1.2:
        return None
    return Opening(kind, wall, floor, rng.uniform(width / 2, length - width / 2), width)


def _openings(
    rng: random.Random,
    footprint: tuple[Point, ...],
    floors: int,
    construction: Construction,
    inner_walls: set[int],
) -> tuple[Opening, ...]:
    side = OpeningKind.SLIT if construction is Construction.BUNKER else OpeningKind.WINDOW
    found: list[Opening | None] = []
    for wall in range(len(footprint)):
        if wall in inner_walls:
            continue
        if rng.random() < 0.5:
            found.append(_opening(rng, footprint, wall, OpeningKind.DOOR, 0))
        for floor in range(floors):
            for _ in range(rng.randint(0, 2)):
                found.append(_opening(rng, footprint, wall, side, floor))
    return tuple(o for o in found if o is not None)


def _overlaps(a0: float, a1: float, b0: float, b1: float) -> bool:
    return min(max(a0, a1), max(b0, b1)) > max(min(a0, a1), min(b0, b1))


def shared_walls(a: tuple[Point, ...], b: tuple[Point, ...]) -> set[int]:
    """Walls of axis-aligned rectangle `a` lying partly along a wall of rectangle `b`."""
    shared: set[int] = set()
    for wall in range(len(a)):
        (px, py), (qx, qy) = a[wall], a[(wall + 1) % len(a)]
        for other in range(len(b)):
            (rx, ry), (sx, sy) = b[other], b[(other + 1) % len(b)]
            vertical = px == qx == rx == sx and _overlaps(py, qy, ry, sy)
            horizontal = py == qy == ry == sy and _overlaps(px, qx, rx, sx)
            if vertical or horizontal:
                shared.add(wall)
    return shared


class TownBuilder:
    """A town of square lots: `build` gives each lot a building or a garden, then roads."""

    def __init__(self, seed: int, n_buildings: int, size: float) -> None:
        self.rng = random.Random(seed)
        self.size = size
        self.k = max(1, ceil(sqrt(n_buildings * 1.25)))
        self.lot = size / self.k
        self.n_buildings = min(n_buildings, self.k * self.k)
        self.terrain: list[TerrainArea] = []
        self.obstacles: list[Obstacle] = []
        self.buildings: list[Building] = []

    def lot_rect(self, i: int, j: int) -> Rect:
        return (i * self.lot, j * self.lot, (i + 1) * self.lot, (j + 1) * self.lot)

    def build(self) -> Battlefield:
        lots = [(i, j) for i in range(self.k) for j in range(self.k)]
        self.rng.shuffle(lots)
        for n, (i, j) in enumerate(lots):
            if n < self.n_buildings:
                self.building_lot(n, self.lot_rect(i, j))
            else:
                self.garden_lot(n, self.lot_rect(i, j))
        self.roads()  # last, so they lie on top of the plots they run along
        return Battlefield(
            table=Table(self.size, self.size),
            terrain=tuple(self.terrain),
            obstacles=tuple(self.obstacles),
            buildings=tuple(self.buildings),
        )

    def roads(self) -> None:
        half = self.lot * 0.08  # inside every lot's margin, so roads miss buildings
        for n in range(3, self.k, 3):
            c = n * self.lot
            self.terrain.append(
                TerrainArea(f"road-x{n}", TerrainKind.ROAD, rect(c - half, 0, c + half, self.size))
            )
            self.terrain.append(
                TerrainArea(f"road-y{n}", TerrainKind.ROAD, rect(0, c - half, self.size, c + half))
            )

    def edge_obstacle(self, n: int, r: Rect) -> None:
        rng = self.rng
        kind = rng.choice(list(ObstacleKind))
        # Between the roads (8% of a lot either side of a lot line) and the buildings (12%).
        inset = self.lot * rng.uniform(0.09, 0.11)
        x0, y0, x1, y1 = r[0] + inset, r[1] + inset, r[2] - inset, r[3] - inset
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        start = rng.randrange(4)
        count = rng.randint(2, 3)
        points = tuple(corners[(start + k) % 4] for k in range(count))
        self.obstacles.append(Obstacle(f"obstacle-{n}", kind, points, _HEIGHTS[kind]))

    def garden_lot(self, n: int, r: Rect) -> None:
        rng = self.rng
        x0, y0, x1, y1 = r
        roll = rng.random()
        if roll < 0.3:
            self.terrain.append(TerrainArea(f"rough-{n}", TerrainKind.ROUGH, quad(rng, *r)))
        elif roll < 0.4:
            self.terrain.append(TerrainArea(f"rubble-{n}", TerrainKind.RUBBLE, quad(rng, *r)))
        if rng.random() < 0.6:
            kind = rng.choice([ObstacleKind.HEDGE, ObstacleKind.HIGH_WALL, ObstacleKind.FENCE])
            margin = 0.1 * self.lot
            ya, yb = rng.uniform(y0 + margin, y1 - margin), rng.uniform(y0 + margin, y1 - margin)
            points = ((x0 + margin, ya), (x1 - margin, yb))
            self.obstacles.append(Obstacle(f"garden-{n}", kind, points, _HEIGHTS[kind]))
        if rng.random() < 0.5:
            self.edge_obstacle(n, r)

    def building_lot(self, n: int, r: Rect) -> None:
        rng = self.rng
        self.terrain.append(TerrainArea(f"plot-{n}", TerrainKind.PLOT, rect(*r)))
        if rng.random() < 0.4:
            self.edge_obstacle(n, r)
        # The building fits the circle inscribed in the lot less a margin: any rotation is safe.
        radius = self.lot * 0.5 - self.lot * 0.12
        cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
        angle = rng.uniform(-pi / 6, pi / 6) if rng.random() < 0.3 else 0.0
        ratio = rng.uniform(0.5, 1.0)
        diag = 2 * radius * rng.uniform(0.75, 1.0)
        w = diag / sqrt(1 + ratio * ratio)
        h = w * ratio
        if rng.random() < 0.5:
            w, h = h, w
        self.buildings.append(
            self._building(n, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), angle)
        )

    def _building(self, n: int, r: Rect, angle: float) -> Building:
        rng = self.rng
        roll = rng.random()
        if roll < 0.55:
            shapes = [rect(*r)]
        elif roll < 0.7:
            shapes = [l_shape(rng, *r)]
        elif roll < 0.8:
            shapes = [quad(rng, *r)]
        else:
            shapes = split_footprints(rng, r)
        cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
        floors = rng.randint(1, 4)
        flat_roof = rng.random() < 0.25
        construction = rng.choice(list(Construction))
        sections = [
            self._section(
                f"b{n}-s{k}", shape, shapes, floors, flat_roof, construction, cx, cy, angle
            )
            for k, shape in enumerate(shapes)
        ]
        connections = tuple((sections[0].id, s.id) for s in sections[1:])
        return Building(f"b{n}", f"Building {n}", tuple(sections), connections)

    def _section(
        self,
        sid: str,
        shape: tuple[Point, ...],
        shapes: list[tuple[Point, ...]],
        floors: int,
        flat_roof: bool,
        construction: Construction,
        cx: float,
        cy: float,
        angle: float,
    ) -> Section:
        rng = self.rng
        inner = set().union(
            *(shared_walls(shape, other) for other in shapes if other is not shape)
        )
        footprint = _rotate(shape, cx, cy, angle) if angle else shape
        openings = list(_openings(rng, footprint, floors, construction, inner))
        for wall in sorted(inner):
            # Inside doors on the shared wall, on some floors; they open the neighbour too.
            for floor in range(floors):
                if rng.random() < 0.6:
                    door = _opening(rng, footprint, wall, OpeningKind.DOOR, floor)
                    if door is not None:
                        openings.append(door)
        return Section(sid, footprint, floors, flat_roof, construction, tuple(openings))


def random_battlefield(seed: int, n_buildings: int = 300, size: float = 200.0) -> Battlefield:
    """A random town of `n_buildings` buildings on a square table of side `size`."""
    return TownBuilder(seed, n_buildings, size).build()


def _point_in_footprint(rng: random.Random, polygon: Polygon) -> Point:
    x0, y0, x1, y1 = polygon.bounds
    while True:
        p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
        if polygon.contains(ShapelyPoint(p)):
            return p


def _outside_point(rng: random.Random, battlefield: Battlefield, tree: STRtree) -> Point:
    size_x, size_y = battlefield.table.width, battlefield.table.height
    while True:
        p = (rng.uniform(0, size_x), rng.uniform(0, size_y))
        if not len(tree.query(ShapelyPoint(p), predicate="intersects")):
            return p


def random_positions(seed: int, battlefield: Battlefield, n: int) -> list[Position]:
    """`n` positions: about half in the open, most others inside sections on any floor
    (roofs included), and some standing right at a window or door of their section."""
    rng = random.Random(seed)
    ids = battlefield.section_ids
    polygons = [Polygon(battlefield.section(sid).footprint) for sid in ids]
    tree = STRtree(polygons)
    positions: list[Position] = []
    while len(positions) < n:
        roll = rng.random()
        if roll < 0.45 or not ids:
            x, y = _outside_point(rng, battlefield, tree)
            positions.append(Position(x, y))
            continue
        k = rng.randrange(len(ids))
        section = battlefield.section(ids[k])
        if roll < 0.9 or not section.openings:
            x, y = _point_in_footprint(rng, polygons[k])
            positions.append(Position(x, y, section.id, rng.randrange(section.levels)))
            continue
        opening = rng.choice(section.openings)
        (px, py), (qx, qy) = section.opening_segment(opening)
        positions.append(Position((px + qx) / 2, (py + qy) / 2, section.id, opening.floor))
    return positions
