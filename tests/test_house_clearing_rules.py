"""Every House-Clearing rule pinned with forced dice, against the seed's numbers.

Positions use the test table of hc_helpers. Figures have fixed statistics (initiative 2,
skill 100) unless a test says otherwise, so the forced faces are exactly the rolls of the
firing under test. A D3 is a D6 halved rounding up: faces 1-2 read 1, 3-4 read 2, 5-6 read 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.house_clearing import movement
from fibua.rulesets.house_clearing.movement import trace
from fibua.rulesets.house_clearing.shooting import (
    OutOfRange,
    band_for,
    fire_row,
    hit_chance,
)
from fibua.rulesets.house_clearing.state import Phase
from fibua.rulesets.house_clearing.tables import Row, Stance
from hc_helpers import (
    act,
    all_dice_used,
    end,
    figure,
    forced_game,
    let_go,
    make_scenario,
    new_game,
    of_kind,
    order,
    put,
)

# ------------------------------------------------------------------------------ helpers


def pos(game: Game, x: float, y: float, floor: int = 0) -> Position:
    return Position(x, y, game.state.sight.section_at((x, y)), floor)


def code_of(game: Game, kind: str, fid: str, **params: Any) -> str:
    """The IllegalOrder code of an order, checking it changed nothing."""
    before = (game.state_hash(), len(game.log))
    with pytest.raises(IllegalOrder) as caught:
        game.apply(order(game, kind, fid, **params))
    assert caught.value.reason
    assert (game.state_hash(), len(game.log)) == before
    return caught.value.code


def to_fire_phase(game: Game) -> None:
    while game.state.phase is Phase.MOVE and not game.over:
        end(game)


def lane(blue_weapon: str = "rifle", red_weapon: str = "rifle", **kw: Any) -> Game:
    """Blue b1 at (21, 10) and red r1 at (21, 20), in the open east of the hedge."""
    faces = kw.pop("faces", [])
    blue = [figure("b1", blue_weapon, (21, 10), **kw.pop("b1", {}))]
    red = [figure("r1", red_weapon, (21, 20), **kw.pop("r1", {}))]
    return new_game(blue, red, faces, **kw)


# ------------------------------------------------------------------ figures' statistics


def test_statistics_are_rolled_with_the_seed() -> None:
    blue = [figure("sgt", "smg", (21, 10), initiative=None, skill=None, rank="nco"),
            figure("pte", "rifle", (22, 10), initiative=None, skill=None)]
    game = new_game(blue, [figure("r1", "rifle", (21, 20))], [5, 6, 5, 4, 3, 1, 1, 2, 3])
    sgt, pte = game.state.figures["sgt"], game.state.figures["pte"]
    assert sgt.initiative == 3 + 1  # D3 of a 5 is 3, +1 for an NCO
    assert sgt.skill == (6 + 5 + 4 + 3) * 10  # 4D6x10
    assert pte.initiative == 1  # D3 of a 1
    assert pte.skill == (1 + 2 + 3) * 10  # 3D6x10
    rolls = of_kind(game.log, "statistic")
    assert [r["roll"]["dice"] for r in rolls] == ["d3", "4d6x10", "d3", "3d6x10"]
    assert rolls[0]["roll"]["modifiers"] == [["officer, NCO or hero", 1]]
    assert all(e.to == ("blue",) for e in game.log if e.kind == "statistic")
    assert all_dice_used(game)


def test_fixed_statistics_roll_nothing() -> None:
    game = lane()
    assert of_kind(game.log, "statistic") == []
    assert game.state.figures["b1"].initiative == 2 and game.state.figures["b1"].skill == 100


# ----------------------------------------------------------------------------- the turn


def test_moves_go_from_the_lowest_initiative_up() -> None:
    blue = [figure("b3", "rifle", (21, 10), initiative=3), figure("b1", "rifle", (17, 10),
                                                                 initiative=1)]
    game = new_game(blue, [figure("r2", "rifle", (2, 2), initiative=2)])
    (step,) = [e for e in game.log if e.kind == "step"]
    assert step.data == {"phase": "move", "step": 1, "side": "blue"}
    assert step.to == ("blue",)  # red is not told blue has figures of initiative 1
    assert code_of(game, "move", "b3", to=[21, 11]) == "wrong-step"
    act(game, "move", "b1", to=[17, 11])  # blue's last step-1 figure: the step passes on
    let_go(game)  # once red has let the mover go (red is asked after every move)
    assert (game.state.phase, game.state.step, game.to_act()) == (Phase.MOVE, 2, "red")
    end(game)
    assert (game.state.step, game.to_act()) == (3, "blue")
    act(game, "move", "b3", to=[21, 11])
    let_go(game)
    assert game.state.phase is Phase.FIRE


def test_fire_goes_from_the_highest_initiative_down() -> None:
    blue = [figure("b3", "rifle", (21, 10), initiative=3), figure("b1", "rifle", (22, 10),
                                                                 initiative=1)]
    game = new_game(blue, [figure("r2", "rifle", (21, 20), initiative=2)], [99, 99, 99])
    to_fire_phase(game)
    assert (game.state.step, game.to_act()) == (3, "blue")
    assert code_of(game, "fire", "b1", target="r2") == "wrong-step"
    act(game, "fire", "b3", target="r2")
    assert (game.state.step, game.to_act()) == (2, "red")
    act(game, "fire", "r2", target="b3")
    assert (game.state.step, game.to_act()) == (1, "blue")
    act(game, "fire", "b1", target="r2")
    shots = of_kind(game.log, "shot")
    assert [s["firer"] for s in shots] == ["b3", "r2", "b1"]
    assert game.state.turn == 2 and all_dice_used(game)


def test_sides_alternate_moving_first() -> None:
    game = lane()
    assert game.state.order == ("blue", "red")
    while game.state.turn == 1:
        end(game)
    assert game.state.order == ("red", "blue")


def test_option_rolls_for_who_moves_first() -> None:
    game = lane(faces=[2, 2, 3, 6], options={"roll_for_first": True})
    assert game.state.order == ("red", "blue")
    assert len(of_kind(game.log, "first-roll")) == 2 and all_dice_used(game)


# --------------------------------------------------------------------------- movement


@pytest.mark.parametrize(
    ("start", "to", "floor", "share"),
    [
        ((17, 9), (17, 18), None, 1.0),  # 9in in the open
        ((2.5, 17.5), (6.1, 22.3), None, 1.0),  # 6in on a building plot
        ((11, 11), (11, 14), None, 1.0),  # 3in inside a building
        ((13, 7), (13, 12), None, 3 / 9 + 2 / 3),  # in by the door: each part at its pace
        ((5, 3.5), (5, 7.5), None, 4 / 9 + 0.5),  # over a low wall: half a move
        ((19.5, 17), (21, 17), None, 1.0),  # a hedge taller than chest height: whole move
        ((17.5, 5), (18.5, 5), None, 1.0),  # a wall 1.5 times the figure: whole move
        ((8.5, 13), (11, 13), None, 1.5 / 9 + 1 / 3 + 0.5),  # through a window: half a move
        ((11, 11), (11, 12), 1, 1 / 3 + 0.5),  # up the stairs: half a move a floor
    ],
)
def test_what_a_move_costs(start: tuple[float, float], to: tuple[float, float],
                           floor: int | None, share: float) -> None:
    game = lane()
    _, cost, _, _ = trace(game.state, pos(game, *start), [to], floor)
    assert cost == pytest.approx(share)


def test_leaving_a_room_from_upstairs_goes_down_the_stairs_first() -> None:
    game = lane()
    out_of_the_door = [(13.0, 9.5)]
    _, below, _, _ = trace(game.state, pos(game, 13, 11.5, 0), out_of_the_door, None)
    legs, above, _, _ = trace(game.state, pos(game, 13, 11.5, 1), out_of_the_door, None)
    assert above == pytest.approx(below + 0.5)  # half a move a floor, then the same way
    assert legs[-1].section is None and legs[-1].floor == 0


def test_a_path_is_traced_once_for_every_game_of_the_scenario_and_options(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules keep each path's trace with the scenario, for the figure's height and
    the window sill it was traced with: the next game asks no new trace of it, refusals
    included, and a game with another sill traces afresh (a window costs it more)."""
    blue, red = [figure("b1", "rifle", (21, 10))], [figure("r1", "rifle", (21, 20))]
    scenario = make_scenario(blue, red)
    window = [(10.5, 13.0)]  # in by the house's west window
    first = forced_game(scenario, [])
    low = trace(first.state, pos(first, 9.5, 13), window, None)
    with pytest.raises(IllegalOrder):
        trace(first.state, pos(first, 17, 9), [(17.0, 18.1)], None)

    def untraced(*args: object) -> None:
        raise AssertionError("traced again")

    second = forced_game(scenario, [])
    assert second.state.traced is first.state.traced
    with monkeypatch.context() as patched:
        patched.setattr(movement, "_trace", untraced)
        assert trace(second.state, pos(second, 9.5, 13), window, None) == low
        with pytest.raises(IllegalOrder, match=r"over the ground alone \(1\.01\)"):
            trace(second.state, pos(second, 17, 9), [(17.0, 18.1)], None)
    high = forced_game(make_scenario(blue, red, options={"window_sill": 1.2}), [])
    assert high.state.traced is not first.state.traced
    assert trace(high.state, pos(high, 9.5, 13), window, None)[1] > low[1]


