"""The buildings chapter to the letter: each test plays one rule with forced dice on the
test table (tests/bld_helpers.py) and quotes the sentence of the seed it checks."""

from __future__ import annotations

from typing import Any

import pytest

from bld_helpers import (
    act,
    draw_for,
    force,
    game,
    kinds,
    line,
    put,
    rolls_of,
    row,
    table_dict,
    unit,
)
from fibua.battlefield.model import SectionState
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.buildings.indirect import arrivals
from fibua.rulesets.buildings.tables import OrderKind


def _bunker_game(allies: list[dict[str, Any]], faces: list[int] | None = None,
                 axis: list[dict[str, Any]] | None = None) -> Game:
    """The test table with a bunker at 26..30 x 16..20: a door in its north wall (x 28),
    a firing slit in its south wall (x 28); an axis team inside unless `axis` says."""
    from bld_helpers import forced_game
    from fibua.scenario.loader import scenario_from_dict

    data = table_dict(allies=allies, axis=axis if axis is not None else [
        unit("crew", row(27, 17, 3), type="mmg-team",
             inside={"section": "pillbox", "floor": 0}),
        unit("mg", row(32, 2, 3), type="mmg-team")])
    data["map"]["buildings"].append({"id": "pillbox-b", "name": "Pillbox", "sections": [{
        "id": "pillbox", "footprint": [[26, 16], [30, 16], [30, 20], [26, 20]],
        "construction": "bunker",
        "openings": [{"kind": "slit", "wall": 0, "floor": 0, "at": 2, "width": 1},
                     {"kind": "door", "wall": 2, "floor": 0, "at": 2, "width": 1}]}]})
    data["victory"] = [{"side": "allies", "kind": "hold", "sections": ["house"], "points": 1,
                        "description": "take the house"}]
    g = forced_game(scenario_from_dict(data, "buildings-test-table"), [1])
    force(g, faces or [])
    return g


# ------------------------------------------------------------------ heavy weapons, walls


def test_a_heavy_weapon_fires_at_a_wall_with_no_opening() -> None:
    # "heavy weapons don't need to see an opening to shoot, but just need to be able to
    # draw a line of fire to any wall of the corresponding floor"
    g = game([2, 1, 1], allies=[unit("gun", [{"at": [28, 1]}], type="medium-howitzer"),
                                unit("rifles", row(2, 5, 3), weapon="rifle")])
    assert g.state.knowledge["allies"].sightings["grenadiers"].visible  # the rifles see the door
    events = act(g, "fire", "gun", target="grenadiers")
    fire = rolls_of(events, "fire")[0]
    assert fire["weapons"] == ["medium-howitzer"]
    hit = rolls_of(events, "to-hit")[0]
    # "Range and line of sight are measured to the walls of the building's floor"
    assert hit["range"] == pytest.approx(3.0, abs=0.1)


def test_small_arms_still_need_an_opening() -> None:
    # "Units armed with small-arms can shoot at enemy inside buildings if they have a line
    # of fire to any opening on the floor occupied by the target."
    g = game(allies=[unit("rifle", [{"at": [28, 1]}], weapon="rifle"),
                     unit("rifles", row(2, 5, 3), weapon="rifle")])
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "rifle", target="grenadiers")
    assert refused.value.code == "no-sight"


def test_a_heavy_weapon_fires_at_an_unseen_side_only_when_the_side_sees_the_unit() -> None:
    g = game(allies=[unit("gun", [{"at": [28, 1]}], type="medium-howitzer"),
                     unit("rifles", row(2, 20, 3), weapon="rifle")])
    put(g, "rifles", line(2, 20, 3))
    assert not g.state.knowledge["allies"].sightings.get("grenadiers") or \
        not g.state.knowledge["allies"].sightings["grenadiers"].visible
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "gun", target="grenadiers")
    assert refused.value.code == "no-sight"


# ------------------------------------------------------------------ bunkers


def test_a_bunker_is_fired_into_through_its_slits_not_its_door() -> None:
    # "models can only fire from/towards firing slits and not through doors or through
    # solid walls (this applies to heavy weapons as well as small arms)"
    g = _bunker_game([unit("rifle", [{"at": [28, 23]}], weapon="rifle"),
                      unit("gun", [{"at": [27, 23.5]}], type="medium-howitzer")], [1] * 5)
    for firer in ("rifle", "gun"):
        with pytest.raises(IllegalOrder) as refused:
            act(g, "fire", firer, target="crew")
        assert refused.value.code in ("no-sight", "out-of-range")
    put(g, "rifle", [(28, 13)])
    events = act(g, "fire", "rifle", target="crew")
    events += g.apply(Order("axis", "end"))
    basis = dict(rolls_of(events, "to-hit")[0]["rolls"][0]["basis"])
    assert basis["bunker cover"] == 4


