"""The map as House-Clearing reads it, worked out once per scenario: how much of a figure
shows from where another stands (the body model), and what ground a move crosses.

How much shows: each stance is a stack of body bands (tables.PROFILES). The *screen* in
front of a target is the highest of
- the obstacles (walls, hedges, fences) the line of fire crosses within COVER_REACH of it,
  unless the firer is on a higher floor (plunging fire clears them);
- the sill of the opening the line of fire comes through into the target's room, when the
  firer is not in that room (a window's sill, none for a door).
A band shows when its middle is above the screen. A leaning figure seen from outside its
room shows its first LEANING_SHOWS bands at most.
"""

from __future__ import annotations

from bisect import bisect_right
from copy import copy, deepcopy
from dataclasses import dataclass
from itertools import pairwise
from math import hypot
from typing import Any

import numpy as np
import numpy.typing as npt

from fibua.battlefield.geometry import hit_distances, jit
from fibua.battlefield.model import OpeningKind, Position, TerrainKind
from fibua.battlefield.sight import (
    SightEngine,
    distance_to_row,
    last_ring_covering,
    locate_in,
    meets_row,
)
from fibua.rulesets.house_clearing.forces import Options
from fibua.rulesets.house_clearing.tables import (
    COVER_REACH,
    DOOR_SILL,
    LEAN_REACH,
    LEANING_SHOWS,
    MOVE_INSIDE,
    MOVE_RATE,
    OPENING_REACH,
    PROFILES,
    SLIT_SILL,
    Stance,
)
from fibua.scenario.schema import Scenario

FloatArray = npt.NDArray[np.float64]
Segment = tuple[tuple[float, float], tuple[float, float]]


def _rows(segments: list[Segment]) -> FloatArray:
    return np.array([(*a, *b) for a, b in segments], dtype=np.float64).reshape(-1, 4)


def _middles(bands: tuple[tuple[float, float], ...], height: float) -> tuple[float, ...]:
    return tuple(sorted((low + top) / 2 * height for low, top in bands))


def point_segment_distance(p: tuple[float, float], seg: Segment) -> float:
    (ax, ay), (bx, by) = seg
    dx, dy = bx - ax, by - ay
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / span))
    return hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


@dataclass(frozen=True, slots=True)
class OpeningRows:
    """The openings of one building on one floor, as segment rows with their sills."""

    segs: FloatArray
    sills: tuple[float, ...]
    kinds: tuple[OpeningKind, ...]
    sections: tuple[str, ...]
    sill_array: FloatArray


_EMPTY_ROWS = OpeningRows(np.zeros((0, 4)), (), (), (), np.zeros(0))


@jit
def _screen(vx: float, vy: float, tx: float, ty: float, obstacles: Any, heights: Any,
            use_obstacles: bool, openings: Any, sills: Any, reach: float) -> Any:
    """(highest obstacle crossed within `reach` of the target, sill of the opening crossed
    nearest the target or -1 when none is crossed)."""
    # `hit_distances` row by row, without an array for them: asked for every pair a
    # computer weighs
    length = np.sqrt((tx - vx) ** 2 + (ty - vy) ** 2)
    high = 0.0
    if use_obstacles:
        for k in range(obstacles.shape[0]):
            if meets_row(vx, vy, tx, ty, obstacles, k):
                d = distance_to_row(vx, vy, tx, ty, obstacles, k)
                if d >= 0.0 and length - d <= reach and heights[k] > high:
                    high = heights[k]
    sill = -1.0
    far = -1.0
    for k in range(openings.shape[0]):
        if meets_row(vx, vy, tx, ty, openings, k):
            d = distance_to_row(vx, vy, tx, ty, openings, k)
            if d > far:
                far = d
                sill = sills[k]
    return high, sill


@jit
def leg_share_kernel(ax: float, ay: float, bx: float, by: float, length: float,
                     sections: Any, ground: Any) -> float:
    """`MapGeometry.leg_share` of a leg of `length` (> 0) in one compiled call: the same
    cuts, the same midpoints and paces, summed in the same order. `sections` is the sight
    engine's `section_tables`, `ground` the geometry's (see `MapGeometry.ground`)."""
    boundaries, ring_x, ring_y, ring_start, ring_boxes, ring_rates, paces = ground
    dist = hit_distances(ax, ay, bx, by, boundaries)
    cuts = np.empty(dist.shape[0] + 2)
    cuts[0], cuts[1] = 0.0, length
    n = 2
    for k in range(dist.shape[0]):
        if dist[k] > 0.0 and dist[k] < length:
            cuts[n] = dist[k]
            n += 1
    cuts = np.sort(cuts[:n])
    share = 0.0
    lo = cuts[0]
    for k in range(1, n):
        hi = cuts[k]
        if hi == lo:
            continue  # the same cut twice (a set in Python)
        t = (lo + hi) / 2 / length
        x, y = ax + (bx - ax) * t, ay + (by - ay) * t
        if locate_in(x, y, False, sections) >= 0:
            rate = paces[1]
        else:
            r = last_ring_covering(x, y, ring_x, ring_y, ring_start, ring_boxes)
            rate = paces[0] if r < 0 else ring_rates[r]
        share += (hi - lo) / rate
        lo = hi
    return share