@pytest.mark.parametrize(
    ("start", "to", "code"),
    [
        ((17, 9), (17, 18.1), "too-far"),
        ((11, 11), (11, 14.1), "too-far"),
        ((5, 2), (5, 8), "too-far"),  # 6in of ground and a low wall
        ((19, 17), (21.5, 17), "too-far"),  # a whole-move climb leaves 2in at most
        ((21.5, 5), (22.5, 5), "too-high"),  # the 2in factory wall: over 1.5 times
        ((9, 11), (11, 11), "blocked"),  # through a solid building wall
        ((8.4, 13), (11, 13), "too-far"),
    ],
)
def test_moves_the_rules_forbid(start: tuple[float, float], to: tuple[float, float],
                                code: str) -> None:
    game = new_game([figure("b1", "rifle", start, initiative=1)],
                    [figure("r1", "rifle", (2, 23))])
    assert code_of(game, "move", "b1", to=list(to)) == code


def test_a_figure_moves_once_in_its_step() -> None:
    game = new_game([figure("b1", "rifle", (21, 10), initiative=1),
                     figure("b2", "rifle", (23, 10), initiative=1)],
                    [figure("r1", "rifle", (2, 23))])
    act(game, "move", "b1", to=[21, 12])
    assert code_of(game, "move", "b2", to=[21, 13]) == "not-your-turn"  # red answers first
    let_go(game)
    assert code_of(game, "move", "b1", to=[21, 13]) == "already-moved"
    assert code_of(game, "move", "b2", to=[21, 12.2]) == "crowded"


