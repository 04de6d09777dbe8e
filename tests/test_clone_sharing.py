"""A copy of a game's state (`BaseState.clone`, what a searching computer plays forward)
shares what the map alone decides and never changes, and forks what a game changes: a
copy is cheap, and playing it on leaves the game as it was."""

from __future__ import annotations

from fibua.battlefield.navigation import DistanceField
from fibua.core.game import Game
from fibua.scenario.loader import load_scenario


def test_a_copy_shares_the_sides_goal_fields_and_forks_their_sight() -> None:
    game = Game(load_scenario("corner-shop"), 100_000)
    for side in game.scenario.side_names:
        game.observe(side)  # each side's briefing: its goal field, its fork of the map
    state = game.state
    copy = state.clone()
    for side in game.scenario.side_names:
        goal = state.briefings[side]["goal"]
        assert isinstance(goal, DistanceField)
        assert copy.briefings[side]["goal"] is goal
        assert copy.briefings[side]["sight"] is not state.briefings[side]["sight"]
    assert copy.sight is not state.sight
