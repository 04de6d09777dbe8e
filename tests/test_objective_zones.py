"""Whether a unit stands in an objective's zone: the quick bounds test before Shapely's
gives Shapely's answer everywhere, the zone's edges counting as in."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

from fibua.battlefield.model import Position
from fibua.scenario.objectives import in_objective
from fibua.scenario.schema import VictorySpec

ZONE = [(10.0, 10.0), (30.0, 10.0), (30.0, 20.0), (20.0, 28.0), (10.0, 20.0)]
SPEC = VictorySpec(side="blue", kind="reach", zone=ZONE)


class Placed:
    def __init__(self, x: float, y: float, section: str | None = None) -> None:
        self.pos = Position(x, y, section)


@given(st.floats(0, 40), st.floats(0, 40))
def test_a_point_is_in_the_zone_exactly_when_the_polygon_covers_it(x: float,
                                                                     y: float) -> None:
    assert in_objective(Placed(x, y), SPEC) == Polygon(ZONE).covers(Point(x, y))


def test_the_edges_and_corners_count_as_in_and_a_point_past_them_does_not() -> None:
    assert in_objective(Placed(10.0, 15.0), SPEC)
    assert in_objective(Placed(20.0, 28.0), SPEC)
    assert in_objective(Placed(30.0, 10.0), SPEC)
    assert not in_objective(Placed(9.999, 15.0), SPEC)
    assert not in_objective(Placed(20.0, 28.001), SPEC)
    assert not in_objective(Placed(11.0, 27.0), SPEC)  # inside the bounds, outside the zone


def test_a_section_of_the_objective_counts_wherever_it_stands() -> None:
    spec = VictorySpec(side="blue", kind="hold", sections=["shop"])
    assert in_objective(Placed(0.0, 0.0, "shop"), spec)
    assert not in_objective(Placed(0.0, 0.0, "barn"), spec)
