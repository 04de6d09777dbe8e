"""Buildings orders with forced dice on the test table (tests/bld_helpers.py): order tests,
blunders and rout, entering, moving inside and leaving, shooting into a building, HE that
brings a section down, assaults, the bag and the scenario checks."""

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
    unit,
)
from fibua.battlefield.model import SectionState
from fibua.core.errors import IllegalOrder, ScenarioError
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import find_ruleset
from fibua.rulesets.buildings.tables import OrderKind

# ------------------------------------------------------------------ the bag and the turn


def test_the_first_die_is_drawn_from_a_bag_of_one_die_a_unit() -> None:
    g = forced_game(make_scenario(), [3])
    draw = rolls_of(g.log, "order-die")[0]
    assert draw["roll"]["dice"] == "d4" and draw["roll"]["faces"] == [3]
    assert draw["side"] == "axis" and g.to_act() == "axis"
    assert draw["left"] == {"allies": 2, "axis": 1}
    assert {e.kind for e in g.log if e.kind == "order-die"} and \
        all(set(e.to) == {"allies", "axis"} for e in g.log if e.kind == "order-die")


def test_a_unit_with_an_order_takes_no_other() -> None:
    g = game([1])
    act(g, "down", "rifles")
    draw_for(g, "allies")
    with pytest.raises(IllegalOrder) as refused:
        act(g, "rally", "rifles")
    assert refused.value.code == "has-order"


def test_a_kept_down_die_stays_out_of_the_next_bag_and_loses_d3_pins() -> None:
    g = game([1])
    g.state.units["rifles"].pins = 3
    act(g, "down", "rifles", keep=True)
    state = g.state
    for u in state.units.values():  # everyone else has had an order: the turn ends
        if u.order is None:
            u.order = OrderKind.FIRE
    draw_for(g, "allies")
    force(g, [1])  # turn 2: the bag holds three dice (rifles kept theirs)
    g.apply(Order("allies", "end"))
    assert state.turn == 2 and state.units["rifles"].kept
    assert state.bag().count("allies") == 0 and state.bag().total == 2  # smgs' drawn
    for u in state.units.values():
        if u.order is None:
            u.order = OrderKind.FIRE
    force(g, [2, 1])  # end of turn 2: the kept Down loses D3 (face 2: 1 pin); turn 3 draw
    draw_for(g, "allies")
    events = g.apply(Order("allies", "end"))
    kept = rolls_of(events, "kept-down")
    assert kept and kept[0]["unit"] == "rifles" and state.units["rifles"].pins == 2


# ------------------------------------------------------------------ order tests


def test_a_pinned_unit_passes_its_order_test_and_loses_a_pin() -> None:
    g = game([3, 3, 4, 1])  # order test 6 <= 9 - 2; rally D6 4; next draw
    g.state.units["rifles"].pins = 2
    events = act(g, "rally", "rifles")
    test = rolls_of(events, "order-test")[0]
    assert test["passed"] and test["roll"]["need"] == 7 and test["roll"]["at_most"]
    assert g.state.units["rifles"].pins == 0  # one for the pass, four rallied away


def test_a_failed_order_test_goes_down_instead() -> None:
    g = game([5, 4, 1])  # 9 > 7
    g.state.units["rifles"].pins = 2
    events = act(g, "rally", "rifles")
    assert "down-instead" in kinds(events)
    u = g.state.units["rifles"]
    assert u.order is OrderKind.DOWN and u.pins == 2


def test_a_double_six_is_a_blunder_that_adds_a_pin() -> None:
    g = game([6, 6, 1])
    g.state.units["rifles"].pins = 1
    events = act(g, "rally", "rifles")
    assert rolls_of(events, "order-test")[0]["blunder"]
    assert g.state.units["rifles"].pins == 2 and g.state.units["rifles"].order is OrderKind.DOWN


def test_pins_reaching_morale_rout_the_unit() -> None:
    g = game([6, 6, 1])
    g.state.units["rifles"].pins = 8  # regular: morale 9
    events = act(g, "rally", "rifles")
    assert "rout" in kinds(events)
    assert not g.state.units["rifles"].alive
    assert g.state.bag().count("allies") == 0  # its die left the bag with it


