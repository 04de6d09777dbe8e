"""The one small interface every rule set implements, and the registry that finds them.

The engine, CLI and players know rule sets only through `RuleSet` and `find_ruleset`; rule
set packages import the core, never the other way round.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Protocol,
    TypeGuard,
    TypeVar,
    runtime_checkable,
)

from pydantic import BaseModel

from fibua.core.counters import Counter
from fibua.core.errors import IllegalOrder, Problem, UnknownRuleset
from fibua.core.events import Event
from fibua.core.orderforms import OrderForms
from fibua.core.orders import Order

if TYPE_CHECKING:
    from fibua.scenario.schema import Scenario

S = TypeVar("S")


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning side (None for a draw) and why."""

    winner: str | None
    reason: str
    scores: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "scores": self.scores}


@dataclass(frozen=True)
class OddsReport:
    """Exact odds of an action: JSON values and a readable breakdown (label, value) rows."""

    values: dict[str, Any]
    breakdown: list[tuple[str, str]]


@dataclass(frozen=True)
class OddsQuery:
    """An odds question a rule set answers before an order is committed.

    `params` is a pydantic model: the CLI (and later the server) builds its options from
    the fields, so rule sets describe their questions as data.
    """

    name: str
    help: str
    params: type[BaseModel]
    compute: Callable[[Any], OddsReport]


@dataclass(frozen=True)
class Seat:
    """One player's place at the table: a side, and the units that player commands, as
    the ids its orders name in `Order.unit` (None: all of the side's). Several seats can
    share a side (commanders)."""

    name: str
    side: str
    units: frozenset[str] | None = None


def commands(units: frozenset[str] | None, unit: str | None) -> bool:
    """Whether a seat holding `units` (None: the whole side) may order `unit` (None: an
    order of the side, such as `end`). Computers held to a seat filter with this."""
    return units is None or unit is None or unit in units


def seat_allows(seat: Seat | None, order: Order) -> bool:
    """Whether the player at `seat` (None: no seat, the whole side) may give `order`: the
    one seat check of the terminal, the server and the computers."""
    return seat is None or commands(seat.units, order.unit)


#: A computer's notes of the map: what it works out from the public map alone (the walks
#: from a place, the pace of the ground), kept by a caller that plays a scenario game after
#: game (the lab, one per side) and handed to the side's computer of each game, so that it
#: need not work them out again. Nothing of a game goes in them: a game is played the same
#: with or without them, and they tell the side nothing it could not work out itself.
Notes = dict[str, Any]

N = TypeVar("N")


def kept_notes(notes: Notes | None, key: str, kind: type[N]) -> N:
    """A rule set's computer's notes, kept under `key` in a side's `notes`: new ones of
    `kind` if there are none there yet (or no notes at all)."""
    if notes is None:
        return kind()
    found = notes.get(key)
    if not isinstance(found, kind):
        found = notes[key] = kind()
    return found


def own_computer(rules: RuleSet[Any], side: str, seed: int,
                 units: frozenset[str] | None = None, notes: Notes | None = None) -> Player:
    """The rule set's own computer for a side (or the seat with `units`), handed `notes`
    only where there are some: a rule set whose computer keeps no notes need not take
    them."""
    if notes is None:
        return rules.computer(side, seed, units)
    return rules.computer(side, seed, units, notes=notes)


class Risk(StrEnum):
    """What may go wrong with an order, said before it is given (a preview's `risks`)."""

    #: the fire may hit the side's own troops
    FRIENDLY_FIRE = "friendly-fire"
    #: no roll the order makes can succeed (a shot that needs 0 or less)
    HOPELESS = "hopeless"
    #: its rolls may succeed but cannot harm the target: a hit only pins it (small arms
    #: at a tank)
    HARMLESS = "harmless"
    #: the order uses up something (an order die) and may do nothing
    WASTED = "wasted"


@dataclass(frozen=True)
class Preview:
    """What an order would do, as data, with its sentence (`text`): the front ends read
    the data, never the sentence. `chance` is that of the order's main roll succeeding
    (0 to 1), where it has one; `becomes`, what the order turns into (a move that is a
    run: "run"); `risks`, what may go wrong."""

    text: str
    chance: float | None = None
    becomes: str | None = None
    risks: tuple[Risk, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"text": self.text, "chance": self.chance, "becomes": self.becomes,
                "risks": [str(r) for r in self.risks]}


class Player(Protocol):
    """Anything that gives orders: a person at a terminal, a computer opponent, a script.

    `legal` is the sequence of orders allowed now; it may be a `LegalOrders`, which works
    the list out only when first read and answers `allows(order)` without it.
    """

    def choose(self, view: Any, legal: Sequence[Order]) -> Order: ...


