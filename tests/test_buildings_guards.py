"""Buildings rules that a change to the code once went unnoticed by: each test plays the
rule on the test table (tests/bld_helpers.py), with forced dice where any are rolled, so
that breaking the rule breaks the test."""

from __future__ import annotations

from typing import Any

import pytest

from bld_helpers import (
    act,
    draw_for,
    force,
    forced_game,
    game,
    kinds,
    line,
    make_scenario,
    put,
    rolls_of,
    row,
    table_dict,
    unit,
)
from fibua.battlefield.model import SectionState
from fibua.core.errors import IllegalOrder, ScenarioError
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import find_ruleset
from fibua.rulesets.buildings.firing import set_alight
from fibua.rulesets.buildings.indirect import arrivals
from fibua.rulesets.buildings.tables import OrderKind
from fibua.scenario.loader import scenario_from_dict


def refused(g: Game, kind: str, uid: str, **params: Any) -> str:
    """The code of the refusal of an order that must be refused (and changes nothing)."""
    before = g.state_hash()
    with pytest.raises(IllegalOrder) as why:
        act(g, kind, uid, **params)
    assert g.state_hash() == before
    return why.value.code


def tower(floors: int = 4, faces: list[int] | None = None) -> Game:
    """The test table with a tower of `floors` floors at 12..16 x 19..23: a door in its
    south wall on the ground floor and a window in it on every floor above."""
    data = table_dict(axis=[unit("mg", row(32, 2, 3), type="mmg-team"),
                            unit("grenadiers", row(30, 12, 6), weapon="rifle")])
    data["map"]["buildings"].append({"id": "tower-b", "name": "Tower", "sections": [{
        "id": "tower", "footprint": [[12, 19], [16, 19], [16, 23], [12, 23]],
        "floors": floors,
        "openings": [{"kind": "door" if f == 0 else "window", "wall": 0, "floor": f,
                      "at": 2, "width": 1} for f in range(floors)]}]})
    g = forced_game(scenario_from_dict(data, "buildings-test-table"), [1])
    force(g, faces or [1] * 4)
    return g


def problems(**kw: Any) -> list[str]:
    try:
        scenario = make_scenario(**kw)
    except ScenarioError as error:
        return [str(error)]
    return [f"{p.path}: {p.message}" for p in find_ruleset("buildings").check_scenario(scenario)]


# ------------------------------------------------------------------ entering and moving


def test_only_infantry_enter() -> None:
    # "Only infantry units are permitted to enter buildings during the game."
    g = game(allies=[unit("gun", [{"at": [15, 8]}], type="light-anti-tank-gun"),
                     unit("tank", [{"at": [16, 6]}], type="medium-tank", facing=90)])
    assert refused(g, "run", "gun", enter="brick") == "cannot-move"
    assert refused(g, "advance", "gun", enter="brick") == "enter-run"
    assert refused(g, "run", "tank", enter="brick") != ""
    assert g.state.occupant("brick", 0) is None


def test_every_model_must_come_within_an_inch_to_enter() -> None:
    # "all the models in the unit must get to within 1" of the building"
    g = game([1] * 3)
    put(g, "smgs", [(15, 8.5), (15.8, 8.5), (16.6, 8.5), (1, 1)])
    assert refused(g, "run", "smgs", enter="brick") == "too-far"
    put(g, "smgs", [(15, 8.5), (15.8, 8.5), (16.6, 8.5), (3.5, 9)])  # 10.5in from the wall
    act(g, "run", "smgs", enter="brick")
    assert g.state.units["smgs"].section == "brick"


def test_one_unit_a_floor_where_a_move_ends() -> None:
    # "most buildings are large enough for a single unit to occupy each floor"
    g = tower()
    put(g, "smgs", section="tower", floor=0)
    put(g, "rifles", section="tower", floor=1)
    assert refused(g, "advance", "smgs", floor=1) == "occupied"