def test_down_needs_no_test() -> None:
    g = game([1])
    g.state.units["rifles"].pins = 5
    events = act(g, "down", "rifles")
    assert "order-test" not in kinds(events)


# ------------------------------------------------------------------ buildings: in and out


def test_a_run_enters_a_building_by_a_ground_floor_door() -> None:
    g = game([1])
    put(g, "smgs", line(15, 7, 4, 0.8))
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "smgs", enter="brick")
    assert refused.value.code == "enter-run"
    act(g, "run", "smgs", enter="brick")
    u = g.state.units["smgs"]
    assert (u.section, u.floor) == ("brick", 0)


def test_entering_an_occupied_ground_floor_is_refused() -> None:
    g = game()
    put(g, "grenadiers", section="brick", floor=0)
    put(g, "smgs", line(15, 7, 4, 0.8))
    with pytest.raises(IllegalOrder) as refused:
        act(g, "run", "smgs", enter="brick")
    assert refused.value.code == "occupied"


def test_an_advance_moves_one_floor_and_a_run_two_at_most() -> None:
    g = game([1])
    put(g, "smgs", section="brick", floor=0)
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "smgs", floor=2)
    assert refused.value.code == "no-floor" or refused.value.code == "too-far"
    act(g, "advance", "smgs", floor=1)
    assert g.state.units["smgs"].floor == 1


def test_a_unit_leaves_only_from_the_ground_floor() -> None:
    g = game([1])
    put(g, "smgs", section="brick", floor=1)
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "smgs", to=[17, 7])
    assert refused.value.code == "not-ground"
    put(g, "smgs", section="brick", floor=0)
    act(g, "advance", "smgs", to=[17, 7])
    u = g.state.units["smgs"]
    assert u.section is None and (u.lead.x, u.lead.y) == (17, 7)


def test_a_model_cannot_walk_into_a_standing_building() -> None:
    g = game()
    put(g, "smgs", line(12, 12, 4, 0.5))
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "smgs", to=[15, 12])
    assert refused.value.code in ("in-building", "blocked")


# ------------------------------------------------------------------ shooting


def lone_rifle() -> list[dict[str, Any]]:
    return [unit("rifle", [{"at": [2, 5]}], weapon="rifle"),
            unit("smgs", row(2, 16, 4), weapon="smg")]


def test_shooting_into_a_building_hard_cover_and_extra_protection() -> None:
    g = game([4, 5, 1], allies=lone_rifle())
    put(g, "rifle", [(22, 6)])
    events = act(g, "fire", "rifle", target="grenadiers")
    assert "shot-at" in kinds(events) and g.to_act() == "axis"  # may go Down first
    events = g.apply(Order("axis", "end"))
    hit = rolls_of(events, "to-hit")[0]
    basis = dict(hit["rolls"][0]["basis"])
    assert basis["hard cover"] == 2 and basis["point blank"] == -1
    assert hit["rolls"][0]["need"] == 4 and hit["hit"]
    damage = rolls_of(events, "damage")[0]["roll"]
    assert damage["need"] == 5  # regular 4 + extra protection 1
    grenadiers = g.state.units["grenadiers"]
    assert len(grenadiers.models) == 5 and grenadiers.pins == 1


def test_a_target_shot_at_may_go_down_first() -> None:
    g = game([5, 1], allies=lone_rifle())
    put(g, "rifle", [(22, 6)])
    act(g, "fire", "rifle", target="grenadiers")
    events = g.apply(Order("axis", "down", "grenadiers"))
    hit = rolls_of(events, "to-hit")[0]
    assert hit["rolls"][0]["need"] == 6 and not hit["hit"]  # 4, and 2 for a target Down
    assert g.state.units["grenadiers"].order is OrderKind.DOWN


def test_no_shot_without_sight() -> None:
    g = game(allies=lone_rifle())
    put(g, "rifle", [(28, 1)])  # south of the house: its south wall has no opening
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "rifle", target="grenadiers")
    assert refused.value.code == "no-sight"


