"""The approach under a fixed gun: how the computer crosses to an objective that a known
emplaced weapon (one that cannot move and fire, a heavy machine gun) watches.

Such a gun does not move, so the ground it sees is known for the whole approach, and
its fire falls in the shoot phase on the figures it sees where their moves end. The
attack goes by bounds over a grid of 1-inch cells: from every cell, the cost of the
walk to the objective, each inch dearer the more of the gun's fire falls on it; each
move ends, within a run, where that cost, the gun's fire on the end and the worth of
the place weigh least together. Early on a place out of the gun's sight that watches a
door of the objective is worth a long way (a post: the defenders still coming in are
shot at the door), and the players stay on it (see ai.Tactician._bound_options, which
also holds the attack short of the objective until it goes in together).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import hypot, inf
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from fibua.battlefield.geometry import jit
from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField
from fibua.battlefield.sight import PositionArrays, SightEngine, per_map, per_query
from fibua.rulesets.street_fight.actions import leg_blocked
from fibua.rulesets.street_fight.estimates import removal_chance
from fibua.rulesets.street_fight.tables import MOVE_MAX, WEAPONS, WeaponName

#: range increments beyond which the chance stays as at this many
MAX_STEPS = 12
#: the eight steps to a neighbouring cell
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
#: extra cost of an inch walked in sight, per unit of the chance of being removed there
SIGHT_COST = 8.0
#: inches of route an end of move in sight is worth avoiding, per unit of that chance
END_COST = 200.0
#: the longest a move may be (a run), kept just short of the rules' limit
REACH = MOVE_MAX - 0.05
#: inches of walking into the objective within which a cell outside is its doorstep
DOORSTEP = 1.5
#: two friends cannot end within 1/4 in of each other; an end is kept clear of friends
CLEAR = 0.3
#: no friends' coordinates, for `_best_end`
NO_FRIENDS = np.zeros(0, dtype=np.float64)


@dataclass(frozen=True, slots=True)
class CellGraph:
    """The table's 1-inch cells (ground floor) and the steps between neighbours a figure
    can take (no building wall, no high wall in the way), for the whole map."""

    nx: int
    ny: int
    positions: tuple[Position, ...]  # cell k = i * ny + j
    places: PositionArrays
    #: for each cell, the cells from which a step into it is possible, with the step's length
    into: tuple[tuple[tuple[int, float], ...], ...]
    #: for each cell, the cells a step from it reaches, with the step's length
    out: tuple[tuple[tuple[int, float], ...], ...]
    #: `into` flattened for compiled code: cell k's steps are rows start[k]..start[k+1]
    into_start: npt.NDArray[np.int64]
    into_cell: npt.NDArray[np.int64]
    into_length: npt.NDArray[np.float64]
    #: `out` flattened the same way, for `walks`
    out_start: npt.NDArray[np.int64]
    out_cell: npt.NDArray[np.int64]
    out_length: npt.NDArray[np.float64]

    def cell(self, pos: Position) -> int:
        i = min(self.nx - 1, max(0, int(pos.x)))
        j = min(self.ny - 1, max(0, int(pos.y)))
        return i * self.ny + j


@per_map()
def cell_graph(sight: SightEngine) -> CellGraph:
    """The `CellGraph` of a map, built once and shared by every user of the map."""
    table = sight.battlefield.table
    nx, ny = max(1, int(table.width)), max(1, int(table.height))
    positions = tuple(Position(i + 0.5, j + 0.5, sight.section_at((i + 0.5, j + 0.5)))
                      for i in range(nx) for j in range(ny))
    into: list[list[tuple[int, float]]] = [[] for _ in positions]
    out: list[list[tuple[int, float]]] = [[] for _ in positions]
    for i in range(nx):
        for j in range(ny):
            k = i * ny + j
            for di, dj in STEPS:
                a, b = i + di, j + dj
                if 0 <= a < nx and 0 <= b < ny:
                    m = a * ny + b
                    if leg_blocked(sight, positions[m], positions[k]) is None:
                        into[k].append((m, hypot(di, dj)))
                        out[m].append((k, hypot(di, dj)))
    return CellGraph(nx, ny, positions, sight.position_arrays(list(positions)),
                     tuple(tuple(steps) for steps in into),
                     tuple(tuple(steps) for steps in out), *_flat(into), *_flat(out))


def _flat(steps: list[list[tuple[int, float]]]
          ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Steps by cell as three arrays: cell k's are rows start[k]..start[k+1], in order."""
    start = np.cumsum([0] + [len(row) for row in steps], dtype=np.int64)
    flat = [step for row in steps for step in row]
    return (start, np.array([m for m, _ in flat], dtype=np.int64),
            np.array([length for _, length in flat], dtype=np.float64))


