"""Taking an order back: allowed within the phase while nothing was rolled or seen."""

from __future__ import annotations

import pytest
from rich.console import Console

from fibua.cli.terminal import PlaySession
from fibua.core.errors import IllegalOrder
from fibua.core.events import Event
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.core.ruleset import Seat
from fibua.scenario.loader import load_scenario
from toy_ruleset import FirstShot
from toy_steps import scenario_of

STEPS = scenario_of("toy-steps")


def step(side: str, unit: str, dx: float = 1) -> Order:
    return Order(side, "step", unit, {"dx": dx})


def refusal(game: Game, side: str) -> str:
    with pytest.raises(IllegalOrder) as caught:
        game.undo(side)
    assert caught.value.code == "cannot-undo"
    return caught.value.reason


def test_undo_of_a_step_restores_the_state_hash_exactly() -> None:
    game = Game(STEPS, 5)
    before = game.state_hash()
    game.apply(step("red", "r1", 2))
    game.apply(step("red", "r2", 3))
    assert game.undo("red") == step("red", "r2", 3)
    assert game.undo("red") == step("red", "r1", 2)
    assert game.state_hash() == before and game.orders == [] and len(game.marks) == 1
    # the game goes on as if the orders had never been given
    game.apply(step("red", "r1", 2))
    fresh = Game(STEPS, 5)
    fresh.apply(step("red", "r1", 2))
    assert game.state_hash() == fresh.state_hash()


def test_undo_is_refused_after_a_roll() -> None:
    game = Game(STEPS, 5)
    game.apply(step("red", "r1"))
    game.apply(Order("red", "shoot", "r1", {"target": "b1"}))
    assert "dice were rolled" in refusal(game, "red")
    assert len(game.orders) == 2  # nothing taken back


def test_undo_is_refused_after_a_new_sighting() -> None:
    game = Game(STEPS, 5)
    game.apply(Order("red", "look", "r1"))
    assert "saw something new" in refusal(game, "red")


def test_undo_is_refused_once_the_phase_has_ended() -> None:
    game = Game(STEPS, 5)
    game.apply(step("red", "r1"))
    game.apply(Order("red", "end"))
    assert "phase has ended" in refusal(game, "red")


def test_undo_is_refused_for_the_other_sides_orders() -> None:
    game = Game(STEPS, 5)
    game.apply(step("red", "r1"))
    assert "only your own orders" in refusal(game, "blue")
    assert "no order has been given" in refusal(Game(STEPS, 5), "red")


def test_what_the_side_was_not_told_does_not_decide_undo() -> None:
    """A roll only Control (or the enemy) saw neither refuses the undo nor is named: the
    answer would tell the side that it happened. It is taken back with the order."""
    game = Game(STEPS, 5)
    game.apply(step("red", "r1"))
    before_hidden = game.state_hash()
    roll = {"dice": "d6", "faces": [3], "purpose": "hidden"}
    game.log[-1:] = [Event("stepped", {"roll": roll}, (), 1), Event("seen", {"roll": roll},
                                                                    ("blue",), 1)]
    assert game.undo_refusal("red") is None
    assert game.undo("red") == step("red", "r1")
    assert game.state_hash() != before_hidden and not game.orders


def test_undo_tells_the_undo_listeners() -> None:
    game = Game(STEPS, 5)
    heard: list[Order] = []
    game.undo_listeners.append(heard.append)
    game.apply(step("red", "r1"))
    game.undo("red")
    assert heard == [step("red", "r1")]


def test_undo_of_a_street_fight_move_restores_the_state_hash() -> None:
    scenario = load_scenario("corner-shop")
    start = Game(scenario, 11)
    side = start.to_act()
    assert side is not None
    before = start.state_hash()
    moves = [order for order in LegalOrders(start, side) if order.kind == "move"][:12]
    undone = 0
    for move in moves:
        game = Game(scenario, 11)
        game.apply(move)
        if game.undo_refusal(side) is None:  # a move that saw nothing new
            assert game.undo(side) == move
            assert game.state_hash() == before
            undone += 1
    assert undone > 0


def test_undo_at_the_terminal() -> None:
    game = Game(STEPS, 5)
    lines = iter(["step r1 dx=2", "undo", "undo", "step r2 dx=1"])
    console = Console(record=True, width=100)
    session = PlaySession(
        game, "red", {"blue": FirstShot("blue")}, console, read_line=lambda: next(lines, None)
    )
    assert session.run() == "eof"
    text = console.export_text()
    assert "Taken back: step r1 dx=2" in text
    assert "cannot take the order back: no order has been given yet" in text
    assert game.orders == [step("red", "r2", 1)]


def test_a_commander_takes_back_only_their_own_units_orders() -> None:
    game = Game(STEPS, 5)
    game.apply(step("red", "r1"))
    console = Console(record=True, width=100)
    session = PlaySession(game, "red", {"blue": FirstShot("blue")}, console,
                          read_line=lambda: None)
    session._seat = Seat("second", "red", frozenset({"r2"}))
    session.undo()
    assert "another commander's" in console.export_text()
    assert game.orders == [step("red", "r1")]
