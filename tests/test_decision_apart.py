"""A computer's choice worked out apart (`session.computers.decision_apart`: on a copy of
the game taken when it is asked, as the server's thinking threads do) is the choice the
same computer makes asked in place (`core.game.ask`), order after order, in every rule
set; and the game may change meanwhile without changing it."""

from __future__ import annotations

import pytest

from fibua.core.game import Game, ask, canonical_json, give_or_end
from fibua.core.orders import Order
from fibua.core.ruleset import Player
from fibua.core.search import Budget, search_player
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.session.computers import computer_seed, decision_apart, looks_ahead

#: one scenario of each rule set
SCENARIOS = ["corner-shop", "normandy-village", "ramp-houses", "village-street"]
#: a small search (the equality holds for any; this keeps the test short)
BUDGET = Budget(candidates=3, worlds=2, horizon=4)
#: how many choices of the computers each game compares
CHOICES = 6
SEED = 11


def key(order: Order) -> str:
    return canonical_json(order.to_dict())


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_choice_made_apart_is_the_choice_made_in_place(name: str) -> None:
    scenario = load_scenario(bundled_scenarios()[name])
    here, apart = Game(scenario, SEED), Game(scenario, SEED)

    def players() -> dict[str, Player]:
        return {side: search_player(here.ruleset, side, computer_seed(SEED, side), BUDGET)
                for side in scenario.side_names}

    asked_here, asked_apart = players(), players()
    assert all(looks_ahead(p) for p in asked_here.values())
    compared = 0
    while compared < CHOICES and here.to_act() is not None:
        side = here.to_act()
        assert side is not None
        forced = here.forced(side)
        if forced is not None:
            here.apply(forced)
            apart.apply(forced)
            continue
        work = decision_apart(apart, side, asked_apart[side])
        chosen = ask(here, side, asked_here[side])
        # the game moves on before the work is done: the work reads its copy
        give_or_end(apart, chosen)
        assert key(work()) == key(chosen)
        give_or_end(here, chosen)
        assert here.state_hash() == apart.state_hash()
        compared += 1
    assert compared == CHOICES
