"""A Street Fighter headquarters does not lead the attack in its vehicle (the issue's
blunder: the normandy-village British Company HQ drove up the road in its halftrack,
ahead of every other unit, into the hidden MG's sight and was destroyed by turn 4 in
70.5% of 1,000 computer-against-computer games). The computer now keeps a vehicle
carrying a headquarters `HQ_BEHIND` along its route behind the side's foremost other
unit: over 1,000 games (seeds 100,000-100,999) the Company HQ was lost by turn 4 in 1.2%
(the scenario as tuned again after it; 0.3% before).

Nothing here names a scenario in the computer: the rule reads unit kinds and the route
to the side's own objective."""

from __future__ import annotations

from math import sqrt
from typing import Any

from fibua.battlefield.model import Position
from fibua.core.game import Game, LegalOrders, chosen
from fibua.core.orders import Order
from fibua.lab.seats import Seats
from fibua.rulesets.street_fighter.ai import HQ_BEHIND, Tactics
from fibua.rulesets.street_fighter.paths import STEP
from fibua.scenario.loader import load_scenario
from sfr_helpers import forced_game, make_scenario, unit

SEES_ALL = 9  # an observation die that spots everything the tables allow at all
NORTH_EDGE = {"side": "blue", "kind": "reach", "points": 1,
              "zone": [[0, 72], [80, 72], [80, 80], [0, 80]]}

SEEDS = range(100_000, 100_012)
HQ = "coy-hq-hq"  # the scenario's British Company HQ, the unit the blunder lost


def hq_lost_by_turn_four(seed: int) -> bool:
    game = Game(load_scenario("normandy-village"), seed)
    players = Seats(dict.fromkeys(game.state.sides, "normal"))(game, seed)
    while game.state.turn <= 4:
        side = game.to_act()
        if side is None:
            break
        game.apply(chosen(game, side, players[side]))
    return not game.state.units[HQ].alive


def test_the_company_hq_is_not_lost_early() -> None:
    # before: lost by turn 4 in 70.5% of games (9 of these 12); now 1.2%
    lost = [seed for seed in SEEDS if hq_lost_by_turn_four(seed)]
    assert len(lost) <= 1, lost


def carrier_order(passenger: str) -> tuple[Order, float]:
    """Turn 1 on the small test table, blue attacking north: the halftrack h1 carrying
    `passenger`'s kind at the south edge, a section on foot a little ahead of it. The
    halftrack's order, and how far along the route the foot section then stands."""
    blue = [unit("h1", "m3-halftrack", (30, 3)), unit("p1", passenger, rides="h1"),
            unit("s1", "infantry-section", (10, 6))]
    game = forced_game(make_scenario(blue, [unit("r1", "infantry-section", (26, 25))],
                                     victory=[NORTH_EDGE]), [SEES_ALL, SEES_ALL])
    control = game.ruleset.computer("blue", 0)
    while True:
        view = game.observe("blue")
        order = control.choose(view, LegalOrders(game, "blue"))
        if order.unit == "h1" or order.kind == "end":
            route = Tactics(view, view.unit("h1")).nearest_goal()
            assert route is not None
            return order, route[0].distance(view.unit("s1").pos)
        game.apply(order)


def route_left(order: Order) -> float:
    """How far along blue's route to the north edge the order's move ends."""
    game = forced_game(make_scenario([unit("h1", "m3-halftrack", (30, 3))],
                                     [unit("r1", "infantry-section", (26, 25))],
                                     victory=[NORTH_EDGE]), [SEES_ALL, SEES_ALL])
    view = game.observe("blue")
    found = Tactics(view, view.unit("h1")).nearest_goal()
    assert found is not None
    raw: Any = order.params["path"][-1]
    return found[0].distance(Position(float(raw[0]), float(raw[1])))


def test_a_carrier_of_a_headquarters_stops_behind_the_lead() -> None:
    """The halftrack carrying an HQ ends its move `HQ_BEHIND` behind the section on
    foot; carrying a section, it drives on past it (so the stop is the HQ's alone)."""
    order, lead = carrier_order("hq-section")
    assert order.unit == "h1" and order.kind in ("move", "flat-out"), order
    # a route is walked cell by cell: the last step may pass the stop by one cell
    assert route_left(order) >= lead + HQ_BEHIND - STEP * sqrt(2)
    order, lead = carrier_order("infantry-section")
    assert order.unit == "h1" and order.kind in ("move", "flat-out"), order
    assert route_left(order) < lead
