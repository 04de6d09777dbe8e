"""Checks the rule sets share for where their figures and units stand.

A rule set's `check_scenario` may be handed a sketch of a broken file (see the loader):
what did not read is skipped here, so a problem is reported only where it can be told.
"""

from __future__ import annotations

from math import isfinite

from fibua.battlefield.sight import SightEngine
from fibua.scenario.schema import Scenario

XY = tuple[float, float]


def off_table(scenario: Scenario, at: XY) -> str | None:
    """Why a figure cannot stand at this point of the table (coordinates not finite, or
    off it, edges counting as on it), or None."""
    x, y = at
    if not (isfinite(x) and isfinite(y)):
        return f"({x:g}, {y:g}): coordinates must be finite numbers"
    if not scenario.table_known:
        return None
    table = scenario.battlefield.table
    if 0 <= x <= table.width and 0 <= y <= table.height:
        return None
    return f"({x:g}, {y:g}) is off the {table.width:g} x {table.height:g} table"


def floor_problem(scenario: Scenario, sight: SightEngine, at: XY, floor: int) -> str | None:
    """Why a figure on the table cannot stand on this floor where it is: above the ground
    outside every building, or above the top floor of its section (None if it can, or if
    a building that did not read may stand there)."""
    if scenario.unread_at(at):
        return None
    section = sight.section_at(at)
    if section is None:
        return "only a figure inside a building can stand on an upper floor" if floor else None
    levels = scenario.battlefield.section(section).levels
    return f"section {section!r} has floors 0..{levels - 1}" if floor >= levels else None
