"""The computer's places to go, made and scored as arrays, give to the last bit what the
plain Python they replace gives: the ring of steps rounded as `round` rounds, and what
each place is worth for where it is."""

from __future__ import annotations

import math
import random
from math import cos, pi, sin

import numpy as np
import pytest

from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField
from fibua.battlefield.sight import SightEngine
from fibua.core.game import Game
from fibua.rulesets.house_clearing.ai import (
    ALONE,
    CLEAR,
    CROWD,
    HOLD,
    PROGRESS,
    SPREAD,
    Sergeant,
    _Ground,
    _ring_python,
    ground_kernel,
    places_kernel,
)
from fibua.rulesets.house_clearing.geometry import MapGeometry
from fibua.rulesets.house_clearing.movement import (
    FASTEST,
    SLACK,
    SLOWEST,
    too_far_along,
    too_far_on_the_ground,
)
from fibua.rulesets.house_clearing.state import Phase
from fibua.rulesets.house_clearing.views import SideView
from fibua.scenario.loader import load_scenario
from hc_helpers import map_geometry, random_places

MAPS = ("ramp-houses", "oosterbeek-crossroads")


def _places_of(sight: SightEngine, x0: float, y0: float, angles: list[float],
               dists: list[float], given: bool = False,
               ring: np.ndarray | None = None) -> tuple[np.ndarray, list[int], list[int], bool]:
    here = sight.section_index(sight.section_at((x0, y0)))
    table = sight.battlefield.table
    xy, section, floor, told = places_kernel(
        np.array([[x0], [y0], [here], [1]], dtype=np.float64),
        np.array([cos(a) for a in angles]), np.array([sin(a) for a in angles]),
        np.array(dists), given, np.zeros((0, 2)) if ring is None else ring,
        float(table.width), float(table.height), sight.kernel_tables)
    return xy, section.tolist(), floor.tolist(), told


def test_the_ring_is_rounded_as_round_rounds() -> None:
    sight = map_geometry("ramp-houses").sight
    table = sight.battlefield.table
    rng = random.Random(11)
    exact = 0
    for k in range(1500):
        x0, y0 = rng.uniform(-1, table.width + 1), rng.uniform(-1, table.height + 1)
        if k % 3 == 0:  # whole and half inches, as scenarios place figures
            x0, y0 = round(x0 * 2) / 2, round(y0 * 2) / 2
        offset = rng.random() * 2 * pi / 10
        angles = [offset + 2 * pi * n / 10 for n in range(10)]
        dists = sorted({1.5, rng.choice((1.0, 2.0, 3.0)), rng.choice((3.0, 6.0, 9.0))})
        xy, section, floor, told = _places_of(sight, x0, y0, angles, dists)
        expected = _ring_python(Position(x0, y0), angles, dists, table.width, table.height)
        if told:
            exact += 1
            assert xy[1:].tolist() == expected.tolist()
        else:  # handed the ring `round` makes, it takes it
            xy, section, floor, told = _places_of(sight, x0, y0, angles, dists, True,
                                                  expected)
            assert told and xy[1:].tolist() == expected.tolist()
        here = section[0]
        sections = [sight.section_index(sight.section_at((x, y))) for x, y in expected]
        assert section[1:] == sections
        assert floor[1:] == [1 if s == here else 0 for s in sections]
    assert exact > 1450


def test_a_step_ending_at_a_half_hundredth_is_left_to_round() -> None:
    # 1.005 * 100 is a hair from a half: the kernel says it cannot tell
    sight = map_geometry("ramp-houses").sight
    assert not _places_of(sight, 1.005, 5.0, [0.0], [0.0])[3]


class _Seeded:
    def random(self) -> float:
        return 0.0


