"""Moving a figure: the ground a path crosses paid at its own pace, walls climbed, doors
and windows, floors; and the spots along the path where the enemy may see and fire on it.

Moves are measured in shares of a whole move (1.0): an inch of open ground is 1/9, of a
building plot 1/6, inside a building 1/3; climbing a wall up to chest height 1/2; a wall
higher than that, up to one and a half times the figure's height, takes the whole move.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from math import hypot
from typing import Any

import numpy as np

from fibua.battlefield.geometry import jit, segments_intersect
from fibua.battlefield.model import OpeningKind, Position
from fibua.battlefield.sight import (
    EDGES,
    FloatArray,
    MoveCheck,
    SightEngine,
    per_map,
    per_query,
)
from fibua.core.errors import IllegalOrder
from fibua.core.params import require_on_table, waypoints
from fibua.rulesets.house_clearing.forces import Options
from fibua.rulesets.house_clearing.geometry import UNTOLD, MapGeometry
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState
from fibua.rulesets.house_clearing.tables import (
    CHEST_LINE,
    CLIMB_HALF,
    CLIMB_LIMIT,
    CLIMB_REACH,
    CLIMB_WHOLE,
    FLOOR_CHANGE,
    MOVE_INSIDE,
    MOVE_RATE,
    PATH_SAMPLE,
    SPACING,
    Stance,
)
from fibua.scenario.schema import Scenario

FASTEST = max(MOVE_RATE.values())
SLOWEST = min(MOVE_INSIDE, *MOVE_RATE.values())

SLACK = 1e-9


@dataclass(frozen=True, slots=True)
class MovePlan:
    legs: tuple[Position, ...]  # where the figure stands after each leg, the last included
    share: float  # of a whole move
    stance: Stance
    ground: float  # inches walked
    climbs: tuple[str, ...]  # what it climbed over, for the record

MOST_WAYPOINTS = 20  # points a move's path may name


@dataclass(frozen=True, slots=True)
class LegCost:
    share: float
    climbs: tuple[tuple[str, float], ...]  # (what, share)





_STANCE_OF = {s.value: s for s in Stance}


def parse_stance(value: Any, default: Stance) -> Stance:
    if value is None:
        return default
    # a stance's own name, as every computer writes it: the member at once (the Enum call
    # costs more than the rest of a move's check of its stance)
    found = _STANCE_OF.get(value) if type(value) is str else None
    if found is not None:
        return found
    try:
        return Stance(value)
    except ValueError:
        names = ", ".join(s.value for s in Stance)
        raise IllegalOrder(f"stance must be one of {names}, not {value!r}",
                           code="bad-parameter") from None


def check_stance(geometry: MapGeometry, pos: Position, stance: Stance) -> None:
    if stance is Stance.LEANING and not geometry.can_lean(pos):
        raise IllegalOrder("a figure leans out only from inside a building, within 1in of a "
                           "door or window of its room", code="cannot-lean")


def plan_move(state: HouseClearingState, figure: Figure, params: dict[str, Any]) -> MovePlan:
    """Check a move completely (IllegalOrder if it is not possible) and plan it."""
    points = waypoints(params, most=MOST_WAYPOINTS)
    for x, y in points:
        require_on_table(state.battlefield.table, x, y)
    stance = parse_stance(params.get("stance"), figure.stance)
    _check_reach(figure.pos, points)
    legs, share, ground, climbs = trace(state, figure.pos, points, params.get("floor"))
    if share > 1.0 + SLACK:
        raise IllegalOrder(f"that move takes {share:.2f} of a move; a figure has one",
                           code="too-far")
    end = legs[-1]
    check_stance(state.geometry, end, stance)
    _check_spacing(state, figure, end)
    return MovePlan(tuple(legs), share, stance, ground, climbs)


def too_far_on_the_ground(geometry: MapGeometry, start: Position,
                          params: dict[str, Any]) -> bool:
    """Whether `plan_move` refuses the move of a figure at `start` as more than a whole
    move on the ground alone (or for a reason that comes before): the same legs paid the
    same way, without the walls, climbs and spacing that cost far more to check, for a
    player to pass over such a move cheaply. False says nothing: the full check decides.
    `geometry` may read any fork of the scenario's engine (a side's own)."""
    try:
        points = waypoints(params, most=MOST_WAYPOINTS)
    except IllegalOrder:
        return False
    table = geometry.sight.battlefield.table
    if not all(0 <= x <= table.width and 0 <= y <= table.height for x, y in points):
        return False
    return too_far_along(geometry, start, points)


def too_far_through(geometry: MapGeometry, start: Position, xy: FloatArray) -> bool:
    """`too_far_on_the_ground` of a path through the rows of `xy` (floats, as `waypoints`
    reads them), in one compiled call but where a measure is too near a limit to tell."""
    if not 0 < len(xy) <= MOST_WAYPOINTS:
        return False  # refused by `waypoints`: for the full check to say
    found = geometry.ground_refusal(start, xy, FASTEST + SLACK, SLOWEST * (1.0 - 1e-6),
                                    1.0 + SLACK)
    if found == UNTOLD:
        return too_far_on_the_ground(geometry, start, {"path": xy.tolist()})
    return found == 1


def too_far_along(geometry: MapGeometry, start: Position,
                  points: list[tuple[float, float]]) -> bool:
    """`too_far_on_the_ground` of a path through `points` (floats, on the table), as
    `waypoints` reads them."""
    length = _path_length(start, points)
    if length > FASTEST + SLACK:
        return True  # refused by `_check_reach`
    if length < SLOWEST * (1.0 - 1e-6):
        return False  # short enough to be within a whole move on the slowest ground
    # as `trace` takes the legs, and `leg_cost` sums their ground; a leg's share reads its
    # ends' coordinates alone, not their sections or floors
    return geometry.paced_over(start, points, 1.0 + SLACK)


def _check_reach(start: Position, points: list[tuple[float, float]]) -> None:
    """No ground is faster than the open: a path longer than a whole move there is too far
    whatever it crosses."""
    length = _path_length(start, points)
    if length > FASTEST + SLACK:
        raise IllegalOrder(f"that move is {length:.1f}in; a whole move is {FASTEST:g}in at "
                           "most (in the open)", code="too-far")


TRACED_LIMIT = 20_000  # paths kept traced (`paths_traced`) before starting afresh


def paths_traced(scenario: Scenario, options: Options) -> dict[Any, Any]:
    """The paths the rules have traced in the scenario's games and what each costs, kept
    with the scenario for its next games: a trace depends on the map, the figure's height
    and the window sill alone, and games of one scenario walk the same paths from the same
    deployments. Only the rules read it (players have no way to the scenario)."""
    key = f"house-clearing-traced-{options.figure_height!r}-{options.window_sill!r}"
    found: dict[Any, Any] = scenario.memo.setdefault(key, {})
    return found


def _path_length(start: Position, points: list[tuple[float, float]]) -> float:
    length, here = 0.0, start.point
    for p in points:
        length += hypot(p[0] - here[0], p[1] - here[1])
        here = p
    return length


def trace(state: HouseClearingState, start: Position, points: list[tuple[float, float]],
          floor: Any) -> tuple[list[Position], float, float, tuple[str, ...]]:
    """The legs of a path and what they cost: (legs, share, inches, climbs). They depend
    on the map alone, which does not change: a path is traced once (`paths_traced`)."""
    if floor is not None and (not isinstance(floor, int) or isinstance(floor, bool)):
        return _trace(state, start, points, floor)  # a bad floor: refused, and unhashable
    key = (start, floor, _points_key(points))
    found: tuple[Any, ...] | None = state.traced.get(key)
    if found is None:
        if len(state.traced) >= TRACED_LIMIT:
            state.traced.clear()
        try:
            legs, share, ground, climbs = _trace(state, start, points, floor)
        except IllegalOrder as refusal:
            state.traced[key] = refusal.reason, refusal.code
            raise
        state.traced[key] = found = (tuple(legs), share, ground, climbs)
    if isinstance(found[0], str):
        raise IllegalOrder(found[0], code=found[1])
    return list(found[0]), found[1], found[2], found[3]


def _points_key(points: list[tuple[float, float]]) -> object:
    """The points as a key of `trace`'s store that tells apart every two lists whose legs
    differ: the legs keep the very numbers given, and -0.0 equals 0.0, so a list with a
    nought is written out; any other is kept as a tuple (`waypoints` gives finite floats
    alone, and two such floats but noughts are equal only when they are the same number),
    which costs far less than writing out its floats. A tuple never equals a text."""
    for x, y in points:
        if x == 0.0 or y == 0.0:
            return repr(points)
    return tuple(points)


def _trace(state: HouseClearingState, start: Position, points: list[tuple[float, float]],
           floor: Any) -> tuple[list[Position], float, float, tuple[str, ...]]:
    here = start
    stairs = paced = ground = 0.0
    legs: list[Position] = []
    climbs: list[tuple[str, float]] = []
    for x, y in points:
        floor_before = here.floor
        here, there = _leg_ends(state.sight, here, x, y)
        if here.floor != floor_before:
            stairs += FLOOR_CHANGE * floor_before  # down the stairs before leaving the room
        cost = leg_cost(state, here, there, paced)
        paced += cost.share
        climbs += cost.climbs
        ground += hypot(there.x - here.x, there.y - here.y)
        legs.append(there)
        here = there
    if floor is not None:
        here = _change_floor(state, here, floor)
        stairs += FLOOR_CHANGE * abs(here.floor - legs[-1].floor)
        legs[-1] = here
    return legs, stairs + _walking(climbs, paced, ground), ground, tuple(w for w, _ in climbs)


def _leg_ends(sight: SightEngine, here: Position, x: float,
              y: float) -> tuple[Position, Position]:
    """Where a straight leg from `here` to (x, y) starts and ends: a figure leaving its
    room from an upper floor goes down the stairs first, and it ends on its own floor in
    its own room, else on the ground."""
    section = sight.section_at((x, y))
    if section != here.section and here.floor > 0:
        here = Position(here.x, here.y, here.section, 0)
    return here, Position(x, y, section, here.floor if section == here.section else 0)


def step_through_wall(sight: SightEngine, start: Position, x: float, y: float) -> bool:
    """Whether `plan_move` refuses a straight move from `start` to (x, y) (no floor
    given) as going through a building wall, in one compiled call, for a player to pass
    over such a move cheaply: the full check traces the same leg. False says nothing.
    `sight` may be any fork of the scenario's engine (a side's own): no house-clearing
    order changes a section's walls."""
    here, there = _leg_ends(sight, start, x, y)
    return sight.move_blocked(here, there, through_windows=True)


