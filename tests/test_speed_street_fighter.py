"""The Street Fighter rules' shortcuts for speed keep the game as it was: the view's copy
of a unit holds every field, the fields a view's copies watch are all a game changes,
only the observing side looks again after an order to observe, and each side's kept
look (knowledge.Look), brought up to date from the units the rules touched, is the look
worked out afresh."""

from __future__ import annotations

from dataclasses import fields

import pytest

from fibua.battlefield.model import Position
from fibua.core.dice import derive_seed
from fibua.core.game import Game, LegalOrders, play_out
from fibua.core.knowledge import Sure
from fibua.lab.seats import Seats
from fibua.rulesets.street_fighter import knowledge, rules
from fibua.rulesets.street_fighter.state import StreetFighterState, Unit
from fibua.rulesets.street_fighter.views import UNIT_CHANGES, _copy_unit
from fibua.scenario.loader import load_scenario


def _played(name: str, seed: int) -> Game:
    scenario = load_scenario(name)
    game = Game(scenario, seed)
    play_out(game, Seats(dict.fromkeys(scenario.side_names, "computer"))(game, seed),
             100_000, None)
    return game


def test_a_views_copy_of_a_unit_holds_every_field() -> None:
    game = Game(load_scenario("normandy-village"), 1)
    for unit in game.state.units.values():
        copy = _copy_unit(unit)
        assert copy is not unit and copy.passengers is not unit.passengers
        for f in fields(Unit):
            assert getattr(copy, f.name) == getattr(unit, f.name), f.name


def test_a_game_changes_only_the_unit_fields_the_views_watch() -> None:
    scenario = load_scenario("normandy-village")
    fixed = [f.name for f in fields(Unit) if f.name not in UNIT_CHANGES]
    start = {u.id: [getattr(u, n) for n in fixed] for u in Game(scenario, 7).state.units.values()}
    game = _played("normandy-village", 7)
    assert {u.id: [getattr(u, n) for n in fixed] for u in game.state.units.values()} == start


@pytest.mark.parametrize("name", ["normandy-village", "anti-tank-screen"])
def test_looking_again_only_after_observing_plays_the_same_game(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = _played(name, 3).state_hash()

    def everyone(state: object, side: str) -> None:
        knowledge.refresh(state)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "refresh_after_observing", everyone)
    assert _played(name, 3).state_hash() == quick


def test_surely_beyond_only_where_the_distance_is_beyond() -> None:
    from random import Random

    from fibua.battlefield.model import Position
    from fibua.rulesets.street_fighter.ground import distance_to_section, surely_beyond

    state = Game(load_scenario("factory-district"), 1).state
    sight, table, rng = state.sight, state.battlefield.table, Random(5)
    said = 0
    for _ in range(300):
        pos = Position(rng.uniform(0, table.width), rng.uniform(0, table.height))
        for section in state.battlefield.section_ids:
            for reach in (0.0, 4.0, 15.0):
                if surely_beyond(sight, pos, section, reach):
                    said += 1
                    assert distance_to_section(sight, pos, section) > reach
    assert said > 0


def _afresh(state: StreetFighterState, side: str) -> set[str]:
    """The enemies the side sees, every line of sight and every die read again."""
    eyes, marks = knowledge.observers(state, side), knowledge.targets(state, side)
    if not eyes or not marks:
        return set()
    lines = state.sight.visible_matrix([e.pos for e in eyes], [t.pos for t in marks])
    return {t.id for t, row in zip(marks, lines.T.tolist(), strict=True)
            if any(sees and knowledge.spotted(state, e, t)
                   for e, sees in zip(eyes, row, strict=True))}


def _kept_look_is_afresh(state: StreetFighterState, side: str) -> bool:
    """The side's kept look, if up to date (no unit touched since), holds what a look
    afresh holds: the same eyes and marks where they stand, the same lines of sight, the
    same enemies picked out, each by an eye that does, and arrays of the places as they
    are. False when there is no such look to check."""
    look = state.looks.get(side)
    if look is None or look.changed:
        return False
    fresh = knowledge._look_afresh(state, side, None)
    assert look.eyes == fresh.eyes and look.marks == fresh.marks
    assert look.at == {i: state.units[i].pos for i in [*look.eyes, *look.marks]}
    assert look.lines == fresh.lines
    assert knowledge._seen(look) == knowledge._seen(fresh)
    for target, eye in look.seer.items():
        if eye is not None:
            assert eye in look.lines[target]
            assert knowledge.spotted(state, look.eyes[eye], look.marks[target])
    for units, placed in ((look.eyes, look.eyes_placed), (look.marks, look.marks_placed)):
        if placed is not None:
            listed, arrays = placed
            assert {u.id for u in listed} == set(units) and len(listed) == len(units)
            again = state.sight.position_arrays([u.pos for u in listed])
            assert (arrays.xy == again.xy).all() and (arrays.section == again.section).all()
    return True


def _told(state: StreetFighterState, side: str) -> set[str]:
    return {i for i, seen in state.knowledge[side].sightings.items() if seen.sure is Sure.SEEN}


