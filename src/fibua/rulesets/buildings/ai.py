"""The computer opponent for Buildings, deciding from its side's view alone.

Each time its side's die is drawn it scores, for every unit of its seat with no order yet,
a short list of orders it builds itself, and gives the best one the rules allow (asked one
at a time with `allowed`, best first; the legal list is never read whole):

- fire at the seen enemy with the best expected losses (estimates.py: the rules' to-hit and
  damage functions over the view's data), HE and flamethrowers counting double against a
  unit in a building the side must take;
- a pinned unit's orders are worth their chance of passing the order test (a fail goes
  Down): a heavily pinned unit rallies, one near routing keeps a Down to shed pins, one
  pinned out in the open with nothing better goes Down;
- a unit in a section its side must hold stays: it climbs to a free upper floor (out of
  reach of assaults from the street, with a wider view), fires at what it sees, and
  otherwise waits on Ambush to cover the approaches;
- others move toward the objectives by the walking-distance field (`SideView.goal`), from
  cover to cover: a building on the way (or the objective itself) is entered with a Run,
  the open crossed by the move that gains most ground, a building left by its doors;
  the objectives weigh more as the turns run out (a reach zone or an objective section
  entered most: there at the end, a unit at least spoils the enemy's hold), and most when
  they are only just within reach; a unit standing in a reach zone stays; a mortar moves
  only until a seen enemy is in its reach, and stays out of buildings;
- a reach zone scores only at the end, and whatever stands in it meanwhile is under
  every enemy gun: until the last turns (`STAGE_TURNS`) a unit waits half a Run short of
  it, where fewer known enemies see it; in the zone it answers a shot with a kept Down
  (a vehicle once pinned: pins, not losses, end a tank there), which sheds D3 pins
  after the next turn with no test;
- a unit at an objective its side holds already goes on to the next: a section of its
  objectives the enemy holds that it would assault (a flamethrower to any), else the
  reach zone;
- a heavy tank drives into a wooden or brick section holding known enemies and none of
  its own, on the rules' odds (odds.py) of bringing it down on them (a section in
  rubble is held by nobody), though not from its reach zone nor in the last turns
  (`STAGE_TURNS`), kept for making it, but for a section so near the zone that an
  Advance from its rubble makes it (not on the very last turn); of the sections of a
  condition the enemy holds, only one better defended (known models in it or a Run
  off) than the rest standing: the rest would keep the hold for whoever stays there,
  and the weaker is the infantry's to take;
- an artillery observer calls its barrage on a seen enemy in a section a side must hold,
  worth the enemies in its reach less its own units there;
- a unit next to an enemy assaults it when its close-quarters numbers are better (in the
  last turns an even fight for an objective will do), floor by floor: inside, it climbs
  to the floor next to the enemy's first; a unit in an objective assaults only within the
  sections held with it (the two halls of one condition), and while its side holds a
  reach zone only at long odds (being there already spoils the enemy's hold);
- inside a building, a unit hunts a known enemy in an objective there that it would
  assault: it takes the fewest inside steps (floors, connected sections; round a
  friend's floor when it can) to a place next to it - a weak enemy left upstairs spoils
  the hold to the end;
- in the last two turns it reckons the game as it stands (reckoning.py: the points each
  side would score over its units and the enemies where last seen, the units destroyed
  for the tie-break, one enemy fewer in the sections to hold as a step) and never
  assaults when the odds of winning close quarters make that worse (a lost fight can give
  up the objective the unit held, for a win that clears nothing); on the last turn, the
  game not won as it stands, a fair chance (`DESPERATE_ODDS`) for an objective will do;
- shot at, a unit goes Down when HE has already hit it, when it is out in the open (not
  a vehicle, not one with no turn to spare to make its objective, and not infantry with
  an assault it would make on an enemy holding an objective: a Down would spend the die
  for it), or when it is pinned (a vehicle: well pinned, `VEHICLE_DOWN_PINS`); in a
  building and fresh it takes the shot to keep its order.

Its only chance is a seeded generator that breaks ties, so it is deterministic given its
seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import cos, dist, inf, pi, sin
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon

from fibua.battlefield.geometry import hundredths
from fibua.battlefield.model import Position, Section, SectionState
from fibua.battlefield.sight import PositionArrays
from fibua.core.errors import IllegalOrder
from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.core.ruleset import commands
from fibua.core.views import same_objects
from fibua.rulesets.buildings.estimates import Mark, pin_chance, unit_losses
from fibua.rulesets.buildings.firing import weapons_of
from fibua.rulesets.buildings.geometry import centroid, distance_to_section, ground_doors
from fibua.rulesets.buildings.morale import order_need, pass_chance
from fibua.rulesets.buildings.movement import allowance
from fibua.rulesets.buildings.odds import tank_assault_chances
from fibua.rulesets.buildings.reckoning import (
    Place,
    group_of,
    hit_chance,
    melee_odds,
    next_to,
    occupied,
    one_move,
    standing,
    way_in,
    winning,
)
from fibua.rulesets.buildings.state import Seen, Unit, models_seen
from fibua.rulesets.buildings.tables import (
    INFANTRY_DAMAGE,
    WEAPONS,
    BuildingKind,
    ObserverKind,
    OrderKind,
    Quality,
    UnitKind,
    VehicleKind,
    WeaponName,
)
from fibua.rulesets.buildings.views import SideView
from fibua.scenario.objectives import in_objective

#: orders asked of the rules at most per decision, best first
MOST_ASKED = 40
MEMO_LIMIT = 20_000  # places a memo of the computer keeps before it starts afresh
HEADINGS = 12
#: the cosine and sine of each heading
_HEADINGS = tuple((cos(2 * pi * k / HEADINGS), sin(2 * pi * k / HEADINGS))
                  for k in range(HEADINGS))
_COSINES = np.array([c for c, _ in _HEADINGS])
_SINES = np.array([s for _, s in _HEADINGS])
#: what a memo of the computer keeps (`Control._by_sightings`, `_keep`)
T = TypeVar("T")

#: rally when at least this many pins, or when the order test would pass at most half
RALLY_PINS = 3
#: a move's worth per inch of walking distance gained toward the objectives
PER_INCH = 0.2
#: entering a building: the worth of cover, and of an objective section
COVER_WORTH = 0.8
OBJECTIVE_WORTH = 3.0
#: a unit whose objective is more Runs away than the turns left less this hurries
PRESSED_TURNS = 1.5
#: close quarters: a model's chance to take one off (no cover; regular 4+)
CQ_DAMAGE = 0.5
#: how much better the assaulters' numbers must be before they go in
ASSAULT_MARGIN = 1.3
#: the same in the last turns, at an enemy in an objective
LAST_ASSAULT_MARGIN = 0.9
#: the same for a unit already in an objective the enemy shares while its side holds a
#: reach zone: its being there already spoils the enemy's hold, which a lost fight would
#: give back
SHARED_ASSAULT_MARGIN = 2.0
#: how far a Run reaches for an assault or to enter (infantry double rate)
RUN_REACH = 12.0
#: on the last turn with the game not won as it stands: the least chance of winning
#: close quarters for an enemy in an objective to be worth assaulting all the same
DESPERATE_ODDS = 0.3
#: heading inside for a place to assault from: the worth of a sure win at the start
HUNT_WORTH = 1.5
#: walking distance to the objectives at which a unit outside counts as there
AT_GOAL = 3.0
#: a barrage: how far from its point a unit rolls (the rules' default), and the worth
#: of each model there (a third take D3 pins, a sixth a heavy hit)
BARRAGE_REACH = 12.0
BARRAGE_MODEL_WORTH = 0.25
#: shot at, a vehicle goes Down only with this many pins (infantry with 2)
VEHICLE_DOWN_PINS = 4
#: a heavy tank driving into a building: the worth of each enemy unit inside brought
#: down with it (its models counted apart, as fire counts them), of a section to hold
#: cleared, and the loss of the tank
RAM_UNIT_WORTH = 1.0
RAM_OBJECTIVE_WORTH = 2.0
RAM_TANK_WORTH = 6.0
#: a reach zone is entered only in the last turns this many or fewer turns before the
#: scheduled end (it scores only at the end, and anything in it sits under every enemy
#: gun meanwhile); before then a unit waits at least half a Run short of it
STAGE_TURNS = 1
#: waiting short of the zone: how far back a move may go, and the worth of each known
#: enemy fewer that would see the unit where it ends
STAGE_SLACK = 3.0
STAGE_HIDDEN = 0.6
#: a unit standing in its side's reach zone, out in the open, with this many pins or
#: more keeps a Down (it only has to be there at the end; see `_zone_keeper`)
ZONE_KEEP_PINS = 2
ZONE_KEEP_WORTH = 3.0
#: a unit of fewer models than this armed with nothing but personal weapons, and no
#: observer (a headquarters: `_follows`), in cover in a building, leaves it only to
#: follow the side's squads (infantry units of at least this many): it counts its moves
#: as getting no nearer the objectives than `FOLLOW` inches (an Advance) behind the
#: foremost of them, and every inch it ends beyond `NEAR` of the nearest of them as an
#: inch further from the objectives. Two men with pistols who run out of cover on their
#: own draw fire they can answer little of. Measured on seeds 1-200, normal against
#: normal: on the village-street map as first written the German headquarters, in the
#: church, was lost on turn 1 in 112 games before and in 2 after (following tanks too:
#: in 45; they stand in the street every gun watches). Out in the open it goes with the
#: attack as any unit: held back there too, it cost beach-exit's Americans 10 points of
#: 200 games and tobacco-factory's 17 (bodies short in the sections to be taken), and an
#: observer held back calls no barrage
LEADS_FROM = 4
FOLLOW = 6.0
NEAR = 6.0


class Choice(NamedTuple):
    """An order and what the computer thinks it is worth (a named tuple: it weighs
    scores of them each decision)."""

    worth: float
    order: Order
    #: the rules refuse it, as the computer can tell cheaply (it is not asked of them)
    refused: bool = False


class Control:
    """The Buildings computer: see the module's docstring."""

    def __init__(self, side: str, seed: int, units: frozenset[str] | None = None) -> None:
        self.side = side
        self.units = units
        self._rng = random.Random(seed)
        #: where a unit's moves out in the open end, from each place it was weighed at
        #: (`_spread`), and each place's distance to the reach zones (`_zone_gaps_at`): a
        #: unit waiting for its die is weighed again from the same place at every draw
        self._spreads: dict[tuple[float, float, tuple[float, ...]], _Spread] = {}
        self._gaps: dict[tuple[float, float], float] = {}
        self._zones: tuple[ShapelyPolygon, ...] = ()
        #: each unit's orders as last weighed, with what they were weighed from and how
        #: much of its side's other units that took in (`_choices`)
        self._weighed: dict[str, tuple[Unit, _Basis, int, tuple[_Asked, ...],
                                       list[Choice]]] = {}
        #: how the game would stand after each outcome weighed (`_Decision.standing`),
        #: kept from one decision to the next while what it reads of the view is the
        #: same (`_standings`)
        self._standings: tuple[tuple[object, ...], tuple[object, ...], tuple[object, ...],
                               _Standings] | None = None
        #: each unit's moves out in the open as last weighed, with what from
        self._ways: dict[str, tuple[_Ways, list[Choice]]] = {}
        #: each unit's fire at the enemies it sees and its target on an Advance, with
        #: what they were worked out from (`_by_sightings`)
        self._fires: dict[str, tuple[Unit, _Aims, tuple[Seen, ...], list[Choice]]] = {}
        self._aims_at: dict[str, tuple[Unit, _Aims, tuple[Seen, ...],
                                       tuple[str, float] | None]] = {}
        #: each unit's weapons as last read (`_arms`), by the view's copy of the unit
        self._arms: dict[str, tuple[Unit, _Arms]] = {}
        #: each enemy as a mark for fire from a place (`_mark`), by the sighting itself
        self._marks: dict[tuple[float, float, str], tuple[Seen, Mark]] = {}

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        end = Order(self.side, "end")
        if view.shot_at is not None:
            return self._react(view, legal, view.shot_at)
        ready = [u for u in view.own if u.alive and u.order is None and u.aboard is None
                 and commands(self.units, u.id)]
        decision = _Decision(view, self._standings_of)
        choices = [c for u in ready for c in self._choices(view, u, decision)]
        # ties broken by the seeded generator, then best first
        keyed = [(-c.worth, self._rng.random(), i) for i, c in enumerate(choices)]
        keyed.sort()
        for _, _, i in keyed[:MOST_ASKED]:
            if not choices[i].refused and allowed(legal, choices[i].order):
                return choices[i].order
        return end

    # -- answering a shot ----------------------------------------------------------------

    def _react(self, view: SideView, legal: Sequence[Order], uid: str) -> Order:
        end = Order(self.side, "end")
        if not commands(self.units, uid):
            return end
        down = Order(self.side, "down", uid)
        unit = view.unit(uid)
        if _zone_keeper(view, unit):
            # in its reach zone it only has to be there at the end: a kept Down keeps its
            # -2 through the next turn and sheds D3 pins after it, with no test
            kept = Order(self.side, "down", uid, {"keep": True})
            if allowed(legal, kept):
                return kept
        # armour shrugs off most shots: a vehicle keeps its order unless pinned
        exposed = (unit.section is None and unit.kind is not UnitKind.VEHICLE
                   and not _pressed(view, unit) and not _storming(view, unit))
        # a tank's order (a ram, a dash for the zone) is worth more than the -2: it
        # spends its die on a Down only once well pinned
        pinned = unit.pins >= (VEHICLE_DOWN_PINS if unit.kind is UnitKind.VEHICLE else 2)
        if (_he_landed(view, uid) or exposed or pinned) and allowed(legal, down):
            return down
        return end

    # -- one unit's orders ----------------------------------------------------------------

    def _choices(self, view: SideView, unit: Unit, decision: _Decision) -> list[Choice]:
        """The unit's orders and their worth (`_weigh`), weighed again only when the unit
        or anything of the view they are weighed from has changed since the unit's last
        (`_Basis`): a unit waiting for its die is weighed at every draw of its side's, and
        most draws leave it and what it knows as they were. The same list, of immutable
        choices and orders nothing changes, is what weighing again would make. Its side's
        other units (and the log's losses) count only as far as the weighing read them
        (`_Decision.touched`), and how the game stands only as the decision answers what
        the weighing asked of it (`_Decision.asked`): most orders are weighed without,
        and a friend moves between most of a side's draws."""
        basis = decision.basis()
        last = self._weighed.get(unit.id)
        if last is not None and (last[0] is unit or last[0] == unit) \
                and last[1].same(basis, last[2]) and decision.answers(last[3]):
            return last[4]
        decision.touched, decision.asked = NOTHING, []
        out = self._weigh(view, unit, decision)
        self._weighed[unit.id] = (unit, basis, decision.touched, tuple(decision.asked), out)
        return out

    def _weigh(self, view: SideView, unit: Unit, decision: _Decision) -> list[Choice]:
        side, uid = self.side, unit.id
        # what reads the side's other units beyond `decision` (see `_choices`): an
        # artillery observer's barrages (its friends near the point, and their models), a
        # tank's rams (the sections its side holds), a garrison's climb (the floors its
        # friends hold)
        if unit.observer is ObserverKind.ARTILLERY and any(
                s.section in _contested(view) for _, s in view.visible_enemies()):
            decision.read(WHOLE)  # (`_barrages` weighs nothing else)
        if unit.vehicle is not None:
            decision.read(PLACES)
        out: list[Choice] = []
        seen = [(i, s) for i, s in view.visible_enemies()]
        # each seen enemy as a mark for the unit's fire, now and on an Advance
        marks = [self._mark(view, unit, eid, s) for eid, s in seen]
        fire = self._fire(view, unit, seen, marks)
        out += fire
        best_fire = max((c.worth for c in fire), default=0.0)
        need = unit.morale - unit.pins
        if unit.pins:
            worth = 0.6 * unit.pins + (2.0 if unit.pins >= RALLY_PINS or need <= 7 else 0.0)
            out.append(Choice(worth, Order(side, "rally", uid)))
        exposed = unit.section is None and bool(seen)
        down_worth = 1.0 + 0.3 * unit.pins if unit.pins >= 2 and exposed else 0.01
        out.append(Choice(down_worth, Order(side, "down", uid)))
        if unit.pins >= unit.morale - 3:
            # near routing: a kept Down sheds D3 pins with no test
            out.append(Choice(0.3 + 0.2 * unit.pins, Order(side, "down", uid, {"keep": True})))
        if unit.pins >= ZONE_KEEP_PINS and _zone_keeper(view, unit):
            out.append(Choice(ZONE_KEEP_WORTH + 0.3 * unit.pins,
                              Order(side, "down", uid, {"keep": True})))
        out += self._assaults(view, unit, decision)
        out += self._hunt(view, unit, decision)
        holding = (unit.section is not None and unit.section in _my_sections(view)) or (
            unit.section is None and _in_zone(view, unit))
        if holding:
            decision.read(PLACES)
            out += self._garrison(view, unit)
        elif not _stays(unit) and not _mortar_in_range(view, unit):
            out += self._moves(view, unit, best_fire, seen, marks, decision)
        out += self._rams(view, unit)
        out.append(Choice(0.3 if seen or holding else 0.05, Order(side, "ambush", uid)))
        # a pinned unit carries out any order but Down only if it passes its order test,
        # and goes Down if it fails
        if not unit.pins:
            return out  # it passes: each worth as it is
        passing = float(pass_chance(order_need(unit.quality, unit.pins)))
        return [c if c.order.kind == "down" else
                Choice(passing * c.worth + (1 - passing) * down_worth, c.order, c.refused)
                for c in out]

    def _fire(self, view: SideView, unit: Unit, seen: list[tuple[str, Seen]],
              marks: list[Mark]) -> list[Choice]:
        """The unit's fire at each enemy it sees (`_direct_fire`, kept by `_by_sightings`),
        then its indirect fire and calls."""
        direct = self._by_sightings(self._fires, view, unit, seen,
                                    lambda: self._direct_fire(view, unit, seen, marks))
        return [*direct, *self._indirect(view, unit)]

    def _by_sightings(self, memo: dict[str, tuple[Unit, _Aims, tuple[Seen, ...], T]],
                      view: SideView, unit: Unit, seen: list[tuple[str, Seen]],
                      make: Callable[[], T]) -> T:
        """What `make` works out of the unit and the enemies it sees (`seen`, their marks
        from where it stands) alone, kept for the unit while it is the same copy (a view's
        copy of a unit never changes), the sightings the same (immutable) and the side's
        objectives the same (`_aims`): a unit waiting for its die is weighed again when a
        friend moves or an enemy out of its sight changes."""
        aims, sightings = _aims(view), tuple(s for _, s in seen)
        last = memo.get(unit.id)
        if last is not None and last[0] is unit and last[1] is aims \
                and same_objects(last[2], sightings):
            return last[3]
        found = make()
        memo[unit.id] = (unit, aims, sightings, found)
        return found

    def _direct_fire(self, view: SideView, unit: Unit, seen: list[tuple[str, Seen]],
                     marks: list[Mark]) -> list[Choice]:
        side, uid = self.side, unit.id
        out: list[Choice] = []
        arms = self._arms_of(unit).still
        flame = self._arms_of(unit).flame
        wanted = _contested(view)
        for (eid, s), mark in zip(seen, marks, strict=True):
            losses = unit_losses(arms, mark, unit.quality, unit.pins,
                                 inside=unit.section is not None)
            pins = pin_chance(arms, mark, unit.quality, unit.pins)
            worth = 2.0 * losses + 0.5 * pins
            if s.section is not None and s.section in wanted:
                worth *= 1.5
            if mark.vehicle:
                worth *= 2.0
            if losses >= models_seen(s) > 0:
                worth += 1.0
            if flame and s.section is not None:
                worth += 1.0  # the morale test after a flamethrower, and the fire
            if worth > 0.05:
                out.append(Choice(worth, Order(side, "fire", uid, {"target": eid})))
        return out

    def _indirect(self, view: SideView, unit: Unit) -> list[Choice]:
        """Mortars at the nearest known enemy in an objective (else any); an observer's
        call at the enemy it sees with the most models."""
        side, uid = self.side, unit.id
        out: list[Choice] = []
        known = [(i, s) for i, s in view.enemies if s.alive]
        if not known:
            return out
        wanted = _contested(view)
        if self._arms_of(unit).indirect:
            for eid, s in known:
                worth = 0.8 + (0.6 if s.section in wanted else 0.0) + 0.05 * models_seen(s)
                out.append(Choice(worth, Order(side, "fire", uid,
                                               {"target": eid, "indirect": True})))
        if unit.observer is ObserverKind.ARTILLERY:
            out += self._barrages(view, unit)
        elif unit.observer is not None:
            for eid, s in view.visible_enemies():
                if s.kind is UnitKind.INFANTRY or s.kind is UnitKind.GUN:
                    worth = 1.2 + 0.1 * models_seen(s) + (0.5 if s.section in wanted else 0.0)
                    out.append(Choice(worth, Order(side, "fire", uid,
                                                   {"target": eid, "call": True})))
        return out

    def _standings_of(self, decision: _Decision) -> _Standings:
        """The standings worked out in the side's last decisions, if they hold for this
        one's view: `standing` reads only where the side's units are, which are alive
        and aboard (`_Basis.friends` tells all that), where the enemies are known to be
        and which are alive, the units the log tells destroyed (`_Basis.fallen`), and the
        scenario's objectives (never changing)."""
        basis = decision.basis()
        placed = tuple((eid, s.alive, s.x, s.y, s.section, s.floor)
                       for eid, s in decision.view.enemies)
        last = self._standings
        if last is None or last[0] != basis.friends or last[1] != placed \
                or last[2] != basis.fallen:
            last = self._standings = (basis.friends, placed, basis.fallen, {})
        return last[3]

    def _open_moves(self, ways: _Ways) -> list[Choice]:
        """`_Ways.choices`, kept for the unit while it is weighed from the same: a unit
        waiting for its die is weighed again when an enemy's strength or order changes,
        which leaves its moves out in the open as they were."""
        last = self._ways.get(ways.uid)
        if last is not None and last[0].same(ways):
            return last[1]
        out = ways.choices()
        self._ways[ways.uid] = (ways, out)
        return out

    def _arms_of(self, unit: Unit) -> _Arms:
        """`_Arms` of the unit, read again only from another copy of it: a view's copy of
        a unit never changes (a unit that changes is copied afresh), and a unit waiting
        for its die is weighed again and again from the same copy."""
        found = self._arms.get(unit.id)
        if found is None or found[0] is not unit:
            found = self._arms[unit.id] = (unit, _Arms.of(unit))
        return found[1]

    def _mark(self, view: SideView, unit: Unit, eid: str, s: Seen) -> Mark:
        """`_mark` of the sighting from where the unit stands, kept while the sighting
        (immutable: a change is a new one) and the place are the same."""
        key = (unit.lead.x, unit.lead.y, eid)
        found = self._marks.get(key)
        if found is None or found[0] is not s:
            if len(self._marks) > MEMO_LIMIT:
                self._marks.clear()
            found = self._marks[key] = (s, _mark(view, unit, s))
        return found[1]

    def _hidden(self, view: SideView, spread: _Spread, stand_off: float, run: float
                ) -> npt.NDArray[np.float64] | None:
        """For a unit within two moves of the reach zone's stand-off: for each end of
        its moves (out in the open), how many fewer known enemies would see it there
        than where it stands (None: the unit is not waiting so). It waits out of their
        sight where it can."""
        if stand_off <= 0 or self._spread_gaps(view, spread)[0] > stand_off + 2 * run:
            return None
        watch = tuple((s.x, s.y, s.section, s.floor) for _, s in view.enemies if s.alive)
        if not watch:
            return None
        return spread.hidden_from(view, watch)

    def _spread(self, x: float, y: float, lengths: tuple[float, ...]) -> _Spread:
        """The ends of moves of these lengths from (x, y) in every heading (`_Spread`),
        made once a place."""
        key = (x, y, lengths)
        found = self._spreads.get(key)
        if found is None:
            if len(self._spreads) > MEMO_LIMIT:
                self._spreads.clear()
            found = self._spreads[key] = _Spread.around(x, y, lengths)
        return found

    def _spread_gaps(self, view: SideView, spread: _Spread) -> tuple[float, list[float]]:
        """`_zone_gaps_at` of the spread's place and of its ends, kept on the spread
        while the side's reach zones are the same (the very tuple of `_aims`)."""
        zones = _reach_zones(view)
        if spread.zone_gaps is None or spread.zones is not zones:
            here, *ends = self._zone_gaps_at(view, [spread.here, *spread.ends])
            spread.zones, spread.zone_gaps = zones, (here, ends)
        return spread.zone_gaps

    def _zone_gaps_at(self, view: SideView, points: list[tuple[float, float]]
                      ) -> list[float]:
        """`_zone_gaps` of the points, each point's measured once while the side's reach
        zones stay the same."""
        zones = _reach_zones(view)
        known = self._gaps
        if not same_objects(zones, self._zones):
            self._zones = zones
            known.clear()
        missing = [p for p in points if p not in known]
        if missing:
            if len(known) > MEMO_LIMIT:
                known.clear()
            found = _zone_gaps(view, np.array(missing, dtype=np.float64))
            known.update(zip(missing, found, strict=True))
        return [known[p] for p in points]

    def _next_objective(self, view: SideView, unit: Unit, decision: _Decision
                        ) -> list[Section | ShapelyPolygon] | None:
        """Where a unit at an objective its side holds goes next: the sections of its
        objectives the enemy holds that it would assault (a flamethrower: any), else its
        side's reach zones (None: nowhere)."""
        flame = self._arms_of(unit).flame
        field = view.sight.battlefield
        mine = _my_sections(view)
        takes = sorted({s.section for i, s in view.enemies if s.alive and s.section in mine
                        and (flame or _would_assault(view, unit, i, s, decision))
                        and s.section is not None})
        if takes:
            return [field.section(sid) for sid in takes]
        zones = _reach_zones(view)
        return list(zones) if zones else None

    def _barrages(self, view: SideView, unit: Unit) -> list[Choice]:
        """An artillery observer's barrage at a seen enemy in a section a side must hold:
        worth the enemies in its reach
        (their models, more in a section the side must take) less its own units there,
        every one of which rolls its die too."""
        out: list[Choice] = []
        wanted = _contested(view)
        known = [s for _, s in view.enemies if s.alive]
        friends = [u for u in view.own if u.alive and u.aboard is None]
        for _, s in view.visible_enemies():
            if s.section not in wanted:
                continue  # saved for the enemy holding what the side must take
            at = (s.x, s.y)
            hit = sum(BARRAGE_MODEL_WORTH * models_seen(e) + (1.0 if e.section in wanted else 0.0)
                      for e in known if dist(at, (e.x, e.y)) <= BARRAGE_REACH)
            own = sum(BARRAGE_MODEL_WORTH * len(u.models) + 1.0 for u in friends
                      if dist(at, (u.lead.x, u.lead.y)) <= BARRAGE_REACH + 2.0)
            worth = hit - 1.5 * own
            if worth > 0.5:
                out.append(Choice(worth, Order(self.side, "fire", unit.id,
                                               {"at": [round(s.x, 2), round(s.y, 2)],
                                                "call": True})))
        return out

    def _advance_target(self, unit: Unit, seen: list[tuple[str, Seen]], marks: list[Mark]
                        ) -> tuple[str, float] | None:
        """The seen enemy a unit on an Advance would shoot at, and the worth of it."""
        arms = self._arms_of(unit).advancing
        best: tuple[str, float] | None = None
        for (eid, _), mark in zip(seen, marks, strict=True):
            worth = 2.0 * unit_losses(arms, mark, unit.quality, unit.pins, advanced=True)
            if worth > 0.1 and (best is None or worth > best[1]):
                best = (eid, worth)
        return best

    def _assaults(self, view: SideView, unit: Unit, decision: _Decision) -> list[Choice]:
        if unit.kind is not UnitKind.INFANTRY:
            return []
        out: list[Choice] = []
        here = (unit.lead.x, unit.lead.y)
        wanted = _contested(view)
        for eid, s in view.enemies:
            if not s.alive or s.kind is UnitKind.VEHICLE:
                continue
            if (dist(here, (s.x, s.y)) > RUN_REACH + 3
                    or not _would_assault(view, unit, eid, s, decision)):
                continue
            worth = 3.0 + models_seen(s) + (2.0 if s.section in wanted else 0.0)
            out.append(Choice(worth, Order(self.side, "run", unit.id, {"assault": eid})))
        return out

    def _hunt(self, view: SideView, unit: Unit, decision: _Decision) -> list[Choice]:
        """Inside a building, a unit heads by the fewest inside steps for a place next to
        a known enemy in an objective there that it would assault (a floor above or below
        it, or its floor of a connected section); a unit in an objective keeps to the
        sections held with it. Left there, a weak enemy spoils the hold to the end."""
        if unit.kind is not UnitKind.INFANTRY or unit.section is None:
            return []
        field = view.sight.battlefield
        inside = {s.id for s in field.building_of(unit.section).sections}
        wanted = _contested(view) & inside
        foes = [(eid, s) for eid, s in view.enemies if s.alive and s.section in wanted
                and s.kind is not UnitKind.VEHICLE]
        if not foes:
            return []
        within = group_of(view, unit.section) if unit.section in _my_sections(view) else None
        enemy_at = _enemy_places(view)
        decision.read(PLACES)
        friends = occupied(u for u in view.own if u.id != unit.id)
        # the turns after this one, the extra turn counted in: to get there, then assault
        left = view.turns + 1 - view.turn
        out: list[Choice] = []
        start = (unit.section, unit.floor)
        for eid, s in foes:
            assert s.section is not None
            if not _would_assault(view, unit, eid, s, decision):
                continue
            goals = [p for p in next_to(view, (s.section, s.floor))
                     if p not in friends and p not in enemy_at]
            # round a friend's floor if there is a way; else through it, on a Run
            path = (way_in(view, start, goals, enemy_at | friends, within)
                     or way_in(view, start, goals, enemy_at, within))
            if path is None or len(path) < 2 or len(path) // 2 > left:
                continue
            worth = HUNT_WORTH * _assault_odds(unit, s) * _late(view) - 0.2 * len(path)
            if len(path) >= 3 and one_move(path) and path[2] not in friends:
                out.append(Choice(worth + 0.2, self._inside_move("run", unit, path[2])))
            if path[1] not in friends:
                out.append(Choice(worth, self._inside_move("advance", unit, path[1])))
        return out

    def _inside_move(self, kind: str, unit: Unit, to: Place) -> Order:
        sid, floor = to
        params: dict[str, object] = ({"floor": floor} if sid == unit.section
                                     else {"section": sid})
        return Order(self.side, kind, unit.id, params)

    def _garrison(self, view: SideView, unit: Unit) -> list[Choice]:
        """A unit in a section to hold climbs to a free upper floor unless it has a better
        shot the rules allow, else stays (fire and Ambush are scored apart)."""
        if unit.section is None:
            return []
        section = view.sight.battlefield.section(unit.section)
        taken = {u.floor for u in view.own if u.alive and u.section == unit.section}
        out = []
        for f in range(unit.floor + 1, section.levels):
            if f not in taken:
                out.append(Choice(0.6 + 0.05 * f, Order(self.side, "advance", unit.id,
                                                       {"floor": f})))
        return out

    def _moves(self, view: SideView, unit: Unit, best_fire: float,
               seen: list[tuple[str, Seen]], marks: list[Mark], decision: _Decision
               ) -> list[Choice]:
        side, uid = self.side, unit.id
        here = _position(unit)
        now = _distance(view, here)
        # the objectives weigh more as the turns run out
        per_inch = PER_INCH * (1.0 + 2.0 * view.turn / max(1, view.turns))
        aim = self._by_sightings(self._aims_at, view, unit, seen,
                                 lambda: self._advance_target(unit, seen, marks))
        rates = {kind: allowance(unit.mobility, order) for kind, order in
                 (("advance", OrderKind.ADVANCE), ("run", OrderKind.RUN))}
        run = rates["run"] or rates["advance"] or 1.0
        # too far to make the objective in the turns left unless it goes now
        left = max(1, view.turns - view.turn + 1)
        pressed = now / run >= left - PRESSED_TURNS
        if pressed:
            per_inch += 2 * OBJECTIVE_WORTH / run
        # (in a building, a unit that follows counts distances as `_Follow` does)
        follow = None if pressed else _Follow.of(view, unit, decision)
        if follow is not None:
            now = follow.distance(now, unit.lead.x, unit.lead.y)
        out: list[Choice] = []
        field = view.sight.battlefield
        mine = _my_sections(view)
        wanted = _contested(view)
        if unit.section is None:
            # the full move and a shorter one, in every heading: a way round what blocks
            steps = [(kind, float(rate) * part) for kind, rate in rates.items() if rate
                     for part in (1.0, 0.6)]
            lx, ly = unit.lead.x, unit.lead.y
            spread = self._spread(lx, ly, tuple(step for _, step in steps))
            afters = spread.distances(view)
            if now <= AT_GOAL and not _in_zone(view, unit):
                # at an objective its side holds already: on to the next, straight - a
                # section the enemy still holds if the unit can take it, else the reach
                # zone
                targets = self._next_objective(view, unit, decision)
                if targets is not None:
                    now = _gap(targets, (lx, ly))
                    afters = spread.gaps_to(targets)
            stand_off = _stand_off(view, unit, run)
            hidden = self._hidden(view, spread, stand_off, run)
            gaps = self._spread_gaps(view, spread)[1] if stand_off > 0 else None
            out += self._open_moves(_Ways(
                side, uid, tuple(kind for kind, _ in steps), spread, afters, now, per_inch,
                hidden, gaps, stand_off, _late(view), aim, spread.standing(view)))
            if unit.kind is UnitKind.INFANTRY and not _mortar(unit):
                # (a mortar fires from a building only off a flat roof: it stays out)
                held: set[str] | None = None  # (read only when a section is worth it)
                for sid in field.section_ids:
                    section = field.section(sid)
                    c = centroid(section)
                    if dist((unit.lead.x, unit.lead.y), c) > RUN_REACH + 6:
                        continue
                    gain = now - _distance(view, Position(c[0], c[1], sid))
                    worth = COVER_WORTH + per_inch * gain
                    if sid in mine:
                        # in it at the end, a unit at least spoils the enemy's hold
                        worth += _late(view) * OBJECTIVE_WORTH
                    elif sid in wanted:
                        worth += OBJECTIVE_WORTH / 2
                    if worth > 0:
                        if held is None:
                            held = _ground_held(view, decision)
                        out.append(Choice(worth, Order(side, "run", uid, {"enter": sid}),
                                          sid in held))
            return out
        section = field.section(unit.section)
        building = field.building_of(unit.section)
        for s in building.sections:
            if s.id == unit.section:
                continue
            c = centroid(s)
            gain = now - _followed(follow, _distance(view, Position(c[0], c[1], s.id)), c)
            worth = per_inch * gain + (OBJECTIVE_WORTH if s.id in mine else 0.0)
            if worth > 0.2:
                out.append(Choice(worth, Order(side, "advance", uid, {"section": s.id})))
        if unit.floor == 0 and unit.kind is UnitKind.INFANTRY:
            for kind, rate in rates.items():
                for to in _outside_doors(view, unit.section, float(rate or 0) - 1.0):
                    gain = now - _followed(follow, _distance(view, Position(to[0], to[1])),
                                           to)
                    worth = per_inch * gain - COVER_WORTH
                    if worth > 0:
                        out.append(Choice(worth, Order(side, kind, uid, {"to": list(to)})))
        if unit.kind is UnitKind.INFANTRY and unit.floor == 0 and best_fire < 0.5:
            for f in range(1, section.levels):
                out.append(Choice(0.2, Order(side, "advance", uid, {"floor": f})))
        out += self._climb_to_assault(view, unit)
        return out

    def _rams(self, view: SideView, unit: Unit) -> list[Choice]:
        """A heavy tank drives into a wooden or brick section within its Run that holds
        known enemies and none of its side (see `_ram_targets`)."""
        here = (unit.lead.x, unit.lead.y)
        reach = float(allowance(unit.mobility, OrderKind.RUN) or 0)
        return [Choice(worth, Order(self.side, "run", unit.id, {"enter": section.id}))
                for section, worth in _ram_targets(view, unit)
                if distance_to_section(here, section) <= reach]

    def _climb_to_assault(self, view: SideView, unit: Unit) -> list[Choice]:
        """Floor by floor: a unit inside goes to the floor next to an enemy's in its own
        section, to assault it from there."""
        out: list[Choice] = []
        for _, s in view.enemies:
            if not s.alive or s.section != unit.section or abs(s.floor - unit.floor) <= 1:
                continue
            floor = s.floor - 1 if s.floor > unit.floor else s.floor + 1
            for kind in ("advance", "run"):
                out.append(Choice(1.5 if kind == "run" else 1.2,
                                  Order(self.side, kind, unit.id, {"floor": floor})))
        return out


