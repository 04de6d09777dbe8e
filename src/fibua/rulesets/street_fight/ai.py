"""The computer opponent for Street-Fight. It decides from its side's view alone.

Doctrine: shoot what it can hurt most and aim when the shot is poor; move along real paths
toward the scenario's objective, from cover to cover, weighing the harm a place lets it do
against the fire it draws there; run when nothing is in sight; hold an objective once in
it; watch the approaches when no enemy shows; charge when close combat favours it. Against
an objective the enemy is known to hold, gather out of its sight (the ground its sections
overlook, from the public map) and take cover there until half the force has come up or
the turns run short, then cross the watched ground together, running. Against an
objective a known fixed gun stands in, go by bounds from one place out of the gun's
sight to the next (ai_approach), first to posts watching its doors, then together into it
at a walk, charging the defenders seen inside (ai_storm).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from math import atan2, cos, hypot, pi, sin
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField, Region
from fibua.battlefield.sight import PositionArrays, SightEngine, per_map
from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.core.ruleset import Notes, commands, kept_notes
from fibua.rulesets.street_fight.actions import leg_blocked, leg_to
from fibua.rulesets.street_fight.ai_approach import (
    Approach,
    CellGraph,
    SeenCells,
    WalksKept,
    approach,
    bound,
    cell_graph,
    danger,
    door_watch,
    goal_distances,
    kept_or_made,
)
from fibua.rulesets.street_fight.ai_storm import charge_route
from fibua.rulesets.street_fight.cover import position_cover
from fibua.rulesets.street_fight.estimates import (
    Weights,
    removal_chance,
    values_around,
    weapon_codes,
)
from fibua.rulesets.street_fight.shooting import increments
from fibua.rulesets.street_fight.state import Figure, Phase
from fibua.rulesets.street_fight.tables import (
    CONTACT,
    FLOOR_CHANGE_COST,
    MOVE_MAX,
    MOVE_NORMAL,
    WEAPONS,
    WeaponName,
)
from fibua.rulesets.street_fight.views import SideView

HEADINGS = 8
NOTES_KEY = "street-fight"  # where a side's notes (`RuleSet.computer`) keep `ApproachNotes`
PLANS_LIMIT = 256  # approaches the notes keep before they start afresh
WALK = (2.5, MOVE_NORMAL)
RUN = (MOVE_MAX,)
PROGRESS = 0.07  # value of an inch nearer the objective
HOLDING = 0.4  # value of standing in the objective
SHELTER = 0.1  # value of cover within reach
RISK = 0.9  # weight of the fire a place draws, for a figure holding its place
ROOM_LOAD = 6.0  # inches a friend already bound for a section counts against it
RISK_ADVANCING = 0.1  # an attack that waits for safety never arrives (tuned by win rate)
WATCH_RANGE = 6.0
CHARGE_GAP = 0.6  # inches from the enemy a charge ends
CHARGE_ROOM = 0.4  # inches a charge keeps from a friend (two cannot stand within 1/4 in)
CHARGE_TURNS = (0.0, 0.9, -0.9, 1.8, -1.8, 3.14)  # radians off the straight approach
STAGING_REACH = 14.0  # inches from the objective within which the attack gathers unseen
DASH_FROM = 15.0  # inches from the objective beyond which an advance may run in sight
ASSAULT_TURNS = 4  # turns before the end when the attack goes in, gathered or not
POST_DANGER = 0.1  # the most fire a place may draw for a figure to stay there and shoot
POST_ODDS = 0.15  # the least chance to remove a seen enemy that keeps a figure shooting
POST_TURNS = 6  # turns in which the attack watches the gun's doors for defenders coming in
POST_WORTH = 60.0  # inches of the way a post watching them is worth
STORM_WALK = MOVE_NORMAL - 0.05  # the longest move into the objective that keeps a shot
STORM_CHARGE = 1.4  # score of a storming walk into close combat, above any other move
STORM_TURNS = 5  # turns before the end when the attack enters the gun's building anyway
ENEMY_GUESS = WeaponName.RIFLE  # what an unseen enemy weapon is assumed to be


@dataclass(frozen=True, slots=True)
class Overlook:
    """Which 1-inch cells of the table can be seen from somewhere inside the objective's
    sections, on any floor: the public map only, where a defender could stand, not where
    one is."""

    seen: npt.NDArray[np.bool_]

    def watched(self, pos: Position) -> bool:
        """Whether the objective overlooks the cell the point stands in."""
        nx, ny = self.seen.shape
        return bool(self.seen[min(nx - 1, max(0, int(pos.x))), min(ny - 1, max(0, int(pos.y)))])


@per_map()
def overlook(sight: SightEngine, sections: frozenset[str]) -> Overlook:
    """`Overlook` of the objective's sections, built once per map."""
    table = sight.battlefield.table
    nx, ny = max(1, int(table.width)), max(1, int(table.height))
    cells = [Position(i + 0.5, j + 0.5, sight.section_at((i + 0.5, j + 0.5)))
             for i in range(nx) for j in range(ny)]
    places = sight.position_arrays(cells)
    seen = np.zeros(nx * ny, dtype=np.bool_)
    for section in sorted(sections):
        levels = sight.battlefield.section(section).levels
        for cell in cells:
            if cell.section == section:
                for floor in range(levels):
                    seen |= sight.visible_row(Position(cell.x, cell.y, section, floor), places)
    return Overlook(seen.reshape(nx, ny))


