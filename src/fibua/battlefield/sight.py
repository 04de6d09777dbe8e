"""Line of sight, ranges and movement checks on a battlefield.

Semantics (the Shapely oracle in `reference.py` implements the same rules one pair at a
time; the two must agree exactly on every input):

Sight from A to B is tested along the closed 2D segment AB. "A in S" means
``A.section == S.id``; floors count from 0 (ground).

1. Sections that are INTACT or BURNING block; RUBBLE sections are ignored entirely (they
   block nothing and a figure in one is simply on the rubble).
2. For each non-rubble section S:
   * neither endpoint in S: blocked if AB meets S's closed footprint polygon at all, even
     just touching a corner, or lying inside it;
   * exactly one endpoint in S (say A): blocked if S is BURNING; otherwise blocked if AB
     meets a *solid piece* of S's walls on A's floor. A wall's solid pieces are the closed
     sub-segments left after cutting out the openings on that floor (see
     `geometry.solid_pieces`); an opening of a section of the same building lying on S's
     wall counts as S's own (inside doors open both sides). Grazing a jamb is blocked. A
     figure on an accessible flat roof (floor == S.floors) has no walls around it; on a
     floor the section does not have, no wall has openings;
   * both endpoints in S: blocked unless S is INTACT and both are on the same floor; and,
     which only matters for concave (L-shaped) footprints, AB must not meet a solid piece
     of S's walls on that floor either.
3. Obstacles that block sight (high walls, hedges) block if AB meets their polyline, unless
   either endpoint is on floor >= 1. Low walls and fences never block sight.

Tolerance policy: none. Every "does it meet" question is answered with exact predicates on
the float64 coordinates as given (a float filter, then exact expansion arithmetic when the
filter is unsure), so touching counts as meeting, to the last bit. Shapely/GEOS answers the
same questions with double-double arithmetic, which agrees unless one test mixes
coordinates more than ~2**50 apart in magnitude (say 1e-169 next to 0.75), never on a
table. Numbers that are reported (distances, firing points) use plain float arithmetic.

The engine flattens walls and sight-blocking obstacles into arrays, buckets them in a
uniform grid, walks the cells along each segment from A towards B and stops at the first
blocking edge, in numba-compiled loops. Moves walk the same grid (`move_blocked`), judging
each wall met against its solid pieces for doors, or doors and windows, on the floor that
counts for that wall, all worked out when the engine is built.

Building an engine is the costly part; `fork` makes another engine on the same map for a
fraction of a millisecond. A fork shares what is a pure function of the map (the arrays,
the kernel tables, the whole-map store `shared`) and has its own section states, scratch
array, and memo of answers about places (`memo`), so one user of a map (the rules of a
game, one side's players) cannot read through its engine what another asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import update_wrapper
from math import ceil, hypot, sqrt
from operator import attrgetter
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from fibua.battlefield.geometry import (
    SolidWalls,
    hit_distances,
    jit,
    jit_inline,
    meeting_distance,
    nearest_hit,
    nearest_hits_by_owner,
    point_in_ring,
    segments_intersect,
)
from fibua.battlefield.model import (
    Battlefield,
    Obstacle,
    ObstacleKind,
    OpeningKind,
    Point,
    Position,
    SectionState,
    TerrainKind,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_STATE_CODE = {SectionState.INTACT: 0, SectionState.BURNING: 1, SectionState.RUBBLE: 2}
_STATE_OF_CODE = {code: state for state, code in _STATE_CODE.items()}
_INTACT, _BURNING, _RUBBLE = 0, 1, 2
_WALL, _OBSTACLE = 0, 1

_MOVE_KINDS = frozenset({OpeningKind.DOOR})
_MOVE_KINDS_WINDOWS = frozenset({OpeningKind.DOOR, OpeningKind.WINDOW})
# The order of the blocks of move pieces `_move_blocked` reads: through_windows picks one.
_MOVE_KIND_SETS = (_MOVE_KINDS, _MOVE_KINDS_WINDOWS)


@dataclass(frozen=True, slots=True)
class WallCrossing:
    """A straight move meeting a wall of `section_id`, `distance` from its start.
    `opening` is the kind of opening passed through, None when the wall is solid there."""

    section_id: str
    wall: int
    distance: float
    opening: OpeningKind | None


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Result of `SightEngine.move_check`.

    `crosses_wall` is True when the move goes through a solid wall (anywhere but a door, or
    a window when allowed). `walls` lists every wall met, `obstacles` every linear
    obstacle crossed with the distance along the move, both nearest first.
    """

    crosses_wall: bool
    walls: tuple[WallCrossing, ...]
    obstacles: tuple[tuple[Obstacle, float], ...]


@dataclass(frozen=True, slots=True)
class PositionArrays:
    """Positions as parallel arrays: xy (n, 2), section index (-1 outside) and floor."""

    xy: FloatArray
    section: IntArray
    floor: IntArray


# --------------------------------------------------------------------------------------
# Compiled kernels
# --------------------------------------------------------------------------------------

# The engine hands its flattened battlefield to the kernels as one tuple (one argument to
# unbox per call instead of twenty); these are the positions in it.
STATE, GRID, NX, NY, CELL_START, CELL_ITEMS = 0, 1, 2, 3, 4, 5
EDGES, EDGE_BOX, EDGE_KIND, EDGE_OWNER, EDGE_LEVELS, PIECE_BASE = 6, 7, 8, 9, 10, 11
PIECE_START, PIECES, SEC_CELL_START, SEC_CELL_ITEMS = 12, 13, 14, 15
RING_X, RING_Y, RING_START, STAMP = 16, 17, 18, 19


@jit_inline
def _cell_of(v: float, origin: float, inv_cell: float, n: int) -> int:
    c = int(np.floor((v - origin) * inv_cell))
    return min(max(c, 0), n - 1)


@jit_inline
def _clip_to_box(
    ax: float, ay: float, bx: float, by: float, x0: float, y0: float, x1: float, y1: float
) -> tuple[bool, float, float]:
    # Liang-Barsky: the parameter range of ab inside the box, or False when it misses.
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0.0:
            if q < 0.0:
                return False, 0.0, 0.0
        else:
            r = q / p
            if p < 0.0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
    return t0 <= t1, t0, t1


@jit_inline
def _walk_start(ax: float, ay: float, bx: float, by: float, grid: Any, nx: int, ny: int) -> Any:
    """Grid traversal state for segment ab: (ok, i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy).

    Cells are visited from a's end; the part of ab off the grid holds no edges. Edges are
    bucketed with padding, so the float rounding of this walk can never skip one.
    """
    gx0, gy0, cell, inv_cell = grid[0], grid[1], grid[2], grid[3]
    ok, t0, t1 = _clip_to_box(ax, ay, bx, by, gx0, gy0, gx0 + nx * cell, gy0 + ny * cell)
    dx, dy = bx - ax, by - ay
    i = _cell_of(ax + t0 * dx, gx0, inv_cell, nx)
    j = _cell_of(ay + t0 * dy, gy0, inv_cell, ny)
    i1 = _cell_of(ax + t1 * dx, gx0, inv_cell, nx)
    j1 = _cell_of(ay + t1 * dy, gy0, inv_cell, ny)
    inf = np.inf
    tdx = cell / abs(dx) if dx != 0.0 else inf
    tdy = cell / abs(dy) if dy != 0.0 else inf
    # Parameter along ab at which it crosses the next vertical / horizontal cell line.
    tmx = (gx0 + (i + (1 if dx > 0 else 0)) * cell - ax) / dx if dx != 0.0 else inf
    tmy = (gy0 + (j + (1 if dy > 0 else 0)) * cell - ay) / dy if dy != 0.0 else inf
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    return ok, i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy


@jit_inline
def _walk_step(
    i: int,
    j: int,
    i1: int,
    j1: int,
    sx: int,
    sy: int,
    tmx: float,
    tmy: float,
    tdx: float,
    tdy: float,
) -> tuple[int, int, float, float]:
    # Once one axis has reached the end cell only the other moves, so float ties at cell
    # corners can never overshoot.
    if i == i1:
        return i, j + sy, tmx, tmy + tdy
    if j == j1 or tmx < tmy:
        return i + sx, j, tmx + tdx, tmy
    return i, j + sy, tmx, tmy + tdy


