"""The computer's quick estimates for Street-Fight, as arrays: the cover a place gives
against fire from a direction, whether cover is within reach, and the chance that a
firing action removes its target. The exact rules decide every real shot; these only
rank the places and targets a computer player considers, many at a time.
"""

from __future__ import annotations

from copy import copy
from functools import cache
from itertools import pairwise
from math import cos, pi, sin
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from fibua.battlefield.geometry import jit, jit_inline
from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField, goal_distances
from fibua.battlefield.sight import (
    PositionArrays,
    SightEngine,
    per_map,
    places_around_kernel,
    visible_matrix_kernel,
)
from fibua.rulesets.street_fight.cover import COVER_REACH, OBSTACLE_COVER, position_cover
from fibua.rulesets.street_fight.shooting import Situation, hit_chance, kill_chance
from fibua.rulesets.street_fight.tables import WEAPONS, WeaponName

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

SECTORS = 8  # directions of fire the cover map tells apart
PROBE = 6.0  # inches: how far out the cover map looks from, in each direction
GRID_CELLS = 4  # cells per inch of the cover-within-reach grid
UNKNOWN = -1
EXPECTED_ROUNDS = {None: 1.0, "d10/2": 3.0, "d10": 5.5}
MAX_STEPS = 40  # range increments tabulated: every weapon's chance is 0 well before

WEAPON_ORDER = tuple(WeaponName)
WEAPON_INDEX = {w: k for k, w in enumerate(WEAPON_ORDER)}
INCREMENT = np.array([WEAPONS[w].increment for w in WEAPON_ORDER], dtype=np.float64)


class CoverMap:
    """Cover (in quarters) of a figure standing in each 1 in cell, inside or outside each
    section, on each floor, against fire from each of eight directions: `position_cover`
    worked out from a point six inches off, once per cell and direction, when first asked.
    Every key fixes all the probe depends on, so what a cell holds never depends on which
    game or place asked first: games on one map stay independent of each other.

    The map's cover map is filled whole before anyone reads it, and every user of the map
    shares it; a cell it left unknown is worked out in a copy of the asking engine's own
    (see `cover_map`), so what one user asked about never shows in another's map. It
    keeps no engine: the one asking is passed in."""

    def __init__(self, sight: SightEngine) -> None:
        table = sight.battlefield.table
        self.nx, self.ny = int(table.width) + 1, int(table.height) + 1
        floors = max((sight.battlefield.section(s).levels for s in sight.section_ids),
                     default=1)
        # section index + 1 (0: outside any section), floor, cell x, cell y, sector
        self._grid = np.full((len(sight.section_ids) + 1, floors, self.nx, self.ny, SECTORS),
                             UNKNOWN, dtype=np.int8)

    def fill(self, sight: SightEngine) -> None:
        """Work out every cell a figure can stand in: the open table on the ground, and
        each section's cells on each of its floors. A few tenths of a second once per
        map, so games never pay for it while a computer player decides."""
        battlefield = sight.battlefield
        for i, j in np.ndindex(self.nx, self.ny):
            self._fill_cell(sight, 0, 0, i, j)
        for s, sid in enumerate(sight.section_ids, start=1):
            section = battlefield.section(sid)
            xs, ys = zip(*section.footprint, strict=True)
            for i, j in np.ndindex(int(max(xs)) - int(min(xs)) + 1,
                                   int(max(ys)) - int(min(ys)) + 1):
                for floor in range(section.levels):
                    self._fill_cell(sight, s, floor, _clamp(int(min(xs)) + i, self.nx),
                                    _clamp(int(min(ys)) + j, self.ny))

    def _fill_cell(self, sight: SightEngine, s: int, floor: int, i: int, j: int) -> None:
        for sector in range(SECTORS):
            key = (s, floor, i, j, sector)
            if self._grid[key] == UNKNOWN:
                self._grid[key] = _probe(sight, key)

    @property
    def grid(self) -> npt.NDArray[np.int8]:
        """The cells, UNKNOWN where not yet worked out, for the kernels that read it."""
        return self._grid

    def ensure(self, sight: SightEngine, places: PositionArrays,
               enemies: PositionArrays) -> CoverMap:
        """The cover map to read for these pairs: this one, or when either side of them
        would read a cell still unknown, the asking engine's own copy with it worked out."""
        if not (self._unknown(places, enemies) or self._unknown(enemies, places)):
            return self
        own: CoverMap | None = sight.memo.get(CoverMap)
        if own is None:
            own = sight.memo[CoverMap] = copy(self)
            own._grid = self._grid.copy()
        own.matrix(sight, places, enemies)
        own.matrix(sight, enemies, places)
        return own

    def _unknown(self, at: PositionArrays, fire_from: PositionArrays) -> bool:
        unknown: int = _cover_pairs(self._grid, at.xy, at.section, at.floor, fire_from.xy)[1]
        return bool(unknown)

    def matrix(self, sight: SightEngine, at: PositionArrays,
               fire_from: PositionArrays) -> IntArray:
        """Cover of each place of `at` against fire from each of `fire_from`:
        shape (len(at), len(fire_from))."""
        found: IntArray
        found, unknown = _cover_pairs(self._grid, at.xy, at.section, at.floor, fire_from.xy)
        if unknown:
            for a, b in zip(*np.nonzero(found == UNKNOWN), strict=True):
                found[a, b] = self._fill(sight, at, int(a), fire_from.xy[b])
        return found

    def _fill(self, sight: SightEngine, at: PositionArrays, a: int, source: FloatArray) -> int:
        x, y = at.xy[a]
        turn = np.arctan2(source[1] - y, source[0] - x) / (2 * pi) * SECTORS
        key = (int(at.section[a]) + 1, _clamp(int(at.floor[a]), self._grid.shape[1]),
               _clamp(int(x), self.nx), _clamp(int(y), self.ny),
               int(np.floor(turn + 0.5)) % SECTORS)
        if self._grid[key] == UNKNOWN:
            self._grid[key] = _probe(sight, key)
        return int(self._grid[key])


