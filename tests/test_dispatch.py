"""The order dispatcher every rule set shares (core/dispatch.py): the checks before a kind's
own rules, in their order, with one set of refusal codes, each refusal carrying its order."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pytest

from fibua.core.dispatch import Carry, Dispatcher, Kind
from fibua.core.errors import IllegalOrder
from fibua.core.orders import Order


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