@jit_inline
def meets_row(ax: float, ay: float, bx: float, by: float, segs: Any, k: int) -> bool:
    """Whether segment ab meets row k (x0, y0, x1, y1) of `segs` (exact)."""
    return segments_intersect(ax, ay, bx, by, segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3])


@jit_inline
def distance_to_row(ax: float, ay: float, bx: float, by: float, segs: Any, k: int) -> float:
    """The distance from a along ab to where it meets row k of `segs`, known to meet."""
    return meeting_distance(ax, ay, bx, by, segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3])


@jit_inline
def _box_misses(e: int, minx: float, miny: float, maxx: float, maxy: float, box: Any) -> bool:
    return bool(box[e, 0] > maxx or box[e, 2] < minx or box[e, 1] > maxy or box[e, 3] < miny)


@jit_inline
def _edge_blocks(
    e: int,
    ax: float,
    ay: float,
    bx: float,
    by: float,
    asec: int,
    afl: int,
    bsec: int,
    bfl: int,
    upper: bool,
    state: Any,
    edges: Any,
    kind: Any,
    owner: Any,
    levels: Any,
    piece_base: Any,
    piece_start: Any,
    pieces: Any,
) -> bool:
    if kind[e] == _OBSTACLE:
        return not upper and meets_row(ax, ay, bx, by, edges, e)
    s = owner[e]
    if state[s] == _RUBBLE:
        return False
    if s == asec:
        f = afl
    elif s == bsec:
        f = bfl
    else:
        return meets_row(ax, ay, bx, by, edges, e)  # not in it: the whole wall blocks
    if f < 0 or f >= levels[e]:
        return meets_row(ax, ay, bx, by, edges, e)  # no such floor: no openings
    slot = piece_base[e] + f
    for p in range(piece_start[slot], piece_start[slot + 1]):
        if meets_row(ax, ay, bx, by, pieces, p):
            return True
    return False


@jit_inline
def _section_rules_block(
    asec: int, afl: int, ain: int, bsec: int, bfl: int, bin_: int, state: Any
) -> bool:
    # The rules that need no geometry: smoke, floors, and an endpoint standing inside a
    # section it is not in (its footprint then contains part of the segment).
    if asec >= 0:
        if state[asec] == _BURNING:
            return True
        if asec == bsec and state[asec] == _INTACT and afl != bfl:
            return True
    if bsec >= 0 and state[bsec] == _BURNING:
        return True
    if ain >= 0 and ain != asec and ain != bsec and state[ain] != _RUBBLE:
        return True
    return bin_ >= 0 and bin_ != asec and bin_ != bsec and state[bin_] != _RUBBLE


# inlined: called pair by pair in the sight kernels, where the call itself cost more than
# a short walk
@jit_inline
def _visible_one(
    ax: float,
    ay: float,
    asec: int,
    afl: int,
    ain: int,
    bx: float,
    by: float,
    bsec: int,
    bfl: int,
    bin_: int,
    token: int,
    stamp: Any,
    state: Any,
    grid: Any,
    nx: int,
    ny: int,
    cell_start: Any,
    cell_items: Any,
    edges: Any,
    box: Any,
    kind: Any,
    owner: Any,
    levels: Any,
    piece_base: Any,
    piece_start: Any,
    pieces: Any,
) -> bool:
    """Line of sight for one pair; `ain`/`bin_` are the sections strictly containing the
    endpoints. `stamp` marks edges already tested for this `token`. The tables are passed
    one by one: a tuple would be copied on every call."""
    if _section_rules_block(asec, afl, ain, bsec, bfl, bin_, state):
        return False
    upper = afl >= 1 or bfl >= 1
    ok, i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy = _walk_start(ax, ay, bx, by, grid, nx, ny)
    if not ok:
        return True
    minx, maxx = min(ax, bx), max(ax, bx)
    miny, maxy = min(ay, by), max(ay, by)
    while True:
        c = j * nx + i
        for k in range(cell_start[c], cell_start[c + 1]):
            e = cell_items[k]
            if stamp[e] == token:
                continue
            stamp[e] = token
            if _box_misses(e, minx, miny, maxx, maxy, box):
                continue
            if _edge_blocks(
                e, ax, ay, bx, by, asec, afl, bsec, bfl, upper,
                state, edges, kind, owner, levels, piece_base, piece_start, pieces,
            ):  # fmt: skip
                return False
        if i == i1 and j == j1:
            return True
        i, j, tmx, tmy = _walk_step(i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy)


@jit_inline
def _sight_tables(t: Any) -> Any:
    """The tables `_visible_one` needs, in its argument order. (Callers unpack them into
    named locals: passing `*tables` made numba's generated call measurably slower.)"""
    return (
        t[STATE], t[GRID], t[NX], t[NY], t[CELL_START], t[CELL_ITEMS], t[EDGES],
        t[EDGE_BOX], t[EDGE_KIND], t[EDGE_OWNER], t[EDGE_LEVELS], t[PIECE_BASE],
        t[PIECE_START], t[PIECES],
    )  # fmt: skip


@jit
def _locate_point(px: float, py: float, strict: bool, t: Any) -> int:
    """The first section whose footprint contains the point (strictly inside when
    `strict`, else walls included), or -1."""
    grid, nx, ny = t[GRID], t[NX], t[NY]
    c = _cell_of(py, grid[1], grid[3], ny) * nx + _cell_of(px, grid[0], grid[3], nx)
    need = 1 if strict else 0
    cell_start, cell_items = t[SEC_CELL_START], t[SEC_CELL_ITEMS]
    ring_x, ring_y, ring_start = t[RING_X], t[RING_Y], t[RING_START]
    for q in range(cell_start[c], cell_start[c + 1]):
        s = cell_items[q]
        if point_in_ring(px, py, ring_x, ring_y, ring_start[s], ring_start[s + 1]) >= need:
            return int(s)
    return -1


@jit
def _locate_in(px: float, py: float, strict: bool, s: Any) -> int:
    """`_locate_point` from `SightEngine.section_tables` alone: a call from Python hands
    over eight entries, not the twenty of the kernel tables (which cost more to pass
    than the search)."""
    grid, nx, ny = s[0], s[1], s[2]
    c = _cell_of(py, grid[1], grid[3], ny) * nx + _cell_of(px, grid[0], grid[3], nx)
    need = 1 if strict else 0
    cell_start, cell_items, ring_x, ring_y, ring_start = s[3], s[4], s[5], s[6], s[7]
    for q in range(cell_start[c], cell_start[c + 1]):
        k = cell_items[q]
        if point_in_ring(px, py, ring_x, ring_y, ring_start[k], ring_start[k + 1]) >= need:
            return int(k)
    return -1


@jit
def _locate_many(xy: Any, strict: bool, t: Any) -> Any:
    out = np.empty(xy.shape[0], dtype=np.int64)
    for k in range(xy.shape[0]):
        out[k] = _locate_point(xy[k, 0], xy[k, 1], strict, t)
    return out


@jit
def places_around_kernel(x: float, y: float, section: int, floor: int, offset: float,
                         steps: Any, headings: int, width: float, height: float, extra: Any,
                         t: Any) -> Any:
    """See `SightEngine.places_around`: the points with their sections and floors. For
    compiled callers, with the engine's `kernel_tables`."""
    xy = np.empty((headings * steps.shape[0] + 1 + extra.shape[0], 2))
    xy[0, 0], xy[0, 1] = x, y
    n = 1
    for k in range(headings):
        angle = offset + 2 * np.pi * k / headings
        for dist in steps:
            px = np.round(x + dist * np.cos(angle), 2)
            py = np.round(y + dist * np.sin(angle), 2)
            if 0 <= px <= width and 0 <= py <= height:
                xy[n, 0], xy[n, 1] = px, py
                n += 1
    for k in range(extra.shape[0]):
        xy[n, 0], xy[n, 1] = extra[k, 0], extra[k, 1]
        n += 1
    sections = np.empty(n, dtype=np.int64)
    sections[0] = section
    for k in range(1, n):
        sections[k] = _locate_point(xy[k, 0], xy[k, 1], False, t)
    floors = np.zeros(n, dtype=np.int64)
    floors[0] = floor
    return xy[:n], sections, floors


