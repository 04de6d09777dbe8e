"""The Street Fighter rules' shortcuts for speed keep the game as it was: the view's copy
of a unit holds every field, the fields a view's copies watch are all a game changes,
and only the observing side looks again after an order to observe."""

from __future__ import annotations

from dataclasses import fields

import pytest

from fibua.core.game import Game, play_out
from fibua.lab.seats import Seats
from fibua.rulesets.street_fighter import knowledge, rules
from fibua.rulesets.street_fighter.state import Unit
from fibua.rulesets.street_fighter.views import UNIT_CHANGES, _copy_unit
from fibua.scenario.loader import load_scenario


def _played(name: str, seed: int) -> Game:
    scenario = load_scenario(name)
    game = Game(scenario, seed)
    play_out(game, Seats(dict.fromkeys(scenario.side_names, "computer"))(game, seed),
             100_000, None)
    return game


def test_a_views_copy_of_a_unit_holds_every_field() -> None:
    game = Game(load_scenario("normandy-village"), 1)
    for unit in game.state.units.values():
        copy = _copy_unit(unit)
        assert copy is not unit and copy.passengers is not unit.passengers
        for f in fields(Unit):
            assert getattr(copy, f.name) == getattr(unit, f.name), f.name


def test_a_game_changes_only_the_unit_fields_the_views_watch() -> None:
    scenario = load_scenario("normandy-village")
    fixed = [f.name for f in fields(Unit) if f.name not in UNIT_CHANGES]
    start = {u.id: [getattr(u, n) for n in fixed] for u in Game(scenario, 7).state.units.values()}
    game = _played("normandy-village", 7)
    assert {u.id: [getattr(u, n) for n in fixed] for u in game.state.units.values()} == start


@pytest.mark.parametrize("name", ["normandy-village", "anti-tank-screen"])
def test_looking_again_only_after_observing_plays_the_same_game(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = _played(name, 3).state_hash()

    def everyone(state: object, side: str) -> None:
        knowledge.refresh(state)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "refresh_after_observing", everyone)
    assert _played(name, 3).state_hash() == quick


def test_surely_beyond_only_where_the_distance_is_beyond() -> None:
    from random import Random

    from fibua.battlefield.model import Position
    from fibua.rulesets.street_fighter.ground import distance_to_section, surely_beyond

    state = Game(load_scenario("factory-district"), 1).state
    sight, table, rng = state.sight, state.battlefield.table, Random(5)
    said = 0
    for _ in range(300):
        pos = Position(rng.uniform(0, table.width), rng.uniform(0, table.height))
        for section in state.battlefield.section_ids:
            for reach in (0.0, 4.0, 15.0):
                if surely_beyond(sight, pos, section, reach):
                    said += 1
                    assert distance_to_section(sight, pos, section) > reach
    assert said > 0
