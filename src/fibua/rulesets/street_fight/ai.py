"""The computer opponent for Street-Fight. It decides from its side's view alone.

Doctrine: shoot what it can hurt most and aim when the shot is poor; move along real paths
toward the scenario's objective, from cover to cover, weighing the harm a place lets it do
against the fire it draws there; run when nothing is in sight; hold an objective once in
it; watch the approaches when no enemy shows; charge when close combat favours it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from math import atan2, cos, pi, sin
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField
from fibua.battlefield.sight import SightEngine
from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.rulesets.street_fight.actions import leg_blocked
from fibua.rulesets.street_fight.cover import COVER_REACH, OBSTACLE_COVER, position_cover
from fibua.rulesets.street_fight.shooting import Situation, hit_chance, increments, kill_chance
from fibua.rulesets.street_fight.state import Figure, Phase
from fibua.rulesets.street_fight.tables import CONTACT, MOVE_MAX, MOVE_NORMAL, WEAPONS, WeaponName
from fibua.rulesets.street_fight.views import SideView

HEADINGS = 8
WALK = (2.5, MOVE_NORMAL)
RUN = (MOVE_MAX,)
PROGRESS = 0.07  # value of an inch nearer the objective
HOLDING = 0.4  # value of standing in the objective
SHELTER = 0.1  # value of cover within reach
RISK = 0.9  # weight of the fire a place draws, for a figure holding its place
ROOM_LOAD = 6.0  # inches a friend already bound for a section counts against it
RISK_ADVANCING = 0.1  # an attack that waits for safety never arrives (tuned by win rate)
WATCH_RANGE = 6.0
ENEMY_GUESS = WeaponName.RIFLE  # what an unseen enemy weapon is assumed to be
EXPECTED_ROUNDS = {None: 1.0, "d10/2": 3.0, "d10": 5.5}

SECTORS = 8
PROBE = 6.0  # inches: how far out the cover map looks from, in each direction

GRID_CELLS = 4  # cells per inch of the computer's cover-nearby grid
_COVER_GRIDS: WeakKeyDictionary[SightEngine, np.ndarray[Any, np.dtype[np.bool_]]] = (
    WeakKeyDictionary()
)
_COVER_MAPS: WeakKeyDictionary[SightEngine, CoverMap] = WeakKeyDictionary()
_SECTION_FIELDS: WeakKeyDictionary[SightEngine, dict[str, DistanceField]] = WeakKeyDictionary()


class CoverMap:
    """Cover (in quarters) of a figure standing in each 1 in cell, against fire from each
    of eight directions: the computer's quick estimate of `position_cover`, worked out
    once per map (the exact rule decides every real shot)."""

    def __init__(self, sight: SightEngine) -> None:
        table = sight.battlefield.table
        self.nx, self.ny = int(table.width) + 1, int(table.height) + 1
        self._cover: dict[tuple[int, int, str | None, int], int] = {}
        self._sight = sight

    def cover(self, at: Position, fire_from: Position) -> int:
        sector = int((atan2(fire_from.y - at.y, fire_from.x - at.x) / (2 * pi)) * SECTORS
                      + 0.5) % SECTORS
        key = (int(at.x), int(at.y), at.section, sector)
        found = self._cover.get(key)
        if found is None:
            found = self._cover[key] = self._probe(key, at.floor)
        return found

    def _probe(self, key: tuple[int, int, str | None, int], floor: int) -> int:
        i, j, section, sector = key
        angle = 2 * pi * sector / SECTORS
        spot = Position(i + 0.5, j + 0.5, section, floor)
        if section is not None and self._sight.section_at(spot.point) != section:
            spot = Position(i + 0.5, j + 0.5, self._sight.section_at((i + 0.5, j + 0.5)), floor)
        source = Position(spot.x + PROBE * cos(angle), spot.y + PROBE * sin(angle))
        return position_cover(self._sight, source, spot)


def section_field(sight: SightEngine, section: str) -> DistanceField:
    """Walking distances into one building section, built once per map."""
    fields = _SECTION_FIELDS.setdefault(sight, {})
    if section not in fields:
        fields[section] = DistanceField(
            sight,
            lambda pos: pos.section == section,
            lambda a, b: leg_blocked(sight, a, b) is None,
        )
    return fields[section]


def cover_map(sight: SightEngine) -> CoverMap:
    if sight not in _COVER_MAPS:
        _COVER_MAPS[sight] = CoverMap(sight)
    return _COVER_MAPS[sight]


@dataclass(frozen=True, slots=True)
class Threat:
    """An enemy figure as this side knows it."""

    id: str
    pos: Position
    visible: bool
    weapon: WeaponName


class Tactician:
    def __init__(self, side: str, seed: int, units: frozenset[str] | None = None) -> None:
        self.side = side
        self.units = units  # the figures it commands; None for all
        self._rng = random.Random(seed)
        self._phase: tuple[int, Phase] = (0, Phase.MOVE)
        self._done: set[str] = set()  # figures already given their order (or left alone)
        self._rooms: dict[str, str] = {}  # figure -> objective section it heads for
        self._defending: bool | None = None  # started in its objective: holds, not clears

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        """Orders figures one at a time: the best allowed order of the next figure."""
        if self._defending is None:
            self._defending = any(f.pos.section in view.goal_sections for f in view.own)
        if (view.turn, view.phase) != self._phase:
            self._phase = (view.turn, view.phase)
            self._done = set()
            self._rooms = self._assign_rooms(view)
        threats = _threats(view)
        for figure in self._by_distance(view):
            if figure.id in self._done:
                continue
            self._done.add(figure.id)
            options = (self._fire_options(view, figure, threats) if view.phase is Phase.SHOOT
                       else self._move_options(view, figure, threats))
            for order, score in sorted(options, key=lambda c: -c[1]):
                if score > 0 and allowed(legal, order):
                    return order
        return Order(self.side, "end")

    def _by_distance(self, view: SideView) -> list[Figure]:
        """Leading figures first, so those behind can follow into the space they leave."""
        alive = [f for f in view.own
                 if f.alive and (self.units is None or f.id in self.units)]
        if view.goal is None:
            return alive
        goal = view.goal
        return sorted(alive, key=lambda f: goal.distance(f.pos))

    # ------------------------------------------------------------------ fire

    def _fire_options(self, view: SideView, f: Figure,
                      threats: list[Threat]) -> list[tuple[Order, float]]:
        options: list[tuple[Order, float]] = []
        visible = [t for t in threats if t.visible]
        best = 0.0
        for t in visible:
            odds = _kill_odds(view, f, f.pos, t.pos, f.counts_as_moving, f.aim)
            best = max(best, odds)
            options.append((Order(self.side, "shoot", f.id, {"target": t.id}), 1 + odds))
        can_aim = f.arms.aims and not f.counts_as_moving and f.aim < 3
        if can_aim:
            aimed = max((_kill_odds(view, f, f.pos, t.pos, False, f.aim + 1) for t in visible),
                        default=0.0)
            holding = view.goal is None or view.goal.distance(f.pos) == 0
            if not visible and holding:
                # a figure that will move on loses its aim: only those holding prepare
                options.append((Order(self.side, "aim", f.id), 0.5))
            elif best < 0.1 and aimed > best * 1.5:
                options.append((Order(self.side, "aim", f.id), 1 + aimed))
        return options

    # ------------------------------------------------------------------ movement

    def _move_options(self, view: SideView, f: Figure,
                      threats: list[Threat]) -> list[tuple[Order, float]]:
        quiet = not any(t.visible for t in threats)
        spots = self._spots(view, f, WALK + RUN if quiet else WALK)
        scores = self._place_scores(view, f, [f.pos, *spots], threats)
        here = scores[0]
        options: list[tuple[Order, float]] = []
        for spot, score in zip(spots, scores[1:], strict=True):
            if score > here + 0.02:
                options.append((Order(self.side, "move", f.id, {"to": [spot.x, spot.y]}),
                                1 + score - here))
        options += self._advance(view, f, threats, quiet, here)
        charge = self._charge(view, f, threats)
        if charge is not None:
            options.append(charge)
        options += self._clear_objective(view, f)
        if quiet:
            watch = self._watch(view, f)
            if watch is not None:
                options.append(watch)
        return options

    def _spots(self, view: SideView, f: Figure, steps: tuple[float, ...]) -> list[Position]:
        points = []
        table = view.sight.battlefield.table
        offset = self._rng.random() * 2 * pi / HEADINGS
        for k in range(HEADINGS):
            angle = offset + 2 * pi * k / HEADINGS
            for dist in steps:
                x = round(f.pos.x + dist * cos(angle), 2)
                y = round(f.pos.y + dist * sin(angle), 2)
                if 0 <= x <= table.width and 0 <= y <= table.height:
                    points.append((x, y))
        sections = view.sight.sections_at(points)
        return [Position(x, y, s) for (x, y), s in zip(points, sections, strict=True)]

    def _place_scores(self, view: SideView, f: Figure, spots: list[Position],
                      threats: list[Threat]) -> list[float]:
        """How good each place is (the first is where the figure stands)."""
        sight = view.sight
        seen = sight.visible_matrix(spots, [t.pos for t in threats]) if threats else None
        covers = cover_map(sight)
        start = view.goal.distance(f.pos) if view.goal else 0.0
        risk_weight = RISK_ADVANCING if start > 0 else RISK
        progress = PROGRESS * self._urgency(view, start)
        scores = []
        for i, spot in enumerate(spots):
            moved = f.pos.distance(spot)
            running = moved > MOVE_NORMAL
            harm = risk = 0.0
            for j, t in enumerate(threats):
                if seen is None or not seen[i, j]:
                    continue
                gap = t.pos.distance(spot)
                if not running:
                    theirs = covers.cover(t.pos, spot)
                    harm = max(harm, _odds(f.weapon, gap, theirs, False, moved > 0, 0))
                cover = 0 if running else covers.cover(spot, t.pos)
                risk += _odds(t.weapon, gap, cover, moved > 0, False, 0)
            score = harm - risk_weight * risk
            if _cover_nearby(view, spot):
                score += SHELTER
            if view.goal is not None:
                left = view.goal.distance(spot)
                score += progress * (start - left) + (HOLDING if left == 0 else 0.0)
            scores.append(score)
        return scores

    @staticmethod
    def _urgency(view: SideView, distance: float) -> float:
        """How much more an inch toward the objective is worth as the turns run out: the
        walk still needed against the walking left."""
        turns_left = max(1, view.turns - view.turn + 1)
        return max(1.0, distance / (MOVE_NORMAL * turns_left)) ** 2

    def _charge(self, view: SideView, f: Figure,
                threats: list[Threat]) -> tuple[Order, float] | None:
        """Charge a visible enemy within a move when close combat favours us; always join
        a fight a friend is already locked in (each extra attacker costs the enemy 1)."""
        for t in sorted(threats, key=lambda t: t.pos.distance(f.pos)):
            gap = f.pos.distance(t.pos)
            if not t.visible or gap > MOVE_NORMAL or gap <= CONTACT:
                continue
            mine = 1 + f.arms.close_combat  # the charge bonus
            locked = any(g.alive and g.id != f.id and g.pos.distance(t.pos) <= CONTACT
                         for g in view.own)
            if locked or mine > WEAPONS[t.weapon].close_combat:
                x = t.pos.x + (f.pos.x - t.pos.x) * 0.6 / gap
                y = t.pos.y + (f.pos.y - t.pos.y) * 0.6 / gap
                return Order(self.side, "move", f.id, {"to": [round(x, 2), round(y, 2)]}), 1.5
        return None

    def _assign_rooms(self, view: SideView) -> dict[str, str]:
        """Spread the figures still on their way over the objective's sections: each goes
        to the nearest section, counting the friends already bound there against it."""
        if len(view.goal_sections) < 2:
            return {}
        load = {s: 0 for s in view.goal_sections}
        rooms = {}
        for f in self._by_distance(view):
            if f.pos.section in load:
                load[f.pos.section] += 1
                continue
            best = min(load, key=lambda s: section_field(view.sight, s).distance(f.pos)
                       + ROOM_LOAD * load[s])
            rooms[f.id] = best
            load[best] += 1
        return rooms

    def _advance(self, view: SideView, f: Figure, threats: list[Threat], quiet: bool,
                 here: float) -> list[tuple[Order, float]]:
        """Move along the best path toward the objective (walls and gateways included),
        to the section of it the figure was given."""
        if view.goal is None or view.goal.distance(f.pos) == 0:
            return []
        room = self._rooms.get(f.id)
        field = section_field(view.sight, room) if room else view.goal
        options = []
        for length in (MOVE_NORMAL, MOVE_MAX) if quiet else (MOVE_NORMAL,):
            path = field.descend(f.pos, length - 0.01)
            if len(path) < 2 and f.pos.distance(Position(*path[0])) < 0.5:
                continue
            end = Position(path[-1][0], path[-1][1], view.sight.section_at(path[-1]))
            score = self._place_scores(view, f, [f.pos, end], threats)[1]
            options.append((Order(self.side, "move", f.id,
                                  {"path": [[round(x, 2), round(y, 2)] for x, y in path]}),
                            1 + score - here + 0.01))
        return options

    def _clear_objective(self, view: SideView, f: Figure) -> list[tuple[Order, float]]:
        """Holding needs every room of the objective free of enemies, and an enemy
        upstairs or next door is unseen: send spare figures to the floors and sections
        of the objective that no friend stands in."""
        here = f.pos.section
        if here is None or here not in view.goal_sections:
            return []
        alive = [g for g in view.own if g.alive and g.id != f.id]
        alone_here = not any(g.pos.section == here for g in alive)
        hostile = self._enemy_rooms(view)
        if hostile and (here, f.pos.floor) not in hostile:
            go = self._toward_enemy_room(view, f, hostile, alone_here)
            if go:
                return go
        if self._defending:
            return []  # defenders hold their posts; they move to fight, not to search
        held = {(g.pos.section, g.pos.floor) for g in alive} | {(here, f.pos.floor)}
        battlefield = view.sight.battlefield
        for floor in range(battlefield.section(here).levels):
            # changing floor keeps the section held, so even the last friend in it goes
            if (here, floor) not in held and (alone_here or not any(
                    g.pos.section == here and g.pos.floor == floor for g in alive)):
                return [(Order(self.side, "move", f.id,
                               {"to": [f.pos.x, f.pos.y], "floor": floor}), 1.3)]
        if alone_here:
            return []  # the last friend in this section stays to hold it
        for section in view.goal_sections:
            if (section, 0) in held or section == here:
                continue
            path = section_field(view.sight, section).descend(f.pos, MOVE_NORMAL - 0.01)
            if len(path) > 1:
                route = [[round(x, 2), round(y, 2)] for x, y in path]
                return [(Order(self.side, "move", f.id, {"path": route}), 1.25)]
        return []

    @staticmethod
    def _enemy_rooms(view: SideView) -> set[tuple[str, int]]:
        """Rooms of the objective where an enemy was last seen, alive."""
        return {(s.section, s.floor) for _, s in view.enemies
                if s.alive and s.section in view.goal_sections}

    def _toward_enemy_room(self, view: SideView, f: Figure, hostile: set[tuple[str, int]],
                           alone_here: bool) -> list[tuple[Order, float]]:
        """Take the fight to an enemy inside the objective: up or down to its floor, or
        through to its section (unless this figure alone holds where it stands)."""
        here = f.pos.section
        for section, floor in sorted(hostile):
            if section == here:
                return [(Order(self.side, "move", f.id,
                               {"to": [f.pos.x, f.pos.y], "floor": floor}), 1.35)]
        if alone_here:
            return []
        section = sorted(hostile)[0][0]
        path = section_field(view.sight, section).descend(f.pos, MOVE_NORMAL - 0.01)
        if len(path) < 2:
            return []
        route = [[round(x, 2), round(y, 2)] for x, y in path]
        return [(Order(self.side, "move", f.id, {"path": route}), 1.3)]

    def _watch(self, view: SideView, f: Figure) -> tuple[Order, float] | None:
        """Overwatch a visible point toward the enemy, when holding a place."""
        if view.enemy_zone is None or f.ran_last_turn:
            return None
        if view.goal is not None and view.goal.distance(f.pos) > 0:
            return None
        points = self._spots(view, f, (WATCH_RANGE,))
        if not points:
            return None
        seen = view.sight.visible_matrix([f.pos], points)[0]
        zone = view.enemy_zone
        choices = [p for p, s in zip(points, seen, strict=True) if s]
        if not choices:
            return None
        point = min(choices, key=lambda p: p.distance(zone))
        return Order(self.side, "overwatch", f.id,
                     {"point": [point.x, point.y], "radius": 3.0}), 1.05


def _cover_nearby(view: SideView, spot: Position) -> bool:
    """has_cover_nearby, read from a grid the computer works out once per map."""
    if spot.section is not None:
        return True
    grid = _COVER_GRIDS.get(view.sight)
    if grid is None:
        grid = _COVER_GRIDS[view.sight] = cover_grid(view.sight)
    i = min(grid.shape[0] - 1, max(0, int(spot.x * GRID_CELLS)))
    j = min(grid.shape[1] - 1, max(0, int(spot.y * GRID_CELLS)))
    return bool(grid[i, j])


def cover_grid(sight: SightEngine) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Cells (1/GRID_CELLS in) whose centre is within reach of a wall worth 1/2 cover."""
    table = sight.battlefield.table
    xs = (np.arange(int(table.width * GRID_CELLS) + 1) + 0.5) / GRID_CELLS
    ys = (np.arange(int(table.height * GRID_CELLS) + 1) + 0.5) / GRID_CELLS
    px, py = np.meshgrid(xs, ys, indexing="ij")
    near = np.zeros(px.shape, dtype=bool)
    for obstacle in sight.battlefield.obstacles:
        if OBSTACLE_COVER[obstacle.kind] < 2:
            continue
        for (ax, ay), (bx, by) in pairwise(obstacle.points):
            dx, dy = bx - ax, by - ay
            span = dx * dx + dy * dy or 1.0
            t = np.clip(((px - ax) * dx + (py - ay) * dy) / span, 0.0, 1.0)
            near |= np.hypot(px - ax - t * dx, py - ay - t * dy) <= COVER_REACH
    return near


