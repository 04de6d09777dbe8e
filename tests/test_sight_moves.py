"""The one-call move queries must agree exactly with the general ones they shortcut:
`move_blocked` with `move_check(...).crosses_wall`, `first_obstacle_of` with the first of
`obstacles_crossed` of the kinds asked for."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibua.battlefield.geometry import point_along
from fibua.battlefield.model import (
    Battlefield,
    Building,
    Obstacle,
    ObstacleKind,
    Opening,
    OpeningKind,
    Point,
    Position,
    Section,
    SectionState,
    Table,
)
from fibua.battlefield.randommap import random_battlefield, random_positions
from fibua.battlefield.sight import LEG_FREE, LEG_WALL, SightEngine
from fibua.scenario.loader import bundled_scenarios, load_scenario

Move = tuple[Position, Position]

ALL_KINDS = frozenset(ObstacleKind)
KIND_SETS = [
    frozenset(),
    ALL_KINDS,
    *(frozenset({kind}) for kind in ObstacleKind),
    *(frozenset(pair) for pair in combinations(ObstacleKind, 2)),
]


# -- the two answers side by side ----------------------------------------------------


def _move_mismatches(engine: SightEngine, moves: list[Move]) -> list[tuple[Move, bool]]:
    return [
        ((a, b), windows)
        for a, b in moves
        for windows in (False, True)
        if engine.move_blocked(a, b, windows) != engine.move_check(a, b, windows).crosses_wall
    ]


def _first_of(engine: SightEngine, a: Point, b: Point, kinds: frozenset[ObstacleKind]) -> object:
    return next((o for o, _ in engine.obstacles_crossed(a, b) if o.kind in kinds), None)


def _obstacle_mismatches(engine: SightEngine, moves: list[Move]) -> list[tuple[Move, object]]:
    return [
        ((a, b), kinds)
        for a, b in moves
        for kinds in KIND_SETS
        if engine.first_obstacle_of(a.point, b.point, kinds)
        != _first_of(engine, a.point, b.point, kinds)
    ]


@dataclass
class MoveTally:
    """How the sampled moves came out, so a test can tell it did not pass vacuously."""

    blocked: int = 0
    free: int = 0
    through_openings: int = 0  # free although it meets a wall
    windows_matter: int = 0  # blocked unless windows may be used
    obstacle_found: int = 0

    @staticmethod
    def of(engine: SightEngine, moves: list[Move]) -> MoveTally:
        tally = MoveTally()
        for a, b in moves:
            check = engine.move_check(a, b)
            tally.blocked += check.crosses_wall
            tally.free += not check.crosses_wall
            tally.through_openings += bool(check.walls) and not check.crosses_wall
            windows = engine.move_check(a, b, through_windows=True).crosses_wall
            tally.windows_matter += check.crosses_wall and not windows
            tally.obstacle_found += bool(check.obstacles)
        return tally

    def assert_meaningful(self, n: int) -> None:
        assert self.blocked >= n // 10, self
        assert self.free >= n // 10, self
        assert self.through_openings >= n // 20, self
        assert self.windows_matter >= n // 20, self
        assert self.obstacle_found >= n // 20, self


# -- awkward moves on any map --------------------------------------------------------


def _wall_points(field: Battlefield, rng: random.Random) -> Iterator[tuple[str, Point]]:
    """Points exactly on walls: corners, jambs and middles of openings, and points
    computed along walls the way wall pieces are, each with the section whose wall it is."""
    for section_id in field.section_ids:
        section = field.section(section_id)
        for corner in section.footprint:
            yield section_id, corner
        for opening in section.openings:
            p, q = section.opening_segment(opening)
            yield from ((section_id, v) for v in (p, q, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)))
        for wall in range(len(section.footprint)):
            (x0, y0), (x1, y1) = section.wall(wall)
            length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
            yield section_id, point_along(section, wall, rng.uniform(0.0, length))


def _obstacle_points(field: Battlefield) -> list[Point]:
    return [point for obstacle in field.obstacles for point in obstacle.points]


class MoveSampler:
    """Random moves that go where the subtle cases are: through doors and windows, along
    and onto walls, from and to every floor, zero length, and plain random ones."""

    def __init__(self, field: Battlefield, engine: SightEngine, seed: int) -> None:
        self.field = field
        self.engine = engine
        self.rng = random.Random(seed)
        self.wall_points = list(_wall_points(field, self.rng))
        self.obstacle_points = _obstacle_points(field)
        self.openings = [
            (section_id, opening)
            for section_id in field.section_ids
            for opening in field.section(section_id).openings
        ]
        self.positions = random_positions(seed, field, 200)

    def placed(self, point: Point, owner: str | None = None) -> Position:
        """A position at the point: in the section found there, the wall's owner, none, or
        now and then some other section, on any floor it has (and one above)."""
        rng = self.rng
        choices = [self.engine.section_at(point), owner, None]
        if rng.random() < 0.1 and self.field.section_ids:
            choices.append(rng.choice(self.field.section_ids))
        section_id = rng.choice(choices)
        if section_id is None:
            return Position(*point, None, rng.choice([0, 0, 0, 1]))
        levels = self.field.section(section_id).levels
        return Position(*point, section_id, rng.randrange(levels + 1))

    def through_opening(self) -> Move:
        if not self.openings:
            return self.random_pair()
        section_id, opening = self.rng.choice(self.openings)
        p, q = self.field.section(section_id).opening_segment(opening)
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        nx, ny = q[1] - p[1], p[0] - q[0]  # across the wall
        d1, d2 = self.rng.uniform(0.05, 1.5), self.rng.uniform(0.05, 1.5)
        a = self.placed((mx + nx * d1, my + ny * d1), section_id)
        b = self.placed((mx - nx * d2, my - ny * d2), section_id)
        if self.rng.random() < 0.7:  # on the opening's own floor, as a figure would be
            a = Position(a.x, a.y, a.section, opening.floor)
            b = Position(b.x, b.y, b.section, opening.floor if b.section else 0)
        return (a, b) if self.rng.random() < 0.5 else (b, a)

    def along_wall(self) -> Move:
        section_id, _ = self.rng.choice(self.wall_points)
        section = self.field.section(section_id)
        wall = self.rng.randrange(len(section.footprint))
        (x0, y0), (x1, y1) = section.wall(wall)
        s, t = self.rng.uniform(-0.2, 1.2), self.rng.uniform(-0.2, 1.2)
        a = (x0 + (x1 - x0) * s, y0 + (y1 - y0) * s)
        b = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
        return self.placed(a, section_id), self.placed(b, section_id)

    def onto_special_point(self) -> Move:
        if self.obstacle_points and self.rng.random() < 0.3:
            owner, point = None, self.rng.choice(self.obstacle_points)
        else:
            owner, point = self.rng.choice(self.wall_points)
        start = self.rng.choice(self.positions)
        pair = (start, self.placed(point, owner))
        return pair if self.rng.random() < 0.5 else (pair[1], pair[0])

    def zero_length(self) -> Move:
        if self.rng.random() < 0.5:
            a = self.rng.choice(self.positions)
            return a, a
        owner, point = self.rng.choice(self.wall_points)
        return self.placed(point, owner), self.placed(point, owner)

    def random_pair(self) -> Move:
        return self.rng.choice(self.positions), self.rng.choice(self.positions)

    def moves(self, n: int) -> list[Move]:
        makers = [
            (self.through_opening, 0.3),
            (self.along_wall, 0.1),
            (self.onto_special_point, 0.15),
            (self.zero_length, 0.05),
            (self.random_pair, 0.4),
        ]
        picks = self.rng.choices([m for m, _ in makers], [w for _, w in makers], k=n)
        return [make() for make in picks]


def _random_states(rng: random.Random, field: Battlefield) -> dict[str, SectionState]:
    return {
        section_id: rng.choice([SectionState.BURNING, SectionState.RUBBLE])
        for section_id in field.section_ids
        if rng.random() < 0.3
    }


# -- random towns and the bundled scenarios -------------------------------------------

TOWN_SEEDS = [0, 1, 2, 3]


def _town(seed: int) -> Battlefield:
    return random_battlefield(seed, n_buildings=40, size=70.0)


@pytest.mark.parametrize("seed", TOWN_SEEDS)
def test_move_blocked_matches_move_check_on_random_towns(seed: int) -> None:
    field = _town(seed)
    engine = SightEngine(field)
    moves = MoveSampler(field, engine, seed).moves(1500)
    MoveTally.of(engine, moves).assert_meaningful(len(moves))
    assert _move_mismatches(engine, moves) == []


@pytest.mark.parametrize("seed", TOWN_SEEDS)
def test_first_obstacle_of_matches_obstacles_crossed_on_random_towns(seed: int) -> None:
    field = _town(seed)
    engine = SightEngine(field)
    moves = MoveSampler(field, engine, seed + 50).moves(600)
    found = sum(engine.first_obstacle_of(a.point, b.point, ALL_KINDS) is not None for a, b in moves)
    assert len(moves) // 20 <= found <= len(moves) * 19 // 20
    assert _obstacle_mismatches(engine, moves) == []


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_move_queries_match_on_bundled_maps(name: str) -> None:
    field = load_scenario(name).battlefield
    engine = SightEngine(field)
    moves = MoveSampler(field, engine, 7).moves(1200)
    MoveTally.of(engine, moves).assert_meaningful(len(moves))
    assert _move_mismatches(engine, moves) == []
    assert _obstacle_mismatches(engine, moves[:300]) == []


@pytest.mark.parametrize("seed", [0, 3])
def test_section_states_change_moves_alike(seed: int) -> None:
    """Rubble takes walls away at once, for both queries, and restoring brings them back;
    smoke changes nothing for moves."""
    field = _town(seed)
    engine = SightEngine(field)
    moves = MoveSampler(field, engine, seed + 10).moves(1000)
    before = [engine.move_blocked(a, b, True) for a, b in moves]
    rng = random.Random(seed)
    for _ in range(3):
        states = _random_states(rng, field)
        engine.set_section_states(states)
        assert _move_mismatches(engine, moves) == []
        engine.set_section_states({section_id: SectionState.INTACT for section_id in states})
    for section_id in field.section_ids:
        engine.set_section_state(section_id, SectionState.RUBBLE)
    assert not any(engine.move_blocked(a, b, w) for a, b in moves for w in (False, True))
    for section_id in field.section_ids:
        engine.set_section_state(section_id, SectionState.BURNING)
    assert [engine.move_blocked(a, b, True) for a, b in moves] == before
    for section_id in field.section_ids:
        engine.set_section_state(section_id, SectionState.INTACT)
    assert [engine.move_blocked(a, b, True) for a, b in moves] == before
    assert any(before)


# -- small hand-built cases -----------------------------------------------------------


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


D, W = OpeningKind.DOOR, OpeningKind.WINDOW
# A two-storey house (10,10)-(20,20): a door in the east wall (y 14..16), a window in the
# south wall on the ground floor (x 14..16), one in the west wall upstairs (y 14..16).
HOUSE = Section(
    "house",
    _rect(10, 10, 20, 20),
    floors=2,
    openings=(Opening(D, 1, 0, 5, 2), Opening(W, 0, 0, 5, 2), Opening(W, 3, 1, 5, 2)),
)
# Two obstacles crossing at (30, 5), and a third running from that point east.
CROSSING = (
    Obstacle("fence", ObstacleKind.FENCE, ((30, 0), (30, 10)), 1.0),
    Obstacle("hedge", ObstacleKind.HEDGE, ((25, 5), (35, 5)), 1.5),
    Obstacle("wall", ObstacleKind.HIGH_WALL, ((30, 5), (38, 5)), 2.0),
)
HAND = Battlefield(Table(40, 30), obstacles=CROSSING, buildings=(Building("b", "H", (HOUSE,)),))


def _both(engine: SightEngine, a: Position, b: Position, windows: bool = False) -> bool:
    blocked = engine.move_blocked(a, b, windows)
    assert blocked == engine.move_check(a, b, windows).crosses_wall
    return blocked


def test_doors_windows_and_floors() -> None:
    engine = SightEngine(HAND)
    inside = Position(15, 15, "house")
    assert not _both(engine, inside, Position(25, 15))  # out by the door
    assert _both(engine, inside, Position(25, 12))  # through the wall beside it
    assert _both(engine, inside, Position(15, 5))  # the window, not allowed
    assert not _both(engine, inside, Position(15, 5), windows=True)
    upstairs = Position(15, 15, "house", 1)
    assert _both(engine, upstairs, Position(25, 15))  # the door is downstairs
    assert _both(engine, upstairs, Position(15, 5), windows=True)  # so is that window
    assert not _both(engine, upstairs, Position(5, 15), windows=True)  # upstairs window
    assert _both(engine, Position(5, 15), Position(25, 15))  # straight through the house
    assert not _both(engine, Position(5, 15, None, 1), Position(12, 15, "house", 1), True)


def test_touching_walls_and_jambs() -> None:
    engine = SightEngine(HAND)
    assert _both(engine, Position(25, 14), Position(20, 14))  # onto the door's jamb
    assert not _both(engine, Position(25, 15), Position(20, 15))  # onto the doorway
    assert _both(engine, Position(20, 12), Position(20, 12))  # standing on the wall
    assert not _both(engine, Position(20, 15), Position(20, 15))  # in the doorway
    assert _both(engine, Position(20, 15), Position(20, 25))  # along the wall from it
    assert not _both(engine, Position(20.5, 25), Position(20.5, 5))  # just clear of it
    assert not _both(engine, Position(15, 15, "house"), Position(18, 18, "house"))


def test_rubble_has_no_walls() -> None:
    engine = SightEngine(HAND)
    a, b = Position(5, 15), Position(25, 12)
    assert _both(engine, a, b)
    engine.set_section_state("house", SectionState.RUBBLE)
    assert not _both(engine, a, b)
    engine.set_section_state("house", SectionState.BURNING)
    assert _both(engine, a, b)


def test_unknown_section_is_no_section() -> None:
    engine = SightEngine(HAND)
    stray = Position(5, 15, "nowhere", 1)
    assert not _both(engine, stray, Position(12, 15, "house", 1), True)
    assert _both(engine, stray, Position(12, 15, "house", 0), True)


def test_first_obstacle_ties_go_to_the_one_listed_first() -> None:
    engine = SightEngine(HAND)
    through_crossing = ((28, 3), (32, 7))  # meets all three at (30, 5)
    assert engine.first_obstacle_of(*through_crossing, ALL_KINDS) is CROSSING[0]
    hedge_or_wall = frozenset({ObstacleKind.HEDGE, ObstacleKind.HIGH_WALL})
    assert engine.first_obstacle_of(*through_crossing, hedge_or_wall) is CROSSING[1]
    along = ((39, 5), (26, 5))  # along the high wall and the hedge, from the east
    assert engine.first_obstacle_of(*along, ALL_KINDS) is CROSSING[2]  # its end, 1 away
    hedge_or_fence = frozenset({ObstacleKind.HEDGE, ObstacleKind.FENCE})
    assert engine.first_obstacle_of(*along, hedge_or_fence) is CROSSING[1]  # 4 away
    assert engine.first_obstacle_of(*along, frozenset({ObstacleKind.FENCE})) is CROSSING[0]
    assert engine.first_obstacle_of((5, 25), (35, 25), ALL_KINDS) is None
    assert engine.first_obstacle_of(*along, frozenset()) is None
    for kinds in KIND_SETS:
        for a, b in (through_crossing, along):
            assert engine.first_obstacle_of(a, b, kinds) == _first_of(engine, a, b, kinds)


def test_map_without_obstacles_or_openings() -> None:
    blank = Section("s", _rect(2, 2, 4, 4))
    field = Battlefield(Table(10, 10), buildings=(Building("b", "B", (blank,)),))
    engine = SightEngine(field)
    assert engine.first_obstacle_of((0, 0), (9, 9), ALL_KINDS) is None
    assert _both(engine, Position(3, 3, "s"), Position(8, 3), True)
    assert not _both(engine, Position(5, 5), Position(8, 3), True)


# -- property test on a small town ----------------------------------------------------

SMALL = random_battlefield(5, n_buildings=9, size=30.0)
SMALL_ENGINE = SightEngine(SMALL)
SPECIAL = [point for _, point in _wall_points(SMALL, random.Random(0))] + _obstacle_points(SMALL)

coordinate = st.floats(min_value=-2.0, max_value=32.0)
points = st.one_of(st.tuples(coordinate, coordinate), st.sampled_from(SPECIAL))
labels = st.sampled_from([None, "where", "nowhere", *SMALL.section_ids])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    x, y = draw(points)
    label = draw(labels)
    if label == "where":
        label = SMALL_ENGINE.section_at((x, y))
    return Position(x, y, label, draw(st.integers(min_value=0, max_value=3)))


@st.composite
def moves(draw: st.DrawFn) -> Move:
    a = draw(positions())
    b = a if draw(st.integers(0, 9)) == 0 else draw(positions())
    return a, b


states = st.dictionaries(st.sampled_from(SMALL.section_ids), st.sampled_from(list(SectionState)))


@settings(max_examples=400)
@given(move=moves(), section_states=states, kinds=st.sampled_from(KIND_SETS))
def test_random_moves_match(
    move: Move, section_states: dict[str, SectionState], kinds: frozenset[ObstacleKind]
) -> None:
    for section_id in SMALL.section_ids:
        state = section_states.get(section_id, SectionState.INTACT)
        SMALL_ENGINE.set_section_state(section_id, state)
    assert _move_mismatches(SMALL_ENGINE, [move]) == []
    a, b = move[0].point, move[1].point
    assert SMALL_ENGINE.first_obstacle_of(a, b, kinds) == _first_of(SMALL_ENGINE, a, b, kinds)


@st.composite
def path_points(draw: st.DrawFn) -> Position:
    x, y = draw(points)
    label = draw(st.sampled_from([None, "where", *SMALL.section_ids]))
    if label == "where":
        label = SMALL_ENGINE.section_at((x, y))
    return Position(x, y, label, draw(st.integers(min_value=0, max_value=3)))


@settings(max_examples=300)
@given(start=positions(), path=st.lists(path_points(), max_size=8),
       kinds=st.sampled_from(KIND_SETS))
def test_the_first_stopped_leg_of_a_path_is_found_leg_by_leg(
    start: Position, path: list[Position], kinds: frozenset[ObstacleKind]
) -> None:
    engine = SightEngine(SMALL)
    legs = zip([start, *path], path, strict=False)
    expected = next((k for k, (a, b) in enumerate(legs)
                     if engine.move_blocked(a, b)
                     or engine.first_obstacle_of(a.point, b.point, kinds) is not None), -1)
    assert engine.first_stopped_leg(start, engine.position_arrays(path), kinds) == expected


@settings(max_examples=300)
@given(move=moves(), section_states=states, kinds=st.sampled_from(KIND_SETS))
def test_what_stops_a_leg_is_the_wall_then_the_first_obstacle(
    move: Move, section_states: dict[str, SectionState], kinds: frozenset[ObstacleKind]
) -> None:
    engine = SMALL_ENGINE.fork()  # a fork: its section states are its own
    engine.set_section_states(section_states)
    a, b = move
    first = engine.first_obstacle_of(a.point, b.point, kinds)
    expected = (LEG_WALL if engine.move_blocked(a, b)
                else LEG_FREE if first is None else SMALL.obstacles.index(first))
    assert engine.leg_stop(a, b, kinds) == expected