def test_troops_in_a_bunker_fire_out_through_slits_only() -> None:
    g = _bunker_game([unit("rifle", [{"at": [28, 23]}], weapon="rifle"),
                      unit("smgs", row(2, 16, 4), weapon="smg")])
    g.state.drawn = "axis"
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "crew", target="rifle")
    assert refused.value.code in ("no-sight", "out-of-range")


def test_a_bunker_is_entered_by_its_door_not_its_slit() -> None:
    # "Bunkers can only be accessed through doors and not through firing slits."
    g = _bunker_game([unit("smgs", row(27, 14.5, 3, 0.8), weapon="smg"),
                      unit("rifle", [{"at": [2, 2]}], weapon="rifle")],
                     [1] * 3, axis=[unit("mg", row(32, 2, 3), type="mmg-team")])
    with pytest.raises(IllegalOrder):
        act(g, "run", "smgs", enter="pillbox")
    put(g, "smgs", line(27, 21.5, 3, 0.8))
    act(g, "run", "smgs", enter="pillbox")
    assert g.state.units["smgs"].section == "pillbox"
    assert g.state.units["smgs"].order is OrderKind.RUN


# ------------------------------------------------------------------ leaving to assault


def test_return_fire_at_assaulters_leaping_out_has_no_cover() -> None:
    # "calculates fire once the assaulting troops have left the building, i.e. without the
    # benefit of cover"
    g = game([6] * 5 + [4, 1, 1, 1, 1] + [6, 6, 6] + [1] * 5)
    put(g, "smgs", section="brick", floor=0)
    put(g, "mg", line(28, 14, 3))
    events = act(g, "run", "smgs", assault="mg")
    assert "leaps-out" in kinds(events) and "reaction-fire" in kinds(events)
    hit = rolls_of(events, "to-hit")[0]["rolls"][0]
    assert "hard cover" not in dict(hit["basis"]) and hit["need"] == 3
    damage = rolls_of(events, "damage")[0]["roll"]
    assert damage["need"] == 4 and damage["success"]  # no extra protection


def test_a_unit_leaps_out_at_an_enemy_in_another_building() -> None:
    # "by leaping out from the building and attacking enemy outside their building
    # (including enemies in a different not-adjoining building ...)"
    g = game([1, 1] + [6, 6, 6, 6] + [1] * 6 + [1] * 3)  # two rifles at its door
    put(g, "smgs", section="brick", floor=0)
    events = act(g, "run", "smgs", assault="grenadiers")
    assert "reaction-fire" in kinds(events)  # over 6in from the house: they may fire
    assert not g.state.units["grenadiers"].alive
    smgs = g.state.units["smgs"]
    assert (smgs.section, smgs.floor) == ("house", 0)


def test_an_assault_on_a_building_is_measured_to_a_ground_floor_opening() -> None:
    # "Measure the move to any opening on the ground floor."
    g = game([6, 6, 6, 6] + [1] * 6 + [1] * 3)
    put(g, "grenadiers", section="brick", floor=0)
    put(g, "smgs", line(9, 23, 4, 0.8))  # 8.3in from a wall, over 13in from any opening
    with pytest.raises(IllegalOrder) as refused:
        act(g, "run", "smgs", assault="grenadiers")
    assert refused.value.code == "too-far"
    put(g, "smgs", line(15, 5, 4, 0.8))
    act(g, "run", "smgs", assault="grenadiers", take=False)
    # "the assaulting models are moved into contact with the building, with at least one
    # model in contact with an opening"; and it "can" take the floor: here it does not
    smgs = g.state.units["smgs"]
    assert not g.state.units["grenadiers"].alive and smgs.section is None
    assert abs(smgs.lead.x - 17) < 0.1 and abs(smgs.lead.y - 10) < 0.1
    assert all(9 <= m.y <= 10 for m in smgs.models)


# ------------------------------------------------------------------ entering


def test_one_run_leaves_one_building_and_enters_another() -> None:
    g = game([1] * 3)
    put(g, "smgs", section="house", floor=0)
    g.state.units["grenadiers"].destroyed = True
    act(g, "run", "smgs", enter="brick")
    smgs = g.state.units["smgs"]
    assert (smgs.section, smgs.floor) == ("brick", 0)


def test_one_model_reaching_an_opening_is_enough_to_enter() -> None:
    # "all the models in the unit must get to within 1" of the building, and at least one
    # model must reach an opening such as a door or window"
    g = game([1] * 3)
    put(g, "smgs", line(4.4, 9, 4, 0.8))  # the first model 12.6in from the door, the last 10.2
    act(g, "run", "smgs", enter="brick")
    assert g.state.units["smgs"].section == "brick"


# ------------------------------------------------------------------ indirect fire, strikes