def _ram_targets(view: SideView, unit: Unit) -> list[tuple[Section, float]]:
    """The wooden or brick sections a heavy tank outside would drive into, with the worth
    of each: known enemies inside and none of its side, a collapse destroying every unit
    inside (a section in rubble is held by nobody), worth it on the rules' odds of the
    building coming down less those of the tank being knocked out; none from its reach
    zone, nor in the last turns while the side has one to make - unless the section is
    by the zone (see `_by_zone`)."""
    if unit.vehicle is None or unit.section is not None or unit.immobilised:
        return []
    # the turns to make the reach zone: a ram would halt it short
    hurried = _in_zone(view, unit) or (view.turns - view.turn <= STAGE_TURNS
                                       and bool(_reach_zones(view)))
    if hurried and view.turn >= view.turns:
        return []
    field = view.sight.battlefield
    states = dict(view.sections)
    friends = {u.section for u in view.own if u.alive and u.section is not None}
    wanted = _contested(view)
    inside: dict[str, list[Seen]] = {}
    for _, s in view.enemies:
        if s.alive and s.section is not None:
            inside.setdefault(s.section, []).append(s)
    out: list[tuple[Section, float]] = []
    for sid, foes in inside.items():
        if sid in friends or states.get(sid, "intact") != "intact":
            continue
        section = field.section(sid)
        if hurried and not _by_zone(view, unit, section):
            continue
        odds = _ram_odds(unit.vehicle, section.construction)
        if odds is None or _leaves_stronger(view, sid):
            continue
        collapse, knocked_out = odds
        prize = sum(RAM_UNIT_WORTH + 2.0 * models_seen(s) for s in foes)
        if sid in wanted:
            prize += RAM_OBJECTIVE_WORTH
        worth = collapse * prize - knocked_out * RAM_TANK_WORTH
        if worth > 0:
            out.append((section, worth))
    return out


