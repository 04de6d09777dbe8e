"""The computer opponent for House-Clearing. It decides from its side's view alone.

Doctrine:
- a figure fires once a turn, and the higher initiative fires first: so a figure that
  would be fired on before it can fire (an enemy of higher initiative sees it) counts that
  fire as dearer, which keeps low-initiative figures out of the first fire;
- every place is weighed, in each stance open to it, by the harm the figure can do from
  it against the fire it draws there, with how much of each body shows worked out as the
  rules do: windows, low walls and doorways, leaning out, crouching out of sight;
- attackers move along real paths to the objective, keep out of view of the windows and
  doors the enemy holds while nothing is seen, and go into a room the enemy holds only
  with a friend at hand (rooms are cleared together); once in, they spread to every room;
- defenders stay in their rooms, watch the approaches to the doors and windows, and fire
  at movers crossing open ground (the duck-back rule) when the shot is worth their turn;
- fire goes where it does the most confirmed hits; automatic fire when the cone holds
  several enemies and no friend; a belt-fed gun takes a loader who has nothing to shoot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import ceil, cos, hypot, pi, sin
from typing import Any

import numpy as np

from fibua.battlefield.geometry import jit
from fibua.battlefield.model import OpeningKind, Position
from fibua.battlefield.navigation import DistanceField, goal_distances, grid_distances
from fibua.battlefield.sight import (
    BoolArray,
    PositionArrays,
    SightEngine,
    per_map,
    places_around_kernel,
)
from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.core.ruleset import Notes, commands, kept_notes
from fibua.core.views import same_objects
from fibua.rulesets.house_clearing.estimates import (
    MAX_BANDS,
    STANCE_INDEX,
    STANCES,
    FloatArray,
    IntArray,
    band_limits,
    body_arrays,
    place_scores_kernel,
)
from fibua.rulesets.house_clearing.firing import in_cone
from fibua.rulesets.house_clearing.geometry import MapGeometry
from fibua.rulesets.house_clearing.movement import (
    step_through_wall,
    too_far_along,
    too_far_on_the_ground,
    too_far_through,
)
from fibua.rulesets.house_clearing.shooting import (
    OutOfRange,
    at_least_one_hit,
    expected_hits,
    fire_row,
    hit_chance,
    reach,
)
from fibua.rulesets.house_clearing.state import Figure, Phase, Seen
from fibua.rulesets.house_clearing.tables import (
    CREW_REACH,
    Row,
    Stance,
    WeaponName,
)
from fibua.rulesets.house_clearing.views import SideView, easy_step

HEADINGS = 10
MEMO_LIMIT = 20_000  # places a memo of the computer keeps before it starts afresh
NOTES_KEY = "house-clearing"  # where a side's notes (`RuleSet.computer`) keep `MapNotes`
LENGTHS = (9.0, 6.0, 4.0, 3.0, 2.0, 1.0)  # inches of walk along a field's paths
ENEMY_SKILL = 105  # the mean of 3D6x10
ENEMY_STEP = 2  # initiative assumed for an enemy never seen acting
PROGRESS = 0.09  # value of an inch nearer the objective
HOLD = 1.2  # value of standing in the objective
SPREAD = 0.35  # value of being the first friend in a room of the objective
HARM = 0.9  # weight of the harm a place lets the figure do
RISK = 1.0  # weight of the fire a place draws
REMEMBERED = 0.5  # weight of an enemy remembered but not seen now
FIRED_ON_FIRST = 2.0  # an enemy of higher initiative fires before the figure can
#: chance that one confirmed hit (D3) puts a figure of this initiative out of action
OUT_AFTER_A_HIT = {0: 1.0, 1: 2 / 3, 2: 1 / 3}
FIRED_ON_AFTER = 0.7  # the figure fires first
ALONE = 0.7  # going into a room the enemy holds without a friend at hand
STAIRS = 1.5  # inches of walking a floor is worth (half a move inside)
CLEAR = 0.6  # going into a room of the objective the enemy holds, with a friend at hand
WATCHED = 0.05  # each enemy-held window or door that sees the place (nothing in view)
WATCHES = 0.06  # each approach a defender's place covers
CROWD = 0.15  # a friend within an inch: one burst could take both
REACT_WORTH = 0.12  # chance of a confirmed hit that makes a defender fire at a mover
REACT_WORTH_ATTACKING = 0.3  # an attacker gives up its move for it: a better shot only
INSIDE_OPENING = 0.4  # inches inside an opening where a watcher is imagined
OUTSIDE_OPENING = 2.0  # inches outside an opening where an approach is watched


@dataclass(frozen=True, slots=True)
class Threat:
    """An enemy figure as this side knows it."""

    id: str
    pos: Position
    stance: Stance
    weapon: WeaponName
    visible: bool
    step: int


@dataclass(slots=True)
class _Walk:
    """A walk down a field from a place: its cells, where it ends (x, y, section index)
    and, once asked, whether it is more than a whole move on the ground alone."""

    cells: list[list[int]]
    x: float
    y: float
    section: int
    too_far: bool | None = None


@dataclass(slots=True)
class MapNotes:
    """What the computer works out from the public map alone, each answer once: the walks
    down a field from a place (`Sergeant._walks`), each place's walk to the objective
    (`Sergeant._goal_distance`, of one goal) and the pace of the ground there
    (`Sergeant._pace`). A side's computers of later games of the scenario may be handed
    them (`RuleSet.computer`'s `notes`)."""

    walks: dict[tuple[DistanceField, Position], list[_Walk]] = field(default_factory=dict)
    goal: DistanceField | None = None
    to_goal: dict[Position, float] = field(default_factory=dict)
    paces: dict[Position, float] = field(default_factory=dict)


def map_notes(notes: Notes | None) -> MapNotes:
    """The map notes kept in a side's `notes`, new ones if there are none yet (or no
    notes)."""
    return kept_notes(notes, NOTES_KEY, MapNotes)


@dataclass(frozen=True, slots=True)
class Choice:
    order: Order | None  # None: stay as it is
    score: float


class Sergeant:
    def __init__(self, side: str, seed: int, units: frozenset[str] | None = None,
                 notes: MapNotes | None = None) -> None:
        self.side = side
        self.units = units  # the ids of the figures it commands (a seat's); None for all
        self._rng = random.Random(seed)
        self._key: tuple[object, ...] = ()
        self._done: set[str] = set()
        #: each enemy's last sighting in a view and the threat made of it (see `_threats`)
        self._threat_memo: dict[str, tuple[Seen, Threat]] = {}
        self._arrays: _ThreatArrays | None = None  # see `_threat_arrays`
        self._own: _OwnArrays | None = None  # see `_own_arrays`
        self._notes = notes if notes is not None else MapNotes()

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        """Orders figures one at a time: the best allowed order of the next figure."""
        mover = view.reaction.mover if view.reaction else None
        key = (view.turn, view.phase, view.step, mover)
        if key != self._key:
            self._key, self._done = key, set()
        threats = self._known_threats(view)
        for figure in self._ready(view):
            self._done.add(figure.id)
            order = self._order_for(view, figure, threats, legal)
            if order is not None:
                return order
        return Order(self.side, "end")

    def _known_threats(self, view: SideView) -> list[Threat]:
        """`_threats`, made again only of the sightings that changed: a view hands on the
        very copy of a sighting while the side's memory of that enemy stays the same."""
        kept = self._threat_memo
        out = []
        for enemy_id, s in view.enemies:
            if not s.alive:
                continue
            found = kept.get(enemy_id)
            if found is None or found[0] is not s:
                found = kept[enemy_id] = (s, _threat(enemy_id, s))
            out.append(found[1])
        return out

    def _ready(self, view: SideView) -> list[Figure]:
        """The figures to order next, in order, but those done already this step."""
        done = self._done
        mine = [f for f in view.own
                if f.in_action and f.id not in done and commands(self.units, f.id)]
        if view.reaction is not None:
            return [f for f in mine if f.id in view.reaction.firers]
        mine = [f for f in mine if f.step == view.step]
        if view.phase is Phase.FIRE:
            return [f for f in mine if not f.fired]
        stays = not view.options.move_after_reaction_fire
        ready = [f for f in mine if not f.moved and not (f.reacted and stays)]
        goal = view.goal
        if goal is None:
            return ready
        # (distance, id) orders the figures wholly: leaving out those done keeps the order
        return sorted(ready, key=lambda f: (self._goal_distance(goal, f.pos), f.id))

    def _goal_distance(self, goal: DistanceField, pos: Position) -> float:
        """`goal.distance(pos)`, worked out once a place (the goal stays the same)."""
        notes = self._notes
        if notes.goal is not goal:
            notes.goal, notes.to_goal = goal, {}
        known = notes.to_goal
        found = known.get(pos)
        if found is None:
            if len(known) > MEMO_LIMIT:
                known.clear()
            found = known[pos] = goal.distance(pos)
        return found

    def _pace(self, view: SideView, pos: Position) -> float:
        """`rate_at` the place, worked out once a place (the map stays the same)."""
        paces = self._notes.paces
        found = paces.get(pos)
        if found is None:
            if len(paces) > MEMO_LIMIT:
                paces.clear()
            found = paces[pos] = view.geometry.rate_at(pos.x, pos.y)
        return found

    def _order_for(self, view: SideView, figure: Figure, threats: list[Threat],
                   legal: Sequence[Order]) -> Order | None:
        if view.reaction is not None:
            return _reaction(view, figure, threats, legal)
        if view.phase is Phase.FIRE:
            return _fire(view, figure, threats, legal)
        return self._move(view, figure, threats, legal)

    # ------------------------------------------------------------------ movement

    def _move(self, view: SideView, f: Figure, threats: list[Threat],
              legal: Sequence[Order]) -> Order | None:
        places = self._places(view, f)
        scores, stances = _place_scores(self, view, f, places,
                                        self._threat_arrays(view, threats),
                                        self._own_arrays(view))
        # best first, the earlier place first among equals (a stable sort); the orders
        # are made only as far as they are asked
        for i in sorted(range(len(scores)), key=lambda k: -scores[k]):
            stance = stances[i]
            if i == 0:
                if stance is f.stance:
                    return None
                order = Order(self.side, "stance", f.id, {"stance": str(stance)})
            else:
                if places.refused(i, view.geometry):
                    continue  # refused by the full check too, which costs far more
                order = Order(self.side, "move", f.id,
                              dict(places.params(i), stance=str(stance)))
            if allowed(legal, order):
                return order
        return None

    def _threat_arrays(self, view: SideView, threats: list[Threat]) -> _ThreatArrays:
        """The threats as arrays, kept while every threat is the very one it was made of
        (`_known_threats` keeps a threat while its sighting stays the same)."""
        kept = self._arrays
        if kept is None or not same_objects(kept.threats, threats):
            kept = self._arrays = _ThreatArrays.of(view.sight, threats)
        return kept

    def _own_arrays(self, view: SideView) -> _OwnArrays:
        """The side's figures in action as arrays, kept while the view hands on the very
        same copies of them."""
        kept = self._own
        if kept is None or kept.own is not view.own:
            figures = [g for g in view.own if g.in_action]
            kept = self._own = _OwnArrays(
                view.own, figures, view.sight.position_arrays([g.pos for g in figures]),
                {g.id: k for k, g in enumerate(figures)})
        return kept

    def _places(self, view: SideView, f: Figure) -> _Places:
        """Where the figure stands, then the places to go: the ends of walks down the
        fields, up or down the stairs, and a ring of steps around it."""
        sight = view.sight
        xs, ys, sections = [f.pos.x], [f.pos.y], [sight.section_index(f.pos.section)]
        walks: list[tuple[DistanceField, _Walk]] = []
        for fld in self._fields(view, f):
            for walk in self._walks(sight, fld, f.pos):
                walks.append((fld, walk))
                xs.append(walk.x)
                ys.append(walk.y)
                sections.append(walk.section)
        floors = [f.pos.floor] + [0] * len(walks)
        stairs = _stairs(view, f)
        for n in stairs:
            xs.append(f.pos.x)
            ys.append(f.pos.y)
            sections.append(sections[0])
            floors.append(n)
        head = np.array([xs, ys, sections, floors], dtype=np.float64)
        table = sight.battlefield.table
        angles, dists = self._headings(view, f)
        cosines, sines = np.array([cos(a) for a in angles]), np.array([sin(a) for a in angles])
        ring = _NO_RING
        for given in (False, True):
            xy, section, floor, exact = places_kernel(
                head, cosines, sines, np.array(dists), given, ring, float(table.width),
                float(table.height), sight.kernel_tables)
            if exact:
                break
            # a value within a hair of a half hundredth: `round` itself settles it
            ring = _ring_python(f.pos, angles, dists, table.width, table.height)
        return _Places(PositionArrays(xy, section, floor), f.pos, walks, stairs)

    def _walks(self, sight: SightEngine, fld: DistanceField, start: Position) -> list[_Walk]:
        """The walks down a field from a place that end somewhere new. The field and
        the map stay the same: each place's walks are found once."""
        memo = self._notes.walks
        found = memo.get((fld, start))
        if found is not None:
            return found
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        found = memo[(fld, start)] = []
        seen: set[tuple[float, float]] = set()
        for walk in fld.descend_cells(start, LENGTHS):
            # the walk's last cell centre, on the ground in the section holding it: the
            # very place a walk ends at
            last = fld.centre(*walk[-1])
            end = (last.x, last.y)
            if end in seen or (len(walk) < 2 and start.distance(last) < 0.3):
                continue
            seen.add(end)
            found.append(_Walk(walk, last.x, last.y, sight.section_index(last.section)))
        return found

    def _headings(self, view: SideView, f: Figure) -> tuple[list[float], list[float]]:
        """The headings of the ring of steps (turned at random) and the steps' lengths."""
        pace = self._pace(view, f.pos)
        offset = self._rng.random() * 2 * pi / HEADINGS
        dists = sorted({1.5, min(pace, 3.0), pace})
        return [offset + 2 * pi * k / HEADINGS for k in range(HEADINGS)], dists

    def _fields(self, view: SideView, f: Figure) -> list[DistanceField]:
        """The objective's field, and the fields of rooms of the objective still to be
        entered (once inside, spread to every room)."""
        fields = [view.goal] if view.goal is not None else []
        if f.pos.section is None or f.pos.section not in view.goal_sections:
            return fields
        held = {(g.pos.section, g.pos.floor) for g in view.own if g.in_action and g.id != f.id}
        battlefield = view.sight.battlefield
        for section in view.goal_sections:
            levels = range(battlefield.section(section).levels)
            if section != f.pos.section and any((section, n) not in held for n in levels):
                fields.append(section_field(view.sight, section, view.options.figure_height))
        return fields


def _stairs(view: SideView, f: Figure) -> list[int]:
    """The floors up or down the stairs of the room it is in."""
    if f.pos.section is None:
        return []
    levels = view.sight.battlefield.section(f.pos.section).levels
    return [n for n in range(levels) if n != f.pos.floor]


def _walk_points(fld: DistanceField, walk: _Walk) -> list[tuple[float, float]]:
    """The walk's cells as a move's path gives them: each centre to 1/100in."""
    rounded = fld.rounded_centres(2)
    return [rounded[a][b] for a, b in walk.cells]


@dataclass(frozen=True, slots=True)
class _Places:
    """The places a figure weighs as arrays, where it stands first, then the ends of its
    walks, the floors up or down its stairs and the ring of steps (see `Sergeant._places`);
    the move to each is written out only when it is asked for."""

    arrays: PositionArrays
    start: Position
    walks: list[tuple[DistanceField, _Walk]]
    stairs: list[int]

    def __len__(self) -> int:
        return len(self.arrays.floor)

    def params(self, i: int) -> dict[str, object]:
        """The move parameters that take the figure to place i (not its own, 0)."""
        k = i - 1
        if k < len(self.walks):
            return {"path": [list(p) for p in _walk_points(*self.walks[k])]}
        k -= len(self.walks)
        if k < len(self.stairs):
            return {"to": [self.start.x, self.start.y], "floor": self.stairs[k]}
        return {"to": self.arrays.xy[i].tolist()}

    def refused(self, i: int, geometry: MapGeometry) -> bool:
        """Whether the move to place i (not its own, 0) is one the rules refuse, seen
        cheaply: `too_far_on_the_ground`, and for a step of the ring `step_through_wall`
        too. Of a walk, asked once (it depends on the map, the place and the walk
        alone)."""
        k = i - 1
        if k < len(self.walks):
            fld, walk = self.walks[k]
            if walk.too_far is None:
                path = np.array(_walk_points(fld, walk), dtype=np.float64)
                walk.too_far = too_far_through(geometry, self.start, path)
            return walk.too_far
        k -= len(self.walks)
        if k < len(self.stairs):
            return too_far_on_the_ground(geometry, self.start, self.params(i))
        x, y = self.arrays.xy[i].tolist()  # a step of the ring: on the table
        return too_far_along(geometry, self.start, [(x, y)]) or \
            step_through_wall(geometry.sight, self.start, x, y)


@jit
def places_kernel(head: Any, cosines: Any, sines: Any, dists: Any, given: bool, ring: Any,
                  width: float, height: float, sight_tables: Any) -> Any:
    """The places of `Sergeant._places` as arrays (xy, section index, floor), and whether
    they could be told: `head`'s columns (x, y, section, floor: where the figure stands,
    the walks' ends, the stairs), then the ring of steps that end on the table, heading by
    heading, in the section holding each (on the figure's floor in its own section, else
    on the ground). Each step's coordinates are `round(v, 2)` to the last bit: away from a
    half hundredth the nearest whole number of hundredths is that of the scaled value, and
    dividing it by 100 gives the nearest float to the decimal, as `round` does; a value
    within a hair of a half leaves the answer untold (False), for `round` itself to settle
    and the ring to be handed in (`given`)."""
    k = head.shape[1]
    steps = np.empty((cosines.shape[0] * dists.shape[0], 2))
    n = 0
    if given:
        steps = ring
        n = ring.shape[0]
    else:
        for a in range(cosines.shape[0]):
            for d in range(dists.shape[0]):
                sx = (head[0, 0] + dists[d] * cosines[a]) * 100.0
                sy = (head[1, 0] + dists[d] * sines[a]) * 100.0
                if abs(sx - np.floor(sx) - 0.5) < 1e-6 or abs(sy - np.floor(sy) - 0.5) < 1e-6:
                    return steps, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), \
                        False
                x, y = np.rint(sx) / 100.0, np.rint(sy) / 100.0
                if 0 <= x <= width and 0 <= y <= height:
                    steps[n, 0], steps[n, 1] = x, y
                    n += 1
    here, level = int(head[2, 0]), int(head[3, 0])
    # the sections of the steps, as the sight engine finds them for compiled callers
    _, found, _ = places_around_kernel(head[0, 0], head[1, 0], here, level, 0.0,
                                       np.empty(0), 0, width, height, steps[:n],
                                       sight_tables)
    xy = np.empty((k + n, 2))
    section = np.empty(k + n, dtype=np.int64)
    floor = np.empty(k + n, dtype=np.int64)
    for i in range(k):
        xy[i, 0], xy[i, 1] = head[0, i], head[1, i]
        section[i], floor[i] = int(head[2, i]), int(head[3, i])
    for i in range(n):
        xy[k + i, 0], xy[k + i, 1] = steps[i, 0], steps[i, 1]
        section[k + i] = found[i + 1]
        floor[k + i] = level if found[i + 1] == here else 0
    return xy, section, floor, True