@pytest.mark.parametrize("name", ["normandy-village", "anti-tank-screen", "factory-district"])
def test_each_side_is_told_what_it_sees_afresh(name: str) -> None:
    """After every order of a played game, each side's sightings in sight are the enemies
    it would see were every line of sight and every target's sign worked out afresh (the
    sight lines kept by place, the signs kept by target, the look after an order to
    observe for one side alone)."""
    game = Game(load_scenario(name), 5)
    players = {s: game.ruleset.computer(s, derive_seed(5, "computer", s))
               for s in game.scenario.side_names}
    checked = looks = 0
    while (side := game.to_act()) is not None:
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
        state: StreetFighterState = game.state  # type: ignore[assignment]
        if state.result is not None:
            break
        for s in state.sides:
            told = _told(state, s)
            assert told == _afresh(state, s)
            checked += bool(told)
            looks += _kept_look_is_afresh(state, s)
    assert checked > 10  # orders after which a side saw someone (16 at factory-district)
    assert looks > 100  # kept looks checked (both sides' after most orders)


@pytest.mark.parametrize("change", ["move", "fire", "observe", "flat-out", "fall", "mount"])
def test_a_kept_look_follows_each_kind_of_change(change: str) -> None:
    """A unit of either side changed by hand as an order would change it, and touched:
    after `refresh_after_order` each side is told what it sees afresh, and its kept look
    is the look afresh."""
    from random import Random

    from fibua.rulesets.street_fighter.combat import remove
    from fibua.rulesets.street_fighter.state import Activity

    game = Game(load_scenario("normandy-village"), 2)
    state: StreetFighterState = game.state  # type: ignore[assignment]
    rng, table = Random(4), state.battlefield.table
    told = 0
    for _ in range(40):
        units = [u for u in state.units.values() if u.alive and u.rides is None]
        some = [u for u in units if sum(v.side == u.side for v in units) > 2]
        if not some:
            break  # two units of each side are left standing
        unit = rng.choice(some)
        if change in ("move", "flat-out"):
            x, y = rng.uniform(0, table.width), rng.uniform(0, table.height)
            unit.pos = Position(x, y, state.sight.section_at((x, y)))
            unit.activity = Activity.MOVED if change == "move" else Activity.FLAT_OUT
        elif change == "fire":
            unit.activity = Activity.FIRED
        elif change == "observe":
            unit.activity = Activity.OBSERVING
        elif change == "fall":
            unit.hp = 0
            remove(state, unit, "destroyed")  # touches it, as every loss does
        else:  # a passenger leaves the lists, in its vehicle's place
            carrier = rng.choice([u for u in units if u.side == unit.side and u is not unit])
            unit.rides, unit.pos = carrier.id, carrier.pos
        knowledge.touched(state, unit)
        knowledge.refresh_after_order(state)
        for side in state.sides:
            assert _told(state, side) == _afresh(state, side)
            assert _kept_look_is_afresh(state, side)
            told += bool(_told(state, side))
    assert told > 0


@pytest.mark.parametrize("kind", ["move", "flat-out", "shoot", "observe", "mount",
                                  "dismount", "lost"])
def test_a_kept_look_follows_what_the_rules_change(kind: str) -> None:
    """A game played on by the computers, but with an order of `kind` whenever one is
    legal (or, for "lost", a unit knocked out by the rules' own hit code now and then):
    the rules touch every unit they change, so after each each side is told what it sees
    afresh and its kept look is the look afresh."""
    from random import Random

    from fibua.rulesets.street_fighter.combat import knock_out, wound

    game = Game(load_scenario("normandy-village"), 6)
    state: StreetFighterState = game.state  # type: ignore[assignment]
    players = {s: game.ruleset.computer(s, derive_seed(6, "computer", s))
               for s in game.scenario.side_names}
    rng = Random(1)
    done = 0
    while (side := game.to_act()) is not None and done < 12:
        if kind == "lost" and rng.random() < 0.1:
            unit = rng.choice([u for u in state.units.values() if u.alive])
            if unit.spec.vehicle:
                knock_out(state, unit, "knocked out", passenger_hits=1)
            else:
                wound(state, unit, unit.hp, unit.pos.point)
            knowledge.refresh_after_order(state)
            done += 1
        else:
            legal = [o for o in game.ruleset.legal_orders(state, side) if o.kind == kind]
            if legal:
                game.apply(rng.choice(legal))
                done += 1
            else:
                game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
        if state.result is not None:
            break
        for s in state.sides:
            assert _told(state, s) == _afresh(state, s)
            _kept_look_is_afresh(state, s)
    assert done >= 3