def howitzer() -> list[dict[str, Any]]:
    return [unit("gun", row(18, 6, 5, 0.5), type="medium-howitzer"),
            unit("smgs", row(2, 16, 4), weapon="smg")]


def test_he_that_brings_a_section_down_destroys_everyone_inside() -> None:
    g = game([3, 5, 5, 1], allies=howitzer())
    events = act(g, "fire", "gun", target="grenadiers")
    events += g.apply(Order("axis", "end"))
    he = rolls_of(events, "he-in-building")[0]
    assert he["collapsed"] and he["hits"]["dice"] == "2d6" and he["hits"]["value"] == 10
    assert g.state.sight.section_state("house") is SectionState.RUBBLE
    assert not g.state.units["grenadiers"].alive
    view = g.view("allies")
    assert view["sections"]["house"] == "rubble"


def test_he_short_of_collapse_rolls_pins_and_damage() -> None:
    g = game([3, 2, 1, 1, 4, 4, 1, 1], allies=howitzer())
    act(g, "fire", "gun", target="grenadiers")
    events = g.apply(Order("axis", "end"))
    he = rolls_of(events, "he-in-building")[0]
    assert not he["collapsed"] and he["hits"]["value"] == 3 and he["pins"]["value"] == 1
    # regular 4+ less the template's +3 penetration, no extra protection: 2+
    assert [d["success"] for d in he["damage"]] == [True, True, False]
    assert len(g.state.units["grenadiers"].models) == 4


# ------------------------------------------------------------------ assault


def test_an_assault_in_the_open_from_close_by_is_a_surprise_and_destroys_the_loser() -> None:
    g = game([4, 4, 1, 1, 1, 3, 3, 1])
    put(g, "smgs", line(28, 14, 4, 0.8))
    events = act(g, "run", "smgs", assault="mg")
    assert "reaction-fire" not in kinds(events)
    assert not g.state.units["mg"].alive and g.state.units["smgs"].alive


def test_an_assault_on_a_ground_floor_is_simultaneous_and_the_winner_takes_the_floor() -> None:
    g = game([6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 3, 3, 1])
    put(g, "smgs", line(23, 6, 4, 0.5))
    events = act(g, "run", "smgs", assault="grenadiers")
    rnd = rolls_of(events, "assault-round")[0]
    assert len(rnd["attacks"]) == 4 and len(rnd["back"]) == 6  # all strike at once
    assert not g.state.units["grenadiers"].alive
    smgs = g.state.units["smgs"]
    assert (smgs.section, smgs.floor) == ("house", 0)


def test_from_outside_only_the_ground_floor_is_assaulted() -> None:
    g = game()
    put(g, "grenadiers", section="brick", floor=1)
    put(g, "smgs", line(15, 7, 4, 0.8))
    with pytest.raises(IllegalOrder) as refused:
        act(g, "run", "smgs", assault="grenadiers")
    assert refused.value.code == "not-ground"


# ------------------------------------------------------------------ the end


def test_a_side_with_no_units_left_loses() -> None:
    g = game([6, 6])
    state = g.state
    state.units["smgs"].destroyed = True
    state.units["rifles"].pins = 8
    act(g, "rally", "rifles")
    result = g.result()
    assert result is not None and result.winner == "axis"


# ------------------------------------------------------------------ scenario checks


def problems(**kw: Any) -> list[str] | str:
    """The field paths of the problems the rule set finds in the test table so changed."""
    try:
        scenario = make_scenario(**kw)
    except ScenarioError as error:
        return str(error)
    return [p.path for p in find_ruleset("buildings").check_scenario(scenario)]


def test_one_unit_a_floor_at_set_up() -> None:
    axis = [unit("a", row(27, 5, 2), inside={"section": "house"}),
            unit("b", row(27, 6, 2), inside={"section": "house"})]
    assert "sides[1].forces.units[1].inside.floor: a is already on floor 0" in problems(axis=axis)


