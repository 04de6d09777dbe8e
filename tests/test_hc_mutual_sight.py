"""Who sees whom, sight and the body model in one compiled call, is the geometry's answer
pair by pair, to the last bit, on the bundled maps."""

from __future__ import annotations

import pytest

from fibua.rulesets.house_clearing.estimates import mutual_sight
from hc_helpers import facing_crowds, map_geometry, seeing_pairs

MAPS = ("ramp-houses", "oosterbeek-crossroads")


@pytest.mark.parametrize("name", MAPS)
def test_who_sees_whom_in_one_call_is_the_geometrys(name: str) -> None:
    geometry = map_geometry(name)
    crowds = facing_crowds(geometry, (30, 5), (40, 8), 13)
    a, a_stances, b, b_stances = crowds
    of_b, of_a = mutual_sight(geometry, geometry.sight, a, a_stances, b, b_stances)
    pairs = seeing_pairs(of_b, of_a, crowds, lambda i, j: geometry.mutual(
        a[i], a_stances[i], b[j], b_stances[j]))
    assert pairs > 20  # pairs that see each other are tried, and pairs that do not
    assert pairs < len(a) * len(b)
    empty_b, _ = mutual_sight(geometry, geometry.sight, a, a_stances, [], [])
    assert empty_b.shape == (len(a), 0)


@pytest.mark.parametrize("name", MAPS)
def test_sight_is_mutual_in_one_call_either_way_round(name: str) -> None:
    # a mover's glimpses (enemies against the spots of its path) hand on the last spot's
    # column as its sight where it stops (the mover against the enemies): the same pairs
    geometry = map_geometry(name)
    a, a_stances, b, b_stances = facing_crowds(geometry, (30, 5), (40, 8), 13)
    of_b, of_a = mutual_sight(geometry, geometry.sight, a, a_stances, b, b_stances)
    back_a, back_b = mutual_sight(geometry, geometry.sight, b, b_stances, a, a_stances)
    assert of_b.any()
    assert (of_b == back_b.T).all() and (of_a == back_a.T).all()


def test_a_movers_sight_where_it_stops_is_that_worked_out_afresh() -> None:
    from fibua.core.game import Game, LegalOrders
    from fibua.lab.engine import computers
    from fibua.rulesets.house_clearing.knowledge import glimpses
    from fibua.rulesets.house_clearing.movement import path_spots, plan_move
    from fibua.scenario.loader import load_scenario

    checked = 0
    for seed in range(3):
        game = Game(load_scenario("ramp-houses"), seed)
        players = computers(game, seed)
        for _ in range(300):
            side = game.to_act()
            if side is None:
                break
            order = players[side].choose(game.observe(side), LegalOrders(game, side))
            state = game.state
            if order.kind == "move" and order.unit is not None:
                mover = state.figures[order.unit]
                plan = plan_move(state, mover, order.params)
                spots, stances = path_spots(mover.pos, plan, state)
                _, last = glimpses(state, mover, spots, stances)
                enemies = [e for e in state.figures.values()
                           if e.side != mover.side and e.in_action]
                of_enemies, of_mover = mutual_sight(
                    state.geometry, state.sight, [plan.legs[-1]], [plan.stance],
                    [e.pos for e in enemies], [e.stance for e in enemies])
                assert last == (of_enemies[0].tolist(), of_mover[0].tolist())
                checked += any(last[0])
            game.apply(order)
    assert checked > 10  # moves that end in sight of an enemy are among them


def test_pairs_worked_out_already_are_taken_for_one_figure_only() -> None:
    from fibua.core.game import Game
    from fibua.rulesets.house_clearing.knowledge import refresh_sight
    from fibua.scenario.loader import load_scenario

    state = Game(load_scenario("ramp-houses"), 1).state
    two = list(state.figures.values())[:2]
    before = dict(state.exposure)
    with pytest.raises(ValueError, match="one figure"):
        refresh_sight(state, two, ([], []))
    assert state.exposure == before
