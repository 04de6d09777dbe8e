"""Observation: which table row a target shows, and the score an observer needs for it.

Pure functions of the situation, shared by the game and by the odds.
"""

from __future__ import annotations

from fractions import Fraction

from fibua.rulesets.street_fighter.shooting import EDGE, success_chance
from fibua.rulesets.street_fighter.tables import (
    NOT_OBSERVING,
    OBSERVING,
    Sign,
)


def sign_of(vehicle: bool, sniper: bool, firing: bool, moving: bool, in_cover: bool) -> Sign:
    """The row of the observation tables a target falls in. Vehicles use the vehicle
    table in cover or not; firing shows before moving."""
    if vehicle:
        if firing:
            return Sign.VEHICLE_FIRING
        return Sign.VEHICLE_MOVING if moving else Sign.VEHICLE_STATIONARY
    if not firing:
        return Sign.INFANTRY_HIDDEN if in_cover else Sign.INFANTRY_OPEN
    if not in_cover:
        return Sign.INFANTRY_FIRING_OPEN
    return Sign.SNIPER_FIRING_COVER if sniper else Sign.INFANTRY_FIRING_COVER


def spot_need(sign: Sign, observing: bool, distance: float) -> int | None:
    """Score the formation's observation d10 must reach: 0 always, None never."""
    table = OBSERVING if observing else NOT_OBSERVING
    for limit, need in table[sign]:
        if distance <= limit + EDGE:
            return need
    raise AssertionError("every row ends with an unbounded band")


def spot_chance(sign: Sign, observing: bool, distance: float) -> Fraction:
    need = spot_need(sign, observing, distance)
    return Fraction(0) if need is None else success_chance(need, 0)
