"""The computer's place scoring for House-Clearing as arrays: how much of each body shows
between every place a figure weighs and every enemy it knows of (the body model of
`geometry.MapGeometry`, to the last bit), the harm and the fire each place brings, and
the approaches each place watches, in one compiled call per decision.

The exact rules decide every real shot; this only ranks the places a computer player
considers. It reads nothing but the map, the options and what the side's view holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from fibua.battlefield.geometry import jit, jit_inline
from fibua.battlefield.model import OpeningKind, Position
from fibua.battlefield.sight import (
    PositionArrays,
    SightEngine,
    per_map,
    visible_matrix_kernel,
)
from fibua.rulesets.house_clearing.geometry import MapGeometry, _screen
from fibua.rulesets.house_clearing.tables import (
    COVER_REACH,
    LEAN_REACH,
    OPENING_REACH,
    RANGE_BANDS,
    Row,
    Stance,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

STANCES = tuple(Stance)
STANCE_INDEX = {s: k for k, s in enumerate(STANCES)}
STANDING, CROUCHING, LEANING = (STANCE_INDEX[s] for s in
                                (Stance.STANDING, Stance.CROUCHING, Stance.LEANING))
MAX_BANDS = 5
#: a band's limit as the rules read a range: rounded to 9 places, then compared (a range
#: at most this much over a whole inch is still in the band of that inch)
ROUNDING = 5e-10


@dataclass(frozen=True, slots=True)
class BodyArrays:
    """The body model's map as arrays, one per map geometry (map and options): obstacle
    rows and heights, every opening row (grouped by building and floor as the geometry
    groups them) with its sill, section (index) and whether a figure may lean out of it,
    the rows each section and floor reads, and each stance's band middles."""

    obstacle_segs: FloatArray
    obstacle_heights: FloatArray
    open_segs: FloatArray
    open_sill: FloatArray
    open_section: IntArray
    open_lean: BoolArray
    group: IntArray  # (section, floor, 2): first and past-last row; (-1, -1) none
    mids: FloatArray  # (stance, from outside, band): the middles, NaN past the last
    n_mids: IntArray  # (stance, from outside)


def body_arrays(geometry: MapGeometry) -> BodyArrays:
    """The arrays of a geometry, worked out once per map and options (public both)."""
    return _body_arrays(geometry.sight, geometry)


# the options a geometry depends on: the figure's height and the window's sill
@per_map(key=lambda geometry: (geometry.height, geometry.sills[OpeningKind.WINDOW]))
def _body_arrays(sight: SightEngine, geometry: MapGeometry) -> BodyArrays:
    return _build(geometry)


def _build(geometry: MapGeometry) -> BodyArrays:
    sight = geometry.sight
    ids = sight.section_ids
    index = {sid: k for k, sid in enumerate(ids)}
    levels = max((sight.battlefield.section(s).levels for s in ids), default=1)
    segs: list[FloatArray] = []
    sills: list[float] = []
    sections: list[int] = []
    lean: list[bool] = []
    groups: dict[tuple[str, int], tuple[int, int]] = {}
    start = 0
    for key, rows in geometry._openings.items():
        segs.append(rows.segs)
        sills += list(rows.sills)
        sections += [index[s] for s in rows.sections]
        lean += [k in (OpeningKind.DOOR, OpeningKind.WINDOW) for k in rows.kinds]
        groups[key] = (start, start + len(rows.sills))
        start += len(rows.sills)
    group = np.full((max(len(ids), 1), levels, 2), -1, dtype=np.int64)
    for sid in ids:
        for floor in range(levels):
            found = groups.get((geometry.building_of[sid], floor))
            if found is not None:
                group[index[sid], floor] = found
    mids = np.full((len(STANCES), 2, MAX_BANDS), np.nan)
    n_mids = np.zeros((len(STANCES), 2), dtype=np.int64)
    for st, k in STANCE_INDEX.items():
        for outside, table in enumerate((geometry._mids, geometry._mids_outside)):
            m = table[st]
            mids[k, outside, :len(m)] = m
            n_mids[k, outside] = len(m)
    return BodyArrays(
        geometry.obstacle_segs, geometry.obstacle_heights,
        np.concatenate(segs) if segs else np.zeros((0, 4)),
        np.array(sills, dtype=np.float64), np.array(sections, dtype=np.int64),
        np.array(lean, dtype=np.bool_), group, mids, n_mids)


