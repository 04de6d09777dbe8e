"""Buildings games as one side may believe them to be: what a search plays forward
(`RuleSet.resample`). Everything the side has not observed is drawn again from what it
knows, never read from the game. What a side knows: its own units, its memory of the enemy
(`knowledge`: where each enemy unit was last seen, with how many models and its order), and
what is public (the scenario's rosters and deployment zones, the turn, the dice left in
the bag and whose die is drawn, the sections' states, which units are destroyed: every
destruction is told to both sides by name, the units each side has destroyed).

- An enemy unit in sight now stays as it is, all but the troops its transport carries.
- Every other enemy unit is made again from its side's roster in the scenario (its kind,
  weapons, quality), nothing of it copied from the game:
  - its models: as many as were last seen (all, if never seen), the ones the rules take
    off last kept (`survivors`); outside, they stand in the roster's formation;
  - where it stands: where it was last seen, inside a section's floor or outside, when
    that place is out of the side's sight now and no unit known or drawn holds that
    floor; else somewhere it could have reached since (a Run a turn from there: outside,
    or a free floor of an intact section whose middle is within reach), out of sight;
    one never seen stands in its side's deployment zone (outside, or on a free floor of
    an intact section whose middle is in the zone), out of sight; where a few draws
    find no such place, a few draws anywhere on the table, then the hiding place nearest
    where it was last seen (or its zone's middle) over every floor and a grid of the
    table, and only if the side sees the whole table, where it was last seen. A gun is
    drawn inside only on a ground floor with an opening, which it is given as its fixed
    opening; a vehicle is never drawn inside; no unit goes inside when
    the scenario keeps units out of buildings. Outside, no model comes nearer than
    `STAND_OFF` to a model of the side;
  - its order die: the enemy's dice left in the bag are public, so that many of its
    hidden units (less its units in sight with no order) keep their die, drawn at random;
    the others have spent it on a Fire order (no Down to be hit at -2, no reaction, no
    Ambush to spring). A unit last seen this turn with an order keeps that order (it
    has spent its die, and the side saw on what), so a known Ambush waits still; the
    firer of a shot waiting for the side's answer has spent its die;
  - no pins, not shaken, not immobilised, no one-shot weapon fired, its half-strength
    test taken if it is at half strength or less (and passed: it is still there);
  - a unit never seen that the scenario puts aboard a transport still rides in it while
    the transport lives; every other unit is on foot and every transport empty.
- The enemy is assumed to know where every unit of the side stands (the worst case: what
  it really knows depends on where its hidden units really are), its log is forgotten,
  its calls for air strikes and barrages not yet arrived, its indirect fire's ranging and
  the barrages its observers have called are unknown and dropped (it may call them all).
- The shot waiting for the side's answer and a strike or barrage arriving stay: the side
  is answering them. Whose shot it is (the firer may be hidden: indirect fire, a strike)
  is kept as the rules hold it; the firer stands where it is drawn.
- Sight memories are brought up to date from the drawn places (`knowledge.refresh`),
  and the enemy's own fork of the sight engine is made afresh.

So moving an enemy the side cannot see changes nothing drawn (tests/test_search_buildings.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from math import cos, dist, pi, sin, sqrt

from shapely.geometry import Point, Polygon

from fibua.battlefield.model import SectionState
from fibua.core.dice import Rng
from fibua.core.knowledge import Sure
from fibua.rulesets.buildings.forces import Forces, UnitSpec
from fibua.rulesets.buildings.geometry import centroid
from fibua.rulesets.buildings.knowledge import refresh, seen_by, sighting
from fibua.rulesets.buildings.morale import half_strength
from fibua.rulesets.buildings.setup import unit_of
from fibua.rulesets.buildings.state import BuildingsState, Model, Seen, Unit, models_seen
from fibua.rulesets.buildings.tables import (
    MOVEMENT,
    OrderKind,
    UnitKind,
    WeaponName,
)
from fibua.rulesets.buildings.transport import carry

#: tries at a place for one hidden unit, near where it was or in its zone, then anywhere
TRIES = 30
#: the nearest a hidden unit's model is placed to a model of the side, in inches
STAND_OFF = 2.0
#: the share of draws that put a unit able to be inside on a floor of a section
INSIDE_SHARE = 0.5
#: the spacing of the grid of places looked at when no draw hides a unit, in inches
GRID = 1.5
#: the randomness of the order those places are looked at in, in inches
JITTER = 3.0
#: weapons the rules take off first, leader last (losses.remove_models)
PLAIN = frozenset({WeaponName.RIFLE, WeaponName.SMG, WeaponName.ASSAULT_RIFLE, None})


@dataclass(frozen=True, slots=True)
class Place:
    """Where a unit may stand: outside, its first model at (x, y); or inside, a floor of a
    section (a gun with its fixed opening)."""

    x: float
    y: float
    section: str | None = None
    floor: int = 0
    opening: int | None = None


#: a way of drawing a place
Draw = Callable[[random.Random], Place | None]


def resample(state: BuildingsState, side: str, rng: random.Random) -> BuildingsState:
    """A copy of the game with what `side` has not observed drawn again (module doc)."""
    world = state.clone(Rng(rng.getrandbits(63)))
    enemy = world.enemy_of(side)
    memory = world.knowledge[side].sightings
    dice = _enemy_dice(world, enemy)
    specs = {s.id: s for s in _forces(world, enemy).units}
    hidden = sorted(u.id for u in world.units.values()
                     if u.side == enemy and not _in_sight(memory, u.id))
    for uid in hidden:
        world.units[uid] = _fresh(world, specs[uid], memory.get(uid),
                                  world.units[uid].destroyed)
    for unit in world.units.values():
        if unit.side == enemy:
            unit.carrying = None
    alive = [world.units[uid] for uid in hidden if world.units[uid].alive]
    riders = _riders(world, alive, specs, memory)
    _draw_orders(world, enemy, alive, memory, dice, rng)
    _place_all(world, side, [u for u in alive if u.id not in riders], memory, rng)
    for uid, ride in sorted(riders.items()):
        carry(world.units[ride], world.units[uid])
    _forget_enemy_plans(world, enemy)
    _knows_everything(world, enemy, side)
    refresh(world)
    world.pending.clear()
    return world


def _forces(world: BuildingsState, side: str) -> Forces:
    forces: Forces = world.scenario.forces_of(side)
    return forces


def _in_sight(memory: Mapping[str, Seen], uid: str) -> bool:
    known = memory.get(uid)
    return known is not None and known.visible


def _enemy_dice(world: BuildingsState, enemy: str) -> int:
    """How many enemy units have no order yet: the enemy's dice the side sees in the bag,
    and the die drawn and not yet given if it is the enemy's (`BuildingsState.bag`)."""
    left = world.bag().count(enemy)
    if world.drawn == enemy and world.waiting is None:
        left += 1
    return left