def _probe(sight: SightEngine, key: tuple[int, int, int, int, int]) -> int:
    s, floor, i, j, sector = key
    section = None if s == 0 else sight.section_ids[s - 1]
    centre = (i + 0.5, j + 0.5)
    if section is not None and sight.section_at(centre) != section:
        section = sight.section_at(centre)
    spot = Position(centre[0], centre[1], section, floor)
    angle = 2 * pi * sector / SECTORS
    source = Position(spot.x + PROBE * cos(angle), spot.y + PROBE * sin(angle))
    return position_cover(sight, source, spot)


def _clamp(index: int, size: int) -> int:
    return min(max(index, 0), size - 1)


def cover_map(sight: SightEngine) -> CoverMap:
    """The cover map the engine reads: its own copy once it has needed a cell the map's
    fill left unknown (see `CoverMap.ensure`), else the map's."""
    own: CoverMap | None = sight.memo.get(CoverMap)
    return own if own is not None else _map_cover(sight)


@per_map()
def _map_cover(sight: SightEngine) -> CoverMap:
    """The map's cover map, filled whole when first asked for (by a fork of its own, so
    the asker's memo does not grow with the fill)."""
    found = CoverMap(sight)
    found.fill(sight.fork())
    return found


@per_map()
def _reach_grid_of(sight: SightEngine) -> BoolArray:
    return reach_grid(sight)


@jit_inline
def _reach_at(grid: Any, x: float, y: float, section: int) -> bool:
    i = min(max(int(x * GRID_CELLS), 0), grid.shape[0] - 1)
    j = min(max(int(y * GRID_CELLS), 0), grid.shape[1] - 1)
    return section >= 0 or bool(grid[i, j])


def reach_grid(sight: SightEngine) -> BoolArray:
    """Cells (1/GRID_CELLS in) whose centre is within reach of a wall worth 1/2 cover."""
    table = sight.battlefield.table
    xs = (np.arange(int(table.width * GRID_CELLS) + 1) + 0.5) / GRID_CELLS
    ys = (np.arange(int(table.height * GRID_CELLS) + 1) + 0.5) / GRID_CELLS
    px, py = np.meshgrid(xs, ys, indexing="ij")
    near = np.zeros(px.shape, dtype=bool)
    for obstacle in sight.battlefield.obstacles:
        if OBSTACLE_COVER[obstacle.kind] < 2:
            continue
        for (ax, ay), (bx, by) in pairwise(obstacle.points):
            dx, dy = bx - ax, by - ay
            span = dx * dx + dy * dy or 1.0
            t = np.clip(((px - ax) * dx + (py - ay) * dy) / span, 0.0, 1.0)
            near |= np.hypot(px - ax - t * dx, py - ay - t * dy) <= COVER_REACH
    return near


