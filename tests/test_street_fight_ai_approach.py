"""The Street-Fight computer's approach under a fixed gun (ai_approach): farm-compound,
whose farmhouse an MG 42 on tripod watches from upstairs."""

from __future__ import annotations

import heapq
from itertools import pairwise
from math import inf

from fibua.battlefield.model import Position
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.street_fight.ai import (
    POST_TURNS,
    STORM_TURNS,
    Tactician,
    _contacts,
    _threats,
)
from fibua.rulesets.street_fight.ai_approach import (
    SIGHT_COST,
    Approach,
    CellGraph,
    approach,
    bound,
    cell_graph,
    danger,
    seen_cells,
)
from fibua.rulesets.street_fight.tables import WeaponName
from fibua.rulesets.street_fight.views import SideView
from fibua.scenario.loader import load_scenario
from sf_helpers import put

GUN = Position(19.5, 35.3, "farmhouse", 1)  # Franke's MG 42, at the upstairs window


def _farm(turn: int = 1) -> tuple[Game, SideView]:
    game = Game(load_scenario("farm-compound"), 0)
    game.state.turn = turn
    return game, game.observe("americans")


def _plan(view: SideView, player: Tactician | None = None) -> Approach:
    found = (player or Tactician("americans", 0))._approach_plan(view, _threats(view))
    assert found is not None
    return found


def _options(view: SideView, figure_id: str) -> list[Order]:
    threats = _threats(view)
    f = view.figure(figure_id)
    options = Tactician("americans", 0)._move_options(view, f, threats,
                                                      _contacts(view, threats))
    return [o if isinstance(o, Order) else o() for o, _ in options]


def test_the_gun_endangers_the_ground_it_sees_and_no_other() -> None:
    _, view = _farm()
    graph = cell_graph(view.sight)
    fire = danger(view.sight, graph, [(GUN, WeaponName.HMG)])
    track = graph.cell(Position(22.5, 10.5))  # the sunken track, below the window
    west = graph.cell(Position(5.5, 5.5))  # the west field, beyond the window's sight
    assert fire[track] > 0.5
    assert fire[west] == 0.0


def test_the_approach_is_planned_only_against_a_known_fixed_gun_in_the_objective() -> None:
    _, view = _farm()
    assert any(s.kind == WeaponName.HMG for _, s in view.enemies)  # seen from the start
    assert Tactician("americans", 0)._approach_plan(view, _threats(view)) is not None
    corner = Game(load_scenario("corner-shop"), 0)
    side = corner.scenario.side_names[0]
    seen = corner.observe(side)
    assert Tactician(side, 0)._approach_plan(seen, _threats(seen)) is None  # an LMG only


def test_a_bound_ends_out_of_the_guns_sight_when_it_can() -> None:
    """From the start line, in the gun's sight, a figure runs to ground it cannot see;
    one already out of its sight stays out of it."""
    _, view = _farm()
    plan = _plan(view)
    for start in (Position(34, 2), Position(8, 2)):
        route = bound(plan, start, [])
        assert route is not None
        walked = sum(Position(*a).distance(Position(*b)) for a, b in pairwise(route))
        assert walked + start.distance(Position(*route[0])) <= 9.0
        assert plan.danger[plan.graph.cell(Position(*route[-1]))] == 0.0


def test_a_bound_keeps_clear_of_a_friend() -> None:
    _, view = _farm()
    plan = _plan(view)
    route = bound(plan, Position(8, 2), [])
    assert route is not None
    end = Position(*route[-1])
    other = bound(plan, Position(8, 2), [end])
    assert other is not None and Position(*other[-1]).distance(end) > 0.25


def test_posts_watch_the_doors_early_and_are_given_up_later() -> None:
    _, view = _farm(turn=POST_TURNS)
    plan = _plan(view)
    posts = plan.post > 0
    assert posts.any()
    assert (plan.danger[posts] < 0.1).all()
    player = Tactician("americans", 0)
    _plan(view, player)
    _, later = _farm(turn=POST_TURNS + 1)
    assert (_plan(later, player).post == 0).all()  # made again, news or not


