"""Close combat: every pair of enemies in contact fights a round; the higher modified d10
wins and wounds (removes) the loser on 8 or more; otherwise they stay locked."""

from __future__ import annotations

from fibua.core.dice import Modifier, roll
from fibua.rulesets.street_fight.contact import in_contact, opponents
from fibua.rulesets.street_fight.cover import position_cover
from fibua.rulesets.street_fight.firing import remove_casualty
from fibua.rulesets.street_fight.state import Figure, StreetFightState
from fibua.rulesets.street_fight.tables import (
    CC_CHARGED,
    CC_DEFENDING_COVER,
    CC_EXTRA_ATTACKER,
    CC_LOST_LAST_ROUND,
    CLOSE_COMBAT_WOUND,
)


def combat_pairs(state: StreetFightState) -> list[tuple[Figure, Figure]]:
    first, second = state.sides
    enemies = state.side_figures(second)
    lines = state.lines
    # figures in contact see each other: most pairs are ruled out by the sight lines
    return [
        (a, b)
        for a in state.side_figures(first) if (sees := lines.get(a.id))
        for b in enemies
        if b.id in sees and in_contact(state, a, b)
    ]


def close_combat_phase(state: StreetFightState) -> None:
    pairs = combat_pairs(state)
    note_defenders(state, pairs)
    counts = {f.id: len(opponents(state, f)) for pair in pairs for f in pair}
    outcome: dict[str, bool] = {}  # figure id -> lost its last fight this turn
    for a, b in pairs:
        if a.alive and b.alive:
            loser = fight(state, a, b, counts)
            for f in (a, b):
                outcome[f.id] = f is loser
    for figure in state.figures.values():
        # "lost the previous round" speaks of the round just fought, if any
        figure.lost_last_combat = outcome.get(figure.id, False)


def note_defenders(state: StreetFightState, pairs: list[tuple[Figure, Figure]]) -> None:
    """A figure that an enemy charged into defends against that enemy for as long as their
    fight lasts: the rules limit the charge bonus to the turn of the charge, not this one."""
    fights: dict[str, set[str]] = {}
    for a, b in pairs:
        fights.setdefault(a.id, set()).add(b.id)
        fights.setdefault(b.id, set()).add(a.id)
    figures = state.figures
    for figure in figures.values():
        enemies = fights.get(figure.id)
        if not enemies:
            figure.defending = ()
            continue
        kept = {e for e in figure.defending if e in enemies}
        if not figure.charged:
            kept |= {e for e in enemies if figures[e].charged}
        figure.defending = tuple(sorted(kept))


def combat_modifiers(
    state: StreetFightState, figure: Figure, enemy: Figure, in_contact_with: int
) -> tuple[Modifier, ...]:
    if state.options.defence_first_round_only:
        defending = not figure.charged and enemy.charged
    else:
        defending = enemy.id in figure.defending
    covered = defending and position_cover(state.sight, enemy.pos, figure.pos) > 0
    return (
        Modifier(f"armed with {figure.arms.title}", figure.arms.close_combat),
        Modifier("lost previous round", CC_LOST_LAST_ROUND if figure.lost_last_combat else 0),
        Modifier("more than one attacker", CC_EXTRA_ATTACKER * max(0, in_contact_with - 1)),
        Modifier("charged this turn", CC_CHARGED if figure.charged else 0),
        Modifier("defending from cover", CC_DEFENDING_COVER if covered else 0),
    )


def fight(
    state: StreetFightState, a: Figure, b: Figure, counts: dict[str, int]
) -> Figure | None:
    """One round between a and b; returns the loser (None on a draw)."""
    ra = roll(state.rng, "d10", f"close combat: {a.name}",
              combat_modifiers(state, a, b, counts[a.id]))
    rb = roll(state.rng, "d10", f"close combat: {b.name}",
              combat_modifiers(state, b, a, counts[b.id]))
    winner, loser = (a, b) if ra.total > rb.total else (b, a)
    best = max(ra.total, rb.total)
    draw = ra.total == rb.total
    wounds = not draw and best >= CLOSE_COMBAT_WOUND
    state.emit("close-combat", {
        "figures": [a.id, b.id], "rolls": [ra.to_dict(), rb.to_dict()],
        "winner": None if draw else winner.id, "wounded": loser.id if wounds else None,
    }, state.sides)
    if wounds:
        remove_casualty(state, loser, winner.pos.point)
    return None if draw else loser
