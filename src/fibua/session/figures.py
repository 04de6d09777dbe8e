"""A figure or unit as a view lists it, in words: where it is, whether it is out of the fight.
Shared by the terminal's tables, the browser's reports and the narration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fibua.core.values import is_number

#: status words that mean a figure is out of the fight (the rule sets' views use these)
OUT_OF_ACTION = frozenset({"casualty", "dead", "destroyed", "surrendered", "out of action",
                           "killed"})


def has_position(info: Mapping[str, Any]) -> bool:
    return is_number(info.get("x")) and is_number(info.get("y"))


def out_of_action(info: Mapping[str, Any]) -> bool:
    """A dead, destroyed or surrendered figure (kept in the tables, left off the map)."""
    return info.get("alive") is False or str(info.get("status", "")) in OUT_OF_ACTION


def where(info: Mapping[str, Any]) -> str:
    if not has_position(info):
        return "-"
    text = f"{float(info['x']):.1f},{float(info['y']):.1f}"
    if info.get("section"):
        text += f" in {info['section']}"
    if info.get("floor"):
        text += f" floor {info['floor']}"
    return text