def _at_the_door(turn: int) -> list[Order]:
    """Novak alone a few steps from the farmhouse door, out of the gun's sight, the rest
    of the squad on the start line: his options."""
    game, _ = _farm(turn)
    put(game, "novak", 14.5, 32.5)
    view = game.observe("americans")
    graph = cell_graph(view.sight)
    gun = danger(view.sight, graph, [(GUN, WeaponName.HMG)])
    assert gun[graph.cell(view.figure("novak").pos)] == 0.0
    return _options(view, "novak")


def test_a_figure_alone_at_the_door_does_not_go_in() -> None:
    """Alone, out of the gun's sight near the objective, a figure does not enter it: one
    at a time the defenders inside shoot them down one at a time."""
    for order in _at_the_door(turn=12 - STORM_TURNS - 1):
        to = order.params.get("path", [[0, 0]])[-1]
        assert order.kind != "move" or Position(*to).distance(Position(19.5, 35)) > 1.5


def test_the_attack_closes_in_at_a_walk_when_the_turns_run_short() -> None:
    """Storming, a figure goes in at a walk (one that walks in may still fight): from
    more than a walk off the door, it walks nearer."""
    orders = _at_the_door(turn=12 - STORM_TURNS)
    routes = [o.params["path"] for o in orders if o.kind == "move" and "path" in o.params]
    assert routes
    _, view = _farm()
    assert view.goal is not None
    start = Position(14.5, 32.5)
    walked = start.distance(Position(*routes[0][0])) + sum(
        Position(*a).distance(Position(*b)) for a, b in pairwise(routes[0]))
    assert walked <= 5.0
    assert view.goal.distance(Position(*routes[0][-1])) < view.goal.distance(start)


def test_the_cells_a_place_sees_are_the_sight_engine_s_and_kept_read_only() -> None:
    _, view = _farm()
    graph = cell_graph(view.sight)
    for place in (GUN, Position(22.5, 10.5), Position(5.5, 5.5, None, 0)):
        kept = seen_cells(view.sight, place, graph)
        assert (kept == view.sight.visible_row(place, graph.places)).all()
        assert kept.any() and not kept.all()
        assert seen_cells(view.sight, place, graph) is kept
        assert not kept.flags.writeable


def test_an_approach_is_worked_out_again_only_for_other_fire_or_posts() -> None:
    _, view = _farm()
    assert view.goal is not None
    player = Tactician("americans", 0)
    graph = cell_graph(view.sight)
    fire = danger(view.sight, graph, [(GUN, WeaponName.HMG)])
    posts = fire * 0.0
    first = player._planned(graph, view.goal, fire, posts)
    assert first.cost == approach(graph, view.goal, fire, posts).cost
    assert player._planned(graph, view.goal, fire.copy(), posts.copy()) is first
    calmer = fire * 0.5
    other = player._planned(graph, view.goal, calmer, posts)
    assert other is not first
    assert other.cost == approach(graph, view.goal, calmer, posts).cost
    assert other.cost != first.cost


def _walk_costs_reference(graph: CellGraph, inside: list[bool],
                          weight: list[float]) -> list[float]:
    """`approach`'s Dijkstra written plainly over `graph.into`."""
    cost = [inf] * len(graph.positions)
    heap = [(0.0, k) for k in range(len(cost)) if inside[k]]
    for _, k in heap:
        cost[k] = 0.0
    heapq.heapify(heap)
    while heap:
        d, k = heapq.heappop(heap)
        if d > cost[k]:
            continue
        for m, length in graph.into[k]:
            nd = d + length * 0.5 * (weight[m] + weight[k])
            if nd < cost[m]:
                cost[m] = nd
                heapq.heappush(heap, (nd, m))
    return cost


def test_the_compiled_approach_costs_are_the_plain_dijkstra_s_to_the_last_bit() -> None:
    _, view = _farm()
    assert view.goal is not None
    graph = cell_graph(view.sight)
    inside = (view.goal.distances(graph.places) == 0.0).tolist()
    for guns in ([], [(GUN, WeaponName.HMG)], [(GUN, WeaponName.HMG),
                                                (Position(40.5, 20.5), WeaponName.LMG)]):
        fire = danger(view.sight, graph, guns)
        expected = _walk_costs_reference(graph, inside, (1.0 + SIGHT_COST * fire).tolist())
        found = approach(graph, view.goal, fire, fire * 0.0).cost
        assert found == expected
        assert any(c == inf for c in found) or min(found) == 0.0
