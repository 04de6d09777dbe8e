"""The parameters of Street-Fight orders: unknown names, values of the wrong type and
parameters that are not names with values are refused with IllegalOrder (never a
TypeError, KeyError or ValueError), and a refused order changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.street_fight.rules import PARAMETERS
from sf_helpers import figure, forced_game, make_scenario

BLUE_FIRST = [2, 1]
# b1 a rifle and b2 an LMG in the open lane east of the house, r1 and r3 in sight north
BLUE = [figure("b1", "rifle", (20, 10)), figure("b2", "lmg", (22, 10))]
RED = [figure("r1", "rifle", (20, 18)), figure("r3", "rifle", (22, 18))]
SCENARIO = make_scenario(BLUE, RED)
MOVE_PHASE_KINDS = ("move", "overwatch", "take-cover", "end")
SHOOT_PHASE_KINDS = ("shoot", "aim", "end")


def game_for(kind: str) -> Game:
    game = forced_game(SCENARIO, BLUE_FIRST + [50] * 40)
    if kind in SHOOT_PHASE_KINDS and kind != "end":
        game.apply(Order("blue", "end"))
        game.apply(Order("red", "end"))
    return game


def refused(game: Game, order: Order) -> IllegalOrder:
    before = (game.state_hash(), len(game.log), len(game.orders))
    with pytest.raises(IllegalOrder) as caught:
        game.apply(order)
    assert caught.value.reason
    assert (game.state_hash(), len(game.log), len(game.orders)) == before
    return caught.value


@pytest.mark.parametrize(("kind", "params"), [
    ("shoot", {"tagret": "r1"}),
    ("shoot", {"target": "r1", "range": 5}),
    ("move", {"to": [20, 11], "speed": 5}),
    ("overwatch", {"point": [20, 16], "raduis": 2}),
    ("aim", {"turns": 2}),
    ("take-cover", {"facing": "north"}),
    ("end", {"now": True}),
])
def test_an_unknown_parameter_is_refused_by_name(kind: str, params: dict[str, Any]) -> None:
    unit = None if kind == "end" else "b1"
    error = refused(game_for(kind), Order("blue", kind, unit, params))
    assert error.code == "bad-parameter"
    extra = sorted(set(params) - PARAMETERS[kind])
    assert all(name in error.reason for name in extra)


@pytest.mark.parametrize(("kind", "params"), [
    ("move", {"to": [20, 11], "path": [[20, 11]]}),
    ("shoot", {"target": "r1", "targets": ["r1"]}),
])
def test_two_ways_of_saying_the_same_thing_are_refused(kind: str, params: dict[str, Any]) -> None:
    assert refused(game_for(kind), Order("blue", kind, "b1", params)).code == "bad-parameter"


@pytest.mark.parametrize("params", [["to", [20, 11]], "to=20,11", 5, None, {1: 2},
                                    {("to",): [20, 11]}])
def test_parameters_that_are_not_names_with_values_are_refused(params: Any) -> None:
    for kind in ("move", "end"):
        order = Order("blue", kind, None if kind == "end" else "b1", params)
        assert refused(game_for(kind), order).code == "bad-parameter"


# ------------------------------------------------------------------ random parameters

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.just(10**400), st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-2, max_value=26), st.sampled_from(["r1", "r3", "b2", "", "R1"]),
    st.text(max_size=3),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.text(max_size=3), inner, max_size=2)),
    max_leaves=8,
)
keys = st.one_of(st.sampled_from(sorted(set().union(*PARAMETERS.values()))),
                 st.sampled_from(["tagret", "x", "Target", ""]))
mappings = st.dictionaries(keys, values, max_size=3)
anything = st.one_of(mappings, mappings, values)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.parametrize("kind", sorted(PARAMETERS))
@given(params=anything)
def test_random_parameters_only_ever_raise_illegal_order(kind: str, params: Any) -> None:
    game = game_for(kind)
    order = Order("blue", kind, None if kind == "end" else "b1", params)
    before = (game.state_hash(), len(game.log), len(game.orders))
    try:
        game.apply(order)
    except IllegalOrder as error:
        assert error.reason
        assert (game.state_hash(), len(game.log), len(game.orders)) == before
        return
    # carried out: the parameters were names the order takes
    assert isinstance(params, dict) and set(params) <= PARAMETERS[kind]
