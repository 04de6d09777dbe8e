"""The Street-Fight computer's fear of openings it has not looked into (ai_suspect): in
farm-compound, the cart shed's window watches the east field before any German shows."""

from __future__ import annotations

import pytest

from fibua.battlefield.model import Position
from fibua.core.game import Game
from fibua.rulesets.street_fight import ai
from fibua.rulesets.street_fight.ai import Tactician, _threats
from fibua.rulesets.street_fight.ai_approach import bound, cell_graph
from fibua.rulesets.street_fight.ai_suspect import feared, openings_inside, suspect_sections
from fibua.rulesets.street_fight.views import SideView
from fibua.scenario.loader import load_scenario

SHED_SIGHT = Position(35.5, 10.5)  # the east field gate, in sight of the cart shed window
WEST = Position(5.5, 5.5)  # the west field, in sight of no building


def _view(turn: int) -> SideView:
    game = Game(load_scenario("farm-compound"), 0)
    game.state.turn = turn
    found: SideView = game.observe("americans")
    return found


def test_a_place_just_inside_each_opening_lies_in_its_section() -> None:
    view = _view(1)
    shed = view.sight.battlefield.section("cart-shed")
    places = list(openings_inside(shed))
    assert len(places) == len(shed.openings)
    assert all(view.sight.section_at(p.point) == "cart-shed" for p in places)


def test_the_buildings_near_the_enemy_are_suspected() -> None:
    view = _view(1)
    assert view.enemy_zone is not None
    assert "cart-shed" in suspect_sections(view.sight, view.enemy_zone)
    assert suspect_sections(view.sight, Position(100, 100)) == ()


def test_the_shed_window_is_feared_and_open_fields_are_not() -> None:
    view = _view(1)
    graph = cell_graph(view.sight)
    fear = feared(view.sight, graph, ("cart-shed",))
    assert fear[graph.cell(SHED_SIGHT)] > 0.3
    assert fear[graph.cell(WEST)] == 0.0


def test_the_first_bounds_keep_out_of_the_feared_windows_and_later_ones_need_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "SUSPECT_TURNS", 2)
    early = Tactician("americans", 0)._approach_plan(_view(1), _threats(_view(1)))
    assert early is not None
    assert early.danger[early.graph.cell(SHED_SIGHT)] > 0.3
    route = bound(early, Position(34, 2), [])
    assert route is not None
    assert early.danger[early.graph.cell(Position(*route[-1]))] < 0.05
    late_view = _view(3)
    late = Tactician("americans", 0)._approach_plan(late_view, _threats(late_view))
    assert late is not None
    assert late.danger[late.graph.cell(SHED_SIGHT)] == 0.0