def test_no_move_passes_through_a_floor_the_enemy_holds() -> None:
    # "Floors that are occupied by enemy troops cannot be moved into except by means of an
    # assault"
    g = tower()
    put(g, "smgs", section="tower", floor=0)
    put(g, "grenadiers", section="tower", floor=1)
    put(g, "rifles", line(11, 17, 10, 0.6))  # they see the first floor's window
    assert g.state.knowledge["allies"].sightings["grenadiers"].visible
    assert refused(g, "run", "smgs", floor=2) == "enemy-floor"
    put(g, "rifles", line(26, 22.5, 10, 0.8))  # out of sight: the run stops on the way
    events = act(g, "run", "smgs", floor=2)
    assert "bumped" in kinds(events) and g.state.units["smgs"].floor == 0


def test_a_run_climbs_two_floors_at_most() -> None:
    # "A Run order can be used to ... move up or down two floors"
    g = tower()
    put(g, "smgs", section="tower", floor=0)
    assert refused(g, "run", "smgs", floor=3) == "too-far"
    act(g, "run", "smgs", floor=2)
    assert g.state.units["smgs"].floor == 2


def test_leaving_is_measured_from_a_ground_floor_opening() -> None:
    # "Make the move as normal, measuring the unit's move from any opening on the ground
    # floor."
    g = game()
    draw_for(g, "axis")
    # the house's door is at x 26: 6.5in to x 19.5 (too far), 5.5in to x 20.5; its middle
    # is 2in further
    assert refused(g, "advance", "grenadiers", to=[19.5, 6]) == "too-far"
    force(g, [1] * 3)
    act(g, "advance", "grenadiers", to=[20.5, 6])
    assert g.state.units["grenadiers"].section is None


def test_a_burning_building_cannot_be_entered() -> None:
    # "the building catches fire ... and is considered impassable from then on"
    g = game()
    put(g, "smgs", line(15, 7, 4, 0.8))
    set_alight(g.state, "brick")
    g.state.pending.clear()
    assert refused(g, "run", "smgs", enter="brick") == "not-intact"


# ------------------------------------------------------------------ set-up


def test_setting_up_inside_needs_the_building_wholly_in_the_zone() -> None:
    # "if the building is completely inside their side's set-up zone"
    axis = [unit("grenadiers", row(27, 5, 6), weapon="rifle",
                 inside={"section": "brick", "floor": 0}),
            unit("mg", row(32, 14, 3), type="mmg-team")]
    found = problems(axis=axis)
    assert found and any("inside" in p for p in found)
    assert problems() == []


def test_no_opening_is_made_in_a_bunker() -> None:
    data = table_dict(axis=[unit("crew", row(27, 17, 3), type="mmg-team",
                                 inside={"section": "pillbox", "floor": 0,
                                         "made_opening": 1}),
                            unit("mg", row(32, 2, 3), type="mmg-team")])
    data["map"]["buildings"].append({"id": "pillbox-b", "name": "Pillbox", "sections": [{
        "id": "pillbox", "footprint": [[26, 16], [30, 16], [30, 20], [26, 20]],
        "construction": "bunker",
        "openings": [{"kind": "slit", "wall": 0, "floor": 0, "at": 2, "width": 1},
                     {"kind": "door", "wall": 2, "floor": 0, "at": 2, "width": 1}]}]})
    with pytest.raises(ScenarioError) as error:
        scenario_from_dict(data, "buildings-test-table")
    assert "units[0].inside.made_opening: no opening can be made in a bunker" in \
        str(error.value)
    del data["sides"][1]["forces"]["units"][0]["inside"]["made_opening"]
    scenario_from_dict(data, "buildings-test-table")


def gun_in_house(opening: int) -> Game:
    axis = [unit("gun", [{"at": [28, 6]}], type="light-anti-tank-gun",
                 inside={"section": "house", "floor": 0, "opening": opening}),
            unit("mg", row(32, 14, 3), type="mmg-team")]
    g = game([1] * 4, axis=axis)
    draw_for(g, "axis")
    return g


def test_a_gun_set_up_inside_never_moves() -> None:
    # "Artillery units set up in this way will be unable to move for the duration of the
    # game."
    g = gun_in_house(0)
    assert refused(g, "advance", "gun", to=[22, 6]) == "cannot-move"