#: the cells seen from each place (`seen_cells`), kept by a computer from game to game
SeenCells = dict[Position, npt.NDArray[np.bool_]]
SEEN_LIMIT = 4096  # places a `SeenCells` keeps before it starts afresh


def danger(sight: SightEngine, graph: CellGraph,
           guns: Sequence[tuple[Position, WeaponName]],
           kept: SeenCells | None = None) -> npt.NDArray[np.float64]:
    """For each cell, the chance that the known guns that can see it remove a figure
    standing there in the open in one shoot phase (one that stops in their sight is
    likely to stay a turn or more: the posts and the gathering wait). The cells each gun
    sees are looked up in `kept` first, and kept there."""
    spared = np.ones(len(graph.positions), dtype=np.float64)
    for pos, weapon in guns:
        seen = _seen_kept(kept, sight, pos, graph)
        if not seen.any():
            continue
        spared[seen] *= gun_spares(sight, pos, weapon, graph, seen)
    found: npt.NDArray[np.float64] = 1.0 - spared
    return found


# the plan is made anew at each news, mostly with the same guns where they were
@per_query(limit=SEEN_LIMIT, key=lambda pos, weapon, graph, seen: (pos, weapon))
def gun_spares(sight: SightEngine, pos: Position, weapon: WeaponName, graph: CellGraph,
               seen: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """For each cell a gun at `pos` sees (`seen`, its `seen_cells`, in their order), the
    chance that the gun leaves a figure standing there (read-only): `danger`'s factor."""
    xy = graph.places.xy
    ranges = np.hypot(xy[:, 0] - pos.x, xy[:, 1] - pos.y)
    chance = chances(weapon)
    steps = np.minimum(np.ceil(ranges / WEAPONS[weapon].increment), len(chance) - 1)
    spares: npt.NDArray[np.float64] = 1.0 - chance[steps[seen].astype(np.int64)]
    spares.flags.writeable = False
    return spares


@per_map(key=lambda graph, goal: id(goal))
def goal_distances(sight: SightEngine, graph: CellGraph, goal: DistanceField
                   ) -> npt.NDArray[np.float64]:
    """The walking distance from each cell to the objective (read-only): the public map
    only, kept like `door_watch` by the objective's identity."""
    found = goal.distances(graph.places)
    found.flags.writeable = False
    return found



K = TypeVar("K")
V = TypeVar("V")


def kept_or_made(memo: dict[K, V], key: K, limit: int, make: Callable[[], V]) -> V:
    """The memo's answer for `key`, made and kept if it has none; a memo grown to `limit`
    answers is emptied first (a long series of games would otherwise grow it without end)."""
    found = memo.get(key)
    if found is None:
        if len(memo) >= limit:
            memo.clear()
        found = memo[key] = make()
    return found

def _seen_kept(kept: SeenCells | None, sight: SightEngine, pos: Position,
               graph: CellGraph) -> npt.NDArray[np.bool_]:
    if kept is None:
        return seen_cells(sight, pos, graph)
    return kept_or_made(kept, pos, SEEN_LIMIT, lambda: seen_cells(sight, pos, graph))


# the same few enemy places are looked from again and again as the plan is made anew
@per_query(limit=SEEN_LIMIT, key=lambda pos, graph: pos)
def seen_cells(sight: SightEngine, pos: Position, graph: CellGraph) -> npt.NDArray[np.bool_]:
    """Which cells of the map's graph a figure at `pos` sees (read-only): the map alone,
    kept in the asking engine's own memo."""
    seen = sight.visible_row(pos, graph.places)
    seen.flags.writeable = False
    return seen


@cache
def chances(weapon: WeaponName) -> npt.NDArray[np.float64]:
    """A weapon's chance to remove a standing figure in the open, by range increments."""
    return np.array([removal_chance(weapon, max(1, steps), 0, False, False, 0)
                     for steps in range(MAX_STEPS + 1)])


@per_map(key=lambda graph, goal: id(goal))
def door_watch(sight: SightEngine, graph: CellGraph, goal: DistanceField
               ) -> npt.NDArray[np.bool_]:
    """For each cell, whether it sees a doorstep of the objective (a cell outside it
    within a step or so of walking into it): the public map only. Called with the
    objective's own field, kept in the scenario's memo for good: remembered by its
    identity."""
    inside = goal.distances(graph.places)
    steps = [graph.positions[k] for k in np.flatnonzero((inside > 0) & (inside <= DOORSTEP))]
    seen = np.zeros(len(graph.positions), dtype=np.bool_)
    for step in steps:
        seen |= sight.visible_row(step, graph.places)
    return seen


@dataclass(frozen=True, slots=True)
class Approach:
    """Costs of the way to the objective from every cell (walking, dearer in the gun's
    sight), and the gun's fire on each cell."""

    graph: CellGraph
    cost: list[float]
    danger: npt.NDArray[np.float64]
    #: inches of the way each cell is worth as a post: out of the gun's sight, watching a
    #: door of the objective (all zero once the posts are no longer wanted)
    post: npt.NDArray[np.float64]
    #: `end_score` of every cell, worked out once for the plan (numpy's element-wise
    #: sum in the same order, so each is the very float `end_score` gives)
    scores: npt.NDArray[np.float64]

    def end_score(self, k: int) -> float:
        """How bad it is to end a move in cell k: the way left, the fire drawn there, less
        the worth of a post."""
        return self.cost[k] + END_COST * float(self.danger[k]) - float(self.post[k])


def approach(graph: CellGraph, goal: DistanceField, risk: npt.NDArray[np.float64],
             post: npt.NDArray[np.float64]) -> Approach:
    """Dijkstra from the objective's cells outward over the graph, each inch costing
    more the more fire falls where it is walked."""
    weight = 1.0 + SIGHT_COST * risk
    inside = goal.distances(graph.places) == 0.0
    cost = _walk_costs(inside, weight, graph.into_start, graph.into_cell, graph.into_length)
    return Approach(graph, cost.tolist(), risk, post, cost + END_COST * risk - post)


@jit
def _walk_costs(inside: Any, weight: Any, start: Any, cell: Any, length: Any) -> Any:
    """`approach`'s Dijkstra, compiled: the cost of the way from each cell to the nearest
    of the cells `inside`, a step from m into k costing its length times the mean of the
    two cells' weights."""
    n = inside.shape[0]
    cost = np.full(n, np.inf)
    heap = [(0.0, k) for k in range(n) if inside[k]]
    for _, k in heap:
        cost[k] = 0.0
    heapq.heapify(heap)
    while len(heap) > 0:
        d, k = heapq.heappop(heap)
        if d > cost[k]:
            continue
        for r in range(start[k], start[k + 1]):
            m = cell[r]
            nd = d + length[r] * 0.5 * (weight[m] + weight[k])
            if nd < cost[m]:
                cost[m] = nd
                heapq.heappush(heap, (nd, m))
    return cost


#: `walked_cells`' answer: the cells in the order reached, and for each of them the
#: inches to it and the cell it is reached from (-1 for the first, the figure's own)
Walked = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]


