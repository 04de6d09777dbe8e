"""Toy rule sets for the engine's undo and failure handling (importing registers them).

"toy-steps": a side gives several orders in its phase and ends it with `end`: `step UNIT
dx=N` moves a token (no die), `look UNIT` tells the side of an enemy (a sighting), `shoot`
rolls a die without ending the phase. "toy-faulty" fails on `boom UNIT` half-way through the
order (after moving the token and rolling a die), and in `preview` of `boom`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from fibua.core.dice import roll
from fibua.core.errors import IllegalOrder
from fibua.core.events import Event
from fibua.core.orders import Order
from fibua.core.ruleset import register
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario
from toy_ruleset import ToyRuleSet, ToyState, toy_scenario_dict


class StepsRuleSet(ToyRuleSet):
    name = "toy-steps"
    title = "Toy with phases of several orders (tests only)"
    order_syntax: ClassVar[Mapping[str, str]] = {
        "step": "step UNIT dx=N",
        "look": "look UNIT",
        "shoot": "shoot UNIT target=ID",
        "end": "end",
    }

    def apply(self, state: ToyState, order: Order) -> list[Event]:
        if order.kind not in ("step", "look", "end", "shoot"):
            return super().apply(state, order)
        self._check_own(state, order)
        events = getattr(self, f"_{order.kind}")(state, order)
        state.events.extend(events)
        return events

    def _check_own(self, state: ToyState, order: Order) -> None:
        if self.to_act(state) != order.side:
            raise IllegalOrder("not your phase", order, "not-your-turn")
        if order.kind == "end":
            return
        token = state.tokens.get(order.unit or "")
        if token is None or token.side != order.side or not token.alive:
            raise IllegalOrder(f"{order.unit!r} is not one of your tokens", order)

    def _step(self, state: ToyState, order: Order) -> list[Event]:
        token = state.tokens[order.unit or ""]
        token.x += float(order.params.get("dx", 1))
        return [Event("stepped", {"id": token.id, "x": token.x}, (order.side,), state.turn)]

    def _look(self, state: ToyState, order: Order) -> list[Event]:
        enemy = next(t for t in state.tokens.values() if t.side != order.side)
        data = {"id": enemy.id, "x": enemy.x, "y": enemy.y}
        return [Event("enemy-seen", data, (order.side,), state.turn)]

    def _shoot(self, state: ToyState, order: Order) -> list[Event]:
        self._check_shot(state, order)
        return super()._shoot(state, order)

    def _end(self, state: ToyState, order: Order) -> list[Event]:
        self._advance(state)
        return [Event("phase", {"side": self.to_act(state)}, ("*",), state.turn)]


class FaultyRuleSet(ToyRuleSet):
    name = "toy-faulty"
    title = "Toy whose rules fail on boom (tests only)"
    order_syntax: ClassVar[Mapping[str, str]] = {**ToyRuleSet.order_syntax, "boom": "boom UNIT"}

    def apply(self, state: ToyState, order: Order) -> list[Event]:
        if order.kind == "boom":
            token = state.tokens[order.unit or ""]
            token.x += 5  # half-way through: the state is changed, a die is rolled...
            roll(state.rng, "d6", "boom")
            state.turn += 1
            raise ZeroDivisionError("the rules divided by zero")  # ...then the rules fail
        return super().apply(state, order)

    def preview(self, state: ToyState, order: Order) -> str:
        if order.kind == "boom":
            raise KeyError("no table for boom")
        return super().preview(state, order)


STEPS = register(StepsRuleSet())
FAULTY = register(FaultyRuleSet())


def scenario_of(ruleset: str, turns: int | None = None) -> Scenario:
    raw: dict[str, Any] = toy_scenario_dict()
    raw["scenario"]["ruleset"] = ruleset
    if turns is not None:
        raw["scenario"]["turns"] = turns
    return scenario_from_dict(raw, ruleset)
