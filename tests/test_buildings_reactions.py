"""Buildings reactions with forced dice on the test table (tests/bld_helpers.py): going
Down against an air strike or a barrage, the passengers of an assaulted vehicle, where an
ambusher fires along a path, and a team's fixed weapon reassigned to another opening."""

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
    unit,
)
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.buildings.indirect import arrivals
from fibua.rulesets.buildings.tables import OrderKind

# ------------------------------------------------------------------ Down against a strike


def air() -> list[dict[str, Any]]:
    return [unit("mortar", row(2, 20, 3), type="medium-mortar-team"),
            unit("obs", row(3, 22, 2), type="air-observer")]


def strike_waiting(g: Game) -> None:
    """The observer calls a strike at the MG; next turn it arrives (D6 5: it strikes) and
    waits for the MG's answer."""
    act(g, "fire", "obs", target="mg", call=True)
    state = g.state
    state.turn += 1
    force(g, [5])
    arrivals(state)
    assert state.waiting is not None and state.waiting.arrival
    assert state.waiting.target == "mg" and g.to_act() == "axis"
    assert g.ruleset.legal_orders(state, "axis") == [Order("axis", "end"),
                                                     Order("axis", "down", "mg")]


def test_a_unit_struck_from_the_air_may_go_down_and_halves_the_hits() -> None:
    g = game([1], allies=air())
    strike_waiting(g)
    force(g, [1, 1, 1, 1])  # D6 pins 1; two damage rolls (3 under, halved): natural 1s
    events = g.apply(Order("axis", "down", "mg"))
    he = rolls_of(events, "he")[0]
    assert "reaction-down" in kinds(events)
    assert he["under"] == 3 and len(he["damage"]) == 2
    mg = g.state.units["mg"]
    assert mg.order is OrderKind.DOWN and g.state.waiting is None and g.state.arriving is None
    assert mg.pins == 1 and len(mg.models) == 3
    assert g.state.drawn is not None  # the turn goes on: a die is drawn


def test_a_unit_struck_that_takes_it_rolls_every_hit() -> None:
    g = game([1], allies=air())
    strike_waiting(g)
    force(g, [1, 1, 1, 1, 1])  # D6 pins 1; three damage rolls, natural 1s
    events = g.apply(Order("axis", "end"))
    assert len(rolls_of(events, "he")[0]["damage"]) == 3
    assert g.state.units["mg"].order is None


def test_only_the_unit_hit_answers_the_strike() -> None:
    g = game([1], allies=air())
    strike_waiting(g)
    before = g.state.units["grenadiers"].order
    with pytest.raises(IllegalOrder) as refused:
        g.apply(Order("axis", "down", "grenadiers"))
    assert refused.value.code == "reacting" and g.state.units["grenadiers"].order is before


def test_a_unit_already_down_is_not_asked_and_halves() -> None:
    g = game([1], allies=air())
    act(g, "fire", "obs", target="mg", call=True)
    state = g.state
    state.units["mg"].order = OrderKind.DOWN
    state.turn += 1
    force(g, [5, 1, 1, 1])
    arrivals(state)
    assert state.waiting is None and not state.calls
    assert len(rolls_of(state.pending, "he")[0]["damage"]) == 2


def test_a_strike_on_a_building_asks_the_unit_on_the_floor_it_bursts_on() -> None:
    g = game([1], allies=air())
    act(g, "fire", "obs", target="mg", call=True)
    state = g.state
    put(g, "mg", section="brick", floor=1)
    put(g, "grenadiers", section="brick", floor=0)
    state.turn += 1
    force(g, [5, 1])  # it strikes; on the top floor 1 falls through to the ground floor
    arrivals(state)
    assert state.waiting is not None and state.waiting.target == "grenadiers"
    assert state.arriving is not None and state.arriving.floor == 0


# ------------------------------------------------------------------ Down against a barrage