# ------------------------------------------------------------------ a unit made again


def _fresh(world: BuildingsState, spec: UnitSpec, known: Seen | None,
           destroyed: bool) -> Unit:
    """The unit as the side can assume it (module doc), standing where it was last seen
    until it is placed."""
    unit = unit_of(world.battlefield, world.units[spec.id].side, spec)
    count = models_seen(known) if known is not None else unit.start
    unit.models = [unit.models[i] for i in survivors(spec.model_weapons(), max(1, count))]
    unit.half_tested = half_strength(unit.start, len(unit.models))
    unit.destroyed = destroyed
    unit.opening = None
    if known is not None:
        _put(world, unit, Place(known.x, known.y, known.section, known.floor), spec)
    else:
        _put(world, unit, _zone_middle(world, unit.side), spec)
    return unit


def survivors(weapons: list[WeaponName | None], n: int) -> list[int]:
    """Which of a unit's models (by index) are left once it has lost all but n, taken off
    as the rules take them (`losses.remove_models`): plain riflemen first, the last first,
    the leader last."""
    left = list(range(len(weapons)))
    while len(left) > n:
        order = sorted(range(len(left)), key=lambda i: (
            i == 0, weapons[left[i]] not in PLAIN, -i))
        left.pop(order[0])
    return left


