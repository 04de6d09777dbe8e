"""The orders a figure can be given: validated first (IllegalOrder, nothing changed), then
carried out. Moves and fire can trigger enemy overwatch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import ceil, hypot
from typing import Any

from fibua.battlefield.model import ObstacleKind, Position
from fibua.battlefield.sight import LEG_FREE, LEG_WALL, SightEngine, per_query
from fibua.core.dice import parse_dice
from fibua.core.errors import IllegalOrder
from fibua.core.params import point, require_on_table, waypoints
from fibua.rulesets.street_fight.contact import engaged
from fibua.rulesets.street_fight.cover import (
    has_cover_nearby,
    has_half_cover,
)
from fibua.rulesets.street_fight.firing import ShotOdds, fire_round, roll_rounds, shot_odds
from fibua.rulesets.street_fight.knowledge import refresh_sight
from fibua.rulesets.street_fight.shooting import OverwatchKind, covered_targets, spread_of
from fibua.rulesets.street_fight.state import (
    Figure,
    Overwatch,
    Phase,
    StreetFightState,
    inches,
    spot,
)
from fibua.rulesets.street_fight.tables import (
    CONTACT,
    FLOOR_CHANGE_COST,
    MOVE_MAX,
    MOVE_NORMAL,
    OVERWATCH_AREA_MAX_RADIUS,
    OVERWATCH_POINT_RADIUS,
)

CROWDING = 0.25  # inches: two friendly figures cannot stand closer than this
HALT_STEP = 0.1  # inches: how finely a runner stopping short of an enemy is placed
UNCLIMBABLE = frozenset({ObstacleKind.HIGH_WALL})


def _require_phase(state: StreetFightState, phase: Phase, kind: str) -> None:
    if state.phase is not phase:
        raise IllegalOrder(f"{kind} is a {phase} phase order; it is the {state.phase} phase",
                           code="wrong-phase")


def _require_steady(state: StreetFightState, figure: Figure) -> None:
    if figure.fleeing_from is not None:
        raise IllegalOrder(f"{figure.name} is falling back and takes no orders", code="morale")
    if figure.sheltering:
        raise IllegalOrder(f"{figure.name} is sheltering this turn", code="morale")
    if engaged(state, figure):
        raise IllegalOrder(f"{figure.name} is locked in close combat", code="in-combat")


# ---------------------------------------------------------------- movement


@dataclass(frozen=True, slots=True)
class MovePlan:
    legs: tuple[Position, ...]  # where the figure stands after each leg, the last included
    length: float  # inches, floor changes included
    descend: int  # floors walked down before leaving its section


def plan_move(state: StreetFightState, figure: Figure, params: dict[str, Any]) -> MovePlan:
    _require_phase(state, Phase.MOVE, "move")
    _require_steady(state, figure)
    if figure.moved > 0:
        raise IllegalOrder(f"{figure.name} has already moved this turn", code="already-moved")
    if figure.overwatch is not None or figure.took_cover:
        raise IllegalOrder(f"{figure.name} is staying put this turn", code="stationary")
    if "to" in params and "path" in params:
        raise IllegalOrder("a move takes to=x,y or path=[[x,y],...], not both",
                           code="bad-parameter")
    points = waypoints(params)
    for x, y in points:
        require_on_table(state.battlefield.table, x, y)
    plan = _trace(state, figure, points, params.get("floor"))
    if plan.length > MOVE_MAX + 1e-9:
        raise IllegalOrder(f"that move is {plan.length:.1f} in; at most {MOVE_MAX:g} in",
                           code="too-far")
    end = plan.legs[-1]
    for other in state.side_figures(figure.side):
        # most friends are inches away in x or y: only those near are measured
        if (other is not figure and abs(other.pos.x - end.x) < CROWDING
                and abs(other.pos.y - end.y) < CROWDING and other.pos.distance(end) < CROWDING):
            raise IllegalOrder(f"{other.name} already stands there", code="crowded")
    if plan.length > MOVE_NORMAL and _enemy_within_contact(state, figure, end):
        raise IllegalOrder("a figure that moves more than 5 in cannot go into close combat",
                           code="run-into-combat")
    return plan





def _trace(
    state: StreetFightState, figure: Figure, points: list[tuple[float, float]], floor: Any
) -> MovePlan:
    sight = state.sight
    here = figure.pos
    length = 0.0
    descend = 0
    legs: list[Position] = []
    for x, y in points:
        start, there = leg_to(sight, here, x, y)
        if start is not here:
            descend += here.floor
            length += FLOOR_CHANGE_COST * here.floor
            here = start
        blocked = leg_blocked(sight, here, there)
        if blocked:
            raise IllegalOrder(f"cannot move from ({here.x:g}, {here.y:g}) to ({x:g}, {y:g}): "
                               f"{blocked}", code="blocked")
        length += here.distance(there)
        legs.append(there)
        here = there
    if floor is not None:
        here = _change_floor(state, here, floor)
        length += FLOOR_CHANGE_COST * abs(here.floor - legs[-1].floor)
        legs[-1] = here
    return MovePlan(tuple(legs), length, descend)


def leg_to(sight: SightEngine, here: Position, x: float, y: float) -> tuple[Position, Position]:
    """Where a straight leg from `here` to (x, y) starts and ends: a figure leaving its
    section from an upper floor first goes down to the ground."""
    section = section_at(sight, x, y)
    if section != here.section and here.floor > 0:
        here = Position(here.x, here.y, here.section, 0)
    return here, Position(x, y, section, here.floor if section == here.section else 0)


@per_query(limit=1 << 14)
def section_at(sight: SightEngine, x: float, y: float) -> str | None:
    """`sight.section_at((x, y))`, remembered: the computer asks about the same places
    order after order, and a map's sections never move."""
    return sight.section_at((x, y))


