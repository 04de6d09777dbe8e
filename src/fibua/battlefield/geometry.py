"""Geometry shared by the sight engine and its Shapely reference.

Three things live here:

* The *definition* of where a section's walls are solid on a given floor
  (`SolidWalls`): each wall is cut into the closed sub-segments that are not covered by an
  opening on that floor. Both implementations test sight against exactly these float
  segments, which is what lets them agree bit for bit.
* Exact geometric predicates compiled with numba (`orient`, `segments_intersect`,
  `point_in_ring`). A float filter decides almost every case; when the float result is
  within its rounding bound the sign is recomputed exactly with floating-point expansions
  (Shewchuk's arithmetic), so touching, collinear and tangent cases are decided exactly.
* `jit`, numba with its disk cache kept in a folder named by a digest of fibua's sources
  (`kernel_cache`).
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from math import hypot
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit
from numba.core import config as numba_config

from fibua.battlefield.model import Battlefield, Opening, OpeningKind, Point, Section

Segment = tuple[Point, Point]

F = TypeVar("F", bound=Callable[..., Any])


PACKAGE = Path(__file__).resolve().parent.parent  # fibua's own folder
STALE_AFTER = 3600.0  # seconds a cache folder of other sources is left before it goes


def sources_digest(package: Path) -> str:
    """A digest of every source file of the package, by path and content."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def kernel_cache(package: Path) -> Path:
    """The folder compiled kernels are kept in, one for each state of the package's
    sources: numba checks only the file of the function it caches, so a kernel that
    inlines another from a changed file would otherwise load stale. Folders of other
    sources, untouched for an hour, are removed."""
    folders = package / "__pycache__"
    found = folders / f"numba-{sources_digest(package)}"
    for other in folders.glob("numba-*"):
        try:
            if other != found and time.time() - other.stat().st_mtime > STALE_AFTER:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue  # another process removed it first
    return found


# numba's settings are module variables, set from NUMBA_* (NUMBA_CACHE_DIR, where set, is
# the user's choice); the folder holds every kernel compiled in this process
_NUMBA_SETTINGS: dict[str, Any] = vars(numba_config)
if not _NUMBA_SETTINGS.get("CACHE_DIR"):
    _NUMBA_SETTINGS["CACHE_DIR"] = str(kernel_cache(PACKAGE))


def jit(fn: F) -> F:
    """`njit` with an on-disk cache, or without one when no cache directory is writable
    (a read-only install must still work, only slower to start)."""
    try:
        return cast(F, njit(cache=True)(fn))
    except RuntimeError:
        return cast(F, njit(cache=False)(fn))


def jit_inline(fn: F) -> F:
    """Like `jit`, for the tiny predicates called in the hot loops."""
    try:
        return cast(F, njit(cache=True, inline="always")(fn))
    except RuntimeError:
        return cast(F, njit(cache=False, inline="always")(fn))


# --------------------------------------------------------------------------------------
# Openings as intervals along walls, and the solid wall pieces between them
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningSpan:
    """An opening seen as the interval [lo, hi] along one wall of one section."""

    kind: OpeningKind
    floor: int
    lo: float
    hi: float


#: how near a half hundredth a value scaled to hundredths may fall before `round` itself
#: settles it (the scaling is off by half a unit in the last place at most, far less)
_HALF_HAIR = 1e-6


