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
    return [e for e in state.side_figures(enemy) if in_contact(state, figure, e)]


def engaged(state: StreetFightState, figure: Figure) -> bool:
    # asked for every order checked: look only at enemies close enough to matter
    x, y = figure.pos.x, figure.pos.y
    for other in state.roster(state.enemy_of(figure.side)):
        pos = other.pos
        if abs(pos.x - x) <= CONTACT and abs(pos.y - y) <= CONTACT and \
                in_contact(state, figure, other):
            return True
    return False