@jit
def _places_along(x: float, y: float, section: int, floor: int, ux: float, uy: float,
                  step: float, count: int, width: float, height: float, t: Any) -> Any:
    """See `SightEngine.places_along`."""
    xy = np.empty((count, 2))
    n = 0
    for k in range(1, count + 1):
        distance = k * step
        px, py = x + ux * distance, y + uy * distance
        if not (0 <= px <= width and 0 <= py <= height):
            break
        xy[n, 0], xy[n, 1] = px, py
        n += 1
    sections = np.empty(n, dtype=np.int64)
    floors = np.zeros(n, dtype=np.int64)
    for k in range(n):
        sections[k] = _locate_point(xy[k, 0], xy[k, 1], False, t)
        if sections[k] == section:
            floors[k] = floor
    return xy[:n], sections, floors


@jit
def _visible_single(
    ax: float,
    ay: float,
    asec: int,
    afl: int,
    bx: float,
    by: float,
    bsec: int,
    bfl: int,
    token: int,
    t: Any,
) -> bool:
    ain = _locate_point(ax, ay, True, t)
    bin_ = _locate_point(bx, by, True, t)
    state, grid, nx, ny, cs, ci, edges, box, kind, owner, levels, pbase, pstart, pieces = (
        _sight_tables(t)
    )
    return _visible_one(
        ax, ay, asec, afl, ain, bx, by, bsec, bfl, bin_, token, t[STAMP],
        state, grid, nx, ny, cs, ci, edges, box, kind, owner, levels, pbase, pstart, pieces,
    )  # fmt: skip


@jit_inline
def _fill_row(out: Any, ax: float, ay: float, asec: int, afl: int, ain: int, bxy: Any,
              bsec: Any, bfl: Any, bin_: Any, first_token: int, stamp: Any, t: Any) -> None:
    """One observer's sight of every target into `out`, marking edges in `stamp` with the
    tokens first_token, first_token + 1, ... (one per target)."""
    state, grid, nx, ny, cs, ci, edges, box, kind, owner, levels, pbase, pstart, pieces = (
        _sight_tables(t)
    )
    for b in range(bxy.shape[0]):
        out[b] = _visible_one(
            ax, ay, asec, afl, ain, bxy[b, 0], bxy[b, 1], bsec[b], bfl[b], bin_[b],
            first_token + b, stamp,
            state, grid, nx, ny, cs, ci, edges, box, kind, owner, levels, pbase, pstart, pieces,
        )  # fmt: skip


@jit
def _visible_row(ax: float, ay: float, asec: int, afl: int, bxy: Any, bsec: Any, bfl: Any,
                 first_token: int, t: Any) -> Any:
    """One observer's row of `visible_matrix_kernel`, marking edges with the engine's own
    stamp array from `first_token` on."""
    out = np.zeros(bxy.shape[0], dtype=np.bool_)
    _fill_row(out, ax, ay, asec, afl, _locate_point(ax, ay, True, t), bxy, bsec, bfl,
              _locate_many(bxy, True, t), first_token, t[STAMP], t)
    return out


@jit
def _visible_column(axy: Any, asec: Any, afl: Any, bx: float, by: float, bsec: int, bfl: int,
                    first_token: int, t: Any) -> Any:
    """Every observer's sight of one target: a column of `visible_matrix_kernel`, each
    pair asked from its observer as there, marking edges with the engine's own stamp array
    from `first_token` on."""
    state, grid, nx, ny, cs, ci, edges, box, kind, owner, levels, pbase, pstart, pieces = (
        _sight_tables(t)
    )
    ain = _locate_many(axy, True, t)
    bin_ = _locate_point(bx, by, True, t)
    stamp = t[STAMP]
    out = np.zeros(axy.shape[0], dtype=np.bool_)
    for a in range(axy.shape[0]):
        out[a] = _visible_one(
            axy[a, 0], axy[a, 1], asec[a], afl[a], ain[a], bx, by, bsec, bfl, bin_,
            first_token + a, stamp,
            state, grid, nx, ny, cs, ci, edges, box, kind, owner, levels, pbase, pstart, pieces,
        )  # fmt: skip
    return out


@jit
def visible_matrix_kernel(axy: Any, asec: Any, afl: Any, bxy: Any, bsec: Any, bfl: Any,
                          t: Any) -> Any:
    """See `SightEngine.visible_matrix_arrays`. For compiled callers, with the engine's
    `kernel_tables`."""
    n, m = axy.shape[0], bxy.shape[0]
    ain = _locate_many(axy, True, t)
    bin_ = _locate_many(bxy, True, t)
    out = np.zeros((n, m), dtype=np.bool_)
    stamp = np.zeros(t[EDGES].shape[0], dtype=np.int64)
    for a in range(n):
        _fill_row(out[a], axy[a, 0], axy[a, 1], asec[a], afl[a], ain[a], bxy, bsec, bfl, bin_,
                  a * m + 1, stamp, t)
    return out


@jit
def _visible_pairs(axy: Any, asec: Any, afl: Any, bxy: Any, bsec: Any, bfl: Any, t: Any) -> Any:
    n = axy.shape[0]
    ain = _locate_many(axy, True, t)
    bin_ = _locate_many(bxy, True, t)
    out = np.zeros(n, dtype=np.bool_)
    stamp = np.zeros(t[EDGES].shape[0], dtype=np.int64)
    state, grid, nx, ny, cs, ci, edges, box, kind, owner, levels, pbase, pstart, pieces = (
        _sight_tables(t)
    )
    for k in range(n):
        out[k] = _visible_one(
            axy[k, 0],
            axy[k, 1],
            asec[k],
            afl[k],
            ain[k],
            bxy[k, 0],
            bxy[k, 1],
            bsec[k],
            bfl[k],
            bin_[k],
            k + 1,
            stamp,
            state,
            grid,
            nx,
            ny,
            cs,
            ci,
            edges,
            box,
            kind,
            owner,
            levels,
            pbase,
            pstart,
            pieces,
        )
    return out


@jit
def _walls_met(ax: float, ay: float, bx: float, by: float, token: int, t: Any) -> Any:
    """Indices of the walls (whole walls, any state) that segment ab meets."""
    found = np.empty(16, dtype=np.int64)
    n = 0
    ok, i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy = _walk_start(
        ax, ay, bx, by, t[GRID], t[NX], t[NY]
    )
    if not ok:
        return found[:0]
    nx, cell_start, cell_items = t[NX], t[CELL_START], t[CELL_ITEMS]
    stamp, kind, edges = t[STAMP], t[EDGE_KIND], t[EDGES]
    while True:
        c = j * nx + i
        for k in range(cell_start[c], cell_start[c + 1]):
            e = cell_items[k]
            if stamp[e] == token or kind[e] != _WALL:
                continue
            stamp[e] = token
            if meets_row(ax, ay, bx, by, edges, e):
                if n == found.shape[0]:
                    found = np.concatenate((found, np.empty(n, dtype=np.int64)))
                found[n] = e
                n += 1
        if i == i1 and j == j1:
            return found[:n]
        i, j, tmx, tmy = _walk_step(i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy)


# `_move_blocked` gets its own, shorter tuple (fewer arrays to unbox per call): the grid
# shared with sight and, per opening-kind set, wall and floor, the solid pieces of the wall
# for a move (see `SightEngine._move_piece_arrays`).
M_STATE, M_GRID, M_NX, M_NY, M_CELL_START, M_CELL_ITEMS, M_EDGES = 0, 1, 2, 3, 4, 5, 6
M_EDGE_KIND, M_EDGE_OWNER, M_STAMP, M_WALLS = 7, 8, 9, 10
M_SLOT_START, M_SLOT_FLOOR, M_PIECE_START, M_PIECES = 11, 12, 13, 14


