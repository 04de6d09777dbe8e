"""Carrying out fire: the percentage dice, the cover die for each hit, the initiative each
confirmed hit costs; automatic fire's cone; applying the losses."""

from __future__ import annotations

from dataclasses import dataclass
from math import hypot
from typing import Any

from fibua.battlefield.model import Position
from fibua.core.dice import Modifier, Roll, roll
from fibua.rulesets.house_clearing.knowledge import (
    EVENT_DIGITS,
    note_step,
    record_casualty,
    refresh_sight,
    reveal_firer,
    watchers_of,
)
from fibua.rulesets.house_clearing.shooting import (
    band_for,
    chance_basis,
    fire_row,
    hit_chance,
    reach,
    split_chance,
)
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState
from fibua.rulesets.house_clearing.tables import (
    CONE_WIDTH_SHARE,
    COVER_DIE,
    CREW_REACH,
    EFFECT_DIE,
    HITS_PER_HUNDRED,
    Row,
    Stance,
)


@dataclass(frozen=True, slots=True)
class Victim:
    """A figure fired at, where it is when fired on and how much of it shows."""

    figure: Figure
    at: Position
    fifths: int


@dataclass(frozen=True, slots=True)
class Outcome:
    victim: str
    dice_hits: int  # hits on the percentage dice
    confirmed: int  # hits that passed the cover die
    loss: int  # initiative points lost


def fire(state: HouseClearingState, firer: Figure, victims: list[Victim], row: Row,
         auto: bool, reaction: bool = False) -> list[Outcome]:
    """Fire at each victim in turn; the losses are returned, not applied."""
    note_step(state, firer)
    return [_fire_at(state, firer, v, row, auto, reaction) for v in victims]


def _fire_at(state: HouseClearingState, firer: Figure, victim: Victim, row: Row, auto: bool,
             reaction: bool) -> Outcome:
    target = victim.figure
    reveal_firer(state, firer, target)
    distance = firer.pos.distance(victim.at)
    chance = hit_chance(firer.skill, row, distance, auto)
    sure, extra = split_chance(chance)
    rolled = _percentage_roll(state, firer, target, chance, row, distance, auto)
    dice_hits = sure + (1 if rolled is not None and rolled.success else 0)
    covers = [roll(state.rng, COVER_DIE, f"cover die: {target.name} shows {victim.fifths}/5",
                   need=victim.fifths, at_most=True) for _ in range(dice_hits)]
    confirmed = sum(1 for c in covers if c.success)
    effects = [roll(state.rng, EFFECT_DIE, f"initiative lost by {target.name}")
               for _ in range(confirmed)]
    loss = sum(e.value for e in effects)
    shot = {
        "firer": firer.id, "target": target.id, "range": round(distance, EVENT_DIGITS),
        "band": band_for(row, distance).name, "row": str(row), "auto": auto,
        "reaction": reaction, "fifths": victim.fifths, "chance": chance,
        "automatic_hits": sure, "extra_chance": extra,
        "roll": rolled.to_dict() if rolled is not None else None,
        "cover": [c.to_dict() for c in covers], "effect": [e.to_dict() for e in effects],
        "hits": dice_hits, "confirmed": confirmed, "loss": loss,
    }
    state.emit("shot", shot, (firer.side,))
    if target.side != firer.side:
        state.emit("fired-on", _as_the_target_saw_it(shot, rolled), (target.side,))
    return Outcome(target.id, dice_hits, confirmed, loss)


def _as_the_target_saw_it(shot: dict[str, Any], rolled: Roll | None) -> dict[str, Any]:
    """A shot as the target's side sees it: where from and every die, but not the chance
    nor the number the percentage die had to make (they give the firer's weapon skill
    away), nor the range band (it tells whether a belt-fed gun had its loader)."""
    seen = {k: v for k, v in shot.items()
            if k not in ("chance", "automatic_hits", "extra_chance", "band", "row", "roll")}
    seen["roll"] = None if rolled is None else {
        "purpose": rolled.purpose, "dice": rolled.dice, "faces": list(rolled.faces),
        "value": rolled.value, "success": rolled.success}
    return seen


def _percentage_roll(state: HouseClearingState, firer: Figure, target: Figure, chance: int,
                     row: Row, distance: float, auto: bool) -> Roll | None:
    """The D100 for the chance of one more hit; none when nothing is left over."""
    sure, extra = split_chance(chance)
    if extra == 0:
        return None
    basis = chance_basis(firer.skill, row, distance, auto)
    if sure:
        basis += (Modifier(f"complete hundreds: {sure} automatic hit(s)",
                           -sure * HITS_PER_HUNDRED),)
    return roll(state.rng, "d100", f"{firer.name} fires at {target.name}", need=extra,
                at_most=True, basis=basis)


