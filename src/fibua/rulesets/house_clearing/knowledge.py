"""What each side has observed. Two enemy figures see each other when there is a line of
sight and each shows at least a fifth of its body to the other; a side knows an enemy
while any of its figures sees it, remembers where it was last seen, and glimpses movers
along their paths. Everything a side is told about the enemy passes through here, into its
`SideKnowledge` (core/knowledge.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fibua.battlefield.model import Position
from fibua.battlefield.sight import PositionArrays
from fibua.core.knowledge import Briefed, Sure, knowledge_of
from fibua.core.views import same_objects
from fibua.rulesets.house_clearing.estimates import (
    IntArray,
    mutual_sight_arrays,
    stance_indexes,
)
from fibua.rulesets.house_clearing.forces import Forces
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState, Seen
from fibua.rulesets.house_clearing.tables import Stance, WeaponName
from fibua.scenario.schema import Scenario

EVENT_DIGITS = 2  # decimals of the inches events report


def inches(*values: float) -> list[float]:
    """Positions and distances as events report them: to a hundredth of an inch."""
    return [round(v, EVENT_DIGITS) for v in values]


def briefed(scenario: Scenario, side: str) -> list[Briefed[WeaponName]]:
    """The side's figures as the scenario tells the enemy of them: each one's weapon."""
    forces: Forces = scenario.forces_of(side)
    return [Briefed(spec.weapon) for player in forces.players for spec in player.figures]


def start_knowledge(state: HouseClearingState) -> None:
    """Each side knows nothing of the enemy yet but what the scenario tells it."""
    scenario = state.scenario
    state.knowledge = knowledge_of(scenario, state.sides,
                                   {side: briefed(scenario, side) for side in state.sides})


#: for a figure and each enemy in action, in the state's order: the fifths of the enemy
#: the figure sees and the fifths of the figure the enemy sees (both 0 unless each sees
#: the other)
Pairs = tuple[list[int], list[int]]


def refresh_sight(state: HouseClearingState, changed: list[Figure],
                  known: Pairs | None = None) -> None:
    """Recompute who sees whom for the figures that moved, changed stance or fell, then
    tell each side what came into or went out of its view. `known` may give the pairs of
    a single figure changed, worked out already where it stands (`glimpses`)."""
    if known is not None and len(changed) != 1:
        raise ValueError("pairs worked out already are those of one figure")
    for figure in changed:
        _refresh_pairs(state, figure, known)
    for side in state.sides:
        # the enemy's figures see what they saw but a figure of this side that changed:
        # only that one can come into or go out of their view
        alone = len(changed) == 1 and changed[0].side != side
        _update_side(state, side, changed if alone else state.teams[state.enemy_of(side)])


def _refresh_pairs(state: HouseClearingState, figure: Figure, known: Pairs | None) -> None:
    team = state.teams[state.enemy_of(figure.side)]
    for enemy in team:
        state.exposure.pop((figure.id, enemy.id), None)
        state.exposure.pop((enemy.id, figure.id), None)
    enemies = [e for e in team if e.in_action]
    if not figure.in_action or not enemies:
        return
    if known is None:
        # `MapGeometry.mutual` of every enemy, in one compiled call
        them = team_arrays(state, state.enemy_of(figure.side), enemies)
        of_enemies, of_figures = mutual_sight_arrays(
            state.geometry, state.sight, state.sight.position_arrays([figure.pos]),
            stance_indexes([figure.stance]), them.places, them.stances)
        if not of_enemies.any():
            return
        known = of_enemies[0].tolist(), of_figures[0].tolist()
    for enemy, of_enemy, of_figure in zip(enemies, *known, strict=True):
        if of_enemy:
            state.exposure[(figure.id, enemy.id)] = of_enemy
            state.exposure[(enemy.id, figure.id)] = of_figure


@dataclass(frozen=True, slots=True)
class TeamArrays:
    """A side's figures in action as the sight kernels read them (`places`, `stances`),
    and the very positions and stances they were made of: a figure that moves or changes
    stance is given new ones (both immutable), one that falls leaves the list."""

    positions: list[Position]
    stance_list: list[Stance]
    places: PositionArrays
    stances: IntArray


def team_arrays(state: HouseClearingState, side: str, figures: list[Figure]) -> TeamArrays:
    """`figures`, the side's in action (`side_figures`), as arrays, made again only when
    one of them has moved, changed stance or fallen: most orders leave the enemy of the
    figure that acted as it was, and the arrays cost about as much as the kernel they feed.
    Kept in the state's `view_copies`, which are no part of the game (a clone starts
    without them)."""
    positions = [f.pos for f in figures]
    stances = [f.stance for f in figures]
    key = (side, "team-arrays")
    kept: TeamArrays | None = state.view_copies.get(key)
    if kept is None or not (same_objects(kept.positions, positions)
                            and same_objects(kept.stance_list, stances)):
        kept = state.view_copies[key] = TeamArrays(
            positions, stances, state.sight.position_arrays(positions),
            stance_indexes(stances))
    return kept


def refresh_all(state: HouseClearingState) -> None:
    state.exposure.clear()
    for side in state.sides[:1]:
        for figure in state.teams[side]:
            _refresh_pairs(state, figure, None)
    for side in state.sides:
        _update_side(state, side, state.teams[state.enemy_of(side)])


def _update_side(state: HouseClearingState, side: str, figures: Iterable[Figure]) -> None:
    """Tell the side which of `figures` (enemies, in the state's order) came into or went
    out of its view, or were seen to move."""
    watchers = {w.id for w in state.side_figures(side)}
    # what some watcher sees (state.sees), read off the pairs that see each other
    in_sight = {b for a, b in state.exposure if a in watchers}
    memory = state.knowledge[side]
    for enemy in figures:
        if not enemy.in_action:
            continue
        now = enemy.id in in_sight
        known = memory.get(enemy.id)
        if now:
            if known is None or not known.visible or _changed(known, enemy):
                memory.record(sighting(state, enemy, known))
                state.emit("enemy-seen", seen_data(enemy), (side,))
        elif known is not None and known.visible:
            memory.lose(enemy.id, state.turn)
            x, y = inches(known.x, known.y)
            state.emit("enemy-lost", {"figure": enemy.id, "name": known.name,
                                      "last_x": x, "last_y": y}, (side,))


def _changed(known: Seen, enemy: Figure) -> bool:
    p = enemy.pos
    return (known.x, known.y, known.floor, known.doing) != (p.x, p.y, p.floor, enemy.stance)


def sighting(state: HouseClearingState, enemy: Figure, known: Seen | None = None,
             at: Position | None = None, stance: Stance | None = None,
             sure: Sure = Sure.SEEN, step: int | None = None) -> Seen:
    """The side's sighting of `enemy` (at `at`, in `stance`, where it was seen other than
    where it stands): the step it was seen acting in is `step`, else the one it knew."""
    p = at or enemy.pos
    if step is None and known is not None:
        step = known.step
    return Seen(enemy.id, enemy.name, enemy.weapon, p.x, p.y, p.section, p.floor, state.turn,
                sure, stance or enemy.stance, step=step)


def seen_data(enemy: Figure) -> dict[str, object]:
    p = enemy.pos
    x, y = inches(p.x, p.y)
    return {"figure": enemy.id, "name": enemy.name, "weapon": str(enemy.weapon),
            "x": x, "y": y, "section": p.section, "floor": p.floor,
            "stance": str(enemy.stance)}


def glimpses(state: HouseClearingState, mover: Figure, spots: list[Position],
             stances: list[Stance]) -> tuple[dict[str, list[int]], Pairs | None]:
    """For each enemy figure, the spots of the mover's path at which they see each other;
    and the mover's `Pairs` at the last spot, where it stops, or None with no enemy in
    action. Sight is mutual: those pairs are the last column of the same matrices."""
    enemies = state.side_figures(state.enemy_of(mover.side))
    if not enemies or not spots:
        return {}, None
    # `MapGeometry.mutual` of every pair, in one compiled call
    them = team_arrays(state, state.enemy_of(mover.side), enemies)
    of_spots, of_enemies = mutual_sight_arrays(
        state.geometry, state.sight, them.places, them.stances,
        state.sight.position_arrays(spots), stance_indexes(stances))
    found: dict[str, list[int]] = {}
    rows = of_spots.tolist()
    last = of_enemies[:, -1].tolist(), [row[-1] for row in rows]
    if not any(map(any, rows)):
        return found, last
    for enemy, row in zip(enemies, rows, strict=True):
        for k, seen in enumerate(row):
            if seen:
                found.setdefault(enemy.id, []).append(k)
    return found, last


def record_glimpse(state: HouseClearingState, mover: Figure, spot: Position,
                   stance: Stance) -> None:
    """The enemy saw the mover pass but not where it stopped: it remembers the last place
    it saw it."""
    side = state.enemy_of(mover.side)
    memory = state.knowledge[side]
    known = memory.get(mover.id)
    if known is not None and known.visible:
        return
    memory.record(sighting(state, mover, known, spot, stance, Sure.GLIMPSED, mover.step))
    x, y = inches(spot.x, spot.y)
    state.emit("enemy-glimpsed", {"figure": mover.id, "name": mover.name,
                                  "weapon": str(mover.weapon), "x": x, "y": y,
                                  "section": spot.section, "floor": spot.floor}, (side,))


def reveal_firer(state: HouseClearingState, firer: Figure, target: Figure) -> None:
    """A figure fired at sees where the fire came from, even if it does not see the firer
    from where it ends up (a mover fired at along its path)."""
    side = target.side
    if side == firer.side:
        return
    memory = state.knowledge[side]
    known = memory.get(firer.id)
    if known is not None and known.visible:
        return
    memory.record(sighting(state, firer, known, sure=Sure.BY_FIRE))
    x, y = inches(firer.pos.x, firer.pos.y)
    state.emit("enemy-glimpsed", {"figure": firer.id, "name": firer.name,
                                  "weapon": str(firer.weapon), "x": x, "y": y,
                                  "section": firer.pos.section,
                                  "floor": firer.pos.floor}, (side,))


def note_step(state: HouseClearingState, figure: Figure) -> None:
    """An enemy that sees a figure act learns the initiative step it acted in."""
    memory = state.knowledge[state.enemy_of(figure.side)]
    known = memory.get(figure.id)
    if known is not None and known.visible and known.step != figure.step:
        memory.record(known._replace(step=figure.step))


def record_casualty(state: HouseClearingState, casualty: Figure) -> None:
    """A side that saw a figure fall knows it is out of action."""
    memory = state.knowledge[state.enemy_of(casualty.side)]
    if memory.sees(casualty.id):
        memory.record_casualty(casualty.id, state.turn)


def watchers_of(state: HouseClearingState, figure: Figure) -> tuple[str, ...]:
    """The sides that see this figure now: its own, and the enemy if any enemy sees it."""
    enemy = state.enemy_of(figure.side)
    if any(state.sees(w.id, figure.id) for w in state.side_figures(enemy)):
        return (figure.side, enemy)
    return (figure.side,)