def test_a_made_opening_needs_a_bare_wall_and_is_cut_into_the_map() -> None:
    bad = [unit("a", row(27, 5, 2), inside={"section": "house", "made_opening": 3})]
    assert "sides[1].forces.units[0].inside.made_opening: an opening" in problems(axis=bad)
    good = [unit("a", row(27, 5, 2), inside={"section": "house", "made_opening": 0}),
            unit("mg", row(32, 14, 3), type="mmg-team")]
    assert problems(axis=good) == []
    g = forced_game(make_scenario(axis=good), [1])
    openings = g.state.battlefield.section("house").openings
    assert len(openings) == 3 and openings[-1].wall == 0


def test_a_model_set_up_inside_a_footprint_must_say_so() -> None:
    allies = [unit("a", row(15, 12, 2)), unit("b", row(2, 16, 2))]
    assert "sides[0].forces.units[0].models[0].at: (15, 12) is inside" in problems(allies=allies)


# ------------------------------------------------------------------ transports


def with_carrier() -> list[dict[str, Any]]:
    return [unit("rifles", row(2, 5, 5) + row(2, 6, 5), type="rifle-squad"),
            unit("carrier", [{"at": [6, 12]}], type="carrier"),
            unit("smgs", row(6, 12, 4), weapon="smg", aboard="carrier")]


def test_passengers_are_off_the_table_and_dismount_from_their_transport() -> None:
    g = game([1], allies=with_carrier())
    smgs = g.state.units["smgs"]
    assert smgs.aboard == "carrier" and (smgs.lead.x, smgs.lead.y) == (6, 12)
    put(g, "carrier", [(23, 6)])
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "smgs", target="grenadiers")
    assert refused.value.code == "no-sight"
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "smgs", to=[12, 12])  # measured from the carrier, not the squad
    assert refused.value.code == "too-far"
    act(g, "advance", "smgs", to=[21, 3])
    assert smgs.aboard is None and g.state.units["carrier"].carrying is None
    assert (smgs.lead.x, smgs.lead.y) == (21, 3)


def test_a_run_within_an_inch_of_a_transport_mounts_it_and_it_carries_them() -> None:
    g = game([1, 1], allies=with_carrier())
    put(g, "carrier", [(6, 12)])
    g.state.units["carrier"].carrying = None
    g.state.units["smgs"].aboard = None
    put(g, "smgs", line(8, 16, 4, 0.8))
    act(g, "run", "smgs", mount="carrier")
    assert g.state.units["smgs"].aboard == "carrier"
    draw_for(g, "allies")
    act(g, "advance", "carrier", to=[12, 12])
    assert (g.state.units["smgs"].lead.x, g.state.units["smgs"].lead.y) == (12, 12)


def test_passengers_of_an_immobilised_transport_bail_out_pinned_and_down() -> None:
    from fibua.rulesets.buildings.firing import Firer, damage
    from fibua.rulesets.buildings.tables import WeaponName

    g = game([6, 3], allies=with_carrier())  # penetrates (6+4 >= 7), chart 3: immobilised
    state = g.state
    damage(state, state.units["grenadiers"], state.units["carrier"],
           Firer(WeaponName.PANZERSCHRECK, 10.0, 0))
    smgs = state.units["smgs"]
    assert state.units["carrier"].immobilised and smgs.aboard is None
    assert smgs.pins == 1 and smgs.order is OrderKind.DOWN
    assert all(abs(m.x - 6) ** 2 + abs(m.y - 12) ** 2 <= 9 + 1e-9 for m in smgs.models)


# ------------------------------------------------------------------ tanks into buildings


def heavy_tank(kind: str = "heavy-tank") -> list[dict[str, Any]]:
    return [unit("tank", [{"at": [22, 6]}], type=kind),
            unit("smgs", row(2, 16, 4), weapon="smg")]


def test_a_heavy_tank_that_beats_a_wooden_house_brings_it_down_on_its_occupants() -> None:
    # the grenadiers fire first (two rifles at the door: 1, 1 miss); tank 3 + 10 against
    # the house's 2D6 of 2, 2
    g = game([1, 1, 3, 2, 2, 1], allies=heavy_tank())
    events = act(g, "run", "tank", enter="house")
    assert "reaction-fire" in kinds(events)
    rolled = rolls_of(events, "tank-assault-roll")[0]
    assert rolled["tank"]["total"] == 13 and rolled["building"]["total"] == 4
    assert rolled["outcome"] == "tank-wins"
    state = g.state
    assert state.sight.section_state("house") is SectionState.RUBBLE
    assert not state.units["grenadiers"].alive
    tank = state.units["tank"]
    assert tank.order is OrderKind.DOWN and tank.pins == 1


