"""The one place a side learns of the enemy: which of its units see which enemy units (the
rules' sight engine, from the models outside and the openings of a floor inside), and each
side's memory of the enemies it has seen."""

from __future__ import annotations

from fibua.battlefield.model import Position
from fibua.rulesets.buildings.geometry import ports
from fibua.rulesets.buildings.state import BuildingsState, Sighting, Unit


def places(state: BuildingsState, unit: Unit) -> list[Position]:
    """Where a unit sees from and is seen at: its models outside; inside, the openings of
    its floor (a roof: along its edge)."""
    if unit.aboard is not None:
        return []  # off the table, inside its transport
    if unit.section is None:
        return unit.positions()
    return [p.pos for p in ports(state.battlefield.section(unit.section), unit.floor)]


def sees(state: BuildingsState, a: Unit, b: Unit) -> bool:
    """Whether some place of `a` sees some place of `b` (sight is symmetric)."""
    if a.section is not None and a.section == b.section:
        return a.floor == b.floor
    mine, theirs = places(state, a), places(state, b)
    if not mine or not theirs:
        return False
    return bool(state.sight.visible_matrix(mine, theirs).any())


def refresh(state: BuildingsState) -> None:
    """Each side's memory: enemies in sight now are seen where they are; others keep where
    they were last seen."""
    for side in state.sides:
        memory = state.seen.setdefault(side, {})
        mine = state.side_units(side)
        for enemy in state.units.values():
            if enemy.side == side:
                continue
            known = memory.get(enemy.id)
            if not enemy.alive:
                if known is not None:
                    known.alive, known.visible = False, False
                continue
            if any(sees(state, u, enemy) for u in mine):
                memory[enemy.id] = sighting(state, enemy)
            elif known is not None:
                known.visible = False


def sighting(state: BuildingsState, enemy: Unit) -> Sighting:
    return Sighting(enemy.name, enemy.kind, enemy.lead.x, enemy.lead.y, enemy.section,
                    enemy.floor, len(enemy.models), state.turn, True, True,
                    None if enemy.order is None else str(enemy.order))


def seen_now(state: BuildingsState, side: str, unit_id: str) -> bool:
    known = state.seen.get(side, {}).get(unit_id)
    return known is not None and known.visible


def watchers(state: BuildingsState, unit: Unit) -> tuple[str, ...]:
    """The sides that see the unit now: its own, and the enemy if any of its units does."""
    enemy = state.enemy_of(unit.side)
    if any(sees(state, u, unit) for u in state.side_units(enemy)):
        return (unit.side, enemy)
    return (unit.side,)
