"""Exact odds of a Street-Fight firing, before it is ordered.

The odds follow the game step by step (actions.carry_out_shoot): the rounds are rolled;
the rounds rolled decide which of the named targets the fire covers and over how many
inches it spreads (shooting.covered_targets); the rounds are shared out among the covered
targets in turn (shooting.round_shares); each round at a living target rolls to hit and,
on a hit, to kill; rounds meant for a target already down are lost. Given the rounds,
every target's fate depends on its own rounds only, so the chances are worked out for
each number of rounds the die can give and weighted by the die (icepool), in fractions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeVar

import icepool
from pydantic import BaseModel, ConfigDict, Field, model_validator

from fibua.core.errors import IllegalOrder
from fibua.core.ruleset import OddsQuery, OddsReport
from fibua.rulesets.street_fight.shooting import (
    OverwatchKind,
    Situation,
    covered_targets,
    hit_basis,
    hit_chance,
    increments,
    round_shares,
    spread_of,
)
from fibua.rulesets.street_fight.tables import WEAPONS, WeaponName

COVER_QUARTERS = {"0": 0, "1/4": 1, "1/2": 2, "3/4": 3}
Cover = Literal["0", "1/4", "1/2", "3/4"]
T = TypeVar("T")


class ShootQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    weapon: WeaponName = Field(description="the firer's weapon")
    range: float = Field(ge=0, description="range in inches (to every target, unless --ranges)")
    cover: Cover = Field("0", description="the targets' cover (unless --covers)")
    target_moving: bool = Field(False, description="the targets moved (unless --moving)")
    firer_moving: bool = Field(False, description="the firer moved this turn")
    aim: int = Field(0, ge=0, description="turns spent aiming (counts up to 3)")
    overwatch: bool = Field(False, description="overwatch fire at a nominated point")
    large_area: bool = Field(False, description="overwatch over a large area")
    targets: int = Field(1, ge=1, le=10, description=(
        "targets named in one order, to spread automatic fire over them"))
    frontage: float = Field(0.0, ge=0, description=(
        "inches between the first and the last target named, the others evenly spaced "
        "between them"))
    at: list[float] | None = Field(None, min_length=1, max_length=10, description=(
        "instead of --targets and --frontage: each target's place along the line they "
        "stand on, in inches, in the order named"))
    ranges: list[float] | None = Field(None, description="each target's range, in order")
    covers: list[Cover] | None = Field(None, description=(
        "each target's cover, in order: 0, 1/4, 1/2 or 3/4"))
    moving: list[bool] | None = Field(None, description=(
        "whether each target moved, in order: yes or no"))

    @model_validator(mode="after")
    def _consistent(self) -> ShootQuestion:
        if self.at is not None and (self.targets not in (1, len(self.at)) or self.frontage):
            raise ValueError("give the targets' places (at) or their number and frontage, "
                             "not both")
        if self.at is None and self.frontage and self.targets == 1:
            raise ValueError("a frontage needs two targets or more")
        if self.ranges is not None and any(not r >= 0 for r in self.ranges):
            raise ValueError("a range is 0 inches or more")
        count = len(self.places)
        for name in ("ranges", "covers", "moving"):
            given = getattr(self, name)
            if given is not None and len(given) != count:
                raise ValueError(f"{name} gives {len(given)} values for {count} targets")
        return self

    @property
    def places(self) -> list[float]:
        """Each target's place along the line of targets, in the order named."""
        if self.at is not None:
            return list(self.at)
        if self.targets == 1:
            return [0.0]
        return [self.frontage * k / (self.targets - 1) for k in range(self.targets)]

    @property
    def kind(self) -> OverwatchKind:
        if self.large_area:
            return OverwatchKind.AREA
        return OverwatchKind.POINT if self.overwatch else OverwatchKind.NONE

    def situation(self, target: int, spread: float) -> Situation:
        """The firing situation of a round at one target (numbered from 0)."""
        rng = self.range if self.ranges is None else self.ranges[target]
        cover = self.cover if self.covers is None else self.covers[target]
        moving = self.target_moving if self.moving is None else self.moving[target]
        return Situation(self.weapon, rng, COVER_QUARTERS[cover], moving, self.firer_moving,
                         self.aim, self.kind, spread)


def rounds_die(weapon: WeaponName) -> icepool.Die:
    """How many rounds one firing action puts out."""
    dice = WEAPONS[weapon].rounds
    if dice is None:
        return icepool.Die([1])
    if dice == "d10/2":
        return (icepool.d10 + 1) // 2
    return icepool.d10