def test_initiative_zero_cannot_move_but_fires_last() -> None:
    game = new_game([figure("b0", "rifle", (21, 10), initiative=0),
                     figure("b1", "rifle", (23, 10), initiative=1)],
                    [figure("r1", "rifle", (21, 20))], [99, 99, 99])
    assert game.to_act() == "blue" and game.state.step == 1
    assert code_of(game, "move", "b0", to=[21, 11]) == "pinned"
    end(game)
    to_fire_phase(game)
    act(game, "fire", "r1", target="b0")
    act(game, "fire", "b1", target="r1")
    assert game.state.step == 0 and game.to_act() == "blue"
    act(game, "fire", "b0", target="r1")
    assert [s["firer"] for s in of_kind(game.log, "shot")] == ["r1", "b1", "b0"]


# ------------------------------------------------------------------------ the body model


@pytest.mark.parametrize(
    ("viewer", "target", "standing", "crouching", "prone", "leaning"),
    [
        (((21, 20), 0), ((21, 12), 0), 5, 3, 1, 5),  # in the open
        (((5, 12), 0), ((5, 5.5), 0), 2, 0, 0, 2),  # behind a low wall (0.5in)
        (((5, 12), 0), ((5, 4), 0), 5, 3, 1, 5),  # 2in behind it: no cover
        (((10.2, 13.4), 1), ((7, 5.5), 0), 5, 3, 1, 5),  # plunging fire from upstairs
        (((5, 13), 0), ((10.5, 13), 0), 2, 0, 0, 2),  # at a window (sill 0.5in)
        (((13, 5), 0), ((13, 10.5), 0), 5, 3, 1, 3),  # in a doorway; leaning out
        (((15, 15), 0), ((10.5, 13), 0), 5, 3, 1, 5),  # from inside its own room
    ],
)
def test_how_much_of_a_figure_shows(viewer: tuple[tuple[float, float], int],
                                    target: tuple[tuple[float, float], int],
                                    standing: int, crouching: int, prone: int,
                                    leaning: int) -> None:
    game = lane()
    a, b = pos(game, *viewer[0], viewer[1]), pos(game, *target[0], target[1])
    assert game.state.sight.visible(a, b)
    shows = [game.state.geometry.fifths(a, b, s) for s in
             (Stance.STANDING, Stance.CROUCHING, Stance.PRONE, Stance.LEANING)]
    assert shows == [standing, crouching, prone, leaning]