#: what `paced_over_kernel` and `ground_refusal_kernel` answer when a measure is too near
#: a limit to tell
UNTOLD = -1
#: how near a limit a measure made with plain square roots leaves the answer untold: far
#: more than the last bit by which they may differ from Python's `hypot`
HYPOT_MARGIN = 1e-9


@jit
def paced_over_kernel(xs: Any, ys: Any, lengths: Any, budget: float, margin: float,
                      sections: Any, ground: Any) -> int:
    """Whether a path passes `budget` of a move at some leg (1, else 0): the legs from
    (xs[k], ys[k]) to (xs[k + 1], ys[k + 1]), of `lengths[k]`, paid as `leg_share_kernel`
    pays them and added up in order (see `MapGeometry.paced_over`); UNTOLD when the sum
    comes within `margin` of the budget first (never, with a margin of nought)."""
    paced = 0.0
    for k in range(lengths.shape[0]):
        share = 0.0
        if lengths[k] != 0.0:
            share = leg_share_kernel(xs[k], ys[k], xs[k + 1], ys[k + 1], lengths[k], sections,
                                     ground)
        if abs(paced + share - budget) < margin:
            return UNTOLD
        if paced + share > budget:
            return 1
        paced += share
    return 0


@jit
def ground_refusal_kernel(x: float, y: float, xy: Any, width: float, height: float,
                          reach: float, short: float, budget: float, sections: Any,
                          ground: Any) -> int:
    """Whether a path from (x, y) through the rows of `xy` is refused on the ground alone:
    0 when a point is off the table (that is for the full check to say) or the path is
    shorter than `short`; 1 when it is longer than `reach`; else `paced_over_kernel`. The
    legs are measured with plain square roots: a measure within `HYPOT_MARGIN` of a limit
    answers UNTOLD, for Python to settle with its own `hypot`."""
    n = xy.shape[0]
    xs, ys, lengths = np.empty(n + 1), np.empty(n + 1), np.empty(n)
    xs[0], ys[0] = x, y
    total = 0.0
    for k in range(n):
        px, py = xy[k, 0], xy[k, 1]
        if not (0 <= px <= width and 0 <= py <= height):
            return 0
        xs[k + 1], ys[k + 1] = px, py
        lengths[k] = np.sqrt((px - xs[k]) * (px - xs[k]) + (py - ys[k]) * (py - ys[k]))
        total += lengths[k]
    if abs(total - reach) < HYPOT_MARGIN or abs(total - short) < HYPOT_MARGIN:
        return UNTOLD
    if total > reach:
        return 1
    if total < short:
        return 0
    found: int = paced_over_kernel(xs, ys, lengths, budget, HYPOT_MARGIN, sections, ground)
    return found


