"""Many games in one process: the same results as one game at a time, and the heap the
collector was spared and its thresholds are handed back."""

from __future__ import annotations

import gc

import pytest

from fibua.core.game import Game, play_out
from fibua.core.ruleset import Player
from fibua.lab.engine import YOUNG_THRESHOLD, computers, play_games
from fibua.lab.seats import Seats
from fibua.scenario.loader import load_scenario


@pytest.mark.parametrize("name", ["farm-compound", "ramp-houses"])
def test_a_run_gives_each_seed_s_result_as_a_lone_game_would(name: str) -> None:
    # the run's computers keep their notes from game to game; the lone games' have none
    scenario = load_scenario(name)
    alone = []
    for seed in range(3):
        game = Game(scenario, seed)
        alone.append((play_out(game, computers(game, seed)).to_dict(), game.state_hash()))
    seating = Seats(dict.fromkeys(scenario.side_names, "computer"))
    games: list[Game] = []

    def seat(game: Game, seed: int) -> dict[str, Player]:
        games.append(game)
        return seating(game, seed)

    results = [r.to_dict() for r in play_games(scenario, range(3), seat)]
    assert list(zip(results, [g.state_hash() for g in games], strict=True)) == alone
    assert seating.notes  # kept, by side


def test_the_long_lived_heap_is_set_aside_only_while_games_run() -> None:
    before = gc.get_freeze_count()
    games = play_games(load_scenario("farm-compound"), range(5))
    next(games)
    assert gc.get_freeze_count() > before
    next(games)
    games.close()
    assert gc.get_freeze_count() == before == 0


def test_the_young_generation_is_collected_less_often_only_while_games_run() -> None:
    before = gc.get_threshold()
    assert before[0] < YOUNG_THRESHOLD
    games = play_games(load_scenario("farm-compound"), range(3))
    next(games)
    assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
    games.close()
    assert gc.get_threshold() == before
