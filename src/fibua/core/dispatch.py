"""The order dispatcher every rule set shares: the checks an order passes before any rule of
its kind looks at it, in one place and with one set of refusal codes.

A rule set describes its orders as data (`Kind`: the parameters an order takes and the
function that checks it) and its `check` asks `Dispatcher.check`, which

1. refuses an order out of turn (`not-your-turn`), parameters that are not name=value
   pairs (`bad-parameter`) and a unit named by anything but an id (`no-unit`),
2. carries out `end` (it takes no parameters),
3. names the known kinds, from `order_syntax`, for any other (`unknown`),
4. finds the side's own unit the order names (`no-unit`; `out-of-action` once it can no
   longer take orders),
5. refuses any parameter the kind does not take (`bad-parameter`), then
6. calls the kind's checker, which returns what carries the order out, changing nothing.

Every `IllegalOrder` raised on the way carries the order. `DispatchedRuleSet` wires a
dispatcher into a `RuleSet` whose state is a `BaseState`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from fibua.core.dice import Rng
from fibua.core.errors import IllegalOrder, Refusal
from fibua.core.events import Event, drain
from fibua.core.orders import Order
from fibua.core.params import only
from fibua.core.ruleset import Result, RuleSet
from fibua.core.state import BaseState

#: what carries a checked order out
Carry = Callable[[], None]

NO_PARAMETERS: frozenset[str] = frozenset()


class Acting(Protocol):
    """A state as the dispatcher reads it: whose order is awaited."""

    @property
    def acting_side(self) -> str | None: ...


class OwnUnit(Protocol):
    """A unit (figure, team, vehicle) as the dispatcher reads it."""

    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def name(self) -> str: ...


S = TypeVar("S", bound=Acting)
U = TypeVar("U", bound=OwnUnit)


@dataclass(frozen=True, slots=True)
class Kind(Generic[S, U]):
    """One order kind: the parameters it takes (any other is refused before `check` runs)
    and its checker, (state, own unit, params) -> what carries the order out."""

    takes: frozenset[str]
    check: Callable[[S, U, dict[str, Any]], Carry]


@dataclass(frozen=True, slots=True)
class Dispatcher(Generic[S, U]):
    """The common part of a rule set's `check` (module docstring). `end` is what the
    side's `end` does; `unit` finds a unit by id on either side, `fit` says whether it can
    still take orders; `noun` and `out` word the refusals ("figure", "is a casualty")."""

    syntax: Mapping[str, str]
    kinds: Mapping[str, Kind[S, U]]
    end: Callable[[S], None]
    unit: Callable[[S, str], U | None]
    fit: Callable[[U], bool]
    noun: str = "unit"
    out: str = "is out of action"

    def check(self, state: S, order: Order) -> Carry:
        """Check an order completely and return what carries it out (IllegalOrder, with
        the order attached, if it is not allowed)."""
        try:
            return self._check(state, order)
        except IllegalOrder as error:
            error.order = order
            raise

    def _check(self, state: S, order: Order) -> Carry:
        acting = state.acting_side
        if order.side != acting:
            raise IllegalOrder(f"it is {acting}'s turn", order, Refusal.NOT_YOUR_TURN)
        params = _params(order.params)
        if order.unit is not None and not isinstance(order.unit, str):
            raise IllegalOrder(f"an order names its {self.noun} by its id, not "
                               f"{order.unit!r}", order, Refusal.NO_UNIT)
        kind = order.kind
        if kind == "end":
            only(params, NO_PARAMETERS)
            end = self.end
            return lambda: end(state)
        found = self.kinds.get(kind) if isinstance(kind, str) else None
        if found is None:
            known = ", ".join(self.syntax)
            raise IllegalOrder(f"unknown order {kind!r}; orders are: {known}", order,
                               "unknown")
        unit = self.own_unit(state, order)
        only(params, found.takes)
        return found.check(state, unit, params)

    def own_unit(self, state: S, order: Order) -> U:
        """The unit of the order's side that the order names, able to take orders."""
        uid = order.unit
        unit = self.unit(state, uid) if isinstance(uid, str) else None
        if unit is None or unit.side != order.side:
            raise IllegalOrder(f"{order.side} has no {self.noun} {uid!r}", order, Refusal.NO_UNIT)
        if not self.fit(unit):
            raise IllegalOrder(f"{unit.name} {self.out}", order, Refusal.OUT_OF_ACTION)
        return unit


def _params(params: object) -> dict[str, Any]:
    """The parameters as a dict with text names (an order read from a file or a socket may
    hold anything; `Game` has usually checked this already)."""
    if isinstance(params, Mapping) and all(isinstance(k, str) for k in params):
        return params if type(params) is dict else dict(params)
    raise IllegalOrder(f"an order's parameters are name=value pairs, not {params!r}",
                       code=Refusal.BAD_PARAMETER)


ST = TypeVar("ST", bound=BaseState[Any])


class DispatchedRuleSet(RuleSet[ST], Generic[ST, U]):
    """A rule set on the common plumbing: its state a `BaseState`, its `check` a
    `Dispatcher`. It gives `to_act`, `result`, `check` and `apply` (check, carry out, the
    rule set's `after_order`, hand out the events); the rule set gives `dispatcher`."""

    @property
    @abstractmethod
    def dispatcher(self) -> Dispatcher[ST, U]:
        """The rule set's order kinds and how its units are found."""

    def to_act(self, state: ST) -> str | None:
        return state.acting_side

    def result(self, state: ST) -> Result | None:
        return state.result

    def clone(self, state: ST, rng: Rng | None = None) -> ST:
        return state.clone(rng)

    def check(self, state: ST, order: Order) -> Carry:
        """The dispatcher's check, kept for this very order object until the state
        changes: a computer player asks `allows` and then gives the order it asked of."""
        last = state.last_check
        if last is not None and last[1] is order and last[0] == state.version:
            return last[2]
        carry = self.dispatcher.check(state, order)
        state.last_check = (state.version, order, carry)
        return carry

    def apply(self, state: ST, order: Order) -> list[Event]:
        carry = self.check(state, order)
        state.version += 1
        state.last_check = None  # (the carry holds the state: let both go with the game)
        carry()
        self.after_order(state, order)
        return drain(state)

    def after_order(self, state: ST, order: Order) -> None:
        """What follows every order carried out (sight refreshed, the step passed on when
        no one is left to act): nothing by default."""