def test_a_wooden_house_that_holds_gives_the_tank_only_superficial_damage() -> None:
    # rifles miss (1, 1); tank 1 + 10 = 11 against 6 + 6; superficial D6 2: nothing more
    g = game([1, 1, 1, 6, 6, 2, 1], allies=heavy_tank())
    act(g, "run", "tank", enter="house")
    state = g.state
    tank = state.units["tank"]
    assert state.sight.section_state("house") is SectionState.INTACT
    assert tank.alive and not tank.immobilised and tank.pins == 2  # superficial, survived
    assert state.units["grenadiers"].alive


def test_only_heavy_tanks_drive_into_buildings() -> None:
    g = game(allies=heavy_tank("medium-tank"))
    with pytest.raises(IllegalOrder) as refused:
        act(g, "run", "tank", enter="house")
    assert refused.value.code == "not-heavy"


# ------------------------------------------------------------------ indirect fire, observers


def mortar() -> list[dict[str, Any]]:
    return [unit("mortar", row(2, 20, 3), type="medium-mortar-team"),
            unit("obs", row(3, 22, 2), type="air-observer")]


def test_a_mortar_fires_only_indirect_and_its_first_try_needs_a_six() -> None:
    # the MG may go Down (it takes it); a 6 hits; D3 pins 1; damage 2+ each: 1, 4, 4
    g = game([6, 2, 1, 4, 4, 3, 3, 1], allies=mortar())  # and a morale test at half
    events = act(g, "fire", "mortar", target="mg")
    assert kinds(events)[-2:] == ["indirect-fire", "shot-at"]  # Down is offered after the hit
    events += g.apply(Order("axis", "end"))
    fired = rolls_of(events, "indirect-fire")[0]
    assert fired["roll"]["need"] == 6 and fired["roll"]["success"]
    he = rolls_of(events, "he")[0]
    assert he["template"] == 2 and he["under"] == 3
    assert [d["need"] for d in he["damage"]] == [2, 2, 2]  # regular 4, penetration +2
    assert len(g.state.units["mg"].models) == 1


def test_each_later_try_from_the_same_place_is_one_better_and_a_hit_ranges_in() -> None:
    from fibua.rulesets.buildings.indirect import fire_indirect

    g = game([5, 5, 1, 1, 1, 1, 1], allies=mortar())
    state = g.state
    firer, target = state.units["mortar"], state.units["mg"]
    fire_indirect(state, firer, target)  # 5 misses the first try's 6
    fire_indirect(state, firer, target)  # 5 hits the second try's 5+
    assert state.ranging["mortar>mg"].ranged_in and state.ranging["mortar>mg"].tries == 2
    rolls = rolls_of(state.pending, "indirect-fire")
    assert [r["roll"]["need"] for r in rolls] == [6, 5]


def test_a_shell_on_a_building_bursts_from_the_top_floor_down() -> None:
    from fibua.rulesets.buildings.indirect import fire_indirect

    g = game([6, 3, 2, 1, 1, 1], allies=mortar())  # hit; floor 1: 3 falls; ground: D6 2
    state = g.state
    put(g, "grenadiers", section="brick", floor=1)
    fire_indirect(state, state.units["mortar"], state.units["grenadiers"])
    burst = rolls_of(state.pending, "burst")[0]
    assert burst["floor"] == 0 and len(burst["rolls"]) == 1
    he = rolls_of(state.pending, "he-in-building")[0]
    assert he["floor"] == 0 and he["unit"] is None  # the grenadiers are upstairs


