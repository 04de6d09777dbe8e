"""Street-Fight games as one side may believe them to be: what a search plays forward
(`RuleSet.resample`). Everything the side has not observed is drawn again from what it
knows, never read from the game:

- an enemy figure in sight now stays as it is;
- one seen before stands where it was last seen, or, when the side's figures look at that
  place now and it is not there, somewhere it could have gone since (a run a turn) that
  none of them sees; one never seen stands in its side's deployment zone (public: the
  scenario's), or anywhere on the table, out of the side's sight;
- a hidden figure is as fresh as the side can assume: alive unless it was seen to fall,
  not aiming, not on overwatch, not in cover;
- the enemy is assumed to know where every figure of the side stands (the worst case: what
  it really knows depends on where its hidden figures really are).

So moving an enemy the side cannot see changes nothing drawn (tests/test_sampling.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import cos, pi, sin, sqrt

from fibua.battlefield.model import Position
from fibua.core.dice import Rng
from fibua.core.knowledge import Sure
from fibua.rulesets.street_fight.knowledge import refresh_sight
from fibua.rulesets.street_fight.state import Figure, Seen, StreetFightState
from fibua.rulesets.street_fight.tables import MOVE_MAX
from fibua.scenario.checks import floor_problem, off_table

#: tries at a place for one hidden figure before it is left where the side last knew it
TRIES = 40
#: the nearest a hidden figure is placed to a figure of the side, in inches
STAND_OFF = 3.0

#: a way of drawing a point of the table
Draw = Callable[[random.Random], tuple[float, float]]


def resample(state: StreetFightState, side: str, rng: random.Random) -> StreetFightState:
    """A copy of the game with what `side` has not observed drawn again (module doc)."""
    world = state.clone(Rng(rng.getrandbits(63)))
    enemy = world.enemy_of(side)
    memory = world.knowledge[side].sightings
    hidden = [f for f in world.roster(enemy)
              if not (memory.get(f.id) is not None and memory[f.id].visible)]
    watchers = world.side_figures(side)
    for figure in hidden:
        _refresh(figure, memory.get(figure.id))
        figure.pos = _place(world, figure, memory.get(figure.id), watchers, rng)
    world.lines.clear()
    world.sight_arrays.clear()
    refresh_sight(world, [f for f in world.figures.values() if f.alive])
    _knows_everything(world, enemy, side)
    world.pending.clear()
    return world


def _refresh(figure: Figure, known: Seen | None) -> None:
    """The hidden figure as the side can assume it: alive unless seen to fall, ready."""
    figure.alive = known.alive if known is not None else True
    figure.aim = 0
    figure.overwatch = None
    figure.took_cover = figure.full_cover = False
    figure.moved, figure.ran_last_turn, figure.fired = 0.0, False, False
    figure.fleeing_from, figure.sheltering = None, 0


def _place(world: StreetFightState, figure: Figure, known: Seen | None,
           watchers: list[Figure], rng: random.Random) -> Position:
    """Where a hidden figure may stand: out of every watcher's sight (module doc)."""
    if known is not None:
        last = Position(known.x, known.y, known.section, known.floor)
        if _unseen(world, last, watchers):
            return last
        reach = MOVE_MAX * max(1, world.turn - known.turn + 1)
        draw = _around(known.x, known.y, reach)
    else:
        draw = _in_zone(world, figure.side)
    standing: Position | None = None
    for _ in range(TRIES):
        place = _standing(world, draw(rng))
        if place is not None and _unseen(world, place, watchers):
            return place
        standing = standing or place
    # nowhere out of sight found: where it was last known, else a place it may stand
    if known is not None:
        return Position(known.x, known.y, known.section, known.floor)
    return standing if standing is not None else _centre(world)


def _around(x: float, y: float, reach: float) -> Draw:
    def draw(rng: random.Random) -> tuple[float, float]:
        angle, radius = rng.uniform(0, 2 * pi), reach * sqrt(rng.random())
        return x + radius * cos(angle), y + radius * sin(angle)
    return draw


def _in_zone(world: StreetFightState, side: str) -> Draw:
    zone = world.scenario.side(side).deployment
    table = world.battlefield.table
    points = zone if zone else [(0.0, 0.0), (table.width, table.height)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]

    def draw(rng: random.Random) -> tuple[float, float]:
        # the zone's bounding box: zones are simple polygons, mostly rectangles
        return rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))
    return draw


def _standing(world: StreetFightState, at: tuple[float, float]) -> Position | None:
    """A place a figure may stand at `at` (on the ground floor), if any."""
    scenario = world.scenario
    if off_table(scenario, at) is not None or floor_problem(scenario, world.sight, at, 0):
        return None
    return Position(at[0], at[1], world.sight.section_at(at), 0)


def _unseen(world: StreetFightState, place: Position, watchers: list[Figure]) -> bool:
    sight = world.sight
    return all(place.distance(w.pos) >= STAND_OFF and not sight.visible(w.pos, place)
               for w in watchers)


def _centre(world: StreetFightState) -> Position:
    table = world.battlefield.table
    at = (table.width / 2, table.height / 2)
    return Position(at[0], at[1], world.sight.section_at(at), 0)


def _knows_everything(world: StreetFightState, enemy: str, side: str) -> None:
    """The enemy's memory: every living figure of the side where it stands now."""
    turn = world.turn
    world.knowledge[enemy].reset(
        Seen(f.id, f.name, f.weapon, f.pos.x, f.pos.y, f.pos.section, f.pos.floor, turn,
             Sure.SEEN if any(world.can_see(e.id, f.id) for e in world.side_figures(enemy))
             else Sure.LAST_SEEN, f.counts_as_moving)
        for f in world.side_figures(side))
    world.logs.forget(enemy)
