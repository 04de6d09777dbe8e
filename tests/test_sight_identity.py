"""The fast sight engine must agree exactly with the Shapely reference."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibua.battlefield.geometry import orient, segments_intersect
from fibua.battlefield.model import Battlefield, Point, Position, SectionState
from fibua.battlefield.randommap import random_battlefield, random_positions
from fibua.battlefield.reference import reference_visible
from fibua.battlefield.sight import SightEngine


def _random_states(seed: int, field: Battlefield) -> dict[str, SectionState]:
    rng = random.Random(seed)
    states = {}
    for section_id in field.section_ids:
        roll = rng.random()
        if roll < 0.1:
            states[section_id] = SectionState.BURNING
        elif roll < 0.2:
            states[section_id] = SectionState.RUBBLE
    return states


def _assert_identical(
    field: Battlefield,
    states: dict[str, SectionState],
    observers: list[Position],
    targets: list[Position],
) -> None:
    engine = SightEngine(field)
    engine.set_section_states(states)
    fast = engine.visible_matrix(observers, targets)
    mismatches = [
        (a, b, bool(fast[i, j]))
        for i, a in enumerate(observers)
        for j, b in enumerate(targets)
        if reference_visible(field, states, a, b) != fast[i, j]
    ]
    assert mismatches == []
    # one observer at a time, as the rules ask after a move: the same rows
    arrays = engine.position_arrays(targets)
    rows = [engine.visible_row(a, arrays).tolist() for a in observers[:10]]
    assert rows == fast[:10].tolist()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_small_towns_match_reference(seed: int) -> None:
    field = random_battlefield(seed, n_buildings=40, size=70.0)
    positions = random_positions(seed + 100, field, 110)
    _assert_identical(field, _random_states(seed, field), positions[:50], positions[50:])


def test_large_town_matches_reference() -> None:
    field = random_battlefield(11, n_buildings=300, size=200.0)
    positions = random_positions(12, field, 130)
    _assert_identical(field, _random_states(13, field), positions[:80], positions[80:])


def test_all_intact_town_matches_reference() -> None:
    field = random_battlefield(21, n_buildings=120, size=120.0)
    positions = random_positions(22, field, 120)
    _assert_identical(field, {}, positions[:60], positions[60:])


# -- property test: awkward segments on a small town ----------------------------------

SMALL = random_battlefield(7, n_buildings=9, size=30.0)
SMALL_ENGINE = SightEngine(SMALL)


def _special_points(field: Battlefield) -> list[Point]:
    """Corners, opening edges and obstacle ends: where touching and collinear cases live."""
    points: list[Point] = []
    for section_id in field.section_ids:
        section = field.section(section_id)
        points.extend(section.footprint)
        for opening in section.openings:
            p, q = section.opening_segment(opening)
            points.extend([p, q, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)])
    for obstacle in field.obstacles:
        points.extend(obstacle.points)
    return points


# GEOS decides orientation in double-double arithmetic, exact unless the coordinates of one
# test span more than ~50 binary orders of magnitude (1e-169 next to 0.75): keep table-like
# values, where it and the engine's exact arithmetic must agree.
coordinate = st.floats(min_value=-2.0, max_value=32.0).map(lambda v: 0.0 if abs(v) < 1e-6 else v)
points = st.one_of(st.tuples(coordinate, coordinate), st.sampled_from(_special_points(SMALL)))
section_labels = st.sampled_from([None, "where", *SMALL.section_ids])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    x, y = draw(points)
    label = draw(section_labels)
    if label == "where":
        label = SMALL_ENGINE.section_at((x, y))
    return Position(x, y, label, draw(st.integers(min_value=0, max_value=4)))


states = st.dictionaries(st.sampled_from(SMALL.section_ids), st.sampled_from(list(SectionState)))


@settings(max_examples=400, deadline=None)
@given(a=positions(), b=positions(), section_states=states)
def test_random_segments_match_reference(
    a: Position, b: Position, section_states: dict[str, SectionState]
) -> None:
    for section_id in SMALL.section_ids:
        state = section_states.get(section_id, SectionState.INTACT)
        SMALL_ENGINE.set_section_state(section_id, state)
    assert SMALL_ENGINE.visible(a, b) == reference_visible(SMALL, section_states, a, b)


# -- the exact predicates ---------------------------------------------------------------


def _exact_orient(a: Point, b: Point, c: Point) -> int:
    ax, ay, bx, by, cx, cy = (Fraction(v) for v in (*a, *b, *c))
    det = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
    return (det > 0) - (det < 0)


@st.composite
def nearly_collinear(draw: st.DrawFn) -> tuple[Point, Point, Point]:
    a = draw(st.tuples(coordinate, coordinate))
    b = draw(st.tuples(coordinate, coordinate))
    # snapped like the coordinates: a tiny factor makes subnormal coordinates, outside
    # the domain where floating-point expansions are exact (see `orient`)
    t = draw(st.floats(min_value=-1.0, max_value=2.0).map(lambda v: 0.0 if abs(v) < 1e-6 else v))
    nudge = draw(st.sampled_from([0.0, 1e-15, -1e-15, 3e-13]))
    return a, b, (a[0] + (b[0] - a[0]) * t + nudge, a[1] + (b[1] - a[1]) * t)


@settings(max_examples=500, deadline=None)
@given(nearly_collinear())
def test_orient_is_exact(triple: tuple[Point, Point, Point]) -> None:
    a, b, c = triple
    assert orient(*a, *b, *c) == _exact_orient(a, b, c)


def test_segments_touching_and_overlapping() -> None:
    assert segments_intersect(0, 0, 2, 2, 1, 1, 3, 0)  # endpoint on the other segment
    assert segments_intersect(0, 0, 2, 0, 1, 0, 3, 0)  # collinear overlap
    assert segments_intersect(0, 0, 2, 0, 2, 0, 3, 0)  # collinear, end to end
    assert not segments_intersect(0, 0, 2, 0, 2.5, 0, 3, 0)
    assert not segments_intersect(0, 0, 1, 1, 0, 1, 0.49, 0.51)
    assert segments_intersect(0.1, 0.1, 0.1, 0.1, 0, 0, 0.3, 0.3)  # a point on a diagonal
