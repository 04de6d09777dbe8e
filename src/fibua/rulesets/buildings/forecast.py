"""What a Buildings order would do, said before it is given (`forecast`): the move's length
and where it ends, the shot's chances with their reasons, an assault's odds, what a rally
or a Down gives, what `end` gives up, and what may go wrong (`Risk`).

A forecast is worked out for the side giving the order from what it knows: its own units,
and the enemy as its memory holds it; an enemy's present place, order and strength are read
only while the side sees it (forecast_words.py). It changes nothing: an Advance's shot is
judged from a copy of the unit standing where the move ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import icepool

from fibua.core.orders import Order
from fibua.core.ruleset import Preview, Risk
from fibua.rulesets.buildings import actions
from fibua.rulesets.buildings.actions import MOST_ROUNDS, Move, Plan
from fibua.rulesets.buildings.assault import surprise
from fibua.rulesets.buildings.firing import firers, models_under
from fibua.rulesets.buildings.forecast_fire import (
    call,
    fire_at_section,
    fire_at_units,
    futile,
    indirect_at_section,
    indirect_at_unit,
    summary,
    volley,
)
from fibua.rulesets.buildings.forecast_words import (
    Said,
    expected,
    in_sight,
    inches,
    known,
    may_go_down,
    mix,
    names,
    pct,
    place,
    some,
    visible_enemies,
)
from fibua.rulesets.buildings.knowledge import seen_by, sees
from fibua.rulesets.buildings.morale import needs_test, order_need, pass_chance
from fibua.rulesets.buildings.odds import (
    assault_odds,
    either,
    floor_chances,
    he_kills,
    tank_assault_chances,
    vehicle_assault_chance,
)
from fibua.rulesets.buildings.state import BuildingsState, Model, Unit, models_seen
from fibua.rulesets.buildings.tables import (
    AIR_STRIKE_HE,
    BARRAGE_HE,
    TANK_ASSAULT_BUILDING,
    VEHICLE_DAMAGE,
    WEAPONS,
    ObserverKind,
    OrderKind,
    UnitKind,
)

Check = Callable[[BuildingsState, Unit, dict[str, Any]], Plan]
_CHECKS: dict[OrderKind, Check] = {
    OrderKind.FIRE: actions.check_fire,
    OrderKind.ADVANCE: actions.check_advance,
    OrderKind.RUN: actions.check_run,
}


def forecast(state: BuildingsState, order: Order) -> Preview:
    """The forecast of an order the rules allow (checked by the caller)."""
    if order.kind == "end":
        said = _end(state, order.side)
    else:
        unit = state.units[str(order.unit)]
        if state.waiting is not None:
            said = _answer(state, unit, down=True, keep=order.params.get("keep") is True)
        else:
            kind = OrderKind(order.kind)
            plan = _CHECKS[kind](state, unit, order.params) if kind in _CHECKS else \
                actions.check_still(state, unit, order.params, kind)
            said = _ordered(state, unit, plan, _body(state, _tested(unit, plan), plan))
    return Preview(said.text, said.chance, said.becomes, said.risks)


def _tested(unit: Unit, plan: Plan) -> Unit:
    """The unit as it carries the order out: an order is carried out only once its
    order test is passed, and the pass has taken a pin off (a Rally counts that pin
    itself; a Down takes no test)."""
    if plan.kind in (OrderKind.DOWN, OrderKind.RALLY) or not needs_test(unit.pins):
        return unit
    return replace(unit, pins=unit.pins - 1)


def _body(state: BuildingsState, unit: Unit, plan: Plan) -> Said:
    if plan.kind is OrderKind.FIRE:
        return _fire(state, unit, plan)
    if plan.kind is OrderKind.ADVANCE:
        return _advance(state, unit, plan)
    if plan.kind is OrderKind.RUN:
        return _run(state, unit, plan)
    if plan.kind is OrderKind.AMBUSH:
        return _ambush(state, unit, plan)
    if plan.kind is OrderKind.RALLY:
        return _rally(unit)
    return _down(unit, plan)


def _fire(state: BuildingsState, unit: Unit, plan: Plan) -> Said:
    if plan.call is not None:
        return call(state, unit, plan.call)
    if plan.section is not None:
        return indirect_at_section(state, unit, plan.section[0]) if plan.indirect else \
            fire_at_section(state, unit, *plan.section)
    assert plan.target is not None
    if plan.indirect:
        return indirect_at_unit(state, unit, state.units[plan.target])
    return fire_at_units(state, unit, [plan.target, *plan.more])


# ------------------------------------------------------------------ the order test


def _ordered(state: BuildingsState, unit: Unit, plan: Plan, said: Said) -> Said:
    """The order as it is carried out: a shaken crew goes Down instead; a unit with pins
    first takes its order test; an enemy on Ambush that sees it may fire first."""
    if unit.shaken and plan.kind is not OrderKind.DOWN:
        return Said(f"{unit.name}'s crew is shaken: it goes Down instead, and the order "
                    "die is spent on that", 0.0, (Risk.WASTED,), becomes=str(OrderKind.DOWN))
    text, chance = said.text, said.chance
    if unit.pins and plan.kind is not OrderKind.DOWN:
        need = order_need(unit.quality, unit.pins)
        passes = float(pass_chance(need))
        blunder = state.options.blunder_pins if state.options.blunder else 0
        text += (f". It has {unit.pins} pin{'s' if unit.pins > 1 else ''}: first an order "
                 f"test, 2D6 of {need} or less ({pct(passes)}); a pass takes a pin off, a "
                 "fail goes Down instead"
                 + (f" and a double 6 adds {blunder} pin{'s' if blunder > 1 else ''}"
                    if blunder else ""))
        chance = passes if chance is None else passes * chance
    return Said(text + _ambushers(state, unit, plan), chance, said.risks, said.becomes)


def _ambushers(state: BuildingsState, unit: Unit, plan: Plan) -> str:
    """Enemy units the side sees on Ambush that may fire at the unit as it acts."""
    moving = plan.move is not None and plan.move.length > 0
    found = [e for e in visible_enemies(state, unit.side)
             if _on_ambush(state, unit.side, e) and (moving or sees(state, e, unit))]
    if not found:
        return ""
    if moving:
        return f". On Ambush: {names(found)}, which may fire at it if it comes into sight"
    return f". On Ambush and in sight of it: {names(found)}, which may fire at it first"


def _on_ambush(state: BuildingsState, side: str, enemy: Unit) -> bool:
    seen = known(state, side, enemy.id)
    return seen is not None and seen.doing is OrderKind.AMBUSH


# ------------------------------------------------------------------ moves


def _advance(state: BuildingsState, unit: Unit, plan: Plan) -> Said:
    assert plan.move is not None
    text = f"{unit.name} {_move_words(state, unit, plan, 'advances')}"
    if plan.target is None:
        return Said(text)
    shot = _advance_shot(state, unit, plan)
    return Said(text + shot.text, shot.chance, shot.risks)


def _run(state: BuildingsState, unit: Unit, plan: Plan) -> Said:
    assert plan.move is not None
    if plan.assault is not None:
        return _assault(state, unit, plan)
    if plan.move.ram is not None:
        return _ram(state, unit, plan.move)
    return Said(f"{unit.name} {_move_words(state, unit, plan, 'runs')}; no shooting on a Run")


def _move_words(state: BuildingsState, unit: Unit, plan: Plan, verb: str) -> str:
    move = plan.move
    assert move is not None
    words = _where(state, unit, move, verb)
    if move.section is not None and (move.section, move.floor) != (unit.section, unit.floor):
        words += " (an enemy unit your side has not seen on that floor would stop it short)"
    if plan.opening is not None:
        fixed = next(WEAPONS[m.weapon].title for m in unit.models
                     if m.weapon is not None and WEAPONS[m.weapon].fixed)
        words += f"; its {fixed} is assigned to opening {plan.opening} of floor {move.floor}"
    return words


def _where(state: BuildingsState, unit: Unit, move: Move, verb: str) -> str:
    """Where the move goes and how far, in words."""
    n, end = inches(move.length), place(move.points[0])
    if move.mount is not None:
        return f"{verb} {n} and gets into {state.units[move.mount].name}"
    if unit.aboard is not None:
        return f"gets out of {state.units[unit.aboard].name} and {verb} {n} to {end}"
    if move.section is None:
        if unit.section is not None:
            return f"leaves {unit.section} by a ground-floor opening and {verb} {n} to {end}"
        return f"{verb} {n} to {end}" if move.length >= 0.05 else "stays where it is"
    if (move.section, move.floor) == (unit.section, unit.floor):
        return "stays where it is"
    if unit.section is None:
        return (f"{verb} {n} to a ground-floor door or window of {move.section} and goes in, "
                "to its ground floor")
    if move.length > 0:
        return (f"leaves {unit.section} by a ground-floor opening and {verb} {n} into "
                f"{move.section}, to its ground floor")
    if move.section == unit.section:
        up = "up" if move.floor > unit.floor else "down"
        return f"{verb} {up} to floor {move.floor} of {move.section}"
    via = f", through {move.via}" if move.via is not None else ""
    return f"{verb} to floor {move.floor} of {move.section}{via}"


def _advance_shot(state: BuildingsState, unit: Unit, plan: Plan) -> Said:
    """The shot after an Advance, judged from where the move ends: lost (WASTED) when the
    unit will have no weapon in sight and range of its target, or cannot be known when the
    side does not see the target now."""
    assert plan.move is not None and plan.target is not None
    target = state.units[plan.target]
    if not in_sight(state, unit.side, target.id):
        seen = known(state, unit.side, target.id)
        when = f"last seen on turn {seen.turn}" if seen is not None else "never seen"
        return Said(f"; whether it can then fire at {target.name} cannot be known, as your "
                    f"side does not see it now ({when}): if it cannot, the shot is lost",
                    None, (Risk.WASTED,))
    moved = _moved(unit, plan.move, plan.opening)
    if not _will_know(state, unit, moved, target) or not firers(state, moved, target, True):
        return Said(f"; from where it ends it will have no weapon in sight and range of "
                    f"{target.name}: the shot is lost", 0.0, (Risk.WASTED,))
    v = volley(state, moved, target, True)
    text = (f"; then, if {target.name} stays where it is, it fires at it at -1 for advancing "
            f"(not assault weapons; fixed weapons not at all): {v.words}; {summary(state, v)}")
    return Said(text, some(v.removed), futile(v.hits, some(v.removed)))


def _will_know(state: BuildingsState, unit: Unit, moved: Unit, target: Unit) -> bool:
    """`knows_of` once the unit stands where `moved` does: it sees the target, or the
    target is inside and another unit of the side sees it (the side's sight then is its
    other units' and the moved unit's)."""
    if sees(state, moved, target):
        return True
    others = [u for u in state.side_units(unit.side) if u.id != unit.id]
    return target.section is not None and seen_by(state, others, [target])[0]


def _moved(unit: Unit, move: Move, opening: int | None) -> Unit:
    """A copy of the unit standing where the move ends (`actions.place`, on a copy)."""
    models = [Model(x, y, m.weapon) for m, (x, y) in zip(unit.models, move.points,
                                                        strict=False)]
    stays = (unit.section, unit.floor) == (move.section, move.floor)
    keeps = unit.opening if stays or unit.kind is not UnitKind.INFANTRY else None
    return replace(unit, models=models, section=move.section, floor=move.floor,
                   opening=keeps if opening is None else opening, spent=list(unit.spent),
                   aboard=move.mount)


# ------------------------------------------------------------------ assaults


def _assault(state: BuildingsState, unit: Unit, plan: Plan) -> Said:
    assert plan.move is not None and plan.assault is not None
    target = state.units[plan.assault]
    text = f"{unit.name} assaults {target.name}" + _charge(state, unit, target, plan.move)
    if target.vehicle is not None:
        chance = vehicle_assault_chance(len(unit.models), target.vehicle)
        text += (f"; if it carries troops they bail out and fight first; then each model "
                 f"hits on a 6 and strikes its side armour: knocked out {pct(chance)}")
        return Said(text, float(chance), (Risk.HOPELESS,) if chance == 0 else ())
    seen = known(state, unit.side, target.id)
    if seen is None:
        return Said(text + f"; your side has not seen {target.name}: its strength is not "
                    "known")
    section = seen.section
    together = plan.move.section is not None or section is not None
    odds = assault_odds(len(unit.models), models_seen(seen), unit.quality, target.quality,
                        together, MOST_ROUNDS)
    how = "both strike at once" if together else \
        "the assaulters strike first, the survivors strike back"
    last = "" if in_sight(state, unit.side, target.id) else " as last seen"
    text += (f"; the fight, {len(unit.models)} models against {models_seen(seen)}{last}, "
             f"{how}: it wins {pct(odds.win)}, loses and is destroyed {pct(odds.lose)}, "
             f"both destroyed {pct(odds.both)}")
    if odds.neither >= 0.005:
        text += f", neither after {MOST_ROUNDS} rounds {pct(odds.neither)}"
    text += " (reaction fire and the tests at half strength aside)"
    return Said(text + _after_win(state, plan, section, seen.floor), odds.win,
                (Risk.HOPELESS,) if odds.win == 0 else ())


def _charge(state: BuildingsState, unit: Unit, target: Unit, move: Move) -> str:
    """How the assault starts: inside, or a charge that may meet reaction fire."""
    if actions.adjoining(state, unit, target):
        return ": a fight inside the building, with no reaction fire"
    gap = actions.assault_distance(state, unit, target)
    words = f", charging {inches(move.length)}"
    if unit.section is not None:
        words += f", leaping out of {unit.section} into the open"
    if surprise(gap):
        return words + f"; it starts {inches(gap)} away: a surprise charge, no reaction fire"
    if target.vehicle is not None:
        return words
    seen = known(state, unit.side, target.id)
    if may_go_down(state, unit.side, target):
        return words + (f"; it starts {inches(gap)} away, over 6in: {target.name}, with no "
                        "order yet, may fire at it first")
    if seen is not None and seen.visible:
        return words + f"; {target.name} has had its order: no reaction fire"
    return words + f"; over 6in away, {target.name} may fire at it first if it has no order"


def _after_win(state: BuildingsState, plan: Plan, section: str | None, floor: int) -> str:
    words = ""
    if section is not None and plan.take:
        words += f"; a winner takes floor {floor} of {section}"
    if plan.regroup is not None and (section is None or not plan.take):
        words += (f"; a winner then regroups toward {place(plan.regroup)} (up to "
                  f"{state.options.regroup:g}in, never into a building)")
    return words


def _ram(state: BuildingsState, tank: Unit, move: Move) -> Said:
    """A heavy tank driving into a section: the tank's D6 and damage value against the
    building's dice (odds.py)."""
    assert tank.vehicle is not None and move.ram is not None
    section = state.battlefield.section(move.ram)
    found = tank_assault_chances(tank.vehicle, section.construction, state.options)
    text = (f"{tank.name} drives {inches(move.length)} into {move.ram} "
            f"({section.construction}): D6+{VEHICLE_DAMAGE[tank.vehicle]} against "
            f"{TANK_ASSAULT_BUILDING[section.construction].upper()}; the section collapses "
            f"{pct(found['collapse'])}, everyone inside destroyed; the tank is damaged "
            f"{pct(found['tank_damaged'])}, knocked out {pct(found['knocked_out'])}; a "
            "surviving tank takes a pin")
    inside = [e for e in visible_enemies(state, tank.side) if e.section == move.ram]
    if inside:
        text += f"; {names(inside)} inside may fire at it first"
    own = [u for u in state.side_units(tank.side) if u.section == move.ram]
    if own:
        return Said(text + f"; your {names(own)} inside would be buried",
                    float(found["collapse"]), (Risk.FRIENDLY_FIRE,))
    return Said(text, float(found["collapse"]))