def _threats(view: SideView) -> list[Threat]:
    return [
        Threat(enemy_id, Position(s.x, s.y, s.section, s.floor), s.visible,
               s.weapon or ENEMY_GUESS)
        for enemy_id, s in view.enemies
        if s.alive
    ]


def _kill_odds(view: SideView, f: Figure, at: Position, target: Position, moving: bool,
               aim: int) -> float:
    """Chance that one firing action of f from `at` removes a target at `target`."""
    cover = position_cover(view.sight, at, target)
    return _odds(f.weapon, view.sight.range_between(at, target), cover, False, moving, aim)


def _odds(weapon: WeaponName, distance: float, cover: int, target_moving: bool,
          firer_moving: bool, aim: int) -> float:
    """Chance that one firing action removes the target (the average number of rounds)."""
    steps = increments(distance, WEAPONS[weapon].increment)
    return _odds_by_steps(weapon, steps, cover, target_moving, firer_moving, aim)


@lru_cache(maxsize=4096)
def _odds_by_steps(weapon: WeaponName, steps: int, cover: int, target_moving: bool,
                   firer_moving: bool, aim: int) -> float:
    increment = WEAPONS[weapon].increment
    s = Situation(weapon, steps * increment, cover, target_moving, firer_moving, aim)
    single = hit_chance(s) / 100 * kill_chance(weapon)
    return float(1 - (1 - single) ** EXPECTED_ROUNDS[WEAPONS[weapon].rounds])
