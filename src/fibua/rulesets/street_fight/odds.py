"""Exact odds of a Street-Fight firing, before it is ordered."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import icepool
from pydantic import BaseModel, ConfigDict, Field

from fibua.core.errors import IllegalOrder
from fibua.core.ruleset import OddsQuery, OddsReport
from fibua.rulesets.street_fight.shooting import (
    OverwatchKind,
    Situation,
    hit_basis,
    hit_chance,
    kill_chance,
)
from fibua.rulesets.street_fight.tables import WEAPONS, WeaponName

COVER_QUARTERS = {"0": 0, "1/4": 1, "1/2": 2, "3/4": 3}


class ShootQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    weapon: WeaponName = Field(description="the firer's weapon")
    range: float = Field(ge=0, description="range in inches")
    cover: Literal["0", "1/4", "1/2", "3/4"] = Field("0", description="target's cover")
    target_moving: bool = Field(False, description="the target moved this turn")
    firer_moving: bool = Field(False, description="the firer moved this turn")
    aim: int = Field(0, ge=0, description="turns spent aiming (counts up to 3)")
    overwatch: bool = Field(False, description="overwatch fire at a nominated point")
    large_area: bool = Field(False, description="overwatch over a large area")
    spread: float = Field(0.0, ge=0, description="inches of frontage the fire is spread over")


def rounds_die(weapon: WeaponName) -> icepool.Die:
    """How many rounds one firing action puts out."""
    dice = WEAPONS[weapon].rounds
    if dice is None:
        return icepool.Die([1])
    if dice == "d10/2":
        return (icepool.d10 + 1) // 2
    return icepool.d10


def shoot_odds(q: ShootQuestion) -> OddsReport:
    weapon = WEAPONS[q.weapon]
    if q.firer_moving and not weapon.moves_and_fires:
        raise IllegalOrder(f"an {weapon.title} cannot move and fire", code="moved")
    if q.spread and weapon.rounds is None:
        raise IllegalOrder(f"a {weapon.title} fires single shots and cannot spread its fire",
                           code="not-automatic")
    kind = OverwatchKind.NONE
    if q.large_area:
        kind = OverwatchKind.AREA
    elif q.overwatch:
        kind = OverwatchKind.POINT
    s = Situation(q.weapon, q.range, COVER_QUARTERS[q.cover], q.target_moving, q.firer_moving,
                  q.aim, kind, q.spread)
    chance = hit_chance(s)
    per_round = Fraction(chance, 100) * Fraction(kill_chance(q.weapon)).limit_denominator(10)
    rounds = rounds_die(q.weapon)
    kill = 1 - rounds.map(lambda r: (1 - per_round) ** r).mean()
    expected_rounds = Fraction(rounds.mean())
    values = {
        "hit": chance / 100,
        "kill": float(kill),
        "kill_per_hit": kill_chance(q.weapon),
        "rounds": float(expected_rounds),
        "expected_hits": float(expected_rounds * Fraction(chance, 100)),
        "chance_percent": chance,
        "modifiers": {m.name: m.value for m in hit_basis(s)},
    }
    rows = [(m.name, f"{m.value:+d}%") for m in hit_basis(s)]
    rows += [
        ("chance to hit (each round)", f"{chance}%"),
        ("kill roll", f"d10 {weapon.kill}+ ({kill_chance(q.weapon):.0%})"),
        ("rounds", weapon.rounds or "1"),
        ("chance this firing removes the target", f"{float(kill):.2%}"),
    ]
    return OddsReport(values, rows)


ODDS_QUERIES = {
    "shoot": OddsQuery("shoot", "chance to hit and to kill with one firing action",
                       ShootQuestion, shoot_odds),
}