# ------------------------------------------------------------------ orders in place


_AMBUSH_AT = {"first": "the first point of its path in sight",
              "nearest": "the point of its path nearest to it",
              "last": "the last point of its path in sight"}


def _ambush(state: BuildingsState, unit: Unit, plan: Plan) -> Said:
    text = (f"{unit.name} waits in ambush, without moving: it fires at the first enemy unit "
            "that acts in its sight, this turn or the next (a mover coming into sight at "
            f"{_AMBUSH_AT[plan.ambush_at]}), then counts as having fired")
    ready = [e for e in visible_enemies(state, unit.side)
             if sees(state, unit, e) and firers(state, unit, e, False)]
    if ready:
        return Said(text + f"; enemy units in its sight and range now: {names(ready)}")
    return Said(text + "; no enemy unit your side sees is in its sight and range now, so it "
                "may fire at nothing", None, (Risk.WASTED,))


def _rally(unit: Unit) -> Said:
    """A Rally: the order test's pass takes a pin off, then D6 more go."""
    if not unit.pins:
        return Said(f"{unit.name} rallies, but has no pins: the order does nothing", 0.0,
                    (Risk.WASTED,))
    left = unit.pins - 1
    more = icepool.d6.map(lambda k: min(k, left))
    gone = Fraction(sum(1 for k in range(1, 7) if k >= left), 6)
    return Said(f"{unit.name} rallies, without moving: passing its order test takes 1 pin "
                f"off, then D6 more of the {left} left go: expected pins removed "
                f"{1 + expected(more):.2f} of {unit.pins}, none left {pct(gone)}")


