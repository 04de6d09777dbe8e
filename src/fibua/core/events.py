"""Events: everything that happens in a game, each with who may see it.

Audience is an allow-list: the sides named in `to` see the event; `EVERYONE` means all
sides; an empty tuple means Control (the umpire, the after-action report) only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
