"""Street-Fight previews of the orders that keep a figure where it is (aim, overwatch,
take-cover) and of moves: each says in words what the order does, never a bare "allowed",
and an aim that can add nothing says so as data (wasted). A move says where it ends, and
whether it leaves the figure free to shoot, makes it a runner or charges an enemy in
sight (in the browser a move read only "Corporal Hollis moves 4.8in")."""

from __future__ import annotations

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import Risk
from fibua.scenario.loader import load_scenario
from sf_helpers import figure, forced_game, make_scenario

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


def moves_of(game: Game) -> list[tuple[Order, str]]:
    """The sampled moves of the side to move, each with its preview."""
    side = game.to_act()
    assert side is not None
    return [(o, game.preview(o)) for o in game.legal_orders(side) if o.kind == "move"]


def test_a_move_says_where_it_ends_and_that_it_may_still_shoot() -> None:
    # the seed: up to 5in a figure may still fire, at -20% as a moving firer; further is a
    # run, and a runner cannot fire this turn
    game = Game(load_scenario("corner-shop"), SEED)
    for _ in range(4):
        first(game, "move")
        found = moves_of(game)
        walks = [t for o, t in found if game.forecast(o).becomes is None]
        runs = [t for o, t in found if game.forecast(o).becomes == "run"]
        assert walks and runs
        assert all("may still shoot this turn (-20% for moving)" in t for t in walks), walks
        assert not any("may still shoot" in t for t in runs)
        assert all(" and ends in " in t for t, _ in zip(walks + runs, found, strict=False))
        inside = [t for _, t in found if "ends in the open" not in t]
        if inside:
            assert any(", on the ground floor" in t or ", on floor " in t for t in inside)
            return
        game.apply(Order(str(game.to_act()), "end"))
    raise AssertionError("no move into a building came")


def test_a_move_into_contact_with_an_enemy_in_sight_says_it_charges() -> None:
    # the seed: a figure that moves within 1in of an enemy engages it in close combat.
    # Set on the test table, not found in a game the computer plays: which positions a
    # computer's game reaches changes whenever its player does
    blue = [figure("b1", "rifle", (20, 10))]
    red = [figure("r1", "rifle", (20, 14))]
    game = forced_game(make_scenario(blue, red), [2, 1])  # blue moves first
    charge = Order("blue", "move", "b1", {"to": [20, 13.2]})
    walk = Order("blue", "move", "b1", {"to": [20, 12.5]})  # 1.5in short of r1
    assert game.ruleset.allows(game.state, charge) and game.ruleset.allows(game.state, walk)
    text = game.preview(charge)
    assert "it charges R1" in text, text
    assert "may still shoot" not in text
    assert "charges" not in game.preview(walk)


def test_a_move_into_a_building_of_one_part_names_the_building_alone() -> None:
    # a building of one section is named alone ("House"), one of several by its part too
    game = forced_game(make_scenario([figure("b1", "rifle", (13, 8))],
                                     [figure("r1", "rifle", (2, 23))]), [2, 1])
    text = game.preview(Order("blue", "move", "b1", {"to": [13, 11]}))
    assert "ends in House, on the ground floor" in text, text
