"""A game: a rule set, a scenario, a state with its generator, and the log.

`Game.apply` is the one way in: every change goes through it, is validated by the rule set
and comes back as events. Listeners hear of each order carried out (a save file keeps the
game as it is played), and a game can be rebuilt from its seed and orders at any time,
which is how an order is taken back (`undo`) and how a failure of the rules is undone.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from fibua.core.counters import Counter
from fibua.core.errors import FibuaError, IllegalOrder, Refusal, RulesFault
from fibua.core.events import Event
from fibua.core.orderforms import ParamType
from fibua.core.orders import Order
from fibua.core.ruleset import Player, Preview, Result, RuleSet, find_ruleset, is_searcher

if TYPE_CHECKING:
    from fibua.scenario.schema import Scenario

#: called after `apply` with the order carried out and its events
OrderListener = Callable[[Order, list[Event]], None]
#: called after `undo` with the order taken back
UndoListener = Callable[[Order], None]

#: event kinds that open a new turn, phase or step (or end the game): an order whose events
#: hold one has ended the phase in which it was given
BOUNDARY_KINDS = frozenset({"turn", "phase", "step", "orders", "game-over"})
#: events whose kind begins so tell a side about the enemy (seen, glimpsed, lost, hit)
SIGHTING_PREFIX = "enemy-"
#: refusals of a bare order that say only what it lacks, not why the unit cannot act
UNTELLING_REFUSALS = frozenset({Refusal.BAD_PARAMETER, Refusal.UNKNOWN, Refusal.ILLEGAL,
                                Refusal.NO_TARGET})
#: a bare order refused for its missing parameters: the kind is open now, were there
#: anything to give it (a shot with a target, a move with a place)
OPEN_KIND_REFUSALS = frozenset({Refusal.BAD_PARAMETER})
#: the parameters that name the enemy an order is aimed at
AIMED_AT = frozenset({ParamType.ENEMY, ParamType.ENEMIES})
#: refusals for the moment of the turn, true of every unit of the side
TIMING_REFUSALS = frozenset({Refusal.WRONG_PHASE, Refusal.WRONG_STEP, Refusal.REACTING,
                             Refusal.NOT_YOUR_TURN})


def _telling(code: str | None) -> int:
    """How much a refusal says of the unit itself: about it (0), about the moment for an
    order of this phase (its step: 1), about another phase's orders (2)."""
    if code not in TIMING_REFUSALS:
        return 0
    return 2 if code == Refusal.WRONG_PHASE else 1


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def checked_shape(order: Any) -> Order:
    """The order if its fields have the types an order needs (params a mapping with string
    keys), else IllegalOrder with code "bad-parameter": the rule sets may then rely on them."""
    if not isinstance(order, Order):
        raise IllegalOrder(f"not an order: {order!r}", order, Refusal.BAD_PARAMETER)
    if not isinstance(order.side, str) or not isinstance(order.kind, str):
        raise IllegalOrder("an order's side and kind must be text", order, Refusal.BAD_PARAMETER)
    if order.unit is not None and not isinstance(order.unit, str):
        raise IllegalOrder("an order's unit must be text", order, Refusal.BAD_PARAMETER)
    params: Any = order.params
    if not isinstance(params, Mapping):
        raise IllegalOrder(
            f"an order's parameters must be name=value pairs, not {type(params).__name__}",
            order,
            "bad-parameter",
        )
    if not all(isinstance(key, str) for key in params):
        raise IllegalOrder("an order's parameters must be name=value pairs with text names",
                           order, Refusal.BAD_PARAMETER)
    if not isinstance(params, dict):
        # a read-only or custom mapping: logged and compared as the plain dict it holds
        return Order(order.side, order.kind, order.unit, dict(params))
    return order


