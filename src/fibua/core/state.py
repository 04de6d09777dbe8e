"""What every rule set's state holds, whatever its rules: the scenario and its map, the rules'
own fork of the sight engine, the game's generator, the rule options, the two sides, the
turn, the result, the events of the order in hand and each side's log.

A rule set's state is a slotted dataclass deriving from `BaseState`; its own fields follow
(the common ones with defaults are keyword-only, so its required ones may come after), and
it says whose order is awaited with `acting_side`. Nothing here is part of a snapshot: each
rule set's `snapshot` names what it hashes.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from fibua.battlefield.sight import SightEngine
from fibua.core.dice import Rng
from fibua.core.events import Event, SideLogs
from fibua.core.ruleset import Result

if TYPE_CHECKING:
    from fibua.battlefield.model import Battlefield
    from fibua.scenario.schema import Scenario

#: the rule set's options model
O = TypeVar("O")  # noqa: E741


def sight_engine(scenario: Scenario) -> SightEngine:
    """The scenario's sight engine, built once and shared by its games: it is only ever
    forked (`SightEngine.fork`), an umpire's fork for the rules of each game and one for
    each side's players, and answers no question itself."""
    memo = scenario.memo
    if "sight" not in memo:
        memo["sight"] = SightEngine(scenario.battlefield)
    engine: SightEngine = memo["sight"]
    return engine


@dataclass(slots=True)
class BaseState(Generic[O]):
    """The common part of a rule set's state (module docstring)."""

    scenario: Scenario
    battlefield: Battlefield
    sight: SightEngine  # the rules' own fork of the scenario's engine
    rng: Rng
    options: O
    sides: tuple[str, str]
    _: KW_ONLY
    turn: int = 0
    result: Result | None = None
    pending: list[Event] = field(default_factory=list)  # events of the order in hand
    #: each side's most recent events, only ones addressed to it (a view's `log`)
    logs: SideLogs = field(default_factory=SideLogs)
    #: each side's copies of records its views hand out, kept while the records are
    #: unchanged (core.views.RecordCopies); no part of the game, only of its views
    view_copies: dict[tuple[str, str], Any] = field(default_factory=dict)
    #: bumped by every order carried out (`DispatchedRuleSet.apply`), so the check of an
    #: order can be kept until then
    version: int = 0
    #: the last order checked successfully, at which version, and what carries it out: a
    #: computer player asks whether an order is allowed and then gives that very order
    last_check: tuple[int, Any, Callable[[], None]] | None = None
    #: fields a copy of the state shares with it (`clone`): caches of what the map alone
    #: decides, which every copy may read and fill alike
    shared_on_clone: ClassVar[tuple[str, ...]] = ()

    def clone(self, rng: Rng | None = None) -> Self:
        """A copy of the game as it stands that shares nothing that changes with this one:
        what a search plays forward and throws away. The scenario and its map are shared
        (they never change), each sight engine is forked with its section states
        (`SightEngine.__deepcopy__`), the views' copies and the last check (whose carrying
        out is bound to this state) are left behind. The copy rolls what this game would
        roll, unless given a generator of its own (`rng`): a player searching ahead must
        not know the game's dice to come."""
        memo: dict[int, Any] = {id(self.scenario): self.scenario,
                                id(self.battlefield): self.battlefield,
                                id(self.view_copies): {}}
        for name in self.shared_on_clone:
            value = getattr(self, name)
            memo[id(value)] = value
        if self.last_check is not None:
            memo[id(self.last_check)] = None
        if rng is not None:
            memo[id(self.rng)] = rng
        return deepcopy(self, memo)

    def emit(self, kind: str, data: dict[str, Any], to: tuple[str, ...]) -> None:
        """An event of the order in hand, for the sides in `to` (see core/events.py)."""
        self.pending.append(Event(kind, data, to, self.turn))

    def enemy_of(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    @property
    def acting_side(self) -> str | None:
        """The side whose order is awaited; None once the game is over."""
        raise NotImplementedError
