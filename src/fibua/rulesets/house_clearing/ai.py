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
from dataclasses import dataclass
from functools import lru_cache
from math import ceil, cos, pi, sin

from fibua.battlefield.model import OpeningKind, Position
from fibua.battlefield.navigation import DistanceField
from fibua.battlefield.sight import BoolArray, SightEngine, per_map
from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.core.ruleset import commands
from fibua.rulesets.house_clearing.firing import in_cone
from fibua.rulesets.house_clearing.shooting import (
    OutOfRange,
    at_least_one_hit,
    expected_hits,
    fire_row,
    hit_chance,
    reach,
)
from fibua.rulesets.house_clearing.state import Figure, Phase
from fibua.rulesets.house_clearing.tables import (
    CREW_REACH,
    Row,
    Stance,
    WeaponName,
)
from fibua.rulesets.house_clearing.views import SideView, easy_step

HEADINGS = 10
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


@dataclass(frozen=True, slots=True)
class Choice:
    order: Order | None  # None: stay as it is
    score: float


class Sergeant:
    def __init__(self, side: str, seed: int, units: frozenset[str] | None = None) -> None:
        self.side = side
        self.units = units  # the ids of the figures it commands (a seat's); None for all
        self._rng = random.Random(seed)
        self._key: tuple[object, ...] = ()
        self._done: set[str] = set()

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        """Orders figures one at a time: the best allowed order of the next figure."""
        mover = view.reaction.mover if view.reaction else None
        key = (view.turn, view.phase, view.step, mover)
        if key != self._key:
            self._key, self._done = key, set()
        threats = _threats(view)
        for figure in self._ready(view):
            if figure.id in self._done:
                continue
            self._done.add(figure.id)
            order = self._order_for(view, figure, threats, legal)
            if order is not None:
                return order
        return Order(self.side, "end")

    def _ready(self, view: SideView) -> list[Figure]:
        mine = [f for f in view.own
                if f.in_action and commands(self.units, f.id)]
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
        return sorted(ready, key=lambda f: (goal.distance(f.pos), f.id))

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
        routes = self._routes(view, f)
        spots = [f.pos] + [end for end, _ in routes]
        scored = _place_scores(view, f, spots, threats)
        choices: list[Choice] = []
        for i, (score, stance) in enumerate(scored):
            if i == 0:
                order = None if stance is f.stance else \
                    Order(self.side, "stance", f.id, {"stance": str(stance)})
                choices.append(Choice(order, score))
                continue
            params = dict(routes[i - 1][1], stance=str(stance))
            choices.append(Choice(Order(self.side, "move", f.id, params), score))
        for choice in sorted(choices, key=lambda c: -c.score):
            if choice.order is None:
                return None
            if allowed(legal, choice.order):
                return choice.order
        return None

    def _routes(self, view: SideView, f: Figure) -> list[tuple[Position, dict[str, object]]]:
        """Places to go, with the move parameters that take the figure there."""
        out: list[tuple[Position, dict[str, object]]] = []
        sight = view.sight
        for fld in self._fields(view, f):
            seen: set[tuple[float, float]] = set()
            for length in (9.0, 6.0, 4.0, 3.0, 2.0, 1.0):
                path = fld.descend(f.pos, length)
                end = path[-1]
                if end in seen or (len(path) < 2 and f.pos.distance(Position(*end)) < 0.3):
                    continue
                seen.add(end)
                where = Position(end[0], end[1], sight.section_at(end))
                route = [[round(x, 2), round(y, 2)] for x, y in path]
                out.append((where, {"path": route}))
        out += _stairs(view, f)
        table = sight.battlefield.table
        pace = view.geometry.rate_at(f.pos.x, f.pos.y)
        offset = self._rng.random() * 2 * pi / HEADINGS
        for k in range(HEADINGS):
            angle = offset + 2 * pi * k / HEADINGS
            for dist in sorted({1.5, min(pace, 3.0), pace}):
                x = round(f.pos.x + dist * cos(angle), 2)
                y = round(f.pos.y + dist * sin(angle), 2)
                if 0 <= x <= table.width and 0 <= y <= table.height:
                    section = sight.section_at((x, y))
                    floor = f.pos.floor if section == f.pos.section else 0
                    out.append((Position(x, y, section, floor), {"to": [x, y]}))
        return out

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