@dataclass(slots=True)
class WalksKept:
    """`walked_cells`' answers on one graph, by the place and the reach: a computer's
    own, kept for its game (its figures bound from the same places turn after turn)."""

    graph: CellGraph | None = None
    found: dict[tuple[float, float, float], Walked] = field(default_factory=dict)

    def on(self, graph: CellGraph) -> WalksKept:
        """These answers, started afresh for another graph."""
        if self.graph is not graph:
            self.graph, self.found = graph, {}
        return self


WALKS_LIMIT = 2048  # answers a `WalksKept` keeps before it starts afresh (a few KB each)


def walks(graph: CellGraph, pos: Position, reach: float, kept: WalksKept | None = None
          ) -> tuple[dict[int, float], dict[int, int]]:
    """The cells the figure can walk to within `reach` inches: the inches to each, and
    the cell each is reached from (in the order a search cell by cell finds them)."""
    order, walked, came = walked_cells(graph, pos, reach, kept)
    cells = order.tolist()
    return (dict(zip(cells, walked.tolist(), strict=True)),
            dict(zip(cells[1:], came[1:].tolist(), strict=True)))


def walked_cells(graph: CellGraph, pos: Position, reach: float,
                 kept: WalksKept | None = None) -> Walked:
    """`walks` as arrays (read-only): the cells reached in the order they are first
    reached (the figure's own cell first), then in that order the inches to each and the
    cell each is reached from (-1 for the first). Looked up in `kept` first, and kept
    there: the answer depends on the graph, the point and the reach."""
    if kept is None:
        return _walked_cells(graph, pos, reach)
    return kept_or_made(kept.on(graph).found, (pos.x, pos.y, reach), WALKS_LIMIT,
                         lambda: _walked_cells(graph, pos, reach))