def _by_zone(view: SideView, unit: Unit, section: Section) -> bool:
    """Whether a tank brought to a halt in the section's rubble (at its middle) would
    still make its side's reach zone with an Advance the next turn: such a section may be
    driven into in the last turns but the very last."""
    advance = float(allowance(unit.mobility, OrderKind.ADVANCE) or 0)
    return _zone_gap(view, centroid(section)) < advance


def _leaves_stronger(view: SideView, sid: str) -> bool:
    """Whether bringing the section down would leave the enemy a stronger hold on the
    rest of a condition it holds with it: more of its known models in or near (a Run)
    the condition's other standing sections than in or near this one. One section left
    standing keeps the hold for whoever stays in it: the tank brings down the better
    defended one and leaves the weaker to the infantry."""
    states = dict(view.sections)
    rest = {other for spec in view.objectives if spec.side == view.enemy
            and spec.kind == "hold" and sid in spec.sections for other in spec.sections
            if other != sid and states.get(other, "intact") == "intact"}
    if not rest:
        return False
    return _defenders(view, rest) >= _defenders(view, {sid})


def _defenders(view: SideView, sids: set[str]) -> int:
    """The known enemy models in the sections or outside within a Run of one of them."""
    field = view.sight.battlefield
    sections = [field.section(sid) for sid in sids]
    return sum(models_seen(s) for _, s in view.enemies if s.alive and (
        s.section in sids if s.section is not None
        else any(distance_to_section((s.x, s.y), t) <= RUN_REACH for t in sections)))


