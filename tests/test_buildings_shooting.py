"""Buildings procedures with forced dice: to hit, damage, order tests, HE in buildings,
indirect fire, flamethrowers, vehicle damage, tanks driving into buildings, observers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fibua.core.dice import ForcedDice
from fibua.core.errors import DiceExhausted, IllegalOrder
from fibua.rulesets.buildings.blast import (
    burst_floor,
    collapses,
    collapses_total,
    fire_roll,
    flame_hits,
    flame_pins,
    halved,
    he_in_building,
    he_in_open,
    indirect_need,
    roll_indirect,
)
from fibua.rulesets.buildings.forces import Options
from fibua.rulesets.buildings.morale import (
    half_strength,
    kept_down,
    morale_test,
    order_need,
    order_test,
    pass_chance,
    rally,
    routs,
)
from fibua.rulesets.buildings.observers import roll_barrage, roll_strike
from fibua.rulesets.buildings.shooting import (
    Hit,
    Shot,
    Target,
    chance_for_target,
    cover_inside,
    damage_chance,
    damage_need,
    hit_modifiers,
    hit_of,
    hit_target,
    roll_damage,
    roll_to_hit,
)
from fibua.rulesets.buildings.tables import (
    BarrageResult,
    BuildingKind,
    Cover,
    Facing,
    Quality,
    StrikeResult,
    VehicleKind,
    VehicleResult,
    WeaponName,
)
from fibua.rulesets.buildings.vehicles import (
    TankAssaultOutcome,
    chart_result,
    roll_superficial,
    tank_assault,
)

OPTIONS = Options()


def dice(*faces: int) -> ForcedDice:
    return ForcedDice(seed=0, faces=list(faces))


# --- to hit -------------------------------------------------------------------------------

def test_plain_shot_needs_three() -> None:
    assert hit_target(Shot(WeaponName.RIFLE, 10)) == 3


def test_every_named_modifier() -> None:
    shot = Shot(WeaponName.LMG, 30, Quality.INEXPERIENCED, firer_pins=2, advanced=True,
                one_crew=True, target_models=2, cover=Cover.SOFT, target_down=True)
    names = {m.name: m.value for m in hit_modifiers(shot)}
    assert names == {"long range": -1, "advanced": -1, "pins (2)": -2, "inexperienced": -1,
                     "team down to one": -1, "small team": -1, "soft cover": -1,
                     "target down": -2}
    assert hit_target(shot) == 3 + 10


def test_point_blank_and_assault_weapons_on_the_move() -> None:
    shot = Shot(WeaponName.SMG, 6, advanced=True)
    assert {m.name: m.value for m in hit_modifiers(shot)} == {"point blank": 1}
    assert hit_target(shot) == 2


def test_point_blank_and_long_range_both_count() -> None:
    names = {m.name for m in hit_modifiers(Shot(WeaponName.PISTOL, 4))}
    assert names == {"point blank", "long range"}
    assert hit_target(Shot(WeaponName.FLAMETHROWER, 5)) == 3


def test_long_range_is_over_half_the_range() -> None:
    assert hit_target(Shot(WeaponName.RIFLE, 12)) == 3
    assert hit_target(Shot(WeaponName.RIFLE, 12.5)) == 4


def test_cover_in_buildings_and_bunkers() -> None:
    assert cover_inside(BuildingKind.BRICK) is Cover.HARD
    assert cover_inside(BuildingKind.BUNKER) is Cover.BUNKER
    assert hit_target(Shot(WeaponName.RIFLE, 10, cover=Cover.BUNKER)) == 7
    # flamethrowers ignore cover; HE at a building ignores cover but not Down
    assert hit_target(Shot(WeaponName.FLAMETHROWER, 3, cover=Cover.BUNKER)) == 2
    he = Shot(WeaponName.LIGHT_HOWITZER, 30, cover=Cover.HARD, target_down=True,
              he_at_building=True)
    assert hit_target(he) == 3 + 1 + 2


def test_six_then_rule_chances() -> None:
    assert chance_for_target(1) == Fraction(5, 6)  # a natural 1 still misses
    assert chance_for_target(3) == Fraction(4, 6)
    assert chance_for_target(6) == Fraction(1, 6)
    assert chance_for_target(7) == Fraction(1, 6) * Fraction(3, 6)
    assert chance_for_target(8) == Fraction(1, 6) * Fraction(2, 6)
    assert chance_for_target(9) == Fraction(1, 36)
    assert chance_for_target(10) == 0


def test_natural_one_misses_however_easy() -> None:
    shot = Shot(WeaponName.SMG, 3)  # point blank: needs 2
    assert not roll_to_hit(dice(1), shot).hit
    assert roll_to_hit(dice(2), shot).hit


def test_a_seven_needs_a_six_then_four() -> None:
    shot = Shot(WeaponName.RIFLE, 20, cover=Cover.HARD, target_down=False, firer_pins=1)
    assert hit_target(shot) == 7
    made = roll_to_hit(dice(6, 4), shot)
    assert made.hit and [r.need for r in made.rolls] == [6, 4]
    assert not roll_to_hit(dice(6, 3), shot).hit
    missed = roll_to_hit(dice(5), shot)  # no second die after a miss
    assert not missed.hit and len(missed.rolls) == 1


def test_ten_or_more_cannot_hit_and_rolls_nothing() -> None:
    shot = Shot(WeaponName.RIFLE, 20, cover=Cover.BUNKER, target_down=True)
    assert hit_target(shot) >= 10
    assert roll_to_hit(dice(), shot).rolls == ()


def test_the_to_hit_record_names_its_terms() -> None:
    made = roll_to_hit(dice(4), Shot(WeaponName.RIFLE, 20, cover=Cover.HARD))
    roll = made.rolls[0]
    assert roll.need == 6 and not roll.success
    assert [(m.name, m.value) for m in roll.basis] == [
        ("base", 3), ("long range", 1), ("hard cover", 2)]


# --- damage -------------------------------------------------------------------------------

def test_infantry_damage_by_quality_and_protection() -> None:
    rifle = Hit(0)
    assert damage_need(rifle, Target(Quality.INEXPERIENCED)) == 3
    assert damage_need(rifle, Target(Quality.REGULAR)) == 4
    assert damage_need(rifle, Target(Quality.VETERAN, inside=True)) == 6
    # HE, flamethrowers and close quarters ignore extra protection
    assert damage_need(Hit(2, he=True), Target(Quality.VETERAN, inside=True)) == 3
    assert damage_need(Hit(0, close_quarters=True), Target(Quality.VETERAN, inside=True)) == 5


def test_naturals_for_troops() -> None:
    veteran_inside = Target(Quality.VETERAN, inside=True)
    assert damage_need(Hit(0), veteran_inside) == 6  # 5 + 1 = 6
    assert damage_need(Hit(-3), veteran_inside) == 6  # a natural 6 always
    assert damage_need(Hit(7), Target(Quality.INEXPERIENCED)) == 2  # a natural 1 never
    assert not roll_damage(dice(1), Hit(7), Target(Quality.INEXPERIENCED)).success
    assert roll_damage(dice(6), Hit(-3), veteran_inside).success


def test_gun_shield_from_the_front_only_in_the_open() -> None:
    crew = Target(Quality.REGULAR, behind_shield=True)
    assert damage_need(Hit(0), crew) == 5
    assert damage_need(Hit(2, he=True), crew) == 2
    assert damage_need(Hit(0), Target(Quality.REGULAR, inside=True, behind_shield=True)) == 5


def test_vehicle_damage_with_facing_and_long_range() -> None:
    medium = Target(None, VehicleKind.MEDIUM_TANK)
    assert damage_need(Hit(5), medium) == 4
    assert damage_need(Hit(5, facing=Facing.REAR), medium) == 2
    assert damage_need(Hit(5, long_range=True), medium) == 5
    assert damage_need(Hit(5, shaped=True, long_range=True), medium) == 4
    assert damage_need(Hit(0), Target(None, VehicleKind.SUPER_HEAVY_TANK)) is None
    assert damage_chance(Hit(0), Target(None, VehicleKind.SUPER_HEAVY_TANK)) == 0
    # a rifle cannot hurt a heavy tank: rolled, and failed, whatever the face
    assert not roll_damage(dice(6), Hit(0), Target(None, VehicleKind.HEAVY_TANK)).success


def test_plunging_fire_takes_the_better_bonus_never_both() -> None:
    heavy = Target(None, VehicleKind.HEAVY_TANK)
    assert damage_need(Hit(6, plunging=True), heavy) == 3  # top +1
    assert damage_need(Hit(6, plunging=True, facing=Facing.REAR), heavy) == 2  # rear +2
    assert damage_need(Hit(6, plunging=True, facing=Facing.SIDE), heavy) == 3  # +1 once


def test_hit_of_weapons() -> None:
    assert hit_of(WeaponName.BAZOOKA, 20).shaped
    assert hit_of(WeaponName.RIFLE, 20).long_range
    assert hit_of(WeaponName.HEAVY_HOWITZER, 20) == Hit(4, he=True)
    assert hit_of(WeaponName.MEDIUM_GUN, 20, he=True).pen == 1
    with pytest.raises(ValueError, match="no HE"):
        hit_of(WeaponName.RIFLE, 5, he=True)


# --- order test and morale -----------------------------------------------------------------

def test_order_need_is_clamped() -> None:
    assert order_need(Quality.REGULAR, 0) == 9
    assert order_need(Quality.VETERAN, 0) == 10
    assert order_need(Quality.INEXPERIENCED, 7) == 2
    assert order_need(Quality.VETERAN, -5) == 11


def test_the_chance_of_passing_an_order_test_counts_the_36_throws() -> None:
    # a regular unit (morale 9) with 3 pins needs 6 or less: 15 of the 36 throws
    assert pass_chance(order_need(Quality.REGULAR, 3)) == Fraction(15, 36)
    assert pass_chance(2) == Fraction(1, 36)  # the clamp: only a double 1
    assert pass_chance(11) == Fraction(35, 36)  # everything but a double 6


def test_double_one_passes_double_six_blunders() -> None:
    assert order_test(dice(1, 1), Quality.INEXPERIENCED, 7).passed
    worst = order_test(dice(6, 6), Quality.VETERAN, 0)
    assert not worst.passed and worst.blunder
    assert order_test(dice(4, 4), Quality.REGULAR, 1).passed  # 8 <= 9 - 1
    assert not order_test(dice(4, 5), Quality.REGULAR, 1).passed
    assert not morale_test(dice(6, 6), Quality.VETERAN, 0).blunder


def test_rout_rally_and_half_strength() -> None:
    assert routs(Quality.REGULAR, 9) and not routs(Quality.REGULAR, 8)
    assert rally(dice(4), 3) == (rally(dice(4), 3)[0], 0)
    assert rally(dice(2), 5)[1] == 3
    assert kept_down(dice(5), 4)[1] == 1  # d3 read from a 5: 3
    assert half_strength(10, 5) and not half_strength(10, 6) and half_strength(3, 1)


# --- HE, indirect fire, flamethrowers ------------------------------------------------------

def test_collapse_needs_big_dice() -> None:
    assert collapses(10, "2d6", BuildingKind.BRICK)
    assert not collapses(9, "3d6", BuildingKind.BRICK)
    assert not collapses(11, "3d6", BuildingKind.BUNKER)
    assert collapses(12, "3d6", BuildingKind.BUNKER)
    assert not collapses(10, "d6", BuildingKind.WOODEN)
    assert collapses_total(10, BuildingKind.STRONG)
    assert halved(5) == 3 and halved(4) == 2


def test_he_collapse_comes_before_halving_and_no_damage_is_rolled() -> None:
    # 3D6 of 4+4+3 = 11: the section falls though the unit is Down
    out = he_in_building(dice(4, 4, 3), 4, BuildingKind.BRICK, Target(), down=True)
    assert out.collapsed and out.damage == () and out.pins is None


def test_he_in_building_halves_then_pins_then_damage() -> None:
    # 2D6 of 3+4 = 7 hits, Down: 4; D3 pins (a 5 is 3); four damage rolls at pen +3
    faces = [3, 4, 5, 1, 2, 6, 6]
    out = he_in_building(dice(*faces), 3, BuildingKind.BRICK,
                         Target(Quality.VETERAN, inside=True), down=True)
    assert (out.collapsed, out.hits, out.pins and out.pins.value) == (False, 4, 3)
    assert [r.need for r in out.damage] == [2] * 4  # 5 - 3, no extra protection
    assert out.casualties == 3


def test_he_in_a_bunker_pins_but_never_damages() -> None:
    out = he_in_building(dice(6, 5, 2), 3, BuildingKind.BUNKER, Target())
    assert not out.collapsed and out.damage == () and out.pins is not None


def test_an_empty_floor_still_rolls_its_hits() -> None:
    out = he_in_building(dice(6, 6), 3, BuildingKind.WOODEN, None)
    assert out.collapsed
    with pytest.raises(DiceExhausted):
        he_in_building(dice(), 2, BuildingKind.WOODEN, None)


def test_he_in_the_open() -> None:
    pins, damage = he_in_open(dice(2, 6, 1, 4), 2, 5, Target(), down=True)
    assert pins.value == 1 and len(damage) == 3


def test_indirect_ranging() -> None:
    assert [indirect_need(k, False) for k in range(6)] == [6, 5, 4, 3, 2, 2]
    assert indirect_need(0, True) == 2
    assert roll_indirect(dice(5), 1, False).success
    assert not roll_indirect(dice(5), 0, False).success


def test_a_shell_falls_through_floors() -> None:
    assert burst_floor(dice(4), 3).floor == 3
    assert burst_floor(dice(3, 6), 3).floor == 2
    fell = burst_floor(dice(1, 2, 3), 3)
    assert fell.floor == 0 and len(fell.rolls) == 3
    assert burst_floor(dice(), 0).floor == 0  # the ground floor always bursts


def test_flamethrower() -> None:
    assert flame_hits(dice(6), from_vehicle=True).total == 7
    assert flame_hits(dice(6), from_vehicle=False).total == 6
    assert flame_pins(dice(5)).total == 4  # D3 (3) + 1
    fire = fire_roll(dice(4), BuildingKind.WOODEN)
    assert fire is not None and fire.success
    assert fire_roll(dice(), BuildingKind.BUNKER) is None


# --- vehicles ------------------------------------------------------------------------------

def test_vehicle_chart_and_superficial() -> None:
    assert [chart_result(f, OPTIONS) for f in range(1, 7)] == [
        VehicleResult.SHAKEN] * 2 + [VehicleResult.IMMOBILISED] * 2 + [
        VehicleResult.KNOCKED_OUT] * 2
    assert roll_superficial(dice(4), OPTIONS)[1] is VehicleResult.NONE
    assert roll_superficial(dice(5), OPTIONS)[1] is VehicleResult.IMMOBILISED


def test_tank_assault_outcomes() -> None:
    heavy, brick = VehicleKind.HEAVY_TANK, BuildingKind.BRICK
    win = tank_assault(dice(3, 4, 4, 4), heavy, brick, OPTIONS)  # 13 against 12
    assert win.outcome is TankAssaultOutcome.TANK_WINS and win.collapsed and win.damage is None
    tie = tank_assault(dice(2, 4, 4, 4, 6), heavy, brick, OPTIONS)  # 12 against 12
    assert tie.outcome is TankAssaultOutcome.BOTH and tie.collapsed and not tie.penetrating
    assert tie.damage is not None and tie.damage[1] is VehicleResult.IMMOBILISED
    lost = tank_assault(dice(1, 6, 6, 6, 6), heavy, brick, OPTIONS)  # 11 against 18
    assert lost.outcome is TankAssaultOutcome.BUILDING_HOLDS and lost.penetrating
    assert lost.damage is not None and lost.damage[1] is VehicleResult.KNOCKED_OUT
    shack = tank_assault(dice(1, 6, 6, 6), heavy, BuildingKind.WOODEN, OPTIONS)
    assert not shack.penetrating and shack.damage is not None
    super_heavy = tank_assault(dice(1, 6, 6, 1), VehicleKind.SUPER_HEAVY_TANK,
                               BuildingKind.WOODEN, OPTIONS)  # 12 against 12
    assert super_heavy.outcome is TankAssaultOutcome.BOTH


@pytest.mark.parametrize(("tank", "building"), [
    (VehicleKind.HEAVY_TANK, BuildingKind.BUNKER),
    (VehicleKind.SUPER_HEAVY_TANK, BuildingKind.STRONG),
    (VehicleKind.MEDIUM_TANK, BuildingKind.WOODEN),
])
def test_tank_assault_refusals(tank: VehicleKind, building: BuildingKind) -> None:
    with pytest.raises(IllegalOrder):
        tank_assault(dice(), tank, building, OPTIONS)


# --- observers -----------------------------------------------------------------------------

def test_air_strike_and_barrage_tables() -> None:
    assert roll_strike(dice(1), OPTIONS)[1] is StrikeResult.FRIENDLY
    assert roll_strike(dice(3), OPTIONS)[1] is StrikeResult.NO_SHOW
    assert roll_strike(dice(4), OPTIONS)[1] is StrikeResult.STRIKE
    assert roll_barrage(dice(2), OPTIONS)[1:] == (BarrageResult.NOTHING, None)
    _, result, pins = roll_barrage(dice(5, 6), OPTIONS)
    assert result is BarrageResult.PINS and pins is not None and pins.value == 3
    assert roll_barrage(dice(6), OPTIONS)[1] is BarrageResult.HEAVY_HIT
    bolder = Options(strike_friendly_up_to=0, strike_no_show_up_to=1)
    assert roll_strike(dice(1), bolder)[1] is StrikeResult.NO_SHOW