def _walking(climbs: list[tuple[str, float]], paced: float, ground: float) -> float:
    """Ground and climbs: a whole-move climb leaves room for nothing else, the few inches
    to and from the wall being part of it."""
    whole = [c for c in climbs if c[1] >= CLIMB_WHOLE]
    if not whole:
        return paced + sum(share for _, share in climbs)
    if len(climbs) > 1 or ground > CLIMB_REACH + SLACK:
        raise IllegalOrder(f"climbing {whole[0][0]} takes the whole move: the figure may go "
                           f"at most {CLIMB_REACH:g}in in all, over that one wall",
                           code="too-far")
    return CLIMB_WHOLE


def leg_cost(state: HouseClearingState, a: Position, b: Position,
             before: float = 0.0) -> LegCost:
    """Share of a move for one straight leg, ground and climbs (IllegalOrder if blocked).
    `before` is the ground already paid for: the ground alone can make a path too long."""
    share = state.geometry.leg_share(a, b)
    if before + share > 1.0 + SLACK:
        raise IllegalOrder(f"that move takes more than a whole move over the ground alone "
                           f"({before + share:.2f})", code="too-far")
    check = _crossing(state.sight, a, b)
    if check.crosses_wall:
        raise IllegalOrder(f"cannot move from ({a.x:g}, {a.y:g}) to ({b.x:g}, {b.y:g}): it "
                           "goes through a building wall (use doors and windows)",
                           code="blocked")
    height = state.options.figure_height
    climbs: list[tuple[str, float]] = []
    for crossing in check.walls:
        if crossing.opening is OpeningKind.WINDOW:
            climbs.append((f"a window of {crossing.section_id}",
                           climb_share(state.options.window_sill, height, "the window")))
    for obstacle, _ in check.obstacles:
        climbs.append((f"{obstacle.kind} {obstacle.id!r}",
                       climb_share(obstacle.height, height, f"the {obstacle.kind} "
                                                            f"{obstacle.id!r}")))
    return LegCost(share, tuple(climbs))