def _storming(view: SideView, unit: Unit) -> bool:
    """Whether infantry has an assault it would make on an enemy in a section a side must
    hold: shot at in the open, it takes the shot to keep its die for the assault (a Down
    would spend it, and the enemy would keep the objective another turn)."""
    if unit.kind is not UnitKind.INFANTRY:
        return False
    wanted = _contested(view)
    here = (unit.lead.x, unit.lead.y)
    decision = _Decision(view)
    return any(s.alive and s.section in wanted and s.kind is not UnitKind.VEHICLE
               and dist(here, (s.x, s.y)) <= RUN_REACH + 3
               and _would_assault(view, unit, eid, s, decision)
               for eid, s in view.enemies)


def _would_assault(view: SideView, unit: Unit, eid: str, s: Seen,
                   decision: _Decision) -> bool:
    """Whether the unit's close-quarters numbers against the enemy are good enough to go
    in: better by a margin, or (in the last turns) even for an objective; a unit in an
    objective fights only for the sections held with it (an assault elsewhere would leave
    them). In the last two turns it never goes in when the game as it stands would come
    out worse on the odds (a lost fight can give up the objective the unit held for a
    win that clears nothing), and on the last turn with the game not won as it stands a
    fair chance of a better result will do."""
    wanted = _contested(view)
    staying = unit.section is not None and unit.section in wanted
    if staying and unit.section is not None and s.section not in group_of(view, unit.section):
        return False
    mine = len(unit.models) * CQ_DAMAGE
    theirs = models_seen(s) * CQ_DAMAGE
    # with the last turns running out, an even fight for an objective is worth it
    last = view.turns - view.turn <= 1 and s.section in wanted
    margin = LAST_ASSAULT_MARGIN if last else ASSAULT_MARGIN
    # with a reach zone already held, a foe's hold spoilt is as good as one's own
    if staying and decision.zone_held():
        margin = SHARED_ASSAULT_MARGIN
    good = mine >= margin * theirs + 0.5
    if view.turns - view.turn > 1 or not (staying or s.section in wanted):
        return good
    odds = _assault_odds(unit, s)
    taken = Position(s.x, s.y, s.section, s.floor) if s.section is not None else None
    now = decision.standing()
    won = decision.standing(frozenset({eid}), None if taken is None else (unit.id, taken))
    lost = decision.standing(frozenset({unit.id}))
    gain = odds * won + (1 - odds) * lost - now
    if gain < 0:
        return False
    return good or (view.turn >= view.turns and not decision.winning() and gain > 0
                    and odds >= DESPERATE_ODDS)


