"""The House-Clearing speed-ups keep every answer: the stance read from a dict is the
Enum's, a path traced is kept under a key that tells apart every two lists of points
whose legs differ, and a side's figures as arrays are made again whenever one moves,
changes stance or falls."""

import pytest

from fibua.core.errors import IllegalOrder
from fibua.rulesets.house_clearing.movement import parse_stance
from fibua.rulesets.house_clearing.tables import Stance


def test_a_stance_by_name_or_member_is_the_enum_s() -> None:
    for stance in Stance:
        assert parse_stance(stance.value, Stance.STANDING) is Stance(stance.value)
        assert parse_stance(stance, Stance.STANDING) is stance
    assert parse_stance(None, Stance.CROUCHING) is Stance.CROUCHING


@pytest.mark.parametrize("value", ["sitting", "", 3, ["standing"], {"stance": "prone"}])
def test_anything_else_is_refused_as_before(value: object) -> None:
    with pytest.raises(IllegalOrder) as refused:
        parse_stance(value, Stance.STANDING)
    assert refused.value.code == "bad-parameter"



# ---------------------------------------------------------------- a path's key


def test_a_paths_key_tells_apart_what_its_written_out_form_tells_apart() -> None:
    from fibua.rulesets.house_clearing.movement import _points_key

    plain = [(1.5, 2.25), (3.0, 4.75)]
    assert _points_key(plain) == _points_key([(1.5, 2.25), (3.0, 4.75)])
    assert _points_key(plain) != _points_key([(1.5, 2.25), (3.0, 4.76)])
    # -0.0 equals 0.0, but a leg keeps the very number given: the two are kept apart
    assert _points_key([(0.0, 1.0)]) != _points_key([(-0.0, 1.0)])
    assert _points_key([(1.0, 0.0)]) != _points_key([(1.0, -0.0)])
    assert _points_key([(2.0, 3.0)]) != repr([(2.0, 3.0)])  # (and a tuple is no text)


def test_a_traced_path_is_the_one_traced_afresh() -> None:
    from fibua.core.game import Game
    from fibua.rulesets.house_clearing.movement import _trace, trace
    from fibua.scenario.loader import load_scenario

    state = Game(load_scenario("ramp-houses"), 3).state
    figure = next(iter(state.figures.values()))
    start = figure.pos
    traced = 0
    for dx in (-0.0, 0.0, 1.0, 2.5):
        for dy in (0.0, -0.0, 1.5):
            points = [(start.x + dx, start.y + dy)] if dx or dy else [(dx, dy), (start.x, dy)]
            for _ in range(2):  # traced, then kept
                try:
                    kept = trace(state, start, points, None)
                except IllegalOrder:
                    continue
                legs, share, ground, climbs = _trace(state, start, points, None)
                assert kept == (legs, share, ground, climbs)
                assert [(p.x, p.y) for p in kept[0]] == [(p.x, p.y) for p in legs]
                assert all(repr(a.x) == repr(b.x) and repr(a.y) == repr(b.y)
                           for a, b in zip(kept[0], legs, strict=True))
                traced += 1
    assert traced >= 10


# ---------------------------------------------------------------- a side's arrays


def test_a_sides_arrays_are_made_again_once_a_figure_moves_turns_or_falls() -> None:
    from dataclasses import replace

    from fibua.core.game import Game, LegalOrders
    from fibua.lab.engine import computers
    from fibua.rulesets.house_clearing.estimates import stance_indexes
    from fibua.rulesets.house_clearing.knowledge import team_arrays
    from fibua.rulesets.house_clearing.tables import Stance
    from fibua.scenario.loader import load_scenario

    def fresh_and_kept(side: str) -> None:
        figures = state.side_figures(side)
        found = team_arrays(state, side, figures)
        made = state.sight.position_arrays([f.pos for f in figures])
        assert (found.places.xy == made.xy).all()
        assert (found.places.section == made.section).all()
        assert (found.places.floor == made.floor).all()
        assert (found.stances == stance_indexes([f.stance for f in figures])).all()
        assert team_arrays(state, side, figures) is found  # nothing changed: kept

    game = Game(load_scenario("ramp-houses"), 5)
    players = computers(game, 5)
    state = game.state
    for _ in range(200):
        side = game.to_act()
        if side is None:
            break
        for s in state.sides:
            fresh_and_kept(s)
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    # by hand: a move, a stance, a fall
    side = state.sides[0]
    figure = state.side_figures(side)[0]
    figure.pos = replace(figure.pos, x=figure.pos.x + 0.5)
    fresh_and_kept(side)
    figure.stance = Stance.PRONE if figure.stance is not Stance.PRONE else Stance.STANDING
    fresh_and_kept(side)
    figure.initiative = -1
    fresh_and_kept(side)


# ---------------------------------------------------------------- a leg that meets nothing


@pytest.mark.parametrize("name", ["ramp-houses", "oosterbeek-crossroads"])
def test_a_leg_is_found_to_meet_nothing_only_where_the_move_check_finds_nothing(
        name: str) -> None:
    import random

    import numpy as np

    from fibua.battlefield.model import Position
    from fibua.rulesets.house_clearing.movement import (
        NOTHING_MET,
        _crossing,
        _met_rows,
        meets_none,
    )
    from hc_helpers import map_geometry

    sight = map_geometry(name).sight.fork()
    rows = _met_rows(sight)
    # every obstacle row the check reads is among them, to the last bit
    obstacles = sight._obstacle_segs
    assert len(obstacles) and all((rows == row).all(axis=1).any() for row in obstacles)
    table = sight.battlefield.table
    rng = random.Random(7)
    nothing = something = 0
    for _ in range(3000):
        ax, ay = rng.uniform(0, table.width), rng.uniform(0, table.height)
        reach = rng.choice((1.0, 3.0, 9.0))
        bx = min(max(ax + rng.uniform(-reach, reach), 0.0), table.width)
        by = min(max(ay + rng.uniform(-reach, reach), 0.0), table.height)
        a = Position(ax, ay, sight.section_at((ax, ay)), 0)
        b = Position(bx, by, sight.section_at((bx, by)), 0)
        full = sight.move_check(a, b, through_windows=True)
        assert _crossing(sight, a, b) == full
        if meets_none(ax, ay, bx, by, rows):
            assert full == NOTHING_MET
            nothing += 1
        else:
            something += bool(full.walls or full.obstacles)
    assert nothing > 100 and something > 100
    assert np.isfinite(rows).all()