@jit_inline
def _solid_for_move(
    e: int, ax: float, ay: float, bx: float, by: float, floor_: int, slot: int, m: Any
) -> bool:
    """Whether wall e, already known to meet ab, is solid there for a move on `floor_`.
    Mirrors `SightEngine._opening_passed`: solid when ab meets a piece left by the allowed
    openings, and also when the wall has no allowed opening on that floor at all."""
    slot_start, slot_floor = m[M_SLOT_START], m[M_SLOT_FLOOR]
    piece_start, pieces = m[M_PIECE_START], m[M_PIECES]
    for q in range(slot_start[slot], slot_start[slot + 1]):
        if slot_floor[q] == floor_:
            for p in range(piece_start[q], piece_start[q + 1]):
                # The distance test is `hit_distances` >= 0, as `_opening_passed` asks:
                # it only differs from meeting when coordinates overflow into NaN.
                if (
                    meets_row(ax, ay, bx, by, pieces, p)
                    and distance_to_row(ax, ay, bx, by, pieces, p) >= 0.0
                ):
                    return True
            return False
    return True


@jit
def _move_blocked(
    ax: float,
    ay: float,
    asec: int,
    afl: int,
    bx: float,
    by: float,
    bsec: int,
    bfl: int,
    windows: bool,
    token: int,
    m: Any,
) -> bool:
    """Whether a straight move from a to b goes through a solid wall: the walls met are
    those `_walls_met` finds, by the same walk, and each is judged on the floor
    `SightEngine._move_floor` gives it."""
    nx = m[M_NX]
    ok, i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy = _walk_start(
        ax, ay, bx, by, m[M_GRID], nx, m[M_NY]
    )
    if not ok:
        return False
    state, cell_start, cell_items = m[M_STATE], m[M_CELL_START], m[M_CELL_ITEMS]
    stamp, kind, owner, edges = m[M_STAMP], m[M_EDGE_KIND], m[M_EDGE_OWNER], m[M_EDGES]
    common = afl if afl == bfl else 0
    slot_base = m[M_WALLS] if windows else 0
    while True:
        c = j * nx + i
        for k in range(cell_start[c], cell_start[c + 1]):
            e = cell_items[k]
            if stamp[e] == token or kind[e] != _WALL:
                continue
            stamp[e] = token
            s = owner[e]
            if state[s] == _RUBBLE or not meets_row(ax, ay, bx, by, edges, e):
                continue
            floor_ = afl if s == asec else (bfl if s == bsec else common)
            if _solid_for_move(e, ax, ay, bx, by, floor_, slot_base + e, m):
                return True
        if i == i1 and j == j1:
            return False
        i, j, tmx, tmy = _walk_step(i, j, i1, j1, sx, sy, tmx, tmy, tdx, tdy)


@jit
def _first_stopped_leg(ax: float, ay: float, asec: int, afl: int, xy: Any, sec: Any, fl: Any,
                       first_token: int, m: Any, segs: Any, owner: Any) -> int:
    """See `SightEngine.first_stopped_leg`."""
    for k in range(xy.shape[0]):
        bx, by, bsec, bfl = xy[k, 0], xy[k, 1], sec[k], fl[k]
        if (_move_blocked(ax, ay, asec, afl, bx, by, bsec, bfl, False, first_token + k, m)
                or (segs.shape[0] > 0 and _first_met(ax, ay, bx, by, segs, owner) >= 0)):
            return k
        ax, ay, asec, afl = bx, by, bsec, bfl
    return -1


#: what `SightEngine.leg_stop` answers for a leg that is free, or through a solid wall
LEG_FREE, LEG_WALL = -1, -2


@jit
def _leg_stop(ax: float, ay: float, asec: int, afl: int, bx: float, by: float, bsec: int,
              bfl: int, token: int, m: Any, segs: Any, owner: Any) -> int:
    """See `SightEngine.leg_stop`."""
    if _move_blocked(ax, ay, asec, afl, bx, by, bsec, bfl, False, token, m):
        return LEG_WALL
    if segs.shape[0] == 0:
        return LEG_FREE
    return _first_met(ax, ay, bx, by, segs, owner)


@jit
def _first_met(ax: float, ay: float, bx: float, by: float, segs: Any, owner: Any) -> int:
    """The owner of the row of `segs` that ab meets nearest to a (by `meeting_distance`),
    ties to the lowest owner, or -1. Rows must be in increasing owner order."""
    best, found = np.inf, -1
    for k in range(segs.shape[0]):
        if meets_row(ax, ay, bx, by, segs, k):
            d = distance_to_row(ax, ay, bx, by, segs, k)
            if d < best or found < 0:
                best, found = d, owner[k]
    return int(found)


@jit
def _last_ring_covering(
    px: float, py: float, ring_x: Any, ring_y: Any, ring_start: Any, boxes: Any
) -> int:
    """The last ring (of `terrain_tables`) covering the point, edges included, or -1."""
    for r in range(boxes.shape[0] - 1, -1, -1):
        if (
            boxes[r, 0] <= px <= boxes[r, 2]
            and boxes[r, 1] <= py <= boxes[r, 3]
            and point_in_ring(px, py, ring_x, ring_y, ring_start[r], ring_start[r + 1]) >= 0
        ):
            return r
    return -1


#: for compiled callers: `_last_ring_covering`, as `terrain_at` asks it
last_ring_covering = _last_ring_covering
#: for compiled callers: the section holding a point, from `SightEngine.section_tables`
locate_in = _locate_in


@jit
def _fill_cells(
    boxes: Any, grid: Any, nx: int, ny: int, counts_only: bool, cell_start: Any, items: Any
) -> Any:
    """Bucket boxes (x0, y0, x1, y1, already padded) into grid cells, CSR style: a first
    pass counts per cell, a second fills `items` using the offsets in `cell_start`."""
    counts = np.zeros(nx * ny, dtype=np.int64)
    for e in range(boxes.shape[0]):
        i0 = _cell_of(boxes[e, 0], grid[0], grid[3], nx)
        i1 = _cell_of(boxes[e, 2], grid[0], grid[3], nx)
        j0 = _cell_of(boxes[e, 1], grid[1], grid[3], ny)
        j1 = _cell_of(boxes[e, 3], grid[1], grid[3], ny)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                c = j * nx + i
                if not counts_only:
                    items[cell_start[c] + counts[c]] = e
                counts[c] += 1
    return counts


# --------------------------------------------------------------------------------------
# Flattening the battlefield
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Grid:
    meta: FloatArray  # origin x, origin y, cell size, 1 / cell size
    nx: int
    ny: int

    @staticmethod
    def covering(bounds: tuple[float, float, float, float], cell: float) -> _Grid:
        # One spare cell all round so clipping error at the grid's edge can never matter.
        x0, y0 = bounds[0] - cell, bounds[1] - cell
        nx = max(1, ceil((bounds[2] + cell - x0) / cell))
        ny = max(1, ceil((bounds[3] + cell - y0) / cell))
        return _Grid(np.array([x0, y0, cell, 1.0 / cell]), nx, ny)

    def bucket(self, boxes: FloatArray) -> tuple[IntArray, IntArray]:
        empty = np.zeros(0, dtype=np.int64)
        start = np.zeros(self.nx * self.ny + 1, dtype=np.int64)
        counts = _fill_cells(boxes, self.meta, self.nx, self.ny, True, start, empty)
        start[1:] = np.cumsum(counts)
        items = np.zeros(int(start[-1]), dtype=np.int64)
        _fill_cells(boxes, self.meta, self.nx, self.ny, False, start, items)
        return start, items