def _riders(world: BuildingsState, alive: list[Unit], specs: dict[str, UnitSpec],
            memory: Mapping[str, Seen]) -> dict[str, str]:
    """Hidden units never seen whose roster puts them aboard a transport still alive."""
    out: dict[str, str] = {}
    for unit in alive:
        ride = specs[unit.id].aboard
        if unit.id in memory or ride is None or not world.units[ride].alive:
            continue
        if ride not in out.values():
            out[unit.id] = ride
    return out


def _draw_orders(world: BuildingsState, enemy: str, alive: list[Unit],
                 memory: Mapping[str, Seen], dice: int, rng: random.Random) -> None:
    """Which hidden units still hold their order die (module doc)."""
    waiting = world.waiting
    firer = waiting.firer if waiting is not None else None
    open_: list[Unit] = []
    for unit in alive:
        known = memory.get(unit.id)
        if known is not None and known.turn == world.turn and known.doing is not None:
            unit.order = known.doing
        elif unit.id == firer:
            unit.order = OrderKind.FIRE
        else:
            open_.append(unit)
    in_sight = sum(1 for u in world.side_units(enemy)
                   if _in_sight(memory, u.id) and u.order is None)
    keep = min(len(open_), max(0, dice - in_sight))
    holding = {u.id for u in rng.sample(open_, keep)}
    for unit in open_:
        unit.order = None if unit.id in holding else OrderKind.FIRE


# ------------------------------------------------------------------ where units stand


def _place_all(world: BuildingsState, side: str, units: list[Unit],
               memory: Mapping[str, Seen], rng: random.Random) -> None:
    """Each hidden unit placed in turn (by id), out of the side's sight, on a floor no
    unit known or placed before it holds."""
    watchers = world.side_units(side)
    specs = {s.id: s for s in _forces(world, world.enemy_of(side)).units}
    placed = {u.id for u in world.units.values() if u.alive} - {u.id for u in units}
    for unit in units:
        place = _where(world, unit, specs[unit.id], memory.get(unit.id), watchers,
                       placed, rng)
        _put(world, unit, place, specs[unit.id])
        placed.add(unit.id)


def _where(world: BuildingsState, unit: Unit, spec: UnitSpec, known: Seen | None,
           watchers: list[Unit], placed: set[str], rng: random.Random) -> Place:
    def hides(place: Place | None) -> bool:
        return place is not None and _fits(world, unit, place, placed) \
            and _unseen(world, unit, spec, place, watchers)

    last: Place | None = None
    if known is None:
        draw = _in_zone(world, unit)
    else:
        last = _with_opening(world, unit, Place(known.x, known.y, known.section,
                                                known.floor), rng)
        if hides(last):
            return last
        turns = max(1, world.turn - known.turn + 1)
        draw = _around(world, unit, last, _reach(unit, last) * turns)
    for way in (draw, _anywhere(world, unit)):
        for _ in range(TRIES):
            place = way(rng)
            if hides(place):
                assert place is not None
                return place
    # no draw hid it (a table the side overlooks): the nearest hiding place, looked for
    # over every floor and a grid of the table
    anchor = last if last is not None else _zone_middle(world, unit.side)
    for place in _everywhere(world, unit, anchor, rng):
        if hides(place):
            return place
    return anchor  # nowhere at all out of sight


def _everywhere(world: BuildingsState, unit: Unit, anchor: Place,
                rng: random.Random) -> list[Place]:
    """Every floor the unit may be on and the points of a grid over the table, nearest
    the anchor first (give or take `JITTER`)."""
    field = world.battlefield
    table = field.table
    places: list[Place] = []
    if _can_be_inside(world, unit):
        for sid in field.section_ids:
            cx, cy = centroid(field.section(sid))
            places += [_with_opening(world, unit, Place(cx, cy, sid, f), rng)
                       for f in range(1 if unit.kind is UnitKind.GUN
                                      else field.section(sid).levels)]
    columns, rows = int(table.width / GRID), int(table.height / GRID)
    places += [Place((i + 0.5) * table.width / columns, (j + 0.5) * table.height / rows)
               for i in range(columns) for j in range(rows)]
    keyed = [(dist((p.x, p.y), (anchor.x, anchor.y)) + rng.uniform(0, JITTER), k)
             for k, p in enumerate(places)]
    return [places[k] for _, k in sorted(keyed)]


