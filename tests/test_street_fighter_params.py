"""Street Fighter order parameters: every order refuses a parameter it does not take, and
any parameters at all (not a mapping, values of any type) are carried out or refused with
IllegalOrder, the game unchanged; never another error."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.core.orders import Order
from sfr_helpers import make_scenario, unit

#: blue: a section, a mortar, an HQ with an artillery mission by the house, a halftrack
#: carrying a section, an empty lorry; red: a section and a tank within 10 cm of b1 in
#: the open, seen whatever the dice
SCENARIO = make_scenario(
    [unit("b1", "infantry-section", (75, 25)), unit("m", "mortar-section", (78, 25)),
     unit("hq", "hq-section", (34, 25)), unit("ht", "m3-halftrack", (71, 25)),
     unit("s2", "infantry-section", rides="ht"), unit("lo", "lorry", (75, 21))],
    [unit("r1", "infantry-section", (75, 33)), unit("r2", "t34", (70, 33))],
    blue_artillery=1)

#: each order with parameters it takes, correct
GOOD: dict[str, dict[str, Any]] = {
    "move": {"to": [75, 28]},
    "flat-out": {"path": [[75, 28], [75, 30]]},
    "move-fire": {"to": [75, 27], "target": "r1"},
    "shoot": {"target": "r2", "weapon": "rocket"},
    "assault": {"section": "house", "with": []},
    "mount": {"vehicle": "lo"},
    "dismount": {"to": [71, 28]},
    "observe": {},
    "end": {},
}
ORDERED = {"assault": "hq", "dismount": "s2", "end": None}


def new_game() -> Game:
    return Game(SCENARIO, 0)


def order(kind: str, params: Any, who: str | None = "b1") -> Order:
    return Order("blue", kind, ORDERED.get(kind, who), params)


def refused(game: Game, bad: Order) -> IllegalOrder:
    before = (game.state_hash(), len(game.log))
    with pytest.raises(IllegalOrder) as caught:
        game.apply(bad)
    assert (game.state_hash(), len(game.log)) == before
    assert caught.value.order is bad and caught.value.reason
    return caught.value


@pytest.mark.parametrize("kind", list(GOOD))
def test_a_mistyped_parameter_is_refused_by_every_order(kind: str) -> None:
    game = new_game()
    good = order(kind, GOOD[kind])
    assert game.ruleset.allows(game.state, good), kind
    error = refused(game, order(kind, {**GOOD[kind], "tagret": "r1"}))
    assert error.code == "bad-parameter" and "unknown parameter(s) tagret" in error.reason


def test_indirect_fire_takes_a_point_and_nothing_else() -> None:
    game = new_game()
    assert game.ruleset.allows(game.state, order("shoot", {"point": [40, 60]}, "m"))
    error = refused(game, order("shoot", {"point": [40, 60], "weapon": "rocket"}, "m"))
    assert "weapon" in error.reason


def test_to_and_path_together_are_refused() -> None:
    error = refused(new_game(), order("move", {"to": [75, 28], "path": [[75, 27]]}))
    assert "not both" in error.reason


@pytest.mark.parametrize("params", [["to", 1], "to=75,28", None, 3, {1: [75, 28]},
                                    {("to",): 1}])
def test_parameters_that_are_no_mapping_of_names_are_refused(params: Any) -> None:
    for kind in GOOD:
        error = refused(new_game(), order(kind, params))
        assert error.code == "bad-parameter" and "name=value" in error.reason


@pytest.mark.parametrize("kind", [["move"], None, 3, "fly"])
def test_an_order_of_no_known_kind_is_refused(kind: Any) -> None:
    # the game refuses an order whose kind is no text before the rules see it
    assert refused(new_game(), Order("blue", kind, "b1", {})).code in ("unknown", "bad-parameter")


@pytest.mark.parametrize("who", [None, 7, ["b1"], {"b1": 1}])
def test_an_order_for_no_unit_id_is_refused(who: Any) -> None:
    assert refused(new_game(), order("observe", {}, who)).code in ("no-unit", "bad-parameter")


VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
              st.sampled_from(["r1", "r2", "b1", "ht", "lo", "house", "bunker", "rocket"])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=2),
    max_leaves=6)
NAMES = st.sampled_from(["to", "path", "target", "weapon", "point", "section", "with",
                         "vehicle", "tagret", ""])


@settings(max_examples=300)
@given(kind=st.sampled_from(list(GOOD)), who=st.sampled_from(["b1", "m", "hq", "ht", "s2",
                                                               "lo", "r1", "zz"]),
       params=st.dictionaries(NAMES, VALUES, max_size=3) | VALUES)
def test_any_parameters_are_carried_out_or_refused_cleanly(kind: str, who: str,
                                                           params: Any) -> None:
    game = new_game()
    bad = Order("blue", kind, None if kind == "end" else who, params)
    before = (game.state_hash(), len(game.log))
    try:
        game.apply(bad)
    except IllegalOrder as error:
        assert error.reason and error.order is bad
        assert (game.state_hash(), len(game.log)) == before
