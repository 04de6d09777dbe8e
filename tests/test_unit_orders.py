"""`RuleSet.unit_orders` and `RuleSet.has_choice` say what `legal_orders` says (the server
lists one unit's orders for the page and asks whether a side has any choice after every
change; a rule set may do either faster, never differently): over every bundled scenario,
at many states of a game played at random."""

from __future__ import annotations

import random

import pytest

from fibua.core.game import Game
from fibua.scenario.loader import bundled_scenarios, load_scenario

STATES = 12


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_one_unit_s_orders_and_any_choice_agree_with_the_listing(name: str) -> None:
    game = Game(load_scenario(bundled_scenarios()[name]), 11)
    rng = random.Random(name)
    checked = 0
    while checked < STATES and not game.over:
        acting = game.to_act()
        assert acting is not None
        legal = game.legal_orders(acting)
        for side in game.scenario.side_names:
            listed = game.legal_orders(side)
            assert game.has_choice(side) == any(o.kind != "end" for o in listed)
            for unit in {str(u.get("id")) for u in game.view(side).get("own", [])}:
                assert game.unit_orders(side, unit) == [o for o in listed if o.unit == unit]
        checked += 1
        moves = [o for o in legal if o.kind != "end"]
        game.apply(rng.choice(moves) if moves and rng.random() < 0.8 else legal[0])
    assert checked == STATES
