"""Cover, worked out from where the firer and the target stand (never typed in).

Degrees are counted in quarters (0, 1 = 1/4, 2 = 1/2, 3 = 3/4):
- a target inside a building is covered by the opening the line of fire comes through:
  a window or firing slit 3/4, a doorway 1/2; none from inside its own section;
- a target outside takes the best cover of the obstacles the line crosses within
  COVER_REACH of it (low wall 1/2, fence or hedge 1/4, a high wall seen over from above
  3/4), and at least 1/4 when it stands in rough ground or rubble;
- a figure that ran this turn has no cover at all (the move rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from math import hypot
from typing import Any

import numpy as np
import numpy.typing as npt

from fibua.battlefield.geometry import jit
from fibua.battlefield.model import ObstacleKind, OpeningKind, Point, Position, TerrainKind
from fibua.battlefield.sight import SightEngine, per_map, per_query
from fibua.rulesets.street_fight.state import Figure

COVER_REACH = 1.0  # inches: an obstacle this close to the target, between it and the firer
OBSTACLE_COVER = {
    ObstacleKind.LOW_WALL: 2,
    ObstacleKind.HEDGE: 1,
    ObstacleKind.FENCE: 1,
    ObstacleKind.HIGH_WALL: 3,
}
OPENING_COVER = {OpeningKind.WINDOW: 3, OpeningKind.SLIT: 3, OpeningKind.DOOR: 2}
GROUND_COVER = {TerrainKind.ROUGH: 1, TerrainKind.RUBBLE: 1}
GROUND_COVER_MAX = max(GROUND_COVER.values())


def cover_quarters(sight: SightEngine, firer: Position, target: Figure) -> int:
    if target.ran:
        return 0
    return position_cover(sight, firer, target.pos)


def position_cover(sight: SightEngine, firer: Position, target: Position) -> int:
    if target.section is not None:
        if firer.section == target.section:
            return 0
        return _opening_cover(sight, firer, target)
    best = GROUND_COVER.get(sight.terrain_at(target.point), 0)
    length = firer.distance(target)
    for obstacle, along in sight.obstacles_crossed(firer.point, target.point):
        if length - along <= COVER_REACH:
            best = max(best, OBSTACLE_COVER[obstacle.kind])
    return best


def has_half_cover(sight: SightEngine, firer: Position, target: Position) -> bool:
    """Whether the target has at least 1/2 cover from the firer (position_cover >= 2). Rough
    ground never gives that much, so out in the open only the obstacles are looked at."""
    if target.section is not None or GROUND_COVER_MAX >= 2:
        return position_cover(sight, firer, target) >= 2
    length = firer.distance(target)
    return any(length - along <= COVER_REACH and OBSTACLE_COVER[obstacle.kind] >= 2
               for obstacle, along in sight.obstacles_crossed(firer.point, target.point))


#: inches of slack when ruling cover out by distance: `has_half_cover` measures along the
#: line of fire in ordinary float arithmetic
REACH_SLACK = 1e-6


Segment = tuple[Point, Point]


def half_cover_near(sight: SightEngine, a: Point, b: Point) -> list[Segment]:
    """The segments of obstacles worth 1/2 within COVER_REACH of the segment ab: a spot on
    ab out in the open farther than that from all of them has no 1/2 cover from any side
    (see `may_have_half_cover`). For the many spots of one straight path, found once."""
    return segments_near(_half_cover_segments(sight), a, b, COVER_REACH + REACH_SLACK)


def segments_near(segments: Sequence[Segment], a: Point, b: Point, reach: float) -> list[Segment]:
    """The segments within `reach` of the segment ab (bounding boxes first: most are far)."""
    low_x, high_x = min(a[0], b[0]) - reach, max(a[0], b[0]) + reach
    low_y, high_y = min(a[1], b[1]) - reach, max(a[1], b[1]) + reach
    return [(c, d) for c, d in segments
            if min(c[0], d[0]) <= high_x and max(c[0], d[0]) >= low_x
            and min(c[1], d[1]) <= high_y and max(c[1], d[1]) >= low_y
            and segment_distance(a, b, c, d) <= reach]


def may_have_half_cover(obstacles: list[Segment], spot: Position) -> bool:
    """False when `has_half_cover` is surely False for the spot from any firer: it is out
    in the open, farther than COVER_REACH from the obstacles worth 1/2 near it (those of
    `half_cover_near`). Rough ground never gives 1/2."""
    if spot.section is not None or GROUND_COVER_MAX >= 2:
        return True
    reach = COVER_REACH + REACH_SLACK
    return any(_point_segment_distance(spot.point, a, b) <= reach for a, b in obstacles)


@per_map()
def _half_cover_segments(sight: SightEngine) -> tuple[Segment, ...]:
    """The segments of the obstacles worth at least 1/2: the map never changes."""
    return tuple(pair for obstacle in sight.battlefield.obstacles
                 if OBSTACLE_COVER[obstacle.kind] >= 2 for pair in pairwise(obstacle.points))


def _opening_cover(sight: SightEngine, firer: Position, target: Position) -> int:
    assert target.section is not None
    segments, covers = _opening_rows(sight, target.section, target.floor)
    best = _best_crossed(float(firer.x), float(firer.y), float(target.x), float(target.y),
                         segments, covers)
    return best or 3  # seen through an opening of an adjoining section: treat as a window


@per_query()  # asked of the section a target stands in: kept by the asking fork
def _opening_rows(sight: SightEngine, section_id: str,
                  floor: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The openings of a section on one floor, as segments (x0, y0, x1, y1) and the cover
    each gives: the map never changes, and cover is asked for thousands of times a game."""
    section = sight.battlefield.section(section_id)
    openings = [o for o in section.openings if o.floor == floor]
    segments = [[*a, *b] for a, b in map(section.opening_segment, openings)]
    return (np.array(segments, dtype=np.float64).reshape(-1, 4),
            np.array([OPENING_COVER[o.kind] for o in openings], dtype=np.int64))


