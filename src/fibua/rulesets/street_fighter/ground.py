"""The ground as Street Fighter reads it: building areas, cover, ranges, ways through, and
the compass. Worked out from the public map and cached per scenario."""

from __future__ import annotations

from functools import lru_cache
from math import atan2, hypot, pi
from typing import Any

from shapely.geometry import Point, Polygon

from fibua.battlefield.model import Construction, ObstacleKind, Position, TerrainKind
from fibua.battlefield.sight import SightEngine
from fibua.rulesets.street_fighter.tables import COMPASS, COVER_REACH, Body, Cover

COVERING_OBSTACLES = frozenset({ObstacleKind.LOW_WALL, ObstacleKind.HIGH_WALL,
                                ObstacleKind.HEDGE})
COVERING_GROUND = frozenset({TerrainKind.ROUGH, TerrainKind.RUBBLE})
MEMO_LIMIT = 200_000  # entries per cache before it starts afresh
SPOT_STEP = 1.5  # cm between the places units take inside a building area


def memo(sight: SightEngine, name: str) -> dict[Any, Any]:
    """A cache living as long as the map's sight engine: answers about places (where a
    unit stands, the section it is in) in the asking engine's own memo, which no other
    user of the map reads; the grid and the routes to public objectives in the store all
    forks of the engine share (`SightEngine.shared`)."""
    store = sight.shared if name in _WHOLE_MAP else sight.memo
    cache: dict[Any, Any] = store.setdefault((__name__, name), {})
    if len(cache) > MEMO_LIMIT:
        cache.clear()  # positions differ from game to game: keep memory bounded
    return cache


#: asked with nothing of a game in the question: the spots and the bounds of a building
#: area are asked by its public name, and worked out from the map alone
_WHOLE_MAP = frozenset({"grid", "routes", "spots", "boxes"})


def in_cover(sight: SightEngine, pos: Position) -> bool:
    """In a building area, on rough ground or rubble, or close behind a wall or hedge."""
    if pos.section is not None:
        return True
    cache = memo(sight, "cover")
    key = (round(pos.x, 2), round(pos.y, 2))
    if key not in cache:
        cache[key] = sight.terrain_at(pos.point) in COVERING_GROUND or _near_obstacle(
            sight, pos)
    found: bool = cache[key]
    return found


def _near_obstacle(sight: SightEngine, pos: Position) -> bool:
    for obstacle in sight.battlefield.obstacles:
        if obstacle.kind not in COVERING_OBSTACLES:
            continue
        for a, b in zip(obstacle.points, obstacle.points[1:], strict=False):
            if point_segment_distance(pos.point, a, b) <= COVER_REACH:
                return True
    return False


def point_segment_distance(
    p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / span))
    return hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def target_cover(sight: SightEngine, pos: Position, cover_is_building: bool = False) -> Cover:
    """Building area or open, for a unit on foot (vehicles are never in buildings)."""
    if pos.section is not None:
        construction = sight.battlefield.section(pos.section).construction
        strong = construction in (Construction.STRONG, Construction.BUNKER)
        return Cover.STRONG_BUILDING if strong else Cover.BUILDING
    if sight.terrain_at(pos.point) is TerrainKind.RUBBLE:
        return Cover.BUILDING  # a ruined building area is still a building area
    if cover_is_building and in_cover(sight, pos):
        return Cover.BUILDING
    return Cover.OPEN


def cover_for(sight: SightEngine, body: Body, pos: Position,
              cover_is_building: bool = False) -> Cover:
    """Where a target is, for the shooting table's modifiers."""
    if body is Body.ARMOURED:
        return Cover.ARMOURED_HALFTRACK
    if body is Body.SOFT:
        return Cover.LORRY
    if body is Body.TANK:
        return Cover.OPEN
    return target_cover(sight, pos, cover_is_building)


def range_between(sight: SightEngine, a: Position, b: Position) -> float:
    """Range from a unit to another, measured from where the line leaves a's building."""
    cache = memo(sight, "range")
    key = (a.x, a.y, a.section, b.x, b.y, b.section)
    found = cache.get(key)
    if found is None:
        found = cache[key] = sight.range_between(a, b)
    value: float = found
    return value


def compass(frm: tuple[float, float], to: tuple[float, float]) -> str:
    """The 8-point compass direction from `frm` toward `to` (north is up the table)."""
    angle = atan2(to[1] - frm[1], to[0] - frm[0])
    return COMPASS[round(angle / (pi / 4)) % 8]


@lru_cache(maxsize=256)
def _polygon(points: tuple[tuple[float, float], ...]) -> Polygon:
    return Polygon(points)


