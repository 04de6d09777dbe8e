"""The `doctrine` player: a short drill, the same for every rule set, to measure the
computer against something better than random play.

It reads the side's view (its own troops, the enemies it has seen, where the scenario
sends it) and picks among the orders the rules offer, never making one of its own, in
this order of preference:
- close in: an assault the rules offer on the objective (a section of it, or an enemy
  seen in one), the first offered;
- hold: a figure or unit already on the side's objective stays there;
- advance by bounds from cover to cover (fire and movement): half the force moves in odd
  turns, the other half in even ones; of the offered moves that bring a figure at least
  half as near to the objective as the best one does (by walking distance where the rule
  set's view gives one, else straight; a move into a section of the objective counts as
  reaching it; with no objective to go to, toward the nearest enemy seen), it takes one
  ending in cover if there is one, the nearest to the objective. Each rule set's words
  for a move count (`move`, `advance`, `run`), whether it names a point, a path or a
  section to enter;
- fire, for the covering half and whoever has no move worth making: of the orders that
  name a target, the one at the nearest enemy seen now;
- otherwise it ends its part of the phase.
Cover is read from the public map alone, the same for every rule set: inside a building,
on rubble or rough ground, or just behind a wall, hedge or fence on the line from the
nearest enemy the side knows of. It is a drill, not a tactician.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from fibua.battlefield.model import Position, TerrainKind
from fibua.core.orders import Order

#: order kinds that fire at a named target without moving
FIRE_KINDS = frozenset({"shoot", "fire"})
#: the rule sets' words for an order that takes a unit somewhere
MOVE_KINDS = frozenset({"move", "advance", "run"})
#: parameters of a move that name the section it goes into
SECTION_PARAMS = ("enter", "section")
#: an order kind, or a parameter of a move, that closes with the enemy hand to hand
ASSAULT = "assault"
END_KIND = "end"
#: a move must bring a figure at least this much nearer (table units) to be worth it
MIN_GAIN = 0.5
#: ground that gives cover to whoever stands on it
COVER_TERRAIN = frozenset({TerrainKind.RUBBLE, TerrainKind.ROUGH})
#: how near behind an obstacle a place must be to shelter behind it (table units)
BEHIND = 1.5
#: more orders than this in one turn and the player ends its part (a guard, not a rule)
MAX_ORDERS_A_TURN = 400


def _position(thing: Any) -> Position | None:
    pos = getattr(thing, "pos", None)
    if pos is None and hasattr(thing, "x"):
        pos = Position(float(thing.x), float(thing.y), getattr(thing, "section", None))
    return pos if isinstance(pos, Position) else None


def _fighting(unit: Any) -> bool:
    return bool(getattr(unit, "in_action", getattr(unit, "alive", True)))


def _point(params: dict[str, Any]) -> tuple[float, float] | None:
    to = params.get("to")
    if to is None and isinstance(params.get("path"), list) and params["path"]:
        to = params["path"][-1]
    if isinstance(to, list | tuple) and len(to) == 2:
        return float(to[0]), float(to[1])
    return None


def _destination(params: dict[str, Any], sight: Any) -> Position | None:
    """Where a move ends: the point it names (in the section there, if the public map
    has one), or the centre of the section it enters."""
    point = _point(params)
    if point is not None:
        section = sight.section_at(point) if sight is not None else None
        return Position(point[0], point[1], section)
    for name in SECTION_PARAMS:
        section_id = params.get(name)
        if isinstance(section_id, str) and sight is not None:
            centre = _centre(sight.battlefield.section(section_id).footprint)
            return Position(centre[0], centre[1], section_id)
    return None


class Objective:
    """How far a place is from where the side must go, from what its view says."""

    def __init__(self, view: Any) -> None:
        self.goal = getattr(view, "goal", None)  # a walking-distance field, if given
        self.sections = set(getattr(view, "goal_sections", ()) or ()) or set(
            _objective_sections(view))
        self.points: list[tuple[float, float]] = []
        if self.goal is None:
            self.points = _objective_points(view)
            if not self.points:
                self.points = [(p.x, p.y) for p in _enemies_seen(view, alive_only=True)]

    def distance(self, x: float, y: float, section: str | None = None) -> float | None:
        if section is not None and section in self.sections:
            return 0.0
        if self.goal is not None:
            found = float(self.goal.distance(Position(x, y, section)))
            return found if math.isfinite(found) else None
        if not self.points:
            return None
        return min(math.hypot(x - px, y - py) for px, py in self.points)


def _own_goals(view: Any) -> list[Any]:
    """The side's hold and reach conditions, when the view carries the scenario's."""
    side = getattr(view, "side", None)
    return [spec for spec in getattr(view, "objectives", ()) or ()
            if getattr(spec, "side", None) == side
            and getattr(spec, "kind", "") in ("hold", "reach")]


def _objective_sections(view: Any) -> list[str]:
    return [section for spec in _own_goals(view) for section in spec.sections]


def _objective_points(view: Any) -> list[tuple[float, float]]:
    """Centres of the side's hold and reach objectives, from the scenario's public victory
    conditions when the view carries them."""
    sight = getattr(view, "sight", None)
    found = []
    for spec in _own_goals(view):
        if spec.zone:
            found.append(_centre(spec.zone))
        for section_id in spec.sections:
            if sight is not None:
                found.append(_centre(sight.battlefield.section(section_id).footprint))
    return found


def _centre(points: Sequence[Sequence[float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _enemies_seen(view: Any, alive_only: bool = True,
                  visible_only: bool = False) -> list[Position]:
    found = []
    for _, sighting in getattr(view, "enemies", ()):
        if alive_only and not getattr(sighting, "alive", True):
            continue
        if visible_only and not getattr(sighting, "visible", False):
            continue
        found.append(Position(float(sighting.x), float(sighting.y),
                              getattr(sighting, "section", None)))
    return found


class DoctrinePlayer:
    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.seed = seed
        self._turn = -1
        self._given = 0

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        turn = int(getattr(view, "turn", 0))
        if turn != self._turn:
            self._turn, self._given = turn, 0
        orders = list(legal)
        end = next((o for o in orders if o.kind == END_KIND), None)
        if self._given >= MAX_ORDERS_A_TURN and end is not None:
            return end
        objective = Objective(view)
        chosen = (self._assault(view, orders, objective)
                  or self._advance(view, orders, turn, objective) or self._fire(view, orders))
        if chosen is None:
            chosen = end if end is not None else orders[0]
        if chosen.kind != END_KIND:
            self._given += 1
        return chosen

    def _own(self, view: Any) -> dict[str, Any]:
        return {str(u.id): u for u in getattr(view, "own", ()) if _fighting(u)}

    def _assault(self, view: Any, orders: list[Order], objective: Objective) -> Order | None:
        sections = objective.sections
        if not sections:
            return None
        where = {i: getattr(s, "section", None) for i, s in getattr(view, "enemies", ())
                 if getattr(s, "alive", True)}
        own = self._own(view)
        for order in orders:
            if order.unit not in own:
                continue
            if order.kind == ASSAULT and order.params.get("section") in sections:
                return order
            if ASSAULT in order.params and where.get(order.params[ASSAULT]) in sections:
                return order
        return None

    def _fire(self, view: Any, orders: list[Order]) -> Order | None:
        seen = {i: Position(float(s.x), float(s.y)) for i, s in getattr(view, "enemies", ())
                if getattr(s, "visible", False) and getattr(s, "alive", True)}
        own = self._own(view)
        best: tuple[float, int] | None = None
        chosen = None
        for index, order in enumerate(orders):
            target = order.params.get("target")
            if order.kind not in FIRE_KINDS or target not in seen or order.unit not in own:
                continue
            firer = _position(own[order.unit])
            if firer is None:
                continue
            aim = seen[target]
            key = (math.hypot(firer.x - aim.x, firer.y - aim.y), index)
            if best is None or key < best:
                best, chosen = key, order
        return chosen

    def _advance(self, view: Any, orders: list[Order], turn: int,
                 objective: Objective) -> Order | None:
        own = self._own(view)
        ids = sorted(own)
        threats = _enemies_seen(view)
        sight = getattr(view, "sight", None)
        moves: list[tuple[float, float, int, Order, Position]] = []
        for index, order in enumerate(orders):
            if order.kind not in MOVE_KINDS or order.unit not in own or ASSAULT in order.params:
                continue
            if (ids.index(order.unit) + turn) % 2:
                continue  # this half covers while the other bounds
            here = _position(own[order.unit])
            there = _destination(order.params, sight)
            if here is None or there is None:
                continue
            now = objective.distance(here.x, here.y, here.section)
            if now is None or now == 0.0:
                continue  # nowhere to go, or holding the objective
            after = objective.distance(there.x, there.y, there.section)
            if after is None or now - after < MIN_GAIN:
                continue
            moves.append((now - after, after, index, order, there))
        if not moves:
            return None
        enough = max(gain for gain, *_ in moves) / 2
        worth = [m for m in moves if m[0] >= enough]
        covered = [m for m in worth
                   if sight is not None and _in_cover(sight, (m[4].x, m[4].y), threats)]
        _, _, _, chosen, _ = min(covered or worth, key=lambda m: (m[1], m[2]))
        return chosen


def _in_cover(sight: Any, place: tuple[float, float], threats: list[Position]) -> bool:
    """Whether a place on the public map shelters a figure from the nearest known enemy."""
    if sight.section_at(place) is not None or sight.terrain_at(place) in COVER_TERRAIN:
        return True
    if not threats:
        return False
    enemy = min(threats, key=lambda p: math.hypot(p.x - place[0], p.y - place[1]))
    hits = sight.obstacles_crossed(place, (enemy.x, enemy.y))
    return bool(hits) and hits[0][1] <= BEHIND
