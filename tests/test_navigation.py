"""Walking-distance fields: shortest walks go round walls, through doors."""

from __future__ import annotations

from itertools import pairwise

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Opening,
    OpeningKind,
    Position,
    Section,
    Table,
)
from fibua.battlefield.navigation import DistanceField
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
