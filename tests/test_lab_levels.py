"""The lab's computer levels: `easy`, `normal` and `hard` are the session's computers
(`leveled`), seeded as the session seeds a side's computer, so `normal` is the lab's
`computer`; a hard seat is asked to search from the game, within the budget given."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fibua.core.game import Game
from fibua.core.search import Budget, SearchPlayer
from fibua.lab.runner import play_all
from fibua.lab.seats import PLAYERS, Seats, parse_seats
from fibua.scenario.loader import load_scenario
from fibua.session.computers import Careless, computer_seed

SEEDS = [100_000, 100_001, 100_002]
TINY = Budget(candidates=2, worlds=1, horizon=2)


@pytest.fixture(scope="module")
def corner_shop() -> Any:
    return load_scenario("corner-shop")


def test_the_levels_are_lab_players(corner_shop: Any) -> None:
    for level in ("easy", "normal", "hard"):
        assert level in PLAYERS
        assert parse_seats(corner_shop, [f"british={level}"])["british"] == level


def test_normal_plays_the_computers_games(corner_shop: Any) -> None:
    sides = corner_shop.side_names
    computer = play_all(corner_shop, dict.fromkeys(sides, "computer"), SEEDS)
    normal = play_all(corner_shop, dict.fromkeys(sides, "normal"), SEEDS)
    assert [replace(r, players={}) for r in computer] == [replace(r, players={})
                                                          for r in normal]


def test_a_level_is_seeded_as_the_sessions_computer_of_the_side(corner_shop: Any) -> None:
    game = Game(corner_shop, 100_000)
    players = Seats({"british": "easy", "germans": "hard"}, budget=TINY)(game, 100_000)
    easy, hard = players["british"], players["germans"]
    assert isinstance(easy, Careless)
    assert isinstance(hard, SearchPlayer)
    assert hard.budget == TINY
    # the same seed as the session's computer of the side: the same first choice
    fresh = SearchPlayer(game.ruleset, "germans", computer_seed(100_000, "germans"), TINY)
    assert hard.rng.getstate() == fresh.rng.getstate()


def test_a_hard_seat_searches_from_the_lab_game(corner_shop: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    search = SearchPlayer.search

    def counted(self: SearchPlayer, state: Any, view: Any, legal: Any) -> Any:
        asked.append(state.version)
        return search(self, state, view, legal)

    monkeypatch.setattr(SearchPlayer, "search", counted)
    rows = play_all(corner_shop, {"british": "hard", "germans": "random"}, SEEDS[:1],
                    budget=TINY)
    assert rows[0].players == {"british": "hard", "germans": "random"}
    assert len(asked) > 5  # every British choice, through core.game.ask


def test_the_budget_changes_what_hard_weighs(corner_shop: Any) -> None:
    game = Game(corner_shop, 100_000)
    default = Seats({"british": "hard", "germans": "normal"})(game, 100_000)["british"]
    assert isinstance(default, SearchPlayer) and default.budget == Budget()