def test_a_gun_inside_fires_only_from_its_opening() -> None:
    # "the player must pick an opening for the gun to fire from. This cannot be changed"
    g = gun_in_house(1)  # the north window, which does not see west
    put(g, "smgs", line(20, 5.5, 4, 0.8))  # seen through the west door only
    assert refused(g, "fire", "gun", target="smgs") in ("no-sight", "out-of-range")
    g = gun_in_house(0)  # the west door
    put(g, "smgs", line(20, 5.5, 4, 0.8))
    force(g, [6, 1, 1, 1, 1, 1])
    events = act(g, "fire", "gun", target="smgs")
    events += g.apply(Order("allies", "end"))
    assert rolls_of(events, "to-hit")


def test_guns_in_a_burning_building_are_destroyed() -> None:
    # "Artillery units inside a burning building are automatically destroyed."
    g = gun_in_house(0)
    set_alight(g.state, "house")
    assert not g.state.units["gun"].alive


# ------------------------------------------------------------------ assaults


def test_inside_a_unit_assaults_only_the_floor_above_or_below() -> None:
    # "Infantry units inside a building can assault units on a different floor immediately
    # above or below"
    g = tower(faces=[6] * 4 + [1] * 6 + [1] * 4)
    put(g, "smgs", section="tower", floor=0)
    put(g, "grenadiers", section="tower", floor=2)
    assert refused(g, "run", "smgs", assault="grenadiers") == "not-adjacent"
    put(g, "grenadiers", section="tower", floor=1)
    events = act(g, "run", "smgs", assault="grenadiers")
    assert "reaction-fire" not in kinds(events)  # "always considered to be a surprise"
    assert g.state.units["smgs"].floor == 1


def test_leaping_out_to_assault_is_only_from_the_ground_floor() -> None:
    g = game()
    put(g, "smgs", section="brick", floor=1)
    put(g, "mg", line(16, 6, 3))  # seen from the first floor's south window
    assert refused(g, "run", "smgs", assault="mg") == "not-ground"


@pytest.mark.parametrize(("gap", "reacts"), [(6.0, False), (6.4, True)])
def test_return_fire_only_at_assaulters_from_over_six_inches(gap: float,
                                                             reacts: bool) -> None:
    # "An enemy who is outside a building and more than 6" away ... can react by firing"
    faces = ([1] * 5 if reacts else []) + [6, 6, 6, 1] + [1] * 3
    g = game(faces)
    put(g, "mg", line(28, 14, 3))
    put(g, "smgs", line(28 - gap - 2.4, 14, 4, 0.8))
    events = act(g, "run", "smgs", assault="mg")
    assert ("reaction-fire" in kinds(events)) is reacts
    assert not g.state.units["mg"].alive


# ------------------------------------------------------------------ shooting


def test_fixed_weapons_do_not_fire_on_an_advance() -> None:
    # the core: fixed weapons cannot fire on an Advance
    g = game([1] * 3, allies=[unit("team", row(20, 2, 3), type="mmg-team"),
                              unit("smgs", row(2, 16, 4), weapon="smg")])
    events = act(g, "advance", "team", to=[20, 3], target="mg")
    assert "no-shot" in kinds(events) and not rolls_of(events, "to-hit")


def flamer_game(faces: list[int]) -> Game:
    return game(faces, allies=[unit("flamer", row(24, 6, 2, 0.5), type="flamethrower-team"),
                               unit("smgs", row(2, 16, 4), weapon="smg")])


def test_extra_protection_does_not_count_against_flame() -> None:
    # "This rule has no effect in close quarters or against hits from HE and flamethrowers."
    g = flamer_game([4, 2, 3, 3, 1, 2, 2, 1, 1])
    act(g, "fire", "flamer", target="grenadiers")
    events = g.apply(Order("axis", "end"))
    damage = rolls_of(events, "damage")
    assert damage and all("extra protection" not in dict(d["roll"]["basis"]) for d in damage)


def test_a_flamethrower_that_misses_still_rolls_for_fire() -> None:
    # "If a flamethrower is used against troops in a building then the building catches
    # fire on D6 roll of a 4, 5 or 6"
    g = flamer_game([1, 2, 2, 4, 1, 1])  # a miss; morale 4 passes; fire 4
    act(g, "fire", "flamer", target="grenadiers")
    events = g.apply(Order("axis", "end"))
    assert not rolls_of(events, "to-hit")[0]["hit"]
    assert g.state.sight.section_state("house") is SectionState.BURNING