#: how much of its side's other units the weighing of a unit's orders read (see
#: `_Basis`): nothing, the sections and floors they are in, or all of it
NOTHING, PLACES, WHOLE = 0, 1, 2


class _Ways(NamedTuple):
    """All that the worth of a unit's moves out in the open is worked out from
    (`Control._moves`): the kind of move of each length of the spread (in its order), the
    ends' distances to the objectives (`afters`) and the unit's (`now`), the worth of an
    inch, how many fewer enemies see each end (`hidden`), the ends' gaps to the reach
    zone and how far short of it the unit waits, the worth of reaching the zone
    (`_late`), the target of an Advance, and the sections among those the ends fall in
    that stand (a move ending in one is refused)."""

    side: str
    uid: str
    kinds: tuple[str, ...]
    spread: _Spread
    afters: list[float]
    now: float
    per_inch: float
    hidden: npt.NDArray[np.float64] | None
    gaps: list[float] | None
    stand_off: float
    late: float
    aim: tuple[str, float] | None
    standing: frozenset[str]

    def same(self, other: _Ways) -> bool:
        """Whether the moves weigh the same from either (the spread and the zone's gaps
        are kept objects: the same ones, or worked out again; the counts of enemies are
        worked out again whenever one moves, mostly to the same)."""
        return self.spread is other.spread and _same_counts(self.hidden, other.hidden) \
            and self.gaps is other.gaps and self[:3] == other[:3] \
            and self.afters == other.afters and self[5:7] == other[5:7] \
            and self[9:] == other[9:]

    def choices(self) -> list[Choice]:
        out: list[Choice] = []
        spread, hidden, gaps, aim = self.spread, self.hidden, self.gaps, self.aim
        now, per_inch, stand_off = self.now, self.per_inch, self.stand_off
        inside = spread.inside or []
        kinds = [kind for kind in self.kinds for _ in _HEADINGS]
        least = 0.5 if hidden is None else -STAGE_SLACK
        for k, (kind, to, after) in enumerate(zip(kinds, spread.ends, self.afters,
                                                  strict=True)):
            gain = now - after
            if gain <= least or (gaps is not None and gaps[k] < stand_off):
                continue
            # a Run in the open is faster but shoots nothing and draws fire
            worth = per_inch * gain - (0.1 if kind == "run" else 0.0)
            if hidden is not None:
                worth += STAGE_HIDDEN * float(hidden[k])
            if after <= 0.0:
                # reaching the zone scores only if it is still there at the end
                worth += self.late * OBJECTIVE_WORTH
            params: dict[str, object] = {"to": list(to)}
            if kind == "advance" and aim is not None:
                params["target"] = aim[0]
                worth += 0.5 * aim[1]
            # the unit's first model would end in a building that stands: refused
            out.append(Choice(worth, Order(self.side, kind, self.uid, params),
                              inside[k] in self.standing))
        return out