# many paths share legs (the first of every walk from a place, in game after game): the
# rules' engine keeps what each leg crosses, in its own memo, which no player reaches
@per_query(limit=50_000)
def _crossing(sight: SightEngine, a: Position, b: Position) -> MoveCheck:
    # most legs meet no wall and no obstacle at all: one compiled call says so, where
    # the full check costs some twenty times as much to find nothing
    if meets_none(float(a.x), float(a.y), float(b.x), float(b.y), _met_rows(sight)):
        return NOTHING_MET
    return sight.move_check(a, b, through_windows=True)


#: what `SightEngine.move_check` finds of a leg that meets no wall and no obstacle
NOTHING_MET = MoveCheck(False, (), ())


@per_map()  # of the map alone
def _met_rows(sight: SightEngine) -> FloatArray:
    """Every row a move check may find a leg meets: the engine's edges (every wall, in
    any state, and the obstacles that block sight) and every obstacle's rows, made as the
    engine makes its own (each pair of points in turn)."""
    obstacles = [(*a, *b) for o in sight.battlefield.obstacles
                 for a, b in pairwise(o.points)]
    return np.vstack([sight.kernel_tables[EDGES],
                      np.array(obstacles, dtype=np.float64).reshape(-1, 4)])


@jit
def meets_none(ax: float, ay: float, bx: float, by: float, rows: Any) -> bool:
    """Whether segment ab meets none of `rows` (x0, y0, x1, y1), by the very test the
    move check makes of walls and obstacles (`segments_intersect`): then it finds none."""
    for k in range(rows.shape[0]):
        if segments_intersect(ax, ay, bx, by, rows[k, 0], rows[k, 1], rows[k, 2],
                              rows[k, 3]):
            return False
    return True