@jit
def _best_crossed(px: float, py: float, qx: float, qy: float, segments: Any,
                  covers: Any) -> int:
    """The best cover of the segments that pq meets (`_segments_cross`), or 0."""
    best = 0
    for k in range(segments.shape[0]):
        ax, ay, bx, by = segments[k, 0], segments[k, 1], segments[k, 2], segments[k, 3]
        d1 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        d2 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
        d3 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
        d4 = (qx - px) * (by - py) - (qy - py) * (bx - px)
        if d1 * d2 <= 0 and d3 * d4 <= 0:
            best = max(best, covers[k])
    return best


def _segments_cross(
    px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float, by: float
) -> bool:
    """Whether segments pq and ab meet: the orientation tests, written out flat."""
    d1 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    d2 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
    d3 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
    d4 = (qx - px) * (by - py) - (qy - py) * (bx - px)
    return d1 * d2 <= 0 and d3 * d4 <= 0


def has_cover_nearby(sight: SightEngine, pos: Position) -> bool:
    """Whether a figure here could take full cover: inside a building, or within reach of
    a wall or hedge worth at least 1/2 from some direction."""
    if pos.section is not None:
        return True
    for obstacle in sight.battlefield.obstacles:
        if OBSTACLE_COVER[obstacle.kind] < 2:
            continue
        pts = obstacle.points
        for a, b in pairwise(pts):
            if _point_segment_distance(pos.point, a, b) <= COVER_REACH:
                return True
    return False


def segment_distance(a: Point, b: Point, c: Point, d: Point) -> float:
    """The shortest distance between segments ab and cd: 0 when they cross, else from an
    end of one to the other."""
    if _segments_cross(*a, *b, *c, *d):
        return 0.0
    return min(_point_segment_distance(a, c, d), _point_segment_distance(b, c, d),
               _point_segment_distance(c, a, b), _point_segment_distance(d, a, b))


def _point_segment_distance(
    p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / span))
    return hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)
