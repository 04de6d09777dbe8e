"""Street Fighter games as one side may believe them to be: what a search plays forward
(`RuleSet.resample`). Control hides the enemy, so nearly everything about it is drawn
again from what the side knows (its memory of sightings, its reports of being fired on,
its own units and the public scenario), never read from the game:

- an enemy unit the side sees now stays as it is (place, activity, hits and pins: what
  the side watches it do);
- the fire the side reports: where a recent report (this turn or the last) is not
  explained by an enemy in sight that stands in the reported direction and sees the unit
  fired on, a hidden unit that can fire is placed in that eighth of the compass from the
  unit fired on (where it stands now), with a line of sight to it (mortars fire without
  one); one last seen that way is the first suspect, then one never seen, then any
  other; a report another drawn firer already explains takes none;
- any other hidden unit seen before stands where it was last seen, unless the side would
  pick it out there now (or holds the building area), else somewhere within a flat-out
  move a turn of that place since; one never seen stands in its side's deployment zone
  (public), spread by a flat-out move a turn since the game began; one that started in a
  vehicle (public: the scenario's order of battle) and was never seen rides in it while
  the vehicle is not known to be out;
- "unseen" is the rules' own spotting (knowledge.spotted) by every observer of the side
  with its formation's die, for the unit holding still at the place, and no hidden unit
  is put within `STAND_OFF` of a unit of the side or in a building area it holds;
- a hidden unit is as fresh as the side can assume: full hit points unless seen to fall
  (then out, where last seen), unpinned, holding still, riding only as above; a drawn
  firer fired when its report was made;
- the enemy's formations are not demoralised and roll a new observation die; its fire
  called down but not landed is forgotten; its artillery missions are the scenario's;
- the enemy is assumed to know where every unit of the side stands (the worst case),
  which of them are out, and to have no reports and no log; what it sees now is worked
  out again by the rules from the drawn places and dice (knowledge.refresh).

What the rules keep that follows from where units stand (the sight lines and signs in
the rules' memo, the building areas each side holds, who rides in what) is worked out
from the drawn places; events of the drawing are dropped. The side's own state is its
own, its formations' observation dice included (the rules keep those from the players;
the spotting the side already did shows them in part). So moving an enemy the side
cannot see changes nothing drawn (tests/test_search_street_fighter.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from math import cos, inf, pi, sin, sqrt

from shapely.geometry import Point, Polygon

from fibua.battlefield.model import Position
from fibua.core.dice import Rng
from fibua.core.knowledge import FireReport, Sure
from fibua.rulesets.street_fighter.actions import held_sections
from fibua.rulesets.street_fighter.forces import all_formations, placements
from fibua.rulesets.street_fighter.ground import compass
from fibua.rulesets.street_fighter.knowledge import (
    observers,
    recent_reports,
    refresh,
    spotted,
)
from fibua.rulesets.street_fighter.state import (
    Activity,
    Seen,
    StreetFighterState,
    Unit,
)
from fibua.rulesets.street_fighter.tables import COMPASS, Kind
from fibua.scenario.checks import floor_problem, off_table

#: draws of a place for one hidden unit before a wider draw is tried
TRIES = 40
#: the nearest a hidden unit is put to a unit of the side, in cm
STAND_OFF = 2.0
#: a flat-out move is this many normal moves: the farthest a unit goes in a turn
FLAT_OUT = 2.0
#: half the width of one point of the 8-point compass
HALF_POINT = pi / 8
#: hidden units tried as the firer of one report before it is left unexplained
SUSPECTS = 3
#: rounds of TRIES draws in the reported direction for one suspected firer
FIRER_DRAWS = 3
#: faces of the observation d10, read 0-9
DIE_FACES = 10

#: a way of drawing a point of the table
Draw = Callable[[random.Random], tuple[float, float]]


def resample(state: StreetFighterState, side: str, rng: random.Random) -> StreetFighterState:
    """A copy of the game with what `side` has not observed drawn again (module doc)."""
    world = state.clone(Rng(rng.getrandbits(63)))
    enemy = world.enemy_of(side)
    memory = world.knowledge[side].sightings
    roster = [u for u in world.units.values() if u.side == enemy]
    hidden = [u for u in roster if not _in_sight(memory.get(u.id))]
    _forget_enemy_state(world, enemy, roster)
    done = world.acting > world.sides.index(enemy)  # the enemy's orders this turn are given
    for unit in hidden:
        _freshen(unit, memory.get(unit.id), done)
    _roll_dice(world, enemy, rng)
    riders = _riders(world, enemy, hidden, memory)
    ground = Ground(world, side, rng)
    placed = _place_firers(ground, [u for u in hidden if u.id not in riders and u.alive],
                           memory)
    for unit in hidden:
        if unit.id not in riders and unit.id not in placed:
            unit.pos = ground.place(unit, memory.get(unit.id))
    _board(world, riders)
    _knows_everything(world, enemy, side)
    refresh(world)
    world.pending.clear()
    return world


def _in_sight(known: Seen | None) -> bool:
    return known is not None and known.visible


def _forget_enemy_state(world: StreetFighterState, enemy: str, roster: list[Unit]) -> None:
    """What the rules keep of the enemy that the side never saw: its morale, its fire to
    come, its missions spent, who rides in its vehicles, Control's rolls and picks."""
    for formation in world.formations.values():
        if formation.side == enemy:
            formation.demoralised = False
    world.markers = [m for m in world.markers if m.side != enemy]
    world.artillery[enemy] = world.scenario.forces_of(enemy).artillery
    world.knowledge[enemy].reset()  # what it saw and the fire reported to it
    world.rolls.clear()
    for uid in [u.id for u in roster if u.id in world.deployment]:
        del world.deployment[uid]
    for unit in roster:
        unit.passengers = []


