"""A failure inside the rules never leaves a half-done game, and malformed orders are refused
before the rules see them."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest
from rich.console import Console

from fibua.cli.terminal import PlaySession
from fibua.core.errors import IllegalOrder, RulesFault
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from toy_ruleset import FirstShot
from toy_steps import scenario_of

FAULTY = scenario_of("toy-faulty")


def test_a_failing_order_leaves_the_game_as_it_was() -> None:
    game = Game(FAULTY, 3)
    game.apply(Order("red", "pass"))
    game.apply(Order("blue", "pass"))
    before, orders, log = game.state_hash(), list(game.orders), list(game.log)
    heard: list[Order] = []
    game.listeners.append(lambda order, events: heard.append(order))
    boom = Order("red", "boom", "r1")
    with pytest.raises(RulesFault) as caught:
        game.apply(boom)
    assert caught.value.order == boom
    assert isinstance(caught.value.error, ZeroDivisionError)
    assert "divided by zero" in str(caught.value)
    assert game.state_hash() == before and game.orders == orders and game.log == log
    assert heard == [] and not game.damaged
    # and the game goes on exactly as one that never saw the failure
    game.apply(Order("red", "shoot", "r1", {"target": "b1"}))
    clean = Game(FAULTY, 3)
    for order in [*orders, Order("red", "shoot", "r1", {"target": "b1"})]:
        clean.apply(order)
    assert game.state_hash() == clean.state_hash()


def test_a_failing_preview_raises_rules_fault() -> None:
    game = Game(FAULTY, 3)
    before = game.state_hash()
    with pytest.raises(RulesFault) as caught:
        game.preview(Order("red", "boom", "r1"))
    assert isinstance(caught.value.error, KeyError)
    assert game.state_hash() == before
    assert "pass" in game.preview(Order("red", "pass"))


@pytest.mark.parametrize(
    "order",
    [
        Order("red", "pass", None, ["target", "b1"]),  # type: ignore[arg-type]
        Order("red", "pass", None, "target=b1"),  # type: ignore[arg-type]
        Order("red", "pass", None, {1: "b1"}),  # type: ignore[dict-item]
        Order("red", 7),  # type: ignore[arg-type]
        Order("red", "shoot", 1, {"target": "b1"}),  # type: ignore[arg-type]
        Order(None, "pass"),  # type: ignore[arg-type]
    ],
)
def test_malformed_orders_are_refused_as_bad_parameters(order: Order) -> None:
    game = Game(FAULTY, 3)
    before = game.state_hash()
    for attempt in (game.apply, game.preview):
        with pytest.raises(IllegalOrder) as caught:
            attempt(order)
        assert caught.value.code == "bad-parameter"
    assert game.state_hash() == before


def test_parameters_in_any_mapping_are_taken_as_a_dict() -> None:
    game = Game(FAULTY, 3)
    params: Any = MappingProxyType({"target": "b1"})
    game.apply(Order("red", "shoot", "r1", params))
    assert type(game.orders[0].params) is dict


def test_listeners_hear_each_order_with_its_events() -> None:
    game = Game(FAULTY, 3)
    heard: list[tuple[Order, list[Event]]] = []
    game.listeners.append(lambda order, events: heard.append((order, events)))
    events = game.apply(Order("red", "pass"))
    with pytest.raises(IllegalOrder):
        game.apply(Order("red", "pass"))  # not red's turn: nobody is told
    assert heard == [(Order("red", "pass"), events)]


def test_the_terminal_shows_a_rules_failure_and_goes_on() -> None:
    game = Game(FAULTY, 3)
    lines = iter(["boom r1", "pass"])
    console = Console(record=True, width=100)
    session = PlaySession(
        game, "red", {"blue": FirstShot("blue")}, console, read_line=lambda: next(lines, None)
    )
    assert session.run() == "eof"
    text = console.export_text()
    assert "the rules failed on the order red: boom r1" in text
    assert game.orders[0] == Order("red", "pass")
