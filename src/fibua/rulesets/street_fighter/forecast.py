"""What an order will do, said before it is given (`RuleSet.forecast`): how far a move
goes and how the enemy may pick the unit out where it ends, the odds of a firing, an
indirect fire mission or a close assault as the rules roll them, and what ending the
side's orders gives up.

Everything here reads what the ordering side knows: its own units, the enemy units it
sees (where it sees them, by their kind), and the map. Who rides inside an enemy vehicle,
an enemy's hit points and its hidden units are not the side's to know, and change nothing.
"""

from __future__ import annotations

from fractions import Fraction
from math import inf

from fibua.battlefield.model import Position
from fibua.core.orders import Order
from fibua.core.ruleset import Preview, Risk
from fibua.rulesets.street_fighter import actions
from fibua.rulesets.street_fighter.combat import ANTI_TANK, assault_points, shot_for
from fibua.rulesets.street_fighter.ground import in_cover
from fibua.rulesets.street_fighter.odds import assault_hit, bombard_chance
from fibua.rulesets.street_fighter.shooting import band, base_need, hit_chance, modifiers
from fibua.rulesets.street_fighter.spotting import sign_of
from fibua.rulesets.street_fighter.state import Activity, Seen, StreetFighterState, Unit
from fibua.rulesets.street_fighter.tables import (
    ASSAULT_NEED,
    ASSAULT_POINTS_STEP,
    BAND_NAMES,
    CATALOGUE,
    INDIRECT_NEED,
    INDIRECT_RADIUS,
    LORRY_HIT_MULTIPLIER,
    NOT_OBSERVING,
    OBSERVING,
    Bands,
    Body,
    Kind,
    Row,
    Sign,
)
from fibua.rulesets.street_fighter.turn import can_act

#: the activities a move-like order leaves the unit in, as the enemy's observers see it
MOVE_ACTIVITY = {"move": Activity.MOVED, "flat-out": Activity.FLAT_OUT}

#: what allows how far each move-like action goes
ALLOWED = {Activity.MOVED: "a move allows", Activity.FLAT_OUT: "flat out allows",
           Activity.MOVED_FIRED: "a half move before firing allows"}

SIGN_WORDS: dict[Sign, str] = {
    Sign.INFANTRY_HIDDEN: "troops in cover, not firing",
    Sign.INFANTRY_OPEN: "troops in the open",
    Sign.INFANTRY_FIRING_COVER: "troops firing from cover",
    Sign.SNIPER_FIRING_COVER: "a sniper firing from cover",
    Sign.INFANTRY_FIRING_OPEN: "troops firing in the open",
    Sign.VEHICLE_STATIONARY: "a stationary vehicle",
    Sign.VEHICLE_MOVING: "a moving vehicle",
    Sign.VEHICLE_FIRING: "a firing vehicle",
}


def forecast(state: StreetFighterState, order: Order) -> Preview:
    """The forecast of an order the rules have already checked."""
    unit = state.units.get(order.unit or "")
    if unit is None:  # `end`: every other order names a unit
        return _end(state, order.side)
    params = order.params
    if order.kind in MOVE_ACTIVITY:
        return _move(state, unit, actions.plan_move(state, unit, params,
                                                    MOVE_ACTIVITY[order.kind]))
    if order.kind == "move-fire":
        plan = actions.plan_move(state, unit, params, Activity.MOVED_FIRED)
        shot = _shot(state, unit, actions.check_fire(state, unit, params, plan.legs[-1],
                                                     moved=True), plan.legs[-1])
        return Preview(_move_words(state, unit, plan) + "; then " + shot.text, shot.chance,
                       risks=shot.risks)
    if order.kind == "shoot" and "point" in params:
        return _indirect(state, unit, actions.check_indirect(state, unit, params))
    if order.kind == "shoot":
        return _shot(state, unit, actions.check_fire(state, unit, params, unit.pos,
                                                     moved=False), unit.pos)
    if order.kind == "assault":
        return _assault(state, actions.check_assault(state, unit, params))
    if order.kind == "mount":
        return _mount(unit, actions.check_mount(state, unit, params))
    if order.kind == "dismount":
        return _dismount(state, unit, actions.check_dismount(state, unit, params))
    return _observe(state, unit)


