"""Control: the computer player. It decides from its side's view alone (what its troops
have observed, the reports of being fired on, the public map and objectives), never from
the state, so it cannot act on anything the side has not seen.

Doctrine when defending: hold the building areas, keep quiet and observe, spring the
ambush at short range, move a sniper after it fires, keep anti-tank guns on the streets,
bring mortars down on what is seen, and counter-attack with tanks or reserves when a
building area of the objective is lost or the enemy is at its door and it pays.
Doctrine when attacking: ride forward, dismount short of the objective, close assault
each building area of it together, shoot what can be hurt, tanks in support.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import atan2, cos, pi, sin

from shapely.geometry import Point, Polygon

from fibua.battlefield.model import Position
from fibua.battlefield.sight import PositionArrays, SightEngine, per_map
from fibua.core.errors import IllegalOrder
from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.core.ruleset import commands
from fibua.rulesets.street_fighter.combat import can_harm
from fibua.rulesets.street_fighter.ground import (
    cover_for,
    distance_to_section,
    in_cover,
    range_between,
    section_spots,
    surely_beyond,
)
from fibua.rulesets.street_fighter.paths import Route, route
from fibua.rulesets.street_fighter.shooting import Shot, band, hit_chance
from fibua.rulesets.street_fighter.state import Seen, Unit
from fibua.rulesets.street_fighter.tables import (
    CATALOGUE,
    FOOT_MOVE,
    INDIRECT_RADIUS,
    Body,
    Cover,
    Kind,
    Row,
)
from fibua.rulesets.street_fighter.views import SideView
from fibua.scenario.schema import VictorySpec

AMBUSH_RANGE = 20.0  # cm: hidden defenders hold their fire until the enemy is this close
REACH = 4.0  # cm from a building area: close enough to assault it
DISMOUNT_AT = 3.0  # cm of route left to the assault position when passengers get out
STANDOFF = 12.0  # cm of route tanks keep short of the objective
COUNTER_RANGE = 15.0  # cm: enemy this close to a held area calls for a counter-attack
DANGER_CLOSE = 2 * INDIRECT_RADIUS  # no indirect fire this close to friends
FRESH = 1  # turns a sighting stays worth acting on once out of view
VALUE = {Body.TANK: 3.0, Body.GUN: 3.0, Body.FOOT: 2.0, Body.ARMOURED: 1.5, Body.SOFT: 1.0}
EXIT_STEP = 1.5  # cm outside a door or window where a unit leaving a building stands
GATHER_POINTS = 16  # assault points worth waiting for before going in
MIN_SHOT = 0.15  # expected value below which a unit observes instead of firing
COVER_HEADINGS = 16  # directions searched for a place in cover
SCOUT_SHOT = 0.3  # expected value worth a scout car's stopping to fire
HQ_BEHIND = 5.0  # cm of route a headquarters' vehicle keeps behind the foremost unit


VEHICLE = {kind: spec.vehicle for kind, spec in CATALOGUE.items()}


@dataclass(frozen=True, slots=True)
class Threat:
    id: str
    kind: Kind
    pos: Position
    visible: bool
    turn: int
    flat_out: bool  # seen moving flat out: harder to hit

    @property
    def body(self) -> Body:
        return CATALOGUE[self.kind].body


#: (expected value, range, target, extra order parameters) of one possible firing
ShotChoice = tuple[float, float, Threat, dict[str, object]]


class Control:
    def __init__(self, side: str, seed: int, units: frozenset[str] | None = None) -> None:
        self.side = side
        self.units = units  # the units of the seat it plays; None for the whole side
        self.seed = seed  # the doctrine is deterministic: the same view, the same orders
        self._turn = -1
        self._done: set[str] = set()
        self._known: Known | None = None

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        """The best allowed order for the next unit that has none yet."""
        if view.turn != self._turn:
            self._turn, self._done = view.turn, set()
        for unit in self._in_order(view):
            if unit.id in self._done:
                continue
            self._done.add(unit.id)
            if not self._ready(view, unit):
                continue
            for order in self._orders(view, unit):
                if allowed(legal, order):
                    self._done.update(order.params.get("with", []))
                    return order
        return Order(self.side, "end")

    def _ready(self, view: SideView, unit: Unit) -> bool:
        demoralised = any(f.demoralised for f in view.formations if f.id == unit.formation)
        return unit.alive and not unit.acted and not demoralised

    def _in_order(self, view: SideView) -> list[Unit]:
        """Passengers decide first (whether to get out before their vehicle moves), then
        units on foot, then vehicles."""
        mine = [u for u in view.own if commands(self.units, u.id)]
        return sorted(mine, key=lambda u: (u.rides is None, VEHICLE[u.kind], u.id))

    def _orders(self, view: SideView, unit: Unit) -> Iterator[Order]:
        known = self._known
        if known is None or known.enemies is not view.enemies:
            known = self._known = Known(view.enemies)
        brain = Tactics(view, unit, known)
        if view.doctrine == "defend":
            yield from brain.defend()
        else:
            yield from brain.attack()
        yield brain.order("observe")


class Known:
    """The enemies of a view as the tactics read them: made once for all the units that
    decide from the same sightings (a view shares its `enemies` until the side's memory
    changes), where each unit's tactics made them again; read only."""

    def __init__(self, enemies: tuple[tuple[str, Seen], ...]) -> None:
        self.enemies = enemies  # held, so the identity the Control checks stays its own
        self.threats = [Threat(i, s.kind, Position(s.x, s.y, s.section), s.visible, s.turn,
                               s.doing)
                        for i, s in enemies if s.alive]
        self.seen = [t for t in self.threats if t.visible]
        self._arrays: PositionArrays | None = None
        #: `Tactics.threatened`'s answers, by all else it reads (the same for every unit)
        self.threatened: dict[tuple[object, ...],
                              tuple[tuple[VictorySpec, ...], SightEngine, tuple[str, ...]]] = {}

    def seen_arrays(self, sight: SightEngine) -> PositionArrays:
        """The places of the enemies in sight, as the compiled sight calls take them (the
        view's map is the same for every unit: its side's own fork)."""
        if self._arrays is None:
            self._arrays = sight.position_arrays([t.pos for t in self.seen])
        return self._arrays