def test_an_unseen_occupant_on_down_halves_he_fired_at_the_building() -> None:
    # "If the unit has not taken an action yet this turn, it can declare it is going down
    # ... in which case the hits are halved rounding up"
    g = game(allies=[unit("gun", [{"at": [28, 1]}], type="medium-howitzer"),
                     unit("rifles", row(2, 22, 3), weapon="rifle")])
    grenadiers = g.state.units["grenadiers"]
    assert not g.state.knowledge["allies"].sightings["grenadiers"].visible if "grenadiers" in \
        g.state.knowledge["allies"].sightings else True
    grenadiers.order = OrderKind.DOWN
    force(g, [3, 2, 1, 2, 6, 6, 1, 1])  # hit; 2D6 3 hits, halved 2; D3 1 pin; 2 damaged
    events = act(g, "fire", "gun", section="house")
    he = rolls_of(events, "he-in-building")[0]
    assert he["unit"] == "grenadiers" and he["hits"]["value"] == 3
    assert len(he["damage"]) == 2 and len(grenadiers.models) == 4


def test_indirect_fire_has_a_minimum_range() -> None:
    g = game(allies=[unit("mortar", row(22, 20, 3), type="medium-mortar-team"),
                     unit("smgs", row(2, 16, 4), weapon="smg")])
    assert refused(g, "fire", "mortar", target="mg") == "out-of-range"  # 11.7in away
    put(g, "mortar", line(19, 20, 3))  # 13.9in
    force(g, [1] * 3)
    events = act(g, "fire", "mortar", target="mg")
    assert rolls_of(events, "indirect-fire")


# ------------------------------------------------------------------ barrages


def barrage_game(at: list[float]) -> Game:
    g = game([1], allies=[unit("fo", row(24, 2, 2), type="artillery-observer"),
                          unit("smgs", row(2, 16, 4), weapon="smg")])
    act(g, "fire", "fo", at=at, call=True)
    g.state.turn += 1
    return g


def test_a_barrage_reaches_a_unit_inside_a_section_whose_walls_are_in_range() -> None:
    # "If the building is in range, simply roll a die for each unit in the building"
    g = barrage_game([4, 13])
    put(g, "grenadiers", section="brick", floor=0)  # its walls 10in away, its middle 13
    force(g, [1] * 6)
    arrivals(g.state)
    rolled = [r["unit"] for r in rolls_of(g.state.pending, "barrage-roll")]
    assert "grenadiers" in rolled


def test_a_barrage_rolls_once_for_an_empty_section_in_range() -> None:
    # "Players are allowed to target an empty building with ... artillery barrages"
    g = barrage_game([22, 2])
    force(g, [1] * 6)
    arrivals(g.state)
    sections = [r["section"] for r in rolls_of(g.state.pending, "barrage-on-building")]
    assert sections == ["brick"]  # the house holds the grenadiers, who roll for themselves


def test_the_observers_charts_read_their_options_as_upper_bounds() -> None:
    # *ours*: `strike_friendly_up_to`, `strike_no_show_up_to` and the barrage's likewise
    # are the highest face of each result, so a wider band takes every face up to it
    from fibua.rulesets.buildings.forces import Options
    from fibua.rulesets.buildings.observers import barrage_result, strike_result
    from fibua.rulesets.buildings.tables import BarrageResult, StrikeResult

    wide = Options(strike_friendly_up_to=2, strike_no_show_up_to=4,
                   barrage_nothing_up_to=3, barrage_pins_up_to=4)
    assert [strike_result(f, wide) for f in range(1, 7)] == [
        StrikeResult.FRIENDLY] * 2 + [StrikeResult.NO_SHOW] * 2 + [StrikeResult.STRIKE] * 2
    assert [barrage_result(f, wide) for f in range(1, 7)] == [
        BarrageResult.NOTHING] * 3 + [BarrageResult.PINS] + [BarrageResult.HEAVY_HIT] * 2


def test_players_may_agree_that_no_unit_goes_into_a_building() -> None:
    # "Players can agree that models cannot enter buildings at all if they prefer."
    off = {"enter_buildings": False}
    found = problems(options=off)
    assert any("inside: no unit is set up inside" in p for p in found)
    axis = [unit("grenadiers", row(30, 12, 6), weapon="rifle"),
            unit("mg", row(32, 14, 3), type="mmg-team")]
    g = game(axis=axis, options=off)
    put(g, "smgs", line(15, 7, 4, 0.8))
    assert refused(g, "run", "smgs", enter="brick") == "no-entering"