def removal_chance(weapon: WeaponName, steps: int, cover: int, target_moving: bool,
                   firer_moving: bool, aim: int) -> float:
    """Chance that one firing action removes the target, over the weapon's average
    number of rounds."""
    s = Situation(weapon, steps * WEAPONS[weapon].increment, cover, target_moving,
                  firer_moving, aim)
    single = hit_chance(s) / 100 * kill_chance(weapon)
    return float(1 - (1 - single) ** EXPECTED_ROUNDS[WEAPONS[weapon].rounds])


@cache
def odds_table() -> npt.NDArray[np.float64]:
    """removal_chance without aim, by weapon, range increments, cover, target moving and
    firer moving."""
    table = np.zeros((len(WEAPON_ORDER), MAX_STEPS + 1, 4, 2, 2))
    for index in np.ndindex(table.shape):
        w, steps, cover, target_moving, firer_moving = (int(v) for v in index)
        table[index] = removal_chance(WEAPON_ORDER[w], steps, cover, bool(target_moving),
                                      bool(firer_moving), 0)
    return table


class Weights(NamedTuple):
    """How a computer player weighs a place: the fire it draws, cover within reach, each
    inch nearer its goal, standing in its goal."""

    risk: float
    shelter: float
    progress: float
    holding: float


def harm_and_risk(sight: SightEngine, weapon: WeaponName, places: PositionArrays,
                  moved: FloatArray, enemies: PositionArrays, weapons: list[WeaponName],
                  move_normal: float) -> tuple[FloatArray, FloatArray]:
    """For each place: the best chance a figure with `weapon` has to remove an enemy it
    sees from there (none after a run of more than `move_normal`), and the sum of the
    chances of the enemies that see it to remove it (no cover while running)."""
    covers, seen = cover_map(sight), sight.visible_matrix_arrays(places, enemies)
    their_weapons = weapon_codes(weapons)

    def run() -> tuple[FloatArray, FloatArray, int]:
        found: tuple[FloatArray, FloatArray, int] = _harm_and_risk(
            places.xy, places.section, places.floor, moved, enemies.xy, enemies.section,
            enemies.floor, seen, covers.grid, WEAPON_INDEX[weapon], their_weapons, INCREMENT,
            odds_table(), move_normal)
        return found

    harm, risk, unknown = run()
    if unknown:
        covers = covers.ensure(sight, places, enemies)
        harm, risk, _ = run()
    return harm, risk


def weapon_codes(weapons: list[WeaponName]) -> IntArray:
    """Weapons as the kernels number them."""
    return np.array([WEAPON_INDEX[w] for w in weapons], dtype=np.int64)


def place_values(sight: SightEngine, weapon: WeaponName, start: Position,
                 places: PositionArrays, enemies: PositionArrays, their_weapons: IntArray,
                 move_normal: float, goal: tuple[FloatArray, float] | None,
                 weights: Weights) -> FloatArray:
    """How good each place is for a figure with `weapon` moving there from `start`: the
    harm it can do there less `weights.risk` times the fire it draws, plus shelter for
    cover within reach and, when `goal` gives each place's distance to the goal and the
    distance from `start`, progress for every inch nearer and holding for being in it."""
    covers, seen = cover_map(sight), sight.visible_matrix_arrays(places, enemies)
    left, left_here = goal if goal is not None else (np.empty(0), 0.0)

    def run() -> tuple[FloatArray, int]:
        found: tuple[FloatArray, int] = _place_values(
            places.xy, places.section, places.floor, start.x, start.y, enemies.xy,
            enemies.section, enemies.floor, seen, covers.grid, WEAPON_INDEX[weapon],
            their_weapons, INCREMENT, odds_table(), move_normal, _reach_grid_of(sight), left,
            left_here, weights)
        return found

    values, unknown = run()
    if unknown:  # a cell the map's fill did not reach: work it out, then weigh again
        covers = covers.ensure(sight, places, enemies)
        values, _ = run()
    return values