def test_a_taller_figure_shows_more_over_a_wall() -> None:
    game = lane(options={"figure_height": 1.2})
    assert game.state.geometry.fifths(pos(game, 5, 12), pos(game, 5, 5.5), Stance.STANDING) == 3


def test_a_figure_that_shows_nothing_sees_nothing() -> None:
    game = new_game([figure("b1", "rifle", (5, 5.5), stance="crouching")],
                    [figure("r1", "rifle", (5, 12))])
    assert not game.state.sees("r1", "b1") and not game.state.sees("b1", "r1")
    put(game, "b1", 5, 5.5, stance="standing")
    assert game.state.fifths("r1", "b1") == 2 and game.state.fifths("b1", "r1") == 5


def test_the_player_chooses_the_stance() -> None:
    game = new_game([figure("b1", "rifle", (5, 5.5), initiative=1),
                     figure("b2", "rifle", (12, 12), initiative=1)],
                    [figure("r1", "rifle", (5, 12))])
    assert code_of(game, "stance", "b1", stance="leaning") == "cannot-lean"
    assert code_of(game, "stance", "b1", stance="standing") == "no-change"
    act(game, "stance", "b1", stance="crouching")
    assert not game.state.sees("r1", "b1")
    assert code_of(game, "move", "b1", to=[5, 5]) == "already-moved"
    act(game, "move", "b2", to=[10.5, 13], stance="leaning")
    assert game.state.figures["b2"].stance is Stance.LEANING


# --------------------------------------------------------------------- range and chance


def test_range_bands() -> None:
    assert band_for(Row.RIFLE, 5).name == "Full"
    assert band_for(Row.RIFLE, 5.01).name == "Half"
    assert band_for(Row.RIFLE, 25).divisor == 16
    with pytest.raises(OutOfRange):
        band_for(Row.RIFLE, 25.01)
    assert [band_for(Row.PISTOL, r).divisor for r in (1, 2, 3, 4, 5)] == [1, 2, 4, 8, 16]


def test_rows_of_the_assault_rifle_and_the_belt_fed_gun() -> None:
    from fibua.rulesets.house_clearing.tables import WeaponName as W

    assert fire_row(W.ASSAULT_RIFLE, auto=False) is Row.CARBINE
    assert fire_row(W.ASSAULT_RIFLE, auto=True) is Row.SMG
    assert fire_row(W.BELT_LMG, auto=True, crew=2) is Row.BELT_LMG
    assert fire_row(W.BELT_LMG, auto=False, crew=1) is Row.BOX_LMG