# ------------------------------------------------------------------ losses


def test_casualties_are_plain_riflemen_first_and_the_leader_last() -> None:
    # the core reading: each damaging hit removes one model, the owner picks which (the
    # computer keeps leaders and the crews of support weapons to the last)
    from fibua.rulesets.buildings.losses import remove_models

    allies = [unit("squad", [{"at": [2, 5], "weapon": "rifle"}, {"at": [3, 5], "weapon": "lmg"},
                             {"at": [4, 5], "weapon": "rifle"}, {"at": [5, 5], "weapon": "smg"},
                             {"at": [6, 5], "weapon": "rifle"}]),
              unit("smgs", row(2, 16, 4), weapon="smg")]
    g = game([6, 6], allies=allies)  # the half-strength morale test: a double 6 fails
    squad = g.state.units["squad"]
    remove_models(g.state, squad, 0, "nothing")
    assert not rolls_of(g.state.pending, "casualties") and len(squad.models) == 5
    remove_models(g.state, squad, 2, "test")  # the last rifle, then the SMG
    assert [(m.x, str(m.weapon)) for m in squad.models] == [
        (2, "rifle"), (3, "lmg"), (4, "rifle")]
    squad.half_tested = True
    remove_models(g.state, squad, 2, "test")  # the other rifle, then the LMG: the leader stays
    assert [(m.x, str(m.weapon)) for m in squad.models] == [(2, "rifle")]


def test_more_hits_than_models_take_off_the_models_there_are() -> None:
    # each damaging hit removes one model: an assault's 3 casualties on a 2-man team
    # remove the 2 men, and the side is told it lost 2 (not 3, with 0 left)
    from fibua.rulesets.buildings.losses import remove_models

    g = game()
    mg = g.state.units["mg"]
    remove_models(g.state, mg, 5, "test")
    lost = [e for e in g.state.pending if e.kind == "casualties"]
    assert [(e.data["lost"], e.data["left"]) for e in lost] == [(3, 0)]
    assert not mg.alive


def test_the_after_action_report_names_a_unit_wiped_out() -> None:
    # the report is every unit's fate at the end: one with no model left is there too
    from fibua.rulesets.buildings.losses import remove_models

    g = game()
    remove_models(g.state, g.state.units["mg"], 3, "test")
    lines = g.ruleset.after_action(g.state)
    assert len(lines) == len(g.state.units)
    assert any(line.startswith("axis: Mg - destroyed, 0/3 models") for line in lines), lines


def test_each_unit_destroyed_counts_once_for_the_enemy() -> None:
    # the victory tiebreak: the side that destroyed more enemy units wins
    from fibua.rulesets.buildings.losses import destroy

    g = game()
    destroy(g.state, g.state.units["mg"], "test")
    destroy(g.state, g.state.units["mg"], "again")
    destroy(g.state, g.state.units["grenadiers"], "test")
    assert g.state.destroyed_by == {"allies": 2}


def test_an_order_test_records_its_pins_as_taken_off_morale() -> None:
    g = game([3, 3, 4, 1])
    g.state.units["rifles"].pins = 2
    events = act(g, "rally", "rifles")
    basis = dict(rolls_of(events, "order-test")[0]["roll"]["basis"])
    assert basis == {"regular morale": 9, "pins": -2}


def test_pins_that_jump_past_morale_rout_the_unit_too() -> None:
    # the core: a unit whose pins reach its morale value is destroyed
    from fibua.rulesets.buildings.losses import add_pins

    g = game()
    mg = g.state.units["mg"]  # regular: morale 9
    mg.pins = 8
    add_pins(g.state, mg, 2, "test")
    assert "rout" in kinds(g.state.pending) and not mg.alive


def test_no_pins_and_no_pins_on_the_destroyed_are_told() -> None:
    from fibua.rulesets.buildings.losses import add_pins, destroy

    g = game()
    add_pins(g.state, g.state.units["mg"], 0, "nothing")
    destroy(g.state, g.state.units["grenadiers"], "test")
    add_pins(g.state, g.state.units["grenadiers"], 2, "too late")
    assert not rolls_of(g.state.pending, "pins")
    assert g.state.units["grenadiers"].pins == 0


