"""What every side's view holds, whatever the rules, and the JSON keys every view promises
(`RuleSet.view`).

A rule set's `SideView` is a frozen dataclass deriving from `BaseView` (copies and immutable
values only: nothing reachable from it leads to the state), adding its own fields; its
`view_dict` calls `contract_dict` with the rows it makes of its own units and sightings and
adds its own keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from fibua.battlefield.sight import SightEngine
from fibua.core.events import Event


class Identified(Protocol):
    @property
    def id(self) -> str: ...


class Sighted(Protocol):
    """A side's memory of one enemy, as the common lookups read it."""

    @property
    def visible(self) -> bool: ...

    @property
    def alive(self) -> bool: ...


U = TypeVar("U", bound=Identified)
K = TypeVar("K", bound=Sighted)


@dataclass(frozen=True)
class BaseView(Generic[U, K]):
    """The fields every side's view has: the scenario, the side and its enemy, the turn of
    `turns`, who is to act, the side's own units (copies), its sightings of the enemy by
    id, the side's own fork of the sight engine (the map is public) and the result."""

    scenario: str
    side: str
    enemy: str
    turn: int
    turns: int
    to_act: str | None
    own: tuple[U, ...]
    enemies: tuple[tuple[str, K], ...]
    sight: SightEngine
    result: dict[str, Any] | None

    def unit(self, unit_id: str) -> U:
        """One of the side's own units by id (KeyError if it has none of that id)."""
        for u in self.own:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def visible_enemies(self) -> list[tuple[str, K]]:
        """The enemies the side sees now and has not seen fall."""
        return [(i, s) for i, s in self.enemies if s.visible and s.alive]


def contract_dict(ruleset: str, view: BaseView[Any, Any], *, phase: str,
                  own: list[dict[str, Any]], enemies: list[dict[str, Any]],
                  log: Iterable[Event], **extra: Any) -> dict[str, Any]:
    """The keys every view promises (see `RuleSet.view`), then the rule set's own (`extra`).
    `log` is the side's log (`SideLogs.of(side)`): its events are copied, so nothing in the
    dict is shared with the game."""
    return {
        "ruleset": ruleset,
        "scenario": view.scenario,
        "side": view.side,
        "turn": view.turn,
        "turns": view.turns,
        "phase": phase,
        "to_act": view.to_act,
        "own": own,
        "enemies": enemies,
        "log": [deepcopy(e.to_dict()) for e in log],
        "result": view.result,
        **extra,
    }


#: the keys every view promises (`RuleSet.view`); `contract_dict` fills them and `turns`
CONTRACT_KEYS = frozenset({"ruleset", "scenario", "side", "turn", "phase", "to_act", "own",
                           "enemies", "log", "result"})
