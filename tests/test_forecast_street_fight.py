"""Street-Fight previews of the orders that keep a figure where it is (aim, overwatch,
take-cover): each says in words what the order does, never a bare "allowed", and an aim
that can add nothing says so as data (wasted)."""

from __future__ import annotations

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import Risk
from fibua.scenario.loader import load_scenario

SEED = 3


def first(game: Game, kind: str) -> Order:
    """Sides end their phases until one has an order of the kind; its first."""
    for _ in range(8):
        side = game.to_act()
        assert side is not None
        found = next((o for o in game.legal_orders(side) if o.kind == kind), None)
        if found is not None:
            return found
        game.apply(Order(side, "end"))
    raise AssertionError(f"no {kind} came")


def test_an_aim_says_the_bonus_it_builds_and_that_moving_loses_it() -> None:
    # the seed: each turn spent aiming adds 10%, for up to three turns, and the bonus
    # holds until the figure moves, fires or goes on overwatch
    game = Game(load_scenario("corner-shop"), SEED)
    order = first(game, "aim")
    forecast = game.forecast(order)
    assert "+10%" in forecast.text and "moves" in forecast.text
    assert forecast.risks == ()
    game.state.figures[str(order.unit)].aim = 2
    assert "+30%" in game.forecast(order).text


def test_an_aim_already_at_the_most_is_wasted() -> None:
    # the seed caps aiming at three turns: a fourth turn's aim gains nothing
    game = Game(load_scenario("corner-shop"), SEED)
    order = first(game, "aim")
    game.state.figures[str(order.unit)].aim = 3
    forecast = game.forecast(order)
    assert Risk.WASTED in forecast.risks and "+30%" in forecast.text


def test_an_overwatch_says_the_place_watched_and_what_it_costs_to_hit() -> None:
    # the seed: a nominated point (radius 1in) costs 10% to hit, a large area 20%
    game = Game(load_scenario("corner-shop"), SEED)
    order = first(game, "overwatch")
    side = order.side
    point = Order(side, "overwatch", order.unit, {"point": order.params["point"]})
    area = Order(side, "overwatch", order.unit, {"point": order.params["point"],
                                                   "radius": 4})
    assert "-10%" in game.forecast(point).text and "radius 1in" in game.forecast(point).text
    assert "-20%" in game.forecast(area).text and "radius 4in" in game.forecast(area).text


def test_taking_cover_says_what_it_shields_from() -> None:
    game = Game(load_scenario("corner-shop"), SEED)
    order = first(game, "take-cover")
    assert "1/2 cover" in game.forecast(order).text


def test_no_order_of_the_first_turns_is_previewed_as_just_allowed() -> None:
    game = Game(load_scenario("corner-shop"), SEED)
    kinds: set[str] = set()
    for _ in range(8):
        side = game.to_act()
        assert side is not None
        for order in game.legal_orders(side):
            if order.kind != "end":
                kinds.add(order.kind)
                assert not game.preview(order).endswith("allowed"), order
        game.apply(Order(side, "end"))
    assert kinds == {"move", "overwatch", "take-cover", "shoot", "aim"}
