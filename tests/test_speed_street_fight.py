"""What the Street-Fight computer keeps to spare work (the walks from a place, the fire
of a gun, the plan under it) answers as if worked out afresh, and starts again where it
must: farm-compound, whose farmhouse an MG 42 watches."""

from __future__ import annotations

import heapq
from math import hypot, inf

import numpy as np

from fibua.battlefield.model import Position
from fibua.core.game import Game
from fibua.rulesets.street_fight.ai import Tactician, _threats
from fibua.rulesets.street_fight.ai_approach import (
    REACH,
    CellGraph,
    WalksKept,
    bound,
    cell_graph,
    danger,
    walked_cells,
    walks,
)
from fibua.rulesets.street_fight.tables import WeaponName
from fibua.rulesets.street_fight.views import SideView
from fibua.scenario.loader import load_scenario

GUN = Position(19.5, 35.3, "farmhouse", 1)  # Franke's MG 42, at the upstairs window


def _view() -> SideView:
    return Game(load_scenario("farm-compound"), 0).observe("americans")


def _plain_walks(graph: CellGraph, pos: Position, reach: float
                 ) -> tuple[dict[int, float], dict[int, int]]:
    """The walk search as it was first written, in Python over `graph.out`."""
    start = graph.cell(pos)
    here = graph.positions[start]
    walked = {start: hypot(pos.x - here.x, pos.y - here.y)}
    came: dict[int, int] = {}
    heap = [(walked[start], start)]
    while heap:
        d, k = heapq.heappop(heap)
        if d > walked[k]:
            continue
        for m, length in graph.out[k]:
            nd = d + length
            if nd <= reach and nd < walked.get(m, inf):
                walked[m] = nd
                came[m] = k
                heapq.heappush(heap, (nd, m))
    return walked, came


def test_the_compiled_walks_are_the_plain_ones_to_the_bit_and_in_order() -> None:
    graph = cell_graph(_view().sight)
    for pos in (Position(10.3, 2.7), Position(19.5, 20.05), Position(40.9, 33.3)):
        for reach in (REACH, 4.95):
            walked, came = walks(graph, pos, reach)
            plain_walked, plain_came = _plain_walks(graph, pos, reach)
            assert list(walked.items()) == list(plain_walked.items())
            assert came == plain_came


def test_kept_walks_are_the_walks_and_start_again_on_another_graph() -> None:
    graph = cell_graph(_view().sight)
    kept = WalksKept()
    pos = Position(10.3, 2.7)
    first = walked_cells(graph, pos, REACH, kept)
    assert walked_cells(graph, pos, REACH, kept) is first  # kept
    fresh = walked_cells(graph, pos, REACH)
    for a, b in zip(first, fresh, strict=True):
        assert np.array_equal(a, b)
        assert not a.flags.writeable  # shared: nobody may change them
    assert walked_cells(graph, pos, 4.95, kept) is not first  # the reach is in the key
    other = CellGraph(graph.nx, graph.ny, graph.positions, graph.places, graph.into,
                      graph.out, graph.into_start, graph.into_cell, graph.into_length,
                      graph.out_start, graph.out_cell, graph.out_length)
    assert walked_cells(other, pos, REACH, kept) is not first
    assert kept.graph is other and len(kept.found) == 1


def test_a_bound_is_the_same_with_kept_walks() -> None:
    view = _view()
    plan = Tactician("americans", 0)._approach_plan(view, _threats(view))
    assert plan is not None
    kept = WalksKept()
    for pos in (Position(8, 2), Position(12.5, 6.5), Position(30.2, 10.1)):
        alone = bound(plan, pos, [])
        assert bound(plan, pos, [], kept=kept) == alone
        assert bound(plan, pos, [], kept=kept) == alone


def test_the_fire_of_kept_guns_is_the_fire_worked_out_afresh() -> None:
    view = _view()
    graph = cell_graph(view.sight)
    guns = [(GUN, WeaponName.HMG), (Position(21.0, 33.0, "farmhouse", 0), WeaponName.RIFLE)]
    first = danger(view.sight, graph, guns)
    again = danger(view.sight, graph, guns, {})
    assert np.array_equal(first, again)
    alone = danger(view.sight, graph, guns[:1])
    assert not np.array_equal(first, alone)  # each gun's own share, not the last set's


def test_a_plan_is_kept_until_a_defender_seen_inside_moves() -> None:
    view = _view()
    player = Tactician("americans", 0)
    threats = _threats(view)
    first = player._approach_plan(view, threats)
    player._approach = None  # as after news that left the guns where they were
    assert player._approach_plan(view, threats) is first
    assert len(player._plans_kept) == 1
