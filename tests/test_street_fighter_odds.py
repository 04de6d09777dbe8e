"""Street Fighter odds: hand-worked values, forbidden firings, the command line, and the
odds against the game itself with every face forced."""

from __future__ import annotations

import json
from fractions import Fraction as F
from typing import Any

import pytest
from typer.testing import CliRunner

from fibua.cli.main import app
from fibua.core.errors import IllegalOrder
from fibua.rulesets.street_fighter.odds import (
    AssaultQuestion,
    ShootQuestion,
    SpotQuestion,
    assault_odds,
    shoot_odds,
    spot_odds,
)

runner = CliRunner()


def shoot(**kw: Any) -> dict[str, Any]:
    return shoot_odds(ShootQuestion.model_validate(kw)).values


# (question, score needed, total modifier, chance of a hit), worked by hand: a d10 read
# 0-9 hits when face + modifier >= need, so the chance is (10 - need + modifier) / 10
SHOOT_CASES: list[tuple[dict[str, Any], int, int, F]] = [
    ({"firer": "tank", "range": 30}, 4, 0, F(6, 10)),
    ({"firer": "infantry", "range": 10}, 4, 0, F(6, 10)),
    ({"firer": "infantry", "range": 10.1}, 5, 0, F(5, 10)),
    ({"firer": "infantry", "range": 25.1}, 6, 0, F(4, 10)),
    ({"firer": "mmg", "range": 25}, 4, 0, F(6, 10)),
    ({"firer": "mmg", "range": 26}, 5, 0, F(5, 10)),
    ({"firer": "direct-mortar", "range": 11}, 5, 0, F(5, 10)),
    ({"firer": "sniper", "range": 25}, 8, 0, F(2, 10)),
    ({"firer": "sniper", "range": 25.5}, 9, 0, F(1, 10)),
    ({"firer": "at-gun", "range": 50}, 4, 0, F(6, 10)),
    ({"firer": "rocket", "range": 10}, 5, 0, F(5, 10)),
    ({"firer": "rocket", "range": 5, "target": "armoured-halftrack"}, 5, 0, F(5, 10)),
    ({"firer": "rocket", "range": 5, "target": "lorry", "firer_pinned": True}, 5, -2,
     F(3, 10)),
    ({"firer": "infantry", "range": 5, "firer_moved": True}, 4, -4, F(2, 10)),
    ({"firer": "infantry", "range": 5, "target_flat_out": True}, 4, -1, F(5, 10)),
    ({"firer": "infantry", "range": 5, "firer_pinned": True}, 4, -2, F(4, 10)),
    ({"firer": "tank", "range": 5, "target": "building"}, 4, -4, F(2, 10)),
    ({"firer": "tank", "range": 5, "target": "strong-building"}, 4, -5, F(1, 10)),
    ({"firer": "mmg", "range": 5, "target": "armoured-halftrack"}, 4, -2, F(4, 10)),
    ({"firer": "infantry", "range": 30, "target": "lorry"}, 6, 1, F(5, 10)),
    ({"firer": "sniper", "range": 30, "target": "building", "firer_moved": True}, 9, -8, F(0)),
    ({"firer": "tank", "range": 1, "target": "lorry"}, 4, 1, F(7, 10)),
]


@pytest.mark.parametrize(("question", "need", "total", "chance"), SHOOT_CASES)
def test_shoot_odds_by_hand(question: dict[str, Any], need: int, total: int,
                            chance: F) -> None:
    values = shoot(**question)
    assert values["need"] == need and values["total_modifier"] == total
    assert values["hit"] == float(chance) and values["hit_fraction"] == str(chance)


@pytest.mark.parametrize(("question", "says"), [
    ({"firer": "direct-mortar", "range": 10}, "10 cm or less"),
    ({"firer": "direct-mortar", "range": 0}, "10 cm or less"),
    ({"firer": "rocket", "range": 10.01}, "10 cm at most"),
    ({"firer": "rocket", "range": 5, "target": "building"}, "vehicles only"),
    ({"firer": "rocket", "range": 5, "target": "strong-building"}, "vehicles only"),
])
def test_forbidden_firings_say_why(question: dict[str, Any], says: str) -> None:
    with pytest.raises(IllegalOrder) as caught:
        shoot(**question)
    assert says in caught.value.reason


@pytest.mark.parametrize(("target", "observing", "distance", "chance"), [
    ("infantry-hidden", True, 1, F(0)),
    ("infantry-open", True, 25, F(1)),
    ("infantry-open", True, 26, F(5, 10)),
    ("infantry-open", False, 11, F(3, 10)),
    ("infantry-firing-cover", False, 10, F(5, 10)),
    ("infantry-firing-cover", False, 11, F(2, 10)),
    ("sniper-firing-cover", True, 25, F(3, 10)),
    ("sniper-firing-cover", True, 25.5, F(0)),
    ("infantry-firing-open", False, 30, F(5, 10)),
    ("vehicle-stationary", True, 30, F(8, 10)),
    ("vehicle-moving", False, 26, F(8, 10)),
    ("vehicle-firing", False, 99, F(1)),
])
def test_spot_odds(target: str, observing: bool, distance: float, chance: F) -> None:
    q = SpotQuestion.model_validate({"target": target, "observing": observing,
                                     "range": distance})
    assert spot_odds(q).values["visible"] == float(chance)


