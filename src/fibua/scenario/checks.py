"""Checks every scenario gets, whatever its rule set: two sides, ids used once, figures and
units on the table and on a floor their place has.

A rule set's `check_scenario` may be handed a sketch of a broken file (see the loader):
what did not read is skipped here, so a problem is reported only where it can be told.
"""

from __future__ import annotations

from math import isfinite

from fibua.battlefield.sight import SightEngine
from fibua.core.errors import Problem
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


def two_sides(scenario: Scenario, title: str) -> list[Problem]:
    """A rule set for two sides refuses a scenario with any other number."""
    if len(scenario.sides) != 2:
        return [Problem("", "sides", f"{title} is played by exactly two sides")]
    return []


def unique_id(ident: str, path: str, seen: set[str]) -> list[Problem]:
    """A second use of an id (units and figures of both sides share one set of ids, so an
    order's `unit` names one thing); `seen` gathers the ids met so far."""
    if ident in seen:
        return [Problem("", path, f"id {ident!r} is used twice")]
    seen.add(ident)
    return []


def place_problems(scenario: Scenario, sight: SightEngine, at: XY, floor: int,
                   path: str) -> list[Problem]:
    """Why a figure or unit cannot stand `at` on `floor`: off the table (at `path.at`), or
    on a floor its place does not have (at `path.floor`)."""
    off = off_table(scenario, at)
    if off is not None:
        return [Problem("", f"{path}.at", off)]
    wrong = floor_problem(scenario, sight, at, floor)
    return [Problem("", f"{path}.floor", wrong)] if wrong else []