def _reach(unit: Unit, last: Place) -> float:
    """How far a unit may go in a turn from where it was last seen (a Run, else an
    Advance)."""
    if unit.kind is UnitKind.GUN and last.section is not None:
        return 0.0  # a gun set up inside keeps its opening
    rate = MOVEMENT[unit.mobility]
    return rate.run if rate.run is not None else rate.advance


def _can_be_inside(world: BuildingsState, unit: Unit) -> bool:
    return world.options.enter_buildings and unit.kind is not UnitKind.VEHICLE


def _around(world: BuildingsState, unit: Unit, last: Place, reach: float) -> Draw:
    near = [sid for sid in world.battlefield.section_ids
            if dist(centroid(world.battlefield.section(sid)), (last.x, last.y)) <= reach]

    def draw(rng: random.Random) -> Place | None:
        if near and _can_be_inside(world, unit) and rng.random() < INSIDE_SHARE:
            return _floor_of(world, unit, rng.choice(near), rng)
        angle, radius = rng.uniform(0, 2 * pi), reach * sqrt(rng.random())
        return Place(last.x + radius * cos(angle), last.y + radius * sin(angle))
    return draw


def _in_zone(world: BuildingsState, unit: Unit) -> Draw:
    zone = world.scenario.side(unit.side).deployment
    if not zone:
        return _anywhere(world, unit)
    shape = Polygon(zone)
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    inside = [sid for sid in world.battlefield.section_ids
              if shape.covers(Point(centroid(world.battlefield.section(sid))))]

    def draw(rng: random.Random) -> Place | None:
        if inside and _can_be_inside(world, unit) and rng.random() < INSIDE_SHARE:
            return _floor_of(world, unit, rng.choice(inside), rng)
        at = (rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys)))
        return Place(*at) if shape.covers(Point(at)) else None
    return draw


def _anywhere(world: BuildingsState, unit: Unit) -> Draw:
    table = world.battlefield.table
    sections = world.battlefield.section_ids

    def draw(rng: random.Random) -> Place | None:
        if sections and _can_be_inside(world, unit) and rng.random() < INSIDE_SHARE:
            return _floor_of(world, unit, rng.choice(sections), rng)
        return Place(rng.uniform(0, table.width), rng.uniform(0, table.height))
    return draw


def _floor_of(world: BuildingsState, unit: Unit, sid: str, rng: random.Random) -> Place:
    """A floor of the section (a gun: the ground floor, at one of its openings)."""
    section = world.battlefield.section(sid)
    cx, cy = centroid(section)
    if unit.kind is UnitKind.GUN:
        return _with_opening(world, unit, Place(cx, cy, sid, 0), rng)
    return Place(cx, cy, sid, rng.randrange(section.levels))


def _with_opening(world: BuildingsState, unit: Unit, place: Place,
                  rng: random.Random) -> Place:
    """A gun inside is given one of its floor's openings to fire through (none found:
    the place will not fit)."""
    if unit.kind is not UnitKind.GUN or place.section is None or place.floor != 0:
        return place
    section = world.battlefield.section(place.section)
    ports = [k for k, o in enumerate(section.openings) if o.floor == 0]
    if not ports:
        return place
    return replace(place, opening=ports[rng.randrange(len(ports))])