@pytest.mark.parametrize(("points", "chance"), [(0, F(3, 10)), (9, F(3, 10)), (10, F(4, 10)),
                                                (26, F(5, 10)), (70, F(1)), (99, F(1))])
def test_assault_odds(points: int, chance: F) -> None:
    values = assault_odds(AssaultQuestion(points=points, enemy_points=8)).values
    assert values["hit"] == float(chance) and values["hit_taken"] == 0.3


@pytest.mark.parametrize(("points", "bonus"), [(0, 0), (9, 0), (10, 1), (26, 2), (35, 3)])
def test_the_assault_bonus_shown_is_one_per_full_ten_points(points: int, bonus: int) -> None:
    # the seed: the assault die is a d10 plus one for each 10 points on the assaulting side
    report = assault_odds(AssaultQuestion(points=points))
    assert report.values["bonus"] == bonus
    assert dict(report.breakdown)["bonus"] == f"+{bonus} (1 per full 10 points)"


def test_the_command_line() -> None:
    result = runner.invoke(app, ["odds", "street-fighter", "shoot", "--firer", "infantry",
                                 "--range", "12", "--firer-moved", "--target", "open",
                                 "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["hit"] == 0.1
    result = runner.invoke(app, ["odds", "street-fighter", "shoot", "--firer", "direct-mortar",
                                 "--range", "8"])
    assert result.exit_code == 2 and "10 cm or less" in result.stderr
    result = runner.invoke(app, ["odds", "street-fighter", "shoot", "--firer", "rocket",
                                 "--range", "11", "--json"])
    assert result.exit_code == 2 and "10 cm at most" in result.stderr
    result = runner.invoke(app, ["odds", "street-fighter", "shoot", "--firer", "rocket",
                                 "--range", "5", "--target", "building", "--json"])
    assert result.exit_code == 2 and "fired at vehicles only" in result.stderr
    assert not result.stdout
    result = runner.invoke(app, ["odds", "street-fighter", "spot", "--target",
                                 "vehicle-stationary", "--range", "30", "--observing", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["visible"] == 0.8
    result = runner.invoke(app, ["odds", "street-fighter", "assault", "--points", "24",
                                 "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["hit"] == 0.5


def test_the_game_agrees_with_the_odds_over_every_face() -> None:
    """Force each face in turn through a real firing and count the hits."""
    from fibua.core.orders import Order
    from sfr_helpers import forced_game, make_scenario, unit

    scenario = make_scenario([unit("b1", "mmg-section", (75, 25))],
                             [unit("r1", "infantry-section", (75, 40))])
    hits = 0
    for face in range(10):
        game = forced_game(scenario, [9, 0, face])
        game.state.units["b1"].pinned = True
        events = game.apply(Order("blue", "shoot", "b1", {"target": "r1"}))
        hits += sum(1 for e in events if e.kind == "shot" and e.data["hit"])
    assert F(hits, 10) == F(str(shoot(firer="mmg", range=15, firer_pinned=True)["hit"]))


#: rulings.md: "under X" includes X where the row's other band begins "over X", so that
#: every range falls in one band: (row, observing, edge, chance at the edge, just over)
UNDER_X_INCLUDES_X = [
    ("sniper-firing-cover", True, 25, F(3, 10), F(0)),  # 7+ under 25; never over 25
    ("sniper-firing-cover", False, 10, F(3, 10), F(0)),  # 7+ under 10; never over 10
    ("vehicle-stationary", True, 25, F(1), F(8, 10)),  # visible under 25; 2+ over 25
    ("vehicle-stationary", False, 10, F(1), F(8, 10)),  # visible under 10; 2+ over 10
]


@pytest.mark.parametrize(("target", "observing", "edge", "at", "over"), UNDER_X_INCLUDES_X)
def test_spot_band_edges_fall_in_the_under_band(target: str, observing: bool, edge: float,
                                                at: F, over: F) -> None:
    for distance, chance in ((edge, at), (edge + 0.01, over)):
        q = SpotQuestion.model_validate({"target": target, "observing": observing,
                                         "range": distance})
        assert spot_odds(q).values["visible"] == float(chance)
        args = ["odds", "street-fighter", "spot", "--target", target, "--range",
                str(distance), "--json", *(["--observing"] if observing else [])]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["visible"] == float(chance)


def test_a_move_fire_preview_measures_from_where_the_move_ends() -> None:
    """12 cm away the Infantry row needs 5+; after the half move (2.5 cm) it is 9.5 cm
    and needs 4+: with the -4 for moving, a face of 8 or 9, 20% (from where it stands it
    would be 10%)."""
    from fibua.core.orders import Order
    from sfr_helpers import forced_game, make_scenario, unit

    scenario = make_scenario([unit("b1", "infantry-section", (75, 25))],
                             [unit("r1", "infantry-section", (75, 37))])
    game = forced_game(scenario, [9, 0, 8])
    order = Order("blue", "move-fire", "b1", {"to": [75, 27.5], "target": "r1"})
    preview = game.ruleset.preview(game.state, order)
    assert "from (75, 27.5)" in preview and "range 9.5 cm" in preview
    assert "needs 4+ with -4: 20% to hit" in preview
    still = game.ruleset.preview(game.state, Order("blue", "shoot", "b1", {"target": "r1"}))
    assert "range 12.0 cm, needs 5+ with +0: 50%" in still
    (shot,) = [e.data for e in game.apply(order) if e.kind == "shot"]
    assert shot["range"] == 9.5 and shot["roll"]["need"] == 4 and shot["hit"]
