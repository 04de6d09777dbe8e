"""House-Clearing's counters (`RuleSet.counters`), from a side's view alone: one man each,
his symbol from his weapon's row of the range table (an officer leads), his initiative
(wounds take it away; below 0 he is out of action), his stance and what he did this
turn. An enemy shows only what the side saw: weapon, stance, where, when, and the
initiative step it was seen acting in."""

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
from fibua.rulesets.house_clearing.state import Figure, Seen
from fibua.rulesets.house_clearing.tables import WEAPONS, Rank, Row, Stance, WeaponName
from fibua.rulesets.house_clearing.views import SideView

#: the stances a badge shows (standing is the figure's plain state)
STANCE_SHORT: dict[Stance, str] = {Stance.CROUCHING: "CR", Stance.PRONE: "PR",
                                   Stance.LEANING: "LN"}
MACHINE_GUN_ROWS = frozenset({Row.BOX_LMG, Row.BELT_LMG})


def symbol(weapon: WeaponName, rank: Rank | None = None) -> Symbol:
    """A machine gun by its row of the range table; an officer's otherwise a headquarters
    (the side does not see an enemy's rank)."""
    if WEAPONS[weapon].single in MACHINE_GUN_ROWS:
        return Symbol.MACHINE_GUN
    return Symbol.HQ if rank is Rank.OFFICER else Symbol.INFANTRY


def counters(view: SideView) -> list[Counter]:
    reacting = frozenset(view.reaction.firers) if view.reaction is not None else frozenset()
    return [_own(f, f.id in reacting) for f in view.own] + [
        _enemy(i, s, view.turn) for i, s in view.enemies]


def _own(f: Figure, reacting: bool) -> Counter:
    return Counter(
        id=f.id, hostile=False, symbol=symbol(f.weapon, f.rank),
        strength=Strength(max(f.initiative, 0), None, Measure.INITIATIVE),
        marks=_marks(f, reacting), out_of_action=not f.in_action,
        stats=(f.name, f"{f.rank}, {WEAPONS[f.weapon].title}", f"skill {f.skill}",
               f"initiative {f.initiative}" + (" (out of action)" if not f.in_action else ""),
               str(f.stance)))


def _marks(f: Figure, reacting: bool) -> tuple[Mark, ...]:
    if not f.in_action:
        return ()
    found: list[Mark] = []
    if f.stance in STANCE_SHORT:
        found.append(mark(Tag.STANCE, STANCE_SHORT[f.stance], str(f.stance)))
    if f.ducked:
        found.append(mark(Tag.DUCKED, "DK", "ducked back (initiative 0 this turn)"))
    if f.loading:
        found.append(mark(Tag.LOADING, "LD", "feeding the belt"))
    if f.moved:
        found.append(mark(Tag.MOVED, "MV", "has had its move step"))
    if f.fired:
        found.append(mark(Tag.FIRED, "F", "has fired"))
    if reacting:
        found.append(mark(Tag.REACT, "R", "may fire at the mover"))
    return tuple(found)


def _enemy(figure_id: str, s: Seen, turn: int) -> Counter:
    age = s.age(turn)
    found: list[Mark] = []
    if s.alive and s.doing in STANCE_SHORT:
        found.append(mark(Tag.STANCE, STANCE_SHORT[s.doing], f"seen {s.doing}"))
    if s.alive and s.step is not None:
        found.append(mark(Tag.SEEN_STEP, f"S{s.step}",
                          f"seen acting in initiative step {s.step}"))
    return Counter(
        id=figure_id, hostile=True, symbol=symbol(s.kind), strength=None,
        marks=tuple(found), out_of_action=not s.alive, seen_turn=s.turn, age=age,
        in_sight=s.visible,
        stats=(s.name, WEAPONS[s.kind].title, str(s.doing),
               last_seen(turn, age, s.visible)))
