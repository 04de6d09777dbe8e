"""What each side has observed. Everything a side is told about the enemy passes through
here: spotting by the observation tables, the memory of last-seen places, the report of
being fired on, and the enemy units a side saw knocked out, each kept in the side's
`SideKnowledge` (core/knowledge.py).

Spotting is worked out again after every order: a target is seen while some unit of the
side (not moving flat out, not riding inside a vehicle) has line of sight to it and the
observation table, read with the unit's formation's d10 for the turn, says so.
"""

from __future__ import annotations

from operator import is_

from fibua.battlefield.model import Position
from fibua.core.knowledge import Briefed, FireReport, Sure, knowledge_of
from fibua.rulesets.street_fighter.forces import Forces, all_formations, placements
from fibua.rulesets.street_fighter.ground import compass, in_cover, memo, range_between
from fibua.rulesets.street_fighter.spotting import sign_of, spot_need
from fibua.rulesets.street_fighter.state import (
    FIRING,
    MOVING,
    Activity,
    Seen,
    StreetFighterState,
    Unit,
)
from fibua.rulesets.street_fighter.tables import Kind, Sign
from fibua.scenario.schema import Scenario

REPORT_TURNS = 2  # fired-on reports kept in a side's view: this turn and the last


def briefed(scenario: Scenario, side: str) -> list[Briefed[Kind]]:
    """The side's units as the scenario's order of battle tells the enemy of them: each
    one's kind (where Control sets it up is no part of it)."""
    forces: Forces = scenario.forces_of(side)
    return [Briefed(p.kind) for spec in all_formations(forces) for p in placements(spec)]


def start_knowledge(state: StreetFighterState) -> None:
    """Each side knows nothing of the enemy yet but what the scenario tells it."""
    scenario = state.scenario
    state.knowledge = knowledge_of(scenario, state.sides,
                                   {side: briefed(scenario, side) for side in state.sides})


def observers(state: StreetFighterState, side: str) -> list[Unit]:
    return [u for u in state.side_units(side)
            if u.rides is None and u.activity is not Activity.FLAT_OUT]


def targets(state: StreetFighterState, side: str) -> list[Unit]:
    """Enemy units that can be seen: passengers are hidden inside their vehicle."""
    return [u for u in state.side_units(state.enemy_of(side)) if u.rides is None]


def spotted(state: StreetFighterState, observer: Unit, target: Unit) -> bool:
    """Whether the observer picks out the target, line of sight being given."""
    return _picks_out(state, observer, target, target_sign(state, target))


def target_sign(state: StreetFighterState, target: Unit) -> Sign:
    """The row of the observation tables the target falls in, whoever looks: kept until
    the target moves (a new place) or does something else."""
    kept = memo(state.sight, "signs")
    last = kept.get(target.id)
    if last is not None and last[0] is target.pos and last[1] is target.activity \
            and last[2] is target.kind:
        found: Sign = last[3]
        return found
    sign = sign_of(
        vehicle=target.spec.vehicle,
        sniper=target.kind is Kind.SNIPER,
        firing=target.activity in FIRING,
        moving=target.activity in MOVING,
        in_cover=in_cover(state.sight, target.pos),
    )
    kept[target.id] = (target.pos, target.activity, target.kind, sign)
    return sign


def _picks_out(state: StreetFighterState, observer: Unit, target: Unit, sign: Sign) -> bool:
    die = state.formations[observer.formation].die
    observing = observer.activity is Activity.OBSERVING
    if _seen_at_any_range(sign, observing):
        return True  # no need to measure it
    need = spot_need(sign, observing, range_between(state.sight, observer.pos, target.pos))
    return need is not None and die is not None and die >= need


#: `_seen_at_any_range`'s answers: a reading of the observation tables
_ANY_RANGE: dict[tuple[Sign, bool], bool] = {}


def _seen_at_any_range(sign: Sign, observing: bool) -> bool:
    """Whether the tables' row needs nothing of the die at every range (read once)."""
    found = _ANY_RANGE.get((sign, observing))
    if found is None:
        need = spot_need(sign, observing, 0.0)
        found = _ANY_RANGE[(sign, observing)] = need is not None and need <= 0 and \
            spot_need(sign, observing, 1e9) == need
    return found


def visible_to(state: StreetFighterState, side: str) -> set[str]:
    """Ids of the enemy units the side sees now."""
    eyes = observers(state, side)
    marks = targets(state, side)
    if not eyes or not marks:
        return set()
    lines = sight_lines(state, side, [u.pos for u in eyes], [t.pos for t in marks])
    seen: set[str] = set()
    # a target's sign is the same to every observer: worked out once, and only for a
    # target some observer has a line of sight to
    for target, in_sight in zip(marks, lines, strict=True):
        if not any(in_sight):
            continue
        sign = target_sign(state, target)
        for eye, sees in zip(eyes, in_sight, strict=True):
            if sees and _picks_out(state, eye, target, sign):
                seen.add(target.id)
                break
    return seen


