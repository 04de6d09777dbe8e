"""Damage to vehicles, and tanks driving into buildings: pure procedures over plain values.

The damage chart and superficial damage are our own (options `shaken_up_to`,
`immobilised_up_to`, `superficial_immobilised_on`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fibua.core.dice import Modifier, Rng, Roll, roll
from fibua.core.errors import IllegalOrder
from fibua.rulesets.buildings.forces import Options
from fibua.rulesets.buildings.tables import (
    TANK_ASSAULT_BUILDING,
    TANK_ASSAULT_DIE,
    TANK_ASSAULT_TANKS,
    VEHICLE_DAMAGE,
    BuildingKind,
    VehicleKind,
    VehicleResult,
)


def chart_result(face: int, options: Options) -> VehicleResult:
    """A penetrating hit's D6 on the damage chart."""
    if face <= options.shaken_up_to:
        return VehicleResult.SHAKEN
    if face <= options.immobilised_up_to:
        return VehicleResult.IMMOBILISED
    return VehicleResult.KNOCKED_OUT


def superficial_result(face: int, options: Options) -> VehicleResult:
    """Superficial damage's D6 (its pin comes whatever the die)."""
    if face >= options.superficial_immobilised_on:
        return VehicleResult.IMMOBILISED
    return VehicleResult.NONE


def roll_chart(rng: Rng, options: Options) -> tuple[Roll, VehicleResult]:
    made = roll(rng, "d6", "vehicle damage")
    return made, chart_result(made.value, options)


def roll_superficial(rng: Rng, options: Options) -> tuple[Roll, VehicleResult]:
    made = roll(rng, "d6", "superficial damage")
    return made, superficial_result(made.value, options)


def stops_vehicle(result: VehicleResult) -> bool:
    """Passengers bail out of a vehicle immobilised or knocked out."""
    return result in (VehicleResult.IMMOBILISED, VehicleResult.KNOCKED_OUT)


def check_tank_assault(tank: VehicleKind, building: BuildingKind) -> str:
    """The building's dice; IllegalOrder if this tank may not drive into this building."""
    if tank not in TANK_ASSAULT_TANKS:
        raise IllegalOrder(f"only heavy and super-heavy tanks drive into buildings, "
                           f"not a {tank}", code="not-heavy")
    dice = TANK_ASSAULT_BUILDING.get(building)
    if dice is None:
        raise IllegalOrder(f"a tank cannot drive into a {building} building",
                           code="too-strong")
    return dice


class TankAssaultOutcome(StrEnum):
    BUILDING_HOLDS = "building-holds"  # the tank takes damage and stops in front of it
    BOTH = "both"  # equal: superficial damage, and the building collapses
    TANK_WINS = "tank-wins"  # the building collapses, the tank is unharmed


@dataclass(frozen=True, slots=True)
class TankAssault:
    tank_roll: Roll
    building_roll: Roll
    outcome: TankAssaultOutcome
    #: the tank's damage: the chart (penetrating) or superficial, if any
    damage: tuple[Roll, VehicleResult] | None
    penetrating: bool

    @property
    def collapsed(self) -> bool:
        return self.outcome is not TankAssaultOutcome.BUILDING_HOLDS


def tank_assault(rng: Rng, tank: VehicleKind, building: BuildingKind,
                 options: Options) -> TankAssault:
    """A heavy tank's D6 + its damage value against the building's 2D6 (wooden) or 3D6
    (brick). The building higher: a penetrating hit on the chart (only superficial from a
    wooden one); equal: superficial damage and the building collapses; the tank higher:
    the building collapses. A collapse halts the tank Down in the rubble, and a surviving
    tank takes a pin (both the caller's)."""
    dice = check_tank_assault(tank, building)
    ours = roll(rng, TANK_ASSAULT_DIE, "tank drives into the building",
                modifiers=(Modifier(f"{tank} damage value", VEHICLE_DAMAGE[tank]),))
    theirs = roll(rng, dice, f"{building} building resists")
    if theirs.total > ours.total:
        if building is BuildingKind.WOODEN:
            return TankAssault(ours, theirs, TankAssaultOutcome.BUILDING_HOLDS,
                               roll_superficial(rng, options), False)
        return TankAssault(ours, theirs, TankAssaultOutcome.BUILDING_HOLDS,
                           roll_chart(rng, options), True)
    if theirs.total == ours.total:
        return TankAssault(ours, theirs, TankAssaultOutcome.BOTH,
                           roll_superficial(rng, options), False)
    return TankAssault(ours, theirs, TankAssaultOutcome.TANK_WINS, None, False)