def values_around(sight: SightEngine, weapon: WeaponName, start: Position, offset: float,
                  steps: FloatArray, headings: int, extra: FloatArray, enemies: PositionArrays,
                  their_weapons: IntArray, move_normal: float, goal: DistanceField | None,
                  left_here: float, weights: Weights) -> tuple[PositionArrays, FloatArray]:
    """The candidate places round a figure (`SightEngine.places_around`) and how good each
    is (`place_values`, with `goal`'s distances and the figure's own, `left_here`), in
    one compiled call where the goal allows: a move decision's whole arithmetic."""
    arrays = goal.as_arrays() if goal is not None else NO_GOAL
    if arrays is None:  # a goal only Python can test: one step at a time
        places = sight.places_around(start, offset, steps, headings, extra)
        return places, place_values(sight, weapon, start, places, enemies, their_weapons,
                                    move_normal, _goal_part(goal, places, left_here), weights)
    table = sight.battlefield.table
    covers = cover_map(sight)
    dist, step, goal_sections = arrays
    xy, section, floor, values, unknown = _values_around(
        float(start.x), float(start.y), sight.section_index(start.section), int(start.floor),
        offset, steps, headings, float(table.width), float(table.height), extra,
        sight.kernel_tables, enemies.xy, enemies.section, enemies.floor, covers.grid,
        WEAPON_INDEX[weapon], their_weapons, INCREMENT, odds_table(), move_normal,
        _reach_grid_of(sight), dist, step, goal_sections, left_here, weights)
    places = PositionArrays(xy, section, floor)
    if unknown:  # a cell the map's fill did not reach: weighed again the long way
        values = place_values(sight, weapon, start, places, enemies, their_weapons,
                              move_normal, _goal_part(goal, places, left_here), weights)
    return places, values


def _goal_part(goal: DistanceField | None, places: PositionArrays,
               left_here: float) -> tuple[FloatArray, float] | None:
    """`place_values`' goal argument: the places' distances to the goal, and the figure's."""
    return (goal.distances(places), left_here) if goal is not None else None


#: `DistanceField.as_arrays` of no goal at all
NO_GOAL: tuple[FloatArray, float, BoolArray] = (np.empty((0, 0)), 1.0,
                                                np.zeros(1, dtype=np.bool_))


@jit
def _values_around(x: float, y: float, section: int, floor: int, offset: float, steps: Any,
                   headings: int, width: float, height: float, extra: Any, t: Any, exy: Any,
                   esec: Any, efl: Any, grid: Any, weapon: int, their_weapons: Any,
                   increment: Any, table: Any, move_normal: float, reach: Any, dist: Any,
                   step: float, goal_sections: Any, left_here: float, weights: Any) -> Any:
    pxy, psec, pfl = places_around_kernel(x, y, section, floor, offset, steps, headings,
                                          width, height, extra, t)
    seen = visible_matrix_kernel(pxy, psec, pfl, exy, esec, efl, t)
    if dist.shape[0] > 0:
        left = goal_distances(dist, step, goal_sections, pxy, psec)
    else:
        left = np.empty(0)
    values, unknown = _place_values(pxy, psec, pfl, x, y, exy, esec, efl, seen, grid, weapon,
                                    their_weapons, increment, table, move_normal, reach, left,
                                    left_here, weights)
    return pxy, psec, pfl, values, unknown


@jit
def _cover_pairs(grid: Any, axy: Any, asec: Any, afloor: Any, bxy: Any) -> Any:
    """The cover map's entries for every pair, and how many of them are not known yet."""
    n, m = axy.shape[0], bxy.shape[0]
    out = np.empty((n, m), dtype=np.int64)
    unknown = 0
    for a in range(n):
        for b in range(m):
            out[a, b] = _cover_at(grid, axy[a, 0], axy[a, 1], asec[a], afloor[a],
                                  bxy[b, 0], bxy[b, 1])
            if out[a, b] == UNKNOWN:
                unknown += 1
    return out, unknown