@per_map()
def section_field(sight: SightEngine, section: str) -> DistanceField:
    """Walking distances into one building section, built once per map (asked only of
    the objective's sections, which are public) and shared by every user of the map."""
    # a Region, not a plain test, lets many places be asked about in one batch
    return DistanceField(sight, Region(frozenset({section})),
                         lambda a, b: leg_blocked(sight, a, b) is None)


class Threat(NamedTuple):
    """An enemy figure as this side knows it (a tuple: made many times a decision)."""

    id: str
    pos: Position
    visible: bool
    weapon: WeaponName
    moving: bool  # counted as moving when last seen: harder to hit


@dataclass(frozen=True, slots=True)
class Threats:
    """The enemy figures a side knows of, with their places as arrays for the estimates
    (built once per decision, shared by every place weighed)."""

    known: list[Threat]
    places: PositionArrays
    weapon_codes: npt.NDArray[np.int64]  # their weapons, as the estimates number them
    in_sight: bool  # whether any of them is in sight now

    def __iter__(self) -> Iterator[Threat]:
        return iter(self.known)

    def __bool__(self) -> bool:
        return bool(self.known)


#: an option weighed for a figure and its score: the order, or what makes the order if
#: the option comes to be tried
Option = tuple[Order | Callable[[], Order], float]


@dataclass(slots=True)
class ApproachNotes:
    """What the computer works out from the public map alone: the cells seen from each
    place an enemy was seen at (`ai_approach.seen_cells`), the approaches worked out
    for a fire and posts on the cells (`Tactician._planned`) and the walks from the
    places its figures bound from. A side's computers of later games of the scenario
    may be handed them (`RuleSet.computer`'s `notes`)."""

    seen: SeenCells = field(default_factory=dict)
    plans: dict[tuple[DistanceField, bytes, bytes], Approach] = field(default_factory=dict)
    #: the walks from each place a bound or a charge started from (`ai_approach.walks`)
    walks: WalksKept = field(default_factory=WalksKept)


#: what an approach under a fixed gun is worked out from: the objective (its field and
#: sections), whether the posts are given up, the guns' and the defenders' places and arms
PlanKey = tuple[DistanceField, tuple[str, ...], bool,
                tuple[tuple[Position, WeaponName], ...], tuple[tuple[Position, WeaponName], ...]]


def approach_notes(notes: Notes | None) -> ApproachNotes:
    """The approach notes kept in a side's `notes`, new ones if there are none yet."""
    return kept_notes(notes, NOTES_KEY, ApproachNotes)


