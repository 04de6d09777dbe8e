"""The Street-Fight computer's array estimates agree with the rules they stand in for.

The estimates rank places and targets; these tests pin them to the exact rules (cover,
cover within reach, the odds of a firing action) on the small test table of sf_helpers.
"""

from __future__ import annotations

import numpy as np
import pytest

from fibua.battlefield.model import Position
from fibua.battlefield.sight import SightEngine
from fibua.core.game import Game
from fibua.rulesets.street_fight.cover import has_cover_nearby, position_cover
from fibua.rulesets.street_fight.estimates import (
    PROBE,
    UNKNOWN,
    WEAPON_ORDER,
    CoverMap,
    Weights,
    _map_cover,
    cover_map,
    harm_and_risk,
    odds_table,
    place_values,
    removal_chance,
    values_around,
    weapon_codes,
)
from fibua.rulesets.street_fight.tables import MOVE_NORMAL, WeaponName
from fibua.rulesets.street_fight.views import observe
from fibua.scenario.loader import load_scenario
from sf_helpers import figure, forced_game, make_scenario


@pytest.fixture(scope="module")
def sight() -> SightEngine:
    game = forced_game(make_scenario([figure("b1", "rifle", (2, 2))],
                                     [figure("r1", "rifle", (22, 22))]), [2, 1])
    return game.state.sight


def _cover(covers: CoverMap, sight: SightEngine, at: Position, source: Position) -> int:
    return int(covers.matrix(sight, sight.position_arrays([at]),
                             sight.position_arrays([source]))[0, 0])


def test_cover_map_tells_floors_apart_whichever_is_asked_first(sight: SightEngine) -> None:
    """Inside the house, fire from the south comes through the door on the ground floor
    (1/2) but through no opening upstairs (3/4): a cell remembers each floor apart, so
    the answer never depends on which floor, place or game asked first."""
    source = Position(13.5, 4.0)
    ground, upstairs = Position(13.5, 10.5, "house", 0), Position(13.5, 10.5, "house", 1)
    for first, second in ((ground, upstairs), (upstairs, ground)):
        covers = CoverMap(sight)
        answers = {first.floor: _cover(covers, sight, first, source),
                   second.floor: _cover(covers, sight, second, source)}
        assert answers == {0: 2, 1: 3}


@pytest.mark.parametrize("at", [Position(3.5, 6.5), Position(5.5, 5.5), Position(3.5, 19.5),
                                Position(13.5, 13.5, "house", 0),
                                Position(10.5, 12.5, "house", 1)])
def test_cover_map_is_the_cover_rule_from_six_inches_off(sight: SightEngine,
                                                         at: Position) -> None:
    covers = CoverMap(sight)
    for sector in range(8):
        angle = 2 * np.pi * sector / 8
        source = Position(at.x + PROBE * np.cos(angle), at.y + PROBE * np.sin(angle))
        assert _cover(covers, sight, at, source) == position_cover(sight, source, at)


def test_cover_within_reach_matches_the_rule(sight: SightEngine) -> None:
    """The shelter a place is valued for (its reach grid) is the rule's cover nearby."""
    rng = np.random.default_rng(3)
    points = [Position(float(x), float(y), sight.section_at((x, y)))
              for x, y in np.round(rng.uniform(0, 24, (400, 2)), 2)]
    shelter_only = Weights(risk=0.0, shelter=1.0, progress=0.0, holding=0.0)
    near = place_values(sight, WeaponName.RIFLE, points[0], sight.position_arrays(points),
                        sight.position_arrays([]), weapon_codes([]), MOVE_NORMAL, None,
                        shelter_only) == 1.0
    exact = [has_cover_nearby(sight, p) for p in points]
    agree = np.mean(near == np.array(exact))
    assert 0 < sum(exact) < len(exact)
    assert agree > 0.97  # a 1/4 in grid: only places at the edge of reach may differ


def test_odds_table_is_the_removal_chance() -> None:
    table = odds_table()
    for w, weapon in enumerate(WEAPON_ORDER):
        for steps in (0, 1, 3, 7):
            for cover in range(4):
                assert table[w, steps, cover, 1, 0] == pytest.approx(
                    removal_chance(weapon, steps, cover, True, False, 0))
    assert table[WEAPON_ORDER.index(WeaponName.RIFLE), 1, 0, 0, 0] > 0


