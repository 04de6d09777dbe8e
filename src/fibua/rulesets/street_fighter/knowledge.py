"""What each side has observed. Everything a side is told about the enemy passes through
here: spotting by the observation tables, the memory of last-seen places, the report of
being fired on, and the enemy units a side saw knocked out, each kept in the side's
`SideKnowledge` (core/knowledge.py).

Spotting is worked out again after every order: a target is seen while some unit of the
side (not moving flat out, not riding inside a vehicle) has line of sight to it and the
observation table, read with the unit's formation's d10 for the turn, says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from fibua.battlefield.model import Position
from fibua.battlefield.sight import PositionArrays
from fibua.core.knowledge import Briefed, FireReport, Sure, knowledge_of
from fibua.core.views import same_objects
from fibua.rulesets.street_fighter.forces import Forces, all_formations, placements
from fibua.rulesets.street_fighter.ground import compass, in_cover, memo, range_between
from fibua.rulesets.street_fighter.spotting import sign_of, spot_need
from fibua.rulesets.street_fighter.state import (
    FIRING,
    MOVING,
    Activity,
    Known,
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


def visible_to(state: StreetFighterState, side: str) -> frozenset[str]:
    """Ids of the enemy units the side sees now."""
    return _look(state, side, observers(state, side), targets(state, side)).found


#: what a look found of one enemy: its place, activity and kind then, and the observer
#: (by its index in the look) that picked it out first, None when none did
Verdict = tuple[Position, Activity, Kind, int | None]


@dataclass(slots=True, eq=False)
class Look:
    """A side's last look (kept in the rules' engine's memo, by side): what it was worked
    out from, compared by identity (a place, an activity, a unit that changed is another
    object), what it found of each enemy in the lists, and whom it told."""

    #: each observer's place, whether it observes and its formation's die, in turn
    eyes: list[object]
    #: each enemy that might be seen, its place, activity and kind, in turn
    marks: list[object]
    verdicts: dict[str, Verdict]  # by enemy id
    found: frozenset[str]
    #: the knowledge told of this look (`_tell`) and its `news` right after: while it
    #: holds them, telling it again would change nothing
    told: Known | None = None
    news: int = -1


def _look(state: StreetFighterState, side: str, eyes: list[Unit], marks: list[Unit]) -> Look:
    """What the side's observers pick out of the enemies they might see: the last look
    itself when nothing it is worked out from changed. An observer's part in a look is
    its place, whether it observes and its die, nothing else of it: with as many
    observers as last time, an enemy that is as it was is judged again only by those
    observers whose part changed (after an order, the unit that acted), unless the one
    that picked it out is among them; an enemy that changed, or any with observers come
    or gone, is judged by all."""
    kept = memo(state.sight, "looks")
    last: Look | None = kept.get(side)
    formations = state.formations
    seeing: list[object] = []
    for eye in eyes:
        seeing += (eye.pos, eye.activity is Activity.OBSERVING, formations[eye.formation].die)
    showing: list[object] = []
    for mark in marks:
        showing += (mark, mark.pos, mark.activity, mark.kind)
    changed = None if last is None else _changed(seeing, last.eyes)
    old: dict[str, Verdict] = {}  # what the last look found, where it still tells
    if last is not None and changed is not None:
        if not changed and same_objects(showing, last.marks):
            return last
        old = last.verdicts
    moved = changed or set()
    verdicts: dict[str, Verdict] = {}
    lines: list[list[bool]] | None = None
    for j, mark in enumerate(marks):
        verdict = old.get(mark.id)
        who: set[int] | None = None  # all the observers
        if verdict is not None and verdict[0] is mark.pos and verdict[1] is mark.activity \
                and verdict[2] is mark.kind:
            witness = verdict[3]
            if (witness is None and not moved) or (witness is not None and witness not in moved):
                verdicts[mark.id] = verdict  # the same observers, or the one that saw it
                continue
            if witness is None:
                who = moved  # the others did not pick it out
        if lines is None:
            lines = sight_lines(state, side, [u.pos for u in eyes], [t.pos for t in marks])
        verdicts[mark.id] = (mark.pos, mark.activity, mark.kind,
                             _picked_out(state, eyes, mark, lines[j], who))
    look = Look(seeing, showing, verdicts,
                frozenset(i for i, v in verdicts.items() if v[3] is not None))
    kept[side] = look
    return look


def _changed(seeing: list[object], before: list[object]) -> set[int] | None:
    """The observers (by index) whose part in a look changed from the last (three
    entries each in `seeing`); None when there are more or fewer of them."""
    if len(seeing) != len(before):
        return None
    return {k // 3 for k, (now, then) in enumerate(zip(seeing, before, strict=True))
            if now is not then}


def _picked_out(state: StreetFighterState, eyes: list[Unit], target: Unit,
                in_sight: list[bool], who: set[int] | None = None) -> int | None:
    """The first observer (of `who`, by index; of all when None) with a line of sight to
    the target that picks it out, None when none does. Its sign is the same to every
    observer: worked out once, and only if some line is clear."""
    looking = range(len(eyes)) if who is None else sorted(who)
    clear = [i for i in looking if in_sight[i]]
    if not clear:
        return None
    sign = target_sign(state, target)
    return next((i for i in clear if _picks_out(state, eyes[i], target, sign)), None)


@dataclass(slots=True, eq=False)
class Lines:
    """A side's last lines of sight (kept in the rules' engine's memo, by side): the
    places they join, by column of target, and the places as the compiled sight calls
    take them once asked for (a list of places held is never changed)."""

    eyes: list[Position]
    marks: list[Position]
    lines: list[list[bool]]
    eye_arrays: PositionArrays | None = None
    mark_arrays: PositionArrays | None = None


def sight_lines(state: StreetFighterState, side: str, eyes: list[Position],
                marks: list[Position]) -> list[list[bool]]:
    """For each of `marks`, whether each of `eyes` has a line of sight to it. The map never
    changes, so only the lines of places new since the side's last look are worked out
    again: after an order, those of the unit that moved (the last look is kept in the
    rules' engine's memo, and a place that changed is a new object); a unit that came
    into the lists or left them (going flat out, getting in or out of a vehicle, falling)
    costs only its own lines."""
    kept = memo(state.sight, "sight-lines")
    last: Lines | None = kept.get(side)
    if last is None:
        fresh: list[list[bool]] = state.sight.visible_matrix(eyes, marks).T.tolist()
        kept[side] = Lines(eyes, marks, fresh)
        return fresh
    same_eyes, same_marks = same_objects(eyes, last.eyes), same_objects(marks, last.marks)
    if same_eyes and same_marks:
        return last.lines  # read only: a change below is made to a copy
    # the kept lines by place (the places are held by the memo, so their ids stay theirs)
    rows = _kept_places(eyes, last.eyes)
    columns = _kept_places(marks, last.marks)
    new = Lines(eyes, marks, _kept_lines(last.lines, rows, columns, len(eyes)),
                last.eye_arrays if same_eyes else None,
                last.mark_arrays if same_marks else None)
    new_eyes = [i for i, r in enumerate(rows) if r is None]
    new_marks = [j for j, c in enumerate(columns) if c is None]
    sight = state.sight
    if new_eyes:  # rows of the observers that moved or came: one compiled call each
        if new.mark_arrays is None:
            new.mark_arrays = sight.position_arrays(marks)
        for i in new_eyes:
            for column, value in zip(new.lines, sight.visible_row(eyes[i], new.mark_arrays)
                                     .tolist(), strict=True):
                column[i] = value
    if new_marks:  # columns of the targets that moved or came
        if new.eye_arrays is None:
            new.eye_arrays = sight.position_arrays(eyes)
        found = sight.visible_matrix_arrays(
            new.eye_arrays, sight.position_arrays([marks[j] for j in new_marks]))
        for j, column in zip(new_marks, found.T.tolist(), strict=True):
            new.lines[j] = column
    kept[side] = new
    return new.lines


def _kept_places(places: list[Position], before: list[Position]) -> list[int | None]:
    """Where each place was in the last list (None: a new place)."""
    if len(places) == len(before):  # mostly the same places in turn: no map needed
        same = [i if p is q else None for i, (p, q) in enumerate(zip(places, before,
                                                                      strict=True))]
        if None not in same:
            return same
    where = {id(p): i for i, p in enumerate(before)}
    return [where.get(id(p)) for p in places]


def _kept_lines(old: list[list[bool]], rows: list[int | None], columns: list[int | None],
                n: int) -> list[list[bool]]:
    """The kept lines rearranged to the new places (False where a place is new); a
    column whose rows are where they were is copied whole."""
    in_turn = all(r is None or r == i for i, r in enumerate(rows)) and len(rows) == n
    if in_turn and n and (not old or len(old[0]) == n):
        return [[False] * n if c is None else old[c].copy() for c in columns]
    return [[False] * n if c is None else [False if r is None else old[c][r] for r in rows]
            for c in columns]


def refresh(state: StreetFighterState) -> None:
    """Work out again what each side sees, and tell it what came into or left its view."""
    for side, (eyes, marks) in _parties(state).items():
        _tell(state, side, _look(state, side, eyes, marks))
    state.spotted = state.version


def _parties(state: StreetFighterState) -> dict[str, tuple[list[Unit], list[Unit]]]:
    """Each side's `observers` and `targets`, in one pass over the units (as the two
    make them for each side, in the units' order)."""
    found: dict[str, tuple[list[Unit], list[Unit]]] = {s: ([], []) for s in state.sides}
    enemy = {s: state.enemy_of(s) for s in state.sides}
    for unit in state.units.values():
        if unit.hp <= 0 or unit.surrendered or unit.rides is not None:
            continue
        found[enemy[unit.side]][1].append(unit)
        if unit.activity is not Activity.FLAT_OUT:
            found[unit.side][0].append(unit)
    return found


def refresh_after_observing(state: StreetFighterState, side: str) -> None:
    """`refresh` after an order to observe given by `side` right after the last refresh
    (`state.spotted` is the version before it): only that side looks again. The order
    changed nothing but its unit's activity, from idle (an order goes to a unit that has
    not acted this turn, and only a unit that acted has another activity) to observing,
    and a target shows the enemy only whether it fires or moves (`target_sign`): the
    enemy sees what it saw at the last refresh, which told it all of it, so its look
    again would find the same and tell it nothing."""
    assert state.spotted == state.version - 1
    _tell(state, side, _look(state, side, observers(state, side), targets(state, side)))
    state.spotted = state.version


def _tell(state: StreetFighterState, side: str, look: Look) -> None:
    """Tell the side what its look found, unless it was told this very look and has
    learnt nothing since: `_update` again would change nothing (every enemy it sees is
    where it was seen, doing what it was seen doing; every one it lost, lost), and the
    enemies it might see are the very ones it was told of, where they were."""
    memory = state.knowledge[side]
    if look.told is memory and look.news == memory.news:
        return
    _update(state, side, look.found)
    look.told, look.news = memory, memory.news


def _update(state: StreetFighterState, side: str, now: frozenset[str]) -> None:
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