def _freshen(unit: Unit, known: Seen | None, done: bool) -> None:
    """A hidden unit as the side can assume it: whole unless seen to fall, ready."""
    unit.hp = 0 if known is not None and not known.alive else unit.start_hp
    unit.surrendered = unit.pinned = False
    unit.pinned_turn = unit.last_fired_turn = 0
    unit.activity = Activity.IDLE
    unit.acted = done
    unit.rides = None
    if known is not None:  # where it was last seen, until drawn again
        unit.pos = Position(known.x, known.y, known.section)


def _roll_dice(world: StreetFighterState, enemy: str, rng: random.Random) -> None:
    """The enemy's observation dice, which Control keeps secret: rolled again."""
    for formation in world.formations.values():
        if formation.side == enemy:
            alive = any(world.units[u].alive for u in formation.units)
            formation.die = rng.randrange(DIE_FACES) if alive else None


def _riders(world: StreetFighterState, enemy: str, hidden: list[Unit],
            memory: Mapping[str, Seen]) -> dict[str, str]:
    """Hidden units never seen that started in a vehicle still in the fight as far as the
    side knows: each rides in it (unit id -> vehicle id)."""
    start = {p.id: p.rides for spec in all_formations(world.scenario.forces_of(enemy))
             for p in placements(spec)}
    out: dict[str, str] = {}
    for unit in hidden:
        vehicle = start.get(unit.id)
        if vehicle is None or unit.id in memory or not unit.alive:
            continue
        carrier = world.units.get(vehicle)
        if carrier is not None and carrier.alive and carrier.spec.capacity > sum(
                1 for v in out.values() if v == vehicle):
            out[unit.id] = vehicle
    return out


def _board(world: StreetFighterState, riders: dict[str, str]) -> None:
    for uid, vid in riders.items():
        unit, vehicle = world.units[uid], world.units[vid]
        unit.rides = vid
        unit.pos = vehicle.pos
        vehicle.passengers.append(uid)


