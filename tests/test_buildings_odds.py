"""Exact Buildings odds against values worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from fibua.cli.odds import _model_input, build_parser
from fibua.core.errors import IllegalOrder
from fibua.rulesets.buildings.odds import (
    ODDS_QUERIES,
    HeQuestion,
    IndirectQuestion,
    ShootQuestion,
    TankAssaultQuestion,
    collapse_chance,
    floor_chances,
    he_odds,
    indirect_odds,
    kills_die,
    shoot_odds,
    tank_assault_chances,
    tank_assault_odds,
)
from fibua.rulesets.buildings.tables import BuildingKind, VehicleKind

F = Fraction


def exact(die: icepool.Die) -> dict[int, Fraction]:
    return {k: F(p) for k, p in zip(die.outcomes(), die.probabilities(), strict=True)}


def test_rifle_at_a_regular_in_hard_cover_at_long_range() -> None:
    # 3+, long range -1, hard cover -2: a 6; a regular is damaged on 4+
    hit, damage, kills = kills_die(ShootQuestion(weapon="rifle", range=20, cover="hard"))
    assert (hit, damage) == (F(1, 6), F(1, 2))
    assert exact(kills) == {0: F(11, 12), 1: F(1, 12)}


def test_ten_rifles_at_a_unit_inside() -> None:
    # inside: hard cover and extra protection, so a 6 to hit and 5+ to damage
    q = ShootQuestion(weapon="rifle", range=20, inside=True, models=10)
    hit, damage, kills = kills_die(q)
    assert (hit, damage) == (F(1, 6), F(1, 3))
    assert exact(kills)[0] == F(17, 18) ** 10
    assert shoot_odds(q).values["expected_kills"] == pytest.approx(float(F(10, 18)))


def test_the_six_then_rule() -> None:
    # long range -1, hard cover -2, one pin -1: 7, so a 6 then a 4+
    seven = ShootQuestion(weapon="rifle", range=20, cover="hard", pins=1)
    assert kills_die(seven)[0] == F(1, 12)
    eight = ShootQuestion(weapon="rifle", range=20, cover="hard", pins=2)
    assert kills_die(eight)[0] == F(1, 18)
    nine = ShootQuestion(weapon="rifle", range=20, cover="hard", pins=3)
    assert kills_die(nine)[0] == F(1, 36)
    ten = ShootQuestion(weapon="rifle", range=20, cover="hard", pins=4)
    assert kills_die(ten)[0] == 0
    assert shoot_odds(ten).values["kills"] == {"0": 1.0}


def test_an_lmg_fires_four_shots_a_model() -> None:
    q = ShootQuestion(weapon="lmg", range=10, quality="veteran")
    hit, damage, kills = kills_die(q)
    assert (hit, damage) == (F(4, 6), F(2, 6))
    assert exact(kills)[4] == (F(2, 9)) ** 4
    assert shoot_odds(q).values["shots"] == 4


def test_small_target_caps_kills() -> None:
    q = ShootQuestion(weapon="smg", range=4, models=5, target_models=2)
    hit, _, kills = kills_die(q)
    assert hit == F(4, 6)  # point blank +1, small team -1
    assert max(kills.outcomes()) == 2


def test_flamethrower_one_roll_then_d6_hits() -> None:
    # point blank +1: 2+ to hit; pen +3 against a regular inside (no extra protection): 2+
    q = ShootQuestion(weapon="flamethrower", range=3, inside=True, cover="bunker")
    hit, damage, kills = kills_die(q)
    assert (hit, damage) == (F(5, 6), F(5, 6))
    assert F(kills.mean()) == F(5, 6) * F(7, 2) * F(5, 6)
    assert exact(kills)[6] == F(5, 6) * F(1, 6) * F(5, 6) ** 6


@pytest.mark.parametrize("q", [
    ShootQuestion(weapon="rifle", range=25),
    ShootQuestion(weapon="light-mortar", range=20),
    ShootQuestion(weapon="mmg", range=20, advanced=True),
])
def test_impossible_shots_are_refused(q: ShootQuestion) -> None:
    with pytest.raises(IllegalOrder):
        shoot_odds(q)


def test_he_collapse_chances() -> None:
    # 3D6 >= 10: 1 - 81/216; bunker 3D6 >= 12: 1 - 135/216; 2D6 >= 10: 6/36
    assert collapse_chance(4, BuildingKind.BRICK) == F(5, 8)
    assert collapse_chance(4, BuildingKind.BUNKER) == F(3, 8)
    assert collapse_chance(3, BuildingKind.WOODEN) == F(1, 6)
    assert collapse_chance(3, BuildingKind.BUNKER) == F(1, 36)
    assert collapse_chance(2, BuildingKind.BRICK) == 0  # D6 never brings one down
    assert he_odds(HeQuestion(size=4, target_in="building")).values["collapse"] == 0.625
    assert he_odds(HeQuestion(size=4, target_in="open", under=3)).values["collapse"] == 0


def test_he_in_a_bunker_kills_nobody() -> None:
    values = he_odds(HeQuestion(size=4, target_in="bunker")).values
    assert values["expected_kills"] == 0 and values["damage"] == 0


def test_he_expected_kills_in_a_building_when_down() -> None:
    # 2" HE: D6 hits, halved rounding up: 1,1,2,2,3,3 -> mean 2; pen +2 at a regular: 2+
    values = he_odds(HeQuestion(size=2, target_in="building", down=True)).values
    assert values["expected_kills"] == pytest.approx(2 * 5 / 6)


@pytest.mark.parametrize(("floors", "chances"), [
    (1, {0: F(1)}),
    (2, {1: F(1, 2), 0: F(1, 2)}),
    (3, {2: F(1, 2), 1: F(1, 4), 0: F(1, 4)}),
    (4, {3: F(1, 2), 2: F(1, 4), 1: F(1, 8), 0: F(1, 8)}),
])
def test_indirect_floors(floors: int, chances: dict[int, Fraction]) -> None:
    assert floor_chances(floors) == chances
    assert sum(floor_chances(floors).values()) == 1
    report = indirect_odds(IndirectQuestion(floors=floors))
    assert report.values["floor"] == {str(k): float(p) for k, p in sorted(chances.items())}


def test_indirect_ranging_odds() -> None:
    assert indirect_odds(IndirectQuestion(floors=1)).values["hit"] == pytest.approx(1 / 6)
    assert indirect_odds(IndirectQuestion(floors=1, earlier=2)).values["to_hit"] == 4
    assert indirect_odds(IndirectQuestion(floors=1, ranged_in=True)).values["to_hit"] == 2


def test_tank_assault_exact() -> None:
    heavy_brick = tank_assault_chances(VehicleKind.HEAVY_TANK, BuildingKind.BRICK)
    # 3D6 at most d+10 for d = 1..6: 135+160+181+196+206+212 out of 1296
    assert heavy_brick["collapse"] == F(1090, 1296)
    assert heavy_brick["tank_wins"] == F(986, 1296)
    assert heavy_brick["tank_damaged"] == 1 - F(986, 1296)
    assert heavy_brick["penetrating_hit"] == 1 - F(1090, 1296)
    assert heavy_brick["knocked_out"] == heavy_brick["penetrating_hit"] / 3
    heavy_wood = tank_assault_chances(VehicleKind.HEAVY_TANK, BuildingKind.WOODEN)
    # only an 11 or 12 on 2D6 against a 1, or a 12 against a 2, troubles the tank
    assert heavy_wood["collapse"] == F(215, 216)
    assert heavy_wood["tank_damaged"] == F(4, 216)
    assert heavy_wood["penetrating_hit"] == 0
    super_brick = tank_assault_chances(VehicleKind.SUPER_HEAVY_TANK, BuildingKind.BRICK)
    assert super_brick["collapse"] == F(1170, 1296)
    report = tank_assault_odds(TankAssaultQuestion(tank="heavy", building="brick"))
    assert report.values["collapse"] == pytest.approx(1090 / 1296)


@pytest.mark.parametrize("building", ["bunker", "strong"])
def test_tank_assault_on_a_bunker_is_refused(building: str) -> None:
    with pytest.raises(IllegalOrder):
        tank_assault_odds(TankAssaultQuestion.model_validate(
            {"tank": "super-heavy", "building": building}))


def test_queries_are_declared() -> None:
    assert set(ODDS_QUERIES) == {"shoot", "he", "tank-assault", "indirect"}
    for query in ODDS_QUERIES.values():
        assert query.params.model_json_schema()["properties"]


@pytest.mark.parametrize(("name", "argv", "key", "value"), [
    ("shoot", ["--weapon", "rifle", "--range", "20", "--cover", "hard", "--pins", "1"],
     "hit", 1 / 12),
    ("he", ["--size", "4", "--target-in", "bunker"], "collapse", 3 / 8),
    ("tank-assault", ["--tank", "heavy", "--building", "wooden"], "tank_damaged", 4 / 216),
    ("indirect", ["--floors", "2"], "hit", 1 / 6),
])
def test_the_cli_reads_each_question(name: str, argv: list[str], key: str,
                                     value: float) -> None:
    query = ODDS_QUERIES[name]
    parser, specs = build_parser("buildings", query)
    params = query.params.model_validate(_model_input(parser.parse_args(argv), specs))
    assert query.compute(params).values[key] == pytest.approx(value)


def test_anti_tank_fire_at_a_vehicle() -> None:
    # long range -1: 4+ to hit; shaped charge keeps +5 against a medium tank's 9: 4+
    front = ShootQuestion(weapon="bazooka", range=20, vehicle="medium-tank")
    hit, damage, pens = kills_die(front)
    assert (hit, damage) == (F(1, 2), F(1, 2))
    assert exact(pens) == {0: F(3, 4), 1: F(1, 4)}
    assert shoot_odds(front).values["knocked_out"] == pytest.approx(1 / 12)
    side = ShootQuestion(weapon="bazooka", range=20, vehicle="medium-tank", facing="side")
    assert kills_die(side)[1] == F(2, 3)
    # an anti-tank rifle loses 1 penetration at long range: +1 against 7, a 6
    rifle = ShootQuestion(weapon="anti-tank-rifle", range=20, vehicle="armoured-car")
    assert kills_die(rifle)[1] == F(1, 6)
    # plunging fire: the top's +1 instead of the front's nothing
    plunge = ShootQuestion(weapon="piat", range=10, vehicle="medium-tank", plunging=True)
    assert kills_die(plunge)[1] == F(2, 3)
    with pytest.raises(IllegalOrder):
        shoot_odds(ShootQuestion(weapon="mmg", range=10, vehicle="medium-tank",
                                 plunging=True))


def test_the_report_gives_the_chance_of_removing_at_least_one() -> None:
    # ten rifles at a unit inside: each model is missed or saved with 17/18, so at least
    # one is removed with 1 - (17/18)^10
    q = ShootQuestion(weapon="rifle", range=20, inside=True, models=10)
    rows = dict(shoot_odds(q).breakdown)
    assert rows["chance of removing at least one"] == f"{float(1 - F(17, 18) ** 10):.2%}"