def _spotters() -> list[dict[str, Any]]:
    return [unit("mortar", row(2, 20, 3), type="medium-mortar-team"),
            unit("obs", row(3, 22, 2), type="air-observer")]


def test_a_mortar_fires_at_an_empty_building() -> None:
    # "Players are allowed to target an empty building with HE weapons, flamethrowers, air
    # strikes or artillery barrages"; the shell falls through the floors as at a unit
    g = game([6, 4, 3, 1, 1, 1], allies=_spotters())
    events = act(g, "fire", "mortar", section="brick")
    fired = rolls_of(events, "indirect-fire")[0]
    assert fired["section"] == "brick" and fired["roll"]["need"] == 6
    assert rolls_of(events, "he-in-building")[0]["floor"] == 1  # a 4 bursts on the top
    assert g.state.ranging["mortar>brick"].ranged_in


def test_an_air_strike_at_an_empty_building_can_bring_it_down() -> None:
    g = game([1], allies=_spotters())
    act(g, "fire", "obs", section="brick", call=True)
    state = g.state
    state.turn += 1
    force(g, [5, 4, 6, 6, 6])  # it strikes; 4 bursts on the top floor; 3D6 18 hits
    arrivals(state)
    assert state.sight.section_state("brick") is SectionState.RUBBLE


def test_a_strike_that_falls_to_another_floor_pins_the_unit_called_not_the_unit_hit() -> None:
    # "pin markers are placed around as normal, measuring ranges from the building itself"
    g = game([1], allies=_spotters())
    put(g, "grenadiers", section="brick", floor=1)
    put(g, "mg", section="brick", floor=0)
    act(g, "fire", "obs", target="grenadiers", call=True)
    state = g.state
    state.turn += 1
    # strikes; 2 falls to the ground floor; the MG takes it: 3D6 3 hits, D6 2 pins, no
    # damage
    force(g, [5, 2, 1, 1, 1, 2, 1, 1, 1, 1, 1])  # and the next die from the bag
    arrivals(state)
    assert state.waiting is not None and state.waiting.target == "mg"
    g.apply(Order("axis", "end"))
    assert state.units["mg"].pins == 2  # the HE's pins only
    assert state.units["grenadiers"].pins == 1  # a pin as a unit near


def test_indirect_range_to_a_building_is_measured_to_its_walls() -> None:
    # "measure the range to the building (as above for HE shells fired directly)"
    g = game([1] * 4, allies=[unit("mortar", row(3, 6, 2), type="light-mortar-team"),
                              unit("rifles", row(2, 20, 3), weapon="rifle")])
    # the house's west wall 23in away, its middle 25in: within a light mortar's 12-24
    act(g, "fire", "mortar", target="grenadiers")
    g2 = game([1] * 4, allies=[unit("mortar", row(4, 13, 2), type="medium-mortar-team"),
                               unit("rifles", row(2, 20, 3), weapon="rifle")])
    put(g2, "grenadiers", section="brick", floor=0)
    with pytest.raises(IllegalOrder) as refused:  # walls 10in away, its middle 13in
        act(g2, "fire", "mortar", target="grenadiers")
    assert refused.value.code == "out-of-range"


def _tank(kind: str) -> list[dict[str, Any]]:
    return [unit("tank", [{"at": [32, 14]}], type=kind, facing=90),
            unit("grenadiers", row(27, 5, 6), weapon="rifle",
                 inside={"section": "house", "floor": 0})]


def test_a_mortar_on_a_tank_strikes_its_top_armour() -> None:
    # HE that hits an armoured vehicle is one hit at its penetration; indirect fire
    # "already receive[s]" the top armour bonus
    g = game([6, 5, 1, 1], allies=_spotters(), axis=_tank("medium-tank"))
    act(g, "fire", "mortar", target="tank")
    events = g.apply(Order("axis", "end"))
    damage = rolls_of(events, "damage")[0]["roll"]
    assert damage["need"] == 6  # medium 9, HE 2in +2, top +1
    assert dict(damage["basis"])["top armour"] == -1 and not damage["success"]
    tank = g.state.units["tank"]
    assert tank.alive and tank.pins == 1


def test_an_air_strike_on_a_heavy_tank_needs_its_armour_beaten() -> None:
    g = game([1], allies=_spotters(), axis=_tank("heavy-tank"))
    act(g, "fire", "obs", target="tank", call=True)
    state = g.state
    state.turn += 1
    force(g, [5, 2, 1, 1])  # it strikes; the damage die 2 cannot beat heavy armour
    arrivals(state)
    g.apply(Order("axis", "end"))
    damage = rolls_of(g.log, "damage")[-1]["roll"]
    assert damage["need"] == 5 and not damage["success"]  # heavy 10, +4, top +1
    assert state.units["tank"].alive


# ------------------------------------------------------------------ running through sections