def percent(p: Fraction | float) -> str:
    """A chance in words: whole percents, tenths below 10% (a 0.4% chance is not 0%)."""
    value = float(p)
    return f"{value:.1%}" if 0 < value < 0.1 else f"{value:.0%}"


# ---------------------------------------------------------------- moving, and being seen


def _move(state: StreetFighterState, unit: Unit, plan: actions.MovePlan) -> Preview:
    return Preview(_move_words(state, unit, plan))


def _move_words(state: StreetFighterState, unit: Unit, plan: actions.MovePlan) -> str:
    most = actions.allowance(unit, plan.activity)
    parts = [f"{unit.name} moves {plan.length:.1f} cm of the {most:g} cm "
             f"{ALLOWED[plan.activity]}"]
    if unit.passengers:
        riders = ", ".join(state.units[p].name for p in unit.passengers)
        parts.append(f"carrying {riders}")
    if plan.activity is Activity.MOVED:
        parts.append("no firing this action")
    if plan.activity is Activity.FLAT_OUT:
        parts.append("no firing, it spots nothing this turn, and enemy fire at it is at -1")
        if plan.length <= actions.allowance(unit, Activity.MOVED):
            parts.append(f"a normal move ({unit.spec.move:g} cm) would reach as far")
    end = plan.legs[-1]
    firing = plan.activity is Activity.MOVED_FIRED
    parts.append(_place_words(state, end) + ": " + _seen_words(state, unit, end, firing=firing,
                                                               moving=True))
    return "; ".join(parts)


def _place_words(state: StreetFighterState, at: Position) -> str:
    if at.section is not None:
        return f"ends in the building area {at.section}"
    return "ends in cover" if in_cover(state.sight, at) else "ends in the open"


def _seen_words(state: StreetFighterState, unit: Unit, at: Position, firing: bool,
                moving: bool) -> str:
    """How the enemy's observers may pick the unit out there, read off both observation
    tables for the row the unit then shows."""
    sign = sign_of(vehicle=unit.spec.vehicle, sniper=unit.kind is Kind.SNIPER,
                   firing=firing, moving=moving, in_cover=in_cover(state.sight, at))
    watching, others = _bands_words(OBSERVING[sign]), _bands_words(NOT_OBSERVING[sign])
    shows = SIGN_WORDS[sign]
    if watching == others == "never":
        return f"the enemy cannot pick it out ({shows})"
    if watching == others:
        return f"the enemy picks it out ({shows}) {watching}"
    return f"the enemy picks it out ({shows}) {watching} if observing, else {others}"


def _bands_words(bands: Bands) -> str:
    words: list[str] = []
    for limit, need in bands:
        what = "always" if need == 0 else "never" if need is None else f"on {need}+"
        where = (" beyond" if words else "") if limit == inf else f" up to {limit:g} cm"
        words.append(what + where)
    return ", ".join(words)


# ---------------------------------------------------------------- direct fire