def test_an_air_strike_called_arrives_next_turn_and_pins_units_nearby() -> None:
    from fibua.rulesets.buildings.actions import take_shot
    from fibua.rulesets.buildings.indirect import arrivals

    g = game([1], allies=mortar())
    act(g, "fire", "obs", target="mg", call=True)
    state = g.state
    assert [c.by for c in state.calls] == ["obs"]
    put(g, "grenadiers", line(30, 17, 6, 0.5))  # within 6in of the MG
    state.turn += 1
    force(g, [5, 1, 2, 2, 2, 2, 2])  # it strikes; D6 pins 1; the MG's three hits damage
    arrivals(state)
    assert state.waiting is not None and state.waiting.target == "mg"
    take_shot(state)  # the MG takes it without going Down
    assert not state.units["mg"].alive
    assert state.units["grenadiers"].pins == 1 and not state.calls


# ------------------------------------------------------------------ flamethrowers and fire


def flamer() -> list[dict[str, Any]]:
    return [unit("flamer", row(24, 6, 2, 0.5), type="flamethrower-team"),
            unit("smgs", row(2, 16, 4), weapon="smg")]


def test_a_flamethrower_sets_the_house_alight_and_its_occupants_flee() -> None:
    # hit on 4 (no cover counts); D6 2 hits, both damage on 3; D3+1 = 2 pins; morale
    # test 4 <= 7 passes; fire roll 4 sets the wooden house alight
    g = game([4, 2, 3, 3, 1, 2, 2, 4, 1], allies=flamer())
    act(g, "fire", "flamer", target="grenadiers")
    events = g.apply(Order("axis", "end"))
    hit = rolls_of(events, "to-hit")[0]["rolls"][0]
    assert "hard cover" not in dict(hit["basis"]) and hit["need"] == 2
    assert rolls_of(events, "flame-hits")[0]["roll"]["total"] == 2
    assert [d["roll"]["need"] for d in rolls_of(events, "damage")] == [2, 2]  # 4 less +3
    assert rolls_of(events, "morale-test")[0]["passed"]
    state = g.state
    assert state.sight.section_state("house") is SectionState.BURNING
    grenadiers = state.units["grenadiers"]
    assert grenadiers.alive and grenadiers.section is None
    assert grenadiers.order is OrderKind.DOWN and grenadiers.pins == 3
    assert len(grenadiers.models) == 4
    with pytest.raises(IllegalOrder) as refused:
        draw_for(g, "allies")
        act(g, "run", "smgs", enter="house")
    assert refused.value.code in ("not-intact", "too-far")


def test_a_failed_morale_test_after_a_flamethrower_destroys_the_unit() -> None:
    g = game([1, 6, 5, 1, 1], allies=flamer())  # a miss; morale 11 > 9; fire roll 1
    act(g, "fire", "flamer", target="grenadiers")
    g.apply(Order("axis", "end"))
    assert not g.state.units["grenadiers"].alive
    assert g.state.sight.section_state("house") is SectionState.INTACT


def test_a_gun_shield_guards_its_crew_from_the_front_only() -> None:
    from fibua.rulesets.buildings.firing import behind_shield

    g = game(allies=[unit("atg", row(4, 12, 3), type="light-anti-tank-gun", facing=0.0),
                     unit("smgs", row(2, 16, 4), weapon="smg")])
    state = g.state
    atg, mg = state.units["atg"], state.units["mg"]
    assert behind_shield(atg, mg)  # the MG is east of the gun, which faces east
    atg.facing = 180.0
    assert not behind_shield(atg, mg)


def test_he_at_an_empty_section_needs_a_three_and_can_bring_it_down() -> None:
    # 3 hits (no cover: the firer's own terms only); 2D6 of 6, 6 on the ground floor
    g = game([3, 6, 6, 1], allies=howitzer())
    put(g, "grenadiers", line(32, 4, 6, 0.5))
    events = act(g, "fire", "gun", section="house")
    hit = rolls_of(events, "to-hit")[0]["rolls"][0]
    assert hit["need"] == 3 and dict(hit["basis"]) == {"base": 3}
    assert g.state.sight.section_state("house") is SectionState.RUBBLE


def test_only_a_section_with_no_unit_in_sight_is_fired_at_as_a_building() -> None:
    g = game(allies=howitzer())
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "gun", section="house")  # the gun sees the grenadiers at the door
    assert refused.value.code == "not-empty"
    put(g, "grenadiers", section="brick", floor=1)
    g.state.knowledge["allies"].lose("grenadiers", g.state.turn)  # as if no ally saw them go in
    assert g.ruleset.allows(g.state, Order("allies", "fire", "gun", {"section": "brick"}))