def test_harm_and_risk_count_only_what_sees_the_place(sight: SightEngine) -> None:
    """From the street the rifleman sees the enemy and is seen; hidden behind the house
    it does neither; a place reached at a run does no harm, and the fire it draws is
    that at a moving target with no cover."""
    enemy = sight.position_arrays([Position(13.0, 4.0)])
    places = sight.position_arrays([Position(13.0, 8.0), Position(13.0, 19.0),
                                    Position(5.0, 7.0)])
    still = np.zeros(3)
    harm, risk = harm_and_risk(sight, WeaponName.RIFLE, places, still, enemy,
                               [WeaponName.RIFLE], MOVE_NORMAL)
    assert harm[0] > 0 and risk[0] > 0
    assert harm[1] == 0 and risk[1] == 0
    ran = np.full(3, MOVE_NORMAL + 1)
    harm_run, risk_run = harm_and_risk(sight, WeaponName.RIFLE, places, ran, enemy,
                                       [WeaponName.RIFLE], MOVE_NORMAL)
    rifle = WEAPON_ORDER.index(WeaponName.RIFLE)
    assert harm_run[0] == 0
    assert risk_run[0] == odds_table()[rifle, 1, 0, 1, 0]  # 4 in: one increment


def test_cells_worked_out_on_demand_give_the_filled_map_values(sight: SightEngine) -> None:
    """A cover map starts unknown and the estimates then work out the cells they need, in
    the asking engine's own copy: the values are those of a map filled beforehand, and
    the map every fork shares (and so another fork) never shows what was asked."""
    places = sight.position_arrays([Position(13.0, 8.0), Position(13.5, 10.5, "house", 1),
                                    Position(5.0, 7.0), Position(3.5, 19.5)])
    enemies = sight.position_arrays([Position(13.0, 4.0), Position(11.0, 12.0, "house", 0)])
    weapons = [WeaponName.RIFLE, WeaponName.LMG]
    still = np.zeros(4)
    filled = harm_and_risk(sight, WeaponName.RIFLE, places, still, enemies, weapons, MOVE_NORMAL)
    engine = SightEngine(sight.battlefield)
    # the map's cover map (in the store of `per_map`), nothing of it known yet
    engine.shared[_map_cover.__wrapped__] = {(): CoverMap(engine)}  # type: ignore[attr-defined]
    asking, other = engine.fork(), engine.fork()
    on_demand = harm_and_risk(asking, WeaponName.RIFLE, places, still, enemies, weapons,
                              MOVE_NORMAL)
    assert (cover_map(asking).grid != UNKNOWN).any()
    assert (cover_map(other).grid == UNKNOWN).all()
    assert cover_map(other) is _map_cover(engine)
    assert np.array_equal(filled[0], on_demand[0]) and np.array_equal(filled[1], on_demand[1])
    assert filled[1].sum() > 0


@pytest.mark.parametrize("name", ["corner-shop", "farm-compound"])
def test_a_move_decision_s_one_call_is_its_steps_one_by_one(name: str) -> None:
    """Places round a figure and their values in one compiled call: the same places and,
    to the last bit, the same values as placing them, measuring the goal and weighing
    them in turn; with the side's goal and with none."""
    game = Game(load_scenario(name), 4)
    state = game.state
    weights = Weights(risk=0.5, shelter=0.1, progress=0.07, holding=0.4)
    steps = np.array([2.5, 5.0, 9.0])
    for side in state.sides:
        view = observe(state, side)
        enemies = [f for f in state.figures.values() if f.side != side]
        arrays = state.sight.position_arrays([f.pos for f in enemies])
        codes = weapon_codes([f.weapon for f in enemies])
        for k, f in enumerate(view.own):
            extra = np.array([[f.pos.x + 1.0, f.pos.y - 1.0]])
            for goal in (view.goal, None):
                left = goal.distance(f.pos) if goal is not None else 0.0
                places, values = values_around(state.sight, f.weapon, f.pos, 0.1 * k, steps, 8,
                                               extra, arrays, codes, MOVE_NORMAL, goal, left,
                                               weights)
                alone = state.sight.places_around(f.pos, 0.1 * k, steps, 8, extra)
                assert places.xy.tolist() == alone.xy.tolist()
                assert places.section.tolist() == alone.section.tolist()
                assert places.floor.tolist() == alone.floor.tolist()
                goal_part = (goal.distances(alone), left) if goal is not None else None
                expected = place_values(state.sight, f.weapon, f.pos, alone, arrays, codes,
                                        MOVE_NORMAL, goal_part, weights)
                assert values.tolist() == expected.tolist()