def firing_row(firer: Figure, auto: bool, loader: Figure | None) -> Row:
    return fire_row(firer.weapon, auto, 2 if loader is not None else 1)


def loaders(state: HouseClearingState, gunner: Figure) -> list[Figure]:
    """Friends who could feed the gunner's belt this turn, nearest first: in action, within
    CREW_REACH on its floor, and not yet fired."""
    if gunner.arms.crew < 2:
        return []
    found = [f for f in state.side_figures(gunner.side)
             if f is not gunner and not f.fired and f.pos.floor == gunner.pos.floor
             and f.pos.distance(gunner.pos) <= CREW_REACH + 1e-9]
    return sorted(found, key=lambda f: (f.pos.distance(gunner.pos), f.id))


# ---------------------------------------------------------------- automatic fire's cone


def in_cone(apex: Position, aim: Position, spot: Position) -> bool:
    """Inside the cone from the firer to the target, whose far end (at the target) is a
    quarter of the range wide."""
    ax, ay = aim.x - apex.x, aim.y - apex.y
    reach = hypot(ax, ay)
    if reach == 0:
        return False
    px, py = spot.x - apex.x, spot.y - apex.y
    along = (px * ax + py * ay) / reach
    across = abs(px * ay - py * ax) / reach
    half_width = along / (2 * CONE_WIDTH_SHARE)
    return 0 < along <= reach + 1e-9 and across <= half_width + 1e-9


def cone_victims(state: HouseClearingState, firer: Figure, target: Figure,
                 row: Row) -> list[Victim]:
    """The target first, then every other figure in the cone that the firer can see,
    nearest first (friends too, under the friendly-fire option). The cone's edge at the
    target's range can reach a little further than the target: a figure there beyond the
    weapon's Sixteenth band is out of range and not fired at."""
    victims = [Victim(target, target.pos, state.fifths(firer.id, target.id))]
    longest = reach(row)
    others = sorted(
        (f for f in state.figures.values()
         if f.in_action and f is not firer and f is not target
         and (f.side != firer.side or state.options.friendly_fire)
         and in_cone(firer.pos, target.pos, f.pos)
         and in_reach(firer.pos.distance(f.pos), longest)),
        key=lambda f: (firer.pos.distance(f.pos), f.id))
    for other in others:
        fifths = _fifths_of(state, firer, other)
        if fifths:
            victims.append(Victim(other, other.pos, fifths))
    return victims


def in_reach(distance: float, longest: float) -> bool:
    """Within the weapon's longest range (the bands' own rounding: see band_for)."""
    return round(distance, 9) <= longest


def _fifths_of(state: HouseClearingState, firer: Figure, other: Figure) -> int:
    if other.side != firer.side:
        return state.fifths(firer.id, other.id)
    return state.geometry.mutual(firer.pos, firer.stance, other.pos, other.stance)[0]


# ---------------------------------------------------------------- losses


def apply_losses(state: HouseClearingState, outcomes: list[Outcome]) -> list[Figure]:
    """Take the initiative lost off each figure at once; returns those put out of action."""
    totals: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.loss:
            totals[outcome.victim] = totals.get(outcome.victim, 0) + outcome.loss
    fallen: list[Figure] = []
    for fid, lost in totals.items():
        figure = state.figures[fid]
        watchers = watchers_of(state, figure)
        figure.initiative -= lost
        state.emit("initiative-lost", {"figure": fid, "lost": lost,
                                       "initiative": figure.initiative}, (figure.side,))
        if state.enemy_of(figure.side) in watchers:
            state.emit("enemy-hit", {"figure": fid, "name": figure.name, "lost": lost,
                                     "out_of_action": not figure.in_action},
                       (state.enemy_of(figure.side),))
        if not figure.in_action:
            fallen.append(_out_of_action(state, figure))
    if fallen:
        refresh_sight(state, fallen)
    return fallen


def _out_of_action(state: HouseClearingState, figure: Figure) -> Figure:
    state.emit("out-of-action", {"figure": figure.id, "name": figure.name},
               watchers_of(state, figure))
    record_casualty(state, figure)
    figure.stance = Stance.PRONE
    return figure
