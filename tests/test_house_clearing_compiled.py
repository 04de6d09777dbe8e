"""The compiled short cuts of House-Clearing give, to the last bit, what the plain Python
they replace gives, on the bundled maps: a leg's share of a move, a path's shares added up
against a budget, who sees whom (the body model pair by pair), a field's walks written out
from its rounded cell centres, the computer's nearness to friends; and the computer makes a
threat again only of a changed sighting."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from fibua.battlefield.model import Position, SectionState
from fibua.battlefield.sight import PositionArrays, SightEngine
from fibua.core.game import Game
from fibua.core.knowledge import Sure
from fibua.rulesets.house_clearing.ai import (
    STAIRS,
    Sergeant,
    _section_grids,
    _threats,
    _within,
    section_field,
    ways_kernel,
)
from fibua.rulesets.house_clearing.estimates import mutual_matrix
from fibua.rulesets.house_clearing.movement import _crossing
from fibua.rulesets.house_clearing.views import goal_field
from fibua.scenario.loader import load_scenario
from hc_helpers import facing_crowds, map_geometry, random_places, seeing_pairs

MAPS = ("ramp-houses", "oosterbeek-crossroads")


@pytest.mark.parametrize("name", MAPS)
def test_a_legs_share_is_the_python_sum(name: str) -> None:
    geometry = map_geometry(name)
    rng = random.Random(5)
    starts = random_places(geometry, 600, 2)
    paces = set()
    for k, a in enumerate(starts):
        if k % 3 == 0:  # whole inches, as scenarios place figures
            a = Position(float(round(a.x)), float(round(a.y)))
        angle, length = rng.uniform(0, 2 * math.pi), rng.choice((0.5, 1.0, 3.0, 6.0, 9.0))
        b = Position(round(a.x + length * math.cos(angle), 2),
                     round(a.y + length * math.sin(angle), 2))
        found = geometry.leg_share(a, b)
        assert found == geometry.leg_share_slow(a, b), (a, b)
        paces.add(round(found / length, 6))
    assert len(paces) > 2  # legs on several kinds of ground, and across their edges
    assert geometry.leg_share(starts[0], starts[0]) == 0.0


@pytest.mark.parametrize("name", MAPS)
def test_a_paths_shares_are_added_up_as_python_adds_them(name: str) -> None:
    geometry = map_geometry(name)
    rng = random.Random(11)
    for start in random_places(geometry, 200, 2):
        points, here = [], start.point
        for _ in range(rng.choice((1, 2, 3, 5))):
            angle, length = rng.uniform(0, 2 * math.pi), rng.choice((0.0, 1.0, 2.5, 4.0))
            here = (round(here[0] + length * math.cos(angle), 2),
                    round(here[1] + length * math.sin(angle), 2))
            points.append(here)
        sums, paced, at = [], 0.0, start
        for x, y in points:
            paced += geometry.leg_share(at, Position(x, y))
            sums.append(paced)
            at = Position(x, y)
        # over a budget exactly when some running sum passes it, to the last bit
        for budget in {*sums, math.nextafter(sums[-1], 0.0), sums[0] / 2, 1.0}:
            assert geometry.paced_over(start, points, budget) == any(
                s > budget for s in sums), (start, points, budget)


def _ways_plain(sight: SightEngine, places: PositionArrays,
                rooms: list[tuple[str, int]]) -> np.ndarray:
    """The walk into the nearest of the rooms and up or down its stairs, as arrays."""
    found = None
    for s, n in rooms:
        inside = places.section == sight.section_index(s)
        walk = section_field(sight, s, 1.0).cell_distances(places)
        walk[inside] = 0.0
        way = walk + STAIRS * np.where(inside, np.abs(n - places.floor), n + places.floor)
        found = way if found is None else np.minimum(found, way)
    assert found is not None
    return found


@pytest.mark.parametrize("name", MAPS)
def test_the_ways_into_the_rooms_still_to_enter_are_the_plain_arrays(name: str) -> None:
    geometry = map_geometry(name)
    sight = geometry.sight
    rng = random.Random(13)
    places = sight.position_arrays(random_places(geometry, 300, 3))
    sections = sight.section_ids
    grids, step = _section_grids(sight, sections, 1.0)
    rooms = [(s, n) for s in sections for n in range(sight.battlefield.section(s).levels)]
    assert len(rooms) > len(sections)  # rooms upstairs too
    for _ in range(20):
        chosen = rng.sample(rooms, rng.randint(1, min(6, len(rooms))))
        table = np.array([(sections.index(s), sight.section_index(s), n) for s, n in chosen],
                         dtype=np.int64)
        found = ways_kernel(places.xy, places.section, places.floor, grids, step, table,
                            STAIRS)
        assert found.tolist() == _ways_plain(sight, places, chosen).tolist(), chosen


@pytest.mark.parametrize("name", MAPS)
def test_who_sees_whom_is_the_geometrys_pair_by_pair(name: str) -> None:
    geometry = map_geometry(name)
    crowds = facing_crowds(geometry, (40, 4), (50, 6), 9)
    a, a_stances, b, b_stances = crowds
    los = geometry.sight.visible_matrix(a, b)
    of_b, of_a = mutual_matrix(geometry, a, a_stances, b, b_stances, los)
    pairs = seeing_pairs(of_b, of_a, crowds, lambda i, j: geometry.mutual_in_sight(
        a[i], a_stances[i], b[j], b_stances[j]) if los[i, j] else (0, 0))
    assert pairs > 10


def test_walks_from_rounded_centres_are_the_walks_rounded() -> None:
    game = Game(load_scenario("ramp-houses"), 1)
    lengths = (9.0, 6.0, 4.0, 3.0, 2.0, 1.0)
    fields = [f for f in (goal_field(game.state, side) for side in game.scenario.side_names)
              if f is not None]
    assert fields
    for field in fields:
        rounded = field.rounded_centres(2)
        assert field.rounded_centres(2) is rounded  # worked out once
        for place in random_places(game.state.geometry, 60, 3):
            walks = field.descend_cells(place, lengths)
            assert [[(field.centre(i, j).x, field.centre(i, j).y) for i, j in walk]
                    for walk in walks] == field.descend_many(place, lengths)
            assert [[list(rounded[i][j]) for i, j in walk] for walk in walks] == \
                [[[round(x, 2), round(y, 2)] for x, y in path]
                 for path in field.descend_many(place, lengths)]


def _within_python(spots: list[Position], others: list[Position],
                   limits: tuple[tuple[float, bool], ...]) -> list[list[bool]]:
    return [[any(o.distance(s) < limit if strict else o.distance(s) <= limit
                 for o in others) for s in spots] for limit, strict in limits]


def test_nearness_to_friends_is_measured_as_positions_measure_it() -> None:
    rng = random.Random(3)
    limits = ((1.0, True), (3.0, False))
    for _ in range(50):
        others = [Position(rng.uniform(0, 10), rng.uniform(0, 10)) for _ in range(4)]
        spots = [Position(rng.uniform(0, 10), rng.uniform(0, 10)) for _ in range(20)]
        # places exactly at the limits, where the squares alone cannot tell
        spots += [Position(o.x + limit, o.y) for o in others for limit, _ in limits]
        spots += [Position(o.x, o.y - 3.0) for o in others]
        xy = np.array([(p.x, p.y) for p in spots], dtype=np.float64)
        found = [row.tolist() for row in _within(xy, others, limits)]
        assert found == _within_python(spots, others, limits)
    assert [row.tolist() for row in _within(xy, [], limits)] == [[False] * len(spots)] * 2


def test_threats_are_made_again_only_of_changed_sightings() -> None:
    game = Game(load_scenario("ramp-houses"), 1)
    side = game.scenario.side_names[0]
    sergeant = Sergeant(side, 1)
    for _ in range(200):  # until the side has seen an enemy
        view = game.observe(side)
        if view.enemies:
            break
        acting = game.to_act()
        assert acting is not None
        game.apply(game.ruleset.computer(acting, 2).choose(game.observe(acting),
                                                           game.legal_orders(acting)))
    view = game.observe(side)
    assert view.enemies
    first = sergeant._known_threats(view)
    assert first == _threats(view)
    again = sergeant._known_threats(game.observe(side))
    assert all(a is b for a, b in zip(again, first, strict=True))  # nothing new: kept
    enemy_id = view.enemies[0][0]
    memory = game.state.knowledge[side]
    known = memory.sightings[enemy_id]
    # the side's memory of that enemy changes
    memory.record(known._replace(sure=Sure.LAST_SEEN if known.visible else Sure.SEEN))
    changed = game.observe(side)
    found = sergeant._known_threats(changed)
    assert found == _threats(changed)
    assert found[0] is not first[0] and found[0].visible is not first[0].visible


def test_the_crossings_of_a_leg_are_kept_by_the_rules_engine_alone() -> None:
    game = Game(load_scenario("ramp-houses"), 1)
    state = game.state
    sight = state.sight
    section = sight.section_ids[0]
    footprint = sight.battlefield.section(section).footprint
    cx = sum(x for x, _ in footprint) / len(footprint)
    cy = sum(y for _, y in footprint) / len(footprint)
    inside = Position(cx, cy, section)
    outside = Position(cx + 40.0, cy, sight.section_at((cx + 40.0, cy)))
    first = _crossing(sight, inside, outside)
    assert first == sight.move_check(inside, outside, through_windows=True)
    assert _crossing(sight, inside, outside) is first  # kept
    side = game.scenario.side_names[0]
    assert all(first not in memo.values() for memo in
               game.observe(side).sight.memo.values())  # no player's engine holds it
    sight.set_section_state(section, SectionState.RUBBLE)  # its walls come down
    assert _crossing(sight, inside, outside) == \
        sight.move_check(inside, outside, through_windows=True)
    assert not any(c.section_id == section for c in _crossing(sight, inside, outside).walls)
    sight.set_section_state(section, SectionState.INTACT)
