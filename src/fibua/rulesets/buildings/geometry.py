"""The places the rules measure from inside a building: a section's middle, the point
just inside each opening of a floor, the walls, and how far a point is from a section.

A section never changes (its state - burning, rubble - lives in the sight engine; a made
opening makes a new battlefield at setup), so what is worked out of one alone is kept
(`_per_section`), keyed by the very section object."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import update_wrapper
from math import hypot
from typing import TypeVar

from fibua.battlefield.model import Construction, Opening, OpeningKind, Point, Position, Section

#: inches inside a wall that a model at an opening stands
INSET = 0.05
#: sections' answers kept at most, per function (the memo starts again when full: games
#: with made openings bring new sections)
MEMO_LIMIT = 4096

A = TypeVar("A")
R = TypeVar("R")


def _per_section(fn: Callable[[Section, A], R]) -> Callable[[Section, A], R]:
    """Remember `fn(section, arg)` by the section's identity and `arg`. Hashing a section by
    value costs more than most of these functions; an identity is safe because the memo
    holds the section itself, so no other object can take its id while it is kept. Callers
    must not change what they are given (tuples, or lists copied by the caller)."""
    memo: dict[tuple[int, A], tuple[Section, R]] = {}

    def memoized(section: Section, arg: A) -> R:
        key = (id(section), arg)
        found = memo.get(key)
        if found is None or found[0] is not section:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            found = memo[key] = (section, fn(section, arg))
        return found[1]

    memoized.cache_clear = memo.clear  # type: ignore[attr-defined]
    return update_wrapper(memoized, fn)


def centroid(section: Section) -> Point:
    return _centroid(section, None)


@_per_section
def _centroid(section: Section, _: None) -> Point:
    pts = section.footprint
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def opening_middle(section: Section, opening: Opening) -> Point:
    (ax, ay), (bx, by) = section.opening_segment(opening)
    return ((ax + bx) / 2, (ay + by) / 2)


def _inward(section: Section, wall: int, point: Point, inset: float) -> Point:
    (x0, y0), (x1, y1) = section.wall(wall)
    length = hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # left of the wall's direction
    cx, cy = centroid(section)
    if (cx - point[0]) * nx + (cy - point[1]) * ny < 0:
        nx, ny = -nx, -ny
    return (point[0] + nx * inset, point[1] + ny * inset)


@dataclass(frozen=True, slots=True)
class Port:
    """Where a unit inside looks and shoots from, and is seen and shot at: just inside an
    opening of its floor (index in the section's openings, None from a roof)."""

    pos: Position
    wall: int | None
    opening: int | None


def ports(section: Section, floor: int) -> tuple[Port, ...]:
    """The ports of a floor: one an opening; a flat roof has its middle and a point by each
    wall's middle (a unit there is seen and fires along the whole edge)."""
    return _ports(section, floor)


def port_places(section: Section, floor: int) -> tuple[Position, ...]:
    """Where the ports of a floor stand (`ports`)."""
    return _port_places(section, floor)


@_per_section
def _port_places(section: Section, floor: int) -> tuple[Position, ...]:
    return tuple(p.pos for p in _ports(section, floor))


@_per_section
def _ports(section: Section, floor: int) -> tuple[Port, ...]:
    sid = section.id
    if section.flat_roof and floor == section.floors:
        out = []
        for wall in range(len(section.footprint)):
            (x0, y0), (x1, y1) = section.wall(wall)
            mid = _inward(section, wall, ((x0 + x1) / 2, (y0 + y1) / 2), INSET)
            out.append(Port(Position(mid[0], mid[1], sid, floor), wall, None))
        return tuple(out)
    out = []
    for k, opening in enumerate(section.openings):
        if opening.floor != floor or not fires_through(section, opening):
            continue
        x, y = _inward(section, opening.wall, opening_middle(section, opening), INSET)
        out.append(Port(Position(x, y, sid, floor), opening.wall, k))
    return tuple(out)


def fires_through(section: Section, opening: Opening) -> bool:
    """Whether fire goes in and out by the opening: a bunker's only by its slits (the
    seed: not through doors), any other section's by every opening."""
    return section.construction is not Construction.BUNKER or opening.kind is OpeningKind.SLIT


def way_in(section: Section, opening: Opening) -> bool:
    """Whether troops go in and out by the opening: doors and windows, never a slit, and a
    bunker's doors only (the seed: accessed through doors and not through firing slits)."""
    if section.construction is Construction.BUNKER:
        return opening.kind is OpeningKind.DOOR
    return opening.kind is not OpeningKind.SLIT


def ground_doors(section: Section) -> list[Point]:
    """The ground-floor ways in of a section (`way_in`), a point just outside each."""
    return list(_ground_doors(section, None))


@_per_section
def _ground_doors(section: Section, _: None) -> tuple[Point, ...]:
    out = []
    for opening in section.openings:
        if opening.floor == 0 and way_in(section, opening):
            mid = opening_middle(section, opening)
            inner = _inward(section, opening.wall, mid, INSET)
            out.append((2 * mid[0] - inner[0], 2 * mid[1] - inner[1]))
    return tuple(out)


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx
                                                    + (p[1] - a[1]) * dy) / length2))
    return hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def distance_to_section(p: Point, section: Section) -> float:
    """Inches from a point outside to the nearest of the section's walls."""
    return min(distance_to_segment(p, *section.wall(k)) for k in range(len(section.footprint)))


def outside_marks(section: Section) -> list[Position]:
    """A point just outside the middle of each wall: what a firer outside aims at to hit a
    section's walls."""
    return list(_outside_marks(section, None))


@_per_section
def _outside_marks(section: Section, _: None) -> tuple[Position, ...]:
    cx, cy = centroid(section)
    out = []
    for k in range(len(section.footprint)):
        (x0, y0), (x1, y1) = section.wall(k)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        d = max(1e-9, hypot(mx - cx, my - cy))
        out.append(Position(mx + (mx - cx) / d * INSET, my + (my - cy) / d * INSET))
    return tuple(out)


#: points along each wall, as shares of its length, that a heavy weapon may aim at
WALL_SHARES = (0.1, 0.3, 0.5, 0.7, 0.9)


def wall_marks(section: Section) -> tuple[Position, ...]:
    """Points just outside each wall, along its length: what a heavy weapon needs a line
    of fire to (any wall of the floor will do; big shells go through walls)."""
    return _wall_marks(section, None)


@_per_section
def _wall_marks(section: Section, _: None) -> tuple[Position, ...]:
    out = []
    for k in range(len(section.footprint)):
        (x0, y0), (x1, y1) = section.wall(k)
        for t in WALL_SHARES:
            p = (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
            x, y = _inward(section, k, p, -INSET)
            out.append(Position(x, y))
    return tuple(out)


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd cross (touching counts)."""
    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = side(c, d, a), side(c, d, b)
    d3, d4 = side(a, b, c), side(a, b, d)
    return d1 * d2 <= 0 and d3 * d4 <= 0


def crosses_other_wall(section: Section, inside: Point, outside: Point) -> bool:
    """Whether the line from a point just inside a wall of the section (a port) to a point
    outside crosses any wall but the port's own: it would go across the inside and out by
    another wall's opening."""
    own = min(range(len(section.footprint)),
              key=lambda k: distance_to_segment(inside, *section.wall(k)))
    return any(_segments_cross(inside, outside, *section.wall(k))
               for k in range(len(section.footprint)) if k != own)