def _shot(state: StreetFighterState, unit: Unit, plan: actions.FirePlan,
          at: Position) -> Preview:
    """The odds of a checked firing, the firer standing `at` (where a move-fire's move
    ends, else where it stands): the score the table needs at the range, the modifiers by
    name, the chance, and what a hit does to a target of that kind."""
    target = state.units[plan.target]
    s = shot_for(state, unit, target, plan.row, moved=plan.moved, at=at)
    need = base_need(plan.row, s.range)
    mods = [m for m in modifiers(s) if m.value]
    chance = hit_chance(s)
    where = "" if at.point == unit.pos.point else f" from ({at.x:g}, {at.y:g})"
    text = (f"{unit.name}{where} at {target.name}: range {s.range:.1f} cm, needs {need}+ "
            f"with {sum(m.value for m in mods):+d}: {percent(chance)} to hit")
    if mods:
        text += " (" + ", ".join(f"{m.name} {m.value:+d}" for m in mods) + ")"
    text += f", on a d10 read 0-9 ({plan.row} row, {BAND_NAMES[band(s.range)]} band)"
    risks = []
    if chance == 0:
        text += "; no face of the die can hit"
        risks.append(Risk.HOPELESS)
    effect, may_do_nothing = _hit_effect(target.kind, plan.row)
    text += "; " + effect
    if may_do_nothing:
        risks.append(Risk.WASTED)
    return Preview(text, float(chance), risks=tuple(risks))


def _hit_effect(kind: Kind, row: Row) -> tuple[str, bool]:
    """What a hit does to a unit of this kind (the side sees the kind, never who rides
    inside nor the hit points left), and whether the firing may do nothing at all."""
    spec = CATALOGUE[kind]
    anti_tank = row in ANTI_TANK
    if spec.body is Body.TANK:
        return "a hit knocks it out", False
    if spec.body is Body.SOFT:
        return (f"a hit knocks it out, and whoever rides inside bails out with "
                f"{LORRY_HIT_MULTIPLIER} hits"), False
    if spec.body is Body.ARMOURED and anti_tank:
        return "a hit knocks it out, and whoever rides inside bails out with a hit", False
    if spec.body is Body.ARMOURED:
        return ("with nobody inside, the fire does nothing; a hit falls on whoever rides "
                "inside, if anyone does"), True
    if spec.hit_points == 1:
        return "a hit puts it out of the fight", False
    return (f"a hit costs it one of its hit points ({spec.hit_points} at full strength) "
            "and pins it"), False


# ---------------------------------------------------------------- indirect fire


def _indirect(state: StreetFighterState, unit: Unit, plan: actions.IndirectPlan) -> Preview:
    """Fire called on a point lands at the start of next turn: each unit then within
    reach of where it comes down (tanks and riders apart) is hit on 5+. The odds are those
    of the units standing where they stand now, the enemy ones where the side sees them."""
    what = "artillery" if plan.artillery else "mortar fire"
    mark = bombard_chance(plan.x, plan.y, Position(plan.x, plan.y))
    parts = [f"{unit.name} calls {what} on ({plan.x:g}, {plan.y:g}): it comes down at the "
             f"start of next turn, on the mark, {INDIRECT_RADIUS:g} cm off or not at all, "
             f"and hits each unit within {INDIRECT_RADIUS:g} cm of where it falls (tanks "
             f"and riders apart) on {INDIRECT_NEED}+: {percent(mark)} for a unit on the "
             "mark"]
    enemies = [(s.name, bombard_chance(plan.x, plan.y, Position(s.x, s.y)))
               for s in _known_enemies(state, unit.side)
               if CATALOGUE[s.kind].body is not Body.TANK]
    enemies = [(name, p) for name, p in enemies if p > 0]
    friends = [(u.name, bombard_chance(plan.x, plan.y, u.pos))
               for u in state.side_units(unit.side) if u.rides is None and not u.is_tank]
    friends = [(name, p) for name, p in friends if p > 0]
    if enemies:
        parts.append("enemy units seen within reach as they stand now: " + ", ".join(
            f"{name} {percent(p)}" for name, p in enemies))
    if friends:
        parts.append("friendly fire: own units within reach as they stand now: " + ", ".join(
            f"{name} {percent(p)}" for name, p in friends))
    risks = [Risk.FRIENDLY_FIRE] if friends else []
    if plan.artillery:
        left = state.artillery.get(unit.side, 0)
        parts.append(f"uses one of the {left} fire mission(s) left, which may come to nothing")
        risks.append(Risk.WASTED)
    chance = max([mark, *(p for _, p in enemies)])
    return Preview("; ".join(parts), float(chance), risks=tuple(risks))