def kill_per_hit(weapon: WeaponName) -> Fraction:
    """A hit kills on a d10 (1-10) of at least the weapon's number."""
    return Fraction(11 - WEAPONS[weapon].kill, 10)


@dataclass(frozen=True, slots=True)
class Burst:
    """What one number of rounds does: the targets it covers (their numbers in the order
    named), the spread, and each covered target's rounds and chance to hit a round."""

    rounds: int
    chance: Fraction  # of rolling this many rounds
    covered: tuple[int, ...]
    spread: float
    shares: tuple[int, ...]
    situations: tuple[Situation, ...]
    hit: tuple[int, ...]  # percent


@dataclass(frozen=True, slots=True)
class TargetOdds:
    removed: Fraction  # chance the firing removes it
    hits: Fraction  # expected hits on it
    rounds: Fraction  # expected rounds fired at it (none once it is down)


@dataclass(frozen=True, slots=True)
class FiringOdds:
    bursts: tuple[Burst, ...]
    targets: tuple[TargetOdds, ...]
    removed: tuple[Fraction, ...]  # chance that exactly k targets are removed, k = 0, 1, ...
    rounds: Fraction  # expected rounds rolled

    @property
    def any_removed(self) -> Fraction:
        return 1 - self.removed[0]

    @property
    def expected_removed(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.removed)), Fraction(0))


def firing_odds(
    weapon: WeaponName, targets: Sequence[T], width: Callable[[Sequence[T]], float],
    situation: Callable[[T, float], Situation],
) -> FiringOdds:
    """The exact odds of one firing at the named targets, in order: `width` is the frontage
    of a group of them, `situation` a round's firing situation at one target for a spread
    (the game passes its figures, the question numbers along a line)."""
    die = rounds_die(weapon)
    total = die.denominator()
    kill = kill_per_hit(weapon)
    count = len(targets)
    removed = [Fraction(0)] * count
    hits = [Fraction(0)] * count
    fired = [Fraction(0)] * count
    exactly = [Fraction(0)] * (count + 1)
    bursts = []
    for rounds, weight in die.items():
        chance = Fraction(weight, total)
        covered = covered_targets(list(range(count)), rounds,
                                  lambda group: width([targets[i] for i in group]))
        spread = spread_of([targets[i] for i in covered], width)
        shares = round_shares(rounds, len(covered))
        situations = tuple(situation(targets[i], spread) for i in covered)
        percents = tuple(hit_chance(s) for s in situations)
        bursts.append(Burst(rounds, chance, tuple(covered), spread, tuple(shares),
                            situations, percents))
        fates = [(Fraction(1), Fraction(0))] * count  # (survives, removed) per target
        for i, share, percent in zip(covered, shares, percents, strict=True):
            hit = Fraction(percent, 100)
            miss = 1 - hit * kill  # a round that leaves the target standing
            survives = miss**share
            # round k + 1 is fired only while the target still stands after k rounds
            alive_rounds = sum((miss**k for k in range(share)), Fraction(0))
            fates[i] = (survives, 1 - survives)
            removed[i] += chance * (1 - survives)
            fired[i] += chance * alive_rounds
            hits[i] += chance * hit * alive_rounds
        for k, p in enumerate(_how_many(fates)):
            exactly[k] += chance * p
    return FiringOdds(
        tuple(bursts),
        tuple(TargetOdds(r, h, f) for r, h, f in zip(removed, hits, fired, strict=True)),
        tuple(exactly), Fraction(die.mean()),
    )


def _how_many(fates: list[tuple[Fraction, Fraction]]) -> list[Fraction]:
    """The chance that exactly k of independent targets fall, from each one's chances of
    standing and of falling."""
    out = [Fraction(1)]
    for survives, falls in fates:
        out = [(out[k] if k < len(out) else 0) * survives
               + (out[k - 1] * falls if k > 0 else 0) for k in range(len(out) + 1)]
    return out


def _check_question(q: ShootQuestion) -> None:
    """The firings the game refuses, refused with the game's words and codes."""
    weapon = WEAPONS[q.weapon]
    if q.firer_moving and not weapon.moves_and_fires:
        raise IllegalOrder(f"an {weapon.title} cannot move and fire", code="moved")
    places = q.places
    if len(places) == 1:
        return
    if weapon.rounds is None:
        raise IllegalOrder(f"a {weapon.title} fires single shots: one target only",
                           code="not-automatic")
    if q.kind is not OverwatchKind.NONE:
        raise IllegalOrder("overwatch fire is at the one figure that sets it off",
                           code="overwatch")
    most = max(rounds_die(q.weapon).outcomes())
    width = _line_width(places)
    if increments(width(list(range(len(places)))), 1) > most:
        raise IllegalOrder(f"those targets span {width(list(range(len(places)))):.1f} in; "
                           f"a {weapon.title} spreads over {most} in at most", code="too-wide")


