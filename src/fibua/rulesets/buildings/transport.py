"""Transports: a vehicle carries one infantry unit. Passengers are off the table (neither
seen nor shot at) and move with it; they mount with a Run ending within 1 in of it and
dismount with an Advance or Run measured from it; when it is immobilised or knocked out they
bail out, placed within 3 in of it, each unit with a pin and Down."""

from __future__ import annotations

from math import cos, pi, sin

from fibua.rulesets.buildings.knowledge import watchers
from fibua.rulesets.buildings.losses import add_pins, destroy
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import OrderKind, VehicleResult

SPACING = 0.9  # inches between models placed around a transport


def carry(transport: Unit, passenger: Unit) -> None:
    transport.carrying = passenger.id
    passenger.aboard = transport.id
    follow(passenger, transport)


def follow(passenger: Unit, transport: Unit) -> None:
    """Passengers stand where their transport is (they are off the table)."""
    for m in passenger.models:
        m.x, m.y = transport.lead.x, transport.lead.y


def passenger_of(state: BuildingsState, transport: Unit) -> Unit | None:
    if transport.carrying is None:
        return None
    found = state.units.get(transport.carrying)
    return found if found is not None and found.alive else None


def around(state: BuildingsState, x: float, y: float, n: int,
           radius: float) -> list[tuple[float, float]] | None:
    """n places in a ring within `radius` of (x, y), on the table and outside standing
    buildings, each within coherency of the last; None if there is no room."""
    from fibua.battlefield.model import SectionState

    table = state.battlefield.table
    out: list[tuple[float, float]] = []
    steps = 16
    for ring in (min(radius, 1.5), radius):
        for k in range(steps):
            a = 2 * pi * k / steps
            p = (x + ring * cos(a), y + ring * sin(a))
            sid = state.sight.section_at(p)
            standing = sid is not None and state.sight.section_state(sid) is not \
                SectionState.RUBBLE
            if 0 <= p[0] <= table.width and 0 <= p[1] <= table.height and not standing:
                out.append(p)
            if len(out) == n:
                return out
    return None


def bail_out(state: BuildingsState, transport: Unit) -> None:
    """The passengers of a stopped transport get out: within `bail_out` in of it, a pin and
    Down (a unit with no place to stand is destroyed)."""
    passenger = passenger_of(state, transport)
    transport.carrying = None
    if passenger is None:
        return
    passenger.aboard = None
    places = around(state, transport.lead.x, transport.lead.y, len(passenger.models),
                    state.options.bail_out)
    if places is None:
        destroy(state, passenger, f"could not bail out of {transport.name}")
        return
    for m, (x, y) in zip(passenger.models, places, strict=False):
        m.x, m.y = x, y
    state.emit("bail-out", {"unit": passenger.id, "from": transport.id}, watchers(state, passenger))
    passenger.order = OrderKind.DOWN
    add_pins(state, passenger, 1, f"bailed out of {transport.name}")


def vehicle_result(state: BuildingsState, vehicle: Unit, result: VehicleResult,
                   superficial: bool) -> None:
    """A result on the vehicle chart (superficial damage: a pin first)."""
    if superficial:
        add_pins(state, vehicle, 1, "superficial damage")
    if result is VehicleResult.KNOCKED_OUT:
        destroy(state, vehicle, "knocked out")
        bail_out(state, vehicle)
    elif result is VehicleResult.IMMOBILISED:
        vehicle.immobilised = True
        bail_out(state, vehicle)
    elif result is VehicleResult.SHAKEN:
        vehicle.shaken = True
        add_pins(state, vehicle, 1, "crew shaken")