def _row_game(middle: float) -> Game:
    """The test table with a two-floor building of three sections in a row at y 19..23:
    a (x 12..16), b (16..16+middle), c (4in wide), a connected to b, b to c by doors; a
    window in b's south wall on each floor."""
    from bld_helpers import forced_game
    from fibua.scenario.loader import scenario_from_dict

    data = table_dict(axis=[unit("mg", row(32, 2, 3), type="mmg-team"),
                            unit("grenadiers", row(30, 12, 6), weapon="rifle")])
    e = 16 + middle

    def box(x0: float, x1: float) -> list[list[float]]:
        return [[x0, 19], [x1, 19], [x1, 23], [x0, 23]]

    data["map"]["buildings"].append({"id": "row-b", "name": "Row", "sections": [
        {"id": "a", "footprint": box(12, 16), "floors": 2,
         "openings": [{"kind": "door", "wall": 0, "floor": 0, "at": 2, "width": 1},
                      {"kind": "door", "wall": 1, "floor": 0, "at": 2, "width": 1}]},
        {"id": "b", "footprint": box(16, e), "floors": 2,
         "openings": [{"kind": "window", "wall": 0, "floor": f, "at": 1, "width": 1}
                      for f in (0, 1)]
         + [{"kind": "door", "wall": 1, "floor": 0, "at": 2, "width": 1}]},
        {"id": "c", "footprint": box(e, e + 4), "floors": 2,
         "openings": [{"kind": "door", "wall": 0, "floor": 0, "at": 2, "width": 1}]}],
        "connections": [["a", "b"], ["b", "c"]]})
    g = forced_game(scenario_from_dict(data, "buildings-test-table"), [1])
    force(g, [1] * 4)
    return g


def test_a_run_passes_through_a_house_sized_section_to_the_next() -> None:
    # "A Run order can be used to ... move up to two adjoining buildings"
    g = _row_game(4)
    put(g, "smgs", section="a", floor=1)
    act(g, "run", "smgs", section="c", floor=1)
    assert g.state.units["smgs"].section == "c"


def test_a_run_does_not_pass_through_a_section_larger_than_a_move() -> None:
    # "If a single building section has dimensions greater than a standard infantry move,
    # running troops are not allowed to move through two sections at once"
    g = _row_game(7)
    put(g, "smgs", section="a", floor=1)
    with pytest.raises(IllegalOrder) as refused:
        act(g, "run", "smgs", section="c", floor=1)
    assert refused.value.code == "no-way-through"


def test_a_run_does_not_pass_through_a_floor_the_enemy_holds() -> None:
    # "Floors that are occupied by enemy troops cannot be moved into except by means of an
    # assault"
    g = _row_game(4)
    put(g, "smgs", section="a", floor=1)
    put(g, "grenadiers", section="b", floor=1)
    put(g, "rifles", line(16.5, 16, 10, 0.8))  # they see b's window: the enemy is known
    with pytest.raises(IllegalOrder) as refused:
        act(g, "run", "smgs", section="c", floor=1)
    assert refused.value.code == "no-way-through"
    put(g, "rifles", line(26, 22.5, 10, 0.8))  # no longer seen: the run is stopped there
    events = act(g, "run", "smgs", section="c", floor=1)
    assert "bumped" in kinds(events) and g.state.units["smgs"].section == "a"


# ------------------------------------------------------------------ dividing fire


def test_a_unit_inside_divides_its_fire_one_target_a_side() -> None:
    # "A unit in a building can divide its fire against different targets on different
    # sides of a building, but all fire from each side of a building must be aimed at the
    # same target."
    g = game([1, 1, 1, 1, 1, 1])
    put(g, "grenadiers", section="brick", floor=0)
    put(g, "smgs", line(16, 6, 4, 0.8))  # seen by the south door only
    put(g, "rifles", line(23, 13, 10, 0.5))  # seen by the east window only
    draw_for(g, "axis")
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "grenadiers", targets=["smgs", "smgs"])
    assert refused.value.code == "bad-parameter"
    events = act(g, "fire", "grenadiers", targets=["smgs", "rifles"])
    events += g.apply(Order("allies", "end"))  # the SMGs take it
    events += g.apply(Order("allies", "end"))  # and the rifles
    fired = rolls_of(events, "fire")
    assert [(f["target"], len(f["weapons"])) for f in fired] == [("smgs", 2), ("rifles", 2)]


def test_two_targets_on_one_side_are_refused() -> None:
    g = game()
    put(g, "grenadiers", section="brick", floor=0)
    put(g, "smgs", line(16, 6, 4, 0.8))
    put(g, "rifles", line(15, 4, 10, 0.3))  # also south: the same side
    draw_for(g, "axis")
    with pytest.raises(IllegalOrder) as refused:
        act(g, "fire", "grenadiers", targets=["smgs", "rifles"])
    assert refused.value.code == "no-sight"