#: `_chance`'s answers: a table of the rules, nothing of a game
_CHANCES: dict[tuple[Row, int, Cover, bool, bool, bool], float | None] = {}


def _chance(row: Row, distance: float, cover: Cover, moved: bool,
            pinned: bool, flat_out: bool) -> float | None:
    """`hit_chance` as a float, None where the row cannot fire at that range. It reads
    the range only through its band, so it is kept by band: its Fractions cost more
    than the rest of a unit's weighing of its shots."""
    key = (row, band(distance), cover, moved, pinned, flat_out)
    if key in _CHANCES:
        return _CHANCES[key]
    try:
        found: float | None = float(hit_chance(Shot(row, distance, cover, moved, pinned,
                                                    flat_out)))
    except IllegalOrder:
        found = None
    _CHANCES[key] = found
    return found


class Tactics:
    """The choices for one unit, best first, from the side's view."""

    def __init__(self, view: SideView, unit: Unit, known: Known | None = None) -> None:
        self.view = view
        self.unit = unit
        if known is None:
            known = Known(view.enemies)
        self.threats = known.threats
        self.seen = known.seen
        self._seen_arrays = known.seen_arrays
        self._threatened = known.threatened
        self._shots_here: list[ShotChoice] | None = None

    def order(self, kind: str, **params: object) -> Order:
        return Order(self.view.side, kind, self.unit.id, dict(params))

    # ------------------------------------------------------------ objectives

    def objective_sections(self) -> list[str]:
        return sorted({s for v in self.view.objectives if v.side == self.view.side
                       and v.kind in ("hold", "reach") for s in v.sections})

    def objective_zones(self) -> list[Polygon]:
        return list(_zones(self.view.sight, tuple(
            tuple(map(tuple, v.zone)) for v in self.view.objectives
            if v.side == self.view.side and v.kind == "reach" and v.zone)))

    def to_take(self) -> list[str]:
        return [s for s in self.objective_sections() if s not in self.view.held]

    def route_to(self, section: str) -> Route:
        sight = self.view.sight
        # the footprint is looked up only when the route is first built
        return route(sight, f"section:{section}",
                     lambda p: _footprint(sight, section).distance(Point(p)) <= REACH)

    def zone_route(self) -> Route | None:
        zones = self.objective_zones()
        if not zones:
            return None
        key = _zones_key(self.view.sight, tuple(zones))
        return route(self.view.sight, key, lambda p: any(z.covers(Point(p)) for z in zones))

    def nearest_goal(self) -> tuple[Route, str | None] | None:
        """The nearest building area still to take, else the zone to reach."""
        best: tuple[float, Route, str | None] | None = None
        for section in self.to_take():
            r = self.route_to(section)
            d = r.distance(self.unit.pos)
            if best is None or d < best[0]:
                best = (d, r, section)
        if best is not None:
            return best[1], best[2]
        zone = self.zone_route()
        return (zone, None) if zone is not None else None

    # ------------------------------------------------------------ fire

    def cover_of(self, t: Threat) -> Cover:
        return cover_for(self.view.sight, t.body, t.pos)

    def rows(self, t: Threat) -> list[tuple[Row, dict[str, object]]]:
        spec = self.unit.spec
        out: list[tuple[Row, dict[str, object]]] = []
        # the same test the rules make of an order: by the kind of target, all a side sees
        if spec.row is not None and can_harm(spec.row, t.kind):
            out.append((spec.row, {}))
        if spec.rocket and CATALOGUE[t.kind].vehicle:
            out.append((Row.ROCKET, {"weapon": "rocket"}))
        return out

    def shots(self, at: Position, moved: bool) -> list[ShotChoice]:
        """(expected value, range, target, extra params) of every shot from `at`."""
        out = []
        sight = self.view.sight
        if len(self.seen) > 1:  # one compiled call for them all
            found = sight.visible_row(at, self._seen_arrays(sight))
            visible = found.tolist()
        else:
            visible = [sight.visible(at, t.pos) for t in self.seen]
        for t, in_sight in zip(self.seen, visible, strict=True):
            if not in_sight:
                continue
            distance = range_between(self.view.sight, at, t.pos)
            for row, extra in self.rows(t):
                p = _chance(row, distance, self.cover_of(t), moved, self.unit.pinned,
                            t.flat_out)
                if p is None:
                    continue
                out.append((p * VALUE[t.body], distance, t, extra))
        return sorted(out, key=lambda s: (-s[0], s[1], s[2].id))

    def shoot_best(self, max_range: float = 1e9, floor: float = MIN_SHOT) -> Iterator[Order]:
        # a unit's tactics may look for a shot from where it stands several times (a
        # close one first, then any): worked out once, the view being the same
        if self._shots_here is None:
            self._shots_here = self.shots(self.unit.pos, moved=False)
        for value, distance, t, extra in self._shots_here:
            if value >= floor and distance <= max_range:
                yield self.order("shoot", target=t.id, **extra)

    def indirect(self) -> Iterator[Order]:
        """Mortars (and HQs with artillery) on seen enemy well clear of friends."""
        spec = self.unit.spec
        if not spec.indirect and not (self.unit.kind is Kind.HQ and self.view.artillery > 0):
            return
        friends = [u.pos for u in self.view.own if u.alive and u.id != self.unit.id]
        for t in sorted(self.seen, key=lambda t: (-VALUE[t.body], t.id)):
            if t.body is Body.TANK:
                continue
            if all(f.distance(t.pos) > DANGER_CLOSE for f in friends):
                yield self.order("shoot", point=[t.pos.x, t.pos.y])
        if spec.indirect and self.view.doctrine == "attack":
            # soften the next building area to take, where its defenders would stand
            for section in self.to_take():
                x, y = section_spots(self.view.sight, section)[0]
                if all(f.distance(Position(x, y)) > DANGER_CLOSE for f in friends):
                    yield self.order("shoot", point=[x, y])

    # ------------------------------------------------------------ movement

    def advance(self, r: Route, stop: float = 0.0) -> Iterator[Order]:
        quiet = not any(t.pos.distance(self.unit.pos) <= 30 for t in self.threats) and \
            r.distance(self.unit.pos) > 30
        kinds = (("flat-out", 2.0), ("move", 1.0)) if quiet else (("move", 1.0),)
        for kind, factor in kinds:
            path = r.descend(self.unit.pos, self.unit.spec.move * factor - 0.05, stop)
            first = Position(path[0][0], path[0][1]) if path else self.unit.pos
            if len(path) > 1 or first.distance(self.unit.pos) > 0.5:
                yield self.order(kind, path=path)

    # ------------------------------------------------------------ attack

    def attack(self) -> Iterator[Order]:
        unit = self.unit
        if unit.rides is not None:
            yield from self.ride()
            return
        if unit.kind is Kind.MORTAR or (unit.kind is Kind.HQ and self.view.artillery > 0):
            yield from self.indirect()
        if unit.spec.assault_points and not unit.pinned:
            yield from self.assault()
        if unit.pinned:
            yield from self.shoot_best(floor=0.1)
            return
        yield from self.shoot_best(max_range=10.0, floor=1.0)
        if unit.is_tank or unit.spec.kills_tanks:
            yield from self.shoot_best(floor=0.5)
        if unit.passengers or (unit.spec.capacity and unit.spec.vehicle and not unit.is_tank):
            if unit.passengers or self.riders():
                yield from self.transport()
            else:
                yield from self.scout()
            return
        goal = self.nearest_goal()
        if goal is not None and unit.pos.section is not None and self.spare_here():
            yield from self.leave(goal[0])
        if goal is not None and unit.kind is not Kind.MORTAR:
            r, _ = goal
            stop = STANDOFF if unit.spec.vehicle else 0.0
            if r.distance(unit.pos) > stop:
                yield from self.advance(r, stop)
        yield from self.shoot_best()

    def assault(self) -> Iterator[Order]:
        """Go in together: wait a turn for friends still on their way unless enough
        points are at the door or time is short."""
        for section in self.to_take():
            if surely_beyond(self.view.sight, self.unit.pos, section, REACH) or \
                    distance_to_section(self.view.sight, self.unit.pos, section) > REACH:
                continue
            with_ = [u for u in self.assaulters(section, self.unit.spec.move) if u.rides is None]
            points = self.unit.spec.assault_points + sum(u.spec.assault_points for u in with_)
            late = self.view.turn >= self.view.turns - 2
            coming = [u for u in self.assaulters(section, 3 * FOOT_MOVE) if u not in with_]
            if points < GATHER_POINTS and coming and not late:
                continue
            ids = [u.id for u in with_]
            yield self.order("assault", section=section, **({"with": ids} if ids else {}))
            yield self.order("assault", section=section)

    def assaulters(self, section: str, within: float) -> list[Unit]:
        """Friends on foot who could join an assault on the area from within `within`."""
        sight = self.view.sight
        return [u for u in self.view.own if u.id != self.unit.id and u.alive
                and not u.acted and not u.pinned and u.spec.assault_points
                and distance_to_section(sight, u.pos, section) <= within]

    def spare_here(self) -> bool:
        """Whether the unit can leave its building area: another friend keeps it held, or
        it is not one the side must hold."""
        here = self.unit.pos.section
        friends = [u for u in self.view.own if u.alive and u.id != self.unit.id
                   and u.rides is None and u.pos.section == here]
        return bool(friends) or here not in self.objective_sections()

    def leave(self, r: Route) -> Iterator[Order]:
        """Out by the opening nearest the next goal, then on along the street route."""
        here = self.unit.pos
        assert here.section is not None
        reach = self.unit.spec.move - 0.05
        exits = []
        for x, y in _exits(self.view, here.section):
            door = Position(x, y)
            gap = here.distance(door)
            if gap <= reach:
                path = [[x, y], *r.descend(door, reach - gap)[1:]]
            else:  # a big hall: cross it toward the door first
                t = reach / gap
                path = [[round(here.x + (x - here.x) * t, 2), round(here.y + (y - here.y) * t, 2)]]
            exits.append((r.distance(door), path))
        for _, path in sorted(exits):
            yield self.order("move", path=path)

    def ride(self) -> Iterator[Order]:
        vehicle = self.view.unit(self.unit.rides or "")
        goal = self.nearest_goal()
        close = goal is None or goal[0].distance(vehicle.pos) <= DISMOUNT_AT
        if close or self.unit.kind is Kind.MORTAR:
            yield self.order("dismount")
            for dx, dy in ((0, -3), (-3, 0), (3, 0), (0, 3)):
                yield self.order("dismount", to=[vehicle.pos.x + dx, vehicle.pos.y + dy])

    def riders(self) -> bool:
        """Whether the side has troops on foot a vehicle might yet carry."""
        return any(u.alive and u.spec.foot for u in self.view.own)

    def scout(self) -> Iterator[Order]:
        """A carrier with nobody to carry fights as a scout car: it shoots what it can
        hurt, else drives on to the goal (into a zone to reach, short of a building area
        it cannot enter)."""
        yield from self.shoot_best(floor=SCOUT_SHOT)
        goal = self.nearest_goal()
        if goal is None:
            return
        r, section = goal
        stop = STANDOFF if section is not None else 0.0
        if r.distance(self.unit.pos) > stop:
            yield from self.advance(r, stop)

    def transport(self) -> Iterator[Order]:
        goal = self.nearest_goal()
        if self.unit.passengers and goal is not None:
            r, _ = goal
            stop = self.behind_the_lead(r) if self.carries_hq() else 0.0
            if r.distance(self.unit.pos) > stop:
                yield from self.advance(r, stop)
        yield from self.shoot_best()

    def carries_hq(self, unit: Unit | None = None) -> bool:
        carrier = unit or self.unit
        return any(self.view.unit(p).kind is Kind.HQ for p in carrier.passengers)

    def behind_the_lead(self, r: Route) -> float:
        """How far along the route a vehicle carrying a headquarters stops: `HQ_BEHIND`
        behind the foremost of the side's other units (one that leads finds the enemy's
        ambush with the headquarters aboard), nought with none. A headquarters on foot
        goes on with the attack: its assault points count at the door (held back, it
        cost factory-district's Soviets 2 points in 1,000 games)."""
        mine = self.unit.id
        lead = [r.distance(u.pos) for u in self.view.own
                if u.alive and u.id != mine and u.rides is None
                and u.kind not in (Kind.HQ, Kind.MORTAR) and not self.carries_hq(u)]
        return min(lead) + HQ_BEHIND if lead else 0.0

    # ------------------------------------------------------------ defend

    def defend(self) -> Iterator[Order]:
        unit = self.unit
        if unit.rides is not None:
            yield self.order("dismount")
            return
        yield from self.indirect()
        if unit.is_tank:
            yield from self.counter_attack_tank()
            return
        fired = unit.last_fired_turn  # 0 until the unit first fires
        revealed = (fired > 0 and fired >= self.view.turn - 1) or \
            any(r.unit == unit.id for r in self.view.reports)
        if unit.kind is Kind.AT_GUN:
            yield from self.screen(revealed)
            return
        if unit.kind is Kind.SNIPER and 0 < unit.last_fired_turn == self.view.turn - 1 \
                and not unit.pinned:
            yield from self.relocate()
        if unit.spec.assault_points and not unit.pinned:
            yield from self.counter_assault()
        yield from self.shoot_best(max_range=1e9 if revealed else AMBUSH_RANGE)

    def screen(self, revealed: bool) -> Iterator[Order]:
        """An anti-tank gun keeps its screen hidden: it holds its fire at vehicles until
        they are within ambush range (unless already revealed), and meanwhile gets behind
        cover, since a silent gun in cover cannot be seen at all. With no cover within a
        move it fires at vehicles at any range: in the open it is seen whether it fires
        or not, and a gun that waits is knocked out without having fired."""
        reach = 1e9 if revealed else AMBUSH_RANGE
        yield from self.vehicle_shots(reach)
        yield from self.shoot_best(max_range=10.0)
        if not in_cover(self.view.sight, self.unit.pos):
            yield from self.take_cover()
            if reach < 1e9:
                yield from self.vehicle_shots(1e9)

    def vehicle_shots(self, reach: float) -> Iterator[Order]:
        return (o for o in self.shoot_best(max_range=reach) if self._is_vehicle(o))

    def take_cover(self) -> Iterator[Order]:
        """Moves to the nearest place in cover within the unit's move, if any."""
        here = self.unit.pos
        sight = self.view.sight
        spots = []
        for k in range(COVER_HEADINGS):
            angle = 2 * pi * k / COVER_HEADINGS
            for length in (0.5, 1.0, 1.5, self.unit.spec.move - 0.05):
                x = round(here.x + length * cos(angle), 2)
                y = round(here.y + length * sin(angle), 2)
                spot = Position(x, y, sight.section_at((x, y)))
                if spot.section is None and in_cover(sight, spot):
                    spots.append((length, k, spot))
                    break
        for _, _, spot in sorted(spots, key=lambda s: (s[0], s[1])):
            yield self.order("move", to=[spot.x, spot.y])

    def _is_vehicle(self, order: Order) -> bool:
        target = order.params.get("target")
        return any(t.id == target and CATALOGUE[t.kind].vehicle for t in self.seen)

    def relocate(self) -> Iterator[Order]:
        """A sniper that fired moves: to the far side of its building area."""
        here = self.unit.pos
        if here.section is None:
            return
        spots = sorted(section_spots(self.view.sight, here.section),
                       key=lambda p: -Position(*p).distance(here))
        for x, y in spots[:3]:
            if Position(x, y).distance(here) <= self.unit.spec.move:
                yield self.order("move", to=[x, y])

    def threatened(self) -> list[str]:
        """Objective areas lost, or with the enemy seen inside or at the door: kept with
        the enemies it is worked out from, by the rest of what it reads of the view (the
        side, its objectives and map, the turn, the areas held), which every unit of the
        side deciding from the same sightings shares."""
        view = self.view
        key = (view.side, view.turn, view.held)
        found = self._threatened.get(key)  # the objectives and map checked by identity
        if found is None or found[0] is not view.objectives or found[1] is not view.sight:
            found = self._threatened[key] = (view.objectives, view.sight,
                                             tuple(self._threatened_now()))
        return list(found[2])

    def _threatened_now(self) -> list[str]:
        out = []
        for section in self.objective_sections():
            lost = section not in self.view.held
            close = any(t.turn >= self.view.turn - FRESH and (
                t.pos.section == section or
                distance_to_section(self.view.sight, t.pos, section) <= COUNTER_RANGE)
                for t in self.threats if t.body is not Body.TANK)
            if lost or close:
                out.append(section)
        return out

    def counter_assault(self) -> Iterator[Order]:
        """Reserves retake a lost area of the objective when they can reach it."""
        if self.unit.kind is not Kind.INFANTRY or self.unit.pos.section in \
                self.objective_sections():
            return
        for section in self.threatened():
            if section in self.view.held:
                continue
            if distance_to_section(self.view.sight, self.unit.pos, section) <= REACH:
                yield self.order("assault", section=section)
            elif self.unit.pos.section is not None and self.spare_here():
                yield from self.leave(self.route_to(section))
            else:
                yield from self.advance(self.route_to(section))

    def counter_attack_tank(self) -> Iterator[Order]:
        yield from self.shoot_best(floor=0.5)
        danger = [t for t in self.seen if t.body in (Body.TANK, Body.GUN)]
        mine = sum(1 for u in self.view.own if u.alive and u.is_tank)
        targets = [t for t in self.threats if t.turn >= self.view.turn - FRESH]
        if not self.threatened() or len(danger) > mine or not targets:
            return
        mark = min(targets, key=lambda t: t.pos.distance(self.unit.pos))
        yield from self.approach(mark)

    def approach(self, mark: Threat) -> Iterator[Order]:
        """Half a move to a place that sees the enemy and fire, else a full move closer."""
        sight = self.view.sight
        here = self.unit.pos
        half = self.unit.spec.move * 0.5 - 0.05
        for k in range(8):
            spot = _towards(here, mark.pos, half, k)
            if spot is not None and sight.visible(spot, mark.pos):
                yield self.order("move-fire", to=[spot.x, spot.y], target=mark.id)
        full = _towards(here, mark.pos, self.unit.spec.move - 0.05, 0)
        if full is not None:
            yield self.order("move", to=[full.x, full.y])