@pytest.mark.parametrize(
    ("skill", "row", "distance", "auto", "chance"),
    [
        (120, Row.RIFLE, 13, False, 30),  # the seed: 120 / 4
        (110, Row.RIFLE, 7, False, 55),
        (160, Row.SMG, 7, False, 20),
        (150, Row.SMG, 7, False, 18),  # rounded down
        (160, Row.SMG, 4, True, 40),  # automatic: halved again
        (150, Row.SMG, 7, True, 9),
        (240, Row.PISTOL, 1, False, 240),
    ],
)
def test_the_chance(skill: int, row: Row, distance: float, auto: bool, chance: int) -> None:
    assert hit_chance(skill, row, distance, auto) == chance


def test_complete_hundreds_are_automatic_hits() -> None:
    # skill 240 at Full: two sure hits and a 40% chance of a third (41: missed)
    game = lane("pistol", b1={"skill": 240, "initiative": 3}, r1={"initiative": 1},
                faces=[41, 5, 6, 1])
    from hc_helpers import put as place

    place(game, "b1", 21, 19.5)
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1")
    (shot,) = of_kind(game.log, "shot")
    assert shot["chance"] == 240 and shot["automatic_hits"] == 2
    assert shot["roll"]["need"] == 40 and shot["roll"]["faces"] == [41]
    assert [c["faces"] for c in shot["cover"]] == [[5], [6]]  # 5 of 5 visible: 6 misses
    assert shot["hits"] == 2 and shot["confirmed"] == 1 and shot["loss"] == 1
    assert game.state.figures["r1"].initiative == 0
    assert all_dice_used(game)


def test_a_whole_hundred_needs_no_percentage_roll() -> None:
    game = lane("pistol", b1={"skill": 200, "initiative": 3}, r1={"initiative": 1},
                faces=[6, 6])
    put(game, "b1", 21, 19.5)
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1")
    (shot,) = of_kind(game.log, "shot")
    assert shot["roll"] is None and shot["hits"] == 2 and shot["confirmed"] == 0


def test_cover_die_and_initiative_lost() -> None:
    game = lane(b1={"initiative": 3}, r1={"initiative": 1}, faces=[25, 5, 6])
    put(game, "r1", 21, 20, stance="crouching")  # 3/5 in the open
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1")
    (shot,) = of_kind(game.log, "shot")
    assert shot["band"] == "Half" and shot["chance"] == 50  # 10in: Half band
    assert shot["fifths"] == 3 and shot["cover"][0]["need"] == 3
    assert shot["cover"][0]["success"] is False and shot["loss"] == 0


def test_below_zero_a_figure_is_out_of_action() -> None:
    game = lane(b1={"initiative": 3}, r1={"initiative": 1}, faces=[1, 1, 3])
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1")
    r1 = game.state.figures["r1"]
    assert r1.initiative == -1 and not r1.in_action
    assert of_kind(game.log, "out-of-action") == [{"figure": "r1", "name": "R1"}]
    assert game.over and game.result() is not None
    assert game.result().winner == "blue"  # type: ignore[union-attr]


def test_out_of_range_cannot_be_fired_at() -> None:
    blue = [figure("b1", "rifle", (21, 10), initiative=3),
            figure("b2", "pistol", (22, 14.5), initiative=3)]
    game = new_game(blue, [figure("r1", "rifle", (21, 20), initiative=1)])
    to_fire_phase(game)
    assert game.state.sees("b2", "r1")
    # a pistol reaches 5in (its Sixteenth band): r1 is about 5.6in away
    assert code_of(game, "fire", "b2", target="r1") == "out-of-range"


def test_a_side_with_nothing_in_reach_is_not_asked_to_fire() -> None:
    game = lane("pistol", b1={"initiative": 3})
    to_fire_phase(game)
    assert game.state.step == 2 and game.to_act() == "red"


# ------------------------------------------------------------------ simultaneous fire