@dataclass
class Ground:
    """Where a hidden enemy unit may stand in one world: out of the side's sight."""

    world: StreetFighterState
    side: str
    rng: random.Random

    def __post_init__(self) -> None:
        self.eyes = observers(self.world, self.side)
        self.own = [u.pos for u in self.world.side_units(self.side)]
        self.held = held_sections(self.world, self.side)

    def place(self, unit: Unit, known: Seen | None) -> Position:
        """A hidden unit's place (module doc)."""
        if known is not None:
            last = Position(known.x, known.y, known.section)
            if not unit.alive or self.hides(unit, last):
                return last
            draw = around(known.x, known.y, self.reach(unit, self.world.turn - known.turn))
            fallback: Position | None = last
        else:
            draw, fallback = self.in_zone(unit), None
        found = self.first(unit, [draw, self.anywhere()], lambda _: True)
        return found or fallback or self.somewhere(unit, draw)

    def somewhere(self, unit: Unit, draw: Draw) -> Position:
        """Nowhere hidden found (a table the side sees whole): a place the unit may stand,
        else the middle of the table."""
        for _ in range(TRIES):
            place = self.stands(unit, draw(self.rng))
            if place is not None:
                return place
        table = self.world.battlefield.table
        at = (table.width / 2, table.height / 2)
        return Position(at[0], at[1], self.world.sight.section_at(at))

    def first(self, unit: Unit, draws: Iterable[Draw],
              fits: Callable[[Position], bool]) -> Position | None:
        """The first drawn place where the unit hides and that `fits`, TRIES of each
        way of drawing in turn; None if none."""
        for draw in draws:
            for _ in range(TRIES):
                place = self.stands(unit, draw(self.rng))
                if place is not None and fits(place) and self.hides(unit, place):
                    return place
        return None

    def reach(self, unit: Unit, turns: int) -> float:
        return FLAT_OUT * unit.spec.move * max(1, turns + 1)

    def stands(self, unit: Unit, at: tuple[float, float]) -> Position | None:
        """The unit's place at `at`, if it may stand there (vehicles keep out of building
        areas, nobody is in one the side holds)."""
        scenario, sight = self.world.scenario, self.world.sight
        if off_table(scenario, at) is not None or floor_problem(scenario, sight, at, 0):
            return None
        section = sight.section_at(at)
        if section is not None and (unit.spec.vehicle or section in self.held):
            return None
        return Position(at[0], at[1], section)

    def hides(self, unit: Unit, place: Position) -> bool:
        """Whether no unit of the side stands close to the place nor picks the unit out
        there, holding still: the rules' own spotting, with the side's dice."""
        if place.section is not None and place.section in self.held:
            return False
        if any(place.distance(p) < STAND_OFF for p in self.own):
            return False
        if not self.eyes:
            return True
        lines = self.world.sight.visible_matrix([e.pos for e in self.eyes], [place])[:, 0]
        was = unit.pos
        unit.pos = place
        try:
            return not any(bool(line) and spotted(self.world, eye, unit)
                           for eye, line in zip(self.eyes, lines, strict=True))
        finally:
            unit.pos = was

    def in_zone(self, unit: Unit) -> Draw:
        """A point of the unit's side's deployment zone (the whole table without one),
        moved by as far as the unit could have gone since the game began."""
        table = self.world.battlefield.table
        zone = self.world.scenario.side(unit.side).deployment or [
            (0.0, 0.0), (table.width, 0.0), (table.width, table.height), (0.0, table.height)]
        shape = Polygon(zone)
        x0, y0, x1, y1 = shape.bounds
        spread = self.reach(unit, self.world.turn - 2) if self.world.turn > 1 else 0.0

        def draw(rng: random.Random) -> tuple[float, float]:
            for _ in range(TRIES):
                x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
                if shape.covers(Point(x, y)):
                    break
            return around(x, y, spread)(rng)
        return draw

    def anywhere(self) -> Draw:
        table = self.world.battlefield.table

        def draw(rng: random.Random) -> tuple[float, float]:
            return rng.uniform(0, table.width), rng.uniform(0, table.height)
        return draw


def around(x: float, y: float, reach: float) -> Draw:
    """A point within `reach` of (x, y), evenly over the disc."""
    def draw(rng: random.Random) -> tuple[float, float]:
        angle, radius = rng.uniform(0, 2 * pi), reach * sqrt(rng.random())
        return x + radius * cos(angle), y + radius * sin(angle)
    return draw


def toward(origin: Position, direction: str, width: float, height: float) -> Draw:
    """A point of the table in the eighth of the compass `direction` from `origin`."""
    centre = COMPASS.index(direction) * pi / 4

    def draw(rng: random.Random) -> tuple[float, float]:
        angle = centre + rng.uniform(-HALF_POINT, HALF_POINT)
        dx, dy = cos(angle), sin(angle)
        # as far as the table's edge along that bearing
        far = min(_to_edge(origin.x, dx, width), _to_edge(origin.y, dy, height))
        radius = rng.uniform(STAND_OFF, max(STAND_OFF, far))
        return origin.x + radius * dx, origin.y + radius * dy
    return draw