@per_map()  # the map's building areas are public
def _footprint(sight: SightEngine, section: str) -> Polygon:
    return Polygon(sight.battlefield.section(section).footprint)


@per_map()  # the objectives are public
def _zones(sight: SightEngine, rings: tuple[tuple[tuple[float, ...], ...], ...]
           ) -> tuple[Polygon, ...]:
    return tuple(Polygon(ring) for ring in rings)


@per_map()
def _zones_key(sight: SightEngine, zones: tuple[Polygon, ...]) -> str:
    return "zones:" + ";".join(z.wkt for z in zones)


def _exits(view: SideView, section_id: str) -> list[tuple[float, float]]:
    """Points just outside each door and window of a building area."""
    section = view.sight.battlefield.section(section_id)
    out = []
    for opening in section.openings:
        (ax, ay), (bx, by) = section.opening_segment(opening)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        (x0, y0), (x1, y1) = section.wall(opening.wall)
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
        # footprints run anticlockwise, so the outside is to the right of each wall
        nx, ny = (y1 - y0) / length, -(x1 - x0) / length
        out.append((round(mx + EXIT_STEP * nx, 2), round(my + EXIT_STEP * ny, 2)))
    return out


def _towards(here: Position, there: Position, length: float, k: int) -> Position | None:
    """A point `length` from here, toward there turned by k eighths of a turn."""
    gap = here.distance(there)
    if gap < 1.0:
        return None
    angle = atan2(there.y - here.y, there.x - here.x) + (k - 8 if k > 4 else k) * pi / 4
    step = min(length, max(0.0, gap - 3.0))
    if step <= 0.1:
        return None
    return Position(round(here.x + step * cos(angle), 2), round(here.y + step * sin(angle), 2))

