"""Copies of a game's state (`RuleSet.clone`), what a search plays forward and throws
away: over every bundled scenario, a copy is the game as it stands (snapshot, views, legal
orders), plays on exactly as the game would with the same dice, and nothing done to it
reaches the game; given dice of its own, it rolls those."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fibua.core.dice import Rng
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import RuleSet
from fibua.scenario.loader import bundled_scenarios, load_scenario

#: random orders given before the copy, and after it
BEFORE, AFTER = 40, 40


def _midgame(name: str) -> Game:
    game = Game(load_scenario(bundled_scenarios()[name]), 4)
    rng = random.Random(name)
    for _ in range(BEFORE):
        side = game.to_act()
        if side is None:
            break
        game.apply(rng.choice(game.legal_orders(side)))
    return game


def _play(rules: RuleSet[Any], state: Any, orders: list[Order] | None,
          rng: random.Random) -> list[Order]:
    """Random orders given to `state` (or the `orders` given again), and the orders."""
    given: list[Order] = []
    for n in range(AFTER if orders is None else len(orders)):
        side = rules.to_act(state)
        if side is None:
            break
        order = rng.choice(rules.legal_orders(state, side)) if orders is None else orders[n]
        rules.apply(state, order)
        given.append(order)
    return given


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_a_copy_is_the_game_and_plays_on_as_it_would(name: str) -> None:
    game = _midgame(name)
    rules, state = game.ruleset, game.state
    before = rules.snapshot(state)
    views = {side: rules.view(state, side) for side in game.scenario.side_names}
    copy = rules.clone(state)
    assert rules.snapshot(copy) == before
    assert {side: rules.view(copy, side) for side in views} == views
    orders = _play(rules, copy, None, random.Random(7))
    assert orders, "the copy gave no order"
    assert rules.snapshot(state) == before, "playing the copy changed the game"
    assert {side: rules.view(state, side) for side in views} == views
    after_copy = rules.snapshot(copy)
    _play(rules, state, orders, random.Random(7))
    assert rules.snapshot(state) == after_copy, "the game did not play on as its copy"


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_a_copy_with_dice_of_its_own_rolls_them_and_leaves_the_game_alone(name: str) -> None:
    game = _midgame(name)
    rules, state = game.ruleset, game.state
    before = rules.snapshot(state)
    counter = state.rng.counter
    copy = rules.clone(state, Rng(12345))
    assert copy.rng.seed == 12345 and copy.rng is not state.rng
    _play(rules, copy, None, random.Random(3))
    assert state.rng.counter == counter and rules.snapshot(state) == before
