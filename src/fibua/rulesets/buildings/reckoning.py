"""What the Buildings computer reckons beyond the rules' estimates, from its side's view
alone: the chance of winning a close-quarters fight, whether the game as it stands would be
won, and the ways between the floors and sections of a building."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, repeat
from math import comb
from operator import attrgetter, eq
from typing import Any

from fibua.battlefield.model import Position
from fibua.core.events import Event
from fibua.rulesets.buildings.state import Unit
from fibua.rulesets.buildings.views import SideView
from fibua.scenario.objectives import victory_points

#: rounds of close quarters reckoned (the rules fight at most 20; few go past 4)
ROUNDS = 6

#: a place inside: (section, floor)
Place = tuple[str, int]
#: an event's kind
_KIND = attrgetter("kind")


def hit_chance(need: int) -> float:
    """The chance of a D6 roll of at least `need`."""
    return max(0.0, min(1.0, (7 - need) / 6))


@lru_cache(maxsize=4096)
def melee_odds(mine: int, theirs: int, p_mine: float, p_theirs: float,
               together: bool = True) -> float:
    """The chance the assaulters win close quarters: each model a damage roll (`p_mine`
    theirs, `p_theirs` ours) a round, both at once in a building (`together`), else the
    assaulters first; the side causing fewer casualties loses, a tie fights on."""
    return _odds(mine, theirs, p_mine, p_theirs, together, ROUNDS)


def _binomial(n: int, p: float) -> list[float]:
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


@lru_cache(maxsize=8192)
def _odds(mine: int, theirs: int, p_mine: float, p_theirs: float, together: bool,
          rounds: int) -> float:
    if theirs <= 0:
        return 1.0
    if mine <= 0 or rounds <= 0:
        return 0.0
    won = 0.0
    for x, px in enumerate(_binomial(mine, p_mine)):
        back = theirs if together else max(0, theirs - x)
        for y, py in enumerate(_binomial(back, p_theirs)):
            left_mine, left_theirs = max(0, mine - y), max(0, theirs - x)
            if left_theirs == 0 and left_mine > 0:
                won += px * py
            elif left_mine == 0 or x < y:
                continue
            elif x > y:
                won += px * py
            else:
                won += px * py * _odds(left_mine, left_theirs, p_mine, p_theirs, together,
                                       rounds - 1)
    return won


@dataclass(frozen=True, slots=True)
class _Placed:
    pos: Position


#: a unit destroyed, on the scale of the scenario's points: it decides equal points
DESTROYED_WORTH = 0.3
#: each enemy unit left in the sections the side must hold: one fewer is a step toward
#: the hold even while another still spoils it
SPOILER_WORTH = 0.2


def winning(view: SideView) -> bool:
    """Whether the side would win were the game to end now, as far as it knows: more
    points, or as many and more enemy units destroyed."""
    return _reckon(view, frozenset(), None)[0] > 0


def standing(view: SideView, dead: frozenset[str] = frozenset(),
             moved: tuple[str, Position] | None = None) -> float:
    """How the game stands for the side, as far as it knows, were it to end now: its
    points less the enemy's (the scenario's conditions over its units and the enemies
    where last seen), a little for each enemy unit it has destroyed less each of its own
    (the tie-break), and a little less for each enemy unit in the sections it must hold
    (one fewer is a step toward the hold while another still spoils it). `dead` are
    units (of either side) taken as destroyed, `moved` one of its units taken to a new
    place."""
    result, spoilers = _reckon(view, dead, moved)
    return result - SPOILER_WORTH * spoilers


def _reckon(view: SideView, dead: frozenset[str], moved: tuple[str, Position] | None
            ) -> tuple[float, int]:
    """The points less the enemy's and the tie-break (see `standing`), and the enemy
    units in the sections the side must hold."""
    def place(u: Unit) -> Position:
        if moved is not None and moved[0] == u.id:
            return moved[1]
        return Position(u.lead.x, u.lead.y, u.section, u.floor)

    mine = [_Placed(place(u)) for u in view.own
            if u.alive and u.aboard is None and u.id not in dead]
    theirs = [_Placed(Position(s.x, s.y, s.section, s.floor))
              for i, s in view.enemies if s.alive and i not in dead]
    points = victory_points(view.objectives, {view.side: mine, view.enemy: theirs})
    own = {u.id for u in view.own}
    fallen = _fallen(view.log)
    lost = sum(1 for u in fallen if u in own) + len(dead & own)
    killed = sum(1 for u in fallen if u not in own) + len(dead - own)
    held = frozenset[str]().union(*hold_groups(view))
    spoilers = sum(1 for p in theirs if p.pos.section in held)
    return (points[view.side] - points[view.enemy] + DESTROYED_WORTH * (killed - lost),
            spoilers)


def _fallen(log: Sequence[Event]) -> list[Any]:
    """The units the log's destroyed events name, in order: the events picked out by their
    kind in C (a view's log holds eighty events, few of them destroyed ones)."""
    return [e.data.get("unit") for e in compress(log, map(eq, map(_KIND, log),
                                                           repeat("destroyed")))]


def hold_groups(view: SideView) -> list[frozenset[str]]:
    """The sections of each hold condition of the side: one enemy in any of them spoils
    it, one unit of the side in any of them (and no enemy) meets it."""
    return [frozenset(spec.sections) for spec in view.objectives
            if spec.side == view.side and spec.kind == "hold" and spec.sections]


def group_of(view: SideView, sid: str) -> frozenset[str]:
    """Every section held together with `sid` (itself alone if no condition names it)."""
    out = {sid}
    for group in hold_groups(view):
        if sid in group:
            out |= group
    return frozenset(out)


def neighbours(view: SideView, place: Place) -> Iterator[Place]:
    """Where one inside step leads: a floor up or down, or the same floor of a connected
    section (an intact one)."""
    field = view.sight.battlefield
    sid, floor = place
    if floor > 0:
        yield sid, floor - 1
    if floor + 1 < field.section(sid).levels:
        yield sid, floor + 1
    broken = {s for s, state in view.sections if state != "intact"}
    for a, b in field.building_of(sid).connections:
        other = b if a == sid else a if b == sid else None
        if other is not None and other not in broken and floor < field.section(other).levels:
            yield other, floor


def next_to(view: SideView, place: Place) -> list[Place]:
    """The places an assault on `place` is made from: the floor above or below, or the
    same floor of a connected section."""
    return list(neighbours(view, place))


def way_in(view: SideView, start: Place, goals: Iterable[Place],
           blocked: set[Place], within: frozenset[str] | None) -> list[Place] | None:
    """The fewest inside steps from `start` to one of `goals` (the start and each step
    after it), passing no place in `blocked` and no section outside `within` (None: any
    of the building); None if there is no way."""
    wanted = set(goals)
    if start in wanted:
        return [start]
    came: dict[Place, Place] = {}
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for step in neighbours(view, here):
            if step in seen or step in blocked or (within is not None
                                                   and step[0] not in within):
                continue
            seen.add(step)
            came[step] = here
            if step in wanted:
                path = [step]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return path[::-1]
            todo.append(step)
    return None


def one_move(path: list[Place]) -> bool:
    """Whether the path's steps are one Run: two floors of one section, or two sections
    on one floor."""
    (s0, f0), _, (s2, f2) = path[:3]
    return (s0 == s2 and abs(f0 - f2) == 2) or (f0 == f2 and s0 != s2)


def occupied(units: Iterable[Unit]) -> set[Place]:
    return {(u.section, u.floor) for u in units if u.alive and u.section is not None}
