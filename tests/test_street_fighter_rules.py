"""Every Street Fighter rule pinned with forced dice, against the seed's numbers.

Positions use the cm test table of sfr_helpers. The open lane east of the house (x 70..80,
y 20..70) is the usual firing range: the firer stands at (75, 25) and the target r cm north.
Every game starts with the two observation d10s of turn 1 (blue's formation, then red's).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fibua.core.errors import IllegalOrder
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.street_fighter.state import Activity
from fibua.rulesets.street_fighter.tables import SHOOTING, Row
from sfr_helpers import forced_game, make_scenario, unit

SEES_ALL = 9  # an observation die that spots everything the tables allow at all


def new_game(blue: list[dict[str, Any]], red: list[dict[str, Any]], faces: list[int],
             **kw: Any) -> Game:
    return forced_game(make_scenario(blue, red, **kw), faces)


def act(game: Game, kind: str, uid: str, **params: Any) -> list[Event]:
    return game.apply(Order(game.state.units[uid].side, kind, uid, params))


def end(game: Game) -> list[Event]:
    side = game.to_act()
    assert side is not None
    return game.apply(Order(side, "end"))


def finish_turn(game: Game) -> list[Event]:
    turn = game.state.turn
    out: list[Event] = []
    while game.state.turn == turn and not game.over:
        out += end(game)
    return out


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def doing(game: Game, uid: str, activity: Activity) -> None:
    """Set what a unit is seen doing (its latest action) and look again."""
    from fibua.rulesets.street_fighter.knowledge import refresh

    game.state.units[uid].activity = activity
    refresh(game.state)
    game.state.pending.clear()


def refused(game: Game, order: Order) -> str:
    before = (game.state_hash(), len(game.log))
    with pytest.raises(IllegalOrder) as caught:
        game.apply(order)
    assert (game.state_hash(), len(game.log)) == before
    return caught.value.reason


def dice_left(game: Game) -> list[int]:
    faces: list[int] = game.state.rng.faces
    return faces


# ------------------------------------------------------------------ the shooting table

FIRER_KIND = {"tank": "sherman", "infantry": "infantry-section", "mmg": "mmg-section",
              "direct-mortar": "mortar-section", "sniper": "sniper", "at-gun": "at-gun",
              "rocket": "infantry-section"}
ROW = {"tank": Row.TANK, "infantry": Row.INFANTRY, "mmg": Row.MMG,
       "direct-mortar": Row.DIRECT_MORTAR, "sniper": Row.SNIPER, "at-gun": Row.TANK,
       "rocket": Row.ROCKET}
#: both sides of each band edge: up to 10 cm, up to 25 cm, over 25 cm
RANGES = {10.0: 0, 10.5: 1, 25.0: 1, 25.5: 2, 40.0: 2}


def firing_range(firer: str, distance: float) -> Game:
    target = unit("r1", "m3-halftrack" if firer == "rocket" else "infantry-section",
                  (75, 25 + distance))
    red = [target, unit("r2", "infantry-section", rides="r1")] if firer == "rocket" else [target]
    return new_game([unit("b1", FIRER_KIND[firer], (75, 25))], red, [SEES_ALL, 0, 5])


@pytest.mark.parametrize("distance", list(RANGES))
@pytest.mark.parametrize("firer", list(FIRER_KIND))
def test_every_row_and_band_of_the_shooting_table(firer: str, distance: float) -> None:
    need = SHOOTING[ROW[firer]][RANGES[distance]]
    extra = {"weapon": "rocket"} if firer == "rocket" else {}
    if need is None:
        game = firing_range(firer, distance)
        order = Order("blue", "shoot", "b1", {"target": "r1", **extra})
        assert "10 cm" in refused(game, order)
        return
    for face, hits in ((need, True), (need - 1, False)):
        if not 0 <= face <= 9:
            continue
        game = firing_range(firer, distance)
        game.state.rng.faces[:] = [face]
        (shot,) = of_kind(act(game, "shoot", "b1", target="r1", **extra), "shot")
        assert shot["roll"]["need"] == need and shot["roll"]["faces"] == [face]
        assert shot["roll"]["modifiers"] == [] and shot["hit"] is hits
        assert shot["row"] == str(ROW[firer])


def test_the_table_itself() -> None:
    assert SHOOTING[Row.TANK] == (4, 4, 4)
    assert SHOOTING[Row.INFANTRY] == (4, 5, 6)
    assert SHOOTING[Row.MMG] == (4, 4, 5)
    assert SHOOTING[Row.DIRECT_MORTAR] == (None, 5, 5)
    assert SHOOTING[Row.SNIPER] == (8, 8, 9)
    assert SHOOTING[Row.ROCKET] == (5, None, None)


def test_a_hit_on_infantry_costs_a_hit_point_and_pins() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "infantry-section", (75, 30))], [SEES_ALL, 0, 4])
    act(game, "shoot", "b1", target="r1")
    r1 = game.state.units["r1"]
    assert r1.hp == 2 and r1.pinned


# ------------------------------------------------------------------ modifiers


def shoot_once(game: Game, face: int, **params: Any) -> dict[str, Any]:
    game.state.rng.faces[:] = [face]
    (shot,) = of_kind(act(game, "shoot", "b1", **params), "shot")
    return shot


def modifiers(shot: dict[str, Any]) -> dict[str, int]:
    return {name: value for name, value in shot["roll"]["modifiers"]}


def test_firer_moved_is_minus_four_and_half_a_move() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "infantry-section", (75, 40))], [SEES_ALL, 0, 9])
    too_far = Order("blue", "move-fire", "b1", {"to": [75, 28], "target": "r1"})
    assert "2.5 cm" in refused(game, too_far)
    events = act(game, "move-fire", "b1", to=[75, 27.5], target="r1")
    (shot,) = of_kind(events, "shot")
    assert modifiers(shot) == {"firer moved": -4}
    assert shot["roll"]["need"] == 5 and shot["roll"]["total"] == 5 and shot["hit"]


def test_target_moving_flat_out_is_minus_one() -> None:
    game = new_game([unit("b1", "sherman", (75, 25))],
                    [unit("r1", "infantry-section", (75, 40))], [SEES_ALL, 0])
    doing(game, "r1", Activity.FLAT_OUT)
    shot = shoot_once(game, 4, target="r1")
    assert modifiers(shot) == {"target moving flat out": -1} and not shot["hit"]


def test_firer_pinned_is_minus_two() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "infantry-section", (75, 40))], [SEES_ALL, 0])
    game.state.units["b1"].pinned = True
    shot = shoot_once(game, 7, target="r1")
    assert modifiers(shot) == {"firer pinned": -2} and shot["roll"]["total"] == 5
    assert shot["hit"]


def test_target_in_a_building_area_is_minus_four() -> None:
    # through the east window of the house, the target firing so that it can be seen
    game = new_game([unit("b1", "sherman", (45, 25))],
                    [unit("r1", "infantry-section", (30, 25))], [SEES_ALL, 0])
    doing(game, "r1", Activity.FIRED)
    shot = shoot_once(game, 8, target="r1")
    assert modifiers(shot) == {"target in building": -4} and shot["hit"]
    game = new_game([unit("b1", "sherman", (45, 25))],
                    [unit("r1", "infantry-section", (30, 25))], [SEES_ALL, 0])
    doing(game, "r1", Activity.FIRED)
    assert not shoot_once(game, 7, target="r1")["hit"]


def test_target_in_a_strong_building_area_is_minus_five() -> None:
    game = new_game([unit("b1", "sherman", (66, 53))],
                    [unit("r1", "infantry-section", (56, 53))], [SEES_ALL, 0])
    doing(game, "r1", Activity.FIRED)
    shot = shoot_once(game, 9, target="r1")
    assert modifiers(shot) == {"target in strong-building": -5} and shot["hit"]


def test_target_in_an_armoured_halftrack_is_minus_two_and_the_passengers_take_it() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "m3-halftrack", (75, 40)),
                     unit("r2", "infantry-section", rides="r1")], [SEES_ALL, 0])
    shot = shoot_once(game, 7, target="r1")
    assert modifiers(shot) == {"target in armoured-halftrack": -2} and shot["hit"]
    state = game.state
    assert state.units["r1"].hp == 1 and state.units["r2"].hp == 2
    assert state.units["r2"].pinned


@pytest.mark.parametrize("riders", [0, 1])
def test_small_arms_may_fire_at_an_armoured_vehicle_whoever_rides_inside(riders: int) -> None:
    """Whether anyone rides inside is not for blue to know: the order is allowed, listed
    and previewed the same either way."""
    red = [unit("r1", "m3-halftrack", (75, 40))]
    red += [unit("r2", "infantry-section", rides="r1")] * riders
    game = new_game([unit("b1", "infantry-section", (75, 25))], red, [SEES_ALL, 0])
    order = Order("blue", "shoot", "b1", {"target": "r1"})
    assert game.ruleset.allows(game.state, order)
    assert order in game.legal_orders("blue")
    preview = game.ruleset.preview(game.state, order)
    assert preview.endswith("a hit falls on whoever rides inside, if anyone does")


def test_small_arms_at_an_empty_armoured_vehicle_have_no_effect() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "m3-halftrack", (75, 40))], [SEES_ALL, 0])
    events = act(game, "shoot", "b1", target="r1")
    assert not of_kind(events, "shot") and dice_left(game) == []  # nothing to roll for
    (nothing,) = [e for e in events if e.kind == "no-effect"]
    assert nothing.to == ("blue",)
    assert nothing.data == {"firer": "b1", "target": "r1", "row": "infantry"}
    (report,) = [e for e in events if e.kind == "fired-on"]
    assert report.to == ("red",) and report.data["hits"] == 0
    state = game.state
    assert state.units["r1"].alive and state.units["b1"].acted
    assert state.units["b1"].activity is Activity.FIRED
    assert state.units["b1"].last_fired_turn == state.turn
    assert "no-effect" not in [e.kind for e in game.log_for("red")]


def test_refusals_put_an_before_a_vowel_sound() -> None:
    from fibua.rulesets.street_fighter.tables import a_or_an

    assert [a_or_an(w) for w in ("Anti-tank gun", "M3 halftrack", "HQ section", "T34",
                                 "Sherman", "Lorry")] == [
        "an Anti-tank gun", "an M3 halftrack", "an HQ section", "a T34", "a Sherman",
        "a Lorry"]
    game = new_game([unit("ht", "m3-halftrack", (75, 25)), unit("g1", "at-gun", (75, 29))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0])
    assert "an Anti-tank gun cannot ride" in refused(
        game, Order("blue", "mount", "g1", {"vehicle": "ht"}))


def test_lorry_is_plus_one_any_hit_knocks_it_out_and_doubles_the_effect_inside() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "lorry", (75, 40)), unit("r2", "infantry-section", rides="r1"),
                     unit("r3", "mmg-section", rides="r1")], [SEES_ALL, 0])
    shot = shoot_once(game, 4, target="r1")
    assert modifiers(shot) == {"target in lorry": 1} and shot["roll"]["total"] == 5
    units = game.state.units
    assert not units["r1"].alive
    assert units["r2"].hp == 1 and units["r2"].pinned and units["r2"].rides is None
    assert not units["r3"].alive  # two hits on a one-hit-point unit


# ------------------------------------------------------------------ anti-tank fire


def test_infantry_cannot_knock_out_tanks() -> None:
    for kind in ("infantry-section", "mmg-section", "sniper", "mortar-section"):
        game = new_game([unit("b1", kind, (75, 25))], [unit("r1", "t34", (75, 40))],
                        [SEES_ALL, 0])
        assert "cannot harm a tank" in refused(
            game, Order("blue", "shoot", "b1", {"target": "r1"}))


@pytest.mark.parametrize("kind", ["sherman", "sherman-firefly", "at-gun", "assault-gun"])
def test_tank_and_anti_tank_gun_hits_knock_out_tanks(kind: str) -> None:
    game = new_game([unit("b1", kind, (75, 25))], [unit("r1", "t34", (75, 60))],
                    [SEES_ALL, 0])
    shot = shoot_once(game, 4, target="r1")
    assert shot["roll"]["need"] == 4 and shot["hit"]
    assert not game.state.units["r1"].alive


def test_infantry_rocket_knocks_out_a_tank_on_five_within_ten_cm() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "t34", (75, 35))], [SEES_ALL, 0])
    shot = shoot_once(game, 5, target="r1", weapon="rocket")
    assert shot["roll"]["need"] == 5 and shot["hit"] and not game.state.units["r1"].alive
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "t34", (75, 35.5))], [SEES_ALL, 0])
    assert "10 cm at most" in refused(
        game, Order("blue", "shoot", "b1", {"target": "r1", "weapon": "rocket"}))
    game = new_game([unit("b1", "hq-section", (75, 25))], [unit("r1", "t34", (75, 30))],
                    [SEES_ALL, 0])
    assert "no weapon" in refused(
        game, Order("blue", "shoot", "b1", {"target": "r1", "weapon": "rocket"}))


# ------------------------------------------------------------------ pinning


def pinned_game(faces: list[int], **kw: Any) -> Game:
    """Red hits blue's section in turn 1 (the first face); red has nothing left to order,
    so the turn ends there."""
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "infantry-section", (75, 40))], [0, SEES_ALL, *faces], **kw)
    end(game)  # blue does nothing
    act(game, "shoot", "r1", target="b1")
    return game


def test_pinned_units_cannot_move_this_turn_or_next_then_roll_eight_or_nine() -> None:
    game = pinned_game([9, 0, 0])  # the hit, then turn 2's observation dice: no unpin roll
    assert game.state.turn == 2 and game.state.units["b1"].pinned
    assert not of_kind(game.log, "unpin")
    assert "pinned" in refused(game, Order("blue", "move", "b1", {"to": [75, 27]}))
    game.state.rng.faces[:] = [7, 0, 0]
    events = finish_turn(game)  # turn 2 ends: it rolls, 7 fails
    (test,) = of_kind(events, "unpin")
    assert test["roll"]["need"] == 8 and not test["unpinned"]
    game.state.rng.faces[:] = [8, 0, 0]
    (test,) = of_kind(finish_turn(game), "unpin")
    assert test["unpinned"] and not game.state.units["b1"].pinned


def test_early_unpin_option_rolls_at_the_end_of_the_same_turn() -> None:
    game = pinned_game([9, 9, 0, 0], options={"early_unpin": True})
    (test,) = of_kind(game.log, "unpin")
    assert test["unpinned"]


def test_unpin_modifiers() -> None:
    blue = [unit("b1", "infantry-section", (75, 25)), unit("hq", "hq-section", (72, 25)),
            unit("t1", "sherman", (78, 25))]
    game = new_game(blue, [unit("r1", "t34", (75, 45))], [SEES_ALL, 0])
    state = game.state
    state.units["b1"].pinned = True
    state.units["b1"].pinned_turn = 0
    state.rng.faces[:] = [6, 0, 0]  # the unpin roll, then turn 2's observation dice
    while game.to_act() == "blue":
        end(game)
    (test,) = of_kind(end(game), "unpin")
    assert dict(test["roll"]["modifiers"]) == {"HQ unpinned and in sight": 1,
                                               "tanks in support": 1, "facing enemy tanks": -1}
    assert test["roll"]["total"] == 7 and not test["unpinned"]


def test_a_second_hit_on_a_pinned_unit_pins_it_afresh() -> None:
    """Pinned in turn 1, hit again in turn 2: it cannot move in turn 3 either, and its
    first unpin roll comes at the end of turn 3, not turn 2."""
    blue = [unit("b1", "infantry-section", (75, 25)), unit("b2", "infantry-section", (5, 5))]
    game = new_game(blue, [unit("r1", "infantry-section", (75, 40))], [0, SEES_ALL, 9, 0, 9])
    end(game)
    act(game, "shoot", "r1", target="b1")  # turn 1: hit, pinned; red is done
    assert game.state.turn == 2 and game.state.units["b1"].pinned_turn == 1
    assert "pinned" in refused(game, Order("blue", "move", "b1", {"to": [75, 27]}))
    end(game)
    game.state.rng.faces[:] = [9, 0, 9]  # turn 2: the second hit; turn 3's dice
    events = act(game, "shoot", "r1", target="b1")
    assert of_kind(events, "pinned") == [{"unit": "b1", "again": True}]
    assert not of_kind(events, "unpin")  # no roll at the end of turn 2
    b1 = game.state.units["b1"]
    assert game.state.turn == 3 and b1.pinned and b1.pinned_turn == 2 and b1.hp == 1
    assert "pinned" in refused(game, Order("blue", "move", "b1", {"to": [75, 27]}))
    end(game)
    game.state.rng.faces[:] = [8, 0, 0]  # the end of turn 3: red shoots no more; unpin
    (test,) = of_kind(end(game), "unpin")
    assert test["unit"] == "b1" and test["unpinned"] and not b1.pinned


def unpin_test(blue: list[dict[str, Any]], red: list[dict[str, Any]],
               face: int) -> dict[str, Any]:
    """Blue's b1 has been pinned since before turn 1; the unpin roll at the end of turn 1
    with the given face (blue's formation sees all, red's nothing)."""
    game = new_game(blue, red, [SEES_ALL, 0])
    game.state.units["b1"].pinned = True
    game.state.rng.faces[:] = [face, 0, 0]  # the unpin roll, then turn 2's observation dice
    (test,) = of_kind(finish_turn(game), "unpin")
    return test


def unpin_modifiers(test: dict[str, Any]) -> dict[str, int]:
    return {name: value for name, value in test["roll"]["modifiers"]}


FAR_RED = [unit("r1", "sniper", (5, 75))]


def test_an_unpin_roll_needs_eight_or_nine_on_its_own() -> None:
    blue = [unit("b1", "infantry-section", (75, 25))]
    failed = unpin_test(blue, FAR_RED, 7)
    assert failed["roll"]["need"] == 8 and unpin_modifiers(failed) == {}
    assert not failed["unpinned"]
    assert unpin_test(blue, FAR_RED, 8)["unpinned"]


@pytest.mark.parametrize(("hq", "gives"), [
    (unit("hq", "hq-section", (72, 25)), 1),  # unpinned and in sight
    (unit("hq", "hq-section", (42, 5)), 0),  # behind the high wall from b1 at (38, 5)
])
def test_the_hq_unpinned_and_in_sight_gives_plus_one(hq: dict[str, Any], gives: int) -> None:
    at = (75, 25) if gives else (38, 5)
    test = unpin_test([unit("b1", "infantry-section", at), hq], FAR_RED, 7)
    assert unpin_modifiers(test).get("HQ unpinned and in sight", 0) == gives
    assert test["unpinned"] is bool(gives)


def test_a_pinned_hq_or_another_formations_hq_gives_nothing() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25)), unit("hq", "hq-section",
                                                                     (72, 25))],
                    FAR_RED, [SEES_ALL, SEES_ALL, 0],
                    blue_extra=[[unit("hq2", "hq-section", (78, 25))]])
    for uid in ("b1", "hq"):
        game.state.units[uid].pinned = True
        game.state.units[uid].pinned_turn = 0
    game.state.rng.faces[:] = [7, 0, 0, 0, 0]  # b1's roll, hq's roll, turn 2's dice
    b1_test, _ = of_kind(finish_turn(game), "unpin")
    assert b1_test["unit"] == "b1" and unpin_modifiers(b1_test) == {}


@pytest.mark.parametrize(("tank_y", "gives"), [(35, 1), (35.5, 0)])
def test_a_friendly_tank_within_ten_cm_supports(tank_y: float, gives: int) -> None:
    blue = [unit("b1", "infantry-section", (75, 25)), unit("t1", "sherman", (75, tank_y))]
    test = unpin_test(blue, FAR_RED, 7)
    assert unpin_modifiers(test).get("tanks in support", 0) == gives


@pytest.mark.parametrize(("b1_at", "tank_at", "gives"), [
    ((75, 25), (75, 50), -1),  # seen, exactly 25 cm off
    ((75, 25), (75, 50.5), 0),  # seen, over 25 cm
    ((38, 5), (42, 5), 0),  # 4 cm off, behind the high wall: not seen, not faced
])
def test_facing_enemy_tanks_the_side_sees_costs_one(
        b1_at: tuple[float, float], tank_at: tuple[float, float], gives: int) -> None:
    test = unpin_test([unit("b1", "infantry-section", b1_at)],
                      [unit("r1", "t34", tank_at)], 8)
    assert unpin_modifiers(test).get("facing enemy tanks", 0) == gives
    assert test["unpinned"] is (gives == 0)


def test_a_pinned_unit_may_still_shoot_and_observe_but_not_assault() -> None:
    game = new_game([unit("b1", "infantry-section", (26, 16))],
                    [unit("r1", "infantry-section", (75, 40))], [SEES_ALL, 0])
    game.state.units["b1"].pinned = True
    assert "pinned" in refused(game, Order("blue", "assault", "b1", {"section": "house"}))
    act(game, "observe", "b1")
    assert game.state.units["b1"].activity is Activity.OBSERVING


# ------------------------------------------------------------------ movement


@pytest.mark.parametrize(("kind", "rate"), [("infantry-section", 5.0), ("sherman", 8.0),
                                             ("m3-halftrack", 8.0), ("at-gun", 2.0),
                                             ("lorry", 10.0), ("bren-carrier", 8.0)])
def test_movement_rates_and_flat_out_doubles_them(kind: str, rate: float) -> None:
    for order, allowed in (("move", rate), ("flat-out", 2 * rate), ("move-fire", rate / 2)):
        game = new_game([unit("b1", kind, (75, 25))], [unit("r1", "sniper", (5, 75))],
                        [SEES_ALL, 0])
        too_far = Order("blue", order, "b1", {"to": [75, 25 + allowed + 0.1]})
        assert "cm" in refused(game, too_far)
        if order != "move-fire":
            act(game, order, "b1", to=[75, 25 + allowed])
            assert game.state.units["b1"].pos.y == 25 + allowed


def test_vehicles_keep_out_of_building_areas_and_infantry_must_clear_them() -> None:
    game = new_game([unit("b1", "sherman", (26, 16)), unit("b2", "infantry-section", (26, 17))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0])
    assert "vehicles" in refused(game, Order("blue", "move", "b1", {"to": [26, 21]}))
    assert "close assault" in refused(game, Order("blue", "move", "b2", {"to": [26, 21]}))


def test_mount_and_dismount() -> None:
    game = new_game([unit("ht", "m3-halftrack", (75, 25)), unit("s1", "infantry-section",
                                                                 (75, 29))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0, 0, 0])
    act(game, "mount", "s1", vehicle="ht")
    state = game.state
    assert state.units["s1"].rides == "ht" and state.units["ht"].passengers == ["s1"]
    act(game, "move", "ht", to=[75, 33])
    assert state.units["s1"].pos.point == (75, 33)
    finish_turn(game)
    assert "5 cm" in refused(game, Order("blue", "dismount", "s1", {"to": [75, 39]}))
    act(game, "dismount", "s1", to=[75, 36])
    assert state.units["s1"].rides is None and state.units["s1"].pos.point == (75, 36)


# ------------------------------------------------------------------ observation


def observation_game(target_kind: str, where: tuple[float, float], observer: tuple[float, float],
                     die: int) -> Game:
    return new_game([unit("b1", "infantry-section", observer)],
                    [unit("r1", target_kind, where)], [die, 0])


def seen(game: Game) -> bool:
    return any(e["id"] == "r1" and e["visible_now"] for e in game.view("blue")["enemies"])


ALWAYS, NEVER = 0, None
#: the two observation tables of the seed: (row, observing) -> [(range cm, score needed)]
#: at both sides of every band edge
EXPECTED: dict[tuple[str, bool], list[tuple[float, int | None]]] = {
    ("infantry-hidden", True): [(5, NEVER), (40, NEVER)],
    ("infantry-open", True): [(25, ALWAYS), (25.5, 5)],
    ("infantry-firing-cover", True): [(10, ALWAYS), (10.5, 5), (40, 5)],
    ("sniper-firing-cover", True): [(10, 7), (25, 7), (25.5, NEVER)],
    ("infantry-firing-open", True): [(5, ALWAYS), (40, ALWAYS)],
    ("vehicle-stationary", True): [(25, ALWAYS), (25.5, 2)],
    ("vehicle-moving", True): [(5, ALWAYS), (40, ALWAYS)],
    ("vehicle-firing", True): [(5, ALWAYS), (40, ALWAYS)],
    ("infantry-hidden", False): [(5, NEVER), (40, NEVER)],
    ("infantry-open", False): [(10, ALWAYS), (10.5, 7), (40, 7)],
    ("infantry-firing-cover", False): [(10, 5), (10.5, 8), (40, 8)],
    ("sniper-firing-cover", False): [(10, 7), (10.5, NEVER)],
    ("infantry-firing-open", False): [(25, ALWAYS), (25.5, 5)],
    ("vehicle-stationary", False): [(10, ALWAYS), (10.5, 2), (40, 2)],
    ("vehicle-moving", False): [(25, ALWAYS), (25.5, 2)],
    ("vehicle-firing", False): [(5, ALWAYS), (40, ALWAYS)],
}
#: how to stage each row: the target's kind, whether in cover, what it is doing
STAGE = {
    "infantry-hidden": ("infantry-section", True, Activity.IDLE),
    "infantry-open": ("infantry-section", False, Activity.IDLE),
    "infantry-firing-cover": ("infantry-section", True, Activity.FIRED),
    "sniper-firing-cover": ("sniper", True, Activity.FIRED),
    "infantry-firing-open": ("infantry-section", False, Activity.FIRED),
    "vehicle-stationary": ("sherman", False, Activity.IDLE),
    "vehicle-moving": ("sherman", False, Activity.MOVED),
    "vehicle-firing": ("sherman", False, Activity.FIRED),
}
CASES = [(row, observing, distance, need) for (row, observing), bands in EXPECTED.items()
         for distance, need in bands]


def staged(row: str, observing: bool, distance: float, die: int) -> Game:
    kind, cover, activity = STAGE[row]
    # cover: just north of the low wall; open: the lane east of the house
    where = (10.0, 11.0) if cover else (75.0, 25.0)
    game = observation_game(kind, where, (where[0], where[1] + distance), die)
    doing(game, "r1", activity)
    if observing:
        doing(game, "b1", Activity.OBSERVING)
    return game


@pytest.mark.parametrize(("row", "observing", "distance", "need"), CASES)
def test_every_row_and_band_of_the_observation_tables(
    row: str, observing: bool, distance: float, need: int | None
) -> None:
    if need is None:
        assert not seen(staged(row, observing, distance, 9))
        return
    assert seen(staged(row, observing, distance, need))
    if need > 0:
        assert not seen(staged(row, observing, distance, need - 1))


def test_one_observation_die_per_formation_per_turn() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 25))],
                    [unit("r1", "infantry-section", (75, 60))], [5, 6, 7, 8, 9],
                    blue_extra=[[unit("b2", "sniper", (70, 25))]])
    rolls = of_kind(game.log, "observation-die")
    assert [r["formation"] for r in rolls] == ["blue-1", "blue-2", "red-1"]
    assert [e.to for e in game.log if e.kind == "observation-die"] == [(), (), ()]
    assert game.state.formations["blue-1"].die == 5


def test_line_of_sight_comes_first() -> None:
    game = observation_game("sherman", (42, 5), (38, 5), 9)  # either side of the high wall
    doing(game, "r1", Activity.FIRED)
    assert not seen(game)


def test_a_unit_moving_flat_out_spots_nothing() -> None:
    game = observation_game("infantry-section", (75, 40), (75, 20), 9)
    assert seen(game)
    act(game, "flat-out", "b1", to=[75, 30])
    assert not seen(game)


@pytest.mark.parametrize("where", [(10.0, 11.0), (65.0, 15.0)])  # by the low wall; rubble
def test_vehicles_use_the_vehicle_table_also_in_cover(where: tuple[float, float]) -> None:
    from fibua.rulesets.street_fighter.ground import in_cover

    x, y = where
    for kind, near_seen in (("sherman", True), ("infantry-section", False)):
        game = observation_game(kind, where, (x, y + 10), 0)  # not observing, die 0
        assert in_cover(game.state.sight, game.state.units["r1"].pos)
        # a stationary vehicle is visible up to 10 cm; infantry in cover, not firing, never
        assert seen(game) is near_seen
    for die, spotted in ((2, True), (1, False)):  # "roll 2+ over 10 cm"
        assert seen(observation_game("sherman", where, (x, y + 15), die)) is spotted


@pytest.mark.parametrize(("row", "edge"), [("sniper-firing-cover", 25.0),
                                           ("vehicle-stationary", 25.0)])
def test_under_x_includes_x_where_the_other_band_begins_over_x_observing(
        row: str, edge: float) -> None:
    """rulings.md: the sniper and stationary-vehicle rows read "under 25" as up to 25."""
    need = 7 if row.startswith("sniper") else ALWAYS
    assert seen(staged(row, True, edge, need))
    over = staged(row, True, edge + 0.01, 9)
    assert seen(over) is (row == "vehicle-stationary")  # 2+ over 25; a sniper: never
    if need:
        assert not seen(staged(row, True, edge, need - 1))


@pytest.mark.parametrize("row", ["sniper-firing-cover", "vehicle-stationary"])
def test_under_x_includes_x_where_the_other_band_begins_over_x_not_observing(
        row: str) -> None:
    """The same with the other table, at 10 cm."""
    need = 7 if row.startswith("sniper") else ALWAYS
    assert seen(staged(row, False, 10.0, need))
    assert seen(staged(row, False, 10.01, 9)) is (row == "vehicle-stationary")
    if need:
        assert not seen(staged(row, False, 10.0, need - 1))
    else:
        assert not seen(staged(row, False, 10.01, 1))  # over 10 cm: 2+


def test_fired_on_is_reported_with_the_direction_even_when_the_firer_is_unseen() -> None:
    game = new_game([unit("b1", "infantry-section", (45, 25))],
                    [unit("r1", "sniper", (30, 25))], [0, SEES_ALL])
    end(game)
    game.state.rng.faces[:] = [0, 0, 0]  # the shot, then turn 2's observation dice
    act(game, "shoot", "r1", target="b1")
    blue_events = game.log_for("blue")
    (report,) = [e.data for e in blue_events if e.kind == "fired-on"]
    assert report == {"unit": "b1", "direction": "W", "hits": 0}
    assert not seen(game)
    assert "r1" not in str([e.to_dict() for e in blue_events]) + str(game.view("blue"))


def test_compass() -> None:
    from fibua.rulesets.street_fighter.ground import compass

    spots = {(0, 1): "N", (1, 1): "NE", (1, 0): "E", (1, -1): "SE", (0, -1): "S",
             (-1, -1): "SW", (-1, 0): "W", (-1, 1): "NW"}
    for (dx, dy), word in spots.items():
        assert compass((10, 10), (10 + dx, 10 + dy)) == word


# ------------------------------------------------------------------ close assault


def assault_game(red: list[dict[str, Any]], faces: list[int]) -> Game:
    blue = [unit("b1", "infantry-section", (26, 17)), unit("b2", "infantry-section", (24, 17)),
            unit("b3", "infantry-section", (28, 17))]
    return new_game(blue, red, [SEES_ALL, 0, *faces])


def test_close_assault_defensive_fire_first_then_d10_plus_one_per_ten_points() -> None:
    game = assault_game([unit("r1", "infantry-section", (26, 25))], [0, 5, 6])
    events = act(game, "assault", "b1", section="house", **{"with": ["b2", "b3"]})
    (defence,) = of_kind(events, "shot")
    assert defence["firer"] == "r1" and defence["target"] == "b3" and not defence["hit"]
    attack, defend = of_kind(events, "assault-roll")
    assert attack["points"] == 24 and attack["roll"]["modifiers"] == [["24 points", 2]]
    assert attack["roll"]["total"] == 7 and attack["roll"]["success"]
    assert defend["points"] == 8 and not defend["roll"]["success"]
    state = game.state
    assert state.units["r1"].hp == 2 and not state.units["r1"].pinned  # no pinning in assault
    assert all(state.units[u].pos.section is None for u in ("b1", "b2", "b3"))
    assert all(state.units[u].acted for u in ("b1", "b2", "b3"))
    assert dice_left(game) == []


def test_defensive_fire_can_pin_an_assaulter_in_the_street() -> None:
    game = assault_game([unit("r1", "infantry-section", (26, 25))], [9, 3, 7])
    events = act(game, "assault", "b1", section="house", **{"with": ["b2", "b3"]})
    assert game.state.units["b3"].pinned
    attack, defend = of_kind(events, "assault-roll")
    assert attack["points"] == 16 and attack["roll"]["total"] == 4
    assert defend["roll"]["success"]
    hit = [u for u in ("b1", "b2") if game.state.units[u].hp == 2]
    assert len(hit) == 1


def test_a_defender_whose_row_has_no_score_at_the_range_holds_its_fire(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # no row of the real table lacks a score where a defender could fire, so make one
    monkeypatch.setitem(SHOOTING, Row.INFANTRY, (None, 5, 6))
    game = assault_game([unit("r1", "infantry-section", (26, 25))], [5, 6])
    events = act(game, "assault", "b1", section="house", **{"with": ["b2", "b3"]})
    assert not of_kind(events, "shot")
    assert [r["side"] for r in of_kind(events, "assault-roll")] == ["blue", "red"]
    assert dice_left(game) == []


def test_a_stopped_assault_on_an_empty_area_is_told_to_the_attacker_alone() -> None:
    from fibua.rulesets.street_fighter.combat import close_assault

    game = assault_game([unit("r1", "sniper", (5, 75))], [])
    state = game.state
    b1 = state.units["b1"]
    b1.pinned = True  # nobody left to go in, though nobody defends the area
    close_assault(state, [b1], "house")
    assert [(e.kind, e.to) for e in state.pending] == [
        ("assault", ("blue",)), ("assault-stopped", ("blue",))]
    assert b1.pos.section is None


def test_the_assault_clears_the_area_when_the_defenders_fall() -> None:
    game = assault_game([unit("r1", "sniper", (26, 25))], [0, 7, 0])
    act(game, "assault", "b1", section="house")
    state = game.state
    assert not state.units["r1"].alive
    assert state.units["b1"].pos.section == "house"


def test_clearing_an_empty_area_takes_the_whole_action() -> None:
    game = assault_game([unit("r1", "sniper", (5, 75))], [])
    events = act(game, "assault", "b1", section="house")
    assert of_kind(events, "cleared") and game.state.units["b1"].pos.section == "house"
    assert game.state.units["b1"].acted
    assert "already" in refused(game, Order("blue", "move", "b1", {"to": [27, 25]}))
    act(game, "move", "b2", to=[25.8, 21])  # friends hold it now: walk in by the door
    assert game.state.units["b2"].pos.section == "house"


def test_demoralised_defenders_surrender_to_an_assault() -> None:
    game = assault_game([unit("r1", "infantry-section", (26, 25))], [])
    game.state.formations["red-1"].demoralised = True
    act(game, "assault", "b1", section="house")
    assert game.state.units["r1"].surrendered
    assert game.state.units["b1"].pos.section == "house"


def test_assault_points() -> None:
    from fibua.rulesets.street_fighter.tables import CATALOGUE, Kind

    points = {k: CATALOGUE[k].assault_points for k in Kind}
    assert points[Kind.INFANTRY] == 8 and points[Kind.MMG] == 1 and points[Kind.MORTAR] == 1
    assert points[Kind.HQ] == 2 and points[Kind.SNIPER] == 1
    assert all(points[k] == 0 for k in Kind if CATALOGUE[k].vehicle or k is Kind.AT_GUN)


def test_only_infantry_assault_and_only_within_a_move() -> None:
    game = new_game([unit("b1", "sherman", (26, 17)), unit("b2", "infantry-section", (26, 14))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0])
    assert "only infantry" in refused(game, Order("blue", "assault", "b1",
                                                  {"section": "house"}))
    assert "within 5 cm" in refused(game, Order("blue", "assault", "b2",
                                                {"section": "house"}))


# ------------------------------------------------------------------ indirect fire


def bombard_game(faces: list[int]) -> Game:
    game = new_game([unit("m", "mortar-section", (75, 25))],
                    [unit("r1", "infantry-section", (75, 45)), unit("r2", "t34", (77, 45)),
                     unit("r3", "sniper", (75, 49))], [SEES_ALL, 0])
    act(game, "shoot", "m", point=[75, 45])  # blue has nothing left: red's orders
    game.state.rng.faces[:] = faces
    end(game)
    return game


def test_indirect_fire_lands_next_turn_within_five_cm_tanks_immune() -> None:
    game = bombard_game([6, 5, 4, 0, 0])
    events = game.log
    assert of_kind(events, "fire-lands")[0]["point"] == [75, 45]
    rolls = of_kind(events, "bombarded")
    assert [r["unit"] for r in rolls] == ["r1", "r3"]
    assert [r["roll"]["need"] for r in rolls] == [5, 5]
    units = game.state.units
    assert units["r1"].hp == 2 and units["r3"].alive and units["r2"].alive
    assert game.state.turn == 2


def test_indirect_fire_drifts_or_is_lost() -> None:
    game = bombard_game([3, 1, 0, 9, 0, 0])  # drifts 5 cm north (d8 = 1): r1 at 5 cm, r3
    assert of_kind(game.log, "fire-lands")[0]["point"] == [75, 50]
    assert [r["unit"] for r in of_kind(game.log, "bombarded")] == ["r1", "r3"]
    assert game.state.units["r1"].hp == 3 and not game.state.units["r3"].alive
    game = bombard_game([1, 0, 0])
    assert of_kind(game.log, "fire-lost") and not of_kind(game.log, "bombarded")


def test_the_effect_radius_is_five_cm_from_where_the_fire_lands() -> None:
    """The seed's "effect radius 5cm": every unit but tanks within 5 cm (5 included) of
    the point is hit on 5+, unmodified, even in a building area; 5.5 cm is outside."""
    game = new_game([unit("m", "mortar-section", (75, 5))],
                    [unit("r1", "infantry-section", (75, 50)),
                     unit("r2", "infantry-section", (75, 50.5)),
                     unit("r3", "sniper", (26, 27)), unit("r4", "sniper", (26, 33))],
                    [SEES_ALL, 0])
    act(game, "shoot", "m", point=[75, 45])
    # a second fire mission, on the house's south wall (set up by hand)
    game.state.markers.append(replace(game.state.markers[0], x=26, y=22))
    # each lands on its point (9): r1 hit on 5; r3 missed on 4; turn 2's observation dice
    game.state.rng.faces[:] = [9, 5, 9, 4, 0, 0]
    end(game)
    rolls = of_kind(game.log, "bombarded")
    assert [r["unit"] for r in rolls] == ["r1", "r3"]
    assert all(r["roll"]["need"] == 5 and r["roll"]["modifiers"] == [] for r in rolls)
    units = game.state.units
    assert units["r1"].hp == 2 and units["r2"].hp == 3
    assert units["r3"].alive  # the house gives no cover from it, but 4 is not 5+
    assert game.state.units["r3"].pos.section == "house"


def test_direct_mortar_and_artillery_missions() -> None:
    game = new_game([unit("m", "mortar-section", (75, 25)), unit("hq", "hq-section", (72, 25)),
                     unit("s", "infantry-section", (70, 25))],
                    [unit("r1", "infantry-section", (75, 33))], [SEES_ALL, 0],
                    blue_artillery=1)
    assert "10 cm or less" in refused(game, Order("blue", "shoot", "m", {"target": "r1"}))
    act(game, "shoot", "hq", point=[75, 50])
    assert game.state.artillery["blue"] == 0
    assert "cannot bring down" in refused(game, Order("blue", "shoot", "s",
                                                      {"point": [75, 50]}))


# ------------------------------------------------------------------ morale


def morale_game(face: int, blue_at: tuple[float, float]) -> Game:
    game = new_game([unit("b1", "infantry-section", blue_at)],
                    [unit("r1", "infantry-section", (75, 40)), unit("r2", "hq-section",
                                                                    (10, 40))],
                    [SEES_ALL, 0])
    game.state.units["r1"].hp = 1  # 2 of 4 hit points left: at half
    game.state.rng.faces[:] = [face, 0, 0]  # morale, then turn 2's observation dice
    end(game)
    end(game)
    return game


def test_platoon_at_half_rolls_zero_or_one_to_demoralise() -> None:
    game = morale_game(2, (75, 20))
    (test,) = of_kind(game.log, "morale")
    assert test["hit_points"] == 2 and test["start"] == 4 and not test["demoralised"]
    game = morale_game(1, (75, 20))
    (test,) = of_kind(game.log, "morale")
    assert test["demoralised"] and game.state.formations["red-1"].demoralised


def test_demoralised_in_the_open_surrender_close_by_else_retreat() -> None:
    game = morale_game(0, (75, 31))  # blue 9 cm from r1 and in sight
    units = game.state.units
    assert units["r1"].surrendered
    assert units["r2"].alive and units["r2"].pos.y > 40  # back toward red's edge


@pytest.mark.parametrize(("blue_y", "surrenders"), [(30, True), (29.5, False)])
def test_surrender_to_an_enemy_at_ten_cm_or_less(blue_y: float, surrenders: bool) -> None:
    game = morale_game(0, (75, blue_y))  # r1 at (75, 40): 10 cm, then 10.5 cm
    r1 = game.state.units["r1"]
    assert r1.surrendered is surrenders
    if not surrenders:
        assert r1.alive and r1.pos.y > 40  # it fell back instead


def test_no_surrender_to_an_enemy_out_of_sight() -> None:
    game = new_game([unit("b1", "infantry-section", (37, 5))],
                    [unit("r1", "infantry-section", (43, 5)), unit("r2", "hq-section",
                                                                    (10, 40))],
                    [SEES_ALL, 0])  # 6 cm apart, the high wall between them
    game.state.units["r1"].hp = 1
    game.state.rng.faces[:] = [0, 0, 0]
    finish_turn(game)
    r1 = game.state.units["r1"]
    assert r1.alive and not r1.surrendered and r1.pos.point != (43, 5)


def retreat_game(at: tuple[float, float]) -> Game:
    """Red's r1 demoralised at the end of turn 1 (morale face 0), alone in the open."""
    game = new_game([unit("b1", "infantry-section", (75, 75))],
                    [unit("r1", "infantry-section", at), unit("r2", "hq-section", (5, 60))],
                    [0, 0])
    game.state.units["r1"].hp = 1
    game.state.rng.faces[:] = [0, 0, 0]
    finish_turn(game)
    return game


