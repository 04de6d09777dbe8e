"""Street-Fight previews of the orders that keep a figure where it is (aim, overwatch,
take-cover) and of moves: each says in words what the order does, never a bare "allowed",
and an aim that can add nothing says so as data (wasted). A move says where it ends, and
whether it leaves the figure free to shoot, makes it a runner or charges an enemy in
sight (in the browser a move read only "Corporal Hollis moves 4.8in")."""

from __future__ import annotations

from math import hypot

from fibua.core.game import Game, chosen
from fibua.core.orders import Order
from fibua.core.ruleset import Risk
from fibua.lab.engine import computers
from fibua.scenario.loader import load_scenario
from first_written import first_written

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
    # the seed: a figure that moves within 1in of an enemy engages it in close combat
    # (the game of seed 3 as first written, where such a move comes)
    game = Game(first_written("corner-shop"), SEED)
    players = computers(game, SEED)
    for _ in range(300):
        side = game.to_act()
        if side is None:
            break
        if game.view(side)["phase"] == "move":
            for figure in game.own_view(side):
                for enemy in game.view(side)["enemies"]:
                    if not enemy["visible_now"] or not enemy.get("alive", True) or (
                            enemy["section"], enemy["floor"]) != (figure["section"],
                                                                  figure["floor"]):
                        continue  # on one floor of one room, or both in the open
                    dx, dy = figure["x"] - enemy["x"], figure["y"] - enemy["y"]
                    far = hypot(dx, dy)
                    if not 1 < far < 4:
                        continue
                    to = [round(enemy["x"] + 0.8 * dx / far, 2),
                          round(enemy["y"] + 0.8 * dy / far, 2)]
                    order = Order(side, "move", figure["id"], {"to": to})
                    if game.ruleset.allows(game.state, order):
                        text = game.preview(order)
                        assert f"it charges {enemy['name']}" in text, text
                        assert "may still shoot" not in text
                        return
        game.apply(chosen(game, side, players[side]))
    raise AssertionError("no figure came within reach of an enemy in sight")
