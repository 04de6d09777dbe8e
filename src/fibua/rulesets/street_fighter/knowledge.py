"""What each side has observed. Everything a side is told about the enemy passes through
here: spotting by the observation tables, the memory of last-seen places, the report of
being fired on, and the enemy units a side saw knocked out, each kept in the side's
`SideKnowledge` (core/knowledge.py).

Spotting is worked out again after every order: a target is seen while some unit of the
side (not moving flat out, not riding inside a vehicle) has line of sight to it and the
observation table, read with the unit's formation's d10 for the turn, says so.
"""

from __future__ import annotations

from fibua.core.knowledge import Briefed, FireReport, Sure, knowledge_of
from fibua.rulesets.street_fighter.forces import Forces, all_formations, placements
from fibua.rulesets.street_fighter.ground import compass, in_cover, memo, range_between
from fibua.rulesets.street_fighter.spotting import sign_of, spot_need
from fibua.rulesets.street_fighter.state import (
    FIRING,
    MOVING,
    Activity,
    Look,
    Placed,
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
    """Ids of the enemy units the side sees now, worked out afresh."""
    return _seen(_look_afresh(state, side, None))


def _seen(look: Look) -> set[str]:
    return {t for t, eye in look.seer.items() if eye is not None}


def _look_afresh(state: StreetFighterState, side: str, last: Look | None) -> Look:
    """Every enemy the side could see picked out again. The lines of sight of the side's
    `last` look are kept for the pairs whose two units stand where they stood then (a new
    place is a new object; the map never changes)."""
    eyes = observers(state, side)
    marks = targets(state, side)
    at = {u.id: u.pos for u in eyes}
    at.update((t.id, t.pos) for t in marks)
    then = {} if last is None else last.at
    moved_eyes = [u for u in eyes if then.get(u.id) is not u.pos]
    moved_marks = [t for t in marks if then.get(t.id) is not t.pos]
    still = {u.id for u in eyes} - {u.id for u in moved_eyes}
    lines = {} if last is None else \
        {t.id: last.lines[t.id] & still for t in marks if then.get(t.id) is t.pos}
    look = Look({u.id: u for u in eyes}, {t.id: t for t in marks}, at, lines, {})
    if last is not None:  # the same eyes (marks) where they were: the same arrays
        if not moved_eyes and len(eyes) == len(last.eyes):
            look.eyes_placed = last.eyes_placed
        if not moved_marks and len(marks) == len(last.marks):
            look.marks_placed = last.marks_placed
    _line_up(state, look, moved_eyes, moved_marks)
    for target in marks:
        _pick_column(state, look, target)
    return look


def _line_up(state: StreetFighterState, look: Look, moved_eyes: list[Unit],
             moved_marks: list[Unit]) -> None:
    """The lines of sight of the pairs of the look with a unit that moved (or came into
    it): the columns of `moved_marks` from every eye, the rows of `moved_eyes` to every
    mark. Each pair is asked from its eye, as `SightEngine.visible_matrix` is."""
    sight, lines = state.sight, look.lines
    if moved_marks and look.eyes:
        if look.eyes_placed is None:
            look.eyes_placed = _placed(state, look.eyes)
        eyes, from_eyes = look.eyes_placed
        columns = [sight.visible_column(from_eyes, moved_marks[0].pos).tolist()] \
            if len(moved_marks) == 1 else sight.visible_matrix_arrays(
                from_eyes, sight.position_arrays([t.pos for t in moved_marks])).T.tolist()
        for target, column in zip(moved_marks, columns, strict=True):
            lines[target.id] = {u.id for u, sees in zip(eyes, column, strict=True) if sees}
    else:
        for target in moved_marks:
            lines[target.id] = set()
    if moved_eyes and look.marks:
        if look.marks_placed is None:
            look.marks_placed = _placed(state, look.marks)
        marks, to_marks = look.marks_placed
        rows = [sight.visible_row(moved_eyes[0].pos, to_marks).tolist()] \
            if len(moved_eyes) == 1 else sight.visible_matrix_arrays(
                sight.position_arrays([u.pos for u in moved_eyes]), to_marks).tolist()
        for eye, row in zip(moved_eyes, rows, strict=True):
            for target, sees in zip(marks, row, strict=True):
                if sees:
                    lines[target.id].add(eye.id)


def _placed(state: StreetFighterState, units: dict[str, Unit]) -> Placed:
    listed = list(units.values())
    return listed, state.sight.position_arrays([u.pos for u in listed])


def _pick_column(state: StreetFighterState, look: Look, target: Unit) -> None:
    """The first eye with a line of sight to the target found to pick it out, if any (its
    sign is the same to every eye)."""
    found = None
    in_sight = look.lines[target.id]
    if in_sight:
        sign, eyes = target_sign(state, target), look.eyes
        for i in in_sight:
            if _picks_out(state, eyes[i], target, sign):
                found = i
                break
    look.seer[target.id] = found


def touched(state: StreetFighterState, unit: Unit) -> None:
    """The rules changed what spotting reads of the unit: its place, its activity, whether
    it rides or is still in the fight. Each side's kept look works out the pairs it is in
    again at its next `refresh_after_order` (the dice of the turn and the activities
    cleared at the start of a side's orders are followed by `refresh`)."""
    for look in state.looks.values():
        look.changed.add(unit.id)


def _look_again(state: StreetFighterState, side: str) -> Look:
    """The side's kept look brought up to date: the enemies it could see again are those
    it saw, but for the units touched since. An untouched target picked out by an
    untouched eye still is (the pair reads nothing else: the eye's place, activity and
    formation's die, the target's place, activity and kind); one nobody picked out can
    be picked out only by an eye touched. The lines of sight of a touched unit are worked
    out again only if it stands elsewhere (a new place is a new object)."""
    look = state.looks.get(side)
    if look is None:
        look = state.looks[side] = _look_afresh(state, side, None)
        return look
    if not look.changed:
        return look
    eyes, marks, at, lines, seer = look.eyes, look.marks, look.at, look.lines, look.seer
    moved_eyes: list[Unit] = []  # new in the lists or elsewhere: new lines
    moved_marks: list[Unit] = []
    still_eyes: list[Unit] = []  # where they were: their lines hold
    still_marks: list[Unit] = []
    for uid in sorted(look.changed):
        unit = state.units[uid]
        was = at.pop(uid, None)
        if unit.side == side:
            eyes.pop(uid, None)
            if unit.hp > 0 and not unit.surrendered and unit.rides is None \
                    and unit.activity is not Activity.FLAT_OUT:  # as `observers`
                eyes[uid] = unit
                at[uid] = unit.pos
                (still_eyes if unit.pos is was else moved_eyes).append(unit)
            if unit.pos is not was or uid not in eyes:
                for some in lines.values():
                    some.discard(uid)
                if was is not None or uid in eyes:
                    look.eyes_placed = None
        else:
            marks.pop(uid, None)
            seer.pop(uid, None)
            if unit.hp > 0 and not unit.surrendered and unit.rides is None:  # `targets`
                marks[uid] = unit
                at[uid] = unit.pos
                (still_marks if unit.pos is was else moved_marks).append(unit)
            if unit.pos is not was or uid not in marks:
                lines.pop(uid, None)
                if was is not None or uid in marks:
                    look.marks_placed = None
    gone = look.changed.copy()  # whoever these eyes picked out is to be picked out again
    look.changed.clear()
    _line_up(state, look, moved_eyes, moved_marks)
    redo = {t.id for t in moved_marks} | {t.id for t in still_marks}
    new_eyes = moved_eyes + still_eyes
    for target in marks.values():
        if target.id in redo or seer[target.id] in gone:
            _pick_column(state, look, target)
        elif seer[target.id] is None and new_eyes:
            in_sight = lines[target.id]
            for eye in new_eyes:
                if eye.id in in_sight and \
                        _picks_out(state, eye, target, target_sign(state, target)):
                    seer[target.id] = eye.id
                    break
    return look


def refresh(state: StreetFighterState) -> None:
    """Work out again what each side sees, every pair picked out again (at the start of a
    side's orders and at the end of a turn: new dice, activities cleared; in a sampled
    world), and tell it what came into or left its view."""
    for side in state.sides:
        look = state.looks[side] = _look_afresh(state, side, state.looks.get(side))
        _update(state, side, _seen(look))
    state.spotted = state.version


def refresh_after_order(state: StreetFighterState) -> None:
    """`refresh` after an order: each side's kept look works out again only the pairs of
    the units the order touched (`touched`)."""
    for side in state.sides:
        _update(state, side, _seen(_look_again(state, side)))
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
    _update(state, side, _seen(_look_again(state, side)))
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