def test_a_retreat_stops_at_the_first_cover_and_stays_there() -> None:
    """From (65, 7) toward red's rear (the middle of its deployment area, (40, 76)) the
    rubble (y 10 and up) is 3.5 cm away: r1 stops there and then stays."""
    from fibua.rulesets.street_fighter.ground import in_cover

    game = retreat_game((65, 7))
    r1 = game.state.units["r1"]
    (retreat,) = [e for e in of_kind(game.log, "retreated") if e["unit"] == "r1"]
    assert retreat["cm"] == 3.5 and in_cover(game.state.sight, r1.pos)
    assert 10 <= r1.pos.y < 10.5
    where = r1.pos
    game.state.rng.faces[:] = [0, 0]  # turn 2's end: red is demoralised already
    finish_turn(game)
    assert r1.pos == where


def test_a_retreat_in_the_open_is_a_normal_move_toward_the_rear() -> None:
    game = retreat_game((40, 30))
    r1 = game.state.units["r1"]
    assert r1.pos.point == pytest.approx((40, 35))


def test_demoralised_units_take_no_orders() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 20))],
                    [unit("r1", "infantry-section", (75, 40))], [SEES_ALL, 0])
    game.state.formations["blue-1"].demoralised = True
    assert "demoralised" in refused(game, Order("blue", "observe", "b1"))


