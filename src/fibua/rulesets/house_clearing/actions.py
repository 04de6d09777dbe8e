"""The orders a figure can be given: each checked completely first (IllegalOrder, nothing
changed), then carried out. A move can open a reaction: enemy figures of higher
initiative that saw the mover may fire at it, and a mover hit on the dice but saved by
its cover ducks back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.core.params import only
from fibua.rulesets.house_clearing.firing import (
    Outcome,
    Victim,
    apply_losses,
    fire,
    firing_row,
    loaders,
)
from fibua.rulesets.house_clearing.knowledge import (
    EVENT_DIGITS,
    glimpses,
    inches,
    note_step,
    record_glimpse,
    refresh_sight,
)
from fibua.rulesets.house_clearing.movement import (
    MovePlan,
    check_stance,
    parse_stance,
    path_spots,
    plan_move,
)
from fibua.rulesets.house_clearing.shooting import at_least_one_hit, hit_chance, reach
from fibua.rulesets.house_clearing.state import (
    Declaration,
    Figure,
    HouseClearingState,
    Phase,
    Reaction,
)
from fibua.rulesets.house_clearing.tables import Row, Stance

# ---------------------------------------------------------------- common checks


def _require_move_step(state: HouseClearingState, figure: Figure, kind: str) -> None:
    if state.reaction is not None:
        raise IllegalOrder("the enemy is moving: fire at the mover or end", code="reacting")
    if state.phase is not Phase.MOVE:
        raise IllegalOrder(f"{kind} is a move phase order; it is the fire phase",
                           code="wrong-phase")
    if figure.step < 1:
        raise IllegalOrder(f"{figure.name} is at initiative 0 this turn and cannot move",
                           code="pinned")
    if figure.step != state.step:
        raise IllegalOrder(f"{figure.name} moves in step {figure.step}; this is step "
                           f"{state.step}", code="wrong-step")
    if figure.moved:
        raise IllegalOrder(f"{figure.name} has already moved this turn", code="already-moved")
    if figure.reacted and not state.options.move_after_reaction_fire:
        raise IllegalOrder(f"{figure.name} fired during the move phase and stays put",
                           code="reacted")


# ---------------------------------------------------------------- moving


def check_move(state: HouseClearingState, figure: Figure, params: dict[str, Any]) -> MovePlan:
    _require_move_step(state, figure, "move")
    only(params, {"to", "path", "floor", "stance"})
    return plan_move(state, figure, params)


def carry_out_move(state: HouseClearingState, figure: Figure, plan: MovePlan) -> None:
    start, start_stance = figure.pos, figure.stance
    spots, stances = path_spots(start, plan, state)
    seen_at, where_it_stops = glimpses(state, figure, spots, stances)
    figure.pos, figure.stance, figure.moved = plan.legs[-1], plan.stance, True
    state.emit("moved", {
        "figure": figure.id, "from": inches(start.x, start.y),
        "to": inches(figure.pos.x, figure.pos.y),
        "floor": figure.pos.floor, "section": figure.pos.section, "stance": str(figure.stance),
        "share": round(plan.share, 4), "inches": round(plan.ground, EVENT_DIGITS),
        "climbed": list(plan.climbs),
    }, (figure.side,))
    refresh_sight(state, [figure], where_it_stops)
    if seen_at:
        last = max(k for found in seen_at.values() for k in found)
        record_glimpse(state, figure, spots[last], stances[last])
        note_step(state, figure)
    _open_reaction(state, figure, start, start_stance, spots, stances, seen_at)


def check_stance_order(state: HouseClearingState, figure: Figure,
                       params: dict[str, Any]) -> Stance:
    _require_move_step(state, figure, "stance")
    only(params, {"stance"})
    if "stance" not in params:
        raise IllegalOrder("stance needs stance=standing|crouching|prone|leaning",
                           code="bad-parameter")
    stance = parse_stance(params["stance"], figure.stance)
    if stance is figure.stance:
        raise IllegalOrder(f"{figure.name} is already {stance}", code="no-change")
    check_stance(state.geometry, figure.pos, stance)
    return stance


def carry_out_stance(state: HouseClearingState, figure: Figure, stance: Stance) -> None:
    figure.stance, figure.moved = stance, True
    state.emit("stance", {"figure": figure.id, "stance": str(stance)}, (figure.side,))
    refresh_sight(state, [figure])


# ---------------------------------------------------------------- firing


@dataclass(frozen=True, slots=True)
class FirePlan:
    target: Figure
    auto: bool
    loader: Figure | None
    row: Row


def check_fire(state: HouseClearingState, figure: Figure, params: dict[str, Any]) -> FirePlan:
    only(params, {"target", "auto", "loader"})
    if state.reaction is not None:
        return _check_reaction(state, figure, params)
    if state.phase is not Phase.FIRE:
        raise IllegalOrder("in the move phase a figure fires only at a moving enemy, when "
                           "offered the chance", code="wrong-phase")
    if figure.step != state.step:
        raise IllegalOrder(f"{figure.name} fires in step {figure.step}; this is step "
                           f"{state.step}", code="wrong-step")
    if figure.fired:
        raise IllegalOrder(f"{figure.name} has already fired this turn", code="fired")
    return _fire_plan(state, figure, params)


def _fire_plan(state: HouseClearingState, figure: Figure, params: dict[str, Any]) -> FirePlan:
    target = _target(state, figure, params.get("target"))
    auto = params.get("auto", False)
    if not isinstance(auto, bool):
        raise IllegalOrder("auto must be true or false", code="bad-parameter")
    if auto and figure.arms.auto is None:
        raise IllegalOrder(f"a {figure.arms.title} fires single shots only",
                           code="not-automatic")
    loader = _loader(state, figure, params.get("loader"))
    row = firing_row(figure, auto, loader)
    distance = figure.pos.distance(target.pos)
    if distance > reach(row) + 1e-9:
        raise IllegalOrder(f"{target.name} is out of range: {distance:.1f}in, and a "
                           f"{figure.arms.title} firing as {row} reaches {reach(row)}in",
                           code="out-of-range")
    return FirePlan(target, auto, loader, row)


def _target(state: HouseClearingState, figure: Figure, name: Any) -> Figure:
    if not isinstance(name, str):
        raise IllegalOrder("fire needs target=ID", code="bad-parameter")
    target = state.figures.get(name)
    # the same words whether the figure is hidden or does not exist: nothing leaks
    if target is None or target.side == figure.side or not target.in_action or \
            not state.sees(figure.id, target.id):
        raise IllegalOrder(f"{figure.name} sees no enemy {name!r}", code="no-target")
    return target


def _loader(state: HouseClearingState, figure: Figure, name: Any) -> Figure | None:
    if name is None:
        return None
    if figure.arms.crew < 2:
        raise IllegalOrder(f"a {figure.arms.title} needs no second crewman",
                           code="bad-parameter")
    for candidate in loaders(state, figure):
        if candidate.id == name:
            return candidate
    raise IllegalOrder(f"{name!r} cannot feed the belt: a friend in action within 1in of the "
                       "gunner, on its floor, who has not fired this turn", code="no-loader")


def carry_out_declare(state: HouseClearingState, figure: Figure, plan: FirePlan) -> None:
    figure.fired = True
    _use_loader(plan)
    state.declared.append(Declaration(figure.id, plan.target.id, plan.auto,
                                      plan.loader.id if plan.loader else None))
    state.emit("fire-declared", {"figure": figure.id, "target": plan.target.id,
                                 "auto": plan.auto, "row": str(plan.row),
                                 "loader": plan.loader.id if plan.loader else None},
               (figure.side,))


def _use_loader(plan: FirePlan) -> None:
    if plan.loader is not None:
        plan.loader.fired = plan.loader.loading = True


# ---------------------------------------------------------------- reaction to a move


def _open_reaction(state: HouseClearingState, mover: Figure, start: Position,
                   start_stance: Stance, spots: list[Position], stances: list[Stance],
                   seen_at: dict[str, list[int]]) -> None:
    """Enemies of higher initiative that have not acted and saw the mover within reach of
    a single shot may fire at it. The enemy is asked after every move, even when none
    may, and again after every shot at the mover until it lets the mover go (`end`):
    whether it is asked must tell the moving side nothing of figures it cannot see."""
    if not state.options.reaction_fire or not mover.in_action:
        return
    firers = reaction_firers(state, mover, spots, seen_at)
    side = state.enemy_of(mover.side)
    state.reaction = Reaction(mover.id, side, bool(seen_at), start, start_stance, spots,
                              stances, firers)
    if firers:
        state.emit("reaction", {"mover": mover.id, "name": mover.name,
                                "firers": sorted(firers), "step": state.step}, (side,))


def reaction_firers(state: HouseClearingState, mover: Figure, spots: list[Position],
                    seen_at: dict[str, list[int]]) -> dict[str, list[int]]:
    """The enemies that may fire at the mover, each with the spots (indexes) where it saw
    it within reach of a single shot (a search's worlds draw them again: sampling.py)."""
    firers: dict[str, list[int]] = {}
    for fid, found in sorted(seen_at.items()):
        enemy = state.figures[fid]
        if not _may_react(enemy, mover):
            continue
        crew = loaders(state, enemy)
        longest = reach(firing_row(enemy, False, crew[0] if crew else None))
        near = [k for k in found if enemy.pos.distance(spots[k]) <= longest + 1e-9]
        if near:
            firers[fid] = near
    return firers


def _may_react(enemy: Figure, mover: Figure) -> bool:
    return (enemy.in_action and enemy.step > mover.step and not enemy.moved
            and not enemy.fired and not enemy.reacted)


def _check_reaction(state: HouseClearingState, figure: Figure,
                    params: dict[str, Any]) -> FirePlan:
    reaction = state.reaction
    assert reaction is not None
    if figure.id not in reaction.firers:
        raise IllegalOrder(f"{figure.name} cannot fire at the mover: only figures of higher "
                           "initiative that have not acted and saw it move",
                           code="cannot-react")
    if params.get("target") != reaction.mover:
        raise IllegalOrder("during the move phase a figure fires only at the mover",
                           code="not-the-mover")
    auto = params.get("auto", False)
    if not isinstance(auto, bool):
        raise IllegalOrder("auto must be true or false", code="bad-parameter")
    if auto:
        raise IllegalOrder("fire at a mover is single shots", code="not-automatic")
    mover = state.figures[reaction.mover]
    loader = _loader(state, figure, params.get("loader"))
    return FirePlan(mover, False, loader, firing_row(figure, False, loader))


def best_spot(state: HouseClearingState, firer: Figure, row: Row) -> int:
    """Where along the path the firer takes its shot: where the chance of a confirmed hit
    is best (the first such place)."""
    reaction = state.reaction
    assert reaction is not None
    mover = state.figures[reaction.mover]
    best, best_odds = -1, -1.0
    for k in reaction.firers[firer.id]:
        spot = reaction.spots[k]
        distance = firer.pos.distance(spot)
        if distance > reach(row) + 1e-9:
            continue
        fifths = state.geometry.fifths(firer.pos, spot, reaction.stances[k])
        odds = float(at_least_one_hit(hit_chance(firer.skill, row, distance), fifths))
        if odds > best_odds:
            best, best_odds = k, odds
    if best < 0:
        raise IllegalOrder(f"{mover.name} was out of range of a {firer.arms.title} firing as "
                           f"{row}", code="out-of-range")
    return best


def check_reaction_spot(state: HouseClearingState, figure: Figure, plan: FirePlan) -> int:
    return best_spot(state, figure, plan.row)


def carry_out_reaction(state: HouseClearingState, firer: Figure, plan: FirePlan,
                       spot_index: int) -> None:
    reaction = state.reaction
    assert reaction is not None
    mover = state.figures[reaction.mover]
    spot, stance = reaction.spots[spot_index], reaction.stances[spot_index]
    firer.fired = firer.reacted = True
    _use_loader(plan)
    fifths = state.geometry.fifths(firer.pos, spot, stance)
    (outcome,) = fire(state, firer, [Victim(mover, spot, fifths)], plan.row, False, True)
    stopped = _after_reaction_hit(state, mover, outcome, reaction, spot_index)
    for used in (firer, plan.loader):
        if used is not None:
            reaction.firers.pop(used.id, None)
    # The window closes on what the moving side sees for itself (its figure stopped,
    # ducked back or fell), never because no firer is left: that would tell it whether
    # enemies it cannot see could still fire. The reacting side passes with `end`.
    if stopped or not mover.in_action:
        state.reaction = None


def _after_reaction_hit(state: HouseClearingState, mover: Figure, outcome: Outcome,
                        reaction: Reaction, spot_index: int) -> bool:
    """Where the mover ends up: ducked back to where it started, stopped where it was hit
    down to 0 or below, or on its way. True if it no longer moves."""
    moved_to = None
    if outcome.dice_hits and not outcome.confirmed:
        mover.ducked = True
        moved_to = (reaction.start, reaction.start_stance)
        state.emit("ducked-back", {"figure": mover.id, "name": mover.name}, state.sides)
    elif outcome.confirmed and mover.initiative - outcome.loss <= 0:
        moved_to = (reaction.spots[spot_index], Stance.STANDING)
        state.emit("stopped", {"figure": mover.id, "name": mover.name}, state.sides)
    if moved_to is not None:
        mover.pos, mover.stance = moved_to
        x, y = inches(mover.pos.x, mover.pos.y)
        state.emit("moved-back", {"figure": mover.id, "x": x, "y": y,
                                  "section": mover.pos.section, "floor": mover.pos.floor,
                                  "stance": str(mover.stance)}, (mover.side,))
    apply_losses(state, [outcome])
    if moved_to is not None and mover.in_action:
        refresh_sight(state, [mover])
    return moved_to is not None


def end_reaction(state: HouseClearingState) -> None:
    reaction = state.reaction
    assert reaction is not None
    state.reaction = None
    if reaction.firers:  # a window with nobody to fire passes without a word
        state.emit("reaction-over", {"mover": reaction.mover}, (reaction.side,))


