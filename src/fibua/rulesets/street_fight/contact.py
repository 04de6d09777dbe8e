"""Who is in close combat with whom: enemies within 1 inch that can see each other."""

from __future__ import annotations

from fibua.rulesets.street_fight.state import Figure, StreetFightState
from fibua.rulesets.street_fight.tables import CONTACT


def in_contact(state: StreetFightState, a: Figure, b: Figure) -> bool:
    return (
        a.alive and b.alive and a.side != b.side
        and a.pos.distance(b.pos) <= CONTACT and state.can_see(a.id, b.id)
    )


def opponents(state: StreetFightState, figure: Figure) -> list[Figure]:
    enemy = state.enemy_of(figure.side)
    sees = state.lines.get(figure.id, ())
    return [e for e in state.side_figures(enemy) if e.id in sees and in_contact(state, figure, e)]


def engaged(state: StreetFightState, figure: Figure) -> bool:
    # asked for every order checked: an enemy in contact is in sight, so only the few
    # the figure sees are looked at
    sees = state.lines.get(figure.id)
    if not sees:
        return False
    figures = state.figures
    x, y = figure.pos.x, figure.pos.y
    for other_id in sees:
        other = figures[other_id]
        pos = other.pos
        if abs(pos.x - x) <= CONTACT and abs(pos.y - y) <= CONTACT and \
                in_contact(state, figure, other):
            return True
    return False