def climb_share(wall: float, figure: float, what: str) -> float:
    if wall <= CHEST_LINE * figure + SLACK:
        return CLIMB_HALF
    if wall <= CLIMB_LIMIT * figure + SLACK:
        return CLIMB_WHOLE
    raise IllegalOrder(f"{what} is {wall:g}in high: more than one and a half times a figure's "
                       "height, it cannot be climbed", code="too-high")


def _change_floor(state: HouseClearingState, here: Position, floor: Any) -> Position:
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


def _check_spacing(state: HouseClearingState, figure: Figure, end: Position) -> None:
    """Figures cannot share a place: none of its own side, nor an enemy its side sees."""
    memory = state.knowledge[figure.side].sightings
    for other in state.figures.values():
        near = other.pos.floor == end.floor and abs(other.pos.x - end.x) < SPACING \
            and abs(other.pos.y - end.y) < SPACING and other.pos.distance(end) < SPACING
        if not near or other is figure or not other.in_action:
            continue
        known = other.side == figure.side or (
            other.id in memory and memory[other.id].visible)
        if known:
            raise IllegalOrder(f"{other.name if other.side == figure.side else 'an enemy'} "
                               "already stands there", code="crowded")


def path_spots(start: Position, plan: MovePlan,
               state: HouseClearingState) -> tuple[list[Position], list[Stance]]:
    """Where along the path the mover can be seen: every PATH_SAMPLE inches and where it
    stops. It moves upright and takes its new stance where it stops."""
    spots: list[Position] = []
    here = start
    walked = 0.0
    next_at = PATH_SAMPLE
    for leg in plan.legs:
        if leg.section != here.section and here.floor > 0:
            # out of its room from an upper floor: down the stairs first, as `trace` takes
            # the leg, so it is seen on the ground floor on its way to the door
            here = Position(here.x, here.y, here.section, 0)
        length = here.distance(leg)
        while length > 0 and next_at < walked + length - SLACK:
            t = (next_at - walked) / length
            x, y = here.x + (leg.x - here.x) * t, here.y + (leg.y - here.y) * t
            section = state.sight.section_at((x, y))
            floor = leg.floor if section == leg.section else here.floor \
                if section == here.section else 0
            spots.append(Position(x, y, section, floor))
            next_at += PATH_SAMPLE
        walked += length
        here = leg
    spots.append(plan.legs[-1])
    stances = [Stance.STANDING] * (len(spots) - 1) + [plan.stance]
    return spots, stances
