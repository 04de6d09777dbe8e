"""Street Fighter's counters (`RuleSet.counters`), from a side's view alone: the symbol from
the unit type's table row (what it is as a target and how it shoots), hit points left,
pinned, what it did with its action, riders and loads, a demoralised formation. An enemy
shows only what the side saw of it: its type, where and when."""

from __future__ import annotations

from fibua.core.counters import (
    Counter,
    Mark,
    Measure,
    Strength,
    Symbol,
    Tag,
    last_seen,
    mark,
)
from fibua.rulesets.street_fighter.state import Activity, Seen, Unit
from fibua.rulesets.street_fighter.tables import CATALOGUE, Body, Kind, Row, UnitType
from fibua.rulesets.street_fighter.views import SideView

#: what a unit did with its action, as its badge reads
ACTIVITY_SHORT: dict[Activity, str] = {
    Activity.IDLE: "", Activity.MOVED: "MV", Activity.MOVED_FIRED: "MF",
    Activity.FIRED: "F", Activity.ASSAULTED: "AS", Activity.MOUNTED: "MT",
    Activity.OBSERVING: "OB", Activity.FLAT_OUT: "FO",
}


def symbol(kind: Kind) -> Symbol:
    """The symbol of a unit type, read from its table row: a tank's body, a gun's row, a
    foot unit's weapon."""
    spec = CATALOGUE[kind]
    if spec.body is Body.TANK:
        # the table's one tank without a turret: its gun in a fixed casemate
        return Symbol.ASSAULT_GUN if kind is Kind.ASSAULT_GUN else Symbol.TANK
    if spec.body is Body.ARMOURED:
        return Symbol.ARMOURED_CAR
    if spec.body is Body.SOFT:
        return Symbol.LORRY
    if spec.body is Body.GUN:
        return Symbol.ANTI_TANK_GUN if spec.kills_tanks else Symbol.HOWITZER
    return _foot_symbol(kind, spec)


def _foot_symbol(kind: Kind, spec: UnitType) -> Symbol:
    if spec.indirect:
        return Symbol.MORTAR
    if spec.row is Row.MMG:
        return Symbol.MACHINE_GUN
    if spec.row is Row.SNIPER:
        return Symbol.SNIPER
    return Symbol.HQ if kind is Kind.HQ else Symbol.INFANTRY


def counters(view: SideView) -> list[Counter]:
    demoralised = {u for f in view.formations if f.demoralised for u in f.units}
    return [_own(u, u.id in demoralised) for u in view.own] + [
        _enemy(i, s, view.turn) for i, s in view.enemies]


def _own(u: Unit, demoralised: bool) -> Counter:
    spec = CATALOGUE[u.kind]
    return Counter(
        id=u.id, hostile=False, symbol=symbol(u.kind),
        strength=Strength(u.hp, u.start_hp, Measure.HIT_POINTS), marks=_marks(u, demoralised),
        out_of_action=not u.alive, carried_by=u.rides,
        stats=(u.name, spec.title, spec.carries, f"hit points {u.hp} of {u.start_hp}",
               f"moves {spec.move:g} cm", f"assault points {spec.assault_points}"))


def _marks(u: Unit, demoralised: bool) -> tuple[Mark, ...]:
    if not u.alive:
        return (mark(Tag.DOWN, "SUR", "surrendered"),) if u.surrendered else ()
    found: list[Mark] = []
    if u.pinned:
        found.append(mark(Tag.PINNED, "PN"))
    if demoralised:
        found.append(mark(Tag.DEMORALISED, "DM", "its formation is demoralised"))
    if u.acted and u.activity is Activity.OBSERVING:
        found.append(mark(Tag.OBSERVING, "OB", "observing"))
    elif u.acted and ACTIVITY_SHORT[u.activity]:
        found.append(mark(Tag.ACTED, ACTIVITY_SHORT[u.activity], f"acted: {u.activity}"))
    if u.rides:
        found.append(mark(Tag.ABOARD, "IN", f"riding in {u.rides}"))
    if u.passengers:
        found.append(mark(Tag.CARRYING, f"+{len(u.passengers)}",
                          "carrying " + ", ".join(u.passengers)))
    return tuple(found)


def _enemy(unit_id: str, s: Seen, turn: int) -> Counter:
    age = s.age(turn)
    spec = CATALOGUE[s.kind]
    return Counter(
        id=unit_id, hostile=True, symbol=symbol(s.kind), strength=None,
        out_of_action=not s.alive, seen_turn=s.turn, age=age, in_sight=s.visible,
        stats=(s.name, spec.title, last_seen(turn, age, s.visible)))