def test_equal_initiative_fires_simultaneously() -> None:
    # both fire in step 2; b1 puts r1 out of action, and r1's shot still happens
    game = lane(faces=[10, 1, 5, 20, 2, 2])
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1")
    assert of_kind(game.log, "shot") == []  # declared, not yet resolved
    declared = [e for e in game.log if e.kind == "fire-declared"]
    assert declared[0].to == ("blue",)
    act(game, "fire", "r1", target="b1")
    shots = of_kind(game.log, "shot")
    assert [(s["firer"], s["loss"]) for s in shots] == [("b1", 3), ("r1", 1)]
    assert not game.state.figures["r1"].in_action
    assert game.state.figures["b1"].initiative == 1
    assert all_dice_used(game)


def test_a_figure_hit_before_its_step_fires_at_its_new_initiative() -> None:
    game = lane(b1={"initiative": 3}, r1={"initiative": 2}, faces=[10, 1, 1, 99])
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1")
    assert game.state.figures["r1"].initiative == 1
    assert game.state.step == 1 and game.to_act() == "red"
    act(game, "fire", "r1", target="b1")
    assert all_dice_used(game)


# --------------------------------------------------------------------------- automatic


def cone_game(**kw: Any) -> Game:
    blue = [figure("b1", "smg", (21, 9), skill=160, initiative=3),
            figure("b2", "rifle", (20.8, 11), initiative=1)]
    red = [figure("r1", "rifle", (21, 17), initiative=1),
           figure("r2", "rifle", (21.8, 15), initiative=1),
           figure("r3", "rifle", (21.5, 13), initiative=1)]
    return new_game(blue, red, **kw)


def test_automatic_fire_strikes_everyone_in_the_cone() -> None:
    # range 8: the cone is 2in wide at r1; r3 (4in out, 0.5in off) is in it, r2 is not;
    # the friend b2 (2in out, 0.2in off) is in it too. Each at half its own band's chance:
    # r1 Eighth 160/8/2, b2 Half 160/2/2, r3 Quarter 160/4/2
    game = cone_game(faces=[5, 1, 2, 90, 41])
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1", auto=True)
    shots = of_kind(game.log, "shot")
    assert [(s["target"], s["chance"]) for s in shots] == [("r1", 10), ("b2", 40), ("r3", 20)]
    assert all(s["auto"] for s in shots)
    friendly = next(e for e in game.log if e.kind == "shot" and e.data["target"] == "b2")
    assert friendly.to == ("blue",)
    assert all_dice_used(game)


def test_friendly_fire_can_be_turned_off() -> None:
    game = cone_game(faces=[95, 41], options={"friendly_fire": False})
    to_fire_phase(game)
    act(game, "fire", "b1", target="r1", auto=True)
    assert [s["target"] for s in of_kind(game.log, "shot")] == ["r1", "r3"]


def test_single_shot_weapons_have_no_automatic() -> None:
    game = cone_game()
    to_fire_phase(game)
    put(game, "b2", 22.5, 9)
    assert game.state.figures["b2"].step == 1
    game.state.figures["b1"].fired = True
    game.state.step = 1
    assert code_of(game, "fire", "b2", target="r1", auto=True) == "not-automatic"


def test_a_belt_fed_gun_needs_its_second_crewman() -> None:
    blue = [figure("gun", "belt-lmg", (21, 9), initiative=3),
            figure("no2", "rifle", (21.5, 9.3), initiative=1)]
    red = [figure("r1", "rifle", (21, 23.5), initiative=1)]
    game = new_game(blue, red, [50, 20])
    to_fire_phase(game)
    # 14.5in: a belt-fed gun's Quarter band (100 / 4); as a box-fed gun, Eighth (100 / 8)
    assert code_of(game, "fire", "gun", target="r1", loader="r1") == "no-loader"
    act(game, "fire", "gun", target="r1", loader="no2")
    first = of_kind(game.log, "shot")[0]
    assert first["row"] == "belt-lmg" and first["chance"] == 25
    assert game.state.figures["no2"].loading
    assert game.state.step == 1 and game.to_act() == "red"  # no2 has no fire left