def test_a_heavy_hit_of_a_barrage_waits_for_the_answer_then_the_barrage_goes_on() -> None:
    allies = [unit("fo", row(12, 22, 2), type="artillery-observer"),
              unit("smgs", row(2, 16, 4), weapon="smg")]
    g = game([1], allies=allies)
    act(g, "fire", "fo", at=[34, 20], call=True)
    state = g.state
    put(g, "mg", line(32, 18, 3, 0.8))
    put(g, "smgs", line(30, 22, 4, 0.8))
    state.turn += 1
    force(g, [6])  # the MG's die: a heavy hit
    arrivals(state)
    assert state.waiting is not None and state.waiting.target == "mg"
    assert state.arriving is not None and state.arriving.heavy == "mg"
    # D6 pins 1, 2 damage rolls (3 halved) natural 1s; the SMGs: 3, D3 (a D6 of 4) 2 pins; the draw
    force(g, [1, 1, 1, 3, 4, 1])
    state.pending.clear()
    events = g.apply(Order("axis", "down", "mg"))
    assert len(rolls_of(events, "he")[0]["damage"]) == 2
    assert [r["unit"] for r in rolls_of(events, "barrage-roll")] == ["smgs"]
    assert state.units["smgs"].pins == 2 and state.arriving is None and not state.calls


# ------------------------------------------------------------------ an assaulted vehicle


def carried() -> list[dict[str, Any]]:
    return [unit("rifles", row(2, 5, 5), weapon="rifle"),
            unit("carrier", [{"at": [24, 20]}], type="carrier"),
            unit("smgs", row(24, 20, 4), weapon="smg", aboard="carrier")]


def assault_carrier(faces: list[int]) -> tuple[Game, list[Any]]:
    g = game([1], allies=carried())
    put(g, "grenadiers", line(28, 20, 6, 0.5))  # 4 in away: a surprise, no reaction fire
    draw_for(g, "axis")
    force(g, faces)
    return g, act(g, "run", "grenadiers", assault="carrier")


def test_the_passengers_of_an_assaulted_vehicle_bail_out_and_fight_first() -> None:
    # the grenadiers' six attacks: one kills (4 vs 4+); the three SMGs left strike back
    # with 1s: 1 - 0, the SMGs are destroyed; then the six grenadiers attack the carrier:
    # the first hits on a 6 and damages (6 + 2 >= 7), five miss: knocked out; the draw
    g, events = assault_carrier([4, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1])
    assert kinds(events).index("bail-out") < kinds(events).index("passengers-fight") \
        < kinds(events).index("assault-round") < kinds(events).index("close-assault")
    fight = rolls_of(events, "assault-round")[0]
    assert fight["target"] == "smgs" and len(fight["attacks"]) == 6 and len(fight["back"]) == 3
    assert not g.state.units["smgs"].alive and not g.state.units["carrier"].alive


def test_passengers_that_win_save_their_vehicle_from_the_assault() -> None:
    # the grenadiers' six attacks all miss; the four SMGs kill one: the grenadiers lose
    g, events = assault_carrier([1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1])
    assert not g.state.units["grenadiers"].alive
    assert g.state.units["carrier"].alive and g.state.units["smgs"].alive
    assert "close-assault" not in kinds(events)
    assert g.state.units["smgs"].aboard is None


# ------------------------------------------------------------------ where an ambush fires


def ambushed_run(at: str) -> tuple[Game, list[Any]]:
    """The MG on Ambush north of the brick house; the SMGs run from behind it (out of
    sight) to the north-west, coming into sight halfway. The MG's five shots miss (1s)."""
    g = game([1])
    put(g, "mg", line(17, 23, 3, 0.8))
    put(g, "smgs", line(13, 4, 4, 0.8))
    draw_for(g, "axis")
    force(g, [1])  # the next draw
    act(g, "ambush", "mg", at=at)
    assert g.state.units["mg"].ambush_at == at
    draw_for(g, "allies")
    force(g, [1] * 5 + [1])
    return g, act(g, "run", "smgs", to=[5, 12])


def test_an_ambusher_fires_by_default_where_the_mover_first_comes_into_sight() -> None:
    g, events = ambushed_run("first")
    ambush = rolls_of(events, "ambush")[0]
    assert ambush["along"] == 0.5
    assert kinds(events).index("ambush") < kinds(events).index("moved")
    assert g.state.units["mg"].order is OrderKind.FIRE


