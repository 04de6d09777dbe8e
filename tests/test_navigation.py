"""Walking-distance fields: shortest walks go round walls, through doors."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from math import hypot

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Opening,
    OpeningKind,
    Position,
    Section,
    Table,
)
from fibua.battlefield.navigation import DistanceField, Region
from fibua.battlefield.sight import SightEngine

# a 6 x 6 room in a 20 x 20 table, its only door in the south wall (x 9.5..10.5, y = 7)
ROOM = Section(
    "room", ((7.0, 7.0), (13.0, 7.0), (13.0, 13.0), (7.0, 13.0)),
    openings=(Opening(OpeningKind.DOOR, wall=0, floor=0, at=3.0, width=1.0),),
)
FIELD_MAP = Battlefield(Table(20, 20), buildings=(Building("b", "Room", (ROOM,)),))


def walkable(sight: SightEngine, a: Position, b: Position) -> bool:
    return not sight.move_check(a, b).crosses_wall


def field() -> tuple[SightEngine, DistanceField]:
    sight = SightEngine(FIELD_MAP)
    return sight, DistanceField(
        sight, lambda p: p.section == "room", lambda a, b: walkable(sight, a, b))


def test_the_way_into_a_room_goes_round_to_its_door() -> None:
    sight, goal = field()
    start = Position(10.5, 14.5)  # just north of the room, the door is on the far side
    assert goal.distance(start) > 10  # round the building, not through the wall
    path = goal.descend(start, 40.0)
    here = Position(start.x, start.y, sight.section_at(start.point))
    for x, y in path:
        there = Position(x, y, sight.section_at((x, y)))
        assert walkable(sight, here, there), f"{here.point} -> {there.point} crosses a wall"
        here = there
    assert here.section == "room"


def test_descend_stops_after_the_length_asked() -> None:
    _, goal = field()
    path = goal.descend(Position(10.5, 1.5), 3.0)
    walked = sum(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 for (ax, ay), (bx, by)
                 in pairwise(path))
    assert walked <= 3.0 + 1e-9 and len(path) >= 2
    assert goal.distance(Position(10.0, 10.0, "room")) == 0.0


AREA = Polygon([(1, 1), (4, 1), (4, 3), (1, 3)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 20), st.floats(0, 20)), min_size=1, max_size=30),
       st.booleans())
def test_distances_of_many_places_agree_with_one_at_a_time(
    points: list[tuple[float, float]], as_region: bool
) -> None:
    sight = SightEngine(FIELD_MAP)
    region = Region(frozenset({"room"}), (AREA,))
    goal: Callable[[Position], bool] = region if as_region else (
        lambda p: p.section == "room" or AREA.covers(ShapelyPoint(p.x, p.y)))
    distances = DistanceField(sight, goal, lambda a, b: walkable(sight, a, b))
    places = [Position(x, y, sight.section_at((x, y))) for x, y in points]
    many = distances.distances(sight.position_arrays(places))
    assert many.tolist() == pytest.approx([distances.distance(p) for p in places], rel=1e-12)


def test_a_region_holds_its_sections_and_areas() -> None:
    region = Region(frozenset({"room"}), (AREA,))
    assert region(Position(10, 10, "room")) and region(Position(4, 3))  # edges count
    assert not region(Position(5, 5)) and not region(Position(10, 10))


@settings(max_examples=60)
@given(st.lists(st.tuples(st.floats(-1, 21), st.floats(-1, 21)), min_size=1, max_size=30))
# places where Python's hypot and the compiled one differ in the last bit
@example([(18.454720683879156, 1.789465130385433), (18.079519722198537, 0.23974057724021658),
          (18.2340515423509, 2.7268691817587847)])
def test_one_place_alone_and_in_a_batch_get_the_same_distance(points: list[tuple[float, float]]
                                                              ) -> None:
    """Computer players rank figures by these distances, one at a time or many at once:
    the two must agree to the last bit, or a ranking could depend on how it was asked."""
    sight, walk = field()
    places = [Position(x, y, sight.section_at((x, y))) for x, y in points]
    batch = walk.distances(sight.position_arrays(places)).tolist()
    assert batch == [walk.distance(p) for p in places]


def _plain_descend(walk: DistanceField, pos: Position, length: float
                   ) -> list[tuple[float, float]]:
    """The walk down the field written out in plain Python, step by step."""
    i = min(walk.nx - 1, max(0, int(pos.x / walk.step)))
    j = min(walk.ny - 1, max(0, int(pos.y / walk.step)))
    here = walk._cells[i][j]
    walked = hypot(pos.x - here.x, pos.y - here.y)
    points, heading = [(here.x, here.y)], None
    while walk._dist[i][j] > 0 and (i, j) in walk._next:
        a, b = walk._next[(i, j)]
        walked += walk.step * hypot(a - i, b - j)
        if walked > length + 1e-9:
            break
        cell = walk._cells[a][b]
        if (a - i, b - j) == heading:
            points[-1] = (cell.x, cell.y)
        else:
            points.append((cell.x, cell.y))
        heading, i, j = (a - i, b - j), a, b
    return points


@settings(max_examples=80, deadline=None)
@given(st.floats(-1, 21), st.floats(-1, 21), st.floats(-1, 45))
def test_the_compiled_walk_down_follows_the_field_step_by_step(
    x: float, y: float, length: float
) -> None:
    sight, walk = field()
    start = Position(x, y, sight.section_at((x, y)))
    assert walk.descend(start, length) == _plain_descend(walk, start, length)


TRIANGLE = Polygon([(2, 12), (8, 12), (2, 18)])


@settings(max_examples=80)
@given(st.floats(-1, 21), st.floats(-1, 21))
@example(8.0, 12.0)  # a corner
@example(7.0, 17.0)  # in the triangle's bounds, beyond its slant
@example(5.0, 15.0)  # on the slant
@example(4.0, 2.0)   # on an edge of the rectangle
def test_a_region_settles_points_by_its_areas_bounds_as_shapely_does(x: float, y: float
                                                                    ) -> None:
    """The bounds only spare Shapely's test for points outside them: a point in the
    bounds but not the area, or on an edge, is answered as Shapely answers it."""
    region = Region(frozenset({"room"}), (AREA, TRIANGLE))
    shapely_says = any(area.intersects(ShapelyPoint(x, y)) for area in (AREA, TRIANGLE))
    assert region(Position(x, y)) == shapely_says
    assert region(Position(x, y, "room"))