def test_a_ring_near_a_half_hundredth_is_the_python_ring() -> None:
    game = Game(load_scenario("ramp-houses"), 1)
    side = game.scenario.side_names[0]
    view = game.observe(side)
    f = next(g for g in view.own if g.in_action)
    # a place whose steps at heading 0 end a hair from a half hundredth
    f.pos = Position(2.005, 3.0, None, 0)
    sergeant = Sergeant(side, 1)
    sergeant._rng = _Seeded()  # type: ignore[assignment]
    pace = view.geometry.rate_at(f.pos.x, f.pos.y)
    dists = sorted({1.5, min(pace, 3.0), pace})
    table = view.sight.battlefield.table
    expected = _ring_python(f.pos, [2 * pi * k / 10 for k in range(10)], dists,
                            table.width, table.height)
    places = sergeant._places(view, f)
    head = 1 + len(places.walks) + len(places.stairs)
    assert places.arrays.xy[head:].tolist() == expected.tolist()


def _ground_python(view: SideView, g: _Ground, spots: list[Position]) -> list[float]:
    """`_Ground.scores` as plain Python, place by place (before the open rooms)."""
    goal = view.goal
    friends = [h.pos for h in g.friends]
    taken = {(p.section, p.floor) for p in friends}
    held = {(t.pos.section, t.pos.floor) for t in g.threats}
    out = []
    for spot in spots:
        value = 0.0
        if goal is not None:
            left = goal.distance(spot)
            value = 0.0 + PROGRESS * g.urgency * min(g.start - left, 9.0)
            if left == 0:
                value += HOLD
        near = any(p.distance(spot) < 1.0 for p in friends)
        close = any(p.distance(spot) <= 3.0 for p in friends)
        if spot.section is not None and spot.section in view.goal_sections:
            room = (spot.section, spot.floor)
            score = 0.0
            if room not in taken:
                score += SPREAD
            if room in held and not close:
                score -= ALONE
            elif room in held and not view.defending:
                score += CLEAR * (0.5 + view.turn / view.turns)
            value += score
        if near:
            value -= CROWD
        out.append(value)
    return out


@pytest.mark.parametrize("goal_in_python", [False, True])
@pytest.mark.parametrize("name", MAPS)
def test_what_a_place_is_worth_is_the_python_sum(name: str, goal_in_python: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if goal_in_python:  # as for a goal only Python can test: its distances handed in
        monkeypatch.setattr(DistanceField, "as_arrays", lambda self: None)
    game = Game(load_scenario(name), 3)
    players = {s: game.ruleset.computer(s, 7) for s in game.scenario.side_names}
    checked = 0
    for _ in range(400):
        side = game.to_act()
        if side is None:
            break
        view = game.observe(side)
        sergeant = Sergeant(side, 5)
        threats = sergeant._known_threats(view)
        if view.phase is Phase.MOVE and view.reaction is None:
            for f in view.own:
                if not f.in_action:
                    continue
                places = sergeant._places(view, f)
                arrays = places.arrays
                ids = view.sight.section_ids
                spots = [Position(x, y, None if s < 0 else ids[s], fl) for (x, y), s, fl in
                         zip(arrays.xy.tolist(), arrays.section.tolist(),
                             arrays.floor.tolist(), strict=True)]
                start = view.goal.distance(f.pos) if view.goal is not None else 0.0
                g = _Ground(view, f, sergeant._threat_arrays(view, threats),
                            sergeant._own_arrays(view), start)
                found = g.before_rooms(arrays).tolist()
                assert found == _ground_python(view, g, spots)
                checked += 1
        game.apply(players[side].choose(view, game.legal_orders(side)))
    assert checked > 50


def test_friends_at_hand_are_measured_as_positions_measure_them() -> None:
    rng = random.Random(4)
    friends = [(rng.uniform(2, 20), rng.uniform(2, 20)) for _ in range(4)]
    places = [(rng.uniform(0, 24), rng.uniform(0, 24)) for _ in range(60)]
    # at the limits straight along an axis, which the kernel settles itself
    places += [(x + dx, y + dy) for x, y in friends for dx, dy in
               ((1.0, 0.0), (0.0, -1.0), (3.0, 0.0), (0.0, 3.0), (-0.5, 0.0))]
    n = len(places)

    def kernel(xy: list[tuple[float, float]], given: bool = False,
               crowded: list[bool] | None = None,
               together: list[bool] | None = None) -> tuple[np.ndarray, bool]:
        m = len(xy)
        found: tuple[np.ndarray, bool] = ground_kernel(
            np.zeros(m), np.zeros((1, 1)), 1.0, np.zeros(1, dtype=np.bool_), False, 0.1, 0.0,
            1.2, np.array(xy), np.zeros(m, dtype=np.int64),
            np.zeros(m, dtype=np.int64), np.array([True]), np.array(friends),
            np.full(len(friends), -1), np.zeros(len(friends), dtype=np.int64), -1,
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), given,
            np.array(crowded or [], dtype=np.bool_), np.array(together or [], dtype=np.bool_),
            0.15, 0.35, 0.7, 0.25, False)
        return found

    def python(x: float, y: float) -> float:
        near = any(math.hypot(fx - x, fy - y) < 1.0 for fx, fy in friends)
        close = any(math.hypot(fx - x, fy - y) <= 3.0 for fx, fy in friends)
        return 0.0 + ((0.35 + 0.25) if close else (0.35 - 0.7)) - (0.15 if near else 0.0)

    found, told = kernel(places)
    assert told
    assert found.tolist() == [python(x, y) for x, y in places]
    assert len({round(v, 6) for v in found.tolist()}) == 3  # crowded, at hand, neither
    # at a limit off the axes the kernel cannot tell; handed the answers, it uses them
    x, y = friends[0]
    odd = [(x + 0.6, y + 0.8), (x + 1.8, y - 2.4)]
    assert not kernel(odd)[1]
    near = [math.hypot(x - px, y - py) < 1.0 for px, py in odd]
    close = [math.hypot(x - px, y - py) <= 3.0 for px, py in odd]
    given, told = kernel(odd, True, near, close)
    assert told and n > 0
    assert given.tolist() == [0.0 + ((0.35 + 0.25) if c else (0.35 - 0.7)) - (0.15 if k else 0.0)
                              for k, c in zip(near, close, strict=True)]