def _ring_python(start: Position, angles: list[float], dists: list[float], width: float,
                 height: float) -> FloatArray:
    """The ring of steps of `places_kernel`, rounded by `round` itself."""
    ends = []
    for angle in angles:
        c, s = cos(angle), sin(angle)
        for dist in dists:
            x = round(start.x + dist * c, 2)
            y = round(start.y + dist * s, 2)
            if 0 <= x <= width and 0 <= y <= height:
                ends.append((x, y))
    return np.array(ends, dtype=np.float64).reshape(len(ends), 2)


_NO_RING = np.zeros((0, 2))


# ---------------------------------------------------------------------- scoring places


def _place_scores(sergeant: Sergeant, view: SideView, f: Figure, spots: _Places,
                  threats: _ThreatArrays,
                  own: _OwnArrays) -> tuple[list[float], list[Stance]]:
    """The best score of each place and the stance that gets it (the first place is where
    the figure stands), in one compiled call (see `estimates.place_scores_kernel`)."""
    sight = view.sight
    body = body_arrays(view.geometry)
    places = spots.arrays
    start = sergeant._goal_distance(view.goal, f.pos) if view.goal is not None else 0.0
    base = _Ground(view, f, threats, own, start).scores(places)
    enemies = threats.places
    # while no enemy is in view, attackers keep out of sight of the enemy's windows and
    # doors and defenders look out over the approaches to theirs
    points = _NO_PLACES if threats.any_visible else _watch_points(view)
    mine = fire_row(f.weapon, False, 1)
    scores, chosen = place_scores_kernel(
        base, places.xy, places.section, places.floor,
        enemies.xy, enemies.section, enemies.floor, threats.stance, threats.weight,
        threats.step, f.step, FIRED_ON_AFTER, threats.limits, threats.odds,
        band_limits(mine), _odds_table(f.skill, mine), HARM, RISK, FIRED_ON_FIRST,
        OUT_AFTER_A_HIT.get(f.initiative, 0.0),
        points.xy, points.section, points.floor, len(points.floor) > 0,
        view.defending, WATCHES, -WATCHED,
        body.obstacle_segs, body.obstacle_heights, body.open_segs, body.open_sill,
        body.open_section, body.open_lean, body.group, body.mids, body.n_mids,
        sight.kernel_tables)
    return scores.tolist(), [STANCES[k] for k in chosen.tolist()]


