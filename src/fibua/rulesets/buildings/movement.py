"""Movement numbers and the geometry the rules name: how far a unit may move, whether its
models keep together, which armour faces a firer, and when fire plunges."""

from __future__ import annotations

import math
from collections.abc import Sequence

from fibua.rulesets.buildings.tables import (
    FIRERS_PER_OPENING,
    FIRERS_PER_ROOF_SIDE,
    MOVEMENT,
    PLUNGING_RANGE,
    Facing,
    Mobility,
    OrderKind,
    WeaponName,
    is_small_arm,
)

Point = tuple[float, float]


def allowance(mobility: Mobility, order: OrderKind, rubble: bool = False) -> float | None:
    """Inches a unit may move on an order; None: it may not move so (or not into rubble).
    Rubble holds infantry and tracked vehicles to the Advance rate; wheeled vehicles and
    guns cannot enter it."""
    rate = MOVEMENT[mobility]
    if rubble and mobility in (Mobility.WHEELED, Mobility.MANHANDLED):
        return None
    if order is OrderKind.ADVANCE:
        return rate.advance
    if order is OrderKind.RUN:
        if rate.run is None:
            return None
        return rate.advance if rubble else rate.run
    return 0.0


def coherent(points: Sequence[Point], within: float) -> bool:
    """Every model within `within` inches of another model of its unit (one model always is)."""
    if len(points) < 2:
        return True
    limit = within + 1e-9
    return all(any(math.dist(p, q) <= limit for j, q in enumerate(points) if j != i)
               for i, p in enumerate(points))


def facing_of(centre: Point, heading: float, firer: Point, length: float = 1.0,
              width: float = 1.0) -> Facing:
    """The armour a firer strikes: the quarter between the vehicle's diagonals that holds
    it (`heading` in degrees, 0 = +x, counter-clockwise; the hull `length` by `width`). A
    firer exactly on a diagonal strikes the thicker armour of the two."""
    bearing = math.degrees(math.atan2(firer[1] - centre[1], firer[0] - centre[0]))
    off = abs((bearing - heading + 180.0) % 360.0 - 180.0)  # 0..180 from straight ahead
    diagonal = math.degrees(math.atan2(width, length))
    if off <= diagonal + 1e-9:
        return Facing.FRONT
    if off <= 180.0 - diagonal + 1e-9:
        return Facing.SIDE
    return Facing.REAR


def plunging(weapon: WeaponName, firer_floor: int, distance: float, armoured: bool) -> bool:
    """A heavy weapon firing from floor 1 or higher (a roof too) at armour within 12 in."""
    return (armoured and firer_floor >= 1 and not is_small_arm(weapon)
            and round(distance, 9) <= PLUNGING_RANGE)


def most_firers(openings: int, roof: bool = False) -> int:
    """How many models may fire from one side of a section: two an opening, five from a
    flat roof's side."""
    return FIRERS_PER_ROOF_SIDE if roof else FIRERS_PER_OPENING * openings