def _to_edge(at: float, step: float, size: float) -> float:
    """How far from `at` a line going `step` a unit length reaches 0 or `size`."""
    if step > 1e-9:
        return (size - at) / step
    if step < -1e-9:
        return -at / step
    return inf


# ---------------------------------------------------------------- the fire reported


def _place_firers(ground: Ground, suspects: list[Unit],
                  memory: Mapping[str, Seen]) -> set[str]:
    """Hidden firers put where the side's reports of being fired on point (module doc).
    Returns the ids of the units placed."""
    world = ground.world
    shooters = [world.units[i] for i, s in memory.items()
                if s.visible and world.units[i].spec.row is not None]
    firing = [u for u in suspects if u.spec.row is not None]
    placed: set[str] = set()
    for report in _distinct(recent_reports(world, ground.side)):
        origin = world.units[report.unit].pos
        if any(fired_from(world, u, u.pos, report)
               for u in [*shooters, *(world.units[i] for i in placed)]):
            continue  # fire from an enemy in sight, or one already drawn
        for unit in _suspects(ground, report, origin, firing, placed, memory)[:SUSPECTS]:
            where = _firing_place(ground, unit, report, origin, memory.get(unit.id))
            if where is not None:
                unit.pos = where
                unit.last_fired_turn = report.turn
                placed.add(unit.id)
                break
    return placed


def _distinct(reports: list[FireReport]) -> list[FireReport]:
    """The reports, newest first, each (unit, direction, turn) once."""
    seen: set[tuple[str, str, int]] = set()
    out = []
    for r in reversed(reports):
        key = (r.unit, r.direction, r.turn)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _suspects(ground: Ground, report: FireReport, origin: Position, firing: list[Unit],
              placed: set[str], memory: Mapping[str, Seen]) -> list[Unit]:
    """Who may have fired, the likeliest first: last seen in the reported direction, then
    never seen, then the rest, each group in a drawn order."""
    groups: list[list[Unit]] = [[], [], []]
    for unit in firing:
        if unit.id in placed:
            continue
        known = memory.get(unit.id)
        if known is None:
            groups[1].append(unit)
        elif compass(origin.point, (known.x, known.y)) == report.direction:
            groups[0].append(unit)
        else:
            groups[2].append(unit)
    for group in groups:
        ground.rng.shuffle(group)
    return [u for group in groups for u in group]


def _firing_place(ground: Ground, unit: Unit, report: FireReport, origin: Position,
                  known: Seen | None) -> Position | None:
    """A place in the reported direction where the unit hides from the side and, but for
    a mortar, sees the unit it fired on."""
    world = ground.world
    table = world.battlefield.table
    draws = [toward(origin, report.direction, table.width, table.height)] * FIRER_DRAWS
    if known is not None:  # near where it was last seen, if that can be in the direction
        draws.insert(0, around(known.x, known.y, ground.reach(unit, world.turn - known.turn)))
    return ground.first(unit, draws, lambda place: fired_from(world, unit, place, report))


def fired_from(world: StreetFighterState, unit: Unit, place: Position, report: FireReport) -> bool:
    """Whether the unit could have made the fire reported from the place: in the reported
    eighth of the compass from the unit fired on and, but for a mortar, in sight of it."""
    origin = world.units[report.unit].pos
    return compass(origin.point, place.point) == report.direction and (
        unit.kind is Kind.MORTAR or world.sight.visible(place, origin))


def _knows_everything(world: StreetFighterState, enemy: str, side: str) -> None:
    """The enemy's memory: every unit of the side where it stands now, and which are out;
    whether it sees them now is the rules' to say (`refresh`)."""
    turn = world.turn
    world.knowledge[enemy].reset(
        Seen(u.id, u.name, u.kind, u.pos.x, u.pos.y, u.pos.section, 0, turn, Sure.LAST_SEEN,
             u.activity is Activity.FLAT_OUT, u.alive)
        for u in world.units.values() if u.side == side)
    world.logs.forget(enemy)