def _down(unit: Unit, plan: Plan) -> Said:
    text = (f"{unit.name} goes Down, without moving or an order test: shots at it are at -2 "
            "to hit and HE hits on it halved, rounding up, until its next order")
    if plan.keep:
        text += ("; it keeps its die out of the next turn's bag, so it stays Down through "
                 "that turn and then loses D3 pins")
    return Said(text)


# ------------------------------------------------------------------ answers and end


def _end(state: BuildingsState, side: str) -> Said:
    if state.waiting is not None:
        return _answer(state, state.units[state.waiting.target], down=False)
    holder = next((u for u in state.units.values()
                   if u.side == side and u.alive and u.order is None), None)
    if holder is None:
        return Said("The drawn die is given to no order", None, (Risk.WASTED,))
    return Said(f"The drawn die is given to no order: {holder.name} holds, counting as "
                "having fired without a shot, and gives no other order this turn", None,
                (Risk.WASTED,))


def _answer(state: BuildingsState, unit: Unit, down: bool, keep: bool = False) -> Said:
    """A unit shot at goes Down (spending a die) or takes the shot as it is (`end`)."""
    said = _answer_words(state, unit, down)
    if keep:
        return Said(said.text + "; it keeps its die out of the next turn's bag, so it stays "
                    "Down through that turn and then loses D3 pins")
    return said


