"""Exact odds before an order is given: a firing, a spotting check, a close assault."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from fibua.core.errors import IllegalOrder
from fibua.core.ruleset import OddsQuery, OddsReport
from fibua.rulesets.street_fighter.shooting import (
    FIRERS,
    Shot,
    band,
    base_need,
    hit_chance,
    modifiers,
    success_chance,
)
from fibua.rulesets.street_fighter.spotting import spot_chance, spot_need
from fibua.rulesets.street_fighter.tables import (
    ASSAULT_NEED,
    ASSAULT_POINTS_STEP,
    BAND_NAMES,
    INDIRECT_NEED,
    LANDING_LOST,
    LANDING_ON_TARGET,
    Cover,
    Row,
    Sign,
)

if TYPE_CHECKING:
    from fibua.battlefield.model import Position

Firer = Literal["tank", "infantry", "mmg", "direct-mortar", "sniper", "at-gun", "rocket"]


class ShootQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    firer: Firer = Field(description="who fires (anti-tank guns use the Tank row)")
    range: float = Field(ge=0, description="range in cm")
    firer_moved: bool = Field(False, description="the firer moved half and shoots (-4)")
    firer_pinned: bool = Field(False, description="the firer is pinned (-2)")
    target_flat_out: bool = Field(False, description="the target moved flat out (-1)")
    target: Cover = Field(Cover.OPEN, description="where the target is")


#: Where a vehicle can be, as a target: a tank in the open, a halftrack or carrier, a
#: lorry. Vehicles never stand in a building area.
VEHICLE_TARGETS = (Cover.OPEN, Cover.ARMOURED_HALFTRACK, Cover.LORRY)


def check_target(row: Row, target: Cover) -> None:
    """IllegalOrder, with the reason, for a rocket at anything but a vehicle."""
    if row is Row.ROCKET and target not in VEHICLE_TARGETS:
        raise IllegalOrder(
            f"an anti-tank rocket is fired at vehicles only, and no vehicle stands in a "
            f"building area (target {target}; for a vehicle give open for a tank, "
            f"armoured-halftrack for a halftrack or carrier, lorry for a lorry)",
            code="no-effect")


def shoot_odds(q: ShootQuestion) -> OddsReport:
    s = Shot(FIRERS[q.firer], q.range, q.target, q.firer_moved, q.firer_pinned,
             q.target_flat_out)
    check_target(s.row, s.cover)
    need = base_need(s.row, s.range)  # a firing the rules forbid raises, with the reason
    mods = [m for m in modifiers(s) if m.value]
    chance = hit_chance(s)
    values = {
        "hit": float(chance),
        "hit_fraction": str(chance),
        "need": need,
        "band": BAND_NAMES[band(q.range)],
        "modifiers": {m.name: m.value for m in mods},
        "total_modifier": sum(m.value for m in mods),
    }
    rows = [("row", f"{q.firer} ({s.row} row)"), ("range band", str(values["band"])),
            ("score needed", f"{need}+ on a d10 read 0-9")]
    rows += [(m.name, f"{m.value:+d}") for m in mods]
    rows.append(("chance of a hit", f"{float(chance):.0%}"))
    return OddsReport(values, rows)


class SpotQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    target: Sign = Field(description="what the target is doing, and where")
    range: float = Field(ge=0, description="range in cm")
    observing: bool = Field(False, description="the observer was ordered to observe")


def spot_odds(q: SpotQuestion) -> OddsReport:
    need = spot_need(q.target, q.observing, q.range)
    chance = spot_chance(q.target, q.observing, q.range)
    words = "never" if need is None else "always" if need == 0 else f"{need}+"
    values = {"visible": float(chance), "visible_fraction": str(chance), "need": need,
              "always": need == 0, "never": need is None}
    table = "observing" if q.observing else "not specifically observing"
    rows = [("table", table), ("target", str(q.target)), ("seen", words),
            ("chance", f"{float(chance):.0%} (one d10 for the formation this turn)")]
    return OddsReport(values, rows)


class AssaultQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    points: int = Field(ge=0, description="close-assault points on your side")
    enemy_points: int | None = Field(None, ge=0, description="points on the other side")


def assault_hit(points: int) -> Fraction:
    return success_chance(ASSAULT_NEED, points // ASSAULT_POINTS_STEP)


def assault_odds(q: AssaultQuestion) -> OddsReport:
    mine = assault_hit(q.points)
    values: dict[str, object] = {"hit": float(mine), "hit_fraction": str(mine),
                                 "bonus": q.points // ASSAULT_POINTS_STEP}
    rows = [("bonus", f"+{q.points // ASSAULT_POINTS_STEP} (1 per full 10 points)"),
            ("score needed", f"{ASSAULT_NEED}+"), ("chance to inflict a hit", f"{float(mine):.0%}")]
    if q.enemy_points is not None:
        theirs = assault_hit(q.enemy_points)
        values["hit_taken"] = float(theirs)
        rows.append(("chance the enemy inflicts a hit", f"{float(theirs):.0%}"))
    return OddsReport(values, rows)


D10_FACES = range(10)  # a d10 read 0-9
D8_WAYS = range(1, 9)


def landing_odds(x: float, y: float) -> list[tuple[Fraction, tuple[float, float]]]:
    """Where indirect fire called on (x, y) comes down, each place with its chance: the
    landing d10 loses it below LANDING_LOST, drifts it DRIFT cm in a d8 direction below
    LANDING_ON_TARGET, else it falls on the mark (the chance it is lost is the rest)."""
    from fibua.rulesets.street_fighter.turn import drifted

    on = Fraction(sum(1 for f in D10_FACES if f >= LANDING_ON_TARGET), len(D10_FACES))
    off = Fraction(sum(1 for f in D10_FACES if LANDING_LOST <= f < LANDING_ON_TARGET),
                   len(D10_FACES))
    return [(on, (x, y)), *((off / len(D8_WAYS), drifted(x, y, way)) for way in D8_WAYS)]


def bombard_chance(x: float, y: float, at: Position) -> Fraction:
    """Chance that a unit standing at `at` (not a tank, not riding inside a vehicle) is hit
    by indirect fire called on (x, y): it comes down within reach, then 5+ on a d10."""
    from fibua.rulesets.street_fighter.turn import in_blast

    near = sum((p for p, (lx, ly) in landing_odds(x, y) if in_blast(at, lx, ly)), Fraction(0))
    return near * success_chance(INDIRECT_NEED, 0)


ODDS_QUERIES = {
    "shoot": OddsQuery("shoot", "chance that one firing action scores a hit", ShootQuestion,
                       shoot_odds),
    "spot": OddsQuery("spot", "chance that a formation's observers pick out a target",
                      SpotQuestion, spot_odds),
    "assault": OddsQuery("assault", "chance to inflict a hit in a close-assault round",
                         AssaultQuestion, assault_odds),
}
