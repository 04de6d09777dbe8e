"""Street-Fight's counters (`RuleSet.counters`), from a side's view alone: one man each, his
symbol from his weapon's table entry, whether he is still in the fight, and his state
(overwatch, aiming, full cover, sheltering, falling back, moved, fired). An enemy shows
only what the side saw: where, when, and the weapon if it was made out."""

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
from fibua.rulesets.street_fight.state import Figure, Seen
from fibua.rulesets.street_fight.tables import MOVE_NORMAL, WEAPONS, WeaponName
from fibua.rulesets.street_fight.views import SideView


def symbol(weapon: WeaponName | None) -> Symbol:
    """An automatic weapon that cannot aim, or one firing rounds by the d10, is a machine
    gun; the scoped rifle a sniper's; anything else (or a weapon not made out) a rifleman."""
    if weapon is None:
        return Symbol.INFANTRY
    arms = WEAPONS[weapon]
    if arms.rounds == "d10":
        return Symbol.MACHINE_GUN
    if weapon is WeaponName.SCOPED_RIFLE:
        return Symbol.SNIPER
    return Symbol.INFANTRY


def counters(view: SideView) -> list[Counter]:
    return [_own(f) for f in view.own] + [_enemy(i, s, view.turn) for i, s in view.enemies]


def _own(f: Figure) -> Counter:
    arms = f.arms
    return Counter(
        id=f.id, hostile=False, symbol=symbol(f.weapon),
        strength=Strength(1 if f.alive else 0, 1, Measure.FIGURE), marks=_marks(f),
        out_of_action=not f.alive,
        stats=(f.name, f"unit {f.unit}", f"{arms.title}: +{arms.bonus}% to hit, "
               f"{arms.increment} in a range step, kills on {arms.kill}+"
               + (f", {arms.rounds} rounds" if arms.rounds else "")))


def _marks(f: Figure) -> tuple[Mark, ...]:
    if not f.alive:
        return ()
    found: list[Mark] = []
    if f.fleeing_from is not None:
        found.append(mark(Tag.FALLING_BACK, "FB", "falling back"))
    if f.sheltering:
        found.append(mark(Tag.SHELTERING, "SH", f"sheltering ({f.sheltering} turns)"))
    if f.overwatch is not None:
        found.append(mark(Tag.OVERWATCH, "OW"))
    if f.aim:
        found.append(mark(Tag.AIMING, f"A{f.aim}", f"aiming {f.aim}"))
    if f.full_cover:
        found.append(mark(Tag.COVER, "CV", "full cover"))
    if f.moved:
        ran = f.moved > MOVE_NORMAL
        found.append(mark(Tag.MOVED, "RN" if ran else "MV",
                          f"{'ran' if ran else 'moved'} {f.moved:.1f} in"))
    if f.fired:
        found.append(mark(Tag.FIRED, "F", "fired"))
    return tuple(found)


def _enemy(figure_id: str, s: Seen, turn: int) -> Counter:
    age = s.age(turn)
    arms = "weapon not made out" if s.kind is None else WEAPONS[s.kind].title
    return Counter(
        id=figure_id, hostile=True, symbol=symbol(s.kind), strength=None,
        out_of_action=not s.alive, seen_turn=s.turn, age=age, in_sight=s.visible,
        stats=(s.name, arms, last_seen(turn, age, s.visible)))
