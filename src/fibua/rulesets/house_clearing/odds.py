"""Exact odds of one House-Clearing firing at one figure, before it is ordered."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from fibua.core.errors import IllegalOrder
from fibua.core.ruleset import OddsQuery, OddsReport
from fibua.rulesets.house_clearing.shooting import (
    NotAutomatic,
    OutOfRange,
    at_least_one_hit,
    band_for,
    chance_basis,
    duck_back_chance,
    expected_hits,
    fire_row,
    hit_chance,
    hits_distribution,
    split_chance,
)
from fibua.rulesets.house_clearing.tables import WEAPONS, WeaponName

VISIBLE = {"1/5": 1, "2/5": 2, "3/5": 3, "4/5": 4, "5/5": 5}
MEAN_D3 = 2  # initiative a confirmed hit costs on average


class ShootQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    weapon: WeaponName = Field(description="the firer's weapon")
    skill: int = Field(ge=0, le=990, description="the firer's weapon skill (30-240 rolled)")
    range: float = Field(ge=0, description="range in inches")
    visible: Literal["1/5", "2/5", "3/5", "4/5", "5/5"] = Field(
        description="how much of the target the firer sees")
    auto: bool = Field(False, description="automatic fire (the cone; half the chance)")
    crew: int = Field(2, ge=1, description="crew of a belt-fed LMG (under 2: fires as box)")


def shoot_odds(q: ShootQuestion) -> OddsReport:
    try:
        row = fire_row(q.weapon, q.auto, q.crew)
        band = band_for(row, q.range)
    except (OutOfRange, NotAutomatic) as error:
        raise IllegalOrder(str(error), code="out-of-range") from None
    fifths = VISIBLE[q.visible]
    chance = hit_chance(q.skill, row, q.range, q.auto)
    sure, extra = split_chance(chance)
    hit = at_least_one_hit(chance, fifths)
    expected = expected_hits(chance, fifths)
    spread = hits_distribution(chance, fifths)
    duck = duck_back_chance(chance, fifths)
    values = {
        "hit": float(hit),
        "expected_hits": float(expected),
        "expected_initiative_lost": float(expected * MEAN_D3),
        "duck_back": float(duck),
        "chance_percent": chance,
        "automatic_hits": sure,
        "extra_hit_percent": extra,
        "cover_die_need": fifths,
        "row": str(row),
        "band": band.name,
        "divisor": band.divisor,
        "hits_distribution": {str(k): float(v) for k, v in spread.items()},
        "terms": {m.name: m.value for m in chance_basis(q.skill, row, q.range, q.auto)},
    }
    rows = [(m.name, f"{m.value:+d}") for m in chance_basis(q.skill, row, q.range, q.auto)]
    rows += [
        ("weapon", f"{WEAPONS[q.weapon].title}, firing as {row}"),
        ("chance", f"{chance}%: {sure} automatic hit(s), D100 of {extra} or less for one more"
         if extra else f"{chance}%: {sure} automatic hit(s)"),
        ("cover die", f"D6 of {fifths} or less confirms each hit ({q.visible} visible)"),
        ("at least one confirmed hit", f"{float(hit):.2%}"),
        ("expected confirmed hits", f"{float(expected):.4f}"),
        ("expected initiative lost (D3 each)", f"{float(expected * MEAN_D3):.4f}"),
        ("duck back, if fired on while moving", f"{float(duck):.2%}"),
    ]
    return OddsReport(values, rows)


ODDS_QUERIES = {
    "shoot": OddsQuery("shoot", "chance of confirmed hits from one firing at one figure",
                       ShootQuestion, shoot_odds),
}
