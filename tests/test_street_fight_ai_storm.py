"""The Street-Fight computer's storm of a held building (ai_storm, ai.Tactician): in
farm-compound, the Americans walk into close combat with the defenders they have seen in
the farmhouse, and the defenders' windows are shunned until then."""

from __future__ import annotations

from itertools import pairwise

from fibua.battlefield.model import Position
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.rulesets.street_fight.ai import (
    STORM_CHARGE,
    STORM_TURNS,
    Tactician,
    _contacts,
    _held_fire,
    _threats,
)
from fibua.rulesets.street_fight.ai_approach import cell_graph
from fibua.rulesets.street_fight.ai_storm import WALK, charge_route
from fibua.rulesets.street_fight.tables import CONTACT
from fibua.rulesets.street_fight.views import SideView
from fibua.scenario.loader import load_scenario
from sf_helpers import put

DOOR = Position(19.5, 34.5)  # the farmhouse's yard door
BEFORE_DOOR = Position(19.5, 32.5)  # in the garden, in sight of the door


def _farm(turn: int) -> Game:
    game = Game(load_scenario("farm-compound"), 0)
    game.state.turn = turn
    return game


def _walked(start: Position, route: list[tuple[float, float]]) -> float:
    return start.distance(Position(*route[0])) + sum(
        Position(*a).distance(Position(*b)) for a, b in pairwise(route))


def test_a_charge_route_walks_through_the_door_into_contact() -> None:
    game = _farm(1)
    view = game.observe("americans")
    graph = cell_graph(view.sight)
    start = Position(19.5, 31.5)
    defender = Position(19.6, 36.0, "farmhouse", 0)
    route = charge_route(view.sight, graph, start, [defender], [])
    assert route is not None
    end = Position(*route[-1])
    assert end.distance(defender) <= CONTACT
    assert view.sight.section_at(route[-1]) == "farmhouse"
    assert _walked(start, route) <= WALK


def test_no_charge_route_to_a_defender_out_of_reach_or_upstairs() -> None:
    game = _farm(1)
    view = game.observe("americans")
    graph = cell_graph(view.sight)
    start = Position(19.5, 26.5)  # more than a walk from the door
    assert charge_route(view.sight, graph, start,
                        [Position(19.6, 36.0, "farmhouse", 0)], []) is None
    near = Position(19.5, 31.5)
    assert charge_route(view.sight, graph, near,
                        [Position(19.6, 36.0, "farmhouse", 1)], []) is None


def test_a_charge_route_spreads_over_the_defenders() -> None:
    """A defender a friend already fights counts dearer: the next one is charged."""
    game = _farm(1)
    view = game.observe("americans")
    graph = cell_graph(view.sight)
    start = Position(19.5, 31.5)
    first = Position(19.6, 35.6, "farmhouse", 0)
    second = Position(21.0, 36.0, "farmhouse", 0)
    alone = charge_route(view.sight, graph, start, [first, second], [])
    assert alone is not None and Position(*alone[-1]).distance(first) <= CONTACT
    fought = charge_route(view.sight, graph, start, [first, second],
                          [Position(19.6, 35.0, "farmhouse", 0)])
    assert fought is not None and Position(*fought[-1]).distance(second) <= CONTACT


def _defended(turn: int) -> tuple[Game, SideView]:
    """Reinhardt seen just inside the farmhouse door, Novak in the garden before it."""
    game = _farm(turn)
    put(game, "reinhardt", 19.6, 36.0)
    put(game, "novak", 19.5, 31.5)
    return game, game.observe("americans")


def _orders(view: SideView, figure_id: str) -> list[tuple[Order, float]]:
    threats = _threats(view)
    options = Tactician("americans", 0)._move_options(
        view, view.figure(figure_id), threats, _contacts(view, threats))
    return [(o if isinstance(o, Order) else o(), score) for o, score in options]


def test_the_storm_charges_a_defender_seen_inside() -> None:
    game, view = _defended(12 - STORM_TURNS)
    assert any(e == "reinhardt" and s.section == "farmhouse" for e, s in view.enemies)
    charges = [order for order, score in _orders(view, "novak")
               if score == STORM_CHARGE and order.kind == "move"]
    assert len(charges) == 1
    end = Position(*charges[0].params["path"][-1])
    assert end.distance(Position(19.6, 36.0)) <= CONTACT
    # the straight charge at an enemy in sight comes first where the rules allow it
    order = Tactician("americans", 0).choose(view, LegalOrders(game, "americans"))
    assert order.kind == "move" and order.unit == "novak"
    game.apply(charges[0])
    assert game.state.figures["novak"].charged


def test_no_storm_charge_before_the_storm() -> None:
    _, view = _defended(1)
    assert all(score != STORM_CHARGE for _, score in _orders(view, "novak"))


def test_before_the_storm_the_defenders_sight_is_shunned() -> None:
    """The ground the defender seen inside looks on is dangerous for the approach; inside
    the objective it is not (the storm meets him anyway)."""
    _, view = _defended(1)
    graph = cell_graph(view.sight)
    fire = _held_fire(view, graph, _threats(view))
    assert fire[graph.cell(BEFORE_DOOR)] > 0.3
    assert fire[graph.cell(Position(20.5, 37.5))] == 0.0
    plan = Tactician("americans", 0)._approach_plan(view, _threats(view))
    assert plan is not None and plan.danger[graph.cell(BEFORE_DOOR)] > 0.3
    for order, _ in _orders(view, "novak"):
        path = order.params.get("path")
        if order.kind == "move" and path:
            assert view.goal is not None and view.goal.distance(Position(*path[-1])) > 0


def test_an_attacker_below_a_fixed_gun_climbs_into_close_combat_with_it() -> None:
    game = _farm(10)
    for german in ("wolff", "reinhardt", "albrecht", "seidel"):
        game.state.figures[german].alive = False
    put(game, "novak", 19.0, 36.5)  # in the farmhouse, below Franke's MG 42
    put(game, "hayes", 22.0, 38.5)
    view = game.observe("americans")
    orders = Tactician("americans", 0)._clear_objective(view, view.figure("novak"))
    assert orders
    order = orders[0][0]
    assert order.params.get("floor") == 1
    assert Position(*order.params["to"]).distance(Position(19.5, 35.3)) <= CONTACT
    game.apply(order)
    assert game.state.figures["novak"].charged