def holds_roll(value: Any) -> bool:
    """Whether a value (an event's data) holds a die roll anywhere inside it."""
    if isinstance(value, Mapping):
        if "dice" in value and "faces" in value:
            return True
        return any(holds_roll(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(holds_roll(item) for item in value)
    return False


class Game:
    def __init__(self, scenario: Scenario, seed: int, rng: Any = None) -> None:
        self.scenario = scenario
        self.seed = seed
        self.ruleset: RuleSet[Any] = find_ruleset(scenario.ruleset)
        # a rebuild starts again from the generator as it was given (a test's forced dice;
        # a test that changes the state or feeds dice outside `apply` cannot rebuild)
        self._rng_at_start = copy.deepcopy(rng)
        self.state: Any = self.ruleset.new_state(scenario, seed, rng)
        self.orders: list[Order] = []
        self.log: list[Event] = list(self.ruleset.start(self.state))
        #: where each order's events begin: marks[0] set-up events, marks[i] after order i
        self.marks: list[int] = [len(self.log)]
        #: told of every order carried out, after the game has taken it in
        self.listeners: list[OrderListener] = []
        #: told of every order taken back, after the game has been rebuilt without it
        self.undo_listeners: list[UndoListener] = []
        #: set when an order was cut short by an interruption (Ctrl-C): `restore` mends it
        self.damaged = False

    @property
    def over(self) -> bool:
        return self.ruleset.to_act(self.state) is None

    def to_act(self) -> str | None:
        return self.ruleset.to_act(self.state)

    def legal_orders(self, side: str) -> list[Order]:
        return self.ruleset.legal_orders(self.state, side)

    def unit_orders(self, side: str, unit: str) -> list[Order]:
        """`legal_orders(side)` of one unit (`RuleSet.unit_orders`)."""
        return self.ruleset.unit_orders(self.state, side, unit)

    def has_choice(self, side: str) -> bool:
        """Whether the side may give any order but `end` now (`RuleSet.has_choice`)."""
        return self.ruleset.has_choice(self.state, side)

    def apply(self, order: Order) -> list[Event]:
        """Carry out an order and return its events; an illegal order raises IllegalOrder
        and leaves the game exactly as it was. Should the rule set fail in any other way,
        the game is rebuilt as it was before the order and RulesFault is raised."""
        order = checked_shape(order)
        if self.damaged:
            self.restore()
        acting = self.to_act()
        if acting is None:
            raise IllegalOrder("the game is over", order, Refusal.GAME_OVER)
        if order.side != acting:
            raise IllegalOrder(f"it is {acting}'s turn to give orders", order,
                               Refusal.NOT_YOUR_TURN)
        events = self._carry_out(order)
        self._record(order, events)
        for listener in list(self.listeners):
            listener(order, events)
        return events

    def _carry_out(self, order: Order) -> list[Event]:
        try:
            return self.ruleset.apply(self.state, order)
        except IllegalOrder:
            raise  # refused before anything changed
        except Exception as error:
            self._put_back()
            if isinstance(error, FibuaError):
                raise  # already typed (a test's forced dice running out)
            raise RulesFault(order, error) from error
        except BaseException:
            # Ctrl-C or an exit in the middle of an order: no time to mend it here
            self.damaged = True
            raise

    def _record(self, order: Order, events: list[Event]) -> None:
        self.orders.append(order)
        self.log.extend(events)
        self.marks.append(len(self.log))

    def preview(self, order: Order) -> str:
        """What an order would cost and its odds, in words (`forecast`'s sentence)."""
        return self.forecast(order).text

    def forecast(self, order: Order) -> Preview:
        """What an order would do, as data with its sentence (`RuleSet.forecast`), changing
        nothing (IllegalOrder if it is not allowed, RulesFault if the rule set fails, the
        game being as it was)."""
        order = checked_shape(order)
        try:
            return self.ruleset.forecast(self.state, order)
        except IllegalOrder:
            raise
        except Exception as error:
            # a preview changes nothing, unless the failure was half-way through a change
            self._put_back()
            if isinstance(error, FibuaError):
                raise
            raise RulesFault(order, error) from error

    # -- rebuilding ------------------------------------------------------------------------

    def _rebuild(self, orders: Sequence[Order]) -> None:
        """The game made again from its seed and these orders (a replay is exact). The
        lists keep their identity, so whoever holds them sees the rebuilt game."""
        self.state = self.ruleset.new_state(
            self.scenario, self.seed, copy.deepcopy(self._rng_at_start)
        )
        self.orders.clear()
        self.log[:] = self.ruleset.start(self.state)
        self.marks[:] = [len(self.log)]
        for order in orders:
            self._record(order, self.ruleset.apply(self.state, order))
        self.damaged = False

    def _put_back(self) -> None:
        """After a failure half-way through an order: the game as it was before it. Should
        even that fail (forced dice a test fed in as it went cannot be replayed), the game
        is marked damaged and the first error is the one raised."""
        try:
            self._rebuild(list(self.orders))
        except Exception:
            self.damaged = True

    def restore(self) -> None:
        """Mend a game whose last order was interrupted: rebuild it from its orders."""
        self._rebuild(list(self.orders))

    def undo_refusal(self, side: str) -> str | None:
        """Why `side` cannot take back its last order now, or None if it can."""
        if not self.orders:
            return "no order has been given yet"
        last = self.orders[-1]
        if last.side != side:
            return f"only your own orders can be taken back, and {last.side} gave the last one"
        if self.to_act() != side or last.kind == "end":
            return "your phase has ended"
        # judged on what the side was told alone: a refusal that hung on a roll or a
        # sighting only Control or the enemy saw would tell the side it happened; such
        # events are taken back with the order
        told = [event for event in self.log[self.marks[-2] :] if event.seen_by(side)]
        if any(event.kind in BOUNDARY_KINDS for event in told):
            return "a new phase has begun"
        if any(holds_roll(event.data) for event in told):
            return "dice were rolled for it"
        if any(event.kind.startswith(SIGHTING_PREFIX) for event in told):
            return "your troops saw something new"
        return None

    def undo(self, side: str) -> Order:
        """Take back `side`'s last order: allowed while the side is still giving orders in
        the same phase and the order neither rolled a die nor showed the side anything new
        (IllegalOrder, code "cannot-undo", with the reason otherwise). The game is rebuilt
        from its seed and the orders before it; returns the order taken back."""
        reason = self.undo_refusal(side)
        last = self.orders[-1] if self.orders else None
        if reason is not None:
            raise IllegalOrder(f"cannot take the order back: {reason}", last, Refusal.CANNOT_UNDO)
        assert last is not None
        self._rebuild(self.orders[:-1])
        for listener in list(self.undo_listeners):
            listener(last)
        return last

    # -- reading ---------------------------------------------------------------------------

    def why_idle(self, side: str, unit: str) -> str | None:
        """The rules' reason one of the side's units has no order now, in their words: a
        bare order of each kind, previewed (changing nothing), as the rules refuse it. It
        is the refusal the side would get for giving the order, so it tells nothing more.
        A refusal of its parameters says nothing; one about the phase or step only what
        holds for every unit, so one about the unit itself comes first."""
        reasons: list[tuple[int, str]] = []
        open_kinds: list[str] = []
        for kind in self.ruleset.order_syntax:
            if kind == "end":
                continue
            try:
                self.preview(Order(side, kind, unit, {}))
            except IllegalOrder as refusal:
                # the words alone are kept: a kept exception holds its frames in a cycle
                if refusal.code in OPEN_KIND_REFUSALS:
                    open_kinds.append(kind)
                elif refusal.code not in UNTELLING_REFUSALS:
                    reasons.append((_telling(refusal.code), refusal.reason))
            except FibuaError:
                continue
        reasons.sort(key=lambda r: r[0])  # a stable sort
        if open_kinds and (not reasons or reasons[0][0] > 0):
            # a kind of this very moment, refused only for want of what to aim it at:
            # that, not the orders of another phase or step, is why the unit is idle
            return self._nothing_for(open_kinds[0])
        return reasons[0][1].rstrip(".") if reasons else None

    def _nothing_for(self, kind: str) -> str:
        """Why an open kind has no order: no enemy to aim it at, where every form of it
        names one (a shot), else nothing the rules allow."""
        forms = self.ruleset.order_kinds.get(kind)
        if forms is not None and all(any(p.required and p.type in AIMED_AT for p in f.params)
                                     for f in forms.forms):
            return f"no enemy it can {kind} at now"
        return f"no {kind} order is open to it now"

    def view(self, side: str) -> dict[str, Any]:
        return self.ruleset.view(self.state, side)

    def own_view(self, side: str) -> list[dict[str, Any]]:
        """`view(side)["own"]` alone (see `RuleSet.own_view`)."""
        return self.ruleset.own_view(self.state, side)

    def observe(self, side: str) -> Any:
        return self.ruleset.observe(self.state, side)

    def counters(self, side: str) -> list[Counter]:
        """`RuleSet.counters`: what the side's page writes on each counter, from its view."""
        return self.ruleset.counters(self.state, side)

    def forced(self, side: str) -> Order | None:
        """`RuleSet.forced`: the one order open to the side now, if it has no choice."""
        return self.ruleset.forced(self.state, side)

    def log_for(self, side: str) -> list[Event]:
        return [e for e in self.log if e.seen_by(side)]

    def events_of(self, index: int) -> list[Event]:
        """The events of the order at `index` in `orders`."""
        return self.log[self.marks[index] : self.marks[index + 1]]

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

    def forecast(self, order: Order) -> Preview | None:
        """What one of these orders would do (`Game.forecast`): what a person may ask
        before giving an order, a computer may ask too. None where it cannot be told."""
        return self._game.forecast(order)


def allowed(legal: Sequence[Order], order: Order) -> bool:
    """Whether `order` is among `legal`, asking a LegalOrders cheaply."""
    return legal.allows(order) if isinstance(legal, LegalOrders) else order in legal


def chosen(game: Game, side: str, player: Player) -> Order:
    """The order a player gives for `side` now: the one open to it when it has no choice
    (`Game.forced`: it is not asked), else its choice. Every front end asks a computer
    this way, so a seed plays the same game everywhere."""
    order = game.forced(side)
    if order is None:
        order = ask(game, side, player)
    return order


def ask(game: Game, side: str, player: Player) -> Order:
    """A player's choice for `side` now: a searching player searches from the game."""
    legal = LegalOrders(game, side)
    if is_searcher(player):
        return player.search(game.state, game.observe(side), legal)
    return player.choose(game.observe(side), legal)


@dataclass
class Refusals:
    """The orders of computers that the rules refused, with why (a fault to report)."""

    seen: list[tuple[Order, str]] = field(default_factory=list)

    def note(self, order: Order, error: IllegalOrder) -> None:
        self.seen.append((order, error.reason))


def attempt(game: Game, order: Order, refusals: Refusals | None = None) -> list[Event] | None:
    """Apply a computer's order: its events, or None when the rules refused it (noted in
    `refusals`; the game is as it was). The caller then has the computer give up its
    phase: `give_or_end` for a whole side, a seat of a shared side is finished."""
    try:
        return game.apply(order)
    except IllegalOrder as error:
        if refusals is not None:
            refusals.note(order, error)
        return None


def give_or_end(game: Game, order: Order, refusals: Refusals | None = None) -> list[Event]:
    """Apply the order of a computer that plays a whole side; refused, the side's `end`."""
    events = attempt(game, order, refusals)
    return events if events is not None else game.apply(Order(order.side, "end"))


def play_out(
    game: Game,
    players: dict[str, Player],
    max_orders: int = 100_000,
    on_events: Callable[[list[Event]], None] | None = None,
    refusals: Refusals | None = None,
) -> Result:
    """Let the players give orders until the game ends."""
    for _ in range(max_orders):
        side = game.to_act()
        if side is None:
            break
        events = give_or_end(game, chosen(game, side, players[side]), refusals)
        if on_events is not None:
            on_events(events)
    result = game.result()
    if result is None:
        raise RuntimeError(f"game did not end within {max_orders} orders")
    return result
