"""Events: everything that happens in a game, each with who may see it.

Audience is an allow-list: the sides named in `to` see the event; `EVERYONE` means all
sides; an empty tuple means Control (the umpire, the after-action report) only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

EVERYONE = ("*",)
CONTROL_ONLY: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: tuple[str, ...] = EVERYONE
    turn: int = 0

    def seen_by(self, side: str) -> bool:
        return self.to == EVERYONE or side in self.to

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "turn": self.turn, "to": list(self.to), "data": self.data}

    @staticmethod
    def from_dict(raw: dict[str, Any]) -> Event:
        return Event(raw["kind"], dict(raw["data"]), tuple(raw["to"]), int(raw["turn"]))


class SideLogs:
    """Each side's most recent events, only those addressed to it (Control-only events in
    none): one bounded log per side, so neither side's events crowd out the other's or
    reach the other's view. Views carry it as their `log`."""

    __slots__ = ("_length", "_logs")

    def __init__(self, length: int = 40) -> None:
        self._length = length
        self._logs: dict[str, deque[Event]] = {}

    def remember(self, sides: Iterable[str], events: list[Event]) -> None:
        for side in sides:
            log = self._logs.get(side)
            if log is None:
                log = self._logs[side] = deque(maxlen=self._length)
            log.extend([e for e in events if e.seen_by(side)])

    def of(self, side: str) -> list[Event]:
        return list(self._logs.get(side, ()))

    def forget(self, side: str) -> None:
        """The side's log emptied: a search's world drawn for the enemy, who must not
        carry what the side was really told."""
        self._logs.pop(side, None)

    def __deepcopy__(self, memo: dict[int, Any]) -> SideLogs:
        """Logs of their own holding the same events: an event is never changed once
        emitted (views hand out copies of its data), so a copy of a game shares them."""
        twin = SideLogs(self._length)
        twin._logs = {side: log.copy() for side, log in self._logs.items()}
        return twin


class Drains(Protocol):
    """A rule set's state as `drain` needs it: the events of the order in hand, the sides'
    logs and the sides."""

    pending: list[Event]
    logs: SideLogs

    @property
    def sides(self) -> tuple[str, ...]: ...


def drain(state: Drains) -> list[Event]:
    """The events of the order in hand, handed out and kept in the sides' logs."""
    events, state.pending = state.pending, []
    state.logs.remember(state.sides, events)
    return events