@dataclass(frozen=True, slots=True)
class _OwnArrays:
    """The side's figures in action (of `own`, a view's) and where they stand."""

    own: tuple[Figure, ...]
    figures: list[Figure]
    places: PositionArrays
    index: dict[str, int]  # of each figure's id in `figures`


@dataclass(frozen=True, slots=True)
class _ThreatArrays:
    """The threats as the place scoring reads them, made again only when one changes."""

    threats: list[Threat]
    places: PositionArrays
    stance: IntArray
    weight: FloatArray  # a remembered enemy weighs less than one in view
    step: IntArray
    limits: FloatArray
    odds: FloatArray
    any_visible: bool

    @staticmethod
    def of(sight: SightEngine, threats: list[Threat]) -> _ThreatArrays:
        limits, odds = _threat_tables(tuple(fire_row(t.weapon, False, 1) for t in threats))
        return _ThreatArrays(
            threats, sight.position_arrays([t.pos for t in threats]),
            np.array([STANCE_INDEX[t.stance] for t in threats], dtype=np.int64),
            np.array([1.0 if t.visible else REMEMBERED for t in threats]),
            np.array([t.step for t in threats], dtype=np.int64), limits, odds,
            any(t.visible for t in threats))


def _within(xy: FloatArray, others: list[Position],
            limits: tuple[tuple[float, bool], ...]) -> BoolArray:
    """For each (limit, strict) and place (a row of xy): whether the place has one of
    `others` within the limit (closer than it, when strict), by `Position.distance` to the
    last bit: squared distances settle all but the pairs at the limit, which are measured
    as that measures them."""
    if not others:
        return np.zeros((len(limits), len(xy)), dtype=np.bool_)
    there = np.array([(p.x, p.y) for p in others], dtype=np.float64)
    found, near = _within_kernel(
        xy, there, np.array([(limit - 1e-6) ** 2 for limit, _ in limits]),
        np.array([(limit + 1e-6) ** 2 for limit, _ in limits]))
    for k, i, j in near.tolist():
        if not found[k, i]:
            limit, strict = limits[k]
            o = others[j]
            d = hypot(o.x - float(xy[i, 0]), o.y - float(xy[i, 1]))  # o.distance(place)
            found[k, i] = d < limit if strict else d <= limit
    result: BoolArray = found
    return result