class MapGeometry:
    """Per-scenario geometry: obstacle and opening rows, boundaries that change the pace
    of a move, and the body model's numbers. Its users (the rules of a game, each side's
    players) each read it through their own fork of the sight engine (`bind`)."""

    def __init__(self, scenario: Scenario, sight: SightEngine, options: Options) -> None:
        field = scenario.battlefield
        self.sight = sight
        self.height = options.figure_height
        self.sills = {OpeningKind.DOOR: DOOR_SILL, OpeningKind.WINDOW: options.window_sill,
                      OpeningKind.SLIT: SLIT_SILL}
        obstacle_rows: list[Segment] = []
        heights: list[float] = []
        for obstacle in field.obstacles:
            for a, b in pairwise(obstacle.points):
                obstacle_rows.append((a, b))
                heights.append(obstacle.height)
        self.obstacle_segs = _rows(obstacle_rows)
        self.obstacle_heights = np.array(heights, dtype=np.float64)
        self.building_of = {s.id: b.id for b in field.buildings for s in b.sections}
        # the middles of each stance's bands in inches, low to high (for counting)
        self._mids = {st: _middles(bands, self.height) for st, bands in PROFILES.items()}
        self._mids_outside = dict(self._mids)
        self._mids_outside[Stance.LEANING] = _middles(
            PROFILES[Stance.LEANING][:LEANING_SHOWS], self.height)
        self._lean_memo: dict[tuple[float, float, str | None, int], bool] = {}
        self._openings = self._opening_rows(scenario)
        self.boundaries = self._boundary_rows(scenario)
        # what `leg_share_kernel` reads: the boundaries, the terrain areas (as
        # `last_ring_covering` counts them) with their paces, the open's and the inside's
        rates = np.array([MOVE_RATE[area.kind] for area in field.terrain], dtype=np.float64)
        self.ground = (self.boundaries, *sight.terrain_tables, rates,
                       np.array([MOVE_RATE[TerrainKind.OPEN], MOVE_INSIDE]))

    def __deepcopy__(self, memo: dict[int, Any]) -> MapGeometry:
        """A copy of a game's state binds its geometry to the copy's fork of the engine;
        the rows and numbers of the map are shared."""
        sight = deepcopy(self.sight, memo)
        return self.bind(sight, umpire=sight.umpire)

    def bind(self, sight: SightEngine, umpire: bool = False) -> MapGeometry:
        """This geometry reading `sight` (a fork of the engine of the same map), with a
        memo of its own: the rows and numbers are shared, what one user asks is not. The
        umpire's (the rules of every game) pool theirs in this geometry's own memo."""
        twin = copy(self)
        twin.sight = sight
        twin._lean_memo = self._lean_memo if umpire else {}
        return twin

    # -- construction --------------------------------------------------------------------

    def _opening_rows(self, scenario: Scenario) -> dict[tuple[str, int], OpeningRows]:
        found: dict[tuple[str, int], list[tuple[Segment, OpeningKind, str]]] = {}
        for building in scenario.battlefield.buildings:
            for section in building.sections:
                for opening in section.openings:
                    key = (building.id, opening.floor)
                    found.setdefault(key, []).append(
                        (section.opening_segment(opening), opening.kind, section.id))
        return {
            key: OpeningRows(_rows([s for s, _, _ in rows]),
                             tuple(self.sills[k] for _, k, _ in rows),
                             tuple(k for _, k, _ in rows), tuple(sid for _, _, sid in rows),
                             np.array([self.sills[k] for _, k, _ in rows], dtype=np.float64))
            for key, rows in found.items()
        }

    def _boundary_rows(self, scenario: Scenario) -> FloatArray:
        field = scenario.battlefield
        rings = [area.polygon for area in field.terrain]
        rings += [field.section(sid).footprint for sid in field.section_ids]
        segments: list[Segment] = []
        for ring in rings:
            n = len(ring)
            segments += [(ring[i], ring[(i + 1) % n]) for i in range(n)]
        return _rows(segments)

    # -- how much of a figure shows ------------------------------------------------------

    def screen(self, viewer: Position, target: Position) -> float:
        """Height, inches above the target's floor, of what hides it from the viewer."""
        rows = _EMPTY_ROWS
        if target.section is not None and viewer.section != target.section:
            rows = self._openings.get((self.building_of[target.section], target.floor),
                                      _EMPTY_ROWS)
        plunging = viewer.floor > target.floor
        high, sill = _screen(float(viewer.x), float(viewer.y), float(target.x),
                             float(target.y), self.obstacle_segs, self.obstacle_heights,
                             not plunging, rows.segs, rows.sill_array, COVER_REACH)
        if sill < 0 and rows is not _EMPTY_ROWS:
            # no opening crossed: a figure on the threshold stands in its nearest opening
            near = self.opening_near(target, OPENING_REACH)
            sill = self.sills[near] if near is not None else 0.0
        return max(float(high), float(sill))

    def fifths(self, viewer: Position, target: Position, stance: Stance) -> int:
        """Fifths of the target's body the viewer can see (line of sight assumed)."""
        outside = target.section is not None and viewer.section != target.section
        return self.fifths_behind(self.screen(viewer, target), stance, outside)

    def fifths_behind(self, screen: float, stance: Stance, from_outside: bool) -> int:
        """Bands of a stance whose middle is above a screen; a leaning figure seen from
        outside its room shows its first bands only."""
        mids = self._mids_outside[stance] if from_outside else self._mids[stance]
        return len(mids) - bisect_right(mids, screen)

    def mutual(self, a: Position, a_stance: Stance, b: Position,
               b_stance: Stance) -> tuple[int, int]:
        """(fifths of b that a sees, fifths of a that b sees) when they see each other:
        a figure that shows nothing sees nothing over its screen either. (0, 0) else."""
        if not self.sight.visible(a, b):
            return 0, 0
        return self.mutual_in_sight(a, a_stance, b, b_stance)

    def mutual_in_sight(self, a: Position, a_stance: Stance, b: Position,
                        b_stance: Stance) -> tuple[int, int]:
        of_b = self.fifths(a, b, b_stance)
        of_a = self.fifths(b, a, a_stance) if of_b else 0
        return (of_b, of_a) if of_b and of_a else (0, 0)

    # -- openings ------------------------------------------------------------------------

    def opening_near(self, pos: Position, reach: float,
                     kinds: frozenset[OpeningKind] | None = None) -> OpeningKind | None:
        """The kind of the nearest opening of the figure's own room on its floor within
        `reach`, if any."""
        if pos.section is None:
            return None
        rows = self._openings.get((self.building_of[pos.section], pos.floor))
        if rows is None:
            return None
        best: tuple[float, OpeningKind] | None = None
        for k, row in enumerate(rows.segs):
            if rows.sections[k] != pos.section or (kinds and rows.kinds[k] not in kinds):
                continue
            d = point_segment_distance(pos.point, ((row[0], row[1]), (row[2], row[3])))
            if d <= reach and (best is None or d < best[0]):
                best = (d, rows.kinds[k])
        return None if best is None else best[1]

    def can_lean(self, pos: Position) -> bool:
        key = (pos.x, pos.y, pos.section, pos.floor)
        if key not in self._lean_memo:
            if len(self._lean_memo) > 100_000:
                self._lean_memo.clear()
            self._lean_memo[key] = self.opening_near(
                pos, LEAN_REACH, frozenset({OpeningKind.DOOR, OpeningKind.WINDOW})) is not None
        return self._lean_memo[key]

    # -- ground --------------------------------------------------------------------------

    def rate_at(self, x: float, y: float) -> float:
        """Inches a whole move covers at a point."""
        if self.sight.section_at((x, y)) is not None:
            return MOVE_INSIDE
        return MOVE_RATE[self.sight.terrain_at((x, y))]

    def leg_share(self, a: Position, b: Position) -> float:
        """Share of a whole move a straight leg takes: the leg is cut where it crosses the
        edge of a terrain area or building, and each piece is paid at its own pace."""
        length = hypot(b.x - a.x, b.y - a.y)
        if length == 0.0:
            return 0.0
        share: float = leg_share_kernel(float(a.x), float(a.y), float(b.x), float(b.y),
                                        length, self.sight.section_tables, self.ground)
        return share

    def paced_over(self, start: Position, points: list[tuple[float, float]],
                   budget: float) -> bool:
        """Whether the path from `start` through `points` passes `budget` of a move at
        some leg, each leg paid at `leg_share` and the shares added up in order: one
        compiled call for the whole path."""
        xs, ys, lengths = [float(start.x)], [float(start.y)], []
        x0, y0 = start.x, start.y
        for x, y in points:
            lengths.append(hypot(x - x0, y - y0))  # as `leg_share` measures the leg
            xs.append(float(x))
            ys.append(float(y))
            x0, y0 = x, y
        over = paced_over_kernel(np.array(xs), np.array(ys), np.array(lengths), budget, 0.0,
                                 self.sight.section_tables, self.ground)
        return bool(over == 1)

    def ground_refusal(self, start: Position, xy: FloatArray, reach: float, short: float,
                       budget: float) -> int:
        """`ground_refusal_kernel` of a path from `start` through the rows of `xy`."""
        table = self.sight.battlefield.table
        found: int = ground_refusal_kernel(float(start.x), float(start.y), xy,
                                           float(table.width), float(table.height), reach,
                                           short, budget, self.sight.section_tables,
                                           self.ground)
        return found

    def leg_share_slow(self, a: Position, b: Position) -> float:
        """`leg_share` in plain Python, one piece at a time (what the kernel must match)."""
        length = hypot(b.x - a.x, b.y - a.y)
        if length == 0.0:
            return 0.0
        dist = hit_distances(float(a.x), float(a.y), float(b.x), float(b.y), self.boundaries)
        inner = dist[(dist > 0.0) & (dist < length)]
        cuts = sorted({0.0, length, *inner.tolist()})
        share = 0.0
        for lo, hi in pairwise(cuts):
            t = (lo + hi) / 2 / length
            share += (hi - lo) / self.rate_at(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
        return share


def map_geometry(scenario: Scenario, sight: SightEngine, options: Options) -> MapGeometry:
    """The geometry of the scenario and options for the rules of a game, reading `sight`
    (the game's umpire fork): worked out once and shared by its games (the map never
    changes); each side's players bind it to their own fork."""
    key = f"house-clearing-geometry-{options.figure_height!r}-{options.window_sill!r}"
    memo = scenario.memo
    if key not in memo:
        memo[key] = MapGeometry(scenario, sight.fork(), options)  # a fork no one asks
    found: MapGeometry = memo[key]
    return found.bind(sight, umpire=True)
