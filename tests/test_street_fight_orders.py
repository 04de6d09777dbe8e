"""Illegal Street-Fight orders: each raises IllegalOrder with a reason and leaves the game
exactly as it was (state hash and log length)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.street_fight.state import Phase
from sf_helpers import figure, forced_game, make_scenario

BLUE_FIRST = [2, 1]

# b1 rifle and b2 LMG in the open lane east of the house; r1 north of them in the open,
# r2 hidden behind the high wall (x = 18, y 2..8) from every blue figure, r3 in the open.
BLUE = [figure("b1", "rifle", (20, 10)), figure("b2", "lmg", (22, 10)),
        figure("b3", "hmg", (23, 11))]
RED = [figure("r1", "rifle", (20, 18)), figure("r2", "rifle", (16.5, 4)),
       figure("r3", "rifle", (22, 18))]
SCENARIO = make_scenario(BLUE, RED)


def move_phase() -> Game:
    game = forced_game(SCENARIO, BLUE_FIRST)
    assert game.to_act() == "blue" and game.state.phase is Phase.MOVE
    return game


def shoot_phase() -> Game:
    game = move_phase()
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    assert game.to_act() == "blue" and game.state.phase is Phase.SHOOT
    return game


def after_b1_moved() -> Game:
    game = move_phase()
    game.apply(Order("blue", "move", "b1", {"to": [20, 11]}))
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    return game


def after_b1_ran() -> Game:
    game = move_phase()
    game.apply(Order("blue", "move", "b1", {"to": [20, 4]}))  # 6in south, behind b2
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    return game


def with_r1_dead() -> Game:
    game = forced_game(SCENARIO, [*BLUE_FIRST, 1, 10])
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    game.apply(Order("blue", "shoot", "b1", {"target": "r1"}))
    game.apply(Order("blue", "end"))
    assert not game.state.figures["r1"].alive and game.to_act() == "red"
    return game


def after_game_over() -> Game:
    game = forced_game(make_scenario(BLUE, RED, turns=1), BLUE_FIRST)
    for _ in range(4):
        side = game.to_act()
        assert side is not None
        game.apply(Order(side, "end"))
    assert game.over
    return game


def refused(game: Game, order: Order) -> IllegalOrder:
    before = (game.state_hash(), len(game.log), len(game.orders))
    with pytest.raises(IllegalOrder) as caught:
        game.apply(order)
    assert caught.value.reason
    assert (game.state_hash(), len(game.log), len(game.orders)) == before
    return caught.value


def b(kind: str, unit: str | None = "b1", **params: Any) -> Order:
    return Order("blue", kind, unit, params)


CASES: list[tuple[str, Callable[[], Game], Order, str]] = [
    ("unknown kind", move_phase, b("fly"), "unknown"),
    ("unknown kind, no figure", move_phase, b("fly", None), "unknown"),
    ("unknown figure", move_phase, b("move", "b9", to=[20, 11]), "no-unit"),
    ("no figure named", move_phase, b("move", None, to=[20, 11]), "no-unit"),
    ("enemy figure", move_phase, b("move", "r1", to=[20, 17]), "no-unit"),
    ("dead figure", with_r1_dead, Order("red", "aim", "r1"), "out-of-action"),
    ("wrong side", move_phase, Order("red", "move", "r1", {"to": [20, 17]}), "not-your-turn"),
    ("wrong side ends", move_phase, Order("red", "end"), "not-your-turn"),
    ("game over", after_game_over, Order("blue", "end"), "game-over"),
    ("shoot in the move phase", move_phase, b("shoot", target="r1"), "wrong-phase"),
    ("aim in the move phase", move_phase, b("aim"), "wrong-phase"),
    ("move in the shoot phase", shoot_phase, b("move", to=[20, 11]), "wrong-phase"),
    ("overwatch in the shoot phase", shoot_phase, b("overwatch", point=[20, 16]),
     "wrong-phase"),
    ("take cover in the shoot phase", shoot_phase, b("take-cover"), "wrong-phase"),
    ("too far", move_phase, b("move", to=[20, 19.5]), "too-far"),
    ("too far by path", move_phase, b("move", path=[[24, 10], [24, 16]]), "too-far"),
    ("through a wall", move_phase,
     Order("blue", "move", "b1", {"path": [[17, 12], [15, 12]]}), "blocked"),
    ("over the high wall", move_phase, b("move", "b1", path=[[20, 8], [16, 6]]), "blocked"),
    ("off the table", move_phase, b("move", to=[24.5, 10]), "off-table"),
    ("off the table, negative", move_phase, b("move", "b3", to=[23, -0.1]), "off-table"),
    ("onto a friend", move_phase, b("move", to=[22, 10.1]), "crowded"),
    ("floor outside a building", move_phase, b("move", to=[20, 11], floor=1), "no-floor"),
    ("unseen enemy", shoot_phase, b("shoot", target="r2"), "no-target"),
    ("non-existent enemy", shoot_phase, b("shoot", target="r9"), "no-target"),
    ("own figure as target", shoot_phase, b("shoot", target="b2"), "no-target"),
    ("spread with a rifle", shoot_phase, b("shoot", targets=["r1", "r3"]), "not-automatic"),
    ("same target twice", shoot_phase, b("shoot", "b2", targets=["r1", "r1"]),
     "bad-parameter"),
    ("aim while moving", after_b1_moved, b("aim"), "moving"),
    ("HMG aims", shoot_phase, b("aim", "b3"), "no-aim"),
    ("runner shoots", after_b1_ran, b("shoot", target="r1"), "ran"),
    ("overwatch on an unseen point", move_phase, b("overwatch", point=[16, 4]), "unseen-point"),
    ("overwatch off the table", move_phase, b("overwatch", point=[30, 30]), "off-table"),
    ("overwatch radius too large", move_phase, b("overwatch", point=[20, 16], radius=6.5),
     "bad-parameter"),
    ("overwatch radius zero", move_phase, b("overwatch", point=[20, 16], radius=0),
     "bad-parameter"),
    ("take cover in the open", move_phase, b("take-cover"), "no-cover"),
]

BAD_PARAMETERS: list[tuple[str, dict[str, Any]]] = [
    ("move", {}),
    ("move", {"to": "20,11"}),
    ("move", {"to": [20]}),
    ("move", {"to": [20, 11, 0]}),
    ("move", {"to": [20, "11"]}),
    ("move", {"to": [True, 11]}),
    ("move", {"to": None}),
    ("move", {"to": [float("nan"), 11]}),
    ("move", {"to": [float("inf"), 11]}),
    ("move", {"to": [10**400, 11]}),
    ("move", {"path": []}),
    ("move", {"path": "north"}),
    ("move", {"path": [[20, 11], "x"]}),
    ("move", {"to": [20, 11], "floor": "1"}),
    ("move", {"to": [20, 11], "floor": -1}),
    ("move", {"to": [20, 11], "floor": True}),
    ("move", {"to": [20, 11], "floor": 0.5}),
    ("overwatch", {}),
    ("overwatch", {"point": "door"}),
    ("overwatch", {"point": [20, 16], "radius": "large"}),
    ("overwatch", {"point": [20, 16], "radius": True}),
    ("overwatch", {"point": [20, 16], "radius": float("nan")}),
    ("overwatch", {"point": [10**400, 16]}),
    ("overwatch", {"point": [float("nan"), 16]}),
]

BAD_SHOTS: list[dict[str, Any]] = [
    {},
    {"target": 1},
    {"target": None},
    {"target": ["r1"]},
    {"targets": "r1"},
    {"targets": []},
    {"targets": [1, 2]},
    {"targets": [["r1"]]},
]


@pytest.mark.parametrize(("what", "make", "order", "code"), CASES, ids=[c[0] for c in CASES])
def test_illegal_order_changes_nothing(
    what: str, make: Callable[[], Game], order: Order, code: str
) -> None:
    assert refused(make(), order).code == code


@pytest.mark.parametrize(("kind", "params"), BAD_PARAMETERS,
                         ids=[f"{i}-{k}" for i, (k, _) in enumerate(BAD_PARAMETERS)])
def test_bad_parameters_are_illegal(kind: str, params: dict[str, Any]) -> None:
    error = refused(move_phase(), b(kind, **params))
    assert error.code in ("bad-parameter", "off-table")


@pytest.mark.parametrize("params", BAD_SHOTS, ids=repr)
def test_bad_shot_parameters_are_illegal(params: dict[str, Any]) -> None:
    assert refused(shoot_phase(), b("shoot", **params)).code == "bad-parameter"


def test_an_unseen_enemy_and_a_missing_one_get_the_same_answer() -> None:
    game = shoot_phase()
    assert game.state.figures["r2"].alive and not game.state.can_see("b1", "r2")
    texts = {}
    for target in ("r2", "r9", "zz", "b2"):
        error = refused(game, b("shoot", target=target))
        texts[target] = (error.code, error.reason.replace(repr(target), "<id>"))
    assert len(set(texts.values())) == 1
    # one target of a spread that cannot be seen gives the same words as a missing one
    hidden = refused(game, b("shoot", "b2", targets=["r1", "r2"]))
    missing = refused(game, b("shoot", "b2", targets=["r1", "r9"]))
    assert hidden.code == missing.code == "no-target"
    assert hidden.reason.replace("'r2'", "<id>") == missing.reason.replace("'r9'", "<id>")


def test_a_dead_enemy_gets_the_same_answer_as_a_missing_one() -> None:
    game = forced_game(SCENARIO, [*BLUE_FIRST, 1, 10])
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    game.apply(b("shoot", target="r1"))
    assert not game.state.figures["r1"].alive
    dead = refused(game, b("shoot", "b2", target="r1"))
    missing = refused(game, b("shoot", "b2", target="r9"))
    assert dead.code == missing.code == "no-target"
    assert dead.reason.replace("'r1'", "<id>") == missing.reason.replace("'r9'", "<id>")


def test_already_fired_and_already_moved() -> None:
    game = forced_game(SCENARIO, [*BLUE_FIRST, 100])
    game.apply(b("move", to=[20, 11]))
    assert refused(game, b("move", to=[20, 12])).code == "already-moved"
    assert refused(game, b("overwatch", point=[20, 16])).code == "already-moved"
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    game.apply(b("shoot", target="r1"))
    assert refused(game, b("shoot", target="r1")).code == "fired"
    assert refused(game, b("aim")).code == "fired"


# ------------------------------------------------------------------ random garbage

IDS = ["b1", "b2", "b3", "r1", "r2", "r3", "b9", "", "B1"]
KINDS = ["move", "shoot", "aim", "overwatch", "take-cover", "end", "fly", "", "MOVE"]
KEYS = ["to", "path", "floor", "target", "targets", "point", "radius", "x"]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.just(10**400), st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-2, max_value=26), st.sampled_from(IDS), st.text(max_size=4),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=8,
)
coordinates = st.one_of(st.floats(min_value=-2, max_value=26), json_scalars)
points = st.lists(coordinates, min_size=2, max_size=2)
param_values = st.one_of(
    json_values, points, st.lists(points, min_size=1, max_size=3),
    st.lists(st.sampled_from(IDS), min_size=1, max_size=3),
    st.floats(min_value=0, max_value=8),
)
garbage_orders = st.builds(
    Order,
    side=st.sampled_from(["blue", "red", "green"]),
    kind=st.sampled_from(KINDS),
    unit=st.one_of(st.none(), st.sampled_from(IDS)),
    params=st.dictionaries(st.sampled_from(KEYS), param_values, max_size=3),
)
PARAMS_OF = {"move": ["to", "path", "floor"], "shoot": ["target", "targets"],
             "overwatch": ["point", "radius"], "aim": [], "take-cover": [], "end": []}


def _plausible(side: str, own: list[str]) -> st.SearchStrategy[Order]:
    """The side to act, one of its figures and a real kind, with garbage parameters."""
    return st.one_of(*(
        st.builds(Order, side=st.just(side), kind=st.just(kind), unit=st.sampled_from(own),
                  params=st.dictionaries(st.sampled_from(keys or KEYS), param_values,
                                         max_size=3))
        for kind, keys in PARAMS_OF.items()
    ))


PLAUSIBLE = {side: _plausible(side, [f["id"] for f in figs])
             for side, figs in (("blue", BLUE), ("red", RED))}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_random_orders_only_ever_raise_illegal_order(seed: int, data: st.DataObject) -> None:
    game = Game(SCENARIO, seed)
    for _ in range(data.draw(st.integers(1, 16), label="orders")):
        if game.over:
            break
        plausible = PLAUSIBLE[game.to_act() or "blue"]
        order = data.draw(st.one_of(garbage_orders, plausible, plausible), label="order")
        before = (game.state_hash(), len(game.log), len(game.orders))
        try:
            game.apply(order)
        except IllegalOrder as error:
            assert error.reason
            assert (game.state_hash(), len(game.log), len(game.orders)) == before
