"""Line-of-sight rules on small hand-built maps, for the engine and the reference alike."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

import numpy as np
import pytest

from fibua.battlefield.geometry import hit_distances, nearest_hit
from fibua.battlefield.model import (
    Battlefield,
    Building,
    Obstacle,
    ObstacleKind,
    Opening,
    OpeningKind,
    Position,
    Section,
    SectionState,
    Table,
)
from fibua.battlefield.reference import reference_visible
from fibua.battlefield.sight import SightEngine, WallCrossing, per_query

D, W, S = OpeningKind.DOOR, OpeningKind.WINDOW, OpeningKind.SLIT


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# House h1 (10,10)-(20,20), two floors. Walls: 0 south, 1 east, 2 north, 3 west.
H1 = Section(
    "h1",
    _rect(10, 10, 20, 20),
    floors=2,
    openings=(
        Opening(W, wall=0, floor=0, at=5, width=2),  # south window x 14..16, ground floor
        Opening(W, wall=2, floor=0, at=5, width=2),  # north window x 14..16, ground floor
        Opening(W, wall=3, floor=1, at=5, width=2),  # west window y 14..16, first floor
        Opening(D, wall=1, floor=0, at=5, width=2),  # east door y 14..16
    ),
)
# House h2 (22,28)-(26,32): windows in its east wall (x=26, y 29..31) on both floors.
H2 = Section(
    "h2",
    _rect(22, 28, 26, 32),
    floors=2,
    openings=(Opening(W, 1, 0, 2, 2), Opening(W, 1, 1, 2, 2)),
)
# A terrace of two adjoining sections; the inside door (y 29..31) belongs to wa only.
WA = Section("wa", _rect(2, 25, 8, 35), floors=2, openings=(Opening(D, 1, 0, 5, 2),))
WB = Section("wb", _rect(8, 25, 14, 35), floors=2)
# A one-storey bunker-like box with an accessible flat roof and no openings.
ROOF = Section("roof", _rect(30, 12, 34, 16), floors=1, flat_roof=True)
# An L-shaped section: the notch is the square (36,6)-(40,10) cut from (32,2)-(40,10).
ELL = Section("ell", ((32, 2), (40, 2), (40, 6), (36, 6), (36, 10), (32, 10)))

FIELD = Battlefield(
    table=Table(44, 40),
    obstacles=(
        Obstacle("high", ObstacleKind.HIGH_WALL, ((30, 25), (30, 35)), 2.0),
        Obstacle("hedge", ObstacleKind.HEDGE, ((30, 36), (30, 39)), 1.5),
        Obstacle("low", ObstacleKind.LOW_WALL, ((26, 0), (26, 8)), 0.4),
        Obstacle("fence", ObstacleKind.FENCE, ((28, 0), (28, 8)), 1.0),
    ),
    buildings=(
        Building("B1", "House", (H1,)),
        Building("B2", "Villa", (H2,)),
        Building("B3", "Terrace", (WA, WB), connections=(("wa", "wb"),)),
        Building("B4", "Blockhouse", (ROOF,)),
        Building("B5", "Ell", (ELL,)),
    ),
)

Sight = Callable[[Position, Position], bool]


def _engine_sight(states: dict[str, SectionState]) -> Sight:
    engine = SightEngine(FIELD)
    engine.set_section_states(states)
    return engine.visible


def _reference_sight(states: dict[str, SectionState]) -> Sight:
    return lambda a, b: reference_visible(FIELD, states, a, b)


@pytest.fixture(params=["engine", "reference"])
def sight_with(request: pytest.FixtureRequest) -> Callable[..., Sight]:
    make = _engine_sight if request.param == "engine" else _reference_sight

    def build(**states: SectionState) -> Sight:
        return make(dict(states))

    return build


def inside(x: float, y: float, section: str = "h1", floor: int = 0) -> Position:
    return Position(x, y, section, floor)


def out(x: float, y: float, floor: int = 0) -> Position:
    return Position(x, y, None, floor)


def both_ways(sight: Sight, a: Position, b: Position) -> bool:
    forward, backward = sight(a, b), sight(b, a)
    assert forward == backward
    return forward


def test_window_on_the_right_floor(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert both_ways(sight, inside(15, 15), out(15, 2))
    assert both_ways(sight, inside(15, 15, floor=1), out(2, 15))


def test_window_on_the_wrong_floor(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert not both_ways(sight, inside(15, 15, floor=1), out(15, 2))
    assert not both_ways(sight, inside(15, 15, floor=0), out(2, 15))


def test_solid_wall_blocks(sight_with: Callable[..., Sight]) -> None:
    assert not both_ways(sight_with(), inside(15, 15), out(5, 2))


def test_grazing_a_window_jamb_blocks(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert not sight(inside(14, 15), out(14, 2))  # passes exactly through the jamb (14, 10)
    assert sight(inside(14.5, 15), out(14.5, 2))


def test_no_seeing_through_a_building_via_two_windows(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert not both_ways(sight, out(15, 2), out(15, 23))
    assert not sight(out(0, 10), out(25, 10))  # merely touching a corner blocks as well


def test_same_section_needs_same_floor(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert sight(inside(12, 12), inside(18, 18))
    assert not sight(inside(12, 12), inside(18, 18, floor=1))


def test_burning_section_blocks_into_out_of_and_through(
    sight_with: Callable[..., Sight],
) -> None:
    sight = sight_with(h1=SectionState.BURNING)
    assert not sight(inside(15, 15), out(15, 2))
    assert not sight(inside(12, 12), inside(18, 18))
    assert sight(out(2, 2), out(2, 22))  # well clear of the smoke


def test_rubble_never_blocks(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with(h1=SectionState.RUBBLE)
    assert sight(out(15, 2), out(15, 23))
    assert sight(out(2, 15), out(24, 15))
    assert sight(inside(12, 12), inside(18, 18, floor=1))  # no floors left to be on


def test_high_wall_blocks_at_ground_level_only(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert not both_ways(sight, out(27, 30), out(35, 30))
    assert not both_ways(sight, inside(24, 30, "h2", 0), out(35, 30))
    assert both_ways(sight, inside(24, 30, "h2", 1), out(35, 30))
    assert not sight(out(27, 37), out(35, 37))  # hedge


def test_low_walls_and_fences_never_block(sight_with: Callable[..., Sight]) -> None:
    assert both_ways(sight_with(), out(24, 4), out(31, 4))


def test_inside_door_between_adjoining_sections(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert both_ways(sight, inside(5, 30, "wa"), inside(11, 30, "wb"))
    assert not sight(inside(5, 30, "wa", 1), inside(11, 30, "wb", 1))  # door is downstairs
    assert not sight(inside(5, 26, "wa"), inside(11, 26, "wb"))  # solid part of the wall
    assert not sight(inside(5, 30, "wa"), out(16, 30))  # wb is in the way


def test_flat_roof_sees_over_its_own_walls(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert both_ways(sight, inside(32, 14, "roof", 1), out(38, 14))
    assert not sight(inside(32, 14, "roof", 0), out(38, 14))


def test_concave_section_hides_round_its_corner(sight_with: Callable[..., Sight]) -> None:
    sight = sight_with()
    assert sight(inside(33, 3, "ell"), inside(39, 4, "ell"))
    assert not sight(inside(34, 9, "ell"), inside(39, 3, "ell"))  # line leaves via the notch


def test_set_section_state_changes_results() -> None:
    engine = SightEngine(FIELD)
    a, b = inside(15, 15), out(15, 2)
    assert engine.section_state("h1") is SectionState.INTACT
    assert engine.visible(a, b)
    engine.set_section_state("h1", SectionState.BURNING)
    assert engine.section_state("h1") is SectionState.BURNING
    assert not engine.visible(a, b)
    assert not engine.visible(out(15, 2), out(15, 23))
    engine.set_section_state("h1", SectionState.RUBBLE)
    assert engine.visible(out(15, 2), out(15, 23))
    engine.set_section_state("h1", SectionState.INTACT)
    assert engine.visible(a, b)
    assert not engine.visible(out(15, 2), out(15, 23))


def test_matrix_and_pairs_agree_with_single_checks() -> None:
    engine = SightEngine(FIELD)
    people = [
        inside(15, 15),
        inside(15, 15, floor=1),
        out(15, 2),
        out(2, 15),
        out(35, 30),
        inside(24, 30, "h2", 1),
        inside(5, 30, "wa"),
        inside(11, 30, "wb"),
    ]
    matrix = engine.visible_matrix(people, people)
    assert matrix.shape == (len(people), len(people))
    expected = [[engine.visible(a, b) for b in people] for a in people]
    assert matrix.tolist() == expected
    arrays = engine.position_arrays(people)
    rows, cols = np.meshgrid(np.arange(len(people)), np.arange(len(people)), indexing="ij")
    pairs = engine.visible_pairs(
        arrays.xy[rows.ravel()],
        arrays.section[rows.ravel()],
        arrays.floor[rows.ravel()],
        arrays.xy[cols.ravel()],
        arrays.section[cols.ravel()],
        arrays.floor[cols.ravel()],
    )
    assert pairs.reshape(matrix.shape).tolist() == expected


def test_range_is_measured_from_the_opening() -> None:
    engine = SightEngine(FIELD)
    assert engine.firing_point(inside(15, 15), out(15, 2)) == pytest.approx((15, 10))
    assert engine.range_between(inside(15, 15), out(15, 2)) == pytest.approx(8)
    assert engine.range_between(inside(15, 15, floor=1), out(2, 15)) == pytest.approx(8)
    assert engine.range_between(out(15, 2), inside(15, 15)) == pytest.approx(13)
    assert engine.range_between(inside(12, 12), inside(18, 12)) == pytest.approx(6)


def test_move_through_a_door_but_not_a_wall() -> None:
    engine = SightEngine(FIELD)
    check = engine.move_check(inside(15, 15), out(25, 15))
    assert not check.crosses_wall
    assert check.walls == (WallCrossing("h1", 1, 5.0, D),)
    assert engine.move_check(inside(15, 15), out(2, 12)).crosses_wall


def test_move_through_windows_only_when_allowed() -> None:
    engine = SightEngine(FIELD)
    assert engine.move_check(inside(15, 15), out(15, 2)).crosses_wall
    check = engine.move_check(inside(15, 15), out(15, 2), through_windows=True)
    assert not check.crosses_wall
    assert [c.opening for c in check.walls] == [W]


def test_move_between_adjoining_sections_and_over_obstacles() -> None:
    engine = SightEngine(FIELD)
    check = engine.move_check(inside(5, 30, "wa"), inside(11, 30, "wb"))
    assert not check.crosses_wall
    assert {(c.section_id, c.opening) for c in check.walls} == {("wa", D), ("wb", D)}
    outside = engine.move_check(out(27, 30), out(35, 30))
    assert not outside.crosses_wall
    assert [o.id for o, _ in outside.obstacles] == ["high"]
    assert [d for _, d in outside.obstacles] == pytest.approx([3.0])
    engine.set_section_state("h1", SectionState.RUBBLE)
    assert engine.move_check(out(15, 2), out(15, 23)).walls == ()


def test_per_query_answers_are_kept_on_the_engine_and_go_with_it() -> None:
    """An answer is worked out once per engine and arguments; a limit starts the memo
    again; and the memo keeps no engine (and so no map) alive."""
    asked: list[tuple[float, float]] = []

    @per_query(limit=2)
    def where(sight: SightEngine, x: float, y: float) -> str | None:
        asked.append((x, y))
        return sight.section_at((x, y))

    engine = SightEngine(FIELD)
    assert where(engine, 5.0, 30.0) == where(engine, 5.0, 30.0) == "wa"
    assert asked == [(5.0, 30.0)]
    where(SightEngine(FIELD), 5.0, 30.0)  # another engine: worked out again
    assert len(asked) == 2
    where(engine.fork(), 5.0, 30.0)  # a fork of it: its own memo, worked out again
    assert len(asked) == 3
    del asked[2]
    where(engine, 1.0, 1.0)
    where(engine, 11.0, 30.0)  # a third answer: the memo, full at two, starts again
    where(engine, 5.0, 30.0)
    assert len(asked) == 5
    gone = weakref.ref(engine)
    del engine
    gc.collect()
    assert gone() is None


def test_per_query_answers_are_forgotten_when_a_section_changes_state() -> None:
    """A move through a wall is blocked until the building collapses: a remembered answer
    must not outlive the state it was worked out in."""

    @per_query()
    def blocked(sight: SightEngine, a: Position, b: Position) -> bool:
        return sight.move_blocked(a, b)

    engine = SightEngine(FIELD)
    a, b = out(15, 2), inside(15, 15)
    assert blocked(engine, a, b)
    engine.set_section_state("h1", SectionState.INTACT)  # no change: memo kept
    assert engine.memo
    engine.set_section_state("h1", SectionState.RUBBLE)
    assert not blocked(engine, a, b)


def test_nearest_hit_is_the_least_hit_distance() -> None:
    rng = np.random.default_rng(7)
    segs = rng.uniform(0, 10, size=(40, 4))
    for _ in range(300):
        ax, ay, bx, by = rng.uniform(0, 10, size=4)
        lo, hi = sorted(rng.integers(0, 41, size=2).tolist())
        dist = hit_distances(ax, ay, bx, by, segs[lo:hi])
        met = dist[dist >= 0.0]
        expected = float(met.min()) if len(met) else -1.0
        assert nearest_hit(ax, ay, bx, by, segs, lo, hi) == expected


def test_places_around_a_figure() -> None:
    """The centre keeps its own section and floor; ring points off the table are left out;
    every other point is on the ground floor in the section that holds it."""
    engine = SightEngine(FIELD)
    centre = inside(15, 15, floor=1)
    steps = np.array([2.5, 5.0, 30.0])
    extra = np.array([[5.0, 30.0], [35.0, 30.0]])
    places = engine.places_around(centre, 0.1, steps, 8, extra)
    ring = [(round(15 + d * np.cos(0.1 + 2 * np.pi * k / 8), 2),
             round(15 + d * np.sin(0.1 + 2 * np.pi * k / 8), 2))
            for k in range(8) for d in steps]
    table = FIELD.table
    on_table = [p for p in ring if 0 <= p[0] <= table.width and 0 <= p[1] <= table.height]
    assert len(on_table) < len(ring)  # the 30in ring leaves the table
    expected = [(15.0, 15.0), *on_table, (5.0, 30.0), (35.0, 30.0)]
    np.testing.assert_allclose(places.xy, np.array(expected), atol=1e-9)
    assert places.section[0] == engine.section_index("h1")
    assert places.floor.tolist() == [1] + [0] * (len(expected) - 1)
    assert places.section[1:].tolist() == engine.section_indices(places.xy[1:]).tolist()
    assert engine.section_index("wa") in places.section.tolist()


def test_places_along_a_line() -> None:
    """Steps along a direction until the table's edge; the start's floor is kept inside
    its own section, elsewhere the places are on the ground."""
    engine = SightEngine(FIELD)
    start = inside(15, 15, floor=1)
    places = engine.places_along(start, 0.0, 1.0, 0.5, 100)
    ys = [15 + 0.5 * k for k in range(1, 51)]  # the table is 40 in deep
    assert places.xy.tolist() == [[15.0, y] for y in ys]
    sections = engine.sections_at([(15.0, y) for y in ys])
    assert places.section.tolist() == [engine.section_index(s) for s in sections]
    assert places.floor.tolist() == [1 if s == "h1" else 0 for s in sections]
    assert "h1" in sections and sections[-1] != "h1"