def sight_lines(state: StreetFighterState, side: str, eyes: list[Position],
                marks: list[Position]) -> list[list[bool]]:
    """For each of `marks`, whether each of `eyes` has a line of sight to it. The map never
    changes, so only the lines of places new since the side's last look are worked out
    again: after an order, those of the unit that moved (the last look is kept in the
    rules' engine's memo, and a place that changed is a new object); a unit that came
    into the lists or left them (going flat out, getting in or out of a vehicle, falling)
    costs only its own lines."""
    kept = memo(state.sight, "sight-lines")
    last = kept.get(side)
    if last is None:
        fresh: list[list[bool]] = state.sight.visible_matrix(eyes, marks).T.tolist()
        kept[side] = (eyes, marks, fresh)
        return fresh
    old_eyes, old_marks, old = last
    if len(eyes) == len(old_eyes) and len(marks) == len(old_marks) and \
            all(map(is_, eyes, old_eyes)) and all(map(is_, marks, old_marks)):
        same: list[list[bool]] = old
        return same  # read only: a change below is made to a copy
    # the kept lines by place (the places are held by the memo, so their ids stay theirs)
    row_of = {id(p): i for i, p in enumerate(old_eyes)}
    column_of = {id(p): j for j, p in enumerate(old_marks)}
    rows = [row_of.get(id(p)) for p in eyes]
    columns = [column_of.get(id(p)) for p in marks]
    new_eyes = [i for i, r in enumerate(rows) if r is None]
    new_marks = [j for j, c in enumerate(columns) if c is None]
    lines = [[False] * len(eyes) if c is None else
             [False if r is None else old[c][r] for r in rows] for c in columns]
    if new_eyes:  # rows of the observers that moved or came
        found = state.sight.visible_matrix([eyes[i] for i in new_eyes], marks)
        for i, row in zip(new_eyes, found.tolist(), strict=True):
            for column, value in zip(lines, row, strict=True):
                column[i] = value
    if new_marks:  # columns of the targets that moved or came
        found = state.sight.visible_matrix(eyes, [marks[j] for j in new_marks])
        for j, column in zip(new_marks, found.T.tolist(), strict=True):
            lines[j] = column
    kept[side] = (eyes, marks, lines)
    return lines


def refresh(state: StreetFighterState) -> None:
    """Work out again what each side sees, and tell it what came into or left its view."""
    for side in state.sides:
        _update(state, side, visible_to(state, side))
    state.spotted = state.version


def refresh_after_observing(state: StreetFighterState, side: str) -> None:
    """`refresh` after an order to observe given by `side` right after the last refresh
    (`state.spotted` is the version before it): only that side looks again. The order
    changed nothing but its unit's activity, from idle (an order goes to a unit that has
    not acted this turn, and only a unit that acted has another activity) to observing,
    and a target shows the enemy only whether it fires or moves (`target_sign`): the
    enemy sees what it saw at the last refresh, which told it all of it, so its look
    again would find the same and tell it nothing."""
    assert state.spotted == state.version - 1
    _update(state, side, visible_to(state, side))
    state.spotted = state.version


def _update(state: StreetFighterState, side: str, now: set[str]) -> None:
    memory = state.knowledge[side]
    known_of = memory.sightings.get
    enemy = state.enemy_of(side)
    # `side_units(enemy)` and `Sighting.visible` written out: asked twice an order
    for target in state.units.values():
        if target.side != enemy or target.hp <= 0 or target.surrendered:
            continue
        known = known_of(target.id)
        if target.id in now:
            if known is None or known.sure is not Sure.SEEN or \
                    (known.x, known.y) != target.pos.point:
                memory.record(sighting(state, target))
                state.emit("enemy-seen", seen_data(target), (side,))
            elif known.doing != (target.activity is Activity.FLAT_OUT):
                # in sight where it was, it has stopped (or started) moving flat out: the
                # sighting says so, nothing new to tell of it
                memory.record(sighting(state, target))
        elif known is not None and known.sure is Sure.SEEN:
            memory.lose(target.id, state.turn)
            state.emit("enemy-lost", {"unit": target.id, "name": known.name,
                                      "last_x": known.x, "last_y": known.y}, (side,))


def reveal(state: StreetFighterState, side: str, unit: Unit) -> None:
    """The side meets the unit face to face (a close assault): it is seen."""
    memory = state.knowledge[side]
    if not memory.sees(unit.id):
        memory.record(sighting(state, unit))
        state.emit("enemy-seen", seen_data(unit), (side,))


def sighting(state: StreetFighterState, unit: Unit) -> Seen:
    p = unit.pos
    return Seen(unit.id, unit.name, unit.kind, p.x, p.y, p.section, 0, state.turn, Sure.SEEN,
                unit.activity is Activity.FLAT_OUT)


def seen_data(unit: Unit) -> dict[str, object]:
    p = unit.pos
    return {"unit": unit.id, "name": unit.name, "kind": str(unit.kind), "x": p.x, "y": p.y,
            "section": p.section, "activity": str(unit.activity)}


def report_fire(state: StreetFighterState, target: Unit, source: tuple[float, float],
                hits: int) -> None:
    """A unit fired on is always told so, with the direction the fire came from."""
    direction = compass(target.pos.point, source)
    state.knowledge[target.side].report_fire(FireReport(target.id, direction, state.turn, hits))
    state.emit("fired-on", {"unit": target.id, "direction": direction, "hits": hits},
               (target.side,))


def recent_reports(state: StreetFighterState, side: str) -> list[FireReport]:
    return state.knowledge[side].recent_reports(state.turn, REPORT_TURNS)


def record_loss(state: StreetFighterState, unit: Unit, how: str) -> None:
    """A unit is out of the fight; the enemy knows only if it sees the unit now."""
    state.emit("unit-lost", {"unit": unit.id, "name": unit.name, "how": how}, (unit.side,))
    enemy = state.enemy_of(unit.side)
    memory = state.knowledge[enemy]
    if memory.sees(unit.id):
        memory.record_casualty(unit.id, state.turn)
        state.emit("enemy-out", {"unit": unit.id, "name": unit.name, "how": how}, (enemy,))