def test_a_preview_gives_the_odds_and_changes_nothing() -> None:
    g = game(allies=lone_rifle())
    put(g, "rifle", [(22, 6)])
    g.state.units["rifle"].pins = 2
    before = g.state_hash()
    text = g.ruleset.preview(g.state, Order("allies", "fire", "rifle",
                                            {"target": "grenadiers"}))
    # rulings: a passed order test removes one pin, so the rifle fires with one pin left:
    # 3+ with point blank +1, one pin -1, hard cover -2 is 5+ (1/3); damage 5+ (1/3);
    # the order test first, 2D6 <= 7 (with both pins)
    assert "pins (1) -1" in text and "hits 33%" in text
    assert "removes a model 33%" in text and "7 or less (58%)" in text
    assert g.state_hash() == before


def test_a_unit_that_goes_down_after_an_he_hit_halves_the_hits() -> None:
    # hit on 3; the grenadiers go Down; 2D6 of 4, 1 = 5 hits, halved to 3; D3 pins 1;
    # damage 2+ three times
    g = game([3, 4, 1, 1, 2, 2, 2, 3, 3, 1], allies=howitzer())
    act(g, "fire", "gun", target="grenadiers")
    events = g.apply(Order("axis", "down", "grenadiers"))
    he = rolls_of(events, "he-in-building")[0]
    assert he["hits"]["value"] == 5 and len(he["damage"]) == 3


def test_the_enemy_is_told_of_a_move_only_if_it_sees_the_unit() -> None:
    g = game([1])
    put(g, "grenadiers", section="brick", floor=0)
    put(g, "mg", section="house", floor=0)
    put(g, "smgs", line(2, 22, 4))
    events = act(g, "advance", "smgs", to=[3, 22])
    moved = [e for e in events if e.kind in ("moved", "order")]
    assert moved and all(e.to == ("allies",) for e in moved)
    assert "smgs" not in {k for k, s in g.state.knowledge["axis"].sightings.items() if s.visible}


def test_the_heavy_hits_of_one_barrage_on_one_section_add_up_to_its_collapse() -> None:
    from fibua.rulesets.buildings.actions import take_shot
    from fibua.rulesets.buildings.indirect import arrivals

    allies = [unit("fo", row(24, 2, 2), type="artillery-observer"),
              unit("smgs", row(2, 16, 4), weapon="smg")]
    g = game([1], allies=allies)
    put(g, "grenadiers", section="brick", floor=0)
    put(g, "mg", section="brick", floor=1)
    act(g, "fire", "fo", at=[21, 12], call=True)
    state = g.state
    state.turn += 1
    # fo: nothing; grenadiers: heavy, 9 hits (pins 1, no damage); mg: heavy, 5 hits (pins
    # 1, no damage); the empty house: nothing. 9 + 5 = 14 brings the brick house down.
    force(g, [1, 6, 3, 3, 3, 1, *[1] * 9, 6, 2, 2, 1, 1, *[1] * 5, 1])
    arrivals(state)
    while state.waiting is not None:  # each unit hit takes it without going Down
        take_shot(state)
    assert state.sight.section_state("brick") is SectionState.RUBBLE
    assert not state.units["grenadiers"].alive and not state.units["mg"].alive


def test_a_winning_assaulter_may_regroup_up_to_six_inches_but_not_into_a_building() -> None:
    g = game([4, 4, 1, 1, 1, 3, 3, 1])
    put(g, "smgs", line(28, 14, 4, 0.8))
    act(g, "run", "smgs", assault="mg", regroup=[28, 14])
    smgs = g.state.units["smgs"]
    assert (smgs.lead.x, smgs.lead.y) == (28, 14)
    g = game([4, 4, 1, 1, 1, 3, 3, 1])
    put(g, "smgs", line(24, 16, 4, 0.8))
    put(g, "mg", line(22, 17, 3, 0.8))
    events = act(g, "run", "smgs", assault="mg", regroup=[19, 13])  # inside the brick house
    assert "no-regroup" in kinds(events) and g.state.units["smgs"].section is None