def _walked_cells(graph: CellGraph, pos: Position, reach: float) -> Walked:
    start = graph.cell(pos)
    here = graph.positions[start]
    first = hypot(pos.x - here.x, pos.y - here.y)
    found: Walked = _walks(start, first, reach, graph.out_start, graph.out_cell,
                           graph.out_length)
    for array in found:
        array.flags.writeable = False
    return found


@jit
def _walks(start: Any, first: Any, reach: Any, out_start: Any, out_cell: Any,
           out_length: Any) -> Any:
    """Dijkstra from the figure's cell out to `reach`, compiled. The heap holds distinct
    (inches, cell) pairs (a cell is pushed again only nearer), so the cells come off it
    in the order Python's heapq gives, and each sum is the one the plain loop made."""
    n = out_start.shape[0] - 1
    walked = np.full(n, np.inf)
    came = np.full(n, -1, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    walked[start] = first
    order[0] = start
    count = 1
    heap = [(first, start)]
    while len(heap) > 0:
        d, k = heapq.heappop(heap)
        if d > walked[k]:
            continue
        for r in range(out_start[k], out_start[k + 1]):
            m = out_cell[r]
            nd = d + out_length[r]
            if nd <= reach and nd < walked[m]:
                if walked[m] == np.inf:  # reached for the first time
                    order[count] = m
                    count += 1
                walked[m] = nd
                came[m] = k
                heapq.heappush(heap, (nd, m))
    reached = order[:count]
    return reached, walked[reached], came[reached]


def bound(plan: Approach, pos: Position, friends: Sequence[Position],
          reach: float = REACH, kept: WalksKept | None = None
          ) -> list[tuple[float, float]] | None:
    """The figure's next bound: of the cells it can walk to in one move of `reach`
    inches (a run unless told), the one where the fire it draws and the way still left
    weigh least together, and the walk there as cell centres; None when it does better
    to stay where it is."""
    graph = plan.graph
    start = graph.cell(pos)
    if plan.cost[start] == inf:
        return None
    order, _, came = walked_cells(graph, pos, reach, kept)
    if len(friends):
        fx = np.array([f.x for f in friends], dtype=np.float64)
        fy = np.array([f.y for f in friends], dtype=np.float64)
    else:
        fx = fy = NO_FRIENDS
    best = _best_end(order, plan.scores, graph.places.xy, fx, fy,
                     plan.scores[start] - 0.5)
    if best < 0:
        return None
    came_from = dict(zip(order.tolist(), came.tolist(), strict=True))
    way = [best]
    while way[-1] != start:
        way.append(came_from[way[-1]])
    return [(graph.positions[k].x, graph.positions[k].y) for k in reversed(way)]


@jit
def _best_end(order: Any, scores: Any, xy: Any, fx: Any, fy: Any, stay: Any) -> int:
    """`bound`'s choice, compiled: of the cells reached after the first (the figure's
    own), in the order reached, the first scoring strictly less than every one before
    it and than `stay`, none within `CLEAR` of a friend in both x and y; -1 if none.
    Only comparisons and the same subtractions, so the very cell the loop picked."""
    best, best_score = -1, stay
    for r in range(1, order.shape[0]):
        k = order[r]
        score = scores[k]
        if score < best_score:
            bx, by = xy[k, 0], xy[k, 1]
            clear = True
            for q in range(fx.shape[0]):
                if abs(fx[q] - bx) < CLEAR and abs(fy[q] - by) < CLEAR:
                    clear = False
                    break
            if clear:
                best, best_score = k, score
    return best