def _stairs(view: SideView, f: Figure) -> list[tuple[Position, dict[str, object]]]:
    """Up or down the stairs of the room it is in."""
    if f.pos.section is None:
        return []
    levels = view.sight.battlefield.section(f.pos.section).levels
    return [(Position(f.pos.x, f.pos.y, f.pos.section, n),
             {"to": [f.pos.x, f.pos.y], "floor": n})
            for n in range(levels) if n != f.pos.floor]


# ---------------------------------------------------------------------- scoring places


def _stances(view: SideView, spot: Position) -> tuple[Stance, ...]:
    if spot.section is not None and view.geometry.can_lean(spot):
        return (Stance.STANDING, Stance.CROUCHING, Stance.LEANING)
    return (Stance.STANDING, Stance.CROUCHING)


def _place_scores(view: SideView, f: Figure, spots: list[Position],
                  threats: list[Threat]) -> list[tuple[float, Stance]]:
    """The best score of each place and the stance that gets it (the first place is where
    the figure stands)."""
    sight, geometry = view.sight, view.geometry
    seen = sight.visible_matrix(spots, [t.pos for t in threats]) if threats else None
    watch = _watch_matrix(view, spots)
    ground = _Ground(view, f, threats)
    out = []
    for i, spot in enumerate(spots):
        base = ground.score(spot)
        pairs = []
        for j, t in enumerate(threats):
            if seen is not None and seen[i, j]:
                pairs.append((t, geometry.screen(spot, t.pos), geometry.screen(t.pos, spot)))
        best: tuple[float, Stance] | None = None
        for stance in _stances(view, spot):
            score = base + _fight_score(view, f, spot, stance, pairs)
            if watch is not None:
                score += _watch_score(view, spot, stance, watch[0], watch[1][i])
            if best is None or score > best[0] + 1e-9:
                best = (score, stance)
        assert best is not None
        out.append(best)
    return out


class _Ground:
    """What a place is worth for where it is, for one figure: worked out once per figure,
    then asked for each place."""

    def __init__(self, view: SideView, f: Figure, threats: list[Threat]) -> None:
        self.view, self.f, self.threats = view, f, threats
        self.friends = [g for g in view.own if g.in_action and g.id != f.id]
        self.start = view.goal.distance(f.pos) if view.goal is not None else 0.0
        self.urgency = 1.0 if view.defending else 0.6 + 0.8 * view.turn / view.turns
        self.open_rooms = [] if view.defending else self._open_rooms()
        self.way_here = self._way(f.pos) if self.open_rooms else 0.0

    def score(self, spot: Position) -> float:
        view, friends = self.view, self.friends
        score = 0.0
        if view.goal is not None:
            left = view.goal.distance(spot)
            score += PROGRESS * self.urgency * min(self.start - left, 9.0)
            if left == 0:
                score += HOLD
        if spot.section is not None and spot.section in view.goal_sections:
            score += self._room(spot)
        if any(g.pos.distance(spot) < 1.0 for g in friends):
            score -= CROWD
        if self.open_rooms:
            # attackers go on to the rooms and floors no friend holds yet
            score += PROGRESS * min(self.way_here - self._way(spot), 6.0)
        return score

    def _room(self, spot: Position) -> float:
        """A room of the objective: spread to every room, and go into one the enemy holds
        only with a friend at hand (rooms are cleared together)."""
        view, friends = self.view, self.friends
        score = 0.0
        if not any(g.pos.section == spot.section and g.pos.floor == spot.floor
                   for g in friends):
            score += SPREAD
        held = any(t.pos.section == spot.section and t.pos.floor == spot.floor
                   for t in self.threats)
        together = any(g.pos.distance(spot) <= 3.0 for g in friends)
        if held and not together:
            score -= ALONE
        elif held and not view.defending:
            score += CLEAR * (0.5 + view.turn / view.turns)
        return score

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

    def _way(self, p: Position) -> float:
        sight, height = self.view.sight, self.view.options.figure_height
        return min(section_field(sight, s, height).distance(p)
                   + STAIRS * (abs(n - p.floor) if p.section == s else n + p.floor)
                   for s, n in self.open_rooms)