@cache
def band_limits(row: Row) -> FloatArray:
    return np.array(RANGE_BANDS[row], dtype=np.float64)


# ---------------------------------------------------------------------- kernels


@jit_inline
def _segment_distance(px: float, py: float, seg: Any) -> float:
    # as geometry.point_segment_distance
    ax, ay, bx, by = seg[0], seg[1], seg[2], seg[3]
    dx, dy = bx - ax, by - ay
    span = dx * dx + dy * dy
    t = 0.0
    if span != 0:
        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / span))
    return float(np.hypot(px - ax - t * dx, py - ay - t * dy))


@jit_inline
def _screen_of(vx: float, vy: float, vsec: int, vfl: int, tx: float, ty: float, tsec: int,
               tfl: int, obstacles: Any, heights: Any, open_segs: Any, open_sill: Any,
               open_section: Any, group: Any) -> float:
    """`MapGeometry.screen` of the target from the viewer."""
    start, end = 0, 0
    if tsec >= 0 and vsec != tsec:
        start, end = group[tsec, tfl, 0], group[tsec, tfl, 1]
    has_rows = start >= 0 and end > start
    if not has_rows:
        start, end = 0, 0
    high, sill = _screen(vx, vy, tx, ty, obstacles, heights, not vfl > tfl,
                         open_segs[start:end], open_sill[start:end], COVER_REACH)
    if sill < 0 and has_rows:
        best = -1.0
        sill = 0.0
        for k in range(start, end):
            if open_section[k] != tsec:
                continue
            d = _segment_distance(tx, ty, open_segs[k])
            if d <= OPENING_REACH and (best < 0 or d < best):
                best = d
                sill = open_sill[k]
    return float(max(high, sill))


@jit_inline
def _fifths(screen: float, stance: int, outside: bool, mids: Any, n_mids: Any) -> int:
    side = 1 if outside else 0
    count = 0
    for k in range(n_mids[stance, side]):
        if mids[stance, side, k] > screen:
            count += 1
    return count


@jit_inline
def _band(gap: float, limits: Any) -> int:
    for k in range(limits.shape[0]):
        if gap <= limits[k] + ROUNDING:
            return k
    return int(limits.shape[0])


@jit
def can_lean_kernel(xy: Any, sec: Any, fl: Any, open_segs: Any, open_section: Any,
                    open_lean: Any, group: Any) -> Any:
    """`MapGeometry.can_lean` of each place."""
    out = np.zeros(xy.shape[0], dtype=np.bool_)
    for i in range(xy.shape[0]):
        s = sec[i]
        if s < 0:
            continue
        start, end = group[s, fl[i], 0], group[s, fl[i], 1]
        for k in range(max(start, 0), end):
            if open_section[k] == s and open_lean[k] and \
                    _segment_distance(xy[i, 0], xy[i, 1], open_segs[k]) <= LEAN_REACH:
                out[i] = True
                break
    return out


