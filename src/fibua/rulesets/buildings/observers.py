"""Forward observers' tables, all our own (options `strike_*` and `barrage_*`): the air
strike's arrival roll and each unit's barrage roll."""

from __future__ import annotations

from fibua.core.dice import Rng, Roll, roll
from fibua.rulesets.buildings.forces import Options
from fibua.rulesets.buildings.tables import BARRAGE_PINS, BarrageResult, StrikeResult


def strike_result(face: int, options: Options) -> StrikeResult:
    if face <= options.strike_friendly_up_to:
        return StrikeResult.FRIENDLY
    if face <= options.strike_no_show_up_to:
        return StrikeResult.NO_SHOW
    return StrikeResult.STRIKE


def roll_strike(rng: Rng, options: Options) -> tuple[Roll, StrikeResult]:
    """The D6 at the start of the turn after the call."""
    made = roll(rng, "d6", "air strike arrives")
    return made, strike_result(made.value, options)


def barrage_result(face: int, options: Options) -> BarrageResult:
    if face <= options.barrage_nothing_up_to:
        return BarrageResult.NOTHING
    if face <= options.barrage_pins_up_to:
        return BarrageResult.PINS
    return BarrageResult.HEAVY_HIT


def roll_barrage(rng: Rng, options: Options) -> tuple[Roll, BarrageResult, Roll | None]:
    """One unit's barrage die, and its pins (D3) when the result is pins. A heavy hit is a
    4in HE hit the caller resolves (in a building: 3D6 hits, no falling through floors)."""
    made = roll(rng, "d6", "barrage")
    result = barrage_result(made.value, options)
    pins = roll(rng, BARRAGE_PINS, "barrage pins") if result is BarrageResult.PINS else None
    return made, result, pins
