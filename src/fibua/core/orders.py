"""Orders: what a player (or the computer) asks a unit to do."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Order:
    """`kind` names the action (a rule set's vocabulary); `unit` the figure or unit ordered;
    `params` holds JSON values only (numbers, strings, lists), so orders log and replay."""

    side: str
    kind: str
    unit: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "kind": self.kind}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.params:
            out["params"] = self.params
        return out

    @staticmethod
    def from_dict(raw: dict[str, Any]) -> Order:
        return Order(raw["side"], raw["kind"], raw.get("unit"), dict(raw.get("params", {})))

    def __str__(self) -> str:
        args = " ".join(f"{k}={json.dumps(v)}" for k, v in self.params.items())
        who = f" {self.unit}" if self.unit else ""
        return f"{self.side}: {self.kind}{who}{' ' + args if args else ''}"

    def __hash__(self) -> int:
        return hash((self.side, self.kind, self.unit, json.dumps(self.params, sort_keys=True)))