def test_a_kept_down_never_leaves_fewer_than_no_pins() -> None:
    from fibua.core.dice import ForcedDice
    from fibua.rulesets.buildings.morale import kept_down

    assert kept_down(ForcedDice(seed=0, faces=[6]), 1)[1] == 0  # D3 3 off 1 pin
    assert kept_down(ForcedDice(seed=0, faces=[3]), 4)[1] == 2  # D3 2 off 4


def test_the_half_strength_test_comes_once_and_a_fail_destroys() -> None:
    # the core: when a unit first falls to half its starting models or fewer, it takes an
    # order test; failing destroys it
    from fibua.rulesets.buildings.losses import remove_models

    g = game([3, 3])  # 6 <= 9: passed
    smgs = g.state.units["smgs"]  # four models
    remove_models(g.state, smgs, 2, "test")
    assert [e.kind for e in g.state.pending].count("morale-test") == 1 and smgs.alive
    remove_models(g.state, smgs, 1, "test")  # no second test
    assert [e.kind for e in g.state.pending].count("morale-test") == 1 and smgs.alive
    force(g, [6, 5])  # 11 > 9: failed
    remove_models(g.state, g.state.units["rifles"], 5, "test")
    assert not g.state.units["rifles"].alive


def test_a_tank_that_beats_the_building_takes_no_hit() -> None:
    from fibua.core.dice import ForcedDice
    from fibua.rulesets.buildings.forces import Options
    from fibua.rulesets.buildings.tables import BuildingKind, VehicleKind
    from fibua.rulesets.buildings.vehicles import TankAssaultOutcome, tank_assault

    done = tank_assault(ForcedDice(seed=0, faces=[6, 1, 1]), VehicleKind.HEAVY_TANK,
                        BuildingKind.WOODEN, Options())
    assert done.outcome is TankAssaultOutcome.TANK_WINS and done.collapsed
    assert done.damage is None and not done.penetrating


# ------------------------------------------------------------------ the turn and the end


def test_after_the_last_turn_a_four_plays_one_more_once() -> None:
    # the core: the scenario's turn limit; then a D6 of 4+ plays one more
    from fibua.rulesets.buildings.turn import begin_turn

    g = game([1])
    state = g.state
    state.turn = state.limit
    force(g, [4, 1, 1, 1])
    begin_turn(state)
    extra = rolls_of(state.pending, "extra-turn")[0]
    assert extra["played"] and state.limit == state.turn and state.result is None
    force(g, [6])
    begin_turn(state)  # no second roll: the game ends
    assert state.result is not None and state.rng.faces == [6]


def test_a_three_after_the_last_turn_ends_the_game() -> None:
    from fibua.rulesets.buildings.turn import begin_turn

    g = game([1])
    state = g.state
    state.turn = state.limit
    limit = state.limit
    force(g, [3])
    begin_turn(state)
    assert state.result is not None and state.limit == limit


def test_only_a_unit_of_the_side_drawn_with_no_order_may_act() -> None:
    from fibua.rulesets.buildings.turn import can_act

    g = game([1])
    state = g.state
    assert state.drawn == "allies"
    rifles, mg = state.units["rifles"], state.units["mg"]
    assert can_act(state, rifles) and not can_act(state, mg)
    rifles.order = OrderKind.FIRE
    assert not can_act(state, rifles)
    draw_for(g, "axis")
    assert can_act(state, mg) and not can_act(state, state.units["smgs"])


def test_a_side_with_no_units_left_loses_and_else_units_destroyed_break_a_tie() -> None:
    from fibua.rulesets.buildings.turn import score

    g = game([1], victory=[{"side": "allies", "kind": "hold", "sections": ["house"],
                            "points": 1, "description": "the house"}])
    state = g.state
    state.destroyed_by = {"axis": 1}
    found = score(state, "test")
    assert found.winner == "axis" and "enemy units destroyed" in found.reason
    for u in state.side_units("axis"):
        u.destroyed = True
    found = score(state, "test")
    assert found.winner == "allies" and found.scores == {"allies": 0.0, "axis": 0.0}
    assert "axis has no units left" in found.reason