def _fits(world: BuildingsState, unit: Unit, place: Place, placed: set[str]) -> bool:
    """Whether the unit may stand there: outside, every model on the table and out of
    standing buildings; inside, a free floor of an intact section it may be in."""
    if place.section is None:
        return True  # the models are checked once the roster's formation is known
    sight, field = world.sight, world.battlefield
    if not _can_be_inside(world, unit) or sight.section_state(place.section) \
            is not SectionState.INTACT:
        return False
    if place.floor >= field.section(place.section).levels:
        return False
    if unit.kind is UnitKind.GUN and (place.floor != 0 or place.opening is None):
        return False
    return not any(world.units[uid].section == place.section
                   and world.units[uid].floor == place.floor for uid in placed)


def _standing(world: BuildingsState, models: list[Model]) -> bool:
    table, sight = world.battlefield.table, world.sight
    for m in models:
        if not (0 <= m.x <= table.width and 0 <= m.y <= table.height):
            return False
        sid = sight.section_at((m.x, m.y))
        if sid is not None and sight.section_state(sid) is not SectionState.RUBBLE:
            return False
    return True


def _unseen(world: BuildingsState, unit: Unit, spec: UnitSpec, place: Place,
            watchers: list[Unit]) -> bool:
    """Put there, the unit stands where it may and no unit of the side sees it."""
    _put(world, unit, place, spec)
    if place.section is None:
        if not _standing(world, unit.models):
            return False
        near = [(m.x, m.y) for w in watchers if w.section is None and w.aboard is None
                for m in w.models]
        if any(dist((m.x, m.y), p) < STAND_OFF for m in unit.models for p in near):
            return False
    return not seen_by(world, watchers, [unit])[0]


def _put(world: BuildingsState, unit: Unit, place: Place, spec: UnitSpec) -> None:
    """Stand the unit at the place: outside, its models in the roster's formation from
    its first; inside, at the section's middle."""
    unit.aboard = None
    unit.section, unit.floor, unit.opening = place.section, place.floor, place.opening
    if place.section is not None:
        cx, cy = centroid(world.battlefield.section(place.section))
        for m in unit.models:
            m.x, m.y = cx, cy
        return
    offsets = _formation(spec, len(unit.models))
    for m, (dx, dy) in zip(unit.models, offsets, strict=True):
        m.x, m.y = place.x + dx, place.y + dy


def _formation(spec: UnitSpec, n: int) -> list[tuple[float, float]]:
    """Each model's offset from the first in the roster's set-up, for the n left."""
    x0, y0 = spec.models[0].at
    return [(spec.models[i].at[0] - x0, spec.models[i].at[1] - y0)
            for i in survivors(spec.model_weapons(), n)]


def _zone_middle(world: BuildingsState, side: str) -> Place:
    zone = world.scenario.side(side).deployment
    table = world.battlefield.table
    if not zone:
        return Place(table.width / 2, table.height / 2)
    return Place(sum(p[0] for p in zone) / len(zone), sum(p[1] for p in zone) / len(zone))


# ------------------------------------------------------------------ the enemy's mind


def _forget_enemy_plans(world: BuildingsState, enemy: str) -> None:
    """The enemy's calls not yet arrived, its ranging and its barrages called: not the
    side's to know."""
    mine = {u.id for u in world.units.values() if u.side != enemy}
    world.calls = [c for c in world.calls if c.side != enemy]
    world.ranging = {k: r for k, r in world.ranging.items() if k.split(">")[0] in mine}
    world.barrages_called = {k: n for k, n in world.barrages_called.items() if k in mine}
    world.side_sight.pop(enemy, None)


def _knows_everything(world: BuildingsState, enemy: str, side: str) -> None:
    """The enemy's memory: every living unit of the side where it stands now."""
    mine = world.side_units(side)
    sees = seen_by(world, world.side_units(enemy), mine)
    world.knowledge[enemy].reset(sighting(world, u, Sure.SEEN if v else Sure.LAST_SEEN)
                                 for u, v in zip(mine, sees, strict=True))
    world.logs.forget(enemy)


def strength(state: BuildingsState, side: str) -> float:
    """What is left of a side: each unit in the fight counts half for its order die and
    half for the share of its models still standing (a tank and a squad weigh alike)."""
    return sum(0.5 + 0.5 * len(u.models) / u.start for u in state.side_units(side))
