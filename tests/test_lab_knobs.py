"""Knobs: each named and typed, applied to the scenario table as it says, written as an
overlay that lays the change over the file again, and a bad knob refused with one line
and status 2."""

from __future__ import annotations

import pytest

from fibua.core.errors import InputError
from fibua.lab.knobs import KnobKind, parse_knob
from fibua.lab.overrides import lay_over, overlay_between
from fibua.scenario.schema import Scenario
from first_written import first_written, first_written_raw
from lab_helpers import lab


@pytest.fixture(scope="module")
def corner_shop() -> Scenario:
    """The file as first written (six Germans, ten turns): the knobs' figures below are
    its own, whatever the balancing has made of the bundled file since."""
    return first_written("corner-shop")


def figures(raw: dict, side: str) -> list[str]:  # type: ignore[type-arg]
    found = next(s for s in raw["sides"] if s["name"] == side)
    return [f["id"] for unit in found["forces"]["units"] for f in unit["figures"]]


def test_turns_sets_the_turn_limit(corner_shop: Scenario) -> None:
    knob = parse_knob(corner_shop, "turns=6..14")
    assert (knob.kind, knob.current, knob.values()) == (KnobKind.TURNS, 10, list(range(6, 15)))
    assert knob.scenario(corner_shop, 13).scenario.turns == 13
    assert corner_shop.scenario.turns == 10  # the scenario itself is left as it was


def test_points_sets_one_victory_conditions_points(corner_shop: Scenario) -> None:
    # the fourth condition: the Germans' squad still in the fight, 1 point in the file
    knob = parse_knob(corner_shop, "points.4=0..5")
    assert knob.current == 1
    tuned = knob.scenario(corner_shop, 4)
    assert [v.points for v in tuned.victory] == [3, 2, 3, 4]


def test_a_side_count_fields_the_first_figures_of_the_file(corner_shop: Scenario) -> None:
    knob = parse_knob(corner_shop, "count.germans=1..6")
    assert knob.current == 6
    raw = knob.apply(corner_shop.raw, 3)
    # the MG-Trupp's two, then the first of Gruppe Kessler
    assert figures(raw, "germans") == ["lindner", "pohl", "kessler"]
    raw = knob.apply(corner_shop.raw, 1)
    germans = next(s for s in raw["sides"] if s["name"] == "germans")
    assert [u["id"] for u in germans["forces"]["units"]] == ["mg-trupp"]  # emptied: gone
    assert figures(raw, "british") == figures(corner_shop.raw, "british")


def test_a_unit_count_fields_the_first_of_its_figures(corner_shop: Scenario) -> None:
    knob = parse_knob(corner_shop, "count.gruppe-kessler=0..4")
    assert knob.current == 4
    assert figures(knob.apply(corner_shop.raw, 2), "germans") == \
        ["lindner", "pohl", "kessler", "braun"]
    assert figures(knob.apply(corner_shop.raw, 0), "germans") == ["lindner", "pohl"]


def test_depth_moves_the_zone_front_and_the_troops_in_the_open(corner_shop: Scenario) -> None:
    knob = parse_knob(corner_shop, "depth.british=3..7")
    assert knob.current == 3  # the British zone: 40 x 3 on the south edge
    raw = knob.apply(corner_shop.raw, 7)
    british = next(s for s in raw["sides"] if s["name"] == "british")
    assert british["deployment"] == [[0, 0], [40, 0], [40, 7], [0, 7]]
    before = {f["id"]: f["at"] for u in corner_shop.raw["sides"][0]["forces"]["units"]
              for f in u["figures"]}
    after = {f["id"]: f["at"] for u in british["forces"]["units"] for f in u["figures"]}
    assert all(after[i] == [x, y + 4] for i, (x, y) in before.items())
    knob.scenario(corner_shop, 7)  # still a valid scenario


