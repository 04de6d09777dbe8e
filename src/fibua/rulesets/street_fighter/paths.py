"""Street routes for the computer: walking distances over a grid of open cells (outside
building areas, never across a high wall) to a goal, built once per map and goal.

Plain Dijkstra in Python over a coarse grid: built at most a few times per scenario and
then only read. The rules still check every move the computer orders.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from math import hypot, inf

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union
from shapely.prepared import prep

from fibua.battlefield.model import ObstacleKind, Position
from fibua.battlefield.sight import SightEngine
from fibua.rulesets.street_fighter.ground import memo

STEP = 2.0  # cm: the grid's cell
WALKS_LIMIT = 50_000  # walks kept per route before it starts afresh
CLEARANCE = 0.8  # cm kept from building walls by the cells' centres
CORNER = 0.2  # cm a step between cells keeps from a building
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


class Grid:
    """Which cells are open street and which steps between them cross a high wall."""

    def __init__(self, sight: SightEngine) -> None:
        table = sight.battlefield.table
        self.nx, self.ny = int(table.width / STEP), int(table.height / STEP)
        field = sight.battlefield
        blocks = unary_union([Point(0, 0).buffer(0)] + [
            Polygon(field.section(s).footprint).buffer(CLEARANCE) for s in field.section_ids])
        inside = prep(blocks)
        self.free = [[not inside.contains(Point(self.centre(i, j))) for j in range(self.ny)]
                     for i in range(self.nx)]
        # a step between two open cells may still clip a building's corner
        self._solid = prep(unary_union([Point(0, 0).buffer(0)] + [
            Polygon(field.section(s).footprint).buffer(CORNER) for s in field.section_ids]))
        self._steps: dict[tuple[tuple[int, int], tuple[int, int]], bool] = {}
        self.walls = [(a, b) for o in field.obstacles if o.kind is ObstacleKind.HIGH_WALL
                      for a, b in zip(o.points, o.points[1:], strict=False)]

    def centre(self, i: int, j: int) -> tuple[float, float]:
        return ((i + 0.5) * STEP, (j + 0.5) * STEP)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return (min(self.nx - 1, max(0, int(x / STEP))), min(self.ny - 1, max(0, int(y / STEP))))

    def step_ok(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        key = (a, b) if a < b else (b, a)
        found = self._steps.get(key)
        if found is None:
            found = self._steps[key] = self._open_step(a, b)
        return found

    def _open_step(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        if not (self.free[a[0]][a[1]] and self.free[b[0]][b[1]]):
            return False
        p, q = self.centre(*a), self.centre(*b)
        if any(_cross(p, q, w0, w1) for w0, w1 in self.walls):
            return False
        return not self._solid.intersects(LineString([p, q]))


def _cross(p: tuple[float, float], q: tuple[float, float], a: tuple[float, float],
           b: tuple[float, float]) -> bool:
    def orient(o: tuple[float, float], s: tuple[float, float], t: tuple[float, float]) -> float:
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    return (orient(a, b, p) * orient(a, b, q) <= 0) and (orient(p, q, a) * orient(p, q, b) <= 0)


def grid(sight: SightEngine) -> Grid:
    cache = memo(sight, "grid")
    if "grid" not in cache:
        cache["grid"] = Grid(sight)
    found: Grid = cache["grid"]
    return found


class Route:
    """Distance from every open cell to the goal cells."""

    def __init__(self, g: Grid, is_goal: Callable[[tuple[float, float]], bool]) -> None:
        self.g = g
        #: `descend`'s answers by its arguments: a route lives as long as its map (in the
        #: engine's shared store), and units ask again from where they stand still, or
        #: stood at the same place last game (a scenario's set-up), nine times in ten
        self._walks: dict[tuple[float, float, float, float], tuple[tuple[float, float], ...]] \
            = {}
        self.dist = [[inf] * g.ny for _ in range(g.nx)]
        heap: list[tuple[float, int, int]] = []
        for i in range(g.nx):
            for j in range(g.ny):
                if g.free[i][j] and is_goal(g.centre(i, j)):
                    self.dist[i][j] = 0.0
                    heap.append((0.0, i, j))
        heapq.heapify(heap)
        while heap:
            d, i, j = heapq.heappop(heap)
            if d > self.dist[i][j]:
                continue
            for di, dj in NEIGHBOURS:
                a, b = i + di, j + dj
                if 0 <= a < g.nx and 0 <= b < g.ny:
                    nd = d + STEP * hypot(di, dj)
                    if nd < self.dist[a][b] and g.step_ok((i, j), (a, b)):
                        self.dist[a][b] = nd
                        heapq.heappush(heap, (nd, a, b))

    def distance(self, pos: Position) -> float:
        i, j = self.g.cell(pos.x, pos.y)
        return self.dist[i][j]

    def descend(self, pos: Position, budget: float, stop: float = 0.0) -> list[list[float]]:
        """Waypoints toward the goal, walking at most `budget`, stopping where the
        remaining distance would fall below `stop`: a new list each call (it goes into an
        order), made from the kept walk, which reads nothing but the route and the
        arguments."""
        key = (pos.x, pos.y, budget, stop)
        walk = self._walks.get(key)
        if walk is None:
            if len(self._walks) > WALKS_LIMIT:
                self._walks.clear()  # places differ from game to game: keep memory bounded
            walk = self._walks[key] = tuple((x, y) for x, y in self._descend(pos, budget, stop))
        return [[x, y] for x, y in walk]

    def _descend(self, pos: Position, budget: float, stop: float) -> list[list[float]]:
        i, j = self.g.cell(pos.x, pos.y)
        cx, cy = self.g.centre(i, j)
        walked = hypot(pos.x - cx, pos.y - cy)
        points: list[list[float]] = [[round(cx, 2), round(cy, 2)]]
        heading: tuple[int, int] | None = None
        while self.dist[i][j] > stop:
            best = min(((self.dist[i + di][j + dj], (i + di, j + dj)) for di, dj in NEIGHBOURS
                        if 0 <= i + di < self.g.nx and 0 <= j + dj < self.g.ny
                        and self.g.step_ok((i, j), (i + di, j + dj))),
                       default=(inf, (i, j)))
            d, (a, b) = best
            if d >= self.dist[i][j]:
                break
            walked += STEP * hypot(a - i, b - j)
            if walked > budget:
                break
            x, y = self.g.centre(a, b)
            if (a - i, b - j) == heading:
                points[-1] = [round(x, 2), round(y, 2)]
            else:
                points.append([round(x, 2), round(y, 2)])
            heading = (a - i, b - j)
            i, j = a, b
        return points


def route(sight: SightEngine, key: str, is_goal: Callable[[tuple[float, float]], bool]) -> Route:
    cache = memo(sight, "routes")
    if key not in cache:
        cache[key] = Route(grid(sight), is_goal)
    found: Route = cache[key]
    return found