def test_an_ambush_fires_at_an_enemy_that_acts_in_sight_then_counts_as_fire() -> None:
    g = game([1, 1, 1, 1, 1, 1, 1])
    put(g, "smgs", line(20, 20, 4, 0.8))
    draw_for(g, "axis")
    act(g, "ambush", "mg")
    draw_for(g, "allies")
    events = act(g, "advance", "smgs", to=[21, 20])
    assert kinds(events).index("ambush") < kinds(events).index("moved")  # before it moves
    assert len(rolls_of(events, "to-hit")) == 5  # the MMG's five shots, all missing on 1s
    assert g.state.units["mg"].order is OrderKind.FIRE


def test_an_ambush_not_sprung_keeps_its_die_out_of_the_next_bag() -> None:
    g = game([1])
    draw_for(g, "axis")
    act(g, "ambush", "mg")
    state = g.state
    for u in state.units.values():
        if u.order is None:
            u.order = OrderKind.FIRE
    force(g, [1])
    draw_for(g, "allies")
    g.apply(Order("allies", "end"))
    mg = state.units["mg"]
    assert state.turn == 2 and mg.kept and mg.order is OrderKind.AMBUSH
    assert state.bag().total + 1 == 3  # rifles, smgs, grenadiers; the MG kept its die


def test_a_unit_entering_a_floor_held_by_an_unseen_enemy_is_stopped() -> None:
    g = game([1])
    put(g, "grenadiers", section="brick", floor=0)
    put(g, "smgs", line(15, 7, 4, 0.8))
    g.state.knowledge["allies"].lose("grenadiers", g.state.turn)  # as if no ally saw them go in
    events = act(g, "run", "smgs", enter="brick")
    assert "bumped" in kinds(events) and g.state.units["smgs"].section is None


def test_an_ambush_fires_where_the_mover_comes_into_sight_along_its_path() -> None:
    from math import dist as distance

    from fibua.rulesets.buildings.actions import Move, _along_the_way

    g = game([1, 1, 1, 1, 1])
    state = g.state
    put(g, "smgs", [(12, 12)])  # the brick house hides it from the MG
    state.units["smgs"].models[1:] = []
    state.units["mg"].order = OrderKind.AMBUSH
    assert "smgs" not in {k for k, s in state.knowledge["axis"].sightings.items() if s.visible}
    _along_the_way(state, state.units["smgs"], Move(((12, 22),), None, 0, 10.0))
    shots = rolls_of(state.pending, "to-hit")
    # at a quarter and half way (12, 14.5), (12, 17) it is still hidden; at (12, 19.5) not
    assert shots and shots[0]["range"] == round(distance((32, 14), (12, 19.5)), 2)
    assert (state.units["smgs"].lead.x, state.units["smgs"].lead.y) == (12, 12)


def _to_hit_bases(g: Game, events: list[Event], defender: str) -> list[dict[str, int]]:
    if g.to_act() == defender:  # the target may go Down first: it does not
        events = events + g.apply(Order(defender, "end"))
    return [dict(r["basis"]) for hit in rolls_of(events, "to-hit") for r in hit["rolls"]]


def test_a_tanks_machine_guns_are_no_team_down_to_one_but_a_lone_gunner_is() -> None:
    tank = [unit("tank", [{"at": [2, 5]}], type="medium-tank"),
            unit("smgs", row(2, 16, 4), weapon="smg")]
    g = game([1] * 12, allies=tank)
    put(g, "tank", [(30, 22)])
    bases = _to_hit_bases(g, act(g, "fire", "tank", target="mg"), "axis")
    assert bases and all("team down to one" not in basis for basis in bases)
    lone = [unit("mg", [{"at": [32, 14]}], type="mmg-team")]
    g = game([1] * 12, axis=lone)
    put(g, "smgs", [(26, 20), (27, 20), (28, 20), (29, 20)])
    draw_for(g, "axis")
    bases = _to_hit_bases(g, act(g, "fire", "mg", target="smgs"), "allies")
    assert bases and all(basis["team down to one"] == 1 for basis in bases)