class Tactician:
    def __init__(self, side: str, seed: int, units: frozenset[str] | None = None,
                 notes: ApproachNotes | None = None) -> None:
        self.side = side
        self.units = units  # the figures it commands; None for all
        self._rng = random.Random(seed)
        self._phase: tuple[int, Phase] = (0, Phase.MOVE)
        self._done: set[str] = set()  # figures already given their order (or left alone)
        self._rooms: dict[str, str] = {}  # figure -> objective section it heads for
        self._queue: list[str] = []  # the phase's figures, leading ones first
        self._threats: tuple[int, Threats] | None = None  # with the view's news they came from
        self._defending: bool | None = None  # started in its objective: holds, not clears
        #: the fire of the enemies seen, on each cell of the approach
        self._seen_fire: npt.NDArray[np.float64] = np.zeros(0)
        #: the approach under a fixed gun, with the view's news it was worked out from
        self._approach: tuple[tuple[int, bool], Approach | None] | None = None
        self._notes = notes if notes is not None else ApproachNotes()
        #: the walks of its figures' bounds and charges, by place and reach
        self._walks = self._notes.walks
        #: `_storm_time`'s answer, with the view it was given for
        self._storm: tuple[SideView, bool] | None = None
        #: `_plan_for`'s fire and approach by what they are worked out from (a game's few)
        self._plans_kept: dict[PlanKey, tuple[npt.NDArray[np.float64], Approach]] = {}

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        """Orders figures one at a time: the best allowed order of the next figure."""
        if self._defending is None:
            self._defending = any(f.pos.section in view.goal_sections for f in view.own)
        if (view.turn, view.phase) != self._phase:
            self._phase = (view.turn, view.phase)
            self._done = set()
            leading = self._by_distance(view)
            self._queue = [f.id for f in leading]
            # rooms steer the advance, and figures advance only in the move phase
            if view.phase is Phase.MOVE:
                self._rooms = self._assign_rooms(view, leading)
        # within a phase only the figure just ordered moves, so the phase's leading order
        # still holds for the figures not yet ordered
        waiting = [figure_id for figure_id in self._queue if figure_id not in self._done]
        if not waiting:
            return Order(self.side, "end")
        threats = self._known_threats(view)
        contacts = _contacts(view, threats)
        own = {f.id: f for f in view.own}
        for figure_id in waiting:
            figure = own[figure_id]
            self._done.add(figure_id)
            if not figure.alive or not self._takes_orders(view, figure, contacts):
                continue
            options = (self._fire_options(view, figure, threats, contacts)
                       if view.phase is Phase.SHOOT
                       else self._move_options(view, figure, threats, contacts))
            for option, score in sorted(options, key=lambda c: -c[1]):
                if score <= 0:
                    break
                order = option if isinstance(option, Order) else option()
                if not _walled_off(view, figure, order) and allowed(legal, order):
                    return order
        return Order(self.side, "end")

    def _known_threats(self, view: SideView) -> Threats:
        """The enemies the side knows of, worked out again only when that knowledge
        changed since the last decision."""
        if self._threats is None or self._threats[0] != view.news:
            self._threats = (view.news, _threats(view))
        return self._threats[1]

    @staticmethod
    def _takes_orders(view: SideView, f: Figure, contacts: Contacts) -> bool:
        """Whether the figure can be given an order this phase, as far as its side can
        tell: the rules decide, this only spares weighing the options of figures that
        are falling back, sheltering, locked in combat or unable to fire."""
        if not f.steady or f.id in contacts:
            return False
        return view.phase is Phase.MOVE or not (f.fired or f.ran or f.overwatch is not None)

    def _by_distance(self, view: SideView) -> list[Figure]:
        """Leading figures first, so those behind can follow into the space they leave."""
        alive = [f for f in view.own
                 if f.alive and commands(self.units, f.id)]
        if view.goal is None:
            return alive
        # one at a time: a handful of figures, and the same distances as a batch's
        left = [view.goal.distance(f.pos) for f in alive]
        return [alive[k] for k in sorted(range(len(alive)), key=left.__getitem__)]

    # ------------------------------------------------------------------ fire

    def _fire_options(self, view: SideView, f: Figure, threats: Threats,
                      contacts: Contacts) -> list[tuple[Order, float]]:
        options: list[tuple[Order, float]] = []
        locked = set().union(*contacts.values())
        shown = [k for k, t in enumerate(threats) if t.visible and k not in locked]
        # its targets are the enemies this figure sees: the side's sightings, seen from
        # where the figure stands (the rules would refuse any other)
        visible: list[Threat] = []
        if shown:
            in_sight = view.sight.visible_row(f.pos, threats.places).tolist()
            visible = [threats.known[k] for k in shown if in_sight[k]]
        lines = [_line_of_fire(view, f.pos, t.pos) for t in visible]
        best = 0.0
        for t, (distance, cover) in zip(visible, lines, strict=True):
            odds = _odds(f.weapon, distance, cover, t.moving, f.counts_as_moving, f.aim)
            best = max(best, odds)
            if odds > 0:  # a shot none of whose rounds can hit does nothing
                options.append((Order(self.side, "shoot", f.id, {"target": t.id}), 1 + odds))
        can_aim = f.arms.aims and not f.counts_as_moving and f.aim < 3
        if can_aim:
            aimed = max((_odds(f.weapon, distance, cover, False, False, f.aim + 1)
                         for distance, cover in lines), default=0.0)
            holding = view.goal is None or view.goal.distance(f.pos) == 0
            if not visible and holding:
                # a figure that will move on loses its aim: only those holding prepare
                options.append((Order(self.side, "aim", f.id), 0.5))
            elif best < 0.1 and aimed > best * 1.5:
                options.append((Order(self.side, "aim", f.id), 1 + aimed))
        return options

    # ------------------------------------------------------------------ movement

    def _move_options(self, view: SideView, f: Figure, threats: Threats,
                      contacts: Contacts) -> list[Option]:
        quiet = not threats.in_sight
        left = view.goal.distance(f.pos) if view.goal else 0.0
        plan = self._approach_plan(view, threats) if left > 0 else None
        if plan is not None:
            return self._bound_options(view, f, plan, threats, contacts)
        overlooked = _overlooked(view)
        staged = self._staged(view, f, overlooked)
        if staged and not self._assault_time(view, overlooked):
            return self._wait_in_cover(view, f, threats, contacts)
        # once the attack goes in, the gathered figures may run across the watched ground
        # far off, fire from the open does little: the quicker across, the fewer shots
        paths = self._advance_paths(view, f, quiet or staged or left > DASH_FROM, left)
        # the spots and the ends of the advances placed and weighed in one call
        places, scores = self._scored_spots(view, f, WALK + RUN if quiet else WALK,
                                            [p[-1] for p in paths], threats, left)
        # plain floats from here on: a handful of values, read one by one
        values = scores.tolist()
        here = values[0]
        spots = places.xy.tolist()[:len(values) - len(paths)]
        # most options are never tried: their orders are made only when they are
        options: list[Option] = []
        for k in range(1, len(spots)):
            if values[k] > here + 0.02:
                options.append((partial(self._move_to, f.id, spots[k]), 1 + values[k] - here))
        for path, score in zip(paths, values[len(spots):], strict=True):
            options.append((partial(self._move_along, f.id, path), 1 + score - here + 0.01))
        if not quiet:  # a charge needs an enemy in sight
            options += self._charge(view, f, threats, contacts)
        options += self._clear_objective(view, f)
        if quiet and left == 0:
            watch = self._watch(view, f)
            if watch is not None:
                options.append(watch)
        return options

    def _approach_plan(self, view: SideView, threats: Threats) -> Approach | None:
        """The way to an objective a known fixed gun (one that cannot move and fire)
        stands in, avoiding the gun's sight (see ai_approach); None when no such gun is
        known there. Worked out again only when the side's knowledge changed or the
        posts are given up."""
        # the posts are given up after the first turns: that too changes the plan
        news = (view.news, view.turn > POST_TURNS)
        if self._approach is not None and self._approach[0] == news:
            return self._approach[1]
        found = None
        sections = set(view.goal_sections)
        fixed = [t for t in threats if not WEAPONS[t.weapon].moves_and_fires]
        if view.goal is not None and any(t.pos.section in sections for t in fixed):
            # news often leaves the guns and the defenders seen inside where they were:
            # the plan is a function of them, the objective, the posts and the map alone
            key = (view.goal, view.goal_sections, news[1],
                   tuple((t.pos, t.weapon) for t in fixed), _held(view, threats))
            self._seen_fire, found = kept_or_made(
                self._plans_kept, key, PLANS_LIMIT,
                lambda: self._plan_for(view, fixed, threats))
        self._approach = (news, found)
        return found

    def _plan_for(self, view: SideView, fixed: list[Threat], threats: Threats
                  ) -> tuple[npt.NDArray[np.float64], Approach]:
        """The fire on each cell and the approach under it (see `_approach_plan`)."""
        assert view.goal is not None
        graph = cell_graph(view.sight)
        # the gun fires where it sees, at whoever stays; riflemen out in the yard move,
        # and ground they see is where the attack can hit them: the gun's sight is
        # shunned, and that of the defenders seen in the objective, who stay put
        seen = self._notes.seen
        gun = danger(view.sight, graph, [(t.pos, t.weapon) for t in fixed], seen)
        gun = _together(gun, _held_fire(view, graph, threats, seen))
        return gun, self._planned(graph, view.goal, gun, self._posts(view, graph, gun))

    def _planned(self, graph: CellGraph, goal: DistanceField, risk: npt.NDArray[np.float64],
                 post: npt.NDArray[np.float64]) -> Approach:
        """`approach`, worked out once for the same fire and posts: news of an enemy
        often leaves both as they were."""
        return kept_or_made(self._notes.plans, (goal, risk.tobytes(), post.tobytes()),
                            PLANS_LIMIT, lambda: approach(graph, goal, risk, post))

    @staticmethod
    def _posts(view: SideView, graph: CellGraph, gun: npt.NDArray[np.float64]
               ) -> npt.NDArray[np.float64]:
        """The worth of each cell as a post while the defenders may still be coming into
        their building (the first turns): out of the gun's fire, watching its doors."""
        if view.goal is None or view.turn > POST_TURNS:
            return np.zeros(len(gun))
        outside = goal_distances(view.sight, graph, view.goal) > 0
        watching = door_watch(view.sight, graph, view.goal) & (gun < POST_DANGER) & outside
        return np.where(watching, POST_WORTH, 0.0)

    def _bound_options(self, view: SideView, f: Figure, plan: Approach, threats: Threats,
                       contacts: Contacts) -> list[Option]:
        """The next bound of the approach under a fixed gun, or full cover where the
        figure stands when no bound is better; a charge at an enemy come close, and in
        the storm a walk into close combat with a defender seen inside."""
        friends = [g.pos for g in view.own if g.alive and g.id != f.id]
        route = self._bound(view, f, plan, friends)
        options: list[Option] = []
        storming = self._storm_time(view)
        if storming:
            inside = [t.pos for t in threats if t.pos.section in view.goal_sections]
            charge = charge_route(view.sight, plan.graph, f.pos, inside, friends,
                                  self._walks)
            if charge is not None:
                options.append((partial(self._move_along, f.id, charge), STORM_CHARGE))
        if route is not None and (storming or not self._firing_post(view, f, plan, threats)):
            options.append((partial(self._move_along, f.id, route), 1.3))
        options.append((Order(self.side, "take-cover", f.id), 1.0))
        if threats.in_sight:
            options += self._charge(view, f, threats, contacts)
        return options

    def _bound(self, view: SideView, f: Figure, plan: Approach, friends: list[Position]
               ) -> list[tuple[float, float]] | None:
        """The figure's next bound, kept short of the objective until the attack storms
        it. Storming, it goes at a walk: a figure that walks in may still fight or fire
        that turn, one that runs in may not (see ai_storm for the charge itself)."""
        goal = view.goal
        route = bound(plan, f.pos, friends, kept=self._walks)
        if goal is None or route is None or goal.distance(Position(*route[-1])) > 0:
            return route
        if not self._storm_time(view):
            return None
        return bound(plan, f.pos, friends, STORM_WALK, self._walks)

    def _firing_post(self, view: SideView, f: Figure, plan: Approach, threats: Threats
                     ) -> bool:
        """Whether the figure stands out of the gun's reach with an enemy in sight it has
        a fair chance to hit: it stays and shoots rather than move on."""
        if not threats.in_sight or self._seen_fire[plan.graph.cell(f.pos)] > POST_DANGER:
            return False
        seen = view.sight.visible_row(f.pos, threats.places).tolist()
        for t, in_sight in zip(threats, seen, strict=True):
            if t.visible and in_sight:
                distance, cover = _line_of_fire(view, f.pos, t.pos)
                if _odds(f.weapon, distance, cover, True, False, 0) >= POST_ODDS:
                    return True
        return False

    def _storm_time(self, view: SideView) -> bool:
        """Whether the gathered attack goes into the objective: half the figures (at least
        two) are within a run of it, or the turns are running out (the storm, hand to
        hand, takes some turns to clear every room)."""
        if view.goal is None or view.turn >= view.turns - STORM_TURNS:
            return True
        # asked for each figure weighed, and again for its bound: a view is immutable
        if self._storm is not None and self._storm[0] is view:
            return self._storm[1]
        alive = [g for g in view.own if g.alive and commands(self.units, g.id)]
        left = [view.goal.distance(g.pos) for g in alive]
        near = sum(0 < d <= MOVE_MAX for d in left)
        inside = sum(d == 0 for d in left)
        storming = inside > 0 or near >= max(2, (len(alive) + 1) // 2)
        self._storm = (view, storming)
        return storming

    @staticmethod
    def _staged(view: SideView, f: Figure, overlooked: Overlook | None) -> bool:
        """Whether the figure waits unseen near the objective, where the last stretch
        of the approach is watched: one figure at a time crossing it is shot down one at
        a time, so they cross together."""
        if overlooked is None or view.goal is None or not Tactician._enemy_rooms(view):
            return False
        return (not overlooked.watched(f.pos)
                and 0 < view.goal.distance(f.pos) <= STAGING_REACH)

    def _assault_time(self, view: SideView, overlooked: Overlook | None) -> bool:
        """Time to cross: half the figures (at least two) have gathered unseen near the
        objective, or the turns left are only enough to cross and clear it."""
        if view.turn >= view.turns - ASSAULT_TURNS:
            return True
        alive = [g for g in view.own if g.alive and commands(self.units, g.id)]
        gathered = sum(self._staged(view, g, overlooked) for g in alive)
        return gathered >= max(2, (len(alive) + 1) // 2)

    def _wait_in_cover(self, view: SideView, f: Figure, threats: Threats,
                       contacts: Contacts) -> list[Option]:
        """While the others gather: full cover where it stands, or a charge at an enemy
        come close."""
        options: list[Option] = [(Order(self.side, "take-cover", f.id), 1.0)]
        if threats.in_sight:
            options += self._charge(view, f, threats, contacts)
        return options

    def _move_to(self, figure_id: str, to: list[float]) -> Order:
        return Order(self.side, "move", figure_id, {"to": to})

    def _move_along(self, figure_id: str, path: list[tuple[float, float]]) -> Order:
        route = [[round(x, 2), round(y, 2)] for x, y in path]
        return Order(self.side, "move", figure_id, {"path": route})

    def _spots(self, view: SideView, f: Figure, steps: tuple[float, ...]) -> PositionArrays:
        """The figure's own place first, then places at each distance in eight headings
        (turned by a random offset) that lie on the table."""
        return view.sight.places_around(f.pos, self._turn(), _step_array(steps), HEADINGS,
                                        NO_POINTS)

    def _scored_spots(self, view: SideView, f: Figure, steps: tuple[float, ...],
                      then: Sequence[tuple[float, float]], threats: Threats,
                      start: float) -> tuple[PositionArrays, npt.NDArray[np.float64]]:
        """`_spots`, then the points of `then` (on the ground floor), and how good each
        place is: the harm it lets the figure do, less the fire it draws there, and the
        way it leads. `start` is the figure's walking distance to the objective (0
        without one)."""
        offset = self._turn()
        extra = np.array(then, dtype=np.float64) if then else NO_POINTS
        weights = Weights(RISK_ADVANCING if start > 0 else RISK, SHELTER,
                          PROGRESS * self._urgency(view, start), HOLDING)
        return values_around(view.sight, f.weapon, f.pos, offset, _step_array(steps),
                             HEADINGS, extra, threats.places, threats.weapon_codes,
                             MOVE_NORMAL, view.goal, start, weights)

    def _turn(self) -> float:
        """A random turn of the ring of headings: the spots differ from one decision to
        the next."""
        return self._rng.random() * 2 * pi / HEADINGS

    @staticmethod
    def _urgency(view: SideView, distance: float) -> float:
        """How much more an inch toward the objective is worth as the turns run out: the
        walk still needed against the walking left."""
        turns_left = max(1, view.turns - view.turn + 1)
        return max(1.0, distance / (MOVE_NORMAL * turns_left)) ** 2

    def _charge(self, view: SideView, f: Figure, threats: Threats,
                contacts: Contacts) -> list[tuple[Order, float]]:
        """Charge a visible enemy within a move when close combat favours us; always join
        a fight a friend is already locked in (each extra attacker costs the enemy 1).
        Several places round the enemy are offered, so friends joining the same fight do
        not crowd each other out."""
        x, y = f.pos.x, f.pos.y
        # most decisions have no visible enemy within a move: those need no sorting
        near = [(k, t) for k, t in enumerate(threats) if t.visible
                and abs(t.pos.x - x) <= MOVE_NORMAL and abs(t.pos.y - y) <= MOVE_NORMAL]
        mine_locked = contacts.get(f.id, ())
        for k, t in sorted(near, key=lambda kt: kt[1].pos.distance(f.pos)):
            gap = f.pos.distance(t.pos)
            climb = FLOOR_CHANGE_COST * abs(t.pos.floor - f.pos.floor)
            if gap + climb > MOVE_NORMAL or k in mine_locked:
                continue
            mine = 1 + f.arms.close_combat  # the charge bonus
            locked = any(k in theirs for g, theirs in contacts.items() if g != f.id)
            if locked or mine > WEAPONS[t.weapon].close_combat:
                return self._charge_orders(view, f, t)
        return []

    def _charge_orders(self, view: SideView, f: Figure,
                       t: Threat) -> list[tuple[Order, float]]:
        """Places 0.6 in from the enemy, the straight approach first, then round it."""
        toward = atan2(f.pos.y - t.pos.y, f.pos.x - t.pos.x)
        floor = {"floor": t.pos.floor} if t.pos.floor != f.pos.floor else {}
        others = [g.pos for g in view.own if g.alive and g.id != f.id]
        orders = []
        for k, turn in enumerate(CHARGE_TURNS):
            x = round(t.pos.x + CHARGE_GAP * cos(toward + turn), 2)
            y = round(t.pos.y + CHARGE_GAP * sin(toward + turn), 2)
            if any(abs(g.x - x) < CHARGE_ROOM and abs(g.y - y) < CHARGE_ROOM
                   and g.floor == t.pos.floor for g in others):
                continue
            orders.append((Order(self.side, "move", f.id, {"to": [x, y], **floor}),
                           1.5 - 0.01 * k))
        return orders

    @staticmethod
    def _assign_rooms(view: SideView, leading: list[Figure]) -> dict[str, str]:
        """Spread the figures still on their way over the objective's sections, leading
        ones first: each goes to the nearest section, counting the friends already bound
        there against it."""
        if len(view.goal_sections) < 2:
            return {}
        load = {s: 0 for s in view.goal_sections}
        fields = {s: section_field(view.sight, s) for s in load}
        rooms = {}
        for f in leading:
            if f.pos.section in load:
                load[f.pos.section] += 1
                continue
            walks = {s: fields[s].distance(f.pos) for s in load}
            best = min(load, key=lambda s: walks[s] + ROOM_LOAD * load[s])
            rooms[f.id] = best
            load[best] += 1
        return rooms

    def _advance_paths(self, view: SideView, f: Figure, quiet: bool,
                       left: float) -> list[list[tuple[float, float]]]:
        """The best paths toward the objective (walls and gateways included), to the
        section of it the figure was given: a walk, and a run when no enemy is in sight.
        Until the attack goes in, a path stops short of the ground the objective
        overlooks. `left` is the figure's walking distance to the objective."""
        if view.goal is None or left == 0:
            return []
        room = self._rooms.get(f.id)
        field = section_field(view.sight, room) if room else view.goal
        overlooked = _overlooked(view)
        hold_short = not self._assault_time(view, overlooked)
        paths = []
        for length in (MOVE_NORMAL, MOVE_MAX) if quiet else (MOVE_NORMAL,):
            path = field.descend(f.pos, length - 0.01)
            if hold_short:
                path = _short_of_watch(view, overlooked, path)
            if len(path) < 2 and f.pos.distance(Position(*path[0])) < 0.5:
                continue
            paths.append(path)
        return paths

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
                gun = self._gun_charge(view, f, section, floor)
                if gun is not None:
                    return [(gun, 1.35)]
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

    def _gun_charge(self, view: SideView, f: Figure, section: str, floor: int
                    ) -> Order | None:
        """An attacker's climb straight into close combat with a fixed gun seen on
        another floor of its section: the gun fights at -2 hand to hand, and shoots
        whoever stops in its room."""
        if self._defending:
            return None
        for _, s in view.enemies:
            if (s.alive and s.section == section and s.floor == floor and s.kind
                    and not WEAPONS[s.kind].moves_and_fires):
                gap = hypot(s.x - f.pos.x, s.y - f.pos.y)
                climb = FLOOR_CHANGE_COST * abs(floor - f.pos.floor)
                if gap > CHARGE_GAP and gap - CHARGE_GAP + climb <= MOVE_NORMAL:
                    x = s.x + (f.pos.x - s.x) * CHARGE_GAP / gap
                    y = s.y + (f.pos.y - s.y) * CHARGE_GAP / gap
                    return Order(self.side, "move", f.id,
                                 {"to": [round(x, 2), round(y, 2)], "floor": floor})
        return None

    def _watch(self, view: SideView, f: Figure) -> tuple[Order, float] | None:
        """Overwatch a visible point toward the enemy (asked of a figure holding its
        place: in the objective, or with none to go to)."""
        if view.enemy_zone is None or f.ran_last_turn:
            return None
        points = self._spots(view, f, (WATCH_RANGE,))
        seen = view.sight.visible_row(f.pos, points)
        seen[0] = False  # its own place
        if not seen.any():
            return None
        zone = view.enemy_zone
        gaps = np.hypot(points.xy[:, 0] - zone.x, points.xy[:, 1] - zone.y)
        x, y = points.xy[int(np.argmin(np.where(seen, gaps, np.inf)))]
        return Order(self.side, "overwatch", f.id,
                     {"point": [float(x), float(y)], "radius": 3.0}), 1.05


NO_POINTS = np.empty((0, 2))


def _together(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.float64]:
    """The chance of being removed by either of two independent fires."""
    both: npt.NDArray[np.float64] = 1.0 - (1.0 - a) * (1.0 - b)
    return both


def _held_fire(view: SideView, graph: CellGraph, threats: Threats,
               kept: SeenCells | None = None) -> npt.NDArray[np.float64]:
    """For each cell outside the objective, the chance that the defenders seen inside it
    remove a figure standing there: they hold their rooms, so the ground their windows
    and doors look on is as deadly up close as the gun's is far off. Inside, the storm
    meets them anyway (see ai_storm)."""
    fire = danger(view.sight, graph, _held(view, threats), kept)
    if view.goal is not None:
        fire[goal_distances(view.sight, graph, view.goal) == 0] = 0.0
    return fire


def _held(view: SideView, threats: Threats) -> tuple[tuple[Position, WeaponName], ...]:
    """The places and weapons of the defenders seen in the objective that can move and
    fire (those `_held_fire` counts), in the side's order of its sightings."""
    return tuple((t.pos, t.weapon) for t in threats
                 if t.pos.section in view.goal_sections and WEAPONS[t.weapon].moves_and_fires)


def _short_of_watch(view: SideView, overlooked: Overlook | None,
                    path: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The path up to where it would leave unseen ground for the watched last stretch to
    an objective the enemy holds: there the figure waits for the others."""
    if overlooked is None or view.goal is None or not Tactician._enemy_rooms(view):
        return path
    for k, (x, y) in enumerate(path[1:], start=1):
        here = Position(x, y)
        if overlooked.watched(here) and view.goal.distance(here) <= STAGING_REACH:
            before = Position(*path[k - 1])
            return path[:k] if not overlooked.watched(before) else path
    return path


def _overlooked(view: SideView) -> Overlook | None:
    """The ground the objective overlooks, when the objective is building sections
    alone."""
    goal = view.goal
    if goal is None or not view.goal_sections:
        return None
    region = goal.contains
    if not isinstance(region, Region) or region.areas:
        return None
    return overlook(view.sight, region.sections)


@lru_cache(maxsize=8)
def _step_array(steps: tuple[float, ...]) -> npt.NDArray[np.float64]:
    return np.array(steps, dtype=np.float64)


def _walled_off(view: SideView, f: Figure, order: Order) -> bool:
    """A move to a spot straight through a wall: the rules would refuse it, and asking
    them costs several times this test."""
    to = order.params.get("to")
    if to is None or "floor" in order.params:
        return False
    start, there = leg_to(view.sight, f.pos, to[0], to[1])
    return leg_blocked(view.sight, start, there) is not None


#: own figure id -> the indices (in Threats) of the visible enemies it is locked with
Contacts = dict[str, list[int]]


def _contacts(view: SideView, threats: Threats) -> Contacts:
    """Which living own figures are locked in close combat with which visible enemies:
    worked out once per decision, as whether a figure takes orders, which enemies may be
    shot and whether a charge joins a fight all ask it."""
    shown = [(k, t.pos) for k, t in enumerate(threats.known) if t.visible]
    found: Contacts = {}
    if not shown:
        return found
    for g in view.own:
        if not g.alive:
            continue
        gx, gy = g.pos.x, g.pos.y
        for k, p in shown:
            # plain loops and the box test first: most pairs are inches apart
            if (-CONTACT <= gx - p.x <= CONTACT and -CONTACT <= gy - p.y <= CONTACT
                    and _in_contact(view, g.pos, p)):
                found.setdefault(g.id, []).append(k)
    return found


def _in_contact(view: SideView, a: Position, b: Position) -> bool:
    """Within an inch and in sight of each other: locked in close combat."""
    dx, dy = a.x - b.x, a.y - b.y
    # asked for most pairs of figures each decision: most are inches apart in x or y
    return (-CONTACT <= dx <= CONTACT and -CONTACT <= dy <= CONTACT
            and hypot(dx, dy) <= CONTACT and view.sight.visible(a, b))


def _threats(view: SideView) -> Threats:
    known = [
        Threat(enemy_id, s.pos, s.visible, s.kind or ENEMY_GUESS, s.doing)
        for enemy_id, s in view.enemies
        if s.alive
    ]
    return Threats(known, view.sight.position_arrays([t.pos for t in known]),
                   weapon_codes([t.weapon for t in known]), any(t.visible for t in known))


def _line_of_fire(view: SideView, at: Position, target: Position) -> tuple[float, int]:
    """The range and the target's cover, for a shot from `at`."""
    return view.sight.range_between(at, target), position_cover(view.sight, at, target)


def _odds(weapon: WeaponName, distance: float, cover: int, target_moving: bool,
          firer_moving: bool, aim: int) -> float:
    """Chance that one firing action removes the target (the average number of rounds)."""
    steps = increments(distance, WEAPONS[weapon].increment)
    return _odds_by_steps(weapon, steps, cover, target_moving, firer_moving, aim)


_odds_by_steps = lru_cache(maxsize=4096)(removal_chance)
