"""Where a side's troops start: clusters of points in its deployment zone, clear of walls
and hedges, of buildings and of one another, spread along the zone from west to east."""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry import LineString, Polygon
from shapely.geometry import Point as ShapelyPoint

from fibua.battlefield.model import Battlefield, Point
from fibua.quick.town import snap


@dataclass
class Placer:
    """Free places in one deployment zone (an axis-aligned strip along a table edge)."""

    battlefield: Battlefield
    zone: tuple[Point, ...]
    #: how far a place keeps from a wall, a hedge, a fence or a building
    clearance: float
    taken: list[Point] = field(default_factory=list)

    def __post_init__(self) -> None:
        xs = [x for x, _ in self.zone]
        ys = [y for _, y in self.zone]
        self.box = (min(xs), min(ys), max(xs), max(ys))
        self.walls = [LineString(o.points) for o in self.battlefield.obstacles]
        self.walls += [Polygon(s.footprint).exterior for b in self.battlefield.buildings
                       for s in b.sections]

    def free(self, point: Point, spacing: float) -> bool:
        x0, y0, x1, y1 = self.box
        x, y = point
        edge = self.clearance
        if not (x0 + edge <= x <= x1 - edge and y0 + edge <= y <= y1 - edge):
            return False
        if any(abs(x - a) < spacing and abs(y - b) < spacing for a, b in self.taken):
            return False
        here = ShapelyPoint(point)
        return all(wall.distance(here) >= self.clearance for wall in self.walls)

    def cluster(self, slot: float, count: int, spacing: float, columns: int) -> list[Point]:
        """`count` places `spacing` apart in rows of `columns`, centred as near the share
        `slot` (0 west .. 1 east) of the zone's width as they fit; ValueError if they fit
        nowhere."""
        x0, y0, x1, y1 = self.box
        rows = -(-count // columns)
        width = (min(count, columns) - 1) * spacing
        depth = (rows - 1) * spacing
        step = spacing / 2
        centre_x = x0 + (x1 - x0) * slot
        centre_y = (y0 + y1) / 2
        for n in range(2 * int((x1 - x0) / step) + 1):
            # 0, then a step east, a step west, two east...
            dx = (n + 1) // 2 * step * (1 if n % 2 else -1)
            for dy in (0.0, step, -step, 2 * step, -2 * step):
                left = centre_x + dx - width / 2
                top = centre_y + dy - depth / 2
                spots = [(snap(left + (m % columns) * spacing),
                          snap(top + (m // columns) * spacing)) for m in range(count)]
                if all(self.free(p, spacing * 0.9) for p in spots):
                    self.taken += spots
                    return spots
        raise ValueError("no room left in the deployment zone")
