"""What each side has observed. In Street-Fight a figure sees what it has line of sight to;
a side knows an enemy figure while any of its figures sees it, and remembers where it
was last seen. Everything a side is told about the enemy passes through here, into its
`SideKnowledge` (core/knowledge.py)."""

from __future__ import annotations

from fibua.battlefield.sight import PositionArrays
from fibua.core.knowledge import Briefed, Sure, knowledge_of
from fibua.rulesets.street_fight.forces import Forces
from fibua.rulesets.street_fight.state import Figure, Seen, StreetFightState, inches
from fibua.rulesets.street_fight.tables import WeaponName
from fibua.scenario.schema import Scenario


def briefed(scenario: Scenario, side: str) -> list[Briefed[WeaponName | None]]:
    """The side's figures as the scenario tells the enemy of them: each one's weapon, but
    for one the dice give at set-up."""
    forces: Forces = scenario.forces_of(side)
    return [Briefed(None if fig.weapon == "random" else WeaponName(fig.weapon))
            for spec in forces.units for fig in spec.figures]


def start_knowledge(state: StreetFightState) -> None:
    """Each side knows nothing of the enemy yet but what the scenario tells it."""
    scenario = state.scenario
    state.knowledge = knowledge_of(scenario, state.sides,
                                   {side: briefed(scenario, side) for side in state.sides})


def refresh_sight(state: StreetFightState, changed: list[Figure]) -> None:
    """Recompute sight lines touching the figures that moved, appeared or fell, then tell
    each side what came into or went out of its view."""
    for figure in changed:
        _refresh_lines(state, figure)
    for side in state.sides:
        _update_side(state, side)


def _refresh_lines(state: StreetFightState, figure: Figure) -> None:
    """Sight lines between the figure and every enemy; none to or from a fallen figure."""
    visible: set[str] = set()
    if figure.alive:
        enemy_side = state.enemy_of(figure.side)
        looked_at = [e for e in state.roster(enemy_side) if e.alive]
        if looked_at:
            there = _side_arrays(state, enemy_side, looked_at)
            row = state.sight.visible_row(figure.pos, there).tolist()
            visible = {e.id for e, v in zip(looked_at, row, strict=True) if v}
    lines = state.lines
    fid = figure.id
    # lines are kept both ways, so a side's view of an enemy is found from the enemy
    before = lines.get(fid)
    if before:
        for other in before - visible:
            lines[other].discard(fid)
    for other in visible:
        lines.setdefault(other, set()).add(fid)
    lines[fid] = visible


def _side_arrays(state: StreetFightState, side: str, figures: list[Figure]) -> PositionArrays:
    """The positions of a side's living figures as the sight engine's arrays, made again
    only when one of them has moved or fallen."""
    positions = tuple([f.pos for f in figures])
    kept = state.sight_arrays.get(side)
    if kept is not None and kept[0] == positions:
        return kept[1]
    arrays = state.sight.position_arrays(positions)
    state.sight_arrays[side] = (positions, arrays)
    return arrays


def _update_side(state: StreetFightState, side: str) -> None:
    memory = state.knowledge[side]
    lines = state.lines
    # the enemies with a line to one of the side's living figures
    seen: set[str] = set().union(*[lines.get(f.id, ()) for f in state.roster(side) if f.alive])
    for enemy in state.roster(state.enemy_of(side)):
        if not enemy.alive:
            continue
        eid = enemy.id
        known = memory.get(eid)
        if eid in seen:
            if known is None or not known.visible or _moved_since(known, enemy):
                memory.record(_sighting(state, enemy))
                state.emit("enemy-seen", _seen_data(enemy), (side,))
            elif known.doing != enemy.counts_as_moving:
                # standing where it was seen, it has stopped (or started) counting as
                # moving: the sighting says so, nothing new to tell of it
                memory.record(_sighting(state, enemy))
        elif known is not None and known.visible:
            memory.lose(eid, state.turn)
            state.emit("enemy-lost", {"figure": eid, "name": known.name,
                                      "last_x": inches(known.x), "last_y": inches(known.y)},
                       (side,))


def _moved_since(known: Seen, enemy: Figure) -> bool:
    p = enemy.pos
    return known.x != p.x or known.y != p.y or known.floor != p.floor


def record_casualty(state: StreetFightState, casualty: Figure, witnesses: tuple[str, ...]) -> None:
    """A side that saw a figure fall knows it is gone."""
    for side in witnesses:
        if side == casualty.side:
            continue
        state.knowledge[side].record_casualty(casualty.id, state.turn, _sighting(state, casualty))


def _sighting(state: StreetFightState, enemy: Figure) -> Seen:
    p = enemy.pos
    return Seen(enemy.id, enemy.name, enemy.weapon, p.x, p.y, p.section, p.floor,
                state.turn, Sure.SEEN, enemy.counts_as_moving)


def _seen_data(enemy: Figure) -> dict[str, object]:
    p = enemy.pos
    return {"figure": enemy.id, "name": enemy.name, "weapon": str(enemy.weapon),
            "x": inches(p.x), "y": inches(p.y), "section": p.section, "floor": p.floor}


def observers_of(state: StreetFightState, figure: Figure) -> tuple[str, ...]:
    """The sides that see this figure now: its own, and the enemy if any enemy sees it."""
    enemy = state.enemy_of(figure.side)
    sees = any(state.can_see(w.id, figure.id) for w in state.side_figures(enemy))
    return (figure.side, enemy) if sees else (figure.side,)
