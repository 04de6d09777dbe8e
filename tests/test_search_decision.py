"""How the searching computer decides (core/search.py), for every rule set: it asks copies
of the rule set's computer (the heuristic) for its choice and its next best orders without
changing the computer, weighs them by paired gains over drawn worlds, drops those that
have not gained after the first worlds, and leaves the heuristic's choice only for a
candidate whose gain is surely above the noise."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fibua.core.dice import derive_seed
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.core.search import (
    SCREEN,
    Budget,
    SearchPlayer,
    Without,
    lower_bound,
    preferred,
    probe,
)
from fibua.scenario.loader import load_scenario

#: a scenario of each rule set
SCENARIOS = ("corner-shop", "anti-tank-screen", "ramp-houses", "village-street")
BUDGET = Budget(candidates=3, worlds=4, horizon=4)


def _midgame(name: str, orders: int = 25, seed: int = 3) -> Game:
    """A game of the rule sets' computers, `orders` orders in."""
    game = Game(load_scenario(name), seed)
    rules = game.ruleset
    players = {s: rules.computer(s, derive_seed(seed, "computer", s))
               for s in game.scenario.side_names}
    for _ in range(orders):
        side = game.to_act()
        if side is None:
            break
        order = game.forced(side) or players[side].choose(game.observe(side),
                                                          LegalOrders(game, side))
        game.apply(order)
    return game


def _play_on(game: Game, players: dict[str, Any], orders: int) -> list[Order]:
    given = []
    for _ in range(orders):
        side = game.to_act()
        if side is None:
            break
        order = game.forced(side) or players[side].choose(game.observe(side),
                                                          LegalOrders(game, side))
        game.apply(order)
        given.append(order)
    return given


@pytest.mark.parametrize("name", SCENARIOS)
def test_asking_copies_leaves_the_computer_choosing_as_before(name: str) -> None:
    """A copy asked (for its choice and its next best) changes nothing the computer
    itself goes on to choose: its units ordered this phase and its dice are its own."""
    asked, twin = _midgame(name), _midgame(name)
    rules = asked.ruleset
    side = asked.to_act()
    assert side is not None
    players = [{s: rules.computer(s, 11) for s in asked.scenario.side_names}
               for _ in range(2)]
    view, legal = asked.observe(side), LegalOrders(asked, side)
    first = probe(players[0][side]).choose(view, legal)
    probe(players[0][side]).choose(view, Without(legal, [first]))
    assert first == players[1][side].choose(twin.observe(side), LegalOrders(twin, side))
    players[1] = {s: rules.computer(s, 11) for s in twin.scenario.side_names}
    assert _play_on(asked, players[0], 12) == _play_on(twin, players[1], 12)


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_candidates_are_the_heuristics_choice_then_other_legal_orders(name: str) -> None:
    game = _midgame(name)
    side = game.to_act()
    assert side is not None
    player = SearchPlayer(game.ruleset, side, 5, BUDGET)
    legal = LegalOrders(game, side)
    view = game.observe(side)
    first = probe(player.heuristic).choose(view, legal)
    others = player._alternatives(view, legal, first)
    assert len(others) <= BUDGET.candidates - 1
    assert len({first, *others}) == 1 + len(others)
    assert all(game.ruleset.allows(game.state, o) for o in others)


def test_without_leaves_out_the_orders_given() -> None:
    game = _midgame("corner-shop")
    side = game.to_act()
    assert side is not None
    legal = LegalOrders(game, side)
    some = list(legal)[:2]
    rest = Without(legal, some)
    assert not any(rest.allows(o) for o in some)
    assert list(rest) == [o for o in legal if o not in some]


A, B, C = (Order("a", "move", unit) for unit in ("x", "y", "z"))


def test_noise_keeps_the_heuristics_choice() -> None:
    # mean gains above nought, but not by half a standard error of the mean
    assert preferred(A, {B: [0.2, -0.15, 0.1, -0.05], C: [0.1, -0.08]}) == A


def test_ties_and_losses_keep_the_heuristics_choice() -> None:
    assert preferred(A, {B: [0.0, 0.0, 0.0], C: [-0.1]}) == A
    assert preferred(A, {}) == A


def test_a_sure_gain_is_taken_and_the_surest_wins() -> None:
    assert preferred(A, {B: [0.1, 0.12, 0.09, 0.11]}) == B
    assert preferred(A, {B: [0.1, 0.12, 0.09, 0.11], C: [0.3, -0.1, 0.25, 0.0]}) == B
    assert preferred(A, {B: [0.1, 0.12, 0.09, 0.11], C: [0.2, 0.21, 0.19, 0.2]}) == C


def test_a_single_world_counts_its_gain_as_it_is() -> None:
    assert lower_bound([0.25]) == 0.25
    assert preferred(A, {B: [0.25], C: [0.1]}) == B


def _rigged(monkeypatch: pytest.MonkeyPatch, worth: dict[int, float]) -> list[int]:
    """Rollouts judged by the candidate's rank (0 the heuristic's choice); returns the
    ranks rolled out, in order."""
    rolled: list[int] = []

    def rollout(self: SearchPlayer, world: Any, seed: int, candidate: Order) -> float:
        rank = self._ranks.index(candidate)
        rolled.append(rank)
        return worth.get(rank, 0.5) + random.Random(seed).uniform(-0.01, 0.01)

    alternatives = SearchPlayer._alternatives

    def ranked(self: SearchPlayer, view: Any, legal: Any, first: Order) -> list[Order]:
        others = alternatives(self, view, legal, first)
        self._ranks = [first, *others]  # type: ignore[attr-defined]
        return others

    monkeypatch.setattr(SearchPlayer, "_rollout", rollout)
    monkeypatch.setattr(SearchPlayer, "_alternatives", ranked)
    return rolled


def test_a_candidate_its_rollouts_favour_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _midgame("village-street")
    side = game.to_act()
    assert side is not None
    rolled = _rigged(monkeypatch, {1: 0.8})
    player = SearchPlayer(game.ruleset, side, 5, BUDGET)
    before = player.heuristic
    order = player.search(game.state, game.observe(side), LegalOrders(game, side))
    assert player._ranks.index(order) == 1  # type: ignore[attr-defined]
    assert player.departed == 1
    assert player.heuristic is before  # not committed to the choice it was not given
    assert rolled.count(0) == BUDGET.worlds


def test_candidates_that_gain_nothing_are_dropped_after_the_first_worlds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _midgame("village-street")
    side = game.to_act()
    assert side is not None
    rolled = _rigged(monkeypatch, {1: 0.2, 2: 0.3})
    player = SearchPlayer(game.ruleset, side, 5, BUDGET)
    order = player.search(game.state, game.observe(side), LegalOrders(game, side))
    assert player._ranks.index(order) == 0  # type: ignore[attr-defined]
    assert player.departed == 0 and player.searched == 1
    assert rolled.count(0) == SCREEN and len(rolled) == SCREEN * len(player._ranks)  # type: ignore[attr-defined]