def test_morale_is_not_rolled_above_half() -> None:
    game = new_game([unit("b1", "infantry-section", (75, 20))],
                    [unit("r1", "infantry-section", (75, 40)), unit("r2", "hq-section",
                                                                    (10, 40))],
                    [SEES_ALL, 0])
    game.state.units["r1"].hp = 2
    game.state.rng.faces[:] = [0, 0]
    end(game)
    end(game)
    assert not of_kind(game.log, "morale")


# ------------------------------------------------------------------ Control's ambush


def control_order(blue_at: tuple[float, float]) -> Order:
    """Turn 1: red's hidden section in the house, blue's section seen in the open east."""
    game = new_game([unit("b1", "infantry-section", blue_at)],
                    [unit("r1", "infantry-section", (30, 25))], [SEES_ALL, SEES_ALL])
    end(game)
    view = game.observe("red")
    assert game.state.turn == 1 and "b1" in game.state.knowledge["red"].sightings
    return game.ruleset.computer("red", 0).choose(view, game.legal_orders("red"))


def test_a_hidden_defender_that_never_fired_holds_its_fire_beyond_twenty_cm() -> None:
    far = control_order((60, 25))
    assert far.kind != "shoot", far
    near = control_order((45, 25))
    assert (near.kind, near.params.get("target")) == ("shoot", "b1")