def test_depth_leaves_troops_inside_buildings_where_they_are() -> None:
    scenario = first_written("village-street")  # 9 Section still in the gardens
    knob = parse_knob(scenario, "depth.british=22..24")  # the west edge, 22 deep
    raw = knob.apply(scenario.raw, 24)
    assert raw["sides"][1]["deployment"] == [[0, 0], [24, 0], [24, 48], [0, 48]]
    stayed = moved = 0
    old = scenario.raw["sides"][1]["forces"]["units"]
    for was, now in zip(old, raw["sides"][1]["forces"]["units"], strict=True):
        for f, g in zip(was["models"], now["models"], strict=True):
            # a unit set up inside a building keeps its place; one in the open comes 2 on
            inside = "inside" in was
            assert g["at"] == (f["at"] if inside else [f["at"][0] + 2, f["at"][1]])
            stayed, moved = stayed + inside, moved + (not inside)
    assert stayed and moved
    knob.scenario(scenario, 24)


@pytest.mark.parametrize("text", ["turns=6..14", "points.3=1..4", "count.germans=2..5",
                                  "count.gruppe-kessler=1..3", "depth.british=3..7"])
def test_the_overlay_of_a_value_lays_the_change_over_the_file(corner_shop: Scenario,
                                                              text: str) -> None:
    knob = parse_knob(corner_shop, text)
    value = knob.low + 1
    tuned = knob.apply(corner_shop.raw, value)
    overlay = overlay_between(corner_shop.raw, tuned)
    assert "map" not in overlay  # only what changed
    raw = first_written_raw("corner-shop")
    lay_over(raw, overlay, "overlay")
    assert raw == tuned


@pytest.mark.parametrize(("text", "says"), [
    ("turns", "is not NAME=LOW..HIGH"),
    ("turns=8..8", "empty or one value"),
    ("turns=12..6", "empty or one value"),
    ("morale=1..3", "no knob 'morale'"),
    ("turns=0..5", "at least 1 turn"),
    ("turns.germans=6..9", "takes no part after it"),
    ("points.9=1..3", "1: british hold; 2: british eliminate"),
    ("points.x=1..3", "by its number"),
    ("count=1..3", "count needs a side or a unit"),
    ("count.panzers=1..3", "no side or unit 'panzers'"),
    ("count.germans=2..9", "only take troops away, and the file fields 6"),
    ("depth.germans=3..9", "does not stand on one table edge"),
    ("depth.british=3..45", "depth.british=8 would carry troops in the open"),
    ("depth.british=1..6", "depth.british=1 does not make a valid corner-shop: "
                           "sides[0].forces.units[0].figures[1].at: (5.5, -0.5) is off"),
    ("turns=1..900", "more than a search takes"),
])
def test_a_bad_knob_is_refused_with_one_line(corner_shop: Scenario, text: str,
                                             says: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_knob(corner_shop, text)
    assert len(refused.value.problems) == 1
    assert says in str(refused.value)
    assert "\n" not in str(refused.value)


def test_the_command_refuses_a_bad_knob_with_status_2() -> None:
    result = lab("tune", "corner-shop", "--knob", "bogus=1..3")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines == ["error: --knob: no knob 'bogus'; knobs: turns, points.N, count.SIDE, "
                     "count.UNIT, depth.SIDE"]


def test_the_command_refuses_a_bad_level_with_status_2() -> None:
    result = lab("tune", "corner-shop", "--knob", "turns=6..8", "--level", "grandmaster")
    assert result.exit_code == 2
    assert "no player 'grandmaster'" in result.output


def test_depth_does_not_carry_troops_in_the_open_into_a_building(
        corner_shop: Scenario) -> None:
    # 8 deep, Private Whitcombe (23, 2) would start at (23, 7), in the Duval house
    with pytest.raises(InputError, match=r"depth.british=8 would carry troops in the "
                                         r"open at \(23, 2\) into a building"):
        parse_knob(corner_shop, "depth.british=3..24")
    parse_knob(corner_shop, "depth.british=3..7")
