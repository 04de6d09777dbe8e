"""Carrying out fire: rounds, each shot's to-hit and kill rolls, casualties."""

from __future__ import annotations

from dataclasses import dataclass

from fibua.core.dice import Modifier, roll
from fibua.rulesets.street_fight.cover import cover_quarters
from fibua.rulesets.street_fight.knowledge import record_casualty, refresh_sight
from fibua.rulesets.street_fight.shooting import (
    OverwatchKind,
    Situation,
    chance_of,
    hit_basis,
    hit_terms,
)
from fibua.rulesets.street_fight.state import Figure, StreetFightState, inches


def situation(
    state: StreetFightState,
    firer: Figure,
    target: Figure,
    overwatch: OverwatchKind = OverwatchKind.NONE,
    spread: float = 0.0,
) -> Situation:
    return Situation(
        weapon=firer.weapon,
        range=state.sight.range_between(firer.pos, target.pos),
        cover=cover_quarters(state.sight, firer.pos, target),
        target_moving=target.counts_as_moving,
        firer_moving=firer.counts_as_moving,
        aim=firer.aim,
        overwatch=overwatch,
        spread=spread,
    )


def roll_rounds(state: StreetFightState, firer: Figure) -> int:
    """Single-shot weapons fire once; automatic weapons roll for their rounds."""
    dice = firer.arms.rounds
    if dice is None:
        return 1
    rounds = roll(state.rng, dice, f"rounds fired by {firer.name}")
    state.emit("rounds", {"figure": firer.id, "roll": rounds.to_dict()},
               _firer_and_target_sides(state))
    return rounds.value


@dataclass(frozen=True, slots=True)
class ShotOdds:
    """What the roll to hit of a round depends on, worked out once for a firer and a target:
    nothing it reads changes between the rounds of one burst of fire."""

    situation: Situation
    chance: int
    basis: tuple[Modifier, ...]


def shot_odds(
    state: StreetFightState,
    firer: Figure,
    target: Figure,
    overwatch: OverwatchKind = OverwatchKind.NONE,
    spread: float = 0.0,
) -> ShotOdds:
    s = situation(state, firer, target, overwatch, spread)
    terms = hit_terms(s)
    return ShotOdds(s, chance_of(terms), hit_basis(s, terms))


def fire_round(state: StreetFightState, firer: Figure, target: Figure, odds: ShotOdds) -> bool:
    """One shot (one round) at a target: roll to hit, then to kill. True if it killed."""
    s = odds.situation
    hit = roll(state.rng, "d100", f"{firer.name} shoots at {target.name}",
               need=odds.chance, at_most=True, basis=odds.basis)
    data: dict[str, object] = {
        "firer": firer.id, "target": target.id, "range": inches(s.range),
        "roll": hit.to_dict(), "hit": bool(hit.success), "overwatch": str(s.overwatch),
    }
    killed = False
    if hit.success:
        kill = roll(state.rng, "d10", f"kill roll for {target.name}", need=firer.arms.kill)
        data["kill_roll"] = kill.to_dict()
        killed = bool(kill.success)
    data["killed"] = killed
    state.emit("shot", data, _firer_and_target_sides(state))
    if killed:
        remove_casualty(state, target, firer.pos.point)
    return killed


def remove_casualty(state: StreetFightState, figure: Figure, source: tuple[float, float]) -> None:
    figure.alive = False
    figure.overwatch = None
    unit = state.units[figure.unit]
    unit.last_casualty_from = source
    state.emit("casualty", {"figure": figure.id, "name": figure.name},
               _firer_and_target_sides(state))
    record_casualty(state, figure, state.sides)
    refresh_sight(state, [figure])


def _firer_and_target_sides(state: StreetFightState) -> tuple[str, ...]:
    # a shot is seen by both sides: sight lines are symmetric, so the target's side sees
    # the firer it is fired on by
    return state.sides