@runtime_checkable
class Searcher(Protocol):
    """A player that looks ahead from the game itself: `search` is asked instead of
    `choose` where the game is at hand (`core.game.chosen`). It may read the state only
    through `RuleSet.resample`, which keeps what its side has not observed out."""

    def choose(self, view: Any, legal: Sequence[Order]) -> Order: ...

    def search(self, state: Any, view: Any, legal: Sequence[Order]) -> Order: ...


#: whether players of a class search: asked at every order of every game, where a
#: protocol's own isinstance check (it looks the protocol's attributes up each time) cost
#: some 4% of a lab game
_SEARCHING_KINDS: dict[type, bool] = {}


def is_searcher(player: object) -> TypeGuard[Searcher]:
    """`isinstance(player, Searcher)`, remembered for the player's class."""
    kind = type(player)
    found = _SEARCHING_KINDS.get(kind)
    if found is None:
        found = _SEARCHING_KINDS[kind] = isinstance(player, Searcher)
    return found


class RuleSet(ABC, Generic[S]):
    name: ClassVar[str]
    title: ClassVar[str]
    #: pydantic model for one side's `forces` table in a scenario file
    forces_model: ClassVar[type[BaseModel]]
    #: pydantic model for the scenario's `options` table (rule options, house rules)
    options_model: ClassVar[type[BaseModel]]
    odds_queries: ClassVar[Mapping[str, OddsQuery]] = {}
    #: order kinds a person can type, with the parameters each takes (for help and prompts)
    order_syntax: ClassVar[Mapping[str, str]] = {}
    #: the rule set's own refusal codes, beside the core's `Refusal` (a rule set's codes.py)
    refusals: ClassVar[frozenset[str]] = frozenset()
    #: the kinds of event its rules emit (each has its phrase in the session's phrasebook)
    event_kinds: ClassVar[frozenset[str]] = frozenset()
    #: the same orders as typed data: each kind's forms and typed parameters (the page
    #: builds its order controls from them; a rule set writes its syntax from them)
    order_kinds: ClassVar[Mapping[str, OrderForms]] = {}

    def check_scenario(self, scenario: Scenario) -> list[Problem]:
        """Rule-set checks on a scenario whose forces and options already parsed."""
        return []

    @abstractmethod
    def new_state(self, scenario: Scenario, seed: int, rng: Any = None) -> S:
        """Set up a game; `rng` replaces the seeded generator (tests force dice with it)."""

    @abstractmethod
    def start(self, state: S) -> list[Event]:
        """Events of the set-up (deployment, first initiative roll)."""

    @abstractmethod
    def to_act(self, state: S) -> str | None:
        """The side that must give the next order; None once the game is over."""

    @abstractmethod
    def legal_orders(self, state: S, side: str) -> list[Order]:
        """Orders the side may give now (moves are sampled at a useful set of places)."""

    def unit_orders(self, state: S, side: str, unit: str) -> list[Order]:
        """Those of `legal_orders` that one unit gives, in the same order. A rule set that
        can list one unit's alone (a page asks for the unit picked) does less work."""
        return [o for o in self.legal_orders(state, side) if o.unit == unit]

    def has_choice(self, state: S, side: str) -> bool:
        """Whether `legal_orders` holds anything but `end`. A rule set that can stop at
        the first legal order it finds (the server asks after every change, to end a
        phase with nothing left in it) does less work."""
        return any(o.kind != "end" for o in self.legal_orders(state, side))

    def forced(self, state: S, side: str) -> Order | None:
        """The one order open to the side now when it has no choice at all (as a window to
        answer a move in which none of its units can act), else None: `play_out` gives it
        without asking the player. None says nothing: the side may still have no choice."""
        return None

    @abstractmethod
    def apply(self, state: S, order: Order) -> list[Event]:
        """Validate then carry out an order. Raises IllegalOrder before changing anything."""

    def allows(self, state: S, order: Order) -> bool:
        """Whether an order is legal now, without carrying it out."""
        try:
            self.check(state, order)
        except IllegalOrder:
            return False
        return True

    def check(self, state: S, order: Order) -> Callable[[], None]:
        """Check an order completely, changing nothing, and return what carries it out
        (IllegalOrder if it is not allowed). Rule sets whose `apply` runs a separate
        check may leave this as it is: it asks `preview`."""
        self.preview(state, order)
        return lambda: None

    @abstractmethod
    def preview(self, state: S, order: Order) -> str:
        """What an order would cost and its odds, without carrying it out (IllegalOrder if
        it is not allowed)."""

    def forecast(self, state: S, order: Order) -> Preview:
        """`preview` as data: a rule set that knows more of an order than its sentence
        (its chance, what it becomes, its risks) says it here; by default the sentence
        alone."""
        return Preview(self.preview(state, order))

    @abstractmethod
    def observe(self, state: S, side: str) -> Any:
        """The side's knowledge, built from what its own troops have observed."""

    @abstractmethod
    def view(self, state: S, side: str) -> dict[str, Any]:
        """JSON view for a side: `observe` serialised (never the seed or the generator).

        Every rule set fills at least these keys, which generic clients render:
        `ruleset`, `scenario`, `side`, `turn`, `phase`, `to_act` (side or null),
        `own`: [{id, name, unit, x, y, floor, section, status, ...}],
        `enemies`: [{id, name, x, y, floor, section, seen_turn, visible_now, ...}] (only
        what the side has observed), `log`: [event dicts the side may see],
        `result`: null or {winner, reason, scores}.
        """

    def own_view(self, state: S, side: str) -> list[dict[str, Any]]:
        """The `own` list of `view`, without the rest (the log above all, which costs
        more than the side's units): for callers that read only where the side's units
        are and how they stand. A rule set overrides it with the very function its
        `view` fills `own` with."""
        own: list[dict[str, Any]] = self.view(state, side)["own"]
        return own

    def clone(self, state: S, rng: Any = None) -> S:
        """A copy of the state that shares nothing that changes with it (what a search
        plays forward and throws away), rolling from `rng` if one is given, else what the
        game would roll. Rule sets on `BaseState` have it (`BaseState.clone`)."""
        raise NotImplementedError(f"{self.name} does not copy its state")

    #: whether `resample` draws worlds (a search player needs it)
    can_resample: ClassVar[bool] = False

    def resample(self, state: S, side: str, rng: random.Random) -> S:
        """A copy of the game with everything `side` has not observed drawn again from
        what it knows (never read from the game), with dice of its own: a world a search
        may play forward. Moving an enemy the side cannot see must change nothing drawn."""
        raise NotImplementedError(f"{self.name} does not draw worlds")

    def standing(self, state: S) -> Result | None:
        """The result were the game to end now (a search judges positions by it); None
        where the rule set cannot say."""
        return None

    def strength(self, state: S, side: str) -> float:
        """What is left of a side, on a scale shared by both sides (figures, models)."""
        return 0.0

    def counters(self, state: S, side: str) -> list[Counter]:
        """The counters a page draws for the side: one for each of its own units, then one
        for each enemy it has seen, built from `observe` alone (nothing its view does not
        hold). None by default: a page then draws plain counters from the view."""
        return []

    @abstractmethod
    def snapshot(self, state: S) -> dict[str, Any]:
        """The whole state as canonical JSON values, the generator included (for hashing)."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    def after_action(self, state: S) -> list[str]:
        """The after-action report, shown once the game is over: everything revealed
        (where every unit was, what it saw). Lines of text; none by default."""
        return []

    def seats(self, scenario: Scenario, side: str) -> list[Seat]:
        """The seats of a side, in the order they give orders; by default one seat."""
        return [Seat(side, side)]

    @abstractmethod
    def computer(self, side: str, seed: int, units: frozenset[str] | None = None,
                 notes: Notes | None = None) -> Player:
        """The computer player for a side, or for some of its units (a seat no person
        took). Limited to units, it answers `end` once those units have their orders:
        the caller then passes to the side's next seat. `notes` (see `Notes`) are the
        side's from earlier games of the scenario, for a rule set whose computer keeps
        any."""

    def random_player(self, side: str, seed: int) -> Player:
        """A player that picks uniformly among legal orders (the baseline)."""
        from fibua.players.random_player import RandomPlayer

        return RandomPlayer(seed)


_REGISTRY: dict[str, RuleSet[Any]] = {}

#: Rule sets that ship with fibua, imported on first use so the core never imports them.
BUILTIN: dict[str, str] = {
    "street-fight": "fibua.rulesets.street_fight",
    "street-fighter": "fibua.rulesets.street_fighter",
    "house-clearing": "fibua.rulesets.house_clearing",
    "buildings": "fibua.rulesets.buildings",
}


def register(ruleset: RuleSet[Any]) -> RuleSet[Any]:
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def find_ruleset(name: str) -> RuleSet[Any]:
    if name not in _REGISTRY and name in BUILTIN:
        importlib.import_module(BUILTIN[name])
    if name not in _REGISTRY:
        raise UnknownRuleset(name, ruleset_names())
    return _REGISTRY[name]


def ruleset_names() -> list[str]:
    return sorted(set(_REGISTRY) | set(BUILTIN))
