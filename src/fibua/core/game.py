"""A game: a rule set, a scenario, a state with its generator, and the log.

`Game.apply` is the one way in: every change goes through it, is validated by the rule set
and comes back as events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, overload

from fibua.core.errors import IllegalOrder
from fibua.core.events import Event
from fibua.core.orders import Order
from fibua.core.ruleset import Player, Result, RuleSet, find_ruleset

if TYPE_CHECKING:
    from fibua.scenario.schema import Scenario


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Game:
    def __init__(self, scenario: Scenario, seed: int, rng: Any = None) -> None:
        self.scenario = scenario
        self.seed = seed
        self.ruleset: RuleSet[Any] = find_ruleset(scenario.ruleset)
        self.state: Any = self.ruleset.new_state(scenario, seed, rng)
        self.orders: list[Order] = []
        self.log: list[Event] = list(self.ruleset.start(self.state))
        #: where each order's events begin: marks[0] set-up events, marks[i] after order i
        self.marks: list[int] = [len(self.log)]

    @property
    def over(self) -> bool:
        return self.ruleset.to_act(self.state) is None

    def to_act(self) -> str | None:
        return self.ruleset.to_act(self.state)

    def legal_orders(self, side: str) -> list[Order]:
        return self.ruleset.legal_orders(self.state, side)

    def apply(self, order: Order) -> list[Event]:
        """Carry out an order and return its events; an illegal order raises IllegalOrder
        and leaves the game exactly as it was."""
        acting = self.to_act()
        if acting is None:
            raise IllegalOrder("the game is over", order, "game-over")
        if order.side != acting:
            raise IllegalOrder(f"it is {acting}'s turn to give orders", order, "not-your-turn")
        events = self.ruleset.apply(self.state, order)
        self.orders.append(order)
        self.log.extend(events)
        self.marks.append(len(self.log))
        return events

    def view(self, side: str) -> dict[str, Any]:
        return self.ruleset.view(self.state, side)

    def observe(self, side: str) -> Any:
        return self.ruleset.observe(self.state, side)

    def log_for(self, side: str) -> list[Event]:
        return [e for e in self.log if e.seen_by(side)]

    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    def state_hash(self) -> str:
        """SHA-256 over the canonical state and the whole log."""
        digest = hashlib.sha256()
        digest.update(canonical_json(self.ruleset.snapshot(self.state)).encode())
        for event in self.log:
            digest.update(canonical_json(event.to_dict()).encode())
        return digest.hexdigest()


class LegalOrders(Sequence[Order]):
    """The legal orders of a side, listed only if a player reads them: a computer player
    that makes its own candidates just asks `allows`, which is much cheaper."""

    def __init__(self, game: Game, side: str) -> None:
        self._game = game
        self._side = side
        self._orders: list[Order] | None = None

    def _list(self) -> list[Order]:
        if self._orders is None:
            self._orders = self._game.legal_orders(self._side)
        return self._orders

    def __len__(self) -> int:
        return len(self._list())

    @overload
    def __getitem__(self, index: int) -> Order: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Order]: ...

    def __getitem__(self, index: int | slice) -> Order | Sequence[Order]:
        return self._list()[index]

    def allows(self, order: Order) -> bool:
        if self._orders is not None:
            return order in self._orders
        return order.side == self._side and self._game.ruleset.allows(self._game.state, order)


def allowed(legal: Sequence[Order], order: Order) -> bool:
    """Whether `order` is among `legal`, asking a LegalOrders cheaply."""
    return legal.allows(order) if isinstance(legal, LegalOrders) else order in legal


def play_out(
    game: Game,
    players: dict[str, Player],
    max_orders: int = 100_000,
    on_events: Callable[[list[Event]], None] | None = None,
) -> Result:
    """Let the players give orders until the game ends."""
    for _ in range(max_orders):
        side = game.to_act()
        if side is None:
            break
        order = players[side].choose(game.observe(side), LegalOrders(game, side))
        events = game.apply(order)
        if on_events is not None:
            on_events(events)
    result = game.result()
    if result is None:
        raise RuntimeError(f"game did not end within {max_orders} orders")
    return result