def _fight_score(view: SideView, f: Figure, spot: Position, stance: Stance,
                 pairs: list[tuple[Threat, float, float]]) -> float:
    """The harm the figure can do from here against the fire it draws. Fire from an enemy
    of higher initiative comes first: it counts double, and what it may take out of
    action first takes that much off the figure's own fire."""
    best = risk = 0.0
    survive = 1.0
    geometry = view.geometry
    for t, their_screen, my_screen in pairs:
        outside_t = t.pos.section is not None and spot.section != t.pos.section
        outside_me = spot.section is not None and t.pos.section != spot.section
        mine = geometry.fifths_behind(their_screen, t.stance, outside_t)
        theirs = geometry.fifths_behind(my_screen, stance, outside_me)
        if not mine or not theirs:
            continue
        gap = spot.distance(t.pos)
        weight = 1.0 if t.visible else REMEMBERED
        best = max(best, weight * _hit_odds(f.skill, f.weapon, gap, mine))
        danger = weight * _hit_odds(ENEMY_SKILL, t.weapon, gap, theirs)
        if t.step > f.step:
            risk += danger * FIRED_ON_FIRST
            survive *= 1 - danger * OUT_AFTER_A_HIT.get(f.initiative, 0.0)
        else:
            risk += danger * (1.0 if t.step == f.step else FIRED_ON_AFTER)
    return HARM * best * survive - RISK * risk


def _watch_score(view: SideView, spot: Position, stance: Stance, points: list[Position],
                 seen: BoolArray) -> float:
    """While no enemy is in view: attackers keep out of sight of the enemy's windows and
    doors; defenders look out over the approaches to theirs."""
    count = 0
    for point, visible in zip(points, seen, strict=True):
        if visible and view.geometry.fifths(point, spot, stance) and \
                view.geometry.fifths(spot, point, Stance.STANDING):
            count += 1
    if view.defending:
        return WATCHES * min(count, 5)
    return -WATCHED * min(count, 6)


def _watch_matrix(view: SideView,
                  spots: list[Position]) -> tuple[list[Position], BoolArray] | None:
    if any(s.visible and s.alive for _, s in view.enemies):
        return None
    points = _watch_points(view)
    if not points:
        return None
    return points, view.sight.visible_matrix(spots, points)


def _watch_points(view: SideView) -> list[Position]:
    """Defenders: just outside the doors and windows of their rooms. Attackers: just
    inside those of the rooms the enemy holds."""
    sections = view.goal_sections if view.defending else view.enemy_goal_sections
    offset = OUTSIDE_OPENING if view.defending else -INSIDE_OPENING
    return _opening_points(view.sight, tuple(sections), offset)


@per_map()  # asked of the objectives' sections, which are public
def _opening_points(sight: SightEngine, sections: tuple[str, ...],
                    offset: float) -> list[Position]:
    field = sight.battlefield
    points = []
    for sid in sections:
        section = field.section(sid)
        for opening in section.openings:
            if opening.kind is OpeningKind.SLIT:
                continue
            (x0, y0), (x1, y1) = section.opening_segment(opening)
            dx, dy = x1 - x0, y1 - y0
            length = (dx * dx + dy * dy) ** 0.5
            # footprints run anticlockwise: outward is to the right of the wall
            x = (x0 + x1) / 2 + dy / length * offset
            y = (y0 + y1) / 2 - dx / length * offset
            if not (0 <= x <= field.table.width and 0 <= y <= field.table.height):
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


def _hit_odds(skill: int, weapon: WeaponName, gap: float, fifths: int) -> float:
    return _hit_odds_row(skill, fire_row(weapon, False, 1), gap, fifths)


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
    return [
        Threat(enemy_id, s.pos, s.stance, s.weapon, s.visible,
               s.step_seen if s.step_seen is not None else ENEMY_STEP)
        for enemy_id, s in view.enemies
        if s.alive
    ]