_NONE: frozenset[str] = frozenset()


def _same_counts(a: npt.NDArray[np.float64] | None, b: npt.NDArray[np.float64] | None
                 ) -> bool:
    return a is b or (a is not None and b is not None and np.array_equal(a, b))


class _Arms(NamedTuple):
    """What the computer reads of a unit's weapons: those it fires standing (`still`) and
    on an Advance (`firing.weapons_of`), whether one is a flamethrower, and whether it
    carries one that fires only indirect (a mortar's)."""

    still: list[WeaponName]
    advancing: list[WeaponName]
    flame: bool
    indirect: bool

    @staticmethod
    def of(unit: Unit) -> _Arms:
        still = weapons_of(unit, advanced=False)
        carried = [*unit.mounts, *(m.weapon for m in unit.models if m.weapon is not None)]
        return _Arms(still, weapons_of(unit, advanced=True),
                     any(WEAPONS[w].flame for w in still),
                     any(WEAPONS[w].indirect is not None and WEAPONS[w].range <= 0
                         for w in carried))


class _Basis(NamedTuple):
    """What of a side's view the worth of a unit's orders depends on, the unit itself
    apart (`Control._choices`): the enemies as known (what the weighing reads of each
    sighting: not the turn it was made, nor any order it was seen spending but a Down,
    which change far more often than the rest), the goal field, the turn, the sections'
    states, the sections and floors of its side's units (`places`), where they stand
    and how many models each has (`friends`: its orders read nothing else of them, no
    friend's order or pins), and the units the log tells destroyed (the reckoning's
    tie-break); these last three only as far as the unit's weighing read them. The rest
    of the view (the map, the objectives) is the game's and never changes."""

    enemies: tuple[tuple[object, ...], ...]
    goal: object
    turn: int
    turns: int
    sections: tuple[tuple[str, str], ...]
    places: tuple[tuple[object, ...], ...]
    friends: tuple[tuple[object, ...], ...]
    fallen: tuple[object, ...]

    @staticmethod
    def of(view: SideView) -> _Basis:
        places, friends = _own_basis(view)
        return _Basis(_enemy_basis(view), view.goal, view.turn, view.turns, view.sections,
                      places, friends, _fallen(view))

    def same(self, other: _Basis, touched: int) -> bool:
        """Whether the units' orders weigh the same from either, its side's units counted
        as far as `touched` (`_Decision.touched`)."""
        return self.goal is other.goal and self.enemies == other.enemies \
            and self[2:5] == other[2:5] \
            and (touched < PLACES or self.places == other.places) \
            and (touched < WHOLE or self[6:] == other[6:])


def _kept(view: SideView, name: str) -> Any:
    """What the computer kept under `name` in the memo of the side's own fork of the
    sight engine (None: nothing yet): one store a game and side, which no other user of
    the map reads, as `per_query` keeps answers about places."""
    return view.sight.memo.get((__name__, name))


def _keep(view: SideView, name: str, value: T) -> T:
    view.sight.memo[(__name__, name)] = value
    return value


def _own_basis(view: SideView) -> tuple[tuple[tuple[object, ...], ...],
                                         tuple[tuple[object, ...], ...]]:
    """`_Basis.places` and `_Basis.friends` of the view, read again only from another
    tuple of units than the side's last view's."""
    found: tuple[tuple[Unit, ...], tuple[tuple[object, ...], ...],
                 tuple[tuple[object, ...], ...]] | None = _kept(view, "own basis")
    if found is None or found[0] is not view.own:
        places = tuple((u.id, u.alive, u.section, u.floor) for u in view.own)
        friends = tuple((u.id, u.destroyed, u.aboard, u.section, u.floor, len(u.models),
                         *((u.models[0].x, u.models[0].y) if u.models else ()))
                        for u in view.own)
        found = _keep(view, "own basis", (view.own, places, friends))
    return found[1], found[2]


def _enemy_basis(view: SideView) -> tuple[tuple[object, ...], ...]:
    """`_Basis.enemies` of the view, read again only from another tuple of sightings
    than the side's last view's (the same tuple while no sighting changed)."""
    found: tuple[tuple[tuple[str, Seen], ...], tuple[tuple[object, ...], ...]] | None = \
        _kept(view, "enemy basis")
    if found is None or found[0] is not view.enemies:
        enemies = tuple((eid, s.x, s.y, s.section, s.floor, s.kind, s.strength, s.alive,
                         s.visible, s.doing is OrderKind.DOWN) for eid, s in view.enemies)
        found = _keep(view, "enemy basis", (view.enemies, enemies))
    return found[1]


#: how the game would stand (`reckoning.standing`) by its `dead` and `moved`
_Standings = dict[tuple[frozenset[str], tuple[str, Position] | None], float]


def _fallen(view: SideView) -> tuple[object, ...]:
    """The units the side's log tells destroyed (the reckoning's tie-break)."""
    return tuple(e.data.get("unit") for e in view.log if e.kind == "destroyed")


#: what a weighing asks of its decision (`_Asked`)
STANDING, ZONE_HELD, WINNING = "standing", "zone held", "winning"


class _Asked(NamedTuple):
    """A question a unit's weighing asked of its decision, and the answer."""

    what: str
    key: Any  # `standing`'s arguments (STANDING)
    answer: object


class _Decision:
    """What one decision asks again and again of its view, worked out once: how the game
    would stand (`standing`) after each outcome weighed - every unit next to an enemy
    weighs the game as it is, each enemy in reach the same fights - and whether a unit
    of the side stands in a reach zone. Made afresh for each decision, with its view."""

    def __init__(self, view: SideView,
                 standings: Callable[[_Decision], _Standings] | None = None) -> None:
        self.view = view
        #: the standings worked out (None: not yet asked for), and where to find those
        #: of earlier decisions that hold for this one (`Control._standings_of`)
        self._standing: _Standings | None = None
        self._kept = standings
        self._zone_held: bool | None = None
        self._basis: _Basis | None = None
        #: how much of its side's other units (and the log) the unit being weighed has
        #: read (`Control._choices`): raised by whatever reads them
        self.touched = NOTHING
        #: what the unit being weighed has asked of the decision, with the answers
        #: (`Control._choices`): the side's units and the log are read through these too
        self.asked: list[_Asked] = []

    def read(self, level: int) -> None:
        """The unit being weighed reads its side's other units this far."""
        self.touched = max(self.touched, level)

    def standing(self, dead: frozenset[str] = frozenset(),
                 moved: tuple[str, Position] | None = None) -> float:
        found = self._standing_of((dead, moved))
        self.asked.append(_Asked(STANDING, (dead, moved), found))
        return found

    def _standing_of(self, key: tuple[frozenset[str], tuple[str, Position] | None]
                     ) -> float:
        known = self._standing
        if known is None:
            known = self._standing = {} if self._kept is None else self._kept(self)
        found = known.get(key)
        if found is None:
            found = known[key] = standing(self.view, *key)
        return found

    def answers(self, asked: tuple[_Asked, ...]) -> bool:
        """Whether this decision answers each question as it was answered (in another
        decision: see `Control._choices`)."""
        for question in asked:
            if question.what == STANDING:
                now: object = self._standing_of(question.key)
            elif question.what == ZONE_HELD:
                now = self._zone()
            else:
                now = winning(self.view)
            if now != question.answer:
                return False
        return True

    def basis(self) -> _Basis:
        """What of the view the units' orders are weighed from (`_Basis`)."""
        if self._basis is None:
            self._basis = _Basis.of(self.view)
        return self._basis

    def winning(self) -> bool:
        """`winning` of the view."""
        found = winning(self.view)
        self.asked.append(_Asked(WINNING, None, found))
        return found

    def zone_held(self) -> bool:
        """Whether a unit of the side stands in one of its reach zones."""
        found = self._zone()
        self.asked.append(_Asked(ZONE_HELD, None, found))
        return found

    def _zone(self) -> bool:
        if self._zone_held is None:
            self._zone_held = any(_in_zone(self.view, u) for u in self.view.own if u.alive)
        return self._zone_held


