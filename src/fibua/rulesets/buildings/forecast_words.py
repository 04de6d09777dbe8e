"""What the Buildings forecasts share: a forecast's part (`Said`), the side's knowledge of
an enemy unit, and the words for chances, modifiers and places.

A forecast is worked out for the side giving the order from what that side knows: its own
units, and an enemy unit as its memory holds it (`known`); an enemy's present place is read
only while the side sees it now (`in_sight`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import icepool

from fibua.core.dice import Modifier
from fibua.core.ruleset import Risk
from fibua.rulesets.buildings.state import BuildingsState, Seen, Unit
from fibua.rulesets.buildings.tables import OrderKind


@dataclass(frozen=True)
class Said:
    """Part of a forecast: its words, the chance of its main roll (None: it has none), what
    may go wrong, and what the order becomes instead (None: itself)."""

    text: str
    chance: float | None = None
    risks: tuple[Risk, ...] = ()
    becomes: str | None = None


def pct(p: float | Fraction) -> str:
    """A chance in words: a whole percent, never 0% or 100% for what may or may not be."""
    p = float(p)
    if 0 < p < 0.005:
        return "under 1%"
    if 0.995 < p < 1:
        return "over 99%"
    return f"{p:.0%}"


def inches(x: float) -> str:
    return f"{x:.1f}in"


def place(p: tuple[float, float]) -> str:
    return f"({p[0]:.1f}, {p[1]:.1f})"


def terms(mods: Iterable[Modifier]) -> str:
    """Modifiers by name with their signs, those of no value left out."""
    return ", ".join(f"{m.name} {m.value:+d}" for m in mods if m.value)


def need_words(basis: tuple[Modifier, ...]) -> str:
    """The terms of a number to reach: the first as it is (a damage value), then the rest
    with their signs."""
    if not basis:
        return ""
    first, rest = basis[0], terms(basis[1:])
    return f"{first.name} {first.value}" + (f", {rest}" if rest else "")


def expected(die: icepool.Die) -> float:
    return float(die.mean())


def some(die: icepool.Die) -> float:
    """The chance a count comes to one or more."""
    return 1.0 - float(die.probability(0)) if 0 in die.outcomes() else 1.0


def mix(p: Fraction, a: icepool.Die, b: icepool.Die) -> icepool.Die:
    """`a` with chance p, else `b`."""
    if p <= 0:
        return b
    if p >= 1:
        return a
    return icepool.Die([a, b], times=[p.numerator * (1 - p).denominator,
                                      (1 - p).numerator * p.denominator])


def known(state: BuildingsState, side: str, unit_id: str) -> Seen | None:
    """What the side remembers of an enemy unit (None: it has never seen it)."""
    return state.knowledge[side].get(unit_id)


def in_sight(state: BuildingsState, side: str, unit_id: str) -> bool:
    """Whether the side sees the enemy unit now (its present place is then known)."""
    found = known(state, side, unit_id)
    return found is not None and found.visible and found.alive


def visible_enemies(state: BuildingsState, side: str) -> list[Unit]:
    """The enemy units the side sees now, by id."""
    return [state.units[uid] for uid, s in state.knowledge[side].listed()
            if s.visible and s.alive and state.units[uid].alive]


def may_go_down(state: BuildingsState, side: str, target: Unit) -> bool:
    """Whether the side knows the enemy unit may still answer a shot by going Down: seen now
    with no order yet, or on Ambush."""
    found = known(state, side, target.id)
    return found is not None and found.visible and target.aboard is None \
        and found.doing in (None, OrderKind.AMBUSH)


def names(units: Iterable[Unit]) -> str:
    return ", ".join(u.name for u in units)


def faces(lo: int, hi: int) -> str:
    """The D6 faces from lo to hi in words ("1", "2-3")."""
    return str(lo) if lo == hi else f"{lo}-{hi}"