def _known_enemies(state: StreetFighterState, side: str) -> list[Seen]:
    """The enemy units the side sees now, where it sees them (its memory, not the state)."""
    return [s for _, s in state.knowledge[side].listed() if s.visible and s.alive]


# ---------------------------------------------------------------- close assault


def _assault(state: StreetFighterState, plan: actions.AssaultPlan) -> Preview:
    """One round: the defenders fire first, then each side rolls a d10 plus one for each
    full ten points it has in the fight, and 7+ inflicts a hit on the other side's
    strongest unit; with no defender left standing the attackers take the area."""
    units = [state.units[u] for u in plan.units]
    side = units[0].side
    points = assault_points(units)
    mine = assault_hit(points)
    names = ", ".join(u.name for u in units)
    parts = [f"{names} close assault {plan.section} with {points} point(s), "
             f"+{points // ASSAULT_POINTS_STEP}: {ASSAULT_NEED}+ on a d10 read 0-9 inflicts "
             f"a hit, {percent(mine)}; it takes the whole action of every unit named"]
    known = [s for s in _known_enemies(state, side) if s.section == plan.section]
    if known:
        theirs = sum(CATALOGUE[s.kind].assault_points for s in known)
        parts.append(f"defenders seen there: {', '.join(s.name for s in known)} with "
                     f"{theirs} point(s): they fire first, then hit back "
                     f"{percent(assault_hit(theirs))}")
    else:
        parts.append("no defender seen there: an empty area is cleared and taken; hidden "
                     "defenders would fire first and fight back")
    return Preview("; ".join(parts), float(mine))


# ---------------------------------------------------------------- mount, dismount, observe


def _mount(unit: Unit, vehicle: Unit) -> Preview:
    room = vehicle.spec.capacity - len(vehicle.passengers) - 1
    if vehicle.spec.body is Body.SOFT:
        danger = (f"any hit on it knocks it out and its riders bail out with "
                  f"{LORRY_HIT_MULTIPLIER} hits each")
    else:
        danger = ("small-arms hits on it fall on its riders; an anti-tank hit knocks it out "
                  "and its riders bail out with a hit each")
    return Preview(f"{unit.name} climbs into {vehicle.name} ({room} place(s) left), its "
                   "action this turn: it rides hidden, moves with the vehicle and cannot "
                   f"fire, spot or be fired at itself; {danger}")


def _dismount(state: StreetFighterState, unit: Unit, there: Position) -> Preview:
    assert unit.rides is not None
    vehicle = state.units[unit.rides]
    return Preview(f"{unit.name} gets out of {vehicle.name} at ({there.x:g}, {there.y:g}), "
                   f"its action this turn; {_place_words(state, there)}: "
                   + _seen_words(state, unit, there, firing=False, moving=True))


def _observe(state: StreetFighterState, unit: Unit) -> Preview:
    sign = Sign.INFANTRY_OPEN
    return Preview(f"{unit.name} observes until its next action, neither moving nor firing: "
                   "its formation's observation die reads the better table for it (troops "
                   f"in the open: {_bands_words(OBSERVING[sign])}, instead of "
                   f"{_bands_words(NOT_OBSERVING[sign])}); where it stands "
                   + _seen_words(state, unit, unit.pos, firing=False, moving=False))


# ---------------------------------------------------------------- the end of the orders


def _end(state: StreetFighterState, side: str) -> Preview:
    idle = [u.name for u in state.side_units(side) if can_act(state, u)]
    text = f"ends the side's orders for turn {state.turn}: "
    if idle:
        text += ", ".join(idle) + " have not acted and give up their action this turn"
    else:
        text += "every unit has had its action"
    return Preview(text)