def _assault_odds(unit: Unit, s: Seen) -> float:
    """The unit's chance of winning close quarters with the enemy (its quality untold:
    taken as regular)."""
    together = unit.section is not None or s.section is not None
    return melee_odds(len(unit.models), max(1, models_seen(s)),
                      hit_chance(INFANTRY_DAMAGE[Quality.REGULAR]),
                      hit_chance(INFANTRY_DAMAGE[unit.quality]), together)


def _ground_held(view: SideView, decision: _Decision) -> set[str]:
    """The sections whose ground floor holds a unit the side knows of there now: one of
    its own, or an enemy it sees now. The rules refuse a Run into them (`_check_enter`:
    one unit a floor, judged on what the side knows), so the computer does not ask."""
    decision.read(PLACES)
    return {u.section for u in view.own if u.alive and u.section is not None
            and u.floor == 0} | {s.section for _, s in view.enemies if s.alive and s.visible
                                 and s.section is not None and s.floor == 0}


def _enemy_places(view: SideView) -> set[Place]:
    """The places inside where the side knows of an enemy: no way leads through them."""
    return {(s.section, s.floor) for _, s in view.enemies
            if s.alive and s.section is not None}


def _late(view: SideView) -> float:
    """How much more an objective reached or entered weighs as the turns run out: 1 at the
    start, 4 on the last turn."""
    return 1.0 + 3.0 * view.turn / max(1, view.turns)


def _pressed(view: SideView, unit: Unit) -> bool:
    """Whether a unit short of its objective has at most a Run's worth of turns to spare:
    going Down to a shot would cost it the objective."""
    run = allowance(unit.mobility, OrderKind.RUN) or allowance(unit.mobility,
                                                               OrderKind.ADVANCE) or 1.0
    now = _distance(view, _position(unit))
    left = max(1, view.turns - view.turn + 1)
    return now > 0.0 and now / run >= left - PRESSED_TURNS and now / run <= left


def _gap(targets: list[Section | ShapelyPolygon], point: tuple[float, float]) -> float:
    """Straight distance from a point outside to the nearest of the sections' walls or
    zones."""
    here = ShapelyPoint(point)
    return min(float(t.distance(here)) if isinstance(t, ShapelyPolygon)
               else distance_to_section(point, t) for t in targets)


@lru_cache(maxsize=32)
def _ram_odds(tank: VehicleKind, building: BuildingKind) -> tuple[float, float] | None:
    """A tank's chances of bringing the building down by driving into it, and of being
    knocked out doing so (None: the rules do not let it)."""
    try:
        found = tank_assault_chances(tank, building)
    except IllegalOrder:
        return None
    return float(found["collapse"]), float(found["knocked_out"])


def _stand_off(view: SideView, unit: Unit, run: float) -> float:
    """How far short of its side's reach zones the unit waits while it is early for them
    (0: it may go in). Early: more than `STAGE_TURNS` turns before the scheduled end, the
    unit not in a zone already."""
    if view.turns - view.turn <= STAGE_TURNS or _in_zone(view, unit):
        return 0.0
    return 0.5 * run if _reach_zones(view) else 0.0


class _Aims(NamedTuple):
    """What a side's objectives name, as the computer asks it again and again: the
    sections its side must hold (`mine`), those any side must (`contested`), and its
    reach zones."""

    mine: frozenset[str]
    contested: frozenset[str]
    zones: tuple[ShapelyPolygon, ...]

    @staticmethod
    def of(view: SideView) -> _Aims:
        mine = frozenset(s for spec in view.objectives
                         if spec.side == view.side and spec.kind == "hold"
                         for s in spec.sections)
        contested = frozenset(s for spec in view.objectives if spec.kind == "hold"
                              for s in spec.sections)
        zones = tuple(_zone_shape(tuple((float(p[0]), float(p[1])) for p in spec.zone))
                      for spec in view.objectives
                      if spec.side == view.side and spec.kind == "reach"
                      and spec.zone is not None)
        return _Aims(mine, contested, zones)


def _aims(view: SideView) -> _Aims:
    """`_Aims` of the view, worked out again only when the side's view holds other
    conditions than its last (the scenario's never change during a game)."""
    found: tuple[tuple[object, ...], _Aims] | None = _kept(view, "aims")
    if found is None or found[0] is not view.objectives:
        # (the same conditions in another view's tuple: that tuple kept, for the next
        # asks of the same view)
        aims = found[1] if found is not None and same_objects(found[0], view.objectives) \
            else _Aims.of(view)
        found = _keep(view, "aims", (view.objectives, aims))
    return found[1]


def _reach_zones(view: SideView) -> tuple[ShapelyPolygon, ...]:
    return _aims(view).zones


@lru_cache(maxsize=64)
def _zone_shape(points: tuple[tuple[float, float], ...]) -> ShapelyPolygon:
    return ShapelyPolygon(points)


def _zone_gap(view: SideView, point: tuple[float, float]) -> float:
    """Straight distance from a point to the nearest of the side's reach zones (inf when
    it has none)."""
    return _zone_gaps(view, np.array([point], dtype=np.float64))[0]


def _zone_gaps(view: SideView, points: npt.NDArray[np.float64]) -> list[float]:
    """`_zone_gap` of many points (rows) in one call to GEOS (the same distances: a
    move's candidate ends are many, and a Point made one at a time costs more than
    measuring)."""
    zones = _reach_zones(view)
    if not zones or not len(points):
        return [inf] * len(points)
    here = shapely.points(points)
    nearest = np.min([shapely.distance(z, here) for z in zones], axis=0)
    return [float(g) for g in nearest]


def _zone_keeper(view: SideView, unit: Unit) -> bool:
    """Whether the unit stands out in the open in one of its side's reach zones and
    answers a shot with a kept Down: infantry at once, a vehicle (armour shrugs off most
    shots) once pinned. Pins, not losses, end a tank sitting under every enemy gun: a kept
    Down halves the hits on it or worse through the next turn too, and sheds D3 pins
    after it with no test, where a Rally risks failing its test."""
    if unit.section is not None or not _in_zone(view, unit):
        return False
    return unit.kind is not UnitKind.VEHICLE or unit.pins >= 1


class _Follow(NamedTuple):
    """A unit that follows (`LEADS_FROM`): how far from the objectives the foremost of
    the squads it follows is, and where they are."""

    foremost: float
    leads: tuple[tuple[float, float], ...]

    @staticmethod
    def of(view: SideView, unit: Unit, decision: _Decision) -> _Follow | None:
        """None for a unit that leads, one out in the open, or one with no squad left
        to follow."""
        if not _follows(unit) or unit.section is None:
            return None
        decision.read(WHOLE)  # where its friends stand, to the inch
        leads = [u for u in view.own if u.alive and u.aboard is None and u.id != unit.id
                 and u.kind is UnitKind.INFANTRY and u.start >= LEADS_FROM]
        if not leads:
            return None
        return _Follow(min(_distance(view, _position(u)) for u in leads),
                       tuple((u.lead.x, u.lead.y) for u in leads))

    def distance(self, after: float, x: float, y: float) -> float:
        """A place's distance to the objectives (`after`) as the follower counts it."""
        apart = min(dist((x, y), at) for at in self.leads) - NEAR
        return max(after, self.foremost + FOLLOW) + max(apart, 0.0)


#: the weapons of a unit that follows (`LEADS_FROM`)
PERSONAL_WEAPONS = frozenset({WeaponName.PISTOL, WeaponName.RIFLE, WeaponName.SMG,
                              WeaponName.ASSAULT_RIFLE})


def _follows(unit: Unit) -> bool:
    """Whether the unit follows its side's squads (`LEADS_FROM`)."""
    return unit.kind is UnitKind.INFANTRY and unit.start < LEADS_FROM \
        and unit.observer is None and all(m.weapon in PERSONAL_WEAPONS for m in unit.models)


def _followed(follow: _Follow | None, after: float, at: Sequence[float]) -> float:
    """A distance to the objectives as a unit counts it: as it is unless it follows."""
    return after if follow is None else follow.distance(after, at[0], at[1])


def _stays(unit: Unit) -> bool:
    """Units that do not move for the objectives: guns in a building or with fixed
    weapons (a mortar moves, but its shots outscore moving once a target is in range)."""
    if unit.kind is UnitKind.GUN:
        return unit.section is not None or any(WEAPONS[w].fixed for w in unit.mounts)
    return False