def test_an_ambusher_may_fire_at_the_last_point_of_the_path_it_sees() -> None:
    g, events = ambushed_run("last")
    assert g.state.units["mg"].order is OrderKind.FIRE
    assert "along" not in rolls_of(events, "ambush")[0]  # where the move ends
    assert kinds(events).index("moved") < kinds(events).index("ambush")


def test_the_nearest_point_is_the_one_closest_to_the_ambusher() -> None:
    from fibua.rulesets.buildings.actions import _ambush_point

    seen = [(0.25, 20.0), (0.5, 12.0), (0.75, 15.0), (1.0, 18.0)]
    assert _ambush_point("first", seen) == 0.25
    assert _ambush_point("nearest", seen) == 0.5
    assert _ambush_point("last", seen) == 1.0


def test_an_ambush_point_is_first_nearest_or_last() -> None:
    g = game([1])
    draw_for(g, "axis")
    with pytest.raises(IllegalOrder) as refused:
        act(g, "ambush", "mg", at="middle")
    assert refused.value.code == "bad-parameter" and g.state.units["mg"].order is None


# ------------------------------------------------------------------ fixed weapons inside


def mg_inside() -> Game:
    """The MG team on the brick house's ground floor (opening 0: the south door, 1: the
    east window); the SMGs south of the door, the rifles east of the window."""
    g = game([1])
    put(g, "mg", section="brick", floor=0)
    put(g, "smgs", line(17, 4, 4, 0.8))
    put(g, "rifles", line(25, 13, 10, 0.5))
    draw_for(g, "axis")
    return g


def mmg_opening(g: Game, target: str) -> list[int | None]:
    from fibua.rulesets.buildings.firing import firers

    state = g.state
    return [f.opening for f in firers(state, state.units["mg"], state.units[target], False)
            if str(f.weapon) == "mmg"]


def test_an_unassigned_team_weapon_takes_the_opening_it_first_fires_through() -> None:
    g = mg_inside()
    assert mmg_opening(g, "smgs") == [0] and mmg_opening(g, "rifles") == [1]
    force(g, [1] * 5 + [1])  # five misses; the next draw
    act(g, "fire", "mg", target="smgs")
    events = g.apply(Order("allies", "end"))  # the SMGs take it without going Down
    assert rolls_of(events, "assigned") == [{"unit": "mg", "opening": 0}]
    assert g.state.units["mg"].opening == 0
    assert mmg_opening(g, "rifles") == []  # the east window is not its opening


def test_a_team_reassigns_its_fixed_weapon_on_an_advance_without_moving() -> None:
    g = mg_inside()
    mg = g.state.units["mg"]
    mg.opening = 0
    force(g, [1])  # the next draw
    events = act(g, "advance", "mg", opening=1)
    assert rolls_of(events, "assigned") == [{"unit": "mg", "opening": 1}]
    assert mg.opening == 1 and (mg.section, mg.floor) == ("brick", 0)
    assert mmg_opening(g, "rifles") == [1] and mmg_opening(g, "smgs") == []


def test_a_team_moving_to_another_floor_assigns_anew() -> None:
    g = mg_inside()
    mg = g.state.units["mg"]
    mg.opening = 0
    force(g, [1])
    act(g, "run", "mg", floor=1, opening=3)  # the south window upstairs
    assert (mg.floor, mg.opening) == (1, 3)


def test_only_an_opening_of_the_floor_and_only_a_fixed_weapon_are_assigned() -> None:
    g = mg_inside()
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "mg", opening=2)  # the west window is upstairs
    assert refused.value.code == "no-opening" and g.state.units["mg"].order is None
    put(g, "grenadiers", section="house", floor=0)
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "grenadiers", opening=0)
    assert refused.value.code == "no-fixed-weapon"
    put(g, "mg", line(32, 14, 3, 0.8))
    with pytest.raises(IllegalOrder) as refused:
        act(g, "advance", "mg", opening=0)
    assert refused.value.code == "bad-parameter" and g.state.units["mg"].opening is None