def _padded_boxes(segs: FloatArray, pad: float) -> FloatArray:
    boxes = np.empty((segs.shape[0], 4))
    boxes[:, 0] = np.minimum(segs[:, 0], segs[:, 2]) - pad
    boxes[:, 1] = np.minimum(segs[:, 1], segs[:, 3]) - pad
    boxes[:, 2] = np.maximum(segs[:, 0], segs[:, 2]) + pad
    boxes[:, 3] = np.maximum(segs[:, 1], segs[:, 3]) + pad
    return boxes


def _ring_arrays(rings: Sequence[Sequence[Point]]) -> tuple[FloatArray, FloatArray, IntArray]:
    start = np.zeros(len(rings) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(ring) for ring in rings])
    xs = np.array([x for ring in rings for x, _ in ring], dtype=np.float64)
    ys = np.array([y for ring in rings for _, y in ring], dtype=np.float64)
    return xs, ys, start


def _ring_boxes(rings: Sequence[Sequence[Point]], pad: float) -> FloatArray:
    boxes = np.zeros((len(rings), 4))
    for r, ring in enumerate(rings):
        xs = [x for x, _ in ring]
        ys = [y for _, y in ring]
        boxes[r] = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    return boxes


def _segments(points: Sequence[Point], closed: bool) -> list[tuple[float, float, float, float]]:
    n = len(points)
    stop = n if closed else n - 1
    return [(*points[i], *points[(i + 1) % n]) for i in range(stop)]


def _seg_array(rows: Sequence[tuple[float, float, float, float]]) -> FloatArray:
    return np.array(rows, dtype=np.float64).reshape(len(rows), 4)


def _csr_start(counts: Sequence[int]) -> IntArray:
    start = np.zeros(len(counts) + 1, dtype=np.int64)
    start[1:] = np.cumsum(counts)
    return start


F = TypeVar("F", bound=Callable[..., Any])
_MISSING = object()


def _remembered(store_of: Callable[[SightEngine], dict[Any, Any]], limit: int | None,
                key: Callable[..., Any] | None) -> Callable[[F], F]:
    def remember(fn: F) -> F:
        def memoized(sight: SightEngine, *args: Any) -> Any:
            store = store_of(sight)
            memo: dict[Any, Any] | None = store.get(fn)
            if memo is None:
                memo = store[fn] = {}
            index = args if key is None else key(*args)
            found = memo.get(index, _MISSING)
            if found is _MISSING:
                if limit is not None and len(memo) >= limit:
                    memo.clear()
                found = memo[index] = fn(sight, *args)
            return found

        return cast(F, update_wrapper(memoized, fn))  # fn, the memo's key, as __wrapped__

    return remember


def per_map(limit: int | None = None,
            key: Callable[..., Any] | None = None) -> Callable[[F], F]:
    """Remember what a function `fn(sight, *args)` answers in the store every fork of the
    engine shares (`SightEngine.shared`), by its other arguments (or by `key(*args)`, for
    arguments that hash slowly): for whole-map answers, which depend on nothing but the
    map and the state of its sections, asked with arguments that tell nothing of a game
    (none, or public names such as an objective's sections). Any user of the map may
    read the store, so an answer about places goes to `per_query` instead. With a
    `limit` the memo of that function starts again once it holds that many answers."""
    return _remembered(attrgetter("shared"), limit, key)


def per_query(limit: int | None = None,
              key: Callable[..., Any] | None = None) -> Callable[[F], F]:
    """`per_map`, but kept in the asking engine's own memo (`SightEngine.memo`): for
    answers about places, whose arguments tell where a user's figures stand or look. Each
    user has its own fork of the engine, so no one can read what another asked."""
    return _remembered(attrgetter("memo"), limit, key)