def _line_width(places: list[float]) -> Callable[[Sequence[int]], float]:
    """The frontage of a group of targets standing on a line: its two ends."""
    def width(group: Sequence[int]) -> float:
        spots = [places[i] for i in group]
        return max(spots) - min(spots)
    return width


def question_odds(q: ShootQuestion) -> FiringOdds:
    _check_question(q)
    places = q.places
    return firing_odds(q.weapon, list(range(len(places))), _line_width(places), q.situation)


def shoot_odds(q: ShootQuestion) -> OddsReport:
    found = question_odds(q)
    weapon = WEAPONS[q.weapon]
    kill = kill_per_hit(q.weapon)
    values: dict[str, object] = {
        "kill": float(found.any_removed),
        "kill_per_hit": float(kill),
        "rounds": float(found.rounds),
        "expected_hits": float(sum((t.hits for t in found.targets), Fraction(0))),
        "expected_rounds_fired": float(sum((t.rounds for t in found.targets), Fraction(0))),
        "expected_removed": float(found.expected_removed),
        "removed": {str(k): float(p) for k, p in enumerate(found.removed)},
        "targets": [{"removed": float(t.removed), "expected_hits": float(t.hits),
                     "expected_rounds": float(t.rounds)} for t in found.targets],
        "bursts": [_burst_values(b) for b in found.bursts],
    }
    rows: list[tuple[str, str]] = []
    if len(found.targets) == 1:
        # one target: every round has the same chance, whatever the rounds
        s, chance = found.bursts[0].situations[0], found.bursts[0].hit[0]
        values |= {"hit": chance / 100, "chance_percent": chance,
                   "modifiers": {m.name: m.value for m in hit_basis(s)}}
        rows += [(m.name, f"{m.value:+d}%") for m in hit_basis(s)]
        rows.append(("chance to hit (each round)", f"{chance}%"))
    else:
        rows += _burst_rows(found.bursts)
    rows += [
        ("kill roll", f"d10 {weapon.kill}+ ({float(kill):.0%})"),
        ("rounds", weapon.rounds or "1"),
    ]
    if len(found.targets) == 1:
        rows.append(("chance this firing removes the target", f"{float(found.any_removed):.2%}"))
    else:
        for n, t in enumerate(found.targets, 1):
            rows.append((f"target {n}: removed", f"{float(t.removed):.2%}"))
            rows.append((f"target {n}: expected hits", f"{float(t.hits):.2f}"))
        rows.append(("chance at least one target is removed", f"{float(found.any_removed):.2%}"))
        rows.append(("expected targets removed", f"{float(found.expected_removed):.2f}"))
    return OddsReport(values, rows)


def _burst_values(b: Burst) -> dict[str, object]:
    return {"rounds": b.rounds, "chance": float(b.chance),
            "targets": [i + 1 for i in b.covered], "spread": round(b.spread, 2),
            "rounds_each": list(b.shares), "chance_percent": list(b.hit)}


def _burst_rows(bursts: Sequence[Burst]) -> list[tuple[str, str]]:
    """One row per way the rounds rolled spread the fire: which targets it covers, over
    how many inches, and each one's chance to hit a round."""
    rows = []
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
    for b in bursts:
        groups.setdefault((b.covered, b.hit), []).append(b.rounds)
    for (covered, hit), rolled in groups.items():
        first = next(b for b in bursts if b.rounds == rolled[0])
        names = ", ".join(str(i + 1) for i in covered)
        reach = (f"targets {names} over {increments(first.spread, 1)}in" if len(covered) > 1
                 else f"target {names} alone")
        said = ", ".join(f"{h}%" for h in hit)
        rounds = f"{rolled[0]} round" if rolled == [1] else (
            f"{rolled[0]} rounds" if len(rolled) == 1 else f"{rolled[0]}-{rolled[-1]} rounds")
        rows.append((f"{rounds}: {reach}", f"{said} per round"))
    return rows


ODDS_QUERIES = {
    "shoot": OddsQuery("shoot", "chance to hit and to kill with one firing action, at one "
                                "target or spread over several", ShootQuestion, shoot_odds),
}
