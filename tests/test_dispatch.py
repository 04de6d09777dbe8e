"""The order dispatcher every rule set shares (core/dispatch.py): the checks before a kind's
own rules, in their order, with one set of refusal codes, each refusal carrying its order."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pytest

from fibua.core.dispatch import Carry, Dispatcher, Kind
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.scenario.loader import load_scenario


@dataclass
class Token:
    id: str
    side: str
    name: str
    alive: bool = True


@dataclass
class Table:
    units: dict[str, Token]
    acting_side: str | None = "blue"
    done: list[str] = field(default_factory=list)


def check_step(state: Table, unit: Token, params: dict[str, Any]) -> Carry:
    if params.get("far"):
        raise IllegalOrder("too far", code="too-far")
    return lambda: state.done.append(f"{unit.id} steps")


DISPATCH: Dispatcher[Table, Token] = Dispatcher(
    {"step": "step UNIT [far=true]", "end": "end"},
    {"step": Kind(frozenset({"far"}), check_step)},
    lambda state: state.done.append("end"),
    lambda state, uid: state.units.get(uid),
    lambda unit: unit.alive,
    noun="token", out="is knocked over",
)


def table() -> Table:
    return Table({"b1": Token("b1", "blue", "B1"), "b2": Token("b2", "blue", "B2", False),
                  "r1": Token("r1", "red", "R1")})


def refusal(order: Order) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as caught:
        DISPATCH.check(table(), order)
    assert caught.value.order is order
    return caught.value


@pytest.mark.parametrize(("order", "code", "words"), [
    (Order("red", "step", "r1"), "not-your-turn", "it is blue's turn"),
    (Order("blue", "fly", "b1"), "unknown", "orders are: step, end"),
    (Order("blue", "fly", None), "unknown", "unknown order 'fly'"),
    (Order("blue", "step", "b9"), "no-unit", "blue has no token 'b9'"),
    (Order("blue", "step", None), "no-unit", "blue has no token None"),
    (Order("blue", "step", "r1"), "no-unit", "blue has no token 'r1'"),
    (Order("blue", "step", "b2"), "out-of-action", "B2 is knocked over"),
    (Order("blue", "step", "b1", {"farr": True}), "bad-parameter", "unknown parameter(s) farr"),
    (Order("blue", "end", None, {"now": True}), "bad-parameter", "takes no parameters"),
    (Order("blue", "step", "b1", {"far": True}), "too-far", "too far"),
    (Order("blue", "step", "b1", ["far"]), "bad-parameter", "name=value"),  # type: ignore[arg-type]
    (Order("blue", "end", [0]), "no-unit", "by its id"),  # type: ignore[arg-type]
])
def test_each_refusal_has_its_code_and_carries_the_order(order: Order, code: str,
                                                         words: str) -> None:
    refused = refusal(order)
    assert refused.code == code and words in refused.reason


def test_a_checked_order_changes_nothing_until_carried_out() -> None:
    state = table()
    carry = DISPATCH.check(state, Order("blue", "step", "b1"))
    assert state.done == []
    carry()
    assert state.done == ["b1 steps"]
    DISPATCH.check(state, Order("blue", "end"))()
    assert state.done == ["b1 steps", "end"]


def test_parameters_in_any_mapping_reach_the_checker_as_a_dict() -> None:
    seen: list[object] = []

    def spy(state: Table, unit: Token, params: dict[str, Any]) -> Carry:
        seen.append(params)
        return lambda: None

    dispatch = Dispatcher({"step": ""}, {"step": Kind(frozenset({"far"}), spy)},
                          lambda state: None, lambda state, uid: state.units.get(uid),
                          lambda unit: unit.alive)
    dispatch.check(table(), Order("blue", "step", "b1", MappingProxyType({"far": False})))
    assert seen == [{"far": False}] and type(seen[0]) is dict


# -- the check a computer player asks for, kept for the order it then gives -------------------

def _move_orders(game: Game) -> tuple[str, list[Order]]:
    """The acting side and its legal moves, of one figure, at the start of a game."""
    side = game.to_act()
    assert side is not None
    moves = [o for o in game.legal_orders(side) if o.kind == "move"]
    first = moves[0].unit
    return side, [o for o in moves if o.unit == first]


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Order]:
    """Every order the dispatchers check in full, in turn."""
    seen: list[Order] = []
    real = Dispatcher.check

    def counted(self: Dispatcher[Any, Any], state: Any, order: Order) -> Carry:
        seen.append(order)
        return real(self, state, order)

    monkeypatch.setattr(Dispatcher, "check", counted)
    return seen


def test_an_order_allowed_then_given_is_checked_once_and_plays_the_same(
        checks: list[Order]) -> None:
    scenario = load_scenario("ramp-houses")
    asked, plain = Game(scenario, 7), Game(scenario, 7)
    side, moves = _move_orders(asked)
    checks.clear()
    order = moves[0]
    assert LegalOrders(asked, side).allows(order)
    asked.apply(order)
    assert checks == [order]
    plain.apply(Order(order.side, order.kind, order.unit, dict(order.params)))
    assert [e.to_dict() for e in asked.log] == [e.to_dict() for e in plain.log]


def test_a_check_is_not_kept_past_a_change_of_the_state(checks: list[Order]) -> None:
    game = Game(load_scenario("ramp-houses"), 7)
    side, moves = _move_orders(game)
    checks.clear()
    legal = LegalOrders(game, side)
    first, second = moves[0], moves[1]
    assert legal.allows(first) and legal.allows(second)
    game.apply(first)
    while game.to_act() != side:  # the enemy lets the move go
        game.apply(Order(str(game.to_act()), "end"))
    # the figure has moved: the move checked before it is refused now, not carried out
    with pytest.raises(IllegalOrder, match="moved"):
        game.apply(second)
    assert [o for o in checks if o is second] == [second, second]


def test_an_equal_order_is_checked_again(checks: list[Order]) -> None:
    game = Game(load_scenario("ramp-houses"), 7)
    side, moves = _move_orders(game)
    checks.clear()
    order = moves[0]
    assert LegalOrders(game, side).allows(order)
    game.apply(Order(order.side, order.kind, order.unit, dict(order.params)))
    assert len(checks) == 2


def test_an_order_given_twice_is_checked_again_the_second_time(checks: list[Order]) -> None:
    game = Game(load_scenario("ramp-houses"), 7)
    side, moves = _move_orders(game)
    order = Order(side, "stance", moves[0].unit, {"stance": "crouching"})
    assert LegalOrders(game, side).allows(order)
    game.apply(order)
    assert game.to_act() == side
    with pytest.raises(IllegalOrder, match="already moved"):
        game.apply(order)


def test_a_kept_check_is_not_carried_out_on_a_copy_of_the_state() -> None:
    import copy

    game = Game(load_scenario("ramp-houses"), 7)
    side, moves = _move_orders(game)
    order = moves[0]
    mover = game.state.figures[str(order.unit)]
    start = mover.pos
    assert LegalOrders(game, side).allows(order)
    twin = copy.deepcopy(game.state)  # the kept carry still reads the game's own state
    game.ruleset.apply(twin, order)
    assert twin.figures[mover.id].pos != start
    assert mover.pos == start and not mover.moved