def _mortar_in_range(view: SideView, unit: Unit) -> bool:
    """Whether the unit fires only indirect and a known enemy is within its reach (it
    then shoots from where it is)."""
    reach = [WEAPONS[m.weapon].indirect for m in unit.models
             if m.weapon is not None and WEAPONS[m.weapon].range <= 0]
    here = (unit.lead.x, unit.lead.y)
    return any(r is not None and r[0] <= dist(here, (s.x, s.y)) <= r[1]
               for r in reach for _, s in view.visible_enemies())


def _mortar(unit: Unit) -> bool:
    return any(m.weapon is not None and WEAPONS[m.weapon].range <= 0 for m in unit.models)


def _in_zone(view: SideView, unit: Unit) -> bool:
    """Whether the unit stands in one of its side's reach zones (each place asked once
    while the side's objectives are the same: every decision asks it of every unit)."""
    aims = _aims(view)
    known: tuple[_Aims, dict[Position, bool]] | None = _kept(view, "in zone")
    if known is None or known[0] is not aims or len(known[1]) > MEMO_LIMIT:
        known = _keep(view, "in zone", (aims, {}))
    pos = _position(unit)
    found = known[1].get(pos)
    if found is None:
        found = known[1][pos] = _in_zone_at(view, pos)
    return found


def _in_zone_at(view: SideView, pos: Position) -> bool:
    return any(spec.side == view.side and spec.kind == "reach" and spec.zone is not None
               and in_objective(_Placed(pos), spec) for spec in view.objectives)


@dataclass(frozen=True, slots=True)
class _Placed:
    pos: Position


def _he_landed(view: SideView, uid: str) -> bool:
    """Whether the shot waiting on the unit has already hit with HE (its hits still to
    roll: going Down halves them)."""
    for event in reversed(view.log):
        if event.kind == "shot-at" and event.data.get("unit") == uid:
            return bool(event.data.get("hit"))
    return False


def _my_sections(view: SideView) -> frozenset[str]:
    return _aims(view).mine


def _contested(view: SideView) -> frozenset[str]:
    """Every section any side must hold: the enemy in one of them spoils the other's."""
    return _aims(view).contested


def _position(unit: Unit) -> Position:
    return Position(unit.lead.x, unit.lead.y, unit.section, unit.floor)


def _distance(view: SideView, pos: Position) -> float:
    """Walking distance to the side's objectives (straight to the nearest known enemy when
    the scenario sets none)."""
    if view.goal is not None:
        d = view.goal.distance(pos)
        if d != inf:
            return d
    return _to_enemy(view, pos.x, pos.y)


@dataclass(slots=True)
class _Spread:
    """The ends of a unit's moves out in the open from one place (`Control._moves`):
    length by length, heading by heading, to a hundredth of an inch, as rows of `xy` and
    as points; and their walking distances by the last goal field asked of."""

    here: tuple[float, float]
    xy: npt.NDArray[np.float64]
    ends: list[tuple[float, float]]
    goal: object = None
    found: tuple[float, ...] = ()  # of `goal`: inf off the field
    #: the last targets of `gaps_to` and the gaps, and the last enemies of `hidden_from`
    #: and the counts (each kept while the same are asked of)
    targets: tuple[Section | ShapelyPolygon, ...] = ()
    gaps: list[float] | None = None
    watch: tuple[tuple[float, float, str | None, int], ...] = ()
    hidden: npt.NDArray[np.float64] | None = None
    inside: list[str | None] | None = None  # see `sections`
    #: the sections some end falls in (`standing`)
    holders: tuple[str, ...] | None = None
    #: `distances` by `goal`, when none is off the field (None: worked out each time)
    afters: list[float] | None = None
    #: the reach zones of `zone_gaps` and their gaps to `here` and to the ends
    zones: tuple[ShapelyPolygon, ...] = ()
    zone_gaps: tuple[float, list[float]] | None = None

    @staticmethod
    def around(x: float, y: float, lengths: tuple[float, ...]) -> _Spread:
        steps = np.array(lengths, dtype=np.float64)
        xy = np.stack([hundredths(x + np.outer(steps, _COSINES)).reshape(-1),
                       hundredths(y + np.outer(steps, _SINES)).reshape(-1)], axis=1)
        return _Spread((x, y), xy,
                       list(zip(xy[:, 0].tolist(), xy[:, 1].tolist(), strict=True)))

    def distances(self, view: SideView) -> list[float]:
        """`_distance` of every end (out in the open), the field read once a goal."""
        if view.goal is None or not self.ends:
            return [_to_enemy(view, x, y) for x, y in self.ends]
        if self.goal is not view.goal:
            self.goal = view.goal
            self.found = tuple(view.goal.distances(_in_the_open(self.xy)).tolist())
            # off the field an end is measured to the enemies, which change
            self.afters = None if inf in self.found else list(self.found)
        if self.afters is not None:
            return self.afters
        return [d if d != inf else _to_enemy(view, x, y)
                for d, (x, y) in zip(self.found, self.ends, strict=True)]

    def sections(self, view: SideView) -> list[str | None]:
        """The section (if any) holding where the first model of a unit at the spread's
        place ends on each move: its place moved as the rules move it (see
        `actions._check_outside`), which may differ from the end in the last bit."""
        if self.inside is None:
            x, y = self.here
            self.inside = view.sight.sections_at(
                [(x + (ex - x), y + (ey - y)) for ex, ey in self.ends])
        return self.inside

    def standing(self, view: SideView) -> frozenset[str]:
        """The sections the ends fall in (`sections`) that stand (not in rubble)."""
        if self.holders is None:
            self.holders = tuple(sorted({sid for sid in self.sections(view)
                                         if sid is not None}))
        if not self.holders:
            return _NONE  # (most places: every end out in the open)
        return frozenset(sid for sid in self.holders
                         if view.sight.section_state(sid) is not SectionState.RUBBLE)

    def gaps_to(self, targets: list[Section | ShapelyPolygon]) -> list[float]:
        """`_gap` of every end to the targets: a zone's distances to all the ends in one
        call to GEOS (the same distances as one point at a time)."""
        if self.gaps is None or not same_objects(targets, self.targets):
            rows = [shapely.distance(t, shapely.points(self.xy)).tolist()
                    if isinstance(t, ShapelyPolygon)
                    else [distance_to_section(e, t) for e in self.ends] for t in targets]
            self.targets = tuple(targets)
            self.gaps = [min(gaps) for gaps in zip(*rows, strict=True)]
        return self.gaps

    def hidden_from(self, view: SideView,
                    watch: tuple[tuple[float, float, str | None, int], ...]
                    ) -> npt.NDArray[np.float64]:
        """How many fewer of the places in `watch` see each end than see the spread's
        own place."""
        if self.hidden is None or watch != self.watch:
            places = _in_the_open(np.concatenate([np.array([self.here], dtype=np.float64),
                                                  self.xy]))
            sight = view.sight
            seen = sight.visible_matrix_arrays(
                sight.position_arrays([Position(*w) for w in watch]), places) \
                .sum(axis=0).astype(np.float64)
            self.watch, self.hidden = watch, seen[0] - seen[1:]
        return self.hidden


def _in_the_open(xy: npt.NDArray[np.float64]) -> PositionArrays:
    """Points (rows of xy) on the ground outside every section, as the engine's arrays."""
    n = len(xy)
    return PositionArrays(xy, np.full(n, -1, np.int64), np.zeros(n, np.int64))


def _to_enemy(view: SideView, x: float, y: float) -> float:
    """Straight to the nearest known enemy (0 when none is known)."""
    known = [(s.x, s.y) for _, s in view.enemies if s.alive]
    if not known:
        return 0.0
    return min(dist((x, y), k) for k in known)


def _mark(view: SideView, unit: Unit, s: Seen) -> Mark:
    bunker = False
    if s.section is not None:
        bunker = view.sight.battlefield.section(s.section).construction is BuildingKind.BUNKER
    return Mark(models=max(1, models_seen(s)),
                distance=dist((unit.lead.x, unit.lead.y), (s.x, s.y)),
                inside=s.section is not None, bunker=bunker,
                down=s.doing is OrderKind.DOWN, vehicle=s.kind is UnitKind.VEHICLE)


def _outside_doors(view: SideView, sid: str, reach: float) -> list[tuple[float, float]]:
    """Points `reach` out from each ground-floor door or window of the section: straight
    out and half-right and half-left of it."""
    if reach <= 0:
        return []
    section = view.sight.battlefield.section(sid)
    cx, cy = centroid(section)
    out = []
    for x, y in ground_doors(section):
        norm = max(1e-9, dist((x, y), (cx, cy)))
        ux, uy = (x - cx) / norm, (y - cy) / norm
        for turn in (0.0, pi / 4, -pi / 4):
            dx = ux * cos(turn) - uy * sin(turn)
            dy = ux * sin(turn) + uy * cos(turn)
            out.append((round(x + reach * dx, 2), round(y + reach * dy, 2)))
    return out


#: the name the rule set asks for
SimpleChooser = Control
