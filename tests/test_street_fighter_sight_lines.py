"""Street Fighter works out again only the lines of sight of units that moved since a
side's last look (knowledge.sight_lines): after every order of played games they are the
lines the engine gives afresh for every pair."""

from __future__ import annotations

import pytest

from fibua.core.dice import derive_seed
from fibua.core.game import Game, LegalOrders
from fibua.rulesets.street_fighter.knowledge import observers, sight_lines, targets
from fibua.rulesets.street_fighter.state import StreetFighterState
from fibua.scenario.loader import bundled_scenarios, load_scenario


@pytest.mark.parametrize("name", sorted(n for n in bundled_scenarios()
                                        if load_scenario(n).scenario.ruleset
                                        == "street-fighter"))
def test_lines_kept_between_looks_are_the_lines_afresh(name: str) -> None:
    game = Game(load_scenario(name), 3)
    rules = game.ruleset
    players = {s: rules.computer(s, derive_seed(3, "computer", s))
               for s in game.scenario.side_names}
    looked = 0
    for _ in range(150):
        side = game.to_act()
        if side is None:
            break
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
        state: StreetFighterState = game.state  # type: ignore[assignment]
        for s in state.sides:
            eyes = [u.pos for u in observers(state, s)]
            marks = [t.pos for t in targets(state, s)]
            if not eyes or not marks:
                continue
            afresh = state.sight.visible_matrix(eyes, marks).T.tolist()
            assert sight_lines(state, s, eyes, marks) == afresh
            looked += 1
    assert looked > 100
