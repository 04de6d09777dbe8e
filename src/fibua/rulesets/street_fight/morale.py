"""Optional morale: a unit of several figures tests once it has lost a third of them, and
again for each casualty after that; a failed unit falls back to cover, directly away from
what caused its last casualty, then shelters a turn."""

from __future__ import annotations

from math import ceil, hypot

from fibua.battlefield.model import Position
from fibua.core.dice import roll
from fibua.rulesets.street_fight.actions import leg_blocked, walls_near
from fibua.rulesets.street_fight.contact import engaged
from fibua.rulesets.street_fight.cover import (
    half_cover_near,
    has_half_cover,
    may_have_half_cover,
)
from fibua.rulesets.street_fight.knowledge import refresh_sight
from fibua.rulesets.street_fight.state import Figure, StreetFightState, Unit
from fibua.rulesets.street_fight.tables import MORALE_LOSS_FRACTION, MOVE_MAX

FALL_BACK_STEP = 0.25  # inches between the points tried when falling back
SHELTER_TURNS = 2  # counted down at the end of the turn it starts in: shelters one full turn


def tests_due(unit: Unit, alive: int) -> int:
    """How many morale tests this unit takes now."""
    losses = unit.start - alive
    threshold = ceil(unit.start * MORALE_LOSS_FRACTION - 1e-9)
    if unit.start < 2 or losses < threshold or losses <= unit.tested_losses:
        return 0
    return losses - max(unit.tested_losses, threshold - 1)


def morale_phase(state: StreetFightState) -> None:
    for unit in state.units.values():
        members = [state.figures[f] for f in unit.figures if state.figures[f].alive]
        due = tests_due(unit, len(members))
        if not due or not members:
            continue
        unit.tested_losses = unit.start - len(members)
        if not all(_passes(state, unit, len(members)) for _ in range(due)):
            for figure in members:
                if not engaged(state, figure):
                    figure.fleeing_from = unit.last_casualty_from or figure.pos.point
                    fall_back(state, figure)


def _passes(state: StreetFightState, unit: Unit, left: int) -> bool:
    # holds on a d10 lower than the figures left
    test = roll(state.rng, "d10", f"morale of {unit.name}", need=left - 1, at_most=True)
    state.emit("morale", {"unit": unit.id, "roll": test.to_dict(), "holds": test.success},
               (unit.side,))
    return bool(test.success)


def fall_back(state: StreetFightState, figure: Figure) -> None:
    """Run directly away from the danger, up to a full move, stopping at the first cover."""
    assert figure.fleeing_from is not None
    sx, sy = figure.fleeing_from
    # the source's building matters: from inside it, it sees out through its openings
    source = Position(sx, sy, state.sight.section_at((sx, sy)))
    dx, dy = figure.pos.x - sx, figure.pos.y - sy
    norm = hypot(dx, dy) or 1.0
    ux, uy = (dx / norm, dy / norm) if (dx, dy) != (0, 0) else (0.0, -1.0)
    here, safe = figure.pos, True
    if not _sheltered(state, source, here):
        here, safe = _flee(state, source, figure.pos, ux, uy)
    moved = figure.pos.distance(here)
    figure.pos = here
    figure.moved = max(figure.moved, moved)
    if safe:
        figure.fleeing_from = None
        figure.sheltering = SHELTER_TURNS
    state.emit("fell-back", {"figure": figure.id, "to": [here.x, here.y],
                             "inches": round(moved, 3), "sheltering": safe}, (figure.side,))
    refresh_sight(state, [figure])


def _flee(state: StreetFightState, source: Position, start: Position, ux: float,
          uy: float) -> tuple[Position, bool]:
    """Step away from the source until sheltered; cornered (a wall, the table's edge) it
    shelters where it is. Returns where it stops and whether it is safe there."""
    sight = state.sight
    steps = int(MOVE_MAX / FALL_BACK_STEP)
    path = _escape_path(state, start, ux, uy, steps)
    seen = _seen_from(state, source, path)
    # most paths cross open ground: the walls and cover along them are found once, and
    # a step with none near needs no question to the sight engine
    end = path[-1].point if path else start.point
    walls = walls_near(sight, start.point, end)
    cover = half_cover_near(sight, start.point, end)
    here = start
    for there, visible in zip(path, seen, strict=True):
        if walls and leg_blocked(sight, here, there):
            return here, True
        here = there
        if not visible or (may_have_half_cover(cover, here)
                           and has_half_cover(sight, source, here)):
            return here, True
    return here, len(path) < steps


def _escape_path(state: StreetFightState, start: Position, ux: float, uy: float,
                 steps: int) -> list[Position]:
    """The points a figure falling back passes, one FALL_BACK_STEP apart, up to the
    table's edge: all located at once, as most of them are walked."""
    table = state.battlefield.table
    points: list[tuple[float, float]] = []
    for i in range(1, steps + 1):
        distance = i * FALL_BACK_STEP
        x, y = start.x + ux * distance, start.y + uy * distance
        if not (0 <= x <= table.width and 0 <= y <= table.height):
            break
        points.append((x, y))
    sections = state.sight.sections_at(points)
    return [Position(x, y, section, start.floor if section == start.section else 0)
            for (x, y), section in zip(points, sections, strict=True)]


def _seen_from(state: StreetFightState, source: Position, path: list[Position]) -> list[bool]:
    """Whether the source sees each point of the path, in one call to the sight engine."""
    if not path:
        return []
    row = state.sight.visible_matrix([source], path)[0]
    return [bool(v) for v in row]


def _sheltered(state: StreetFightState, source: Position, here: Position) -> bool:
    return not state.sight.visible(source, here) or has_half_cover(state.sight, source, here)
