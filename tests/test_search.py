"""The searching computer (core/search.py) and the worlds it draws (Street-Fight's
`resample`): a world keeps what the side sees and draws the rest from its knowledge, so
moving an enemy the side cannot see changes no world drawn and no choice made."""

from __future__ import annotations

import random

import pytest

from fibua.core.game import Game
from fibua.core.ruleset import Result
from fibua.core.search import Budget, judge
from fibua.rulesets.street_fight.knowledge import refresh_sight
from fibua.rulesets.street_fight.state import Figure, StreetFightState
from fibua.scenario.loader import bundled_scenarios, load_scenario
from search_helpers import assert_twin_changes_nothing

STREET_FIGHT = sorted(name for name, path in bundled_scenarios().items()
                      if load_scenario(path).ruleset == "street-fight")
SMALL = Budget(candidates=3, worlds=2, horizon=4)


def _midgame(name: str, orders: int = 30) -> Game:
    game = Game(load_scenario(bundled_scenarios()[name]), 6)
    rng = random.Random(name)
    for _ in range(orders):
        side = game.to_act()
        if side is None:
            break
        game.apply(rng.choice(game.legal_orders(side)))
    return game


def _hidden(state: StreetFightState, side: str) -> list[Figure]:
    memory = state.knowledge[side].sightings
    return [f for f in state.side_figures(state.enemy_of(side))
            if not (f.id in memory and memory[f.id].visible)]


def _twin_with_one_moved(game: Game, side: str) -> StreetFightState | None:
    """A copy of the true game in which one enemy the side cannot see stands elsewhere,
    still unseen (the rules' own sight brought up to date)."""
    twin: StreetFightState = game.ruleset.clone(game.state)
    watchers = twin.side_figures(side)
    for figure in _hidden(twin, side):
        for dx, dy in ((3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (-2, -2)):
            old = figure.pos
            figure.pos = type(old)(old.x + dx, old.y + dy, old.section, old.floor)
            refresh_sight(twin, [figure])
            twin.pending.clear()
            if not any(twin.can_see(w.id, figure.id) for w in watchers):
                return twin
            figure.pos = old
            refresh_sight(twin, [figure])
            twin.pending.clear()
    return None


@pytest.mark.parametrize("name", STREET_FIGHT)
def test_a_world_keeps_what_the_side_sees_and_hides_the_rest(name: str) -> None:
    game = _midgame(name)
    rules, state = game.ruleset, game.state
    for side in game.scenario.side_names:
        world = rules.resample(state, side, random.Random(1))
        memory = state.knowledge[side].sightings
        for figure in state.side_figures(state.enemy_of(side)):
            if figure.id in memory and memory[figure.id].visible:
                assert world.figures[figure.id].pos == figure.pos
        for figure in _hidden(world, side):
            assert not any(world.can_see(w.id, figure.id) for w in world.side_figures(side))
        assert rules.snapshot(state) == rules.snapshot(game.state)


@pytest.mark.parametrize("name", STREET_FIGHT)
def test_moving_an_unseen_enemy_changes_no_world_and_no_choice(name: str) -> None:
    game = _midgame(name)
    side = game.to_act()
    assert side is not None
    twin = _twin_with_one_moved(game, side)
    if twin is None:
        pytest.skip("no enemy hidden from the side to act")
    assert_twin_changes_nothing(game, twin, side, SMALL)


def test_a_finished_game_is_judged_by_its_result() -> None:
    game = _midgame("corner-shop", 0)
    rules, state = game.ruleset, game.state
    a, b = game.scenario.side_names
    assert 0.0 <= judge(rules, state, a) <= 1.0
    state.result = Result(a, "a test", {})
    assert judge(rules, state, a) == 1.0 and judge(rules, state, b) == 0.0
