"""A game's row in every rule set: the falls agree with the events that tell of losses, and
the objectives are judged at every turn's end."""

from __future__ import annotations

import pytest

from fibua.core.game import Game, play_out
from fibua.lab.engine import computers
from fibua.lab.records import LOSS_KINDS, hold_objectives
from fibua.lab.runner import GameSeries
from fibua.scenario.loader import load_scenario


@pytest.mark.parametrize(("name", "seed"), [("corner-shop", 2), ("anti-tank-screen", 0),
                                            ("ramp-houses", 0), ("village-street", 1)])
def test_falls_and_holders_in_every_rule_set(name: str, seed: int) -> None:
    scenario = load_scenario(name)
    series = GameSeries(scenario, dict.fromkeys(scenario.side_names, "computer"))
    row = series.play(seed)
    series.close()
    game = Game(scenario, seed)
    play_out(game, computers(game, seed))
    told: dict[str, int] = {}
    for event in game.log:
        if event.kind in LOSS_KINDS:
            told.setdefault(event.data.get("figure", event.data.get("unit")), event.turn)
    assert told, "a game with losses, to test them"
    assert {f.id: f.turn for f in row.falls} == told
    assert all(f.x is not None and f.y is not None for f in row.falls)
    assert sum(row.casualties.values()) == len(row.falls)
    objectives = hold_objectives(scenario)
    assert objectives
    assert len(row.holders) == len(objectives) * row.turns
    assert {h.objective for h in row.holders} == {o.label for o in objectives}
