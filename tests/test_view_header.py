"""The view header (`ViewHeader`): the typed reading of where a game stands that the seat
round, the server's status and the terminal's status line share, instead of each reading
the view's keys with `.get`."""

from __future__ import annotations

import pytest

from fibua.core.game import Game
from fibua.core.views import ViewHeader
from fibua.scenario.loader import bundled_scenarios, load_scenario


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_bundled_view_reads_as_a_header(name: str) -> None:
    game = Game(load_scenario(bundled_scenarios()[name]), 1)
    for side in game.scenario.side_names:
        head = ViewHeader.of(game.view(side))
        assert (head.side, head.to_act, head.over) == (side, game.to_act(), False)
        assert head.ruleset == game.scenario.ruleset and head.turn >= 0


def test_a_view_that_breaks_the_contract_is_refused_by_name() -> None:
    view = Game(load_scenario("corner-shop"), 1).view("british")
    with pytest.raises(ValueError, match="phase"):
        ViewHeader.of({k: v for k, v in view.items() if k != "phase"})
    with pytest.raises(ValueError, match="turn"):
        ViewHeader.of({**view, "turn": "three"})
    with pytest.raises(ValueError, match="step"):
        ViewHeader.of({**view, "step": True})
    assert ViewHeader.of({**view, "result": {"winner": None}}).over