def _too_far_with_sections(geometry: MapGeometry, start: Position,
                           points: list[tuple[float, float]]) -> bool:
    """The ground of a path leg by leg, each end placed in its section and floor as
    `trace` places it."""
    length, here_xy = 0.0, start.point
    for p in points:
        length += math.hypot(p[0] - here_xy[0], p[1] - here_xy[1])
        here_xy = p
    if length > FASTEST + SLACK:
        return True
    if length < SLOWEST * (1.0 - 1e-6):
        return False
    here, paced = start, 0.0
    for x, y in points:
        section = geometry.sight.section_at((x, y))
        if section != here.section and here.floor > 0:
            here = Position(here.x, here.y, here.section, 0)
        there = Position(x, y, section, here.floor if section == here.section else 0)
        share = geometry.leg_share(here, there)
        if paced + share > 1.0 + SLACK:
            return True
        paced += share
        here = there
    return False


@pytest.mark.parametrize("name", MAPS)
def test_the_ground_of_a_path_reads_its_coordinates_alone(name: str) -> None:
    geometry = map_geometry(name)
    table = geometry.sight.battlefield.table
    rng = random.Random(17)
    starts = random_places(geometry, 300, 9)
    found = set()
    for start in starts:
        points = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            x0, y0 = points[-1] if points else start.point
            angle, step = rng.uniform(0, 2 * pi), rng.uniform(0.5, 9.0)
            points.append((min(max(round(x0 + step * cos(angle), 2), 0.0), table.width),
                           min(max(round(y0 + step * sin(angle), 2), 0.0), table.height)))
        expected = _too_far_with_sections(geometry, start, points)
        assert too_far_along(geometry, start, points) == expected
        assert too_far_on_the_ground(geometry, start, {"path": [list(p) for p in points]}) \
            == expected
        found.add(expected)
    assert found == {True, False}