def _answer_words(state: BuildingsState, unit: Unit, down: bool) -> Said:
    waiting = state.waiting
    assert waiting is not None
    by = state.units[waiting.firer]
    who = by.name if in_sight(state, unit.side, by.id) else "a unit your side does not see"
    if waiting.arrival:
        arriving = state.arriving
        assert arriving is not None
        what = "an air strike" if arriving.call.kind is ObserverKind.AIR else \
            "a barrage's heavy hit"
    elif waiting.landing:
        what = f"HE that hit it, from {who}"
    else:
        what = f"fire from {who}"
    text = f"{unit.name} goes Down in answer to {what}, spending one of your dice (no test)" \
        if down else f"{unit.name} takes {what} without going Down"
    if not waiting.arrival and not waiting.landing:
        return Said(text + (": every shot at it is at -2 to hit" if down else
                            ": going Down would put every shot at it at -2 to hit"))
    if unit.vehicle is not None:
        return Said(text + ": a hit on a vehicle meets its armour, Down or not")
    taken, halved = _landing(state, unit, False), _landing(state, unit, True)
    return Said(text + f": its hits are {'halved, rounding up' if down else 'rolled in full'}"
                f"; expected models lost {expected(halved if down else taken):.2f} (taking "
                f"it {expected(taken):.2f}, going Down {expected(halved):.2f})")


def _landing(state: BuildingsState, unit: Unit, down: bool) -> icepool.Die:
    """The models the HE waiting to land on the unit removes (all of them if its section
    collapses); a shell fired indirect at a building bursts on some floor."""
    waiting = state.waiting
    assert waiting is not None
    if waiting.arrival:
        assert state.arriving is not None
        sizes = [AIR_STRIKE_HE if state.arriving.call.kind is ObserverKind.AIR
                 else BARRAGE_HE]
    else:
        sizes = [int(WEAPONS[w].he or 0) for w in waiting.landing]
    section = None if unit.section is None else state.battlefield.section(unit.section)
    models = len(unit.models)
    total = icepool.Die([0])
    for size in sizes:
        he = he_kills(size, None if section is None else section.construction,
                      unit.quality, down, models_under(unit, float(size)), models)
        die = he.kills
        if section is not None and waiting.indirect:
            there = floor_chances(section.levels).get(unit.floor, Fraction(0))
            die = mix(there, die, either(he.collapse, icepool.Die([models])))
        total = total + die
    return total.map(lambda k: min(k, models))