def _leg_key(a: Position, b: Position) -> tuple[Any, ...]:
    # plain values hash and compare faster than positions
    return (a.x, a.y, a.section, a.floor, b.x, b.y, b.section, b.floor)


@per_query(limit=1 << 14, key=_leg_key)
def leg_blocked(sight: SightEngine, a: Position, b: Position) -> str | None:
    """Why a straight move from a to b is not possible, or None. Figures go in and out of
    buildings by doors and cannot climb high walls (the rules have no climbing).

    Remembered by the asking engine (a fork per game and user): the legs of the
    computer's paths join the same few places turn after turn, and it asks about a move
    before giving it."""
    stop = sight.leg_stop(a, b, UNCLIMBABLE)  # one compiled call: each fork asks anew
    if stop == LEG_WALL:
        return "it goes through a building wall (enter and leave by doors)"
    if stop != LEG_FREE:
        return f"the high wall {sight.battlefield.obstacles[stop].id!r} cannot be climbed"
    return None


def _change_floor(state: StreetFightState, here: Position, floor: Any) -> Position:
    if not isinstance(floor, int) or isinstance(floor, bool) or floor < 0:
        raise IllegalOrder(f"floor must be a whole number 0 or more, not {floor!r}",
                           code="bad-parameter")
    if floor == here.floor:
        return here
    if here.section is None:
        raise IllegalOrder("only a figure inside a building can change floor", code="no-floor")
    levels = state.battlefield.section(here.section).levels
    if floor >= levels:
        raise IllegalOrder(f"that building has floors 0..{levels - 1}", code="no-floor")
    return Position(here.x, here.y, here.section, floor)


def _enemy_within_contact(state: StreetFightState, figure: Figure, end: Position) -> bool:
    """Whether `end` is within contact of an enemy the side sees now. An enemy it does not
    see cannot make the order illegal, or the refusal would reveal it: a run that meets
    one stops short (see `_short_of_contact`)."""
    return bool(seen_within_contact(state, figure, end))


def seen_within_contact(state: StreetFightState, figure: Figure, end: Position) -> list[str]:
    """The names of the enemies the side sees now that a figure at `end` would be in
    contact with (what a move there charges, as far as the side can know)."""
    found = []
    for sighting in state.knowledge[figure.side].sightings.values():
        if not (sighting.visible and sighting.alive):
            continue
        there = Position(sighting.x, sighting.y, sighting.section, sighting.floor)
        if there.distance(end) <= CONTACT and state.sight.visible(end, there):
            found.append(sighting.name)
    return found