@jit
def _within_kernel(xy: Any, there: Any, lows: Any, highs: Any) -> Any:
    """For each limit k and place i: whether the squared distance to some point of
    `there` is below lows[k] (surely within); and the (k, i, j) pairs, place then point
    in order, neither below lows[k] nor above highs[k] (too near the limit to tell)."""
    n, m = xy.shape[0], there.shape[0]
    found = np.zeros((lows.shape[0], n), dtype=np.bool_)
    near = np.empty((lows.shape[0] * n * m, 3), dtype=np.int64)
    c = 0
    for k in range(lows.shape[0]):
        for i in range(n):
            for j in range(m):
                dx, dy = xy[i, 0] - there[j, 0], xy[i, 1] - there[j, 1]
                d2 = dx * dx + dy * dy
                if d2 < lows[k]:
                    found[k, i] = True
                elif d2 <= highs[k]:
                    near[c, 0], near[c, 1], near[c, 2] = k, i, j
                    c += 1
    return found, near[:c]


@jit
def ground_kernel(left: Any, dist: Any, step: float, inside: Any, has_goal: bool,
                  weight: float, start: float, hold: float,
                  xy: Any, section: Any, floor: Any, goal: Any, fxy: Any, fsec: Any, ffl: Any,
                  me: int, tsec: Any, tfl: Any, given: bool, crowded: Any, together: Any,
                  crowd: float, spread: float, alone: float, clear: float,
                  defending: bool) -> Any:
    """`_Ground.scores` before the open rooms, place by place, summed in the order of the
    plain Python it replaces (a nought, the progress, the hold, the room, the crowd), and
    whether that could be told. The walk left to the goal of each place is `left`, else
    (empty) `goal_distances` of the field's `as_arrays` (`dist`, `step`, `inside`).
    `goal`: whether each section (by index) is of the
    objective; the side's figures (`fxy`, `fsec`, `ffl`), the figure itself (`me`) left
    out of them, and the threats' rooms (`tsec`, `tfl`).
    A friend within an inch crowds a place (`crowded`), one within 3in is at hand
    (`together`): worked out here (`given` False) by squared distances, and to the last
    bit at the limits for a friend straight along an axis (the distance is then the
    difference itself, as `hypot` gives it); any other friend at a limit leaves the
    answer untold (False), for `_within` to settle and hand in (`given` True)."""
    n = section.shape[0]
    out = np.empty(n)
    if has_goal and left.shape[0] == 0:
        left = goal_distances(dist, step, inside, xy, section)
    for i in range(n):
        x, y = xy[i, 0], xy[i, 1]
        near, close = False, False
        if given:
            near, close = crowded[i], together[i]
        else:
            for j in range(fxy.shape[0]):
                if j == me:
                    continue
                dx, dy = fxy[j, 0] - x, fxy[j, 1] - y
                d2 = dx * dx + dy * dy
                for limit, strict in ((1.0, True), (3.0, False)):
                    if d2 < (limit - 1e-6) ** 2:
                        inside = True
                    elif d2 > (limit + 1e-6) ** 2:
                        inside = False
                    elif dx == 0 or dy == 0:
                        d = abs(dy) if dx == 0 else abs(dx)
                        inside = d < limit if strict else d <= limit
                    else:
                        return out, False
                    if inside and strict:
                        near = True
                    elif inside:
                        close = True
        value = 0.0
        if has_goal:
            ahead = start - left[i]
            value = 0.0 + weight * (9.0 if ahead > 9.0 else ahead)  # as `min` takes it
            if left[i] == 0:
                value += hold
        s, f = section[i], floor[i]
        if s >= 0 and goal[s]:
            # a room of the objective: spread to every room (the first friend in it), and
            # go into one the enemy holds only with a friend at hand (rooms are cleared
            # together)
            first = True
            for j in range(fsec.shape[0]):
                if j != me and fsec[j] == s and ffl[j] == f:
                    first = False
            held = False
            for j in range(tsec.shape[0]):
                if tsec[j] == s and tfl[j] == f:
                    held = True
            room = 0.0
            if first:
                room += spread
            if held and not close:
                room -= alone
            elif held and not defending:
                room += clear
            value += room
        if near:
            value -= crowd
        out[i] = value
    return out, True