@jit
def place_scores_kernel(
    base: Any, sxy: Any, ssec: Any, sfl: Any,
    txy: Any, tsec: Any, tfl: Any, tstance: Any, tweight: Any, tstep: Any, step: int,
    fired_after: float, tlimits: Any, todds: Any,
    my_limits: Any, my_odds: Any, harm: float, risk_weight: float, fired_first: float,
    out_after: float,
    pxy: Any, psec: Any, pfl: Any, use_watch: bool, defending: bool,
    watches: float, watched_cost: float,
    obstacles: Any, heights: Any, open_segs: Any, open_sill: Any, open_section: Any,
    open_lean: Any, group: Any, mids: Any, n_mids: Any, sight_tables: Any,
) -> Any:
    """The best score of each place and the stance (index) that gets it: the ground's
    score (`base`), plus the fight (the harm the figure does against the fire it draws,
    threat by threat in the view's order), plus what it watches (`use_watch`), summed in
    the order of the Python reference. Whether each place can lean out and what it sees
    of the threats and the watched points (the sight engine's `kernel_tables`) are worked
    out here too: one compiled call a decision. A threat of a later step (`tstep` above
    the figure's `step`) fires first; one of an earlier step fires after the figure, its
    fire weighed by `fired_after`."""
    n_spots, n_threats = sxy.shape[0], txy.shape[0]
    n_points = pxy.shape[0]
    slean = can_lean_kernel(sxy, ssec, sfl, open_segs, open_section, open_lean, group)
    if n_threats > 0:
        seen = visible_matrix_kernel(sxy, ssec, sfl, txy, tsec, tfl, sight_tables)
    else:
        seen = np.zeros((n_spots, 0), dtype=np.bool_)
    if use_watch:
        watched = visible_matrix_kernel(sxy, ssec, sfl, pxy, psec, pfl, sight_tables)
    else:
        watched = np.zeros((n_spots, 0), dtype=np.bool_)
        n_points = 0
    best_score = np.empty(n_spots)
    best_stance = np.empty(n_spots, dtype=np.int64)
    stances = np.array([STANDING, CROUCHING, LEANING], dtype=np.int64)
    their = np.empty(n_threats)
    mine_of = np.empty(n_threats)
    looks = np.zeros(n_points, dtype=np.bool_)
    back = np.empty(n_points)
    for i in range(n_spots):
        x, y, s, f = sxy[i, 0], sxy[i, 1], ssec[i], sfl[i]
        for j in range(n_threats):
            if seen[i, j]:
                # of the threat, from the place; of the place, from the threat
                their[j] = _screen_of(x, y, s, f, txy[j, 0], txy[j, 1], tsec[j], tfl[j],
                                      obstacles, heights, open_segs, open_sill,
                                      open_section, group)
                mine_of[j] = _screen_of(txy[j, 0], txy[j, 1], tsec[j], tfl[j], x, y, s, f,
                                        obstacles, heights, open_segs, open_sill,
                                        open_section, group)
        if use_watch:
            for p in range(n_points):
                looks[p] = False
                if watched[i, p]:
                    outside_p = psec[p] >= 0 and s != psec[p]
                    ahead = _screen_of(x, y, s, f, pxy[p, 0], pxy[p, 1], psec[p], pfl[p],
                                       obstacles, heights, open_segs, open_sill,
                                       open_section, group)
                    if _fifths(ahead, STANDING, outside_p, mids, n_mids) > 0:
                        looks[p] = True
                        back[p] = _screen_of(pxy[p, 0], pxy[p, 1], psec[p], pfl[p], x, y, s,
                                             f, obstacles, heights, open_segs, open_sill,
                                             open_section, group)
        chosen = -1
        top = 0.0
        for k in range(3 if slean[i] else 2):
            stance = stances[k]
            best = 0.0
            risk = 0.0
            survive = 1.0
            for j in range(n_threats):
                if not seen[i, j]:
                    continue
                outside_t = tsec[j] >= 0 and s != tsec[j]
                outside_me = s >= 0 and tsec[j] != s
                mine = _fifths(their[j], tstance[j], outside_t, mids, n_mids)
                theirs = _fifths(mine_of[j], stance, outside_me, mids, n_mids)
                if mine == 0 or theirs == 0:
                    continue
                gap = np.hypot(x - txy[j, 0], y - txy[j, 1])
                w = tweight[j]
                best = max(best, w * my_odds[_band(gap, my_limits), mine])
                danger = w * todds[j, _band(gap, tlimits[j]), theirs]
                if tstep[j] > step:
                    risk += danger * fired_first
                    survive *= 1 - danger * out_after
                else:
                    risk += danger * (1.0 if tstep[j] == step else fired_after)
            score = base[i] + (harm * best * survive - risk_weight * risk)
            if use_watch:
                count = 0
                outside_s = s >= 0
                for p in range(n_points):
                    if looks[p] and _fifths(back[p], stance, outside_s and psec[p] != s,
                                            mids, n_mids) > 0:
                        count += 1
                if defending:
                    score += watches * min(count, 5)
                else:
                    score += watched_cost * min(count, 6)
            if chosen < 0 or score > top + 1e-9:
                chosen, top = stance, score
        best_score[i] = top
        best_stance[i] = chosen
    return best_score, best_stance


