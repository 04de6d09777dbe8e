"""The one place a side learns of the enemy: which of its units see which enemy units (the
rules' sight engine, from the models outside and the openings of a floor inside), and each
side's memory of the enemies it has seen (its `SideKnowledge`, core/knowledge.py).

Many units' sight is asked at once (`sight_table`): one call of the sight engine for every
place of the observers against every place of the targets not yet known, which answers
each pair of places exactly as one question of that pair would. What a unit's places see
of another's is kept in the rules' own memo of the sight engine (`SightEngine.memo`, the
umpire's: no player's fork reaches it), by where each unit stands (`_stance`). That memo
holds only answers for the sections' present states (burning, rubble): the engine starts
another when one changes, so nothing kept outlives a fire or a collapse."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from fibua.battlefield.model import Position
from fibua.core.knowledge import Briefed, Sighting, Sure, knowledge_of
from fibua.rulesets.buildings.forces import Forces
from fibua.rulesets.buildings.geometry import port_places
from fibua.rulesets.buildings.state import BuildingsState, Seen, Unit
from fibua.rulesets.buildings.tables import UnitKind
from fibua.scenario.schema import Scenario

#: the sight engine's memo entries of units' sight: stances by number, and pairs of them
STANCES = "buildings.knowledge.stances"
PAIRS = "buildings.knowledge.pairs"
#: pairs of stances kept at most (the memo starts again when full)
PAIRS_LIMIT = 200_000


def briefed(scenario: Scenario, side: str) -> list[Briefed[UnitKind]]:
    """The side's units as the scenario tells the enemy of them: each one's kind and its
    models at the start."""
    forces: Forces = scenario.forces_of(side)
    return [Briefed(spec.unit_kind, len(spec.models)) for spec in forces.units]


def start_knowledge(state: BuildingsState) -> None:
    """Each side knows nothing of the enemy yet but what the scenario tells it."""
    scenario = state.scenario
    state.knowledge = knowledge_of(scenario, state.sides,
                                   {side: briefed(scenario, side) for side in state.sides})


def places(state: BuildingsState, unit: Unit) -> list[Position]:
    """Where a unit sees from and is seen at: its models outside; inside, the openings of
    its floor (a roof: along its edge)."""
    if unit.aboard is not None:
        return []  # off the table, inside its transport
    if unit.section is None:
        return unit.positions()
    return list(port_places(state.battlefield.section(unit.section), unit.floor))


def _stance(unit: Unit) -> Hashable | None:
    """All that a unit's places depend on (None: it has none); the map is the engine's."""
    if unit.aboard is not None:
        return None
    if unit.section is None:
        return (unit.floor, tuple([(m.x, m.y) for m in unit.models]))
    return (unit.section, unit.floor)


def _memo(state: BuildingsState) -> tuple[dict[Hashable, int], dict[tuple[int, int], bool]]:
    """The stances numbered and the sight between pairs of them, for the sections' present
    states (read each time: the engine swaps its memo when a section's state changes)."""
    memo: dict[Any, Any] = state.sight.memo
    pairs: dict[tuple[int, int], bool] | None = memo.get(PAIRS)
    if pairs is None or len(pairs) >= PAIRS_LIMIT:
        pairs = memo[PAIRS] = {}
        memo[STANCES] = {}
    stances: dict[Hashable, int] = memo[STANCES]
    return stances, pairs


def _number(stances: dict[Hashable, int], unit: Unit) -> int:
    """The unit's stance's number (-1: it has no places)."""
    stance = _stance(unit)
    if stance is None:
        return -1
    found = stances.get(stance)
    if found is None:
        found = stances[stance] = len(stances)
    return found


def sight_table(state: BuildingsState, observers: Sequence[Unit],
                targets: Sequence[Unit]) -> list[list[bool]]:
    """`sees(state, a, b)` for every observer a (rows) and target b (columns)."""
    stances, pairs = _memo(state)
    mine = [_number(stances, a) for a in observers]
    theirs = [_number(stances, b) for b in targets]
    rows: dict[int, Unit] = {}
    cols: dict[int, Unit] = {}
    unknown: list[tuple[int, int]] = []
    table: list[list[bool]] = []
    for i, a in enumerate(observers):
        row: list[bool] = []
        here, section, floor = mine[i], a.section, a.floor
        for j, b in enumerate(targets):
            there = theirs[j]
            if section is not None and section == b.section:
                row.append(floor == b.floor)
            elif here < 0 or there < 0:
                row.append(False)
            else:
                found = pairs.get((here, there))
                if found is None:
                    rows.setdefault(here, a)
                    cols.setdefault(there, b)
                    unknown.append((i, j))
                    found = False
                row.append(found)
        table.append(row)
    if unknown:
        _work_out(state, pairs, rows, cols)
        for i, j in unknown:
            table[i][j] = pairs[mine[i], theirs[j]]
    return table


def _work_out(state: BuildingsState, pairs: dict[tuple[int, int], bool],
              rows: dict[int, Unit], cols: dict[int, Unit]) -> None:
    """Sight from every place of the `rows` units to every place of the `cols` units, in
    one call, kept by their stances (a unit with no places sees and is seen by none)."""
    mine = {k: places(state, a) for k, a in rows.items()}
    theirs = {k: places(state, b) for k, b in cols.items()}
    for a, here in mine.items():
        for b, there in theirs.items():
            if not here or not there:
                pairs[a, b] = False
    mine = {k: ps for k, ps in mine.items() if ps}
    theirs = {k: ps for k, ps in theirs.items() if ps}
    if not mine or not theirs:
        return
    matrix = state.sight.visible_matrix([p for ps in mine.values() for p in ps],
                                        [p for ps in theirs.values() for p in ps])
    found = _blocks_any(matrix, [len(ps) for ps in mine.values()],
                        [len(ps) for ps in theirs.values()])
    for i, a in enumerate(mine):
        for j, b in enumerate(theirs):
            pairs[a, b] = bool(found[i, j])


def _blocks_any(matrix: npt.NDArray[np.bool_], rows: list[int], cols: list[int]
                ) -> npt.NDArray[np.bool_]:
    """Whether any cell of each block is true, the matrix cut into blocks of `rows` by
    `cols` cells (none is empty)."""
    by_row = np.logical_or.reduceat(matrix, _starts(rows), axis=0)
    found: npt.NDArray[np.bool_] = np.logical_or.reduceat(by_row, _starts(cols), axis=1)
    return found


def _starts(sizes: list[int]) -> npt.NDArray[np.intp]:
    starts = np.zeros(len(sizes), dtype=np.intp)
    np.cumsum(sizes[:-1], out=starts[1:])
    return starts


def sees(state: BuildingsState, a: Unit, b: Unit) -> bool:
    """Whether some place of `a` sees some place of `b` (sight is symmetric)."""
    return sight_table(state, [a], [b])[0][0]


def seen_by(state: BuildingsState, observers: Sequence[Unit], targets: Sequence[Unit]
            ) -> list[bool]:
    """For each target, whether any of the observers sees it (`sees`)."""
    stances, pairs = _memo(state)
    return _seen_by(state, pairs, observers, [_number(stances, a) for a in observers],
                    targets, [_number(stances, b) for b in targets])


def _seen_by(state: BuildingsState, pairs: dict[tuple[int, int], bool],
             observers: Sequence[Unit], mine: list[int], targets: Sequence[Unit],
             theirs: list[int]) -> list[bool]:
    """`seen_by`, the units' stances numbered (`_number`): a target is seen as soon as
    one observer is known to see it; one no observer is known to see, some pairs not
    yet known, is looked at again once they are worked out."""
    out: list[bool] = []
    rows: dict[int, Unit] = {}
    cols: dict[int, Unit] = {}
    again: list[int] = []
    for j, b in enumerate(targets):
        seen = _sees_any(pairs, observers, mine, b, theirs[j], rows)
        if seen is None:
            cols[theirs[j]] = b
            again.append(j)
        out.append(bool(seen))
    if again:
        _work_out(state, pairs, rows, cols)
        for j in again:
            out[j] = bool(_sees_any(pairs, observers, mine, targets[j], theirs[j], rows))
    return out


def _sees_any(pairs: dict[tuple[int, int], bool], observers: Sequence[Unit], mine: list[int],
              b: Unit, there: int, unknown: dict[int, Unit]) -> bool | None:
    """Whether one of the observers sees the target of stance `there`: None when none is
    known to and some pair is not known (its observers added to `unknown`)."""
    missing = False
    section, floor = b.section, b.floor
    for i, a in enumerate(observers):
        if a.section is not None and a.section == section:
            if a.floor == floor:
                return True
            continue
        here = mine[i]
        if here < 0 or there < 0:
            continue
        found = pairs.get((here, there))
        if found:
            return True
        if found is None:
            unknown.setdefault(here, a)
            missing = True
    return None if missing else False


def refresh(state: BuildingsState) -> None:
    """Each side's memory: enemies in sight now are seen where they are; others keep where
    they were last seen."""
    stances, pairs = _memo(state)
    units = state.units.values()
    # Unit.alive written out, and asked once an order: each side's units (as
    # `side_units`) and its foes are read off this list, in the units' order
    alive = [u for u in units if not u.destroyed and u.models]
    numbers = {u.id: _number(stances, u) for u in alive}
    turn = state.turn
    for side in state.sides:
        memory = state.knowledge[side]
        mine = [u for u in alive if u.side == side]
        foes = [u for u in alive if u.side != side]
        in_sight = dict(zip((foe.id for foe in foes), _seen_by(
            state, pairs, mine, [numbers[u.id] for u in mine], foes,
            [numbers[u.id] for u in foes]), strict=True))
        for enemy in units:
            if enemy.side == side:
                continue
            known = memory.get(enemy.id)
            if not (not enemy.destroyed and enemy.models):
                # every destruction is told to both sides
                if known is not None and (known.alive or known.visible):
                    memory.record_casualty(enemy.id, state.turn)
                continue
            if in_sight[enemy.id]:
                # most enemies in sight stand as they were seen: the sighting is made
                # only when one of its fields may differ (`_as_seen`)
                if known is None or not _as_seen(known, enemy, turn):
                    now = sighting(state, enemy)
                    if now != known:
                        memory.record(now)
            elif known is not None:
                memory.lose(enemy.id, state.turn)


def _as_seen(known: Seen, enemy: Unit, turn: int) -> bool:
    """Whether every field of `sighting(state, enemy)` (made at `turn`) is or equals the
    known one's: the new sighting would then equal it (tuples compare field by field,
    identity first), and refresh would keep the known one. False says nothing: the
    sighting is made and compared."""
    lead = enemy.models[0]
    return (known.x == lead.x and known.y == lead.y and known.turn == turn
            and known.section == enemy.section and known.floor == enemy.floor
            and known.doing == enemy.order and known.strength == len(enemy.models)
            and known.sure == Sure.SEEN and known.unit == enemy.id
            and known.name == enemy.name and known.kind == enemy.kind
            and known.alive is True and known.step is None)


def sighting(state: BuildingsState, enemy: Unit, sure: Sure = Sure.SEEN) -> Seen:
    # made by the class itself, not the generic alias `Seen`: the same tuple, without
    # typing's slow call through the alias (made for every enemy in sight every order)
    return Sighting(enemy.id, enemy.name, enemy.kind, enemy.lead.x, enemy.lead.y,
                    enemy.section, enemy.floor, state.turn, sure, enemy.order,
                    strength=len(enemy.models))


def sighting_snapshot(s: Seen) -> dict[str, Any]:
    """A sighting as the state's snapshot holds it."""
    return {"name": s.name, "kind": str(s.kind), "x": s.x, "y": s.y,
            "section": s.section, "floor": s.floor, "models": s.strength,
            "turn": s.turn, "visible": s.visible, "alive": s.alive,
            "order": None if s.doing is None else str(s.doing)}


def seen_now(state: BuildingsState, side: str, unit_id: str) -> bool:
    return state.knowledge[side].sees(unit_id)


def watchers(state: BuildingsState, unit: Unit) -> tuple[str, ...]:
    """The sides that see the unit now: its own, and the enemy if any of its units does."""
    enemy = state.enemy_of(unit.side)
    if seen_by(state, state.side_units(enemy), [unit])[0]:
        return (unit.side, enemy)
    return (unit.side,)


def enemy_sees(state: BuildingsState, unit: Unit) -> bool:
    """Whether any unit of the enemy's sees the unit now."""
    return seen_by(state, state.side_units(state.enemy_of(unit.side)), [unit])[0]


def tell(state: BuildingsState, actor: Unit, seen: bool, kind: str, data: dict[str, Any],
         key: str = "unit") -> None:
    """An event that names the acting unit under `key`: both sides are told when the enemy
    sees it (`seen`); otherwise its own side is told all and the enemy the same with the
    actor unnamed (a gun firing through a wall at troops who cannot see it)."""
    if seen:
        state.emit(kind, data, state.sides)
        return
    state.emit(kind, data, (actor.side,))
    state.emit(kind, {**data, key: None}, (state.enemy_of(actor.side),))
