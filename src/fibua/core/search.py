"""A computer player that looks ahead, for any rule set that can draw the game as a side
may believe it to be (`RuleSet.resample`).

Flat Monte-Carlo over drawn worlds (determinized Monte-Carlo, the simplest member of the
information-set search family): the rule set's own computer names its choice, a few other
legal orders join it as candidates, and each candidate is given in the same few worlds
drawn from the side's knowledge, then both sides play on with the rule set's computer for
a short horizon and the position is judged (`judge`). The candidate with the best mean
wins; a tie keeps the computer's own choice. The same worlds and dice serve every
candidate (common random numbers), so candidates are compared on equal terms.

The search reads the game only through `resample`, which keeps everything the side has
not observed out of the worlds it draws: moving an enemy the side cannot see changes no
choice (tests/test_search.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fibua.core.dice import Rng
from fibua.core.errors import IllegalOrder
from fibua.core.game import LegalOrders
from fibua.core.orders import Order
from fibua.core.ruleset import Player, Result, RuleSet, commands


@dataclass(frozen=True)
class Budget:
    """How much a decision may weigh: `candidates` orders (the computer's choice among
    them), each in `worlds` drawn worlds, played on `horizon` orders."""

    candidates: int = 4
    worlds: int = 3
    horizon: int = 12


#: what a judged position is worth: the result were the game to end now, and the share
#: of the two sides' strength that is the side's
OUTCOME_WEIGHT = 0.75


def outcome_value(result: Result | None, side: str) -> float:
    """1 for a win of `side`, 0 for a loss, a half for a draw or no result."""
    if result is None or result.winner is None:
        return 0.5
    return 1.0 if result.winner == side else 0.0


def judge(rules: RuleSet[Any], state: Any, side: str) -> float:
    """A position's worth to `side`, 0 to 1: the game's result once over, else how it
    would end now, blended with the side's share of the strength left."""
    result = rules.result(state)
    if result is not None:
        return outcome_value(result, side)
    own = rules.strength(state, side)
    enemy = sum(rules.strength(state, s) for s in state.sides if s != side)
    share = own / (own + enemy) if own + enemy > 0 else 0.5
    return (OUTCOME_WEIGHT * outcome_value(rules.standing(state), side)
            + (1 - OUTCOME_WEIGHT) * share)


class WorldLegal(LegalOrders):
    """A drawn world's legal orders for a side, listed only if the rollout's computer
    reads them (as `LegalOrders` for a game): a computer that builds its own candidates
    asks `allows`, and listing every order of every figure in every rollout cost several
    times the rest of a search."""

    def __init__(self, rules: RuleSet[Any], state: Any, side: str) -> None:
        self._rules = rules
        self._state = state
        self._side = side
        self._orders: list[Order] | None = None

    def _list(self) -> list[Order]:
        if self._orders is None:
            self._orders = self._rules.legal_orders(self._state, self._side)
        return self._orders

    def allows(self, order: Order) -> bool:
        if self._orders is not None:
            return order in self._orders
        return order.side == self._side and self._rules.allows(self._state, order)


class SearchPlayer:
    """The searching computer of one side (module docstring). As a plain `Player` (no
    game to draw worlds from) it gives the rule set's computer's choice."""

    def __init__(self, rules: RuleSet[Any], side: str, seed: int, budget: Budget,
                 units: frozenset[str] | None = None) -> None:
        self.rules = rules
        self.side = side
        self.budget = budget
        self.units = units
        self.rng = random.Random(seed)
        self.heuristic = rules.computer(side, seed, units)

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        return self.heuristic.choose(view, legal)

    def search(self, state: Any, view: Any, legal: Sequence[Order]) -> Order:
        first = self.heuristic.choose(view, legal)
        candidates = self._candidates(first, legal)
        if len(candidates) == 1:
            return first
        worlds = [self.rules.resample(state, self.side, self.rng)
                  for _ in range(self.budget.worlds)]
        seeds = [self.rng.getrandbits(63) for _ in worlds]
        best, best_value = first, -1.0
        for candidate in candidates:
            value = sum(self._rollout(world, seed, candidate)
                        for world, seed in zip(worlds, seeds, strict=True)) / len(worlds)
            if value > best_value + 1e-9:
                best, best_value = candidate, value
        return best

    def _candidates(self, first: Order, legal: Sequence[Order]) -> list[Order]:
        """The computer's choice and a sample of other legal orders, one of a unit and
        kind each where there are enough."""
        pool = [o for o in legal if o != first and commands(self.units, o.unit)]
        self.rng.shuffle(pool)
        picked: list[Order] = [first]
        kinds = {(first.unit, first.kind)}
        for order in pool:
            if len(picked) >= self.budget.candidates:
                break
            if (order.unit, order.kind) not in kinds:
                picked.append(order)
                kinds.add((order.unit, order.kind))
        for order in pool:  # too few distinct: any others
            if len(picked) >= self.budget.candidates:
                break
            if order not in picked:
                picked.append(order)
        return picked

    def _rollout(self, world: Any, seed: int, candidate: Order) -> float:
        rules = self.rules
        state = rules.clone(world, Rng(seed))
        try:
            rules.apply(state, candidate)
        except IllegalOrder:
            return -1.0  # not open in this world (it is in the real one): judged worst
        players = {side: rules.computer(side, seed) for side in state.sides}
        for _ in range(self.budget.horizon):
            side = rules.to_act(state)
            if side is None:
                break
            order = rules.forced(state, side)
            if order is None:
                order = players[side].choose(rules.observe(state, side),
                                             WorldLegal(rules, state, side))
            try:
                rules.apply(state, order)
            except IllegalOrder:
                break
        return judge(rules, state, self.side)


def search_player(rules: RuleSet[Any], side: str, seed: int, budget: Budget | None = None,
                  units: frozenset[str] | None = None) -> Player:
    """The searching computer where the rule set can draw worlds, else its own computer."""
    if not rules.can_resample:
        return rules.computer(side, seed, units)
    return SearchPlayer(rules, side, seed, budget or Budget(), units)