# ------------------------------------------------------------------ the set-up and the end


def test_control_picks_candidate_positions_by_the_seed() -> None:
    red = [unit("r1", "sniper", candidates=[(5, 70), (30, 70), (60, 70)])]
    scenario = make_scenario([unit("b1", "infantry-section", (75, 25))], red)
    picks = {Game(scenario, seed).state.units["r1"].pos.point for seed in range(12)}
    assert picks == {(5, 70), (30, 70), (60, 70)}
    game = Game(scenario, 3)
    (pick,) = [e for e in game.log if e.kind == "deployment-picked"]
    assert pick.to == ()  # Control's secret until the after-action report
    assert any("Control's deployment" in line for line in game.ruleset.after_action(game.state))


def test_control_picks_a_point_no_other_unit_stands_on() -> None:
    shared = [(5, 70), (30, 70), (60, 70)]
    red = [unit("r1", "sniper", candidates=shared), unit("r2", "sniper", candidates=shared),
           unit("r3", "sniper", candidates=[*shared[1:], (45, 70)])]
    scenario = make_scenario([unit("b1", "infantry-section", (75, 25))], red)
    seen = set()
    for seed in range(20):
        units = Game(scenario, seed).state.units
        picks = [units[u].pos.point for u in ("r1", "r2", "r3")]
        assert len(set(picks)) == 3, f"seed {seed}"
        seen.add(tuple(picks))
    assert len(seen) > 2  # still the seed's choice


