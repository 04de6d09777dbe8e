"""The computer opponent for Street-Fight. It decides from its side's view alone.

Doctrine: shoot what it can hurt most, aim when the shot is poor, move from cover to cover
toward the objective, keep figures out of enemy sight lines it cannot answer, watch the
approaches it cannot see down, and charge when close combat favours it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import cos, pi, sin
from weakref import WeakKeyDictionary

from fibua.battlefield.model import Position
from fibua.battlefield.sight import SightEngine
from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.rulesets.street_fight.cover import has_cover_nearby, position_cover
from fibua.rulesets.street_fight.shooting import Situation, hit_chance, kill_chance
from fibua.rulesets.street_fight.state import Figure, Phase
from fibua.rulesets.street_fight.tables import MOVE_NORMAL, WEAPONS, WeaponName
from fibua.rulesets.street_fight.views import SideView

HEADINGS = 12
STEPS = (2.5, MOVE_NORMAL)
_COVER_MEMO: WeakKeyDictionary[SightEngine, dict[tuple[int, int, str | None], bool]] = (
    WeakKeyDictionary()
)
ENEMY_GUESS = WeaponName.RIFLE  # what an unseen enemy weapon is assumed to be


@dataclass(frozen=True, slots=True)
class Threat:
    """An enemy figure as this side knows it."""

    id: str
    pos: Position
    visible: bool
    weapon: WeaponName


class Tactician:
    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self._rng = random.Random(seed)
        self._phase: tuple[int, Phase] = (0, Phase.MOVE)
        self._done: set[str] = set()  # figures already given their order (or left alone)

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        """Orders figures one at a time: the best allowed order of the next figure."""
        if (view.turn, view.phase) != self._phase:
            self._phase = (view.turn, view.phase)
            self._done = set()
        threats = _threats(view)
        for figure in view.own:
            if not figure.alive or figure.id in self._done:
                continue
            self._done.add(figure.id)
            options = (self._fire_options(view, figure, threats) if view.phase is Phase.SHOOT
                       else self._move_options(view, figure, threats))
            for order, score in sorted(options, key=lambda c: -c[1]):
                if score > 0 and allowed(legal, order):
                    return order
        return Order(self.side, "end")

    # ------------------------------------------------------------------ fire

    def _fire_options(self, view: SideView, f: Figure,
                      threats: list[Threat]) -> list[tuple[Order, float]]:
        options: list[tuple[Order, float]] = []
        best_kill = 0.0
        for t in threats:
            if not t.visible:
                continue
            value = _kill_odds(view, f, f.pos, t.pos, f.counts_as_moving, f.aim)
            best_kill = max(best_kill, value)
            options.append((Order(self.side, "shoot", f.id, {"target": t.id}), 1 + value))
        if f.arms.aims and not f.counts_as_moving and f.aim < 3 and any(t.visible for t in threats):
            aimed = max((_kill_odds(view, f, f.pos, t.pos, False, f.aim + 1)
                         for t in threats if t.visible), default=0.0)
            if best_kill < 0.15 and aimed > best_kill:
                options.append((Order(self.side, "aim", f.id), 1.5 + aimed))
        elif f.arms.aims and not f.counts_as_moving and f.aim < 3 and not threats:
            options.append((Order(self.side, "aim", f.id), 0.5))
        return options

    # ------------------------------------------------------------------ movement

    def _move_options(self, view: SideView, f: Figure,
                      threats: list[Threat]) -> list[tuple[Order, float]]:
        spots = self._spots(view, f)
        scores = self._place_scores(view, f, [f.pos, *spots], threats)
        here = scores[0]
        options: list[tuple[Order, float]] = []
        for spot, score in zip(spots, scores[1:], strict=True):
            if score > here + 0.05:
                options.append((Order(self.side, "move", f.id, {"to": [spot.x, spot.y]}),
                                1 + score - here))
        charge = self._charge(view, f, threats)
        if charge is not None:
            options.append(charge)
        watch = self._watch(view, f, threats)
        if watch is not None:
            options.append(watch)
        elif _cover_nearby(view, f.pos) and not f.full_cover and not any(
                t.visible for t in threats):
            options.append((Order(self.side, "take-cover", f.id), 0.3))
        return options

    def _spots(self, view: SideView, f: Figure) -> list[Position]:
        spots = []
        table = view.sight.battlefield.table
        offset = self._rng.random() * 2 * pi / HEADINGS
        for k in range(HEADINGS):
            angle = offset + 2 * pi * k / HEADINGS
            for dist in STEPS:
                x = round(f.pos.x + dist * cos(angle), 2)
                y = round(f.pos.y + dist * sin(angle), 2)
                if 0 <= x <= table.width and 0 <= y <= table.height:
                    spots.append(Position(x, y, view.sight.section_at((x, y))))
        return spots

    def _place_scores(self, view: SideView, f: Figure, spots: list[Position],
                      threats: list[Threat]) -> list[float]:
        """How good each place is (the first is where the figure stands): harm it can do
        next shoot phase minus harm it risks, plus cover and progress to the objective."""
        sight = view.sight
        seen = sight.visible_matrix(spots, [t.pos for t in threats]) if threats else None
        scores = []
        for i, spot in enumerate(spots):
            moving = i > 0
            harm = risk = 0.0
            for j, t in enumerate(threats):
                if seen is None or not seen[i, j]:
                    continue
                harm = max(harm, _kill_odds(view, f, spot, t.pos, moving, 0))
                cover = position_cover(sight, t.pos, spot)
                risk += _kill_odds_weapon(t.weapon, t.pos.distance(spot), cover, moving)
            shelter = 0.15 if _cover_nearby(view, spot) else 0.0
            scores.append(harm - 0.8 * risk + shelter - 0.02 * self._objective_distance(view, spot))
        return scores

    def _objective_distance(self, view: SideView, spot: Position) -> float:
        goal = _objective(view)
        return 0.0 if goal is None else spot.distance(goal)

    def _charge(self, view: SideView, f: Figure,
                threats: list[Threat]) -> tuple[Order, float] | None:
        for t in threats:
            if t.visible and f.pos.distance(t.pos) <= MOVE_NORMAL:
                mine = 1 + f.arms.close_combat
                theirs = WEAPONS[t.weapon].close_combat
                if mine > theirs and view.sight.visible(f.pos, t.pos):
                    x = t.pos.x + (f.pos.x - t.pos.x) * 0.5 / max(f.pos.distance(t.pos), 0.5)
                    y = t.pos.y + (f.pos.y - t.pos.y) * 0.5 / max(f.pos.distance(t.pos), 0.5)
                    return Order(self.side, "move", f.id, {"to": [round(x, 2), round(y, 2)]}), 1.6
        return None

    def _watch(self, view: SideView, f: Figure,
               threats: list[Threat]) -> tuple[Order, float] | None:
        hidden = [t for t in threats if not t.visible]
        if any(t.visible for t in threats) or not hidden or f.ran_last_turn:
            return None
        nearest = min(hidden, key=lambda t: t.pos.distance(f.pos))
        if not view.sight.visible(f.pos, nearest.pos):
            return None
        return (Order(self.side, "overwatch", f.id,
                      {"point": [nearest.pos.x, nearest.pos.y], "radius": 3.0}), 1.2)


def _cover_nearby(view: SideView, spot: Position) -> bool:
    """has_cover_nearby, remembered per quarter inch: the map does not change."""
    memo = _COVER_MEMO.setdefault(view.sight, {})
    key = (round(spot.x * 4), round(spot.y * 4), spot.section)
    if key not in memo:
        memo[key] = has_cover_nearby(view.sight, spot)
    return memo[key]


def _threats(view: SideView) -> list[Threat]:
    out = []
    for enemy_id, s in view.enemies:
        if s.alive:
            out.append(Threat(enemy_id, Position(s.x, s.y, s.section, s.floor), s.visible,
                              ENEMY_GUESS))
    return out


def _objective(view: SideView) -> Position | None:
    """Where this side wants to be (the nearest of its objectives to its figures)."""
    return view.objectives[0] if view.objectives else None


def _kill_odds(view: SideView, f: Figure, at: Position, target: Position, moving: bool,
               aim: int) -> float:
    cover = position_cover(view.sight, at, target)
    s = Situation(f.weapon, view.sight.range_between(at, target), cover, False, moving, aim)
    rounds = {None: 1.0, "d10/2": 3.0, "d10": 5.5}[f.arms.rounds]
    single = hit_chance(s) / 100 * kill_chance(f.weapon)
    return float(1 - (1 - single) ** rounds)


def _kill_odds_weapon(weapon: WeaponName, distance: float, cover: int, moving: bool) -> float:
    s = Situation(weapon, distance, 0 if moving else cover, moving, False, 0)
    return hit_chance(s) / 100 * kill_chance(weapon)
