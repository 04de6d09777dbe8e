"""House-Clearing refuses odd orders cleanly: whatever an order holds (parameters that are
not a table, wrong types, huge numbers), checking, previewing or carrying it out either
works or raises IllegalOrder with a reason, and a refused order changes nothing. And
automatic fire whose cone reaches a figure beyond the weapon's longest range simply does
not fire at it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.house_clearing.state import Phase
from hc_helpers import act, all_dice_used, end, figure, forced_game, make_scenario, of_kind

# b1 (initiative 1) walks north past r1 (initiative 3), which may fire at it; b2 carries
# a belt-fed gun; r2 hides behind the high wall
BLUE = [figure("b1", "rifle", (17, 9), initiative=1),
        figure("b2", "belt-lmg", (23, 10), initiative=3),
        figure("b3", "smg", (21.5, 10), initiative=2)]
RED = [figure("r1", "rifle", (23.5, 16), initiative=3),
       figure("r2", "rifle", (17, 5), initiative=2)]
SCENARIO = make_scenario(BLUE, RED)


def move_step() -> Game:
    game = Game(SCENARIO, 1)
    assert (game.state.phase, game.state.step, game.to_act()) == (Phase.MOVE, 1, "blue")
    return game


def reaction() -> Game:
    game = move_step()
    act(game, "move", "b1", to=[17, 17])
    assert game.state.reaction is not None and game.to_act() == "red"
    return game


def fire_step() -> Game:
    game = move_step()
    while game.state.phase is Phase.MOVE:
        end(game)
    assert game.state.phase is Phase.FIRE
    return game


SETUPS: dict[str, Callable[[], Game]] = {
    "move": move_step, "reaction": reaction, "fire": fire_step}

NAMES = ["to", "path", "floor", "stance", "target", "auto", "loader"]
IDS = ["b1", "b2", "b3", "r1", "r2", "zz", ""]
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
              st.sampled_from([*IDS, "standing", "leaning", "crouching"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=8)
PARAMS = st.one_of(
    st.dictionaries(st.one_of(st.sampled_from(NAMES), st.text(max_size=4)), JSON,
                    max_size=4),
    JSON,  # not a table at all
    st.dictionaries(st.integers(), JSON, min_size=1, max_size=2),  # keys not names
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(where=st.sampled_from(sorted(SETUPS)),
       side=st.sampled_from(["blue", "red"]),
       kind=st.one_of(st.sampled_from(["move", "stance", "fire", "end", "dig"]), st.integers()),
       unit=st.one_of(st.sampled_from(IDS), st.none(), st.integers(), st.lists(st.integers())),
       params=PARAMS)
def test_any_order_is_carried_out_or_refused_cleanly(where: str, side: str, kind: Any,
                                                    unit: Any, params: Any) -> None:
    game = SETUPS[where]()
    order = Order(side, kind, unit, params)
    before = (game.state_hash(), len(game.log))
    for attempt in (lambda: game.ruleset.check(game.state, order),
                    lambda: game.ruleset.preview(game.state, order),
                    lambda: game.apply(order)):
        try:
            attempt()
        except IllegalOrder as refused:
            assert refused.reason and refused.code
            assert (game.state_hash(), len(game.log)) == before
            continue


@pytest.mark.parametrize(
    "params",
    [{"target": "r1", "auto": 1}, {"target": "r1", "auto": "yes"}, {"target": ["r1"]},
     {"target": "r1", "loader": ["b2"]}, {"target": "r1", "loader": 3}],
)
def test_odd_fire_parameters_are_refused_with_a_reason(params: dict[str, Any]) -> None:
    game = reaction()
    with pytest.raises(IllegalOrder) as refused:
        game.ruleset.preview(game.state, Order("red", "fire", "r1", params))
    assert refused.value.code in ("bad-parameter", "not-the-mover", "no-loader")


def test_params_that_are_not_a_table_are_refused() -> None:
    game = move_step()
    for params in ([1, 2], "to=3,4", {3: 4}):
        with pytest.raises(IllegalOrder, match="name=value") as refused:
            game.apply(Order("blue", "move", "b1", params))  # type: ignore[arg-type]
        assert refused.value.code == "bad-parameter"
    with pytest.raises(IllegalOrder, match="unknown parameter"):
        game.apply(Order("blue", "end", None, {"now": True}))


def test_automatic_fire_passes_over_a_figure_beyond_the_longest_range() -> None:
    """An SMG fires automatic at r1, 10in off at the end of its Sixteenth band. The cone is
    2.5in wide there: r2, 1in to the side of r1, is inside it but 10.05in away, beyond the
    band: it is not fired at. r1: skill 100 / 16 = 6, halved 3: one D100, 99 misses."""
    blue = [figure("b1", "smg", (21, 9), initiative=2)]
    red = [figure("r1", "rifle", (21, 19), initiative=1),
           figure("r2", "rifle", (22, 19), initiative=1)]
    game = forced_game(make_scenario(blue, red), [99])
    state = game.state
    assert state.sees("b1", "r1") and state.sees("b1", "r2")
    while state.phase is Phase.MOVE:
        end(game)
    assert (state.step, game.to_act()) == (2, "blue")
    preview = game.ruleset.preview(state, Order("blue", "fire", "b1",
                                                {"target": "r1", "auto": True}))
    assert "10.0in" in preview and "chance 3%" in preview
    act(game, "fire", "b1", target="r1", auto=True)
    shots = of_kind(game.log, "shot")
    assert [s["target"] for s in shots] == ["r1"]
    assert shots[0]["band"] == "Sixteenth" and shots[0]["chance"] == 3
    assert all_dice_used(game)
