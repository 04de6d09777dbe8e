"""Buildings' counters (`RuleSet.counters`), from a side's view alone: the symbol from the
unit's kind, vehicle class and weapons as the weapon table describes them, models left of
models, pins, the order its die was spent on, shaken, immobilised, riding or carrying,
a vehicle's or gun's facing and where each model stands. An enemy shows only what the side
saw: infantry, gun or vehicle, the models it counted, the order it saw, where and when."""

from __future__ import annotations

from collections import Counter as Tally

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
from fibua.rulesets.buildings.state import Seen, Unit, models_seen
from fibua.rulesets.buildings.tables import (
    MOVEMENT,
    WEAPONS,
    OrderKind,
    UnitKind,
    VehicleKind,
    WeaponName,
    is_small_arm,
)
from fibua.rulesets.buildings.views import SideView

#: the symbol of a unit kind the side made out, and no more (an enemy)
SEEN_KIND: dict[UnitKind, Symbol] = {UnitKind.INFANTRY: Symbol.INFANTRY,
                                     UnitKind.GUN: Symbol.GUN,
                                     UnitKind.VEHICLE: Symbol.VEHICLE}
ORDER_SHORT: dict[OrderKind, str] = {OrderKind.FIRE: "FI", OrderKind.ADVANCE: "AD",
                                     OrderKind.RUN: "RN", OrderKind.AMBUSH: "AM",
                                     OrderKind.RALLY: "RL", OrderKind.DOWN: "DN"}
#: orders with a badge of their own colour (else: the die is spent, on what)
ORDER_TAG: dict[OrderKind, Tag] = {OrderKind.DOWN: Tag.DOWN, OrderKind.AMBUSH: Tag.AMBUSH}


def symbol(u: Unit) -> Symbol:
    if u.kind is UnitKind.VEHICLE:
        return _vehicle_symbol(u.vehicle)
    if u.kind is UnitKind.GUN:
        # a gun with a penetration of its own is an anti-tank gun; one firing HE alone a
        # howitzer
        if any(WEAPONS[w].pen is not None for w in u.mounts):
            return Symbol.ANTI_TANK_GUN
        return Symbol.HOWITZER
    if u.observer is not None:
        return Symbol.OBSERVER
    return infantry_symbol({m.weapon for m in u.models if m.weapon is not None})


def _vehicle_symbol(vehicle: VehicleKind | None) -> Symbol:
    if vehicle is VehicleKind.SOFT_SKINNED:
        return Symbol.LORRY
    if vehicle is VehicleKind.ARMOURED_CAR:
        return Symbol.ARMOURED_CAR
    return Symbol.TANK if vehicle is not None else Symbol.VEHICLE


def infantry_symbol(weapons: set[WeaponName]) -> Symbol:
    """Infantry by what it carries: a team of an indirect, flame or anti-tank weapon, or
    of fixed machine guns alone; pistols are carried by headquarters only."""
    table = [WEAPONS[w] for w in weapons]
    if any(w.indirect is not None for w in table):
        return Symbol.MORTAR
    if any(w.flame for w in table):
        return Symbol.FLAME
    small = [w for w in weapons if is_small_arm(w)]
    if table and not small:
        return Symbol.ANTI_TANK
    if small and all(WEAPONS[w].fixed for w in small):
        return Symbol.MACHINE_GUN
    return Symbol.HQ if WeaponName.PISTOL in weapons else Symbol.INFANTRY


def counters(view: SideView) -> list[Counter]:
    return [_own(u, u.id == view.shot_at) for u in view.own] + [
        _enemy(i, s, view.turn) for i, s in view.enemies]


def _own(u: Unit, shot_at: bool) -> Counter:
    facing = u.facing if u.kind is not UnitKind.INFANTRY else None
    # a unit aboard a transport stands in it, off the table: no models to draw
    spots = tuple((m.x, m.y) for m in u.models) if u.aboard is None else ()
    return Counter(
        id=u.id, hostile=False, symbol=symbol(u),
        strength=Strength(len(u.models), u.start, Measure.MODELS),
        marks=_marks(u, shot_at), facing=facing, out_of_action=not u.alive,
        carried_by=u.aboard, spots=spots, on_table=bool(u.models), stats=_stats(u))


def _marks(u: Unit, shot_at: bool) -> tuple[Mark, ...]:
    if not u.alive:
        return ()
    found: list[Mark] = []
    if shot_at:
        found.append(mark(Tag.SHOT_AT, "!", "shot at: may go Down"))
    if u.pins:
        found.append(mark(Tag.PINS, f"P{u.pins}", f"{u.pins} pin{'s' if u.pins > 1 else ''}"))
    if u.order is not None:
        kept = " (die kept from last turn)" if u.kept else ""
        found.append(mark(ORDER_TAG.get(u.order, Tag.ORDER), ORDER_SHORT[u.order],
                          f"order die spent: {u.order}{kept}"))
    if u.shaken:
        found.append(mark(Tag.SHAKEN, "SK", "crew shaken: its next order is Down"))
    if u.immobilised:
        found.append(mark(Tag.IMMOBILISED, "IM", "immobilised"))
    if u.aboard is not None:
        found.append(mark(Tag.ABOARD, "IN", f"aboard {u.aboard}"))
    if u.carrying is not None:
        found.append(mark(Tag.CARRYING, "+1", f"carrying {u.carrying}"))
    return tuple(found)


def _stats(u: Unit) -> tuple[str, ...]:
    what = str(u.vehicle) if u.vehicle is not None else str(u.kind)
    arms = Tally(str(WEAPONS[m.weapon].title) for m in u.models if m.weapon is not None)
    arms.update(WEAPONS[w].title for w in u.mounts)
    rate = MOVEMENT[u.mobility]
    move = f"advance {rate.advance:g} in" + (f", run {rate.run:g} in" if rate.run else "")
    lines = [u.name, f"{u.quality} {what}, morale {u.morale}",
             f"{len(u.models)} of {u.start} models",
             "weapons: " + (", ".join(f"{n} {t}" if n > 1 else t for t, n in arms.items())
                            or "none"),
             f"{u.mobility}: {move}"]
    if u.spent:
        lines.append(f"one-shot weapons fired: {len(u.spent)}")
    if u.section is not None:
        lines.append(f"in {u.section}, floor {u.floor}")
    return tuple(lines)


def _enemy(unit_id: str, s: Seen, turn: int) -> Counter:
    age = s.age(turn)
    models = models_seen(s)
    found: list[Mark] = []
    order = s.doing
    if s.alive and order is not None:
        found.append(mark(ORDER_TAG.get(order, Tag.ORDER), ORDER_SHORT[order],
                          f"seen on a {order} order"))
    return Counter(
        id=unit_id, hostile=True, symbol=SEEN_KIND[s.kind],
        strength=Strength(models, None, Measure.MODELS), marks=tuple(found),
        out_of_action=not s.alive, seen_turn=s.turn, age=age, in_sight=s.visible,
        stats=(s.name, f"{s.kind}, {models} models seen", last_seen(turn, age, s.visible)))