def test_a_unit_whose_candidates_are_all_taken_still_gets_one_by_the_seed() -> None:
    red = [unit("r1", "sniper", (5, 70)), unit("r2", "sniper", (30, 70)),
           unit("r3", "sniper", candidates=[(5, 70), (30, 70)]),
           unit("r4", "sniper", candidates=[(5, 70), (50, 70)])]
    scenario = make_scenario([unit("b1", "infantry-section", (75, 25))], red)
    picks = set()
    for seed in range(12):
        game = Game(scenario, seed)
        picks.add(game.state.units["r3"].pos.point)
        assert game.state.units["r4"].pos.point == (50, 70)  # the only free one
    assert picks == {(5, 70), (30, 70)}


def test_objectives_are_scored_at_the_end() -> None:
    victory = [{"side": "blue", "kind": "hold", "sections": ["house"], "points": 2},
               {"side": "red", "kind": "survive", "points": 1}]
    game = new_game([unit("b1", "infantry-section", (26, 25))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0], turns=1,
                    victory=victory, options={"destroy": [{"side": "blue", "units": ["r1"],
                                                           "points": 5}]})
    finish_turn(game)
    result = game.result()
    assert result is not None and result.winner == "blue"
    assert result.scores == {"blue": 2.0, "red": 1.0}


