"""Reference line of sight with Shapely: slow, one pair at a time, obviously correct.

It is the oracle the fast `SightEngine` is tested against and implements the rules stated
in `fibua.battlefield.sight` literally: for every section the segment could concern, apply
the rule for "neither / one / both endpoints in the section"; then the obstacles. The only
shared code is the definition of the solid wall pieces (`geometry.SolidWalls`).
"""

from __future__ import annotations

from collections.abc import Mapping

import shapely
from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from fibua.battlefield.geometry import SolidWalls
from fibua.battlefield.model import Battlefield, Position, SectionState


class ReferenceGeometry:
    """Shapely shapes of one battlefield, with an STR-tree to find the sections a segment
    touches without testing all of them (the tree's own predicate is exact)."""

    def __init__(self, battlefield: Battlefield) -> None:
        self.battlefield = battlefield
        self.walls = SolidWalls(battlefield)
        self.section_ids = battlefield.section_ids
        footprints = [Polygon(battlefield.section(sid).footprint) for sid in self.section_ids]
        self.footprint = dict(zip(self.section_ids, footprints, strict=True))
        self.tree = shapely.STRtree(footprints)
        self.obstacle_tree = shapely.STRtree(
            [LineString(o.points) for o in battlefield.obstacles if o.blocks_sight]
        )
        self._solid: dict[tuple[str, int], MultiLineString] = {}

    def solid_walls(self, section_id: str, floor: int) -> MultiLineString:
        key = (section_id, floor)
        if key not in self._solid:
            pieces = self.walls.section_pieces(section_id, floor)
            self._solid[key] = MultiLineString([list(piece) for piece in pieces])
        return self._solid[key]

    def sections_touching(self, segment: BaseGeometry) -> list[str]:
        hits = self.tree.query(segment, predicate="intersects")
        return [self.section_ids[int(k)] for k in hits]

    def meets_sight_obstacle(self, segment: BaseGeometry) -> bool:
        return len(self.obstacle_tree.query(segment, predicate="intersects")) > 0


_CACHE: dict[int, ReferenceGeometry] = {}


def reference_geometry(battlefield: Battlefield) -> ReferenceGeometry:
    geometry = _CACHE.get(id(battlefield))
    if geometry is None or geometry.battlefield is not battlefield:
        if len(_CACHE) > 8:
            _CACHE.clear()
        geometry = ReferenceGeometry(battlefield)
        _CACHE[id(battlefield)] = geometry
    return geometry


def _segment(a: Position, b: Position) -> BaseGeometry:
    if a.point == b.point:
        return Point(a.point)
    return LineString([a.point, b.point])


def _section_blocks(
    geometry: ReferenceGeometry,
    section_id: str,
    state: SectionState,
    segment: BaseGeometry,
    a: Position,
    b: Position,
) -> bool:
    a_in, b_in = a.section == section_id, b.section == section_id
    if not a_in and not b_in:
        return bool(segment.intersects(geometry.footprint[section_id]))
    if state is not SectionState.INTACT:
        return True
    if a_in and b_in and a.floor != b.floor:
        return True
    floor = a.floor if a_in else b.floor
    return bool(segment.intersects(geometry.solid_walls(section_id, floor)))


def reference_visible(
    battlefield: Battlefield,
    states: Mapping[str, SectionState],
    a: Position,
    b: Position,
) -> bool:
    """Whether b can be seen from a (sections missing from `states` are intact)."""
    geometry = reference_geometry(battlefield)
    segment = _segment(a, b)
    concerned = set(geometry.sections_touching(segment))
    concerned.update(sid for sid in (a.section, b.section) if sid is not None)
    for section_id in sorted(concerned):
        state = states.get(section_id, SectionState.INTACT)
        if state is SectionState.RUBBLE:
            continue
        if _section_blocks(geometry, section_id, state, segment, a, b):
            return False
    if a.floor >= 1 or b.floor >= 1:
        return True
    return not geometry.meets_sight_obstacle(segment)