def _short_of_contact(state: StreetFightState, figure: Figure, a: Position,
                      b: Position) -> Position:
    """Where a runner whose last leg a-b ends in contact with an enemy stops instead: the
    last point of the leg outside contact, since running into close combat is not allowed."""
    enemies = [e for e in state.side_figures(state.enemy_of(figure.side))
               if e.pos.distance(b) <= CONTACT and state.sight.visible(b, e.pos)]
    if not enemies:
        return b
    steps = max(1, ceil(a.distance(b) / HALT_STEP))
    for k in range(steps - 1, -1, -1):
        x = round(a.x + (b.x - a.x) * k / steps, 2)
        y = round(a.y + (b.y - a.y) * k / steps, 2)
        section = section_at(state.sight, x, y)
        spot = Position(x, y, section, b.floor if section == b.section else a.floor)
        if all(e.pos.distance(spot) > CONTACT for e in enemies):
            return spot
    return a


def carry_out_move(state: StreetFightState, figure: Figure, plan: MovePlan) -> None:
    start = figure.pos
    figure.moved = plan.length
    figure.aim = 0
    figure.full_cover = False
    walked = 0.0
    here = start
    for leg in plan.legs:
        if not _run_overwatch_gauntlet(state, figure, here, leg, walked):
            break
        walked += here.distance(leg)
        here = leg
    halted = False
    if figure.alive:
        last = plan.legs[-1]
        figure.pos = last
        if plan.length > MOVE_NORMAL:
            figure.pos = _short_of_contact(state, figure, plan.legs[-2] if len(plan.legs) > 1
                                           else start, last)
            halted = figure.pos != last
    state.emit("moved", {
        "figure": figure.id, "from": spot(start.x, start.y),
        "to": spot(figure.pos.x, figure.pos.y), "floor": figure.pos.floor,
        "section": figure.pos.section, "inches": inches(plan.length),
        "running": plan.length > MOVE_NORMAL,
    }, (figure.side,))
    if halted:
        state.emit("halted", {"figure": figure.id,
                              "reason": "an enemy within 1 in: a runner cannot close"},
                   (figure.side,))
    refresh_sight(state, [figure])
    figure.charged = figure.alive and engaged(state, figure)


def _run_overwatch_gauntlet(
    state: StreetFightState, mover: Figure, a: Position, b: Position, walked: float
) -> bool:
    """Enemy overwatch fires at the mover where this leg enters its area, nearest first.
    Returns False if the mover fell."""
    triggers = []
    for watcher in state.side_figures(state.enemy_of(mover.side)):
        ow = watcher.overwatch
        if ow is None or engaged(state, watcher):
            continue
        entry = _entry_point(a, b, ow)
        if entry is None:
            continue
        at = Position(entry[0], entry[1], b.section if entry == b.point else a.section, a.floor)
        if state.sight.visible(watcher.pos, at):
            triggers.append((hypot(entry[0] - a.x, entry[1] - a.y), watcher.id, at))
    for _, watcher_id, at in sorted(triggers):
        watcher = state.figures[watcher_id]
        if not watcher.alive or watcher.overwatch is None:
            continue
        mover.pos = at
        refresh_sight(state, [mover])
        overwatch_fire(state, watcher, mover)
        if not mover.alive:
            return False
    return True


def _entry_point(a: Position, b: Position, ow: Overwatch) -> tuple[float, float] | None:
    """First point of segment ab inside the overwatch circle, if any."""
    dx, dy = b.x - a.x, b.y - a.y
    fx, fy = a.x - ow.x, a.y - ow.y
    qa = dx * dx + dy * dy
    qc = fx * fx + fy * fy - ow.radius**2
    if qa == 0:
        return None
    if qc <= 0:
        return a.x, a.y  # it starts inside the point of aim and moves: it is seen at once
    qb = 2 * (fx * dx + fy * dy)
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    t = (-qb - disc**0.5) / (2 * qa)
    if not 0 <= t <= 1:
        return None
    return a.x + t * dx, a.y + t * dy


def overwatch_fire(state: StreetFightState, watcher: Figure, target: Figure) -> None:
    ow = watcher.overwatch
    assert ow is not None
    kind = OverwatchKind.AREA if ow.large else OverwatchKind.POINT
    state.emit("overwatch-fire", {"figure": watcher.id, "target": target.id}, state.sides)
    watcher.overwatch = None
    watcher.fired = True
    odds = shot_odds(state, watcher, target, kind)
    for _ in range(roll_rounds(state, watcher)):
        if not target.alive:
            break
        fire_round(state, watcher, target, odds)