@per_map()
def _goal_mask(sight: SightEngine, sections: tuple[str, ...]) -> BoolArray:
    """Whether each section (by index) is one of `sections` (public: an objective's)."""
    mask = np.zeros(max(len(sight.section_ids), 1), dtype=np.bool_)
    for section in sections:
        mask[sight.section_index(section)] = True
    return mask


@lru_cache(maxsize=1024)
def _threat_tables(rows: tuple[Row, ...]) -> tuple[FloatArray, FloatArray]:
    """The band limits and odds tables of the enemy's rows, one after another."""
    if not rows:
        return np.zeros((0, MAX_BANDS)), np.zeros((0, MAX_BANDS + 1, 6))
    return (np.stack([band_limits(r) for r in rows]),
            np.stack([_odds_table(ENEMY_SKILL, r) for r in rows]))


_NO_PLACES = PositionArrays(np.zeros((0, 2)), np.zeros(0, dtype=np.int64),
                            np.zeros(0, dtype=np.int64))
_NO_DISTANCES = np.zeros(0)
_NO_GRID = np.zeros((1, 1))
_NO_MASK = np.zeros(1, dtype=np.bool_)
_NO_NEAR = np.zeros((2, 0), dtype=np.bool_)


class _Ground:
    """What a place is worth for where it is, for one figure: worked out once per figure,
    then asked for each place."""

    def __init__(self, view: SideView, f: Figure, threats: _ThreatArrays,
                 own: _OwnArrays, start: float) -> None:
        self.view, self.f, self.threats = view, f, threats.threats
        self.threat_places = threats.places
        self.own = own
        self.me = own.index[f.id]
        self.friends = [g for k, g in enumerate(own.figures) if k != self.me]
        self.start = start  # the walk from where it stands to the objective
        self.urgency = 1.0 if view.defending else 0.6 + 0.8 * view.turn / view.turns
        self.open_rooms = [] if view.defending else self._open_rooms()
        self.way_here = self._way(f.pos) if self.open_rooms else 0.0

    def scores(self, places: PositionArrays) -> FloatArray:
        """What each place is worth for where it is."""
        score = self.before_rooms(places)
        if self.open_rooms:
            # attackers go on to the rooms and floors no friend holds yet
            score += PROGRESS * np.minimum(self.way_here - self._ways(places), 6.0)
        return score

    def before_rooms(self, places: PositionArrays) -> FloatArray:
        """`scores` before the rooms still to be entered: progress, holding, the rooms of
        the objective and the crowd."""
        view = self.view
        goal = view.goal
        sight = view.sight
        grid = goal.as_arrays() if goal is not None else None
        if grid is None:  # no goal, or one only Python can test: its distances handed in
            left = goal.distances(places) if goal is not None else _NO_DISTANCES
            grid = (_NO_GRID, 1.0, _NO_MASK)
        else:
            left = _NO_DISTANCES
        friends, threats = self.own.places, self.threat_places
        me = self.me
        found: tuple[FloatArray, bool] | None = None
        for given in (False, True):
            crowded, together = _within(places.xy, [g.pos for g in self.friends],
                                        ((1.0, True), (3.0, False))) if given else _NO_NEAR
            found = ground_kernel(
                left, grid[0], grid[1], grid[2], goal is not None, PROGRESS * self.urgency,
                self.start, HOLD,
                places.xy, places.section, places.floor,
                _goal_mask(sight, view.goal_sections), friends.xy, friends.section,
                friends.floor, me, threats.section, threats.floor, given, crowded, together,
                CROWD, SPREAD, ALONE, CLEAR * (0.5 + view.turn / view.turns), view.defending)
            if found[1]:
                break
        assert found is not None and found[1]
        return found[0]

    def _open_rooms(self) -> list[tuple[str, int]]:
        """Rooms and floors of the objective no friend holds, when this figure is in the
        objective and not the last friend in its room (who stays to hold it)."""
        view, f = self.view, self.f
        if f.pos.section is None or f.pos.section not in view.goal_sections:
            return []
        taken = {(g.pos.section, g.pos.floor) for g in self.friends}
        if (f.pos.section, f.pos.floor) not in taken:
            return []
        battlefield = view.sight.battlefield
        return [(s, n) for s in view.goal_sections
                for n in range(battlefield.section(s).levels) if (s, n) not in taken]

    def _ways(self, places: PositionArrays) -> FloatArray:
        """`_way` of many places, in one compiled call."""
        view = self.view
        sight, sections = view.sight, view.goal_sections
        grids, step = _section_grids(sight, sections, view.options.figure_height)
        rooms = np.array([(sections.index(s), sight.section_index(s), n)
                          for s, n in self.open_rooms], dtype=np.int64)
        found: FloatArray = ways_kernel(places.xy, places.section, places.floor, grids, step,
                                        rooms, STAIRS)
        return found

    def _way(self, p: Position) -> float:
        sight, height = self.view.sight, self.view.options.figure_height
        return min(section_field(sight, s, height).distance(p)
                   + STAIRS * (abs(n - p.floor) if p.section == s else n + p.floor)
                   for s, n in self.open_rooms)