def test_without_a_loader_the_belt_fed_gun_fires_as_a_box_fed_one() -> None:
    game = new_game([figure("gun", "belt-lmg", (21, 9), initiative=3)],
                    [figure("r1", "rifle", (21, 23.5), initiative=1)], [50])
    to_fire_phase(game)
    act(game, "fire", "gun", target="r1")
    (shot,) = of_kind(game.log, "shot")
    assert shot["row"] == "box-lmg" and shot["chance"] == 12


# ----------------------------------------------------------------- fire at a mover


def mover_game(faces: list[int], **kw: Any) -> Game:
    """b1 (initiative 1) walks north from (17, 9) to (17, 17); r1 (initiative 3) at
    (23.5, 16) sees it until the hedge hides it, beyond y 12."""
    game = new_game([figure("b1", "rifle", (17, 9), initiative=1)],
                    [figure("r1", "rifle", (23.5, 16), initiative=3)], faces, **kw)
    act(game, "move", "b1", to=[17, 17])
    return game


def test_a_higher_initiative_figure_may_fire_at_a_mover() -> None:
    game = mover_game([99])
    (offer,) = of_kind(game.log, "reaction")
    assert offer == {"mover": "b1", "name": "B1", "firers": ["r1"], "step": 1}
    assert game.to_act() == "red"
    assert code_of(game, "move", "r1", to=[23.5, 17]) == "reacting"
    assert code_of(game, "fire", "r1", target="b1", auto=True) == "not-automatic"
    act(game, "fire", "r1", target="b1")
    (shot,) = of_kind(game.log, "shot")
    # where the shot is best along the path (all in the Half band: the first such place)
    assert shot["reaction"] and shot["range"] == 8.85  # (17, 10): to a hundredth
    assert shot["chance"] == 50 and shot["fifths"] == 5
    b1 = game.state.figures["b1"]
    assert not b1.ducked and b1.pos.point == (17, 17)
    # b1 no longer sees r1 from behind the hedge, but knows where the fire came from
    known = game.state.knowledge["blue"].sightings["r1"]
    assert (known.x, known.y, known.visible) == (23.5, 16, False)
    # nobody is left to fire, but red is still asked until it lets b1 go: closing the
    # window by itself would tell blue that no hidden figure of red could fire
    assert game.to_act() == "red" and game.state.reaction is not None
    assert game.legal_orders("red") == [Order("red", "end")]
    assert game.forced("red") == Order("red", "end")
    end(game)
    # r1 has spent its turn: no move step and no fire step for it; b1, behind the hedge,
    # has nothing to fire at, so the turn is over
    assert game.state.turn == 2 and len(of_kind(game.log, "shot")) == 1
    assert game.state.figures["r1"].pos.point == (23.5, 16)


def test_the_enemy_glimpses_a_mover_it_loses_sight_of() -> None:
    game = mover_game([])
    (glimpse,) = of_kind(game.log, "enemy-glimpsed")
    assert (glimpse["x"], glimpse["y"]) == (17, 12)
    known = game.state.knowledge["red"].sightings["b1"]
    assert not known.visible and known.step == 1


def test_a_mover_hit_on_the_dice_but_saved_by_cover_ducks_back() -> None:
    game = mover_game([10, 6])
    act(game, "fire", "r1", target="b1")
    b1 = game.state.figures["b1"]
    assert b1.ducked and b1.step == 0 and b1.initiative == 1
    assert b1.pos.point == (17, 9)
    assert of_kind(game.log, "ducked-back") == [{"figure": "b1", "name": "B1"}]
    assert (game.state.phase, game.state.step, game.to_act()) == (Phase.FIRE, 0, "blue")
    end(game)
    assert game.state.figures["b1"].ducked is False  # only for the rest of the turn