# ---------------------------------------------------------------- fire


def check_shoot(state: StreetFightState, figure: Figure, params: dict[str, Any]) -> list[Figure]:
    _require_phase(state, Phase.SHOOT, "shoot")
    _require_steady(state, figure)
    _require_can_fire(figure)
    targets = _targets(state, figure, params)
    if len(targets) > 1:
        dice = figure.arms.rounds
        if dice is None:
            raise IllegalOrder(f"a {figure.arms.title} fires single shots: one target only",
                               code="not-automatic")
        most = parse_dice(dice).maximum
        width = frontage(targets)
        if ceil(round(width, 9)) > most:
            raise IllegalOrder(f"those targets span {width:.1f} in; a {figure.arms.title} "
                               f"spreads over {most} in at most", code="too-wide")
    return targets


def _require_can_fire(figure: Figure) -> None:
    if figure.fired:
        raise IllegalOrder(f"{figure.name} has already fired or aimed this turn", code="fired")
    if figure.ran:
        raise IllegalOrder(f"{figure.name} moved more than 5 in and cannot fire", code="ran")
    if figure.overwatch is not None:
        raise IllegalOrder(f"{figure.name} is on overwatch", code="overwatch")
    if not figure.arms.moves_and_fires and figure.counts_as_moving:
        raise IllegalOrder(f"an {figure.arms.title} cannot move and fire", code="moved")


def _targets(state: StreetFightState, figure: Figure, params: dict[str, Any]) -> list[Figure]:
    if "target" in params and "targets" in params:
        raise IllegalOrder("shoot takes target=ID or targets=[ID, ...], not both",
                           code="bad-parameter")
    raw = params.get("targets", [params["target"]] if "target" in params else None)
    if not isinstance(raw, list) or not raw or not all(isinstance(t, str) for t in raw):
        raise IllegalOrder("shoot needs target=ID (or targets=[ID, ...])", code="bad-parameter")
    if len(set(raw)) != len(raw):
        raise IllegalOrder("a target is named twice", code="bad-parameter")
    targets = []
    for name in raw:
        target = state.figures.get(name)
        # the same words whether the figure is hidden or does not exist: no information leaks
        if target is None or target.side == figure.side or not target.alive or \
                not state.can_see(figure.id, target.id):
            raise IllegalOrder(f"{figure.name} sees no enemy {name!r}", code="no-target")
        if engaged(state, target):
            raise IllegalOrder(f"{target.name} is in close combat", code="target-in-combat")
        if shielded(state, figure, target):
            raise IllegalOrder(f"{target.name} has taken full cover from that side",
                               code="full-cover")
        targets.append(target)
    return targets


def shielded(state: StreetFightState, firer: Figure, target: Figure) -> bool:
    """A target in full cover cannot be fired on from a side its cover faces."""
    return target.full_cover and has_half_cover(state.sight, firer.pos, target.pos)


def frontage(targets: Sequence[Figure]) -> float:
    return max((a.pos.distance(b.pos) for a, b in combinations(targets, 2)), default=0.0)


def within_frontage(targets: list[Figure], rounds: int) -> list[Figure]:
    """The named targets, in order, that fit in a frontage of as many inches as rounds
    were fired: the rounds rolled decide how wide the fire can spread."""
    return covered_targets(targets, rounds, frontage)


def carry_out_shoot(state: StreetFightState, figure: Figure, targets: list[Figure]) -> None:
    _interrupting_overwatch(state, figure)
    if not figure.alive:
        state.emit("fire-cancelled", {"figure": figure.id}, state.sides)
        return
    rounds = roll_rounds(state, figure)
    targets = within_frontage(targets, rounds)
    spread = spread_of(targets, frontage)
    odds: dict[str, ShotOdds] = {}
    # rounds go to the covered targets in turn (see shooting.round_shares)
    for i in range(rounds):
        target = targets[i % len(targets)]
        if target.alive:
            if target.id not in odds:
                odds[target.id] = shot_odds(state, figure, target, spread=spread)
            fire_round(state, figure, target, odds[target.id])
    _lose_full_cover(state, figure, targets)
    figure.fired = True
    figure.aim = 0