@per_map()  # asked of the objective's sections, which are public (as `section_field`)
def _section_grids(sight: SightEngine, sections: tuple[str, ...],
                   height: float) -> tuple[FloatArray, float]:
    """The walking distances into each of `sections` (`section_field`): their grids of
    cells, one after another, and the cells' side."""
    fields = [section_field(sight, s, height) for s in sections]
    grids, step = [f.as_grid() for f in fields], fields[0].step if fields else 1.0
    return (np.stack(grids) if grids else np.zeros((0, 1, 1))), step


@jit
def ways_kernel(xy: Any, section: Any, floor: Any, grids: Any, step: float, rooms: Any,
                stairs: float) -> Any:
    """`_Ground._ways`: for each place, the least over the rooms (the section's grid in
    `grids`, its index, the floor) of the walk into the room's section (nought inside it,
    `cell_distances` outside) and `stairs` a floor to climb, in the plain arithmetic of
    the arrays it replaces."""
    out = np.empty(xy.shape[0])
    for r in range(rooms.shape[0]):
        g, k, n = rooms[r, 0], rooms[r, 1], rooms[r, 2]
        walk = grid_distances(grids[g], xy, step)
        for i in range(xy.shape[0]):
            inside = section[i] == k
            floors = abs(n - floor[i]) if inside else n + floor[i]
            way = (0.0 if inside else walk[i]) + stairs * floors
            if r == 0 or way < out[i]:
                out[i] = way
    return out