def hundredths(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`round(v, 2)` of every value, to the last bit, in a few array operations: away
    from a half hundredth the nearest whole number of hundredths is that of the scaled
    value, and that number divided by 100 is the nearest float to the decimal, as `round`
    gives it. A value within a hair of a half is left to `round` itself."""
    scaled = values * 100.0
    out: npt.NDArray[np.float64] = np.rint(scaled) / 100.0
    near = np.abs(scaled - np.floor(scaled) - 0.5) < _HALF_HAIR
    if near.any():
        flat, given = out.reshape(-1), values.reshape(-1)
        for i in np.flatnonzero(near.reshape(-1)).tolist():
            flat[i] = round(float(given[i]), 2)
    return out


def wall_length(section: Section, wall: int) -> float:
    (x0, y0), (x1, y1) = section.wall(wall)
    return hypot(x1 - x0, y1 - y0)


def point_along(section: Section, wall: int, t: float) -> Point:
    """The point at distance t from the wall's start, computed exactly as
    `Section.opening_segment` does, so opening edges and wall pieces coincide."""
    (x0, y0), (x1, y1) = section.wall(wall)
    if t == 0.0:
        return (x0, y0)
    length = hypot(x1 - x0, y1 - y0)
    if t == length:
        return (x1, y1)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    return (x0 + ux * t, y0 + uy * t)


def _own_span(opening: Opening) -> OpeningSpan:
    half = opening.width / 2
    return OpeningSpan(opening.kind, opening.floor, opening.at - half, opening.at + half)


def _borrowed_span(
    section: Section, wall: int, segment: Segment, kind: OpeningKind, floor: int, tol: float
) -> OpeningSpan | None:
    """The span on `section`'s wall of another section's opening `segment`, if the opening
    lies on that wall (adjoining sections share the wall)."""
    (x0, y0), (x1, y1) = section.wall(wall)
    length = hypot(x1 - x0, y1 - y0)
    if length == 0.0:
        return None
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    ts = []
    for px, py in segment:
        if abs((px - x0) * uy - (py - y0) * ux) > tol:
            return None
        ts.append((px - x0) * ux + (py - y0) * uy)
    lo, hi = min(ts), max(ts)
    if hi <= 0.0 or lo >= length:
        return None
    return OpeningSpan(kind, floor, lo, hi)


def opening_spans(battlefield: Battlefield) -> dict[tuple[str, int], tuple[OpeningSpan, ...]]:
    """Every opening as a span on each wall it pierces, keyed by (section id, wall index).

    An opening of a section also counts for any other section of the same building whose
    wall it lies on: an inside door between adjoining sections opens both of them.
    """
    scale = max(battlefield.table.width, battlefield.table.height, 1.0)
    tol = 1e-9 * scale
    spans: dict[tuple[str, int], list[OpeningSpan]] = {}
    for building in battlefield.buildings:
        for section in building.sections:
            for opening in section.openings:
                if opening.width > 0:
                    spans.setdefault((section.id, opening.wall), []).append(_own_span(opening))
        for owner in building.sections:
            for other in building.sections:
                if other is not owner:
                    _add_borrowed(spans, owner, other, tol)
    return {key: tuple(value) for key, value in spans.items()}


def _add_borrowed(
    spans: dict[tuple[str, int], list[OpeningSpan]], owner: Section, other: Section, tol: float
) -> None:
    for opening in other.openings:
        if opening.width <= 0:
            continue
        segment = other.opening_segment(opening)
        for wall in range(len(owner.footprint)):
            span = _borrowed_span(owner, wall, segment, opening.kind, opening.floor, tol)
            if span is not None:
                spans.setdefault((owner.id, wall), []).append(span)


def _merged(intervals: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[tuple[float, float]] = []
    for lo, hi in sorted(intervals):
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def solid_pieces(
    section: Section,
    wall: int,
    spans: Iterable[OpeningSpan],
    floor: int,
    kinds: frozenset[OpeningKind] | None = None,
    open_roof: bool = True,
) -> list[Segment]:
    """The closed pieces of a wall that stay solid on `floor`, given the wall's openings.

    Only openings on `floor` (and of `kinds`, when given) open the wall. A figure on an
    accessible flat roof sees over every wall of its section, so for sight (`open_roof`)
    the roof has no solid wall. Touching the edge of an opening (a jamb) touches a solid
    piece.
    """
    if open_roof and section.flat_roof and floor == section.floors:
        return []
    length = wall_length(section, wall)
    gaps = _merged(
        (max(span.lo, 0.0), min(span.hi, length))
        for span in spans
        if span.floor == floor and (kinds is None or span.kind in kinds) and span.hi > span.lo
    )
    pieces: list[Segment] = []
    cursor = 0.0
    for lo, hi in gaps:
        if lo > cursor:
            pieces.append((point_along(section, wall, cursor), point_along(section, wall, lo)))
        cursor = max(cursor, hi)
    if cursor < length or length == 0.0:
        pieces.append((point_along(section, wall, cursor), point_along(section, wall, length)))
    return pieces


class SolidWalls:
    """Solid wall pieces per (section, wall, floor), built once per battlefield."""

    def __init__(self, battlefield: Battlefield) -> None:
        self.battlefield = battlefield
        self.spans = opening_spans(battlefield)

    def wall_spans(self, section_id: str, wall: int) -> tuple[OpeningSpan, ...]:
        return self.spans.get((section_id, wall), ())

    def pieces(
        self,
        section_id: str,
        wall: int,
        floor: int,
        kinds: frozenset[OpeningKind] | None = None,
        open_roof: bool = True,
    ) -> list[Segment]:
        section = self.battlefield.section(section_id)
        spans = self.wall_spans(section_id, wall)
        return solid_pieces(section, wall, spans, floor, kinds, open_roof)

    def section_pieces(self, section_id: str, floor: int) -> list[Segment]:
        section = self.battlefield.section(section_id)
        return [
            piece
            for wall in range(len(section.footprint))
            for piece in self.pieces(section_id, wall, floor)
        ]


# --------------------------------------------------------------------------------------
# Exact predicates (numba)
# --------------------------------------------------------------------------------------

_EPSILON = 2.0**-53
_SPLITTER = 134217729.0  # 2**27 + 1, splits a double into two non-overlapping halves
_CCW_ERRBOUND = (3.0 + 16.0 * _EPSILON) * _EPSILON


@jit_inline
def _two_sum(a: float, b: float) -> tuple[float, float]:
    x = a + b
    bv = x - a
    av = x - bv
    return x, (a - av) + (b - bv)


@jit_inline
def _two_diff(a: float, b: float) -> tuple[float, float]:
    x = a - b
    bv = a - x
    av = x + bv
    return x, (a - av) + (bv - b)


@jit_inline
def _split(a: float) -> tuple[float, float]:
    c = _SPLITTER * a
    big = c - a
    hi = c - big
    return hi, a - hi


@jit_inline
def _two_product(a: float, b: float) -> tuple[float, float]:
    x = a * b
    ahi, alo = _split(a)
    bhi, blo = _split(b)
    err = x - ahi * bhi
    err = err - alo * bhi
    err = err - ahi * blo
    return x, alo * blo - err


@jit_inline
def _grow(e: Any, length: int, b: float) -> int:
    # Grow-Expansion: adds b to the non-overlapping expansion e[:length] in place.
    q = b
    for i in range(length):
        q, h = _two_sum(q, e[i])
        e[i] = h
    e[length] = q
    return length + 1


@jit
def _orient_exact(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> int:
    acx, acxt = _two_diff(ax, cx)
    bcx, bcxt = _two_diff(bx, cx)
    acy, acyt = _two_diff(ay, cy)
    bcy, bcyt = _two_diff(by, cy)
    e = np.zeros(17)
    n = 0
    for u, v, sign in (
        (acx, bcy, 1.0),
        (acx, bcyt, 1.0),
        (acxt, bcy, 1.0),
        (acxt, bcyt, 1.0),
        (acy, bcx, -1.0),
        (acy, bcxt, -1.0),
        (acyt, bcx, -1.0),
        (acyt, bcxt, -1.0),
    ):
        hi, lo = _two_product(u, v)
        n = _grow(e, n, sign * lo)
        n = _grow(e, n, sign * hi)
    for i in range(n - 1, -1, -1):
        if e[i] > 0.0:
            return 1
        if e[i] < 0.0:
            return -1
    return 0


@jit_inline
def orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> int:
    """Sign of the turn a -> b -> c: 1 left (counter-clockwise), -1 right, 0 collinear.
    Exact while no product of coordinate differences underflows (differences of 1e-150 or
    more, or 0): inches on a table are far from that."""
    left = (ax - cx) * (by - cy)
    right = (ay - cy) * (bx - cx)
    det = left - right
    bound = _CCW_ERRBOUND * (abs(left) + abs(right))
    if det > bound:
        return 1
    if -det > bound:
        return -1
    return _orient_exact(float(ax), float(ay), float(bx), float(by), float(cx), float(cy))


@jit_inline
def segments_intersect(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float
) -> bool:
    """Whether closed segments ab and cd share at least one point (exact)."""
    if max(ax, bx) < min(cx, dx) or max(cx, dx) < min(ax, bx):
        return False
    if max(ay, by) < min(cy, dy) or max(cy, dy) < min(ay, by):
        return False
    o1 = orient(cx, cy, dx, dy, ax, ay)
    o2 = orient(cx, cy, dx, dy, bx, by)
    if o1 * o2 > 0:
        return False
    o3 = orient(ax, ay, bx, by, cx, cy)
    o4 = orient(ax, ay, bx, by, dx, dy)
    # When all four are zero the segments are collinear, and as their bounding boxes
    # overlap, so do they.
    return o3 * o4 <= 0


@jit
def point_in_ring(px: float, py: float, xs: Any, ys: Any, start: int, stop: int) -> int:
    """1 if the point is inside the ring xs/ys[start:stop], 0 on its boundary, -1 outside."""
    inside = False
    n = stop - start
    for k in range(n):
        i = start + k
        j = start + (k + 1) % n
        x0, y0, x1, y1 = xs[i], ys[i], xs[j], ys[j]
        if (
            min(x0, x1) <= px <= max(x0, x1)
            and min(y0, y1) <= py <= max(y0, y1)
            and orient(x0, y0, x1, y1, px, py) == 0
        ):
            return 0
        if (y0 > py) != (y1 > py):
            o = orient(x0, y0, x1, y1, px, py)
            if (y1 > y0 and o > 0) or (y1 < y0 and o < 0):
                inside = not inside
    return 1 if inside else -1


@jit_inline
def meeting_distance(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float
) -> float:
    """The distance from a along ab to the first point ab shares with cd, for segments
    known to meet (ordinary float arithmetic)."""
    rx, ry = bx - ax, by - ay
    rr = rx * rx + ry * ry
    sx, sy = dx - cx, dy - cy
    denom = rx * sy - ry * sx
    if rr == 0.0:
        t = 0.0
    elif denom != 0.0:
        t = ((cx - ax) * sy - (cy - ay) * sx) / denom
    else:
        # Collinear overlap: the first shared point is the nearer end of the overlap.
        t1 = ((cx - ax) * rx + (cy - ay) * ry) / rr
        t2 = ((dx - ax) * rx + (dy - ay) * ry) / rr
        t = min(t1, t2)
    return float(min(max(t, 0.0), 1.0) * np.sqrt(rr))


@jit
def hit_distances(ax: float, ay: float, bx: float, by: float, segs: Any) -> Any:
    """For each segment row (x0, y0, x1, y1) of `segs`: the distance from a along ab to the
    first point ab shares with it, or -1 when they do not meet. The meeting test is exact,
    the distance is ordinary float arithmetic."""
    out = np.full(segs.shape[0], -1.0)
    for k in range(segs.shape[0]):
        cx, cy, dx, dy = segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3]
        if segments_intersect(ax, ay, bx, by, cx, cy, dx, dy):
            out[k] = meeting_distance(ax, ay, bx, by, cx, cy, dx, dy)
    return out


@jit
def nearest_hit(ax: float, ay: float, bx: float, by: float, segs: Any, lo: int, hi: int) -> float:
    """The least of `hit_distances` over rows lo..hi-1 of `segs` that ab meets, or -1 when
    it meets none (one call instead of a slice, a mask and a minimum)."""
    nearest = -1.0
    for k in range(lo, hi):
        cx, cy, dx, dy = segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3]
        if segments_intersect(ax, ay, bx, by, cx, cy, dx, dy):
            d = meeting_distance(ax, ay, bx, by, cx, cy, dx, dy)
            if nearest < 0.0 or d < nearest:
                nearest = d
    return nearest


@jit
def nearest_hits_by_owner(
    ax: float, ay: float, bx: float, by: float, segs: Any, owner: Any
) -> tuple[Any, Any]:
    """Like `hit_distances`, folded per owner: the owners met (in row order) and, for each,
    the distance to the nearest meeting point. Rows of one owner must be consecutive."""
    dist = hit_distances(ax, ay, bx, by, segs)
    owners = np.empty(segs.shape[0], dtype=np.int64)
    nearest = np.empty(segs.shape[0])
    n = 0
    for k in range(segs.shape[0]):
        if dist[k] < 0.0:
            continue
        if n > 0 and owners[n - 1] == owner[k]:
            nearest[n - 1] = min(nearest[n - 1], dist[k])
        else:
            owners[n] = owner[k]
            nearest[n] = dist[k]
            n += 1
    return owners[:n], nearest[:n]
