"""A computer player that looks ahead, for any rule set that can draw the game as a side
may believe it to be (`RuleSet.resample`).

Flat Monte-Carlo over drawn worlds (determinized Monte-Carlo, the simplest member of the
information-set search family), used as a check on the rule set's own computer (the
heuristic) rather than in its place:

- **Candidates**: the heuristic's choice and its next best ones (`Budget.candidates` in
  all), each asked of a copy of it (`probe`) with the orders ranked before left out
  (`Without`): a computer that ranks its options gives the next of them.
- **Worlds**: drawn one at a time from what the side knows, each with dice of its own;
  every candidate is given in the same worlds with the same dice (common random numbers),
  then both sides play on with the heuristic for `horizon` orders and the position is
  judged (`judge`). What a candidate is worth is its gain on the heuristic's choice world
  by world (paired differences).
- **Screening**: after `SCREEN` worlds, and after every world from then on, a candidate
  that has not gained on average is dropped, and the search stops when none is left: in
  most worlds a short rollout judges two orders alike, and most decisions cost only
  their first worlds.
- **Keeping the heuristic's choice unless beaten**: a candidate is given instead only
  when its mean gain less half a standard error of it is above nought (`preferred`,
  `SURE`); ties keep the heuristic's choice.

The heuristic is asked through copies (`probe`) and takes the copy that proposed the order
given only when that is its own choice: a computer that marks a unit done when it
proposes its order would otherwise leave that unit idle for the rest of the phase
whenever the search gave another order.

The search reads the game only through `resample`, which keeps everything the side has
not observed out of the worlds it draws: moving an enemy the side cannot see changes no
choice (tests/test_search.py, tests/test_noninterference.py).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import fmean, stdev
from typing import Any

from fibua.core.dice import Rng
from fibua.core.errors import IllegalOrder
from fibua.core.game import LegalOrders, allowed
from fibua.core.orders import Order
from fibua.core.ruleset import (
    Notes,
    Player,
    Preview,
    Result,
    RuleSet,
    commands,
    own_computer,
)


@dataclass(frozen=True)
class Budget:
    """How much a decision may weigh: the heuristic's `candidates` best orders (its choice
    among them), each given in at most `worlds` drawn worlds (fewer once screening has
    dropped every other candidate), played on `horizon` orders."""

    candidates: int = 3
    worlds: int = 4
    horizon: int = 32


#: worlds every candidate is given before one that has not gained on the heuristic's
#: choice is dropped
SCREEN = 2
#: how sure a gain must be: a candidate is given instead of the heuristic's choice when
#: its mean gain less `SURE` standard errors of that mean is above nought. Measured on
#: decisions whose every candidate was played to the end from the true game many times
#: (docs/strength.md), a one-sided 95% test left the heuristic's choice almost always and
#: so gained nothing, while the best mean of the heuristic's own few best orders gained;
#: half a standard error keeps most of that and drops the closest calls
SURE = 0.5

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

    def forecast(self, order: Order) -> Preview | None:
        return self._rules.forecast(self._state, order)


class Without(LegalOrders):
    """A side's legal orders less some (the ones ranked already): what a copy of the
    heuristic is given to name its next best order."""

    def __init__(self, legal: Sequence[Order], left_out: Sequence[Order]) -> None:
        self._legal = legal
        self._left_out = list(left_out)
        self._orders: list[Order] | None = None

    def _list(self) -> list[Order]:
        if self._orders is None:
            self._orders = [o for o in self._legal if o not in self._left_out]
        return self._orders

    def allows(self, order: Order) -> bool:
        return order not in self._left_out and allowed(self._legal, order)

    def forecast(self, order: Order) -> Preview | None:
        return self._legal.forecast(order) if isinstance(self._legal, LegalOrders) else None


def probe(player: Player) -> Player:
    """A copy of a computer to ask without committing it: its bookkeeping (the sets,
    lists and dicts it keeps of the phase, such as the units it has ordered, and its
    random generator) its own, everything else shared (its notes and caches, worked out
    from the map and replaced rather than changed). The rule sets' computers keep their
    state in attributes of those kinds (tests/test_search.py checks that asking a copy
    leaves the computer's next choices as they were)."""
    twin = copy.copy(player)
    for name, value in vars(player).items():
        if isinstance(value, random.Random):
            fresh = random.Random()
            fresh.setstate(value.getstate())
            setattr(twin, name, fresh)
        elif isinstance(value, set | list | dict):
            setattr(twin, name, copy.copy(value))
    return twin


def lower_bound(gains: Sequence[float]) -> float:
    """The mean of `gains` less `SURE` standard errors of it (none for a single gain)."""
    if len(gains) < 2:
        return fmean(gains)
    return fmean(gains) - SURE * stdev(gains) / sqrt(len(gains))


def preferred(first: Order, gains: dict[Order, list[float]]) -> Order:
    """The order to give: the candidate whose gain on the heuristic's choice `first` is
    surest (the highest `lower_bound`) where that is above nought, else `first`."""
    best, best_bound = first, 0.0
    for order, found in gains.items():
        bound = lower_bound(found) if found else 0.0
        if bound > best_bound + 1e-12:
            best, best_bound = order, bound
    return best


class SearchPlayer:
    """The searching computer of one side (module docstring). As a plain `Player` (no
    game to draw worlds from) it gives the rule set's computer's choice. `searched` and
    `departed` count the decisions it weighed and those in which it gave another order
    than the heuristic's."""

    def __init__(self, rules: RuleSet[Any], side: str, seed: int, budget: Budget,
                 units: frozenset[str] | None = None, notes: Notes | None = None) -> None:
        self.rules = rules
        self.side = side
        self.budget = budget
        self.units = units
        self.rng = random.Random(seed)
        self.heuristic = own_computer(rules, side, seed, units, notes)
        #: each side's notes for the computers of the rollouts (worked out from the map
        #: alone, so shared by every rollout of the game)
        self._notes: dict[str, Notes] = {side: notes if notes is not None else {}}
        self.searched = 0
        self.departed = 0

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        return self.heuristic.choose(view, legal)

    def search(self, state: Any, view: Any, legal: Sequence[Order]) -> Order:
        asked = probe(self.heuristic)
        first = asked.choose(view, legal)
        others = self._alternatives(view, legal, first)
        choice = first if not others else self._weigh(state, first, others)
        if choice == first:
            self.heuristic = asked  # its choice given: it goes on from there
        else:
            self.departed += 1
        return choice

    def _alternatives(self, view: Any, legal: Sequence[Order], first: Order) -> list[Order]:
        """The heuristic's next best orders after `first`, each asked of a fresh copy of
        it with the orders ranked before left out."""
        ranked = [first]
        while len(ranked) < self.budget.candidates and ranked[-1].kind != "end":
            order = probe(self.heuristic).choose(view, Without(legal, ranked))
            if order in ranked or not commands(self.units, order.unit):
                break
            ranked.append(order)
        return ranked[1:]

    def _weigh(self, state: Any, first: Order, others: list[Order]) -> Order:
        """Each candidate's gains on `first`, world by world, screened (module doc)."""
        self.searched += 1
        gains: dict[Order, list[float]] = {order: [] for order in others}
        alive = list(others)
        for drawn in range(1, self.budget.worlds + 1):
            world = self.rules.resample(state, self.side, self.rng)
            seed = self.rng.getrandbits(63)
            base = self._rollout(world, seed, first)
            for order in alive:
                gains[order].append(self._rollout(world, seed, order) - base)
            if drawn >= SCREEN:
                alive = [o for o in alive if fmean(gains[o]) > 0]
                if not alive:
                    break
        return preferred(first, gains)

    def _rollout(self, world: Any, seed: int, candidate: Order) -> float:
        rules = self.rules
        state = rules.clone(world, Rng(seed))
        try:
            rules.apply(state, candidate)
        except IllegalOrder:
            return -1.0  # not open in this world (it is in the real one): judged worst
        players = {side: rules.computer(side, seed, notes=self._notes.setdefault(side, {}))
                   for side in state.sides}
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
                  units: frozenset[str] | None = None, notes: Notes | None = None) -> Player:
    """The searching computer where the rule set can draw worlds, else its own computer."""
    if not rules.can_resample:
        return own_computer(rules, side, seed, units, notes)
    return SearchPlayer(rules, side, seed, budget or Budget(), units, notes)
