"""The Buildings computer's infantry shot at in the open keeps its die for an assault it
would make on an enemy holding an objective, rather than spend it on a Down."""

from __future__ import annotations

from bld_helpers import line, make_scenario, put
from fibua.core.game import Game, LegalOrders
from fibua.rulesets.buildings.ai import Control, _storming
from fibua.rulesets.buildings.state import Waiting


def _answer(game: Game) -> str:
    game.state.waiting = Waiting("mg", "rifles", advanced=False)
    game.state.pending.clear()
    order = Control("allies", 7).choose(game.observe("allies"), LegalOrders(game, "allies"))
    assert order.kind == "end" or order.unit == "rifles"
    return order.kind


def test_shot_at_within_reach_of_the_held_house_it_keeps_its_die() -> None:
    game = Game(make_scenario(), 1)
    put(game, "rifles", line(18, 6, 5) + line(18, 7, 5))
    view = game.observe("allies")
    assert _storming(view, view.unit("rifles"))
    assert _answer(game) == "end"


def test_shot_at_far_from_the_held_house_it_goes_down() -> None:
    game = Game(make_scenario(), 1)
    put(game, "rifles", line(2, 20, 5) + line(2, 21, 5))
    view = game.observe("allies")
    assert not _storming(view, view.unit("rifles"))
    assert _answer(game) == "down"
