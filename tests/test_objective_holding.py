"""Who holds each objective as one side knows it (session/holding.py), read from the side's
view alone: its own troops are known, an enemy only in sight (or where last seen). A hold
objective is the side's when its troops are there and the enemy's are not, so a place with
troops of both in sight is contested and one without the side's troops or a seen enemy is
nobody's that the side knows of."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fibua.core.game import Game
from fibua.scenario.loader import load_scenario
from fibua.server.maplayer import public_layer, side_layer
from fibua.session.holding import Holding, ObjectiveStatus, final_panel, objective_panel
from fibua.session.objectives import objective_marks

SHOP = "epicerie-shop"


@pytest.fixture(scope="module")
def corner_shop() -> tuple[Any, dict[str, Any]]:
    """The corner shop at the start, as the British see it: Lindner's LMG upstairs in the
    shop, in sight."""
    scenario = load_scenario("corner-shop")
    view = Game(scenario, 1).view("british")
    assert [e["section"] for e in view["enemies"] if e["visible_now"]] == [SHOP]
    return scenario, view


def shop(scenario: Any, view: dict[str, Any]) -> ObjectiveStatus:
    return objective_panel(scenario, "british", view)[0]


def test_an_enemy_in_sight_in_the_shop_holds_it(corner_shop: tuple[Any, dict[str, Any]]) -> None:
    scenario, view = corner_shop
    status = shop(scenario, view)
    assert status.key == "1" and status.name == "Epicerie Lemoine (the corner shop)"
    assert (status.holding, status.holder) == (Holding.ENEMY, "germans")
    assert [(a.side, a.kind, a.points) for a in status.aims] == [
        ("british", "hold", 3), ("germans", "hold", 3)]


def test_an_enemy_out_of_sight_is_only_last_seen_there(
        corner_shop: tuple[Any, dict[str, Any]]) -> None:
    scenario, view = corner_shop
    faded = copy.deepcopy(view)
    for enemy in faded["enemies"]:
        enemy.update(visible_now=False, seen_turn=2)
    status = shop(scenario, faded)
    assert (status.holding, status.holder, status.seen_turn) == (
        Holding.ENEMY_LAST_SEEN, "germans", 2)
    faded["enemies"] = []
    assert shop(scenario, faded).holding is Holding.NOBODY_KNOWN


def test_own_troops_hold_it_alone_or_contest_it_with_an_enemy_in_sight(
        corner_shop: tuple[Any, dict[str, Any]]) -> None:
    scenario, view = corner_shop
    inside = copy.deepcopy(view)
    inside["own"][0]["section"] = SHOP
    assert shop(scenario, inside).holding is Holding.CONTESTED
    alone = copy.deepcopy(inside)
    alone["enemies"] = []
    assert (shop(scenario, alone).holding, shop(scenario, alone).holder) == (
        Holding.YOURS, "british")
    # a casualty holds nothing
    alone["own"][0]["status"] = "casualty"
    assert shop(scenario, alone).holding is Holding.NOBODY_KNOWN
    # a fallen enemy holds nothing either
    fallen = copy.deepcopy(view)
    fallen["enemies"][0]["alive"] = False
    assert shop(scenario, fallen).holding is Holding.NOBODY_KNOWN


def test_a_zone_is_held_by_standing_in_it() -> None:
    """Anti-tank screen: the British are to reach the area past the German screen."""
    scenario = load_scenario("anti-tank-screen")
    side = scenario.victory[0].side
    view = copy.deepcopy(Game(scenario, 1).view(side))
    zone = next(o for o in objective_panel(scenario, side, view) if "area" in o.name)
    assert zone.holding is Holding.NOBODY_KNOWN
    spec = scenario.victory[0]
    assert spec.zone is not None
    xs, ys = [p[0] for p in spec.zone], [p[1] for p in spec.zone]
    view["own"][0].update(x=(min(xs) + max(xs)) / 2, y=(min(ys) + max(ys)) / 2, section=None)
    zone = next(o for o in objective_panel(scenario, side, view) if "area" in o.name)
    assert (zone.holding, zone.holder) == (Holding.YOURS, side)


def test_the_panel_keys_are_the_map_s_and_a_spectator_is_told_no_holder() -> None:
    scenario = load_scenario("village-street")
    marks = [m.key for m in objective_marks(scenario)]
    public = public_layer(scenario)["objectives"]
    assert [o["key"] for o in public if o["key"]] == marks == ["1", "2", "3"]
    assert {o["holding"] for o in public} == {Holding.UNKNOWN.value}
    corner = load_scenario("corner-shop")
    kinds = [(o["key"], o["holding"]) for o in public_layer(corner)["objectives"]]
    assert kinds == [("1", "unknown"), ("", "no-place"), ("", "no-place")]


def test_a_seat_s_layer_carries_its_side_s_holdings(
        corner_shop: tuple[Any, dict[str, Any]]) -> None:
    scenario, view = corner_shop
    layer = side_layer(scenario, view, [])
    assert layer["objectives"][0]["holding"] == "enemy"
    assert layer["objectives"][0]["holder"] == "germans"


def test_once_over_every_side_s_troops_tell_who_holds_it() -> None:
    """At the end each side's troops are everyone's: the shop is the Germans' while only
    they are in it, contested once the British are in too."""
    scenario = load_scenario("corner-shop")
    game = Game(scenario, 1)
    views = {side: copy.deepcopy(game.view(side)) for side in scenario.side_names}
    first = final_panel(scenario, views)[0]
    assert (first.holding, first.holder) == (Holding.HELD, "germans")
    views["british"]["own"][0]["section"] = SHOP
    assert final_panel(scenario, views)[0].holding is Holding.CONTESTED
    for view in views.values():
        for unit in view["own"]:
            unit["section"] = None
    assert final_panel(scenario, views)[0].holding is Holding.NOBODY