class SightEngine:
    """Fast line of sight and related queries on one battlefield (see module docstring)."""

    def __init__(self, battlefield: Battlefield, cell_size: float | None = None) -> None:
        self.battlefield = battlefield
        self._walls = SolidWalls(battlefield)
        self._section_ids = battlefield.section_ids
        self._index = {sid: k for k, sid in enumerate(self._section_ids)}
        self._state = np.zeros(len(self._section_ids), dtype=np.int8)
        table = battlefield.table
        self._pad = 1e-9 * max(table.width, table.height, 1.0)
        self._build_walls()
        self._build_obstacles()
        self._build_terrain()
        self._build_grids(cell_size)
        self._tables = self._kernel_tables()
        t = self._tables
        #: what `locate_in` reads of the kernel tables, shared by every fork
        self.section_tables: tuple[Any, ...] = (
            t[GRID], t[NX], t[NY], t[SEC_CELL_START], t[SEC_CELL_ITEMS], t[RING_X],
            t[RING_Y], t[RING_START])
        self._token = 0  # marks the edges already tested by the current single query
        self._move_piece_cache: dict[tuple[str, int, int, frozenset[OpeningKind]], FloatArray] = {}
        self._built_pieces: dict[tuple[str, int, int, frozenset[OpeningKind]], FloatArray] = {}
        self._move_tables = self._move_kernel_tables()
        # the pieces worked out for the tables, for every wall and floor with an opening,
        # stay with the map; a fork keeps the others it is asked about to itself
        self._built_pieces, self._move_piece_cache = self._move_piece_cache, {}
        # Looked up with .get(id, -1): None, and an id of no section (which `_move_floor`
        # never matches), are both outside.
        self._move_index: dict[str | None, int] = {s: k for s, k in self._index.items()}
        self._obstacle_rows: dict[frozenset[ObstacleKind], tuple[FloatArray, IntArray]] = {}
        #: the whole-map stores of this engine and its forks, one per set of section states
        self._stores: dict[bytes, dict[Any, Any]] = {}
        #: whole-map answers, the same whoever asks (see `per_map`), shared by every fork
        #: whose sections stand in the same states; they live and go with the engines, so
        #: no cache keeps a map alive
        self.shared: dict[Any, Any] = self._stores.setdefault(self._state.tobytes(), {})
        #: this engine's own answers about places (see `per_query`): no fork sees them
        #: (but the umpire's forks, see `fork`, which pool theirs)
        self.memo: dict[Any, Any] = {}
        self._umpire = False
        self._umpire_memos: dict[bytes, dict[Any, Any]] = {}

    @property
    def umpire(self) -> bool:
        """Whether this is the fork of a game's rules (see `fork`)."""
        return self._umpire

    def __deepcopy__(self, memo: dict[int, Any]) -> SightEngine:
        """A copy of a game's state (`BaseState.clone`) forks each engine it holds: the
        section states are the state's own, the map is shared (it never changes)."""
        return self.fork(self._umpire)

    def fork(self, umpire: bool = False) -> SightEngine:
        """Another engine on the same map, for one user: it shares the arrays, the kernel
        tables and the whole-map stores, and starts with a copy of this engine's section
        states, a scratch array of its own and an empty memo. Cheap: nothing of the map is
        built again. A rule set that changes a section's state sets it on every fork of
        the game (the rules' and each side's): no fork follows another.

        `umpire`: the fork for the rules of one game. The rules of all the games of a map
        are one umpire, who may know everything, so these forks pool their memo (one per
        set of section states) with every umpire fork of this engine; no other fork
        holds the pool, so no player reaches it."""
        twin: SightEngine = object.__new__(SightEngine)
        twin.__dict__.update(self.__dict__)
        twin._state = self._state.copy()
        stamp = np.zeros(len(self._edges), dtype=np.int64)
        tables = list(self._tables)
        tables[STATE], tables[STAMP] = twin._state, stamp
        twin._tables = tuple(tables)
        move = list(self._move_tables)
        move[M_STATE], move[M_STAMP] = twin._state, stamp
        twin._move_tables = tuple(move)
        twin._token = 0
        twin._move_piece_cache = {}
        twin._umpire = umpire
        if umpire:
            twin.memo = self._umpire_memos.setdefault(twin._state.tobytes(), {})
        else:
            twin._umpire_memos = {}  # a player's fork must not reach the umpire's memos
            twin.memo = {}
        return twin

    # -- construction -----------------------------------------------------------------

    def _build_walls(self) -> None:
        rows: list[tuple[float, float, float, float]] = []
        owner: list[int] = []
        wall_no: list[int] = []
        levels: list[int] = []
        base: list[int] = []
        slot_pieces: list[list[tuple[float, float, float, float]]] = []
        for s, sid in enumerate(self._section_ids):
            section = self.battlefield.section(sid)
            for w, row in enumerate(_segments(section.footprint, closed=True)):
                rows.append(row)
                owner.append(s)
                wall_no.append(w)
                levels.append(section.levels)
                base.append(len(slot_pieces))
                for f in range(section.levels):
                    slot_pieces.append([(*p, *q) for p, q in self._walls.pieces(sid, w, f)])
        self._wall_segs = _seg_array(rows)
        self._wall_owner = np.array(owner, dtype=np.int64)
        self._wall_index = np.array(wall_no, dtype=np.int64)
        self._wall_levels = np.array(levels, dtype=np.int64)
        self._wall_piece_base = np.array(base, dtype=np.int64)
        self._piece_start = np.zeros(len(slot_pieces) + 1, dtype=np.int64)
        self._piece_start[1:] = np.cumsum([len(p) for p in slot_pieces])
        self._pieces = _seg_array([row for slot in slot_pieces for row in slot])
        self._section_wall_start = np.searchsorted(
            self._wall_owner, np.arange(len(self._section_ids) + 1)
        )
        rings = [self.battlefield.section(sid).footprint for sid in self._section_ids]
        self._ring_x, self._ring_y, self._ring_start = _ring_arrays(rings)
        self._section_boxes = _ring_boxes(rings, self._pad)

    def _build_obstacles(self) -> None:
        obstacles = self.battlefield.obstacles
        rows: list[tuple[float, float, float, float]] = []
        owner: list[int] = []
        for k, obstacle in enumerate(obstacles):
            for row in _segments(obstacle.points, closed=False):
                rows.append(row)
                owner.append(k)
        self._obstacle_segs = _seg_array(rows)
        self._obstacle_owner = np.array(owner, dtype=np.int64)
        blocks = np.array([obstacles[k].blocks_sight for k in owner], dtype=np.bool_)
        self._sight_obstacle_segs = self._obstacle_segs[blocks.reshape(-1)]

    def _build_terrain(self) -> None:
        rings = [area.polygon for area in self.battlefield.terrain]
        self._terrain_x, self._terrain_y, self._terrain_start = _ring_arrays(rings)
        self._terrain_boxes = _ring_boxes(rings, 0.0)

    def _bounds(self) -> tuple[float, float, float, float]:
        table = self.battlefield.table
        segs = [s for s in (self._wall_segs, self._obstacle_segs) if len(s)]
        if not segs:
            return (0.0, 0.0, table.width, table.height)
        allsegs = np.vstack(segs)
        xs = np.concatenate([allsegs[:, 0], allsegs[:, 2], [0.0, table.width]])
        ys = np.concatenate([allsegs[:, 1], allsegs[:, 3], [0.0, table.height]])
        return (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))

    def _default_cell(self, n_edges: int) -> float:
        # Measured on 300-building towns: speed is flat between 0.1 and 1.5 edges per cell
        # (cell side 1-4 building walls), best near 0.2.
        x0, y0, x1, y1 = self._bounds()
        area = max((x1 - x0) * (y1 - y0), 1.0)
        return sqrt(area * 0.2 / max(n_edges, 1))

    def _build_grids(self, cell_size: float | None) -> None:
        n_walls = len(self._wall_segs)
        edges = np.vstack([self._wall_segs, self._sight_obstacle_segs]).reshape(-1, 4)
        cell = cell_size if cell_size is not None else self._default_cell(len(edges))
        self._grid = _Grid.covering(self._bounds(), cell)
        n_obst = len(self._sight_obstacle_segs)
        self._edges = np.ascontiguousarray(edges)
        self._edge_kind = np.concatenate(
            [np.full(n_walls, _WALL), np.full(n_obst, _OBSTACLE)]
        ).astype(np.int8)
        self._edge_owner = np.concatenate([self._wall_owner, np.full(n_obst, -1)]).astype(np.int64)
        self._edge_levels = np.concatenate([self._wall_levels, np.zeros(n_obst, dtype=np.int64)])
        self._edge_piece_base = np.concatenate(
            [self._wall_piece_base, np.zeros(n_obst, dtype=np.int64)]
        )
        self._edge_box = _padded_boxes(self._edges, self._pad)
        self._cell_start, self._cell_items = self._grid.bucket(self._edge_box)
        self._sec_cell_start, self._sec_cell_items = self._grid.bucket(self._section_boxes)

    def _kernel_tables(self) -> tuple[Any, ...]:
        g = self._grid
        tables: dict[int, Any] = {
            STATE: self._state,
            GRID: g.meta,
            NX: g.nx,
            NY: g.ny,
            CELL_START: self._cell_start,
            CELL_ITEMS: self._cell_items,
            EDGES: self._edges,
            EDGE_BOX: self._edge_box,
            EDGE_KIND: self._edge_kind,
            EDGE_OWNER: self._edge_owner,
            EDGE_LEVELS: self._edge_levels,
            PIECE_BASE: self._edge_piece_base,
            PIECE_START: self._piece_start,
            PIECES: self._pieces,
            SEC_CELL_START: self._sec_cell_start,
            SEC_CELL_ITEMS: self._sec_cell_items,
            RING_X: self._ring_x,
            RING_Y: self._ring_y,
            RING_START: self._ring_start,
            STAMP: np.zeros(len(self._edges), dtype=np.int64),  # scratch for single queries
        }
        return tuple(tables[k] for k in range(len(tables)))

    def _move_kernel_tables(self) -> tuple[Any, ...]:
        t = self._tables
        slot_start, slot_floor, piece_start, pieces = self._move_piece_arrays()
        return (
            t[STATE], t[GRID], t[NX], t[NY], t[CELL_START], t[CELL_ITEMS], t[EDGES],
            t[EDGE_KIND], t[EDGE_OWNER], t[STAMP], len(self._wall_segs),
            slot_start, slot_floor, piece_start, pieces,
        )  # fmt: skip

    def _move_piece_arrays(self) -> tuple[IntArray, IntArray, IntArray, FloatArray]:
        """For each opening-kind set of `_MOVE_KIND_SETS`, wall row, and floor on which
        the wall has an opening of those kinds (a slot): the solid pieces `_move_pieces`
        gives, CSR style. On floors without such an opening the whole wall is solid."""
        counts: list[int] = []
        floors: list[int] = []
        pieces: list[FloatArray] = []
        for kinds in _MOVE_KIND_SETS:
            for s, wall in zip(self._wall_owner.tolist(), self._wall_index.tolist(), strict=True):
                sid = self._section_ids[s]
                spans = self._walls.wall_spans(sid, wall)
                open_floors = sorted({span.floor for span in spans if span.kind in kinds})
                counts.append(len(open_floors))
                floors.extend(open_floors)
                pieces.extend(self._move_pieces(sid, wall, f, kinds) for f in open_floors)
        return (
            _csr_start(counts),
            np.array(floors, dtype=np.int64),
            _csr_start([len(p) for p in pieces]),
            np.vstack([_seg_array([]), *pieces]),
        )

    def _obstacle_rows_of(self, kinds: frozenset[ObstacleKind]) -> tuple[FloatArray, IntArray]:
        """The obstacle segments of those kinds and their owners, cached per kinds set."""
        rows = self._obstacle_rows.get(kinds)
        if rows is None:
            chosen = np.array([o.kind in kinds for o in self.battlefield.obstacles], dtype=np.bool_)
            keep = chosen[self._obstacle_owner]
            rows = (
                np.ascontiguousarray(self._obstacle_segs[keep]),
                np.ascontiguousarray(self._obstacle_owner[keep]),
            )
            self._obstacle_rows[kinds] = rows
        return rows

    # -- section states ---------------------------------------------------------------

    @property
    def section_ids(self) -> tuple[str, ...]:
        """Section ids in index order (the indices used by the array APIs)."""
        return self._section_ids

    def section_index(self, section_id: str | None) -> int:
        return -1 if section_id is None else self._index[section_id]

    def set_section_state(self, section_id: str, state: SectionState) -> None:
        k, code = self._index[section_id], _STATE_CODE[state]
        if self._state[k] != code:
            self._state[k] = code
            # remembered answers may have depended on the old state
            if self._umpire:
                self.memo = self._umpire_memos.setdefault(self._state.tobytes(), {})
            else:
                self.memo.clear()
            self.shared = self._stores.setdefault(self._state.tobytes(), {})

    def set_section_states(self, states: Mapping[str, SectionState]) -> None:
        for section_id, state in states.items():
            self.set_section_state(section_id, state)

    def section_state(self, section_id: str) -> SectionState:
        return _STATE_OF_CODE[int(self._state[self._index[section_id]])]

    @property
    def section_states(self) -> dict[str, SectionState]:
        return {sid: self.section_state(sid) for sid in self._section_ids}

    # -- line of sight ----------------------------------------------------------------

    def position_arrays(self, positions: Sequence[Position]) -> PositionArrays:
        # called for a handful of positions many times a decision: flat lists and fromiter
        # cost about half of building arrays from tuples
        n = len(positions)
        index = self._index
        xy = np.array([c for p in positions for c in (p.x, p.y)], dtype=np.float64)
        section = np.fromiter([-1 if p.section is None else index[p.section]
                               for p in positions], np.int64, n)
        floor_ = np.fromiter([p.floor for p in positions], np.int64, n)
        return PositionArrays(xy.reshape(n, 2), section, floor_)

    def _next_token(self) -> int:
        self._token += 1
        return self._token

    def visible(self, a: Position, b: Position) -> bool:
        """Whether a and b can see each other (sight is symmetric)."""
        return bool(
            _visible_single(
                float(a.x), float(a.y), self.section_index(a.section), int(a.floor),
                float(b.x), float(b.y), self.section_index(b.section), int(b.floor),
                self._next_token(), self._tables,
            )
        )  # fmt: skip

    def visible_matrix(
        self, observers: Sequence[Position], targets: Sequence[Position]
    ) -> BoolArray:
        """Visibility of every target from every observer, shape (observers, targets)."""
        a = self.position_arrays(observers)
        b = self.position_arrays(targets)
        return self.visible_matrix_arrays(a, b)

    @property
    def terrain_tables(self) -> tuple[FloatArray, FloatArray, IntArray, FloatArray]:
        """The terrain areas' rings flattened for `last_ring_covering` (x, y, start of
        each ring, bounding boxes), in the battlefield's order."""
        return self._terrain_x, self._terrain_y, self._terrain_start, self._terrain_boxes

    @property
    def kernel_tables(self) -> tuple[Any, ...]:
        """The flattened battlefield that compiled callers hand to the `*_kernel`
        functions (rule sets fusing their own estimates with sight in one call)."""
        return self._tables

    def visible_row(self, observer: Position, targets: PositionArrays) -> BoolArray:
        """`visible_matrix` for one observer, without making arrays of it: the figure
        that just moved, or the one weighing its targets."""
        first = self._token + 1
        self._token += len(targets.floor)
        result: BoolArray = _visible_row(
            float(observer.x), float(observer.y), self.section_index(observer.section),
            int(observer.floor), targets.xy, targets.section, targets.floor, first,
            self._tables)
        return result

    def visible_column(self, observers: PositionArrays, target: Position) -> BoolArray:
        """`visible_matrix` for one target, without making arrays of it: the figure that
        just moved, seen from where each observer stands."""
        first = self._token + 1
        self._token += len(observers.floor)
        result: BoolArray = _visible_column(
            observers.xy, observers.section, observers.floor, float(target.x),
            float(target.y), self.section_index(target.section), int(target.floor), first,
            self._tables)
        return result

    def visible_matrix_arrays(self, a: PositionArrays, b: PositionArrays) -> BoolArray:
        result: BoolArray = visible_matrix_kernel(
            a.xy, a.section, a.floor, b.xy, b.section, b.floor, self._tables
        )
        return result

    def visible_pairs(
        self,
        a_xy: npt.ArrayLike,
        a_section_idx: npt.ArrayLike,
        a_floor: npt.ArrayLike,
        b_xy: npt.ArrayLike,
        b_section_idx: npt.ArrayLike,
        b_floor: npt.ArrayLike,
    ) -> BoolArray:
        """Visibility of pair k from a[k] to b[k]; section index -1 means outside."""
        axy = np.ascontiguousarray(a_xy, dtype=np.float64).reshape(-1, 2)
        bxy = np.ascontiguousarray(b_xy, dtype=np.float64).reshape(-1, 2)
        n = axy.shape[0]
        if bxy.shape[0] != n:
            raise ValueError("a and b must hold the same number of points")
        asec, afl, bsec, bfl = (
            np.broadcast_to(np.asarray(v, dtype=np.int64), (n,)).copy()
            for v in (a_section_idx, a_floor, b_section_idx, b_floor)
        )
        result: BoolArray = _visible_pairs(axy, asec, afl, bxy, bsec, bfl, self._tables)
        return result

    # -- where things are -------------------------------------------------------------

    def section_at(self, point: Point) -> str | None:
        """The section whose footprint contains the point (walls included), if any."""
        k = _locate_in(float(point[0]), float(point[1]), False, self.section_tables)
        return None if k < 0 else self._section_ids[k]

    def sections_at(self, points: Sequence[Point]) -> list[str | None]:
        """section_at for many points in one call."""
        if not points:
            return []
        xy = np.array(points, dtype=np.float64).reshape(len(points), 2)
        ids = self._section_ids
        return [None if k < 0 else ids[k] for k in self.section_indices(xy)]

    def places_around(self, centre: Position, offset: float, steps: FloatArray,
                      headings: int, extra: FloatArray) -> PositionArrays:
        """Candidate places round a figure, in one compiled call: `centre` first, then the
        points at each distance of `steps` in `headings` directions turned by `offset`
        (radians), rounded to 1/100 in, that lie on the table, then the points of `extra`
        (n, 2). All but the centre are on the ground floor, in the section holding them."""
        table = self.battlefield.table
        found: tuple[FloatArray, IntArray, IntArray] = places_around_kernel(
            float(centre.x), float(centre.y), self.section_index(centre.section),
            int(centre.floor), offset, steps, headings, float(table.width),
            float(table.height), extra, self._tables)
        return PositionArrays(*found)

    def places_along(self, start: Position, ux: float, uy: float, step: float,
                     count: int) -> PositionArrays:
        """The places `step`, 2 `step`, ... `count` `step` from `start` along the unit
        direction (ux, uy), up to the table's edge, in one compiled call: each in the
        section holding it, on `start`'s floor while in `start`'s section, else on the
        ground."""
        table = self.battlefield.table
        found: tuple[FloatArray, IntArray, IntArray] = _places_along(
            float(start.x), float(start.y), self.section_index(start.section),
            int(start.floor), float(ux), float(uy), float(step), int(count),
            float(table.width), float(table.height), self._tables)
        return PositionArrays(*found)

    def section_indices(self, xy: FloatArray) -> IntArray:
        """Index of the section holding each point of xy (n, 2), -1 outside."""
        found: IntArray = _locate_many(np.ascontiguousarray(xy, dtype=np.float64), False,
                                       self._tables)
        return found

    def terrain_at(self, point: Point) -> TerrainKind:
        """Topmost (last listed) terrain area containing the point, else OPEN; inside a
        collapsed section the ground is rubble."""
        section = self.section_at(point)
        if section is not None and self.section_state(section) is SectionState.RUBBLE:
            return TerrainKind.RUBBLE
        r = _last_ring_covering(
            float(point[0]),
            float(point[1]),
            self._terrain_x,
            self._terrain_y,
            self._terrain_start,
            self._terrain_boxes,
        )
        return TerrainKind.OPEN if r < 0 else self.battlefield.terrain[r].kind

    def obstacles_crossed(self, a_point: Point, b_point: Point) -> list[tuple[Obstacle, float]]:
        """Every linear obstacle the segment meets, with the distance from a_point to the
        first meeting point, nearest first."""
        if not len(self._obstacle_segs):
            return []
        ax, ay = float(a_point[0]), float(a_point[1])
        bx, by = float(b_point[0]), float(b_point[1])
        owners, dists = nearest_hits_by_owner(
            ax, ay, bx, by, self._obstacle_segs, self._obstacle_owner
        )
        obstacles = self.battlefield.obstacles
        hits = sorted(zip(dists.tolist(), owners.tolist(), strict=True))
        return [(obstacles[k], d) for d, k in hits]

    def leg_stop(self, a: Position, b: Position, kinds: frozenset[ObstacleKind]) -> int:
        """What stops a straight move from a to b, in one compiled call: LEG_WALL when it
        goes through a solid wall (`move_blocked`), else the index in the battlefield's
        obstacles of the first obstacle of `kinds` it meets (`first_obstacle_of`), else
        LEG_FREE."""
        segs, owner = self._obstacle_rows_of(kinds)
        index = self._move_index
        found: int = _leg_stop(
            float(a.x), float(a.y), index.get(a.section, -1), int(a.floor),
            float(b.x), float(b.y), index.get(b.section, -1), int(b.floor),
            self._next_token(), self._move_tables, segs, owner)
        return found

    def first_stopped_leg(self, start: Position, path: PositionArrays,
                          kinds: frozenset[ObstacleKind]) -> int:
        """The first leg of a walk from `start` through the points of `path` that goes
        through a solid wall (`move_blocked`) or meets an obstacle of `kinds`
        (`first_obstacle_of`), by index of the point it leads to; -1 when none does. One
        compiled call for a whole path of short legs."""
        segs, owner = self._obstacle_rows_of(kinds)
        first = self._token + 1
        self._token += len(path.floor)
        found: int = _first_stopped_leg(
            float(start.x), float(start.y), self._move_index.get(start.section, -1),
            int(start.floor), path.xy, path.section, path.floor, first, self._move_tables,
            segs, owner)
        return found

    def first_obstacle_of(
        self, a_point: Point, b_point: Point, kinds: frozenset[ObstacleKind]
    ) -> Obstacle | None:
        """The nearest obstacle of one of `kinds` that the segment meets, ties to the one
        listed first: the first of `obstacles_crossed` of those kinds, or None."""
        segs, owner = self._obstacle_rows_of(kinds)
        if not len(segs):
            return None
        ax, ay = float(a_point[0]), float(a_point[1])
        bx, by = float(b_point[0]), float(b_point[1])
        k = _first_met(ax, ay, bx, by, segs, owner)
        return None if k < 0 else self.battlefield.obstacles[k]

    # -- shooting ---------------------------------------------------------------------

    def firing_point(self, a: Position, b: Position) -> Point:
        """Where a shooter at a measures range to b from: the point where ab leaves a's
        section (through its window), or a's own point when a is outside or b is in the
        same section."""
        if a.section is None or a.section == b.section or a.point == b.point:
            return a.point
        s = self._index[a.section]
        lo, hi = self._section_wall_start[s], self._section_wall_start[s + 1]
        ax, ay, bx, by = float(a.x), float(a.y), float(b.x), float(b.y)
        nearest = nearest_hit(ax, ay, bx, by, self._wall_segs, int(lo), int(hi))
        if nearest < 0.0:
            return a.point
        t = nearest / hypot(bx - ax, by - ay)
        return (ax + (bx - ax) * t, ay + (by - ay) * t)

    def range_between(self, a: Position, b: Position) -> float:
        fx, fy = self.firing_point(a, b)
        return hypot(b.x - fx, b.y - fy)

    # -- movement ---------------------------------------------------------------------

    def move_check(self, a: Position, b: Position, through_windows: bool = False) -> MoveCheck:
        """Whether a straight move from a to b goes through a solid wall: walls may be
        crossed only through doors (and windows when `through_windows`), on a's floor for
        a's section, b's floor for b's, the common floor (else the ground) for others.
        Collapsed sections have no walls left."""
        kinds = _MOVE_KINDS_WINDOWS if through_windows else _MOVE_KINDS
        crossings = sorted(
            self._wall_crossings(a, b, kinds), key=lambda c: (c.distance, c.section_id, c.wall)
        )
        blocked = any(c.opening is None for c in crossings)
        obstacles = tuple(self.obstacles_crossed(a.point, b.point))
        return MoveCheck(blocked, tuple(crossings), obstacles)

    def move_blocked(self, a: Position, b: Position, through_windows: bool = False) -> bool:
        """Exactly `move_check(a, b, through_windows).crosses_wall`, in one compiled call."""
        index = self._move_index
        return bool(
            _move_blocked(
                float(a.x), float(a.y), index.get(a.section, -1), int(a.floor),
                float(b.x), float(b.y), index.get(b.section, -1), int(b.floor),
                bool(through_windows), self._next_token(), self._move_tables,
            )
        )  # fmt: skip

    def _move_floor(self, section_id: str, a: Position, b: Position) -> int:
        if a.section == section_id:
            return a.floor
        if b.section == section_id:
            return b.floor
        return a.floor if a.floor == b.floor else 0

    def _wall_crossings(
        self, a: Position, b: Position, kinds: frozenset[OpeningKind]
    ) -> Iterable[WallCrossing]:
        ax, ay, bx, by = float(a.x), float(a.y), float(b.x), float(b.y)
        met = _walls_met(ax, ay, bx, by, self._next_token(), self._tables)
        if not len(met):
            return
        # Walls come first among the edges, so an edge index is also a wall row.
        dist = hit_distances(ax, ay, bx, by, self._wall_segs[met])
        for k, d in zip(met.tolist(), dist.tolist(), strict=True):
            s = int(self._wall_owner[k])
            if self._state[s] == _RUBBLE:
                continue
            sid = self._section_ids[s]
            wall = int(self._wall_index[k])
            floor_ = self._move_floor(sid, a, b)
            opening = self._opening_passed(sid, wall, floor_, kinds, a, b, d)
            yield WallCrossing(sid, wall, d, opening)

    def _move_pieces(
        self, section_id: str, wall: int, floor_: int, kinds: frozenset[OpeningKind]
    ) -> FloatArray:
        key = (section_id, wall, floor_, kinds)
        pieces = self._built_pieces.get(key)
        if pieces is None:
            pieces = self._move_piece_cache.get(key)
        if pieces is None:
            found = self._walls.pieces(section_id, wall, floor_, kinds, open_roof=False)
            pieces = _seg_array([(*p, *q) for p, q in found])
            self._move_piece_cache[key] = pieces
        return pieces

    def _opening_passed(
        self,
        section_id: str,
        wall: int,
        floor_: int,
        kinds: frozenset[OpeningKind],
        a: Position,
        b: Position,
        distance: float,
    ) -> OpeningKind | None:
        ax, ay, bx, by = float(a.x), float(a.y), float(b.x), float(b.y)
        pieces = self._move_pieces(section_id, wall, floor_, kinds)
        if len(pieces) and (hit_distances(ax, ay, bx, by, pieces) >= 0.0).any():
            return None
        # Not solid there, so some allowed opening covers the crossing: report the nearest.
        section = self.battlefield.section(section_id)
        (x0, y0), (x1, y1) = section.wall(wall)
        length = hypot(x1 - x0, y1 - y0)
        total = hypot(b.x - a.x, b.y - a.y)
        t = distance / total if total > 0 else 0.0
        cx, cy = a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t
        along = ((cx - x0) * (x1 - x0) + (cy - y0) * (y1 - y0)) / length
        spans = [
            s
            for s in self._walls.wall_spans(section_id, wall)
            if s.floor == floor_ and s.kind in kinds
        ]
        if not spans:
            return None  # the full wall was met only within rounding of its pieces
        nearest = min(spans, key=lambda s: max(s.lo - along, along - s.hi, 0.0))
        return nearest.kind