def _watch_points(view: SideView) -> PositionArrays:
    """The points just inside the doors and windows of the rooms the enemy holds
    (attackers) or just outside those of their own rooms (defenders)."""
    sections = view.goal_sections if view.defending else view.enemy_goal_sections
    offset = OUTSIDE_OPENING if view.defending else -INSIDE_OPENING
    return _point_arrays(view.sight, tuple(sections), offset)


@per_map()  # as `_opening_points`
def _point_arrays(sight: SightEngine, sections: tuple[str, ...],
                  offset: float) -> PositionArrays:
    return sight.position_arrays(_opening_points(sight, sections, offset))


@per_map()  # asked of the objectives' sections, which are public
def _opening_points(sight: SightEngine, sections: tuple[str, ...],
                    offset: float) -> list[Position]:
    battlefield = sight.battlefield
    table = battlefield.table
    points = []
    for sid in sections:
        section = battlefield.section(sid)
        for opening in section.openings:
            if opening.kind is OpeningKind.SLIT:
                continue
            (x0, y0), (x1, y1) = section.opening_segment(opening)
            dx, dy = x1 - x0, y1 - y0
            length = (dx * dx + dy * dy) ** 0.5
            # footprints run anticlockwise: outward is to the right of the wall
            x = (x0 + x1) / 2 + dy / length * offset
            y = (y0 + y1) / 2 - dx / length * offset
            if not (0 <= x <= table.width and 0 <= y <= table.height):
                continue
            where = sight.section_at((x, y))
            if offset < 0 and where != sid:
                continue
            if offset > 0 and where is not None:
                continue
            points.append(Position(x, y, where, opening.floor if where else 0))
    return points


# ---------------------------------------------------------------------- fire


def _fire(view: SideView, f: Figure, threats: list[Threat],
          legal: Sequence[Order]) -> Order | None:
    options: list[tuple[float, Order]] = []
    loader = _spare_loader(view, f, threats)
    for t in threats:
        pair = view.exposure.get((f.id, t.id))
        if pair is None:
            continue
        for auto in (False, True) if f.arms.auto is not None else (False,):
            value = _fire_value(view, f, t, pair[0], auto, loader is not None, threats)
            if value > 0:
                params: dict[str, object] = {"target": t.id}
                if auto:
                    params["auto"] = True
                if loader is not None:
                    params["loader"] = loader.id
                options.append((value, Order(view.side, "fire", f.id, params)))
    for _, order in sorted(options, key=lambda o: -o[0]):
        if allowed(legal, order):
            return order
    return None


