"""What every rule set's search tests ask of a game and its twin (the same game with one
enemy the side cannot see elsewhere): the worlds drawn for the side and the searching
computer's choice must be the same for both."""

from __future__ import annotations

import random
from typing import Any

from fibua.core.game import Game, LegalOrders
from fibua.core.search import Budget, SearchPlayer

#: enough to search, little enough to be quick
SMALL = Budget(candidates=3, worlds=2, horizon=4)


def assert_twin_changes_nothing(game: Game, twin: Any, side: str,
                                budget: Budget = SMALL) -> None:
    rules = game.ruleset
    assert rules.snapshot(twin) != rules.snapshot(game.state)
    worlds = [rules.snapshot(rules.resample(s, side, random.Random(9)))
              for s in (game.state, twin)]
    assert worlds[0] == worlds[1]
    legal = list(LegalOrders(game, side))
    view = game.observe(side)
    choices = [SearchPlayer(rules, side, 4, budget).search(s, view, legal)
               for s in (game.state, twin)]
    assert choices[0] == choices[1]