def _interrupting_overwatch(state: StreetFightState, firer: Figure) -> None:
    for watcher in state.side_figures(state.enemy_of(firer.side)):
        ow = watcher.overwatch
        if ow is None or not ow.covers(firer.pos.x, firer.pos.y) or engaged(state, watcher):
            continue
        if state.can_see(watcher.id, firer.id) and not shielded(state, watcher, firer):
            overwatch_fire(state, watcher, firer)
            if not firer.alive:
                return


def _lose_full_cover(state: StreetFightState, figure: Figure, targets: list[Figure]) -> None:
    if figure.full_cover and any(
        has_half_cover(state.sight, t.pos, figure.pos) for t in targets
    ):
        figure.full_cover = False
        state.emit("full-cover-lost", {"figure": figure.id}, (figure.side,))


# ---------------------------------------------------------------- aim, overwatch, cover


def check_aim(state: StreetFightState, figure: Figure) -> None:
    _require_phase(state, Phase.SHOOT, "aim")
    _require_steady(state, figure)
    _require_can_fire(figure)
    if not figure.arms.aims:
        raise IllegalOrder(f"an {figure.arms.title} gains nothing from aiming", code="no-aim")
    if figure.counts_as_moving:
        raise IllegalOrder(f"{figure.name} is moving and cannot aim", code="moving")


def carry_out_aim(state: StreetFightState, figure: Figure) -> None:
    figure.aim = min(figure.aim + 1, 3)
    figure.fired = True
    state.emit("aimed", {"figure": figure.id, "turns": figure.aim}, (figure.side,))


def check_overwatch(state: StreetFightState, figure: Figure, params: dict[str, Any]) -> Overwatch:
    _require_phase(state, Phase.MOVE, "overwatch")
    _require_steady(state, figure)
    if figure.moved > 0 or figure.took_cover or figure.overwatch is not None:
        raise IllegalOrder(f"{figure.name} has already been given its move order",
                           code="already-moved")
    if not figure.arms.moves_and_fires and figure.counts_as_moving:
        # it ran last turn: it still counts as moving, and overwatch fire is fire
        raise IllegalOrder(f"an {figure.arms.title} cannot move and fire", code="moved")
    x, y = point(params.get("point"), "point")
    require_on_table(state.battlefield.table, x, y)
    radius = params.get("radius", OVERWATCH_POINT_RADIUS)
    if not isinstance(radius, int | float) or isinstance(radius, bool) or \
            not 0 < radius <= OVERWATCH_AREA_MAX_RADIUS:
        raise IllegalOrder(f"radius must be a number over 0 and at most "
                           f"{OVERWATCH_AREA_MAX_RADIUS:g} in", code="bad-parameter")
    target = Position(x, y, section_at(state.sight, x, y))
    if not state.sight.visible(figure.pos, target):
        raise IllegalOrder(f"{figure.name} cannot see ({x:g}, {y:g})", code="unseen-point")
    return Overwatch(x, y, float(radius), radius > OVERWATCH_POINT_RADIUS)


def carry_out_overwatch(state: StreetFightState, figure: Figure, ow: Overwatch) -> None:
    figure.overwatch = ow
    figure.aim = 0
    state.emit("overwatch", {"figure": figure.id, "point": spot(ow.x, ow.y),
                             "radius": inches(ow.radius),
                             "large": ow.large}, (figure.side,))


def check_take_cover(state: StreetFightState, figure: Figure) -> None:
    _require_phase(state, Phase.MOVE, "take-cover")
    _require_steady(state, figure)
    if figure.ran:
        raise IllegalOrder(f"{figure.name} ran this turn and cannot take cover", code="ran")
    if figure.took_cover or figure.overwatch is not None:
        raise IllegalOrder(f"{figure.name} has already been given that order", code="repeat")
    if not has_cover_nearby(state.sight, figure.pos):
        raise IllegalOrder(f"{figure.name} has no 1/2 or 3/4 cover to take", code="no-cover")


def carry_out_take_cover(state: StreetFightState, figure: Figure) -> None:
    figure.full_cover = True
    figure.took_cover = True
    state.emit("took-cover", {"figure": figure.id}, (figure.side,))