def _fire_value(view: SideView, f: Figure, t: Threat, fifths: int, auto: bool, crewed: bool,
                threats: list[Threat]) -> float:
    """Expected confirmed hits of one firing (on every enemy in the cone when automatic);
    nothing when a friend is in the cone."""
    row = fire_row(f.weapon, auto, 2 if crewed else 1)
    if not auto:
        return _expected(f.skill, row, f.pos.distance(t.pos), fifths, False)
    if any(g.in_action and g.id != f.id and in_cone(f.pos, t.pos, g.pos) for g in view.own):
        return 0.0
    total = 0.0
    for other in threats:
        pair = view.exposure.get((f.id, other.id))
        if pair is not None and (other is t or in_cone(f.pos, t.pos, other.pos)):
            total += _expected(f.skill, row, f.pos.distance(other.pos), pair[0], True)
    return total


def _spare_loader(view: SideView, f: Figure, threats: list[Threat]) -> Figure | None:
    """A friend within reach who has nothing of its own to shoot at this turn."""
    if f.arms.crew < 2:
        return None
    for g in view.own:
        if g is f or not g.in_action or g.fired or g.pos.floor != f.pos.floor \
                or g.pos.distance(f.pos) > CREW_REACH:
            continue
        if not any((g.id, t.id) in view.exposure and g.pos.distance(t.pos) <= reach(
                fire_row(g.weapon, False)) for t in threats):
            return g
    return None


# ---------------------------------------------------------------------- reaction


def _reaction(view: SideView, f: Figure, threats: list[Threat],
              legal: Sequence[Order]) -> Order | None:
    """Fire at the mover when the best shot along its path is worth the figure's turn:
    better than it will be once the mover stops, or at a mover closing on our rooms."""
    assert view.reaction is not None
    mover = view.reaction.mover
    if mover is None:
        return None
    row = fire_row(f.weapon, False, 1)
    best = 0.0
    for spot, stance in view.reaction.firers.get(f.id, ()):
        fifths = view.geometry.fifths(f.pos, spot, stance)
        best = max(best, _hit_odds_row(f.skill, row, f.pos.distance(spot), fifths))
    now = next((t for t in threats if t.id == mover and t.visible), None)
    later = 0.0
    if now is not None:
        pair = view.exposure.get((f.id, mover))
        later = _hit_odds_row(f.skill, row, f.pos.distance(now.pos), pair[0]) if pair else 0.0
    worth = REACT_WORTH if view.defending else REACT_WORTH_ATTACKING
    closing = now is not None and now.pos.section in view.goal_sections
    if best >= worth and (best > later * 1.5 + 0.05 or closing):
        order = Order(view.side, "fire", f.id, {"target": mover})
        if allowed(legal, order):
            return order
    return None


# ---------------------------------------------------------------------- odds


@lru_cache(maxsize=8192)
def _odds_cached(skill: int, row: Row, band_gap: float, fifths: int, auto: bool,
                 expect: bool) -> float:
    try:
        chance = hit_chance(skill, row, band_gap, auto)
    except OutOfRange:
        return 0.0
    if expect:
        return float(expected_hits(chance, fifths))
    return float(at_least_one_hit(chance, fifths))


def _band_key(gap: float) -> float:
    # the bands change only at whole inches: a range just over a limit is in the next band
    return float(ceil(round(gap, 9)))


@lru_cache(maxsize=1024)
def _odds_table(skill: int, row: Row) -> FloatArray:
    """`_hit_odds_row` by band (a last row of noughts beyond reach) and fifths shown."""
    limits = band_limits(row)
    table = np.zeros((MAX_BANDS + 1, 6))
    for band, limit in enumerate(limits.tolist()):
        chance = hit_chance(skill, row, float(limit), False)  # as `_odds_cached` asks it
        for fifths in range(1, 6):
            table[band, fifths] = _one_hit_odds(chance, fifths)
    return table


@lru_cache(maxsize=4096)
def _one_hit_odds(chance: int, fifths: int) -> float:
    # many skills and bands come to the same chance: each is worked out once
    return float(at_least_one_hit(chance, fifths))


def _hit_odds_row(skill: int, row: Row, gap: float, fifths: int) -> float:
    return _odds_cached(skill, row, _band_key(gap), fifths, False, False)


def _expected(skill: int, row: Row, gap: float, fifths: int, auto: bool) -> float:
    return _odds_cached(skill, row, _band_key(gap), fifths, auto, True)


# ---------------------------------------------------------------------- helpers


@per_map()
def section_field(sight: SightEngine, section: str, height: float) -> DistanceField:
    """Walking distances into one building section, built once per map (asked only of
    the objective's sections, which are public) and shared by every user of the map."""
    return DistanceField(sight, lambda pos: pos.section == section,
                         lambda a, b: easy_step(sight, height, a, b))


def _threats(view: SideView) -> list[Threat]:
    return [_threat(enemy_id, s) for enemy_id, s in view.enemies if s.alive]


def _threat(enemy_id: str, s: Seen) -> Threat:
    return Threat(enemy_id, s.pos, s.doing, s.kind, s.visible,
                  s.step if s.step is not None else ENEMY_STEP)

