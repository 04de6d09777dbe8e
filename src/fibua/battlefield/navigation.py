"""Path distances over the table for computer players: a Dijkstra distance field on a grid
of cells, from goal cells outward, through whatever moves a rule set allows.

The field is built once per map and goal and then read many times, so it is computed
with plain Python at set-up and queried by table look-up.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
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
    #: each area's bounds (left, bottom, right, top): most points asked about lie far from
    #: every area, and the bounds settle them without Shapely's slower test
    _bounds: tuple[tuple[float, float, float, float], ...] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_bounds", tuple(area.bounds for area in self.areas))

    def __call__(self, pos: Position) -> bool:
        if pos.section in self.sections:
            return True
        x, y = pos.x, pos.y
        return any(left <= x <= right and bottom <= y <= top
                   and shapely.intersects_xy(area, x, y)
                   for area, (left, bottom, right, top) in zip(self.areas, self._bounds,
                                                              strict=True))


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
        self._rounded: dict[int, list[list[tuple[float, float]]]] = {}  # rounded_centres
        self._fill(is_goal, passable)
        self._dist_grid = np.array(self._dist, dtype=np.float64)
        # the next cell of each cell as a grid (-1: none), for the compiled walk down
        self._next_grid = np.full((self.nx, self.ny, 2), -1, dtype=np.int64)
        for (i, j), cell in self._next.items():
            self._next_grid[i, j] = cell
        # whether each section (by index; the last entry, -1, is outside) is in the goal
        self._goal_sections = np.array(
            [isinstance(is_goal, Region) and s in is_goal.sections
             for s in (*self._section_ids, None)], dtype=np.bool_)

    def __deepcopy__(self, memo: dict[int, Any]) -> DistanceField:
        """A field is the map's and never changes once built (its one cache,
        `rounded_centres`, is of the map too): a copy of a game's state (`BaseState.clone`,
        what a searching computer plays forward) shares it, as the state shares the map."""
        return self

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

    def as_arrays(self) -> tuple[FloatArray, float, BoolArray] | None:
        """The field for compiled callers (see `goal_distances`): its grid of distances, its
        step and which sections (by index, the last entry for outside) are in the goal;
        None when the goal is not a Region of sections alone, which only Python can test."""
        goal = self.contains
        if not isinstance(goal, Region) or goal.areas:
            return None
        return self._dist_grid, self.step, self._goal_sections

    def distances(self, places: PositionArrays) -> FloatArray:
        """`distance` for many places at once."""
        found: FloatArray = grid_distances(self._dist_grid, places.xy, self.step)
        found[self._contains_many(places)] = 0.0
        return found

    def as_grid(self) -> FloatArray:
        """Each cell's walking distance, [i, j], for compiled callers (see
        `grid_distances`)."""
        return self._dist_grid

    def cell_distances(self, places: PositionArrays) -> FloatArray:
        """`distances` without the goal test (each place's cell's distance and the way to
        the cell's centre): for callers that know which places are in the goal."""
        found: FloatArray = grid_distances(self._dist_grid, places.xy, self.step)
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
        # the first stretch and the step lengths in Python's own arithmetic, so the walk
        # stops where it always has, to the last bit
        walked = hypot(pos.x - here.x, pos.y - here.y)
        steps = (self.step * hypot(1, 0), self.step * hypot(1, 1))
        cells = _walk_down(self._dist_grid, self._next_grid, i, j, walked, length + 1e-9,
                           *steps)
        centres = self._cells
        return [(centres[a][b].x, centres[a][b].y) for a, b in cells.tolist()]

    def descend_many(self, pos: Position,
                     lengths: tuple[float, ...]) -> list[list[tuple[float, float]]]:
        """`descend` for each of several lengths, in one compiled call."""
        centres = self._cells
        return [[(centres[a][b].x, centres[a][b].y) for a, b in walk]
                for walk in self.descend_cells(pos, lengths)]

    def descend_cells(self, pos: Position,
                      lengths: tuple[float, ...]) -> list[list[list[int]]]:
        """`descend_many` as the cells ([i, j], see `centre`) of each walk."""
        i = min(self.nx - 1, max(0, int(pos.x / self.step)))
        j = min(self.ny - 1, max(0, int(pos.y / self.step)))
        here = self._cells[i][j]
        walked = hypot(pos.x - here.x, pos.y - here.y)
        steps = (self.step * hypot(1, 0), self.step * hypot(1, 1))
        limits = np.array([length + 1e-9 for length in lengths], dtype=np.float64)
        cells, ends = _walks_down(self._dist_grid, self._next_grid, i, j, walked, limits,
                                  *steps)
        found = cells.tolist()
        bounds = [0, *ends.tolist()]
        return [found[lo:hi] for lo, hi in pairwise(bounds)]

    def centre(self, i: int, j: int) -> Position:
        """The centre of a cell, in the section holding it."""
        return self._cells[i][j]

    def rounded_centres(self, digits: int) -> list[list[tuple[float, float]]]:
        """The centre of every cell, [i][j], each coordinate rounded by `round` to
        `digits`: worked out for the whole grid at once (the field is the map's, and so
        is this), for players that write many walks out as orders."""
        found = self._rounded.get(digits)
        if found is None:
            found = self._rounded[digits] = [
                [(round(c.x, digits), round(c.y, digits)) for c in column]
                for column in self._cells]
        return found

    @property
    def reachable_cells(self) -> int:
        return sum(1 for column in self._dist for d in column if d < inf)


@jit_inline
def _span(dx: float, dy: float) -> float:
    # plain square root, not hypot: Python's and the compiled hypot may differ in the last
    # bit, and one point must get the same distance alone as in a batch
    return float(np.sqrt(dx * dx + dy * dy))


@jit
def _walk_down(dist: Any, next_cell: Any, i: int, j: int, walked: float, limit: float,
               straight: float, diagonal: float) -> Any:
    """The cells where a walk down the field from (i, j) turns, and its last cell: it
    stops at the goal, at a cell with no next one, or before walking more than `limit`."""
    # no step is shorter than `straight`: that bounds the cells a walk can pass
    out = np.empty((min(max(int(limit / straight), 0), dist.size) + 2, 2), dtype=np.int64)
    out[0, 0], out[0, 1] = i, j
    n = 1
    hi, hj = 0, 0  # the heading of the last step; (0, 0) before the first
    while dist[i, j] > 0:
        a, b = next_cell[i, j, 0], next_cell[i, j, 1]
        if a < 0:
            break
        walked += diagonal if a != i and b != j else straight
        if walked > limit:
            break
        if (a - i, b - j) == (hi, hj):
            out[n - 1, 0], out[n - 1, 1] = a, b
        else:
            out[n, 0], out[n, 1] = a, b
            n += 1
        hi, hj = a - i, b - j
        i, j = a, b
    return out[:n]


@jit
def _walks_down(dist: Any, next_cell: Any, i: int, j: int, walked: float, limits: Any,
                straight: float, diagonal: float) -> Any:
    """`_walk_down` for each limit: the cells one after another, and where each walk ends
    in them."""
    walks = [_walk_down(dist, next_cell, i, j, walked, limits[k], straight, diagonal)
             for k in range(limits.shape[0])]
    total = 0
    for w in walks:
        total += w.shape[0]
    cells = np.empty((total, 2), dtype=np.int64)
    ends = np.empty(limits.shape[0], dtype=np.int64)
    n = 0
    for k in range(len(walks)):
        w = walks[k]
        cells[n:n + w.shape[0]] = w
        n += w.shape[0]
        ends[k] = n
    return cells, ends


@jit
def goal_distances(dist: Any, step: float, goal_sections: Any, xy: Any, section: Any) -> Any:
    """`DistanceField.distances` of places, from the field's `as_arrays`."""
    found = grid_distances(dist, xy, step)
    outside = goal_sections.shape[0] - 1
    for k in range(xy.shape[0]):
        if goal_sections[section[k] if section[k] >= 0 else outside]:
            found[k] = 0.0
    return found


@jit
def grid_distances(dist: Any, xy: Any, step: float) -> Any:
    """Distance of each point to its cell's centre plus the cell's distance (`dist` a
    field's `as_grid`)."""
    nx, ny = dist.shape
    out = np.empty(xy.shape[0])
    for k in range(xy.shape[0]):
        i = min(max(int(xy[k, 0] / step), 0), nx - 1)
        j = min(max(int(xy[k, 1] / step), 0), ny - 1)
        out[k] = dist[i, j] + _span(xy[k, 0] - (i + 0.5) * step, xy[k, 1] - (j + 0.5) * step)
    return out
