"""House-Clearing seats: each player of a side has a seat holding the ids of its figures
(the ids orders name), its figures take orders, and a computer held to a seat orders only
them."""

from __future__ import annotations

import pytest

from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.core.ruleset import Seat, find_ruleset
from fibua.rulesets.house_clearing.state import Phase
from fibua.rulesets.house_clearing.turn import can_act
from fibua.scenario.loader import load_scenario
from hc_helpers import end, figure, make_scenario

BUNDLED = ("ramp-houses", "oosterbeek-crossroads")


def test_each_player_has_a_seat_of_its_figures() -> None:
    rules = find_ruleset("house-clearing")
    scenario = load_scenario("ramp-houses")
    british = rules.seats(scenario, "british")
    players = scenario.forces_of("british").players
    assert [s.name for s in british] == [p.name for p in players]
    assert [s.units for s in british] == [frozenset(f.id for f in p.figures) for p in players]
    assert "grayburn" in british[0].units and "lt-grayburn" not in british[0].units
    assert all(s.side == "british" for s in british)
    assert len(rules.seats(scenario, "germans")) == 2


@pytest.mark.parametrize("name", BUNDLED)
def test_every_seat_holds_figures_of_its_side_that_take_orders(name: str) -> None:
    """Through the first move phase each figure, in its step, is given a stance order by
    the seat that holds it: Game.apply accepts every one."""
    scenario = load_scenario(name)
    game = Game(scenario, 2)
    rules = game.ruleset
    seat_of: dict[str, Seat] = {}
    for side in scenario.side_names:
        for seat in rules.seats(scenario, side):
            assert seat.units and seat.side == side
            for fid in seat.units:
                assert game.state.figures[fid].side == side
                assert fid not in seat_of
                seat_of[fid] = seat
    assert set(seat_of) == set(game.state.figures)
    ordered: set[str] = set()
    while game.state.phase is Phase.MOVE and game.state.turn == 1:
        side = game.to_act()
        assert side is not None
        ready = [f for f in game.state.side_figures(side)
                 if game.state.reaction is None and can_act(game.state, f)]
        if not ready:
            end(game)
            continue
        f = ready[0]
        stance = "crouching" if str(f.stance) != "crouching" else "standing"
        order = Order(side, "stance", f.id, {"stance": stance})
        assert order.unit in seat_of[f.id].units
        game.apply(order)
        ordered.add(f.id)
    assert ordered == set(game.state.figures)


def test_a_computer_seat_orders_only_its_own_figures() -> None:
    blue = [figure("b1", "rifle", (21, 10), initiative=1),
            figure("b2", "rifle", (23, 10), initiative=1)]
    victory = [{"side": "blue", "kind": "hold", "sections": ["house"]}]
    scenario = make_scenario(blue, [figure("r1", "rifle", (2, 23))], split=2,
                             victory=victory)
    game = Game(scenario, 3)
    rules = game.ruleset
    seats = rules.seats(scenario, "blue")
    assert [s.units for s in seats] == [frozenset({"b1"}), frozenset({"b2"})]
    first = rules.computer("blue", 3, seats[0].units)
    orders = []
    while game.to_act() == "blue":
        chosen = first.choose(game.observe("blue"), LegalOrders(game, "blue"))
        if chosen.kind == "end":
            break
        assert chosen.unit == "b1"
        orders.append(chosen)
        game.apply(chosen)
    assert len(orders) == 1


@pytest.mark.parametrize("name", BUNDLED)
def test_computer_seats_order_only_their_figures_in_a_bundled_game(name: str) -> None:
    """One side played seat by seat by computers held to their seats (each ends once its
    figures have their orders, the next seat follows); every order names a figure of the
    seat that gave it, and the seats between them give orders."""
    scenario = load_scenario(name)
    game = Game(scenario, 4)
    rules = game.ruleset
    side, other = scenario.side_names
    seats = rules.seats(scenario, side)
    players = [(seat, rules.computer(side, 10 + i, seat.units)) for i, seat in enumerate(seats)]
    enemy = rules.computer(other, 20)
    given = 0
    while not game.over and game.state.turn <= 2:
        acting = game.to_act()
        if acting == other:
            game.apply(enemy.choose(game.observe(other), LegalOrders(game, other)))
            continue
        for seat, player in players:
            while game.to_act() == side:
                chosen = player.choose(game.observe(side), LegalOrders(game, side))
                if chosen.kind == "end":
                    break
                assert chosen.unit in (seat.units or ())
                game.apply(chosen)
                given += 1
            if game.to_act() != side:
                break
        else:
            game.apply(Order(side, "end"))
    assert given > 0