def test_a_copy_of_the_state_looks_afresh() -> None:
    """A copy (what a search plays forward, a sampled world, changed at will without
    touching) keeps no look of the game's: it works its own out afresh."""
    game = Game(load_scenario("normandy-village"), 3)
    state: StreetFighterState = game.state  # type: ignore[assignment]
    assert set(state.looks) == set(state.sides)
    copy = state.clone()
    assert not copy.looks
    mover = knowledge.targets(copy, copy.sides[0])[0]
    mover.pos = knowledge.observers(copy, copy.sides[0])[0].pos  # face to face, untouched
    knowledge.refresh_after_order(copy)
    assert mover.id in _told(copy, copy.sides[0]) == _afresh(copy, copy.sides[0])
    assert state.looks[state.sides[0]].marks[mover.id] is not mover


def test_a_column_of_sight_is_the_matrix_column() -> None:
    """`SightEngine.visible_column` (one target, each pair asked from its observer) and
    `visible_row` answer as `visible_matrix` does."""
    from random import Random

    state = Game(load_scenario("factory-district"), 1).state
    sight, table, rng = state.sight, state.battlefield.table, Random(2)

    def place() -> Position:
        x, y = rng.uniform(0, table.width), rng.uniform(0, table.height)
        return Position(x, y, sight.section_at((x, y)))

    some = 0
    for _ in range(30):
        eyes, marks = [place() for _ in range(9)], [place() for _ in range(7)]
        matrix = sight.visible_matrix(eyes, marks)
        for j, mark in enumerate(marks):
            column = sight.visible_column(sight.position_arrays(eyes), mark)
            assert column.tolist() == matrix[:, j].tolist()
        for i, eye in enumerate(eyes):
            assert sight.visible_row(eye, sight.position_arrays(marks)).tolist() == \
                matrix[i].tolist()
        some += int(matrix.sum())
    assert 0 < some < 30 * 9 * 7


@pytest.mark.parametrize("whose", ["enemy", "own"])
def test_what_a_side_sees_follows_a_unit_that_moved_alone(whose: str) -> None:
    """An enemy (or an observer) put elsewhere, doing what it did, the others as they
    were: the side sees what it would see afresh (in a game, a unit that moves changes
    its activity too)."""
    from random import Random

    state: StreetFighterState = Game(load_scenario("normandy-village"), 2).state  # type: ignore[assignment]
    rng, table = Random(3), state.battlefield.table
    side = state.sides[0]
    movers = knowledge.targets(state, side) if whose == "enemy" else \
        knowledge.observers(state, side)
    changed = 0
    for _ in range(80):
        before = knowledge.visible_to(state, side)
        mover = rng.choice(movers)
        x, y = rng.uniform(0, table.width), rng.uniform(0, table.height)
        mover.pos = Position(x, y, state.sight.section_at((x, y)))
        now = knowledge.visible_to(state, side)
        assert now == _afresh(state, side)
        changed += now != before
    assert changed > 0


@pytest.mark.parametrize("name", ["normandy-village", "factory-district"])
def test_a_kept_walk_is_the_walk_afresh(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Along played games, every walk a route gives (most of them kept) is the walk worked
    out afresh, and a new list each time."""
    from fibua.rulesets.street_fighter.paths import Route

    kept_descend = Route.descend
    asked = []

    def checked(route: Route, pos: Position, budget: float, stop: float = 0.0
                ) -> list[list[float]]:
        walk = kept_descend(route, pos, budget, stop)
        assert walk == route._descend(pos, budget, stop)
        assert walk is not kept_descend(route, pos, budget, stop)
        asked.append(walk)
        return walk

    monkeypatch.setattr(Route, "descend", checked)
    for seed in (1, 2):
        _played(name, seed)
    assert len(asked) > 50


@pytest.mark.parametrize("name", ["normandy-village", "anti-tank-screen"])
def test_kept_threatened_areas_are_the_areas_afresh(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Along played games, every answer of `Tactics.threatened` (kept with the enemies it
    is worked out from) is the answer worked out afresh."""
    from fibua.rulesets.street_fighter.ai import Tactics

    kept_threatened = Tactics.threatened
    asked = []

    def checked(tactics: Tactics) -> list[str]:
        found = kept_threatened(tactics)
        assert found == Tactics(tactics.view, tactics.unit)._threatened_now()
        asked.append(found)
        return found

    monkeypatch.setattr(Tactics, "threatened", checked)
    for seed in (1, 2, 3):
        _played(name, seed)
    assert len(asked) > 5 and any(asked)  # 31 at normandy-village, 6 at anti-tank-screen


def test_kept_threatened_areas_follow_the_areas_held() -> None:
    """The same sightings, the same turn, other areas held: other areas threatened."""
    from dataclasses import replace

    from fibua.rulesets.street_fighter.ai import Known, Tactics

    game = Game(load_scenario("normandy-village"), 1)
    views = [game.observe(s) for s in game.scenario.side_names]
    view = next(v for v in views if Tactics(v, v.own[0]).objective_sections())
    known, unit = Known(view.enemies), view.own[0]
    sections = Tactics(view, unit).objective_sections()
    answers = []
    for held in (frozenset(), frozenset(sections)):
        other = replace(view, held=held)
        answers.append(Tactics(other, unit, known).threatened())
        assert answers[-1] == Tactics(other, unit)._threatened_now()
    assert answers[0] != answers[1]