@jit
def mutual_kernel(axy: Any, asec: Any, afl: Any, ast: Any, bxy: Any, bsec: Any, bfl: Any,
                  bst: Any, los: Any, obstacles: Any, heights: Any, open_segs: Any,
                  open_sill: Any, open_section: Any, group: Any, mids: Any,
                  n_mids: Any) -> Any:
    """`MapGeometry.mutual_in_sight` of every pair (a, b) with a line of sight (`los`):
    (fifths of b that a sees, fifths of a that b sees), both 0 unless each sees the
    other; one compiled call for what the rules ask pair by pair."""
    of_b = np.zeros(los.shape, dtype=np.int64)
    of_a = np.zeros(los.shape, dtype=np.int64)
    for i in range(los.shape[0]):
        x, y, s, f = axy[i, 0], axy[i, 1], asec[i], afl[i]
        for j in range(los.shape[1]):
            if not los[i, j]:
                continue
            tx, ty, ts, tf = bxy[j, 0], bxy[j, 1], bsec[j], bfl[j]
            seen = _fifths(_screen_of(x, y, s, f, tx, ty, ts, tf, obstacles, heights,
                                      open_segs, open_sill, open_section, group),
                           bst[j], ts >= 0 and s != ts, mids, n_mids)
            if seen == 0:
                continue
            shown = _fifths(_screen_of(tx, ty, ts, tf, x, y, s, f, obstacles, heights,
                                       open_segs, open_sill, open_section, group),
                            ast[i], s >= 0 and ts != s, mids, n_mids)
            if shown:
                of_b[i, j], of_a[i, j] = seen, shown
    return of_b, of_a


def mutual_matrix(geometry: MapGeometry, a: list[Position], a_stances: list[Stance],
                  b: list[Position], b_stances: list[Stance],
                  los: BoolArray) -> tuple[list[list[int]], list[list[int]]]:
    """`mutual_kernel` of positions and stances, as lists of lists: [i][j] for a[i]
    and b[j]."""
    body = body_arrays(geometry)
    sight = geometry.sight
    pa, pb = sight.position_arrays(a), sight.position_arrays(b)
    of_b, of_a = mutual_kernel(
        pa.xy, pa.section, pa.floor, np.array([STANCE_INDEX[s] for s in a_stances], dtype=np.int64),
        pb.xy, pb.section, pb.floor, np.array([STANCE_INDEX[s] for s in b_stances], dtype=np.int64),
        np.ascontiguousarray(los, dtype=np.bool_), body.obstacle_segs,
        body.obstacle_heights, body.open_segs, body.open_sill, body.open_section,
        body.group, body.mids, body.n_mids)
    return of_b.tolist(), of_a.tolist()


@jit
def sight_mutual_kernel(axy: Any, asec: Any, afl: Any, ast: Any, bxy: Any, bsec: Any,
                        bfl: Any, bst: Any, obstacles: Any, heights: Any, open_segs: Any,
                        open_sill: Any, open_section: Any, group: Any, mids: Any,
                        n_mids: Any, sight_tables: Any) -> Any:
    """`mutual_kernel` of the pairs with a line of sight, found here with the sight
    engine's `kernel_tables` (`visible_matrix_kernel`): one compiled call."""
    los = visible_matrix_kernel(axy, asec, afl, bxy, bsec, bfl, sight_tables)
    return mutual_kernel(axy, asec, afl, ast, bxy, bsec, bfl, bst, los, obstacles, heights,
                         open_segs, open_sill, open_section, group, mids, n_mids)


def mutual_sight(geometry: MapGeometry, sight: SightEngine, a: list[Position],
                 a_stances: list[Stance], b: list[Position],
                 b_stances: list[Stance]) -> tuple[IntArray, IntArray]:
    """`mutual_matrix` of every pair, with the line of sight `sight` finds: (fifths of
    b[j] that a[i] sees, fifths of a[i] that b[j] sees), both 0 unless each sees the
    other."""
    return mutual_sight_arrays(geometry, sight, sight.position_arrays(a),
                               stance_indexes(a_stances), sight.position_arrays(b),
                               stance_indexes(b_stances))


def stance_indexes(stances: list[Stance]) -> IntArray:
    """The stances as the kernels read them (`STANCE_INDEX`)."""
    return np.array([STANCE_INDEX[s] for s in stances], dtype=np.int64)


def mutual_sight_arrays(geometry: MapGeometry, sight: SightEngine, pa: PositionArrays,
                        ast: IntArray, pb: PositionArrays,
                        bst: IntArray) -> tuple[IntArray, IntArray]:
    """`mutual_sight` of positions and stances already made arrays (`position_arrays`,
    `stance_indexes`): a caller that keeps those of figures that did not move spares
    making them again."""
    body = body_arrays(geometry)
    found: tuple[IntArray, IntArray] = sight_mutual_kernel(
        pa.xy, pa.section, pa.floor, ast, pb.xy, pb.section, pb.floor, bst,
        body.obstacle_segs, body.obstacle_heights, body.open_segs, body.open_sill,
        body.open_section, body.group, body.mids, body.n_mids, sight.kernel_tables)
    return found