def test_a_cleared_area_is_taken_from_its_middle() -> None:
    """Clearing a building area puts the assaulting unit inside it; where inside is this
    project's reading (the rules give none): the free place nearest the area's middle
    first, the house's middle being (26, 25)."""
    from math import hypot

    from fibua.rulesets.street_fighter.ground import SPOT_STEP, section_spots

    game = assault_game([unit("r1", "sniper", (5, 75))], [])
    act(game, "assault", "b1", section="house")
    b1 = game.state.units["b1"]
    assert b1.pos.section == "house"
    assert hypot(b1.pos.x - 26, b1.pos.y - 25) <= SPOT_STEP / 2 ** 0.5
    spots = section_spots(game.state.sight, "house")
    gaps = [hypot(x - 26, y - 25) for x, y in spots]
    assert gaps == sorted(gaps)


def test_the_moves_listed_go_eight_ways_at_the_full_allowance() -> None:
    """Infantry on foot move 5 cm, flat out double that: the orders listed for a unit in
    the open (a sample of what it may do, not every move) go at eight evenly spaced
    headings to a hair short of the full distance, each one legal."""
    from math import atan2, degrees, hypot

    x0, y0 = 65.03, 35.04
    game = new_game([unit("s", "infantry-section", (x0, y0))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0])
    for kind, reach in (("move", 4.99), ("flat-out", 9.99)):
        listed = [o for o in game.legal_orders("blue") if o.unit == "s" and o.kind == kind]
        ends = [(x - x0, y - y0) for x, y in (o.params["to"] for o in listed)]
        assert all(abs(hypot(dx, dy) - reach) <= 0.008 for dx, dy in ends), ends
        headings = sorted(round(degrees(atan2(dy, dx))) % 360 for dx, dy in ends)
        assert headings == list(range(0, 360, 45))
        assert all(game.ruleset.allows(game.state, o) for o in listed)


def test_a_units_status_says_what_it_carries_and_what_it_rides() -> None:
    # the seed: a halftrack carries one infantry section; the status line a player reads
    # names the section carried, and says nothing of a load an empty vehicle has not got
    game = Game(make_scenario([unit("ht", "m3-halftrack", (71, 25)),
                               unit("s2", "infantry-section", rides="ht"),
                               unit("lo", "lorry", (75, 21))],
                              [unit("r1", "infantry-section", (75, 80))]), 0)
    status = {u["id"]: u["status"] for u in game.own_view("blue")}
    assert status["ht"] == "1/1 hp, carrying s2, ready"
    assert status["s2"] == "3/3 hp, in ht, ready"
    assert status["lo"] == "1/1 hp, ready"
