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

from fibua.battlefield.model import Opening, Point, Position, Section

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
        if opening.floor != floor:
            continue
        x, y = _inward(section, opening.wall, opening_middle(section, opening), INSET)
        out.append(Port(Position(x, y, sid, floor), opening.wall, k))
    return tuple(out)


def ground_doors(section: Section) -> list[Point]:
    """The ground-floor doors and windows of a section, a point just outside each."""
    return list(_ground_doors(section, None))


@_per_section
def _ground_doors(section: Section, _: None) -> tuple[Point, ...]:
    out = []
    for opening in section.openings:
        if opening.floor == 0:
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