def distance_to_section(sight: SightEngine, pos: Position, section_id: str) -> float:
    # kept in the asking engine's memo (a question about a place): the computer asks it
    # of every friend for every area to take, at every decision, and most stand still
    cache = memo(sight, "to-section")
    key = (pos.x, pos.y, section_id)
    found: float | None = cache.get(key)
    if found is None:
        footprint = sight.battlefield.section(section_id).footprint
        found = cache[key] = float(_polygon(footprint).distance(Point(pos.x, pos.y)))
    return found


BOX_MARGIN = 1e-6  # cm: far more than the rounding of any distance on a table


def surely_beyond(sight: SightEngine, pos: Position, section_id: str, reach: float) -> bool:
    """Whether the place is surely farther than `reach` from the building area, judged
    from the area's bounding box (no nearer than it) with a margin: True only where
    `distance_to_section(...) > reach` is, at a small part of its cost."""
    boxes = memo(sight, "boxes")
    box = boxes.get(section_id)
    if box is None:
        footprint = sight.battlefield.section(section_id).footprint
        xs, ys = [p[0] for p in footprint], [p[1] for p in footprint]
        box = boxes[section_id] = (min(xs), min(ys), max(xs), max(ys))
    x0, y0, x1, y1 = box
    dx = max(x0 - pos.x, 0.0, pos.x - x1)
    dy = max(y0 - pos.y, 0.0, pos.y - y1)
    return hypot(dx, dy) > reach + BOX_MARGIN


def section_spots(sight: SightEngine, section_id: str) -> list[tuple[float, float]]:
    """Places inside a building area for the units in it, the middle first."""
    cache = memo(sight, "spots")
    if section_id not in cache:
        poly = _polygon(sight.battlefield.section(section_id).footprint)
        inner = poly.buffer(-0.75)
        centre = inner.representative_point() if not inner.is_empty else poly.centroid
        x0, y0, x1, y1 = poly.bounds
        spots = []
        x = x0 + SPOT_STEP / 2
        while x < x1:
            y = y0 + SPOT_STEP / 2
            while y < y1:
                if not inner.is_empty and inner.contains(Point(x, y)) and \
                        sight.section_at((x, y)) == section_id:
                    spots.append((round(x, 2), round(y, 2)))
                y += SPOT_STEP
            x += SPOT_STEP
        spots.sort(key=lambda p: (hypot(p[0] - centre.x, p[1] - centre.y), p))
        cache[section_id] = spots or [(round(centre.x, 2), round(centre.y, 2))]
    found: list[tuple[float, float]] = cache[section_id]
    return found


def section_centre(sight: SightEngine, section_id: str) -> tuple[float, float]:
    return section_spots(sight, section_id)[0]


def blocked_for(sight: SightEngine, a: Position, b: Position, foot: bool,
                entering_ok: frozenset[str]) -> str | None:
    """Why a straight leg from a to b is not a move, or None. Infantry pass walls by doors
    and windows, and enter only building areas named in `entering_ok`; vehicles keep to
    the streets; nobody climbs a high wall."""
    high_wall, met, crosses_wall = _leg(sight, a, b)
    if high_wall is not None:
        return f"the high wall {high_wall!r} cannot be crossed"
    if not foot:
        if met or b.section is not None:
            return "vehicles cannot go into building areas"
        return None
    if crosses_wall:
        return "it goes through a wall (use doors and windows)"
    entered = (met | ({b.section} if b.section else set())) - {a.section}
    closed = sorted(s for s in entered if s not in entering_ok)
    if closed:
        return (f"building area {closed[0]!r} must be cleared first: close assault it "
                "(only areas your own troops hold can simply be walked into)")
    return None


def _leg(sight: SightEngine, a: Position, b: Position
         ) -> tuple[str | None, frozenset[str], bool]:
    """What the map says of a straight leg: the first high wall it crosses, the building
    areas whose walls it meets, whether it goes through a wall. A question about places,
    kept in the asking engine's memo: the rules ask the same legs again (the order a
    computer weighed, then gave; the streets every game's units walk)."""
    cache = memo(sight, "legs")
    key = (a.x, a.y, a.section, a.floor, b.x, b.y, b.section, b.floor)
    found: tuple[str | None, frozenset[str], bool] | None = cache.get(key)
    if found is None:
        check = sight.move_check(a, b, through_windows=True)
        high_wall = next((o.id for o, _ in check.obstacles
                          if o.kind is ObstacleKind.HIGH_WALL), None)
        found = cache[key] = (high_wall, frozenset(c.section_id for c in check.walls),
                              check.crosses_wall)
    return found