def test_a_mover_hit_down_to_zero_stops_where_it_was_hit() -> None:
    game = mover_game([10, 1, 1])
    act(game, "fire", "r1", target="b1")
    b1 = game.state.figures["b1"]
    assert b1.initiative == 0 and not b1.ducked
    assert b1.pos.point == pytest.approx((17, 10))


def test_the_enemy_may_let_the_mover_go() -> None:
    game = mover_game([])
    end(game)
    assert game.state.reaction is None and of_kind(game.log, "reaction-over")
    assert game.state.figures["r1"].fired is False


def test_no_fire_at_a_mover_of_equal_initiative() -> None:
    game = lane(b1={"initiative": 2}, r1={"initiative": 2})
    put(game, "b1", 21, 2)
    act(game, "move", "b1", to=[21, 10])
    assert of_kind(game.log, "reaction") == []


def test_option_lets_the_firer_move_after() -> None:
    game = mover_game([99], options={"move_after_reaction_fire": True})
    act(game, "fire", "r1", target="b1")
    let_go(game)
    assert (game.state.phase, game.state.step, game.to_act()) == (Phase.MOVE, 3, "red")


def test_option_turns_fire_at_movers_off() -> None:
    game = mover_game([], options={"reaction_fire": False})
    assert game.state.reaction is None


# ---------------------------------------------------------------- the seed's example


def test_the_fire_fight_example_step_by_step() -> None:
    """Braun (initiative 2, skill 110, rifle) at a window shows head and chest; Doxey
    (initiative 2, skill 160, SMG) leans out of a doorway 7in away, head, chest and
    stomach showing. They fire at the same time. Braun needs 55 or less and throws 78;
    Doxey, on single shot, needs 20 or less and throws 07; the cover die must be 2 or
    less: 1; the effect die throws 2, and Braun is down to initiative 0."""
    braun = figure("braun", "rifle", (10.1, 13), initiative=2, skill=110)
    doxey = figure("doxey", "smg", (3.1, 13), initiative=2, skill=160, stance="leaning")
    game = new_game([braun], [doxey], [78, 7, 1, 3])
    state = game.state
    assert state.fifths("doxey", "braun") == 2  # at a window: head and chest
    assert state.fifths("braun", "doxey") == 3  # leaning out: head, chest and stomach
    end(game, 2)  # neither moves
    assert (state.phase, state.step) == (Phase.FIRE, 2)
    act(game, "fire", "braun", target="doxey")
    act(game, "fire", "doxey", target="braun")
    first, second = of_kind(game.log, "shot")
    assert first["range"] == 7.0 and first["band"] == "Half"
    assert first["roll"]["need"] == 55 and first["roll"]["faces"] == [78]
    assert first["hits"] == 0
    assert second["band"] == "Eighth" and not second["auto"]
    assert second["roll"]["need"] == 20 and second["roll"]["faces"] == [7]
    assert second["cover"][0]["need"] == 2 and second["cover"][0]["faces"] == [1]
    assert second["effect"][0]["value"] == 2
    assert state.figures["braun"].initiative == 0
    assert all_dice_used(game)


# ----------------------------------------------------------------------------- victory


def test_holding_the_objective_wins_on_points() -> None:
    victory = [{"side": "blue", "kind": "hold", "points": 2, "sections": ["house"]},
               {"side": "red", "kind": "hold", "points": 1, "sections": ["shed"]}]
    game = new_game([figure("b1", "rifle", (12, 12))], [figure("r1", "rifle", (23, 2))],
                    turns=1, victory=victory)
    end(game, 2)
    result = game.result()
    assert result is not None and result.winner == "blue"
    assert result.scores == {"blue": 2.0, "red": 0.0}


def test_turns_with_nobody_able_to_act_pass_without_end() -> None:
    # both at initiative 0 (no move step) and out of each other's sight (no fire): the
    # whole game passes at once, turn after turn
    game = new_game([figure("b1", "rifle", (21, 10), initiative=0)],
                    [figure("r1", "rifle", (2, 23), initiative=0)], turns=200)
    assert game.over and game.state.turn == 201
    assert game.result() is not None
