"""Path distances over the table for computer players: a Dijkstra distance field on a grid
of cells, from goal cells outward, through whatever moves a rule set allows.

The field is built once per map and goal and then read many times, so it is computed
with plain Python at set-up and queried by table look-up.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from math import hypot, inf, sqrt
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon

from fibua.battlefield.geometry import jit, jit_inline
from fibua.battlefield.model import Position
from fibua.battlefield.sight import PositionArrays, SightEngine

Passable = Callable[[Position, Position], bool]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Region:
    """Building sections and areas of the table taken together, such as the places a
    scenario sends a side to: a point is in it if it stands in one of the sections or
    on one of the areas."""

    sections: frozenset[str]
    areas: tuple[Polygon, ...] = ()

    def __call__(self, pos: Position) -> bool:
        return pos.section in self.sections or any(
            shapely.intersects_xy(area, pos.x, pos.y) for area in self.areas)


NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


class DistanceField:
    """Shortest walking distance from any cell to the nearest goal cell."""

    def __init__(
        self,
        sight: SightEngine,
        is_goal: Callable[[Position], bool],
        passable: Passable,
        step: float = 1.0,
    ) -> None:
        table = sight.battlefield.table
        self.step = step
        self.contains = is_goal
        self._section_ids = sight.section_ids
        self.nx = max(1, int(table.width / step))
        self.ny = max(1, int(table.height / step))
        self._cells = [
            [self._cell_position(sight, i, j) for j in range(self.ny)] for i in range(self.nx)
        ]
        self._dist = [[inf] * self.ny for _ in range(self.nx)]
        #: the next cell on a shortest walk from each cell: a step found passable
        self._next: dict[tuple[int, int], tuple[int, int]] = {}
        self._fill(is_goal, passable)
        self._dist_grid = np.array(self._dist, dtype=np.float64)
        # whether each section (by index; the last entry, -1, is outside) is in the goal
        self._goal_sections = np.array(
            [isinstance(is_goal, Region) and s in is_goal.sections
             for s in (*self._section_ids, None)], dtype=np.bool_)

    def _cell_position(self, sight: SightEngine, i: int, j: int) -> Position:
        x, y = (i + 0.5) * self.step, (j + 0.5) * self.step
        return Position(x, y, sight.section_at((x, y)))

    def _fill(self, is_goal: Callable[[Position], bool], passable: Passable) -> None:
        heap: list[tuple[float, int, int]] = []
        for i in range(self.nx):
            for j in range(self.ny):
                if is_goal(self._cells[i][j]):
                    self._dist[i][j] = 0.0
                    heap.append((0.0, i, j))
        heapq.heapify(heap)
        while heap:
            d, i, j = heapq.heappop(heap)
            if d > self._dist[i][j]:
                continue
            here = self._cells[i][j]
            for di, dj in NEIGHBOURS:
                a, b = i + di, j + dj
                if not (0 <= a < self.nx and 0 <= b < self.ny):
                    continue
                nd = d + self.step * hypot(di, dj)
                if nd < self._dist[a][b] and passable(self._cells[a][b], here):
                    self._dist[a][b] = nd
                    self._next[(a, b)] = (i, j)
                    heapq.heappush(heap, (nd, a, b))

    def distance(self, pos: Position) -> float:
        """Walking distance from a point to the goal (via the cell it stands in); 0 in it."""
        if self.contains(pos):
            return 0.0
        i = min(self.nx - 1, max(0, int(pos.x / self.step)))
        j = min(self.ny - 1, max(0, int(pos.y / self.step)))
        cell = self._cells[i][j]
        dx, dy = pos.x - cell.x, pos.y - cell.y
        return self._dist[i][j] + sqrt(dx * dx + dy * dy)  # as `_span`, to the last bit

    def distances(self, places: PositionArrays) -> FloatArray:
        """`distance` for many places at once."""
        found: FloatArray = _grid_distances(self._dist_grid, places.xy, self.step)
        found[self._contains_many(places)] = 0.0
        return found

    def _contains_many(self, places: PositionArrays) -> BoolArray:
        goal = self.contains
        if isinstance(goal, Region):
            inside: BoolArray = self._goal_sections[places.section]
            for area in goal.areas:
                inside = inside | shapely.intersects_xy(area, places.xy[:, 0], places.xy[:, 1])
            return inside
        ids = self._section_ids
        return np.array([
            goal(Position(float(x), float(y), None if s < 0 else ids[s], int(fl)))
            for (x, y), s, fl in zip(places.xy, places.section, places.floor, strict=True)
        ], dtype=np.bool_)

    def descend(self, pos: Position, length: float) -> list[tuple[float, float]]:
        """Waypoints (cell centres) along a shortest walk from pos, at most `length` long:
        every step is one the field found passable when it was built (never the nearer
        cell on the far side of a wall). Straight runs are merged into one leg."""
        i = min(self.nx - 1, max(0, int(pos.x / self.step)))
        j = min(self.ny - 1, max(0, int(pos.y / self.step)))
        here = self._cells[i][j]
        walked = hypot(pos.x - here.x, pos.y - here.y)
        points: list[tuple[float, float]] = [(here.x, here.y)]
        heading: tuple[int, int] | None = None
        while self._dist[i][j] > 0:
            best = self._next_cell(i, j)
            if best is None:
                break
            a, b = best
            walked += self.step * hypot(a - i, b - j)
            if walked > length + 1e-9:
                break
            turn = (a - i, b - j)
            cell = self._cells[a][b]
            if turn == heading:
                points[-1] = (cell.x, cell.y)
            else:
                points.append((cell.x, cell.y))
            heading = turn
            i, j = a, b
        return points

    def _next_cell(self, i: int, j: int) -> tuple[int, int] | None:
        return self._next.get((i, j))

    @property
    def reachable_cells(self) -> int:
        return sum(1 for column in self._dist for d in column if d < inf)


@jit_inline
def _span(dx: float, dy: float) -> float:
    # plain square root, not hypot: Python's and the compiled hypot may differ in the last
    # bit, and one point must get the same distance alone as in a batch
    return float(np.sqrt(dx * dx + dy * dy))


@jit
def _grid_distances(dist: Any, xy: Any, step: float) -> Any:
    """Distance of each point to its cell's centre plus the cell's distance."""
    nx, ny = dist.shape
    out = np.empty(xy.shape[0])
    for k in range(xy.shape[0]):
        i = min(max(int(xy[k, 0] / step), 0), nx - 1)
        j = min(max(int(xy[k, 1] / step), 0), ny - 1)
        out[k] = dist[i, j] + _span(xy[k, 0] - (i + 0.5) * step, xy[k, 1] - (j + 0.5) * step)
    return out
