"""Optional morale: a unit of several figures tests once it has lost a third of them, and
again for each casualty after that; a failed unit falls back to cover, directly away from
what caused its last casualty, then shelters a turn."""

from __future__ import annotations

from math import ceil, hypot

from fibua.battlefield.model import Position
from fibua.core.dice import roll
from fibua.rulesets.street_fight.actions import UNCLIMBABLE
from fibua.rulesets.street_fight.contact import engaged
from fibua.rulesets.street_fight.cover import (
    half_cover_near,
    has_half_cover,
    may_have_half_cover,
)
from fibua.rulesets.street_fight.knowledge import refresh_sight
from fibua.rulesets.street_fight.state import Figure, StreetFightState, Unit, inches, spot
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
    state.emit("fell-back", {"figure": figure.id, "to": spot(here.x, here.y),
                             "inches": inches(moved), "sheltering": safe}, (figure.side,))
    refresh_sight(state, [figure])


def _flee(state: StreetFightState, source: Position, start: Position, ux: float,
          uy: float) -> tuple[Position, bool]:
    """Step away from the source until sheltered; cornered (a wall, the table's edge) it
    shelters where it is. Returns where it stops and whether it is safe there."""
    sight = state.sight
    steps = int(MOVE_MAX / FALL_BACK_STEP)
    path = sight.places_along(start, ux, uy, FALL_BACK_STEP, steps)
    n = len(path.floor)
    # the whole path is asked about at once: where a wall stops it, what the source sees
    stop = sight.first_stopped_leg(start, path, UNCLIMBABLE) if n else -1
    walked = n if stop < 0 else stop
    seen = sight.visible_row(source, path).tolist() if n else []
    end = path.xy[n - 1].tolist() if n else start.point
    # most paths cross open ground: the cover along them is found once, and a step with
    # none near needs no question to the sight engine
    cover = half_cover_near(sight, start.point, (end[0], end[1]))
    ids = sight.section_ids
    here = start
    for k, ((x, y), s, floor) in enumerate(zip(path.xy[:walked].tolist(),
                                               path.section[:walked].tolist(),
                                               path.floor[:walked].tolist(), strict=True)):
        here = Position(x, y, None if s < 0 else ids[s], floor)
        if not seen[k] or (may_have_half_cover(cover, here)
                           and has_half_cover(sight, source, here)):
            return here, True
    if walked < n:
        return here, True  # a wall or a high wall in the way
    return here, n < steps


def _sheltered(state: StreetFightState, source: Position, here: Position) -> bool:
    return not state.sight.visible(source, here) or has_half_cover(state.sight, source, here)