@jit_inline
def _cover_at(grid: Any, x: float, y: float, section: int, floor: int, fx: float,
              fy: float) -> int:
    """The cover map's cell for a figure at (x, y) in `section` on `floor` against fire
    from (fx, fy)."""
    fl = min(max(floor, 0), grid.shape[1] - 1)
    i = min(max(int(x), 0), grid.shape[2] - 1)
    j = min(max(int(y), 0), grid.shape[3] - 1)
    turn = np.arctan2(fy - y, fx - x) / (2 * np.pi)
    sector = int(np.floor(turn * SECTORS + 0.5)) % SECTORS
    return int(grid[section + 1, fl, i, j, sector])


@jit
def _steps(distance: float, increment: float) -> int:
    return min(int(np.ceil(round(distance / increment, 9))), MAX_STEPS)


@jit
def _harm_and_risk(pxy: Any, psec: Any, pfl: Any, moved: Any, exy: Any, esec: Any, efl: Any,
                   seen: Any, grid: Any, weapon: int, their_weapons: Any, increment: Any,
                   table: Any, move_normal: float) -> Any:
    n = pxy.shape[0]
    harm = np.zeros(n)
    risk = np.zeros(n)
    unknown = 0
    for a in range(n):
        harm[a], risk[a], missing = _harm_and_risk_at(
            a, pxy, psec, pfl, moved[a], exy, esec, efl, seen, grid, weapon, their_weapons,
            increment, table, move_normal)
        unknown += missing
    return harm, risk, unknown


@jit_inline
def _harm_and_risk_at(a: int, pxy: Any, psec: Any, pfl: Any, moved: float, exy: Any,
                      esec: Any, efl: Any, seen: Any, grid: Any, weapon: int,
                      their_weapons: Any, increment: Any, table: Any,
                      move_normal: float) -> Any:
    """Harm and risk at place a, and how many cover cells it needed that are unknown
    (then the values are not to be used)."""
    running = moved > move_normal
    moving = 1 if moved > 0 else 0
    harm = 0.0
    risk = 0.0
    unknown = 0
    x, y = pxy[a, 0], pxy[a, 1]
    for b in range(exy.shape[0]):
        if not seen[a, b]:
            continue
        theirs = _cover_at(grid, exy[b, 0], exy[b, 1], esec[b], efl[b], x, y)
        mine = _cover_at(grid, x, y, psec[a], pfl[a], exy[b, 0], exy[b, 1])
        if theirs == UNKNOWN or mine == UNKNOWN:
            unknown += 1
            continue
        gap = np.hypot(x - exy[b, 0], y - exy[b, 1])
        if not running:
            steps = _steps(gap, increment[weapon])
            harm = max(harm, table[weapon, steps, theirs, 0, moving])
        w = their_weapons[b]
        cover = 0 if running else mine
        risk += table[w, _steps(gap, increment[w]), cover, moving, 0]
    return harm, risk, unknown


@jit
def _place_values(pxy: Any, psec: Any, pfl: Any, fx: float, fy: float, exy: Any, esec: Any,
                  efl: Any, seen: Any, grid: Any, weapon: int, their_weapons: Any,
                  increment: Any, table: Any, move_normal: float, reach: Any, left: Any,
                  left_here: float, weights: Any) -> Any:
    n = pxy.shape[0]
    out = np.empty(n)
    unknown = 0
    for a in range(n):
        moved = np.hypot(pxy[a, 0] - fx, pxy[a, 1] - fy)
        harm, risk, missing = _harm_and_risk_at(
            a, pxy, psec, pfl, moved, exy, esec, efl, seen, grid, weapon, their_weapons,
            increment, table, move_normal)
        unknown += missing
        value = harm - weights[0] * risk
        value += weights[1] * (1.0 if _reach_at(reach, pxy[a, 0], pxy[a, 1], psec[a]) else 0.0)
        if left.shape[0]:
            value += weights[2] * (left_here - left[a])
            value += weights[3] * (1.0 if left[a] == 0 else 0.0)
        out[a] = value
    return out, unknown
