"""Every Street-Fight rule pinned with forced dice, against the seed's numbers.

Positions use the test table of sf_helpers: the open ground east of the house (x 17..24,
y 9..24) is the usual firing lane; the low wall (y = 6, x 2..8), the house (door on the
south wall at x 12.5..13.5, windows on the west wall at y 12.5..13.5) and the rubble
(2..5 x 18..21) give cover. `Game(...)` rolls initiative (blue d10, red d10) first, so every
list of faces starts with those two.
"""

from __future__ import annotations

from math import ceil
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.street_fight import morale
from fibua.rulesets.street_fight.cover import _best_crossed, _segments_cross
from fibua.rulesets.street_fight.state import Phase, Unit
from fibua.rulesets.street_fight.tables import WeaponName, weapon_for_d100
from fibua.scenario.loader import scenario_from_dict
from sf_helpers import figure, forced_game, make_scenario, table_dict

BLUE_FIRST = [2, 1]
RED_FIRST = [1, 2]


# ----------------------------------------------------------------------------- helpers


def new_game(
    blue: list[dict[str, Any]], red: list[dict[str, Any]], faces: list[int], **kw: Any
) -> Game:
    return forced_game(make_scenario(blue, red, **kw), faces)


def act(game: Game, kind: str, fid: str, **params: Any) -> list[Event]:
    return game.apply(Order(game.state.figures[fid].side, kind, fid, params))


def end(game: Game, times: int = 1) -> list[Event]:
    out: list[Event] = []
    for _ in range(times):
        side = game.to_act()
        assert side is not None
        out += game.apply(Order(side, "end"))
    return out


def to_shoot_phase(game: Game) -> None:
    while game.state.phase is Phase.MOVE:
        end(game)


def finish_turn(game: Game) -> list[Event]:
    """End phases until the turn is over (close combat and morale included)."""
    turn = game.state.turn
    out: list[Event] = []
    while game.state.turn == turn and not game.over:
        out += end(game)
    return out


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def basis(shot: dict[str, Any]) -> dict[str, int]:
    return {name: value for name, value in shot["roll"]["basis"]}


def need(shot: dict[str, Any]) -> int:
    value = shot["roll"]["need"]
    assert isinstance(value, int)
    return value


def all_dice_used(game: Game) -> bool:
    return bool(game.state.rng.faces == [])


def illegal_code(game: Game, order: Order) -> str:
    from fibua.core.errors import IllegalOrder

    before = (game.state_hash(), len(game.log))
    with pytest.raises(IllegalOrder) as caught:
        game.apply(order)
    assert caught.value.reason
    assert (game.state_hash(), len(game.log)) == before
    return caught.value.code


def order(game: Game, kind: str, fid: str, **params: Any) -> Order:
    return Order(game.state.figures[fid].side, kind, fid, params)


def lane(weapon: str = "rifle", red_at: tuple[float, float] = (20, 18),
         red_weapon: str = "rifle") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Blue b1 at (20, 10) and red r1 in the open lane north of it."""
    return [figure("b1", weapon, (20, 10))], [figure("r1", red_weapon, red_at)]


# -------------------------------------------------------------------------- initiative


def test_initiative_higher_d10_acts_first() -> None:
    game = new_game(*lane(), [3, 7])
    (rolls,) = of_kind(game.log, "initiative")
    assert rolls["blue"]["faces"] == [3] and rolls["blue"]["dice"] == "d10"
    assert rolls["red"]["faces"] == [7]
    assert game.state.initiative == ["red", "blue"]
    assert game.to_act() == "red" and game.state.phase is Phase.MOVE
    assert all_dice_used(game)


def test_initiative_ties_are_rolled_again() -> None:
    game = new_game(*lane(), [5, 5, 10, 10, 9, 4])
    rolls = of_kind(game.log, "initiative")
    assert [(r["blue"]["faces"][0], r["red"]["faces"][0]) for r in rolls] == [
        (5, 5), (10, 10), (9, 4)]
    assert game.state.initiative == ["blue", "red"]
    assert all_dice_used(game)


def test_initiative_is_rolled_every_turn() -> None:
    game = new_game(*lane(), [6, 3, 2, 9], turns=2)
    assert game.to_act() == "blue"
    end(game, 4)  # both move phases, both shoot phases
    assert game.state.turn == 2
    assert len(of_kind(game.log, "initiative")) == 2
    assert game.state.initiative == ["red", "blue"] and game.to_act() == "red"
    assert all_dice_used(game)


def test_fixed_initiative_is_rolled_once() -> None:
    game = new_game(*lane(), [3, 7], turns=3, options={"fixed_initiative": True})
    for turn in (1, 2, 3):
        assert game.state.turn == turn and game.to_act() == "red"
        end(game, 4)
    assert game.over
    assert len(of_kind(game.log, "initiative")) == 1


# ---------------------------------------------------------------------------- movement


def test_move_of_five_inches_is_a_normal_move() -> None:
    blue = [figure("b1", "rifle", (20, 10))]
    red = [figure("r1", "rifle", (20, 22))]
    game = new_game(blue, red, [*BLUE_FIRST, 100, 2, 1], turns=2)
    (moved,) = of_kind(act(game, "move", "b1", to=[23, 14]), "moved")  # 3-4-5
    assert moved["inches"] == 5.0 and moved["running"] is False
    end(game, 2)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")  # it may fire
    assert basis(shot)["moving firer"] == -20
    end(game, 2)
    # a 5in move does not carry over into the next turn
    assert game.state.turn == 2 and not game.state.figures["b1"].counts_as_moving
    assert all_dice_used(game)


def test_run_of_exactly_nine_inches_is_legal() -> None:
    blue = [figure("b1", "rifle", (20, 10))]
    red = [figure("r1", "rifle", (2, 23))]
    game = new_game(blue, red, BLUE_FIRST)
    (moved,) = of_kind(act(game, "move", "b1", path=[[20, 14], [24, 17]]), "moved")
    assert moved["inches"] == 9.0 and moved["running"] is True
    assert moved["to"] == [24.0, 17.0]
    assert game.state.figures["b1"].ran


@pytest.mark.parametrize("params", [
    {"to": [20, 19.01]},
    {"path": [[20, 14], [24, 17.01]]},
    {"path": [[20, 15], [20, 10]]},  # the path is measured, not where it ends
])
def test_move_over_nine_inches_is_illegal(params: dict[str, Any]) -> None:
    blue = [figure("b1", "rifle", (20, 10))]
    red = [figure("r1", "rifle", (2, 23))]
    game = new_game(blue, red, BLUE_FIRST)
    assert illegal_code(game, order(game, "move", "b1", **params)) == "too-far"


def test_a_runner_cannot_fire_or_aim_that_turn() -> None:
    blue = [figure("b1", "rifle", (20, 10)), figure("b2", "rifle", (23, 10))]
    red = [figure("r1", "rifle", (20, 22))]
    game = new_game(blue, red, BLUE_FIRST)
    act(game, "move", "b1", to=[20, 16])  # 6in
    to_shoot_phase(game)
    assert game.to_act() == "blue"
    assert illegal_code(game, order(game, "shoot", "b1", target="r1")) == "ran"
    assert illegal_code(game, order(game, "aim", "b1")) == "ran"


def test_a_runner_cannot_take_cover() -> None:
    blue = [figure("b1", "rifle", (5, 15)), figure("b2", "rifle", (23, 10))]
    red = [figure("r1", "rifle", (20, 22))]
    game = new_game(blue, red, BLUE_FIRST)
    act(game, "move", "b1", to=[5, 7])  # 8in, ends behind the low wall
    assert illegal_code(game, order(game, "take-cover", "b1")) == "ran"


def test_a_runner_gets_no_cover_and_counts_as_moving_next_turn() -> None:
    blue = [figure("b1", "rifle", (5, 2))]
    red = [figure("r1", "rifle", (5, 15))]
    faces = [*BLUE_FIRST, 70, 3]  # turn 1: blue hits (70 of 70), kill 3 fails (4+)
    faces += [*BLUE_FIRST, 20, 3, 70, 3]  # turn 2: both hit on their exact chance, no kill
    faces += BLUE_FIRST  # turn 3
    game = new_game(blue, red, faces, turns=3)
    end(game)
    (moved,) = of_kind(act(game, "move", "r1", to=[5, 7]), "moved")  # runs 8in
    assert moved["running"] is True
    end(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    # behind the low wall, but it ran: no cover at all
    assert basis(shot) == {"base": 100, "range 2 x 4in": -20, "moving target": -20,
                           "Rifle bonus": 10}
    assert need(shot) == 70 and shot["hit"] and not shot["killed"]
    end(game)  # red's runner may not fire: its shoot phase passes at once
    assert game.state.turn == 2
    # turn 2: red stands still, yet still counts as moving; now it has its cover
    end(game, 2)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert basis(shot) == {"base": 100, "range 2 x 4in": -20, "cover 1/2": -50,
                           "moving target": -20, "Rifle bonus": 10}
    assert need(shot) == 20 and shot["hit"]
    end(game)
    assert illegal_code(game, order(game, "aim", "r1")) == "moving"  # it cannot aim either
    (shot,) = of_kind(act(game, "shoot", "r1", target="b1"), "shot")
    assert basis(shot) == {"base": 100, "range 2 x 4in": -20, "moving firer": -20,
                           "Rifle bonus": 10}
    assert need(shot) == 70 and shot["hit"]
    end(game)
    assert game.state.turn == 3
    assert not game.state.figures["r1"].counts_as_moving
    assert all_dice_used(game)


def test_a_walker_keeps_its_cover() -> None:
    blue = [figure("b1", "rifle", (5, 2))]
    red = [figure("r1", "rifle", (5, 11))]
    game = new_game(blue, red, [*BLUE_FIRST, 21])
    end(game)
    act(game, "move", "r1", to=[5, 7])  # 4in
    end(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert basis(shot)["cover 1/2"] == -50 and basis(shot)["moving target"] == -20
    assert need(shot) == 20 and not shot["hit"]  # 21 is one over
    assert "kill_roll" not in shot
    assert all_dice_used(game)


# ---------------------------------------------------------------------------- shooting


@pytest.mark.parametrize(("face", "hit"), [(90, True), (91, False)])
def test_shot_hits_on_the_chance_or_less_and_records_every_term(face: int, hit: bool) -> None:
    game = new_game(*lane(), BLUE_FIRST + [face] + ([3] if hit else []))
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", target="r1")
    (shot,) = of_kind(events, "shot")
    assert shot["firer"] == "b1" and shot["target"] == "r1" and shot["range"] == 8.0
    roll = shot["roll"]
    assert roll["dice"] == "d100" and roll["faces"] == [face] and roll["at_most"] is True
    assert roll["basis"] == [["base", 100], ["range 2 x 4in", -20], ["Rifle bonus", 10]]
    assert roll["need"] == 90 and roll["success"] is hit and shot["hit"] is hit
    if hit:
        kill = shot["kill_roll"]
        assert kill["dice"] == "d10" and kill["faces"] == [3] and kill["need"] == 4
        assert kill["success"] is False
    else:
        assert "kill_roll" not in shot
    assert shot["killed"] is False and not of_kind(events, "casualty")
    assert all_dice_used(game)


@pytest.mark.parametrize(("weapon", "distance", "penalty"), [
    ("pistol", 2.0, -10), ("pistol", 2.1, -20), ("pistol", 1.5, -10),
    ("rifle", 8.0, -20), ("rifle", 8.1, -30), ("rifle", 4.0, -10),
    ("scoped-rifle", 12.0, -30), ("scoped-rifle", 12.1, -40),
    ("assault-rifle", 3.0, -10), ("assault-rifle", 3.1, -20), ("assault-rifle", 9.0, -30),
    ("lmg", 4.0, -10), ("lmg", 4.1, -20), ("hmg", 5.0, -10), ("hmg", 5.1, -20),
    ("hmg", 10.0, -20),
])
def test_range_costs_ten_percent_per_increment_or_part(
    weapon: str, distance: float, penalty: int
) -> None:
    automatic = weapon in ("assault-rifle", "lmg", "hmg")
    faces = BLUE_FIRST + ([1] if automatic else []) + [100, 1]  # one round; face 100
    game = new_game(*lane(weapon, (20, 10 + distance)), faces)
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    terms = basis(shot)
    (range_term,) = [k for k in terms if k.startswith("range")]
    assert terms[range_term] == penalty
    bonus = {"rifle": 10, "scoped-rifle": 20, "assault-rifle": 10}.get(weapon, 0)
    assert need(shot) == min(100, 100 + penalty + bonus)
    if not shot["hit"]:
        game.state.rng.faces.clear()  # the kill face was only needed at 100%
    assert all_dice_used(game)


@pytest.mark.parametrize(("blue_at", "floor", "red_at", "distance", "term"), [
    # from inside the house out through the west window (x = 10): 7in, not 10in
    ((13, 13), 0, (3, 13), 7.0, "range 2 x 4in"),
    # from the window of the upper floor likewise
    ((13, 13), 1, (3, 13), 7.0, "range 2 x 4in"),
    # from outside to a target inside: to where the target stands
    ((6, 13), 0, (11, 13), 5.0, "range 2 x 4in"),
    # from outside to outside: figure to figure
    ((20, 10), 0, (20, 19), 9.0, "range 3 x 4in"),
])
def test_range_is_measured_from_the_opening_a_shot_leaves_by(
    blue_at: tuple[float, float], floor: int, red_at: tuple[float, float], distance: float,
    term: str,
) -> None:
    game = new_game([figure("b1", "rifle", blue_at, floor)], [figure("r1", "rifle", red_at)],
                    [*BLUE_FIRST, 100])
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert shot["range"] == distance
    assert [k for k in basis(shot) if k.startswith("range")] == [term]
    assert all_dice_used(game)


@pytest.mark.parametrize(("blue_at", "red_at", "term", "value", "chance"), [
    ((5, 2), (5, 7), "cover 1/2", -50, 40),  # low wall within 1in: 1/2
    ((4, 13), (11, 13), "cover 3/4", -75, 15),  # through the west window: 3/4
    ((13, 4), (13, 11), "cover 1/2", -50, 40),  # through the door: 1/2
    ((3.5, 12), (3.5, 19.5), "cover 1/4", -25, 65),  # standing in rubble: 1/4
    ((5, 12), (5, 7), None, 0, 90),  # the low wall is behind it: nothing
    ((5, 2), (5, 7.5), None, 0, 90),  # the wall is 1.5in from the target: nothing
])
def test_cover_costs_25_percent_per_quarter(
    blue_at: tuple[float, float], red_at: tuple[float, float], term: str | None,
    value: int, chance: int,
) -> None:
    game = new_game([figure("b1", "rifle", blue_at)], [figure("r1", "rifle", red_at)],
                    [*BLUE_FIRST, chance + 1] if chance < 100 else [*BLUE_FIRST, 100, 1])
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    covers = {k: v for k, v in basis(shot).items() if k.startswith("cover")}
    assert covers == ({term: value} if term else {})
    assert need(shot) == chance
    assert all_dice_used(game)


def test_moving_target_and_moving_firer_cost_20_each() -> None:
    game = new_game(*lane(), [*BLUE_FIRST, 50, 3])
    act(game, "move", "b1", to=[21, 10])
    end(game)
    act(game, "move", "r1", to=[20, 17])
    end(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert basis(shot) == {"base": 100, "range 2 x 4in": -20, "moving target": -20,
                           "moving firer": -20, "Rifle bonus": 10}
    assert need(shot) == 50 and shot["hit"] and not shot["killed"]
    assert all_dice_used(game)


@pytest.mark.parametrize("aims", [1, 2, 3, 4])
def test_aiming_adds_ten_percent_a_turn_up_to_three(aims: int) -> None:
    # pistol at 8in: 100 - 40 = 60
    game = new_game(*lane("pistol"), BLUE_FIRST * (aims + 1) + [100], turns=aims + 1)
    turns = []
    for _ in range(aims):
        to_shoot_phase(game)
        (aimed,) = of_kind(act(game, "aim", "b1"), "aimed")
        turns.append(aimed["turns"])
        end(game, 2)
    assert turns == [min(t, 3) for t in range(1, aims + 1)]
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert basis(shot)[f"aiming {min(aims, 3)} turns"] == 10 * min(aims, 3)
    assert need(shot) == 60 + 10 * min(aims, 3)
    assert game.state.figures["b1"].aim == 0  # firing uses the aim up
    assert all_dice_used(game)


def test_moving_loses_the_aim() -> None:
    game = new_game(*lane("pistol"), BLUE_FIRST * 2 + [100], turns=2)
    to_shoot_phase(game)
    act(game, "aim", "b1")
    end(game, 2)
    act(game, "move", "b1", to=[20, 10.5])
    end(game)
    end(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    # 7.5in: still 4 pistol increments
    assert basis(shot) == {"base": 100, "range 4 x 2in": -40, "moving firer": -20}
    assert all_dice_used(game)


@pytest.mark.parametrize(("weapon", "bonus"), [
    ("pistol", 0), ("rifle", 10), ("scoped-rifle", 20), ("assault-rifle", 10), ("lmg", 0),
    ("hmg", 0),
])
def test_weapon_bonus(weapon: str, bonus: int) -> None:
    automatic = weapon in ("assault-rifle", "lmg", "hmg")
    game = new_game(*lane(weapon, (20, 22)), BLUE_FIRST + ([1] if automatic else []) + [100])
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    bonuses = {k: v for k, v in basis(shot).items() if k.endswith("bonus")}
    assert bonuses == ({f"{game.state.figures['b1'].arms.title} bonus": bonus} if bonus else {})
    assert all_dice_used(game)


def test_chance_is_clamped_to_100() -> None:
    # scoped rifle at 2in: 100 - 10 + 20 = 110, read as 100: even "00" hits
    game = new_game(*lane("scoped-rifle", (20, 12)), [*BLUE_FIRST, 100, 4])
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", target="r1")
    (shot,) = of_kind(events, "shot")
    assert sum(basis(shot).values()) == 110
    assert need(shot) == 100 and shot["hit"] and shot["killed"]
    assert of_kind(events, "casualty") == [{"figure": "r1", "name": "R1"}]
    assert all_dice_used(game)


def test_chance_is_clamped_to_0() -> None:
    # pistol at 22in: 11 increments, 100 - 110 = -10, read as 0: even 01 misses
    game = new_game([figure("b1", "pistol", (1, 1))], [figure("r1", "rifle", (1, 23))],
                    [*BLUE_FIRST, 1])
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert sum(basis(shot).values()) == -10
    assert need(shot) == 0 and not shot["hit"]
    assert all_dice_used(game)


KILL_NUMBERS = [("pistol", 5), ("rifle", 4), ("scoped-rifle", 4), ("assault-rifle", 4),
                ("lmg", 3), ("hmg", 2)]


@pytest.mark.parametrize(("weapon", "kill"), KILL_NUMBERS)
@pytest.mark.parametrize("margin", [0, -1])
def test_kill_roll_needs_the_weapon_number_or_more(weapon: str, kill: int, margin: int) -> None:
    automatic = weapon in ("assault-rifle", "lmg", "hmg")
    faces = BLUE_FIRST + ([1] if automatic else []) + [1, kill + margin]
    game = new_game(*lane(weapon, (20, 12)), faces)
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", target="r1")
    (shot,) = of_kind(events, "shot")
    assert shot["hit"]
    assert shot["kill_roll"]["faces"] == [kill + margin] and shot["kill_roll"]["need"] == kill
    assert shot["killed"] is (margin == 0)
    assert game.state.figures["r1"].alive is (margin != 0)
    assert bool(of_kind(events, "casualty")) is (margin == 0)
    assert all_dice_used(game)


@pytest.mark.parametrize("face", range(1, 11))
def test_assault_rifle_fires_half_a_d10_rounded_up(face: int) -> None:
    # assault rifle at 8in: 100 - 30 + 10 = 80; every round misses on 00
    rounds = ceil(face / 2)
    game = new_game(*lane("assault-rifle"), BLUE_FIRST + [face] + [100] * rounds)
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", target="r1")
    (fired,) = of_kind(events, "rounds")
    assert fired["roll"]["faces"] == [face] and fired["roll"]["dice"] == "d10/2"
    assert fired["roll"]["value"] == rounds
    shots = of_kind(events, "shot")
    assert len(shots) == rounds and all(need(s) == 80 and not s["hit"] for s in shots)
    assert all_dice_used(game)


@pytest.mark.parametrize("weapon", ["lmg", "hmg"])
@pytest.mark.parametrize("face", [1, 6, 10])
def test_machine_guns_fire_a_d10_of_rounds(weapon: str, face: int) -> None:
    game = new_game(*lane(weapon, (20, 22)), BLUE_FIRST + [face] + [100] * face)
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", target="r1")
    (fired,) = of_kind(events, "rounds")
    assert fired["roll"]["value"] == face
    assert len(of_kind(events, "shot")) == face
    assert all_dice_used(game)


def test_each_round_rolls_separately_and_fire_stops_once_the_target_is_dead() -> None:
    # LMG at 10in: 100 - 30 = 70. Five rounds: miss, hit without kill, hit and kill.
    game = new_game(*lane("lmg", (20, 20)), [*BLUE_FIRST, 5, 71, 70, 2, 1, 3])
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", target="r1")
    shots = of_kind(events, "shot")
    assert [(s["roll"]["faces"][0], s["hit"], s["killed"]) for s in shots] == [
        (71, False, False), (70, True, False), (1, True, True)]
    assert [s["kill_roll"]["faces"] for s in shots[1:]] == [[2], [3]]
    assert all(need(s) == 70 for s in shots)
    assert not game.state.figures["r1"].alive
    assert all_dice_used(game)  # rounds four and five were never rolled


def test_spread_fire_costs_ten_percent_per_inch_and_alternates_targets() -> None:
    blue = [figure("b1", "lmg", (20, 10))]
    red = [figure("r1", "rifle", (19, 17)), figure("r2", "rifle", (21, 17))]
    # each range sqrt(50) = 7.07in: 2 increments; frontage 2in: -20
    game = new_game(blue, red, [*BLUE_FIRST, 3, 61, 60, 3, 100])
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", targets=["r1", "r2"])
    shots = of_kind(events, "shot")
    assert [s["target"] for s in shots] == ["r1", "r2", "r1"]
    assert all(basis(s) == {"base": 100, "range 2 x 4in": -20, "spread over 2in": -20}
               for s in shots)
    assert [s["hit"] for s in shots] == [False, True, False]
    assert shots[1]["killed"] and not game.state.figures["r2"].alive
    assert all_dice_used(game)


def test_spread_over_part_of_an_inch_counts_the_whole_inch() -> None:
    blue = [figure("b1", "lmg", (20, 10))]
    red = [figure("r1", "rifle", (19, 17)), figure("r2", "rifle", (21.5, 17))]
    game = new_game(blue, red, [*BLUE_FIRST, 3, 100, 100, 100])
    to_shoot_phase(game)
    shots = of_kind(act(game, "shoot", "b1", targets=["r1", "r2"]), "shot")
    assert [s["target"] for s in shots] == ["r1", "r2", "r1"]
    assert all(basis(s)["spread over 3in"] == -30 for s in shots)
    assert all_dice_used(game)


def test_the_rounds_rolled_limit_the_frontage() -> None:
    blue = [figure("b1", "lmg", (20, 10))]
    red = [figure("r1", "rifle", (19, 17)), figure("r2", "rifle", (21.5, 17)),
           figure("r3", "rifle", (18.5, 17))]
    # two rounds: r1 and r3 (0.5in apart, 1in rounded up) fit, r2 (2.5in from r1) does not
    game = new_game(blue, red, [*BLUE_FIRST, 2, 100, 100])
    to_shoot_phase(game)
    shots = of_kind(act(game, "shoot", "b1", targets=["r1", "r2", "r3"]), "shot")
    assert [s["target"] for s in shots] == ["r1", "r3"]
    assert all(basis(s)["spread over 1in"] == -10 for s in shots)
    assert all_dice_used(game)


def test_a_single_round_cannot_spread() -> None:
    blue = [figure("b1", "lmg", (20, 10))]
    red = [figure("r1", "rifle", (19, 17)), figure("r2", "rifle", (21, 17))]
    game = new_game(blue, red, [*BLUE_FIRST, 1, 100])
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", targets=["r1", "r2"]), "shot")
    assert shot["target"] == "r1" and "spread over 2in" not in basis(shot)
    assert all_dice_used(game)


def test_a_single_round_at_close_targets_pays_no_spread() -> None:
    blue = [figure("b1", "lmg", (20, 10))]
    red = [figure("r1", "rifle", (19.7, 17)), figure("r2", "rifle", (20.3, 17))]
    game = new_game(blue, red, [*BLUE_FIRST, 1, 100])
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", targets=["r1", "r2"]), "shot")
    assert shot["target"] == "r1"
    assert not any(name.startswith("spread") for name in basis(shot))
    assert all_dice_used(game)


def test_dead_targets_of_a_spread_take_no_more_rounds() -> None:
    blue = [figure("b1", "lmg", (20, 10))]
    red = [figure("r1", "rifle", (19, 17)), figure("r2", "rifle", (21, 17))]
    # r1 dies on round 1; rounds 3 and 5 would have gone to r1 and are not rolled
    game = new_game(blue, red, [*BLUE_FIRST, 5, 1, 3, 100, 100])
    to_shoot_phase(game)
    shots = of_kind(act(game, "shoot", "b1", targets=["r1", "r2"]), "shot")
    assert [s["target"] for s in shots] == ["r1", "r2", "r2"]
    assert all_dice_used(game)


@pytest.mark.parametrize(("weapon", "targets_at", "legal"), [
    ("assault-rifle", [(17.5, 17), (22.5, 17)], True),  # 5in: the d10/2 maximum
    ("assault-rifle", [(17.5, 17), (22.51, 17)], False),
    ("lmg", [(19, 12), (19, 22)], True),  # 10in: the d10 maximum
    ("lmg", [(19, 12), (19, 22.01)], False),
    ("hmg", [(19, 12), (19, 22.01)], False),
])
def test_spread_wider_than_the_most_rounds_is_illegal(
    weapon: str, targets_at: list[tuple[float, float]], legal: bool
) -> None:
    blue = [figure("b1", weapon, (23, 17) if weapon != "assault-rifle" else (20, 10))]
    red = [figure(f"r{i}", "rifle", at) for i, at in enumerate(targets_at, 1)]
    most = 5 if weapon == "assault-rifle" else 10  # the rounds of a top roll
    game = new_game(blue, red, [*BLUE_FIRST, 10, *[100] * most])
    to_shoot_phase(game)
    shoot = order(game, "shoot", "b1", targets=["r1", "r2"])
    if legal:
        shots = of_kind(game.apply(shoot), "shot")
        assert len(shots) == most
        assert all(basis(s)[f"spread over {most}in"] == -10 * most for s in shots)
        assert all_dice_used(game)
    else:
        assert illegal_code(game, shoot) == "too-wide"


def test_hmg_cannot_move_and_fire_nor_aim() -> None:
    blue = [figure("b1", "hmg", (20, 10)), figure("b2", "hmg", (23, 10))]
    red = [figure("r1", "rifle", (20, 22))]
    game = new_game(blue, red, BLUE_FIRST)
    act(game, "move", "b1", to=[20, 11])
    to_shoot_phase(game)
    assert illegal_code(game, order(game, "shoot", "b1", target="r1")) == "moved"
    assert illegal_code(game, order(game, "aim", "b2")) == "no-aim"


def test_hmg_that_ran_cannot_fire_next_turn() -> None:
    blue = [figure("b1", "hmg", (20, 4)), figure("b2", "rifle", (23, 10))]
    red = [figure("r1", "rifle", (20, 22))]
    game = new_game(blue, red, BLUE_FIRST * 2, turns=2)
    act(game, "move", "b1", to=[20, 10])  # 6in
    end(game, 4)
    assert game.state.turn == 2 and game.state.figures["b1"].counts_as_moving
    # overwatch fire is fire too
    assert illegal_code(game, order(game, "overwatch", "b1", point=[20, 16])) == "moved"
    to_shoot_phase(game)
    assert illegal_code(game, order(game, "shoot", "b1", target="r1")) == "moved"


# --------------------------------------------------------------------------- overwatch


def overwatch_game(faces: list[int], weapon: str = "rifle", radius: float = 1.0,
                   turns: int = 1) -> Game:
    """b1 watches (20, 16); r1 starts at (20, 22), 12in north of b1."""
    game = new_game(*lane(weapon, (20, 22)), faces, turns=turns)
    events = act(game, "overwatch", "b1", point=[20, 16], radius=radius)
    (ow,) = of_kind(events, "overwatch")
    assert ow["large"] is (radius > 1)
    end(game)
    return game


def test_overwatch_kills_a_mover_where_it_enters_the_point() -> None:
    # enters the 1in point at (20, 17): 7in, 2 increments; -10 overwatch, -20 moving,
    # no cover (it is running): 100 - 20 + 10 - 10 - 20 = 60
    game = overwatch_game([*BLUE_FIRST, 60, 4])
    events = act(game, "move", "r1", to=[20, 14])
    assert [e.kind for e in events if e.kind in ("overwatch-fire", "shot", "casualty")] == [
        "overwatch-fire", "shot", "casualty"]
    (shot,) = of_kind(events, "shot")
    assert shot["overwatch"] == "point" and shot["range"] == 7.0
    assert basis(shot) == {"base": 100, "range 2 x 4in": -20, "moving target": -20,
                           "Rifle bonus": 10, "overwatch": -10}
    assert need(shot) == 60 and shot["killed"]
    (moved,) = of_kind(events, "moved")
    assert moved["to"] == [20.0, 17.0]  # the mover stopped where it was shot
    r1 = game.state.figures["r1"]
    assert not r1.alive and (r1.pos.x, r1.pos.y) == (20.0, 17.0)
    b1 = game.state.figures["b1"]
    assert b1.overwatch is None and b1.fired
    assert all_dice_used(game)


def test_a_mover_that_survives_overwatch_finishes_its_move() -> None:
    game = overwatch_game([*BLUE_FIRST, 61])
    events = act(game, "move", "r1", to=[20, 14])
    (shot,) = of_kind(events, "shot")
    assert not shot["hit"]
    (moved,) = of_kind(events, "moved")
    assert moved["to"] == [20.0, 14.0]
    assert all_dice_used(game)


def test_overwatch_on_a_large_area_costs_20() -> None:
    # radius 3: entered at (20, 19), 9in: 3 increments. 100 - 30 + 10 - 20 - 20 = 40
    game = overwatch_game([*BLUE_FIRST, 40, 3], radius=3.0)
    events = act(game, "move", "r1", to=[20, 14])
    (shot,) = of_kind(events, "shot")
    assert shot["overwatch"] == "area"
    assert basis(shot)["overwatch, large area"] == -20 and "overwatch" not in basis(shot)
    assert need(shot) == 40 and shot["hit"] and not shot["killed"]
    assert all_dice_used(game)


def test_scoped_rifle_keeps_its_20_on_overwatch() -> None:
    game = overwatch_game([*BLUE_FIRST, 71], weapon="scoped-rifle")
    (shot,) = of_kind(act(game, "move", "r1", to=[20, 14]), "shot")
    assert basis(shot)["Scoped rifle bonus"] == 20 and basis(shot)["overwatch"] == -10
    assert need(shot) == 70 and not shot["hit"]
    assert all_dice_used(game)


def test_overwatch_gets_no_aiming_bonus() -> None:
    game = new_game(*lane("rifle", (20, 22)), BLUE_FIRST * 2 + [100], turns=2)
    to_shoot_phase(game)
    act(game, "aim", "b1")
    end(game, 2)
    act(game, "overwatch", "b1", point=[20, 16])
    end(game)
    (shot,) = of_kind(act(game, "move", "r1", to=[20, 14]), "shot")
    assert not any(k.startswith("aiming") for k in basis(shot))
    assert need(shot) == 60
    assert all_dice_used(game)


def test_overwatch_ignores_a_mover_that_stays_out_of_the_area() -> None:
    game = overwatch_game(BLUE_FIRST)
    events = act(game, "move", "r1", to=[23, 22])
    assert not of_kind(events, "overwatch-fire")


def test_overwatch_interrupts_a_shot_from_the_area_and_a_dead_firer_does_not_fire() -> None:
    # r1 stands at (20, 16.5), inside the point; b1 fires first: 6.5in, 100-20+10-10 = 80
    game = new_game(*lane("rifle", (20, 16.5)), [*BLUE_FIRST, 80, 4])
    act(game, "overwatch", "b1", point=[20, 16])
    end(game, 2)
    assert game.to_act() == "red"  # blue's only figure is on overwatch: its phase is over
    events = act(game, "shoot", "r1", target="b1")
    assert [e.kind for e in events if e.kind != "enemy-lost"] == [
        "overwatch-fire", "shot", "casualty", "fire-cancelled"]
    (shot,) = of_kind(events, "shot")
    assert shot["firer"] == "b1" and need(shot) == 80 and shot["killed"]
    assert game.state.figures["b1"].alive
    assert all_dice_used(game)


def test_a_firer_that_survives_overwatch_fires() -> None:
    game = new_game(*lane("rifle", (20, 16.5)), [*BLUE_FIRST, 81, 100])
    act(game, "overwatch", "b1", point=[20, 16])
    end(game, 2)
    shots = of_kind(act(game, "shoot", "r1", target="b1"), "shot")
    assert [(s["firer"], s["hit"]) for s in shots] == [("b1", False), ("r1", False)]
    assert need(shots[1]) == 90
    assert all_dice_used(game)


def test_an_overwatching_figure_cannot_move_or_fire_and_stops_at_its_next_move() -> None:
    blue = [figure("b1", "rifle", (20, 10)), figure("b2", "rifle", (23, 10))]
    red = [figure("r1", "rifle", (2, 23))]
    game = new_game(blue, red, BLUE_FIRST * 2, turns=2)
    act(game, "overwatch", "b1", point=[20, 16])
    assert illegal_code(game, order(game, "move", "b1", to=[20, 11])) == "stationary"
    end(game, 2)
    assert game.to_act() == "blue"
    assert illegal_code(game, order(game, "aim", "b1")) == "overwatch"
    end(game, 2)
    assert game.state.turn == 2 and game.state.figures["b1"].overwatch is None
    act(game, "move", "b1", to=[20, 11])


# ------------------------------------------------------------------------- full cover


def full_cover_game(faces: list[int]) -> Game:
    """r1 takes full cover behind the low wall from b1 (south); b2 is north of it."""
    blue = [figure("b1", "rifle", (5, 2)), figure("b2", "rifle", (5, 12))]
    red = [figure("r1", "rifle", (5, 7))]
    game = new_game(blue, red, RED_FIRST + faces)
    assert of_kind(act(game, "take-cover", "r1"), "took-cover") == [{"figure": "r1"}]
    end(game, 2)
    return game


def test_full_cover_cannot_be_shot_from_the_covered_side() -> None:
    game = full_cover_game([100, 100])
    # r1 fires north, away from its cover: it keeps it
    events = act(game, "shoot", "r1", target="b2")
    assert not of_kind(events, "full-cover-lost")
    end(game)
    assert illegal_code(game, order(game, "shoot", "b1", target="r1")) == "full-cover"
    (shot,) = of_kind(act(game, "shoot", "b2", target="r1"), "shot")
    assert need(shot) == 90  # from the north the wall gives nothing
    assert all_dice_used(game)


def test_full_cover_is_lost_by_firing_that_way() -> None:
    game = full_cover_game([100, 41])
    events = act(game, "shoot", "r1", target="b1")
    assert of_kind(events, "full-cover-lost") == [{"figure": "r1"}]
    end(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert basis(shot)["cover 1/2"] == -50 and need(shot) == 40 and not shot["hit"]
    assert all_dice_used(game)


def test_overwatch_cannot_fire_at_full_cover_from_the_covered_side() -> None:
    # b1 watches r1's spot from the south, across the low wall r1 has taken cover behind
    blue = [figure("b1", "rifle", (5, 2))]
    red = [figure("r1", "rifle", (5, 7)), figure("r2", "rifle", (20, 20))]
    game = new_game(blue, red, [*BLUE_FIRST, 100])
    act(game, "overwatch", "b1", point=[5, 7], radius=2)
    end(game)
    act(game, "take-cover", "r1")
    end(game)  # blue's shoot phase passes by itself: b1 only watches
    assert game.to_act() == "red" and game.state.phase is Phase.SHOOT
    events = act(game, "shoot", "r1", target="b1")
    assert not of_kind(events, "overwatch-fire")
    assert [s["firer"] for s in of_kind(events, "shot")] == ["r1"]
    assert all_dice_used(game)


def test_full_cover_needs_half_cover_nearby() -> None:
    game = new_game(*lane(), RED_FIRST)
    assert illegal_code(game, order(game, "take-cover", "r1")) == "no-cover"


# ------------------------------------------------------------------------ close combat


def charge_game(faces: list[int], red_weapon: str = "rifle", turns: int = 1) -> Game:
    """b1 charges r1 from 3.2in; b2 and r2 stand by (morale off)."""
    blue = [figure("b1", "rifle", (20, 10)), figure("b2", "rifle", (23, 10))]
    red = [figure("r1", red_weapon, (20, 14)), figure("r2", "rifle", (2, 23))]
    game = new_game(blue, red, BLUE_FIRST + faces, turns=turns, options={"morale": False})
    act(game, "move", "b1", to=[20, 13.2])
    assert game.state.figures["b1"].charged
    return game


def cc_rolls(events: list[Event]) -> list[dict[str, Any]]:
    return of_kind(events, "close-combat")


def test_locked_figures_cannot_move_shoot_or_be_shot() -> None:
    game = charge_game([1, 1])
    end(game)
    assert illegal_code(game, order(game, "move", "r1", to=[21, 16])) == "in-combat"
    end(game)
    assert game.to_act() == "blue" and game.state.phase is Phase.SHOOT
    assert illegal_code(game, order(game, "shoot", "b1", target="r1")) == "in-combat"
    assert illegal_code(game, order(game, "shoot", "b2", target="r1")) == "target-in-combat"


def test_close_combat_winner_on_8_or_more_removes_the_loser() -> None:
    game = charge_game([7, 3])
    (cc,) = cc_rolls(finish_turn(game))
    blue_roll, red_roll = cc["rolls"]
    assert blue_roll["faces"] == [7] and blue_roll["modifiers"] == [["charged this turn", 1]]
    assert blue_roll["total"] == 8
    assert red_roll["faces"] == [3] and red_roll["modifiers"] == [] and red_roll["total"] == 3
    assert cc["winner"] == "b1" and cc["wounded"] == "r1"
    assert not game.state.figures["r1"].alive
    assert all_dice_used(game)


def test_close_combat_winner_under_8_leaves_them_locked() -> None:
    game = charge_game([6, 3, *BLUE_FIRST, 5, 9], turns=2)
    (cc,) = cc_rolls(finish_turn(game))
    assert cc["winner"] == "b1" and cc["wounded"] is None  # 7 beats 3, but is under 8
    r1 = game.state.figures["r1"]
    assert r1.alive and r1.lost_last_combat
    assert game.state.turn == 2
    assert illegal_code(game, order(game, "move", "b1", to=[20, 12])) == "in-combat"
    (cc,) = cc_rolls(finish_turn(game))
    blue_roll, red_roll = cc["rolls"]
    assert blue_roll["modifiers"] == []  # no charge bonus in the second round
    assert red_roll["modifiers"] == [["lost previous round", -1]] and red_roll["total"] == 8
    assert cc["winner"] == "r1" and cc["wounded"] == "b1"
    assert all_dice_used(game)


def test_losing_a_round_counts_only_in_the_next_round() -> None:
    game = charge_game([6, 3, *BLUE_FIRST], turns=2)
    finish_turn(game)
    r1 = game.state.figures["r1"]
    assert r1.lost_last_combat
    game.state.figures["b1"].alive = False  # the fight ends some other way
    finish_turn(game)
    assert not r1.lost_last_combat
    assert all_dice_used(game)


def test_close_combat_draw_leaves_them_locked() -> None:
    game = charge_game([4, 5])
    (cc,) = cc_rolls(finish_turn(game))
    assert [r["total"] for r in cc["rolls"]] == [5, 5]
    assert cc["winner"] is None and cc["wounded"] is None
    figures = game.state.figures
    assert figures["b1"].alive and figures["r1"].alive
    assert not figures["b1"].lost_last_combat and not figures["r1"].lost_last_combat


@pytest.mark.parametrize(("weapon", "modifier", "wounds"), [
    ("lmg", -1, True), ("hmg", -2, False), ("pistol", 0, True),
])
def test_close_combat_heavy_weapons_fight_worse(weapon: str, modifier: int, wounds: bool) -> None:
    game = charge_game([1, 9], red_weapon=weapon)
    (cc,) = cc_rolls(finish_turn(game))
    red_roll = cc["rolls"][1]
    title = game.state.figures["r1"].arms.title
    assert red_roll["modifiers"] == ([[f"armed with {title}", modifier]] if modifier else [])
    assert red_roll["total"] == 9 + modifier
    assert cc["winner"] == "r1"
    assert (cc["wounded"] == "b1") is wounds


def test_close_combat_minus_one_per_attacker_beyond_the_first() -> None:
    blue = [figure("b1", "rifle", (19.5, 10)), figure("b2", "rifle", (20.5, 10))]
    red = [figure("r1", "rifle", (20, 14))]
    game = new_game(blue, red, [*BLUE_FIRST, 3, 3, 1, 3], turns=1)
    act(game, "move", "b1", to=[19.7, 13.3])
    act(game, "move", "b2", to=[20.3, 13.3])
    fights = cc_rolls(finish_turn(game))
    assert [f["figures"] for f in fights] == [["b1", "r1"], ["b2", "r1"]]
    for fight in fights:
        blue_roll, red_roll = fight["rolls"]
        assert blue_roll["modifiers"] == [["charged this turn", 1]]
        assert red_roll["modifiers"] == [["more than one attacker", -1]]
    assert [[r["total"] for r in f["rolls"]] for f in fights] == [[4, 2], [2, 2]]
    assert [f["winner"] for f in fights] == ["b1", None]
    assert all_dice_used(game)


def test_close_combat_plus_one_defending_from_cover() -> None:
    blue = [figure("b1", "rifle", (5, 2))]
    red = [figure("r1", "rifle", (5, 6.5))]
    game = new_game(blue, red, [*BLUE_FIRST, 5, 5], turns=1)
    act(game, "move", "b1", to=[5, 5.7])
    (cc,) = cc_rolls(finish_turn(game))
    blue_roll, red_roll = cc["rolls"]
    assert blue_roll["modifiers"] == [["charged this turn", 1]]
    assert red_roll["modifiers"] == [["defending from cover", 1]]
    assert cc["winner"] is None
    assert all_dice_used(game)


@pytest.mark.parametrize(("in_contact_with", "value"), [(1, 0), (2, -1), (3, -2), (4, -3)])
def test_every_attacker_beyond_the_first_costs_one(in_contact_with: int, value: int) -> None:
    from fibua.rulesets.street_fight.combat import combat_modifiers

    game = charge_game([])
    state = game.state
    b1, r1 = state.figures["b1"], state.figures["r1"]
    terms = {m.name: m.value for m in combat_modifiers(state, r1, b1, in_contact_with)}
    assert terms["more than one attacker"] == value


def defended_game(faces: list[int], options: dict[str, Any] | None = None) -> Game:
    """b1 charges r1, who stands just behind the low wall (y = 6); b2 and r2 stand by."""
    blue = [figure("b1", "rifle", (5, 2)), figure("b2", "rifle", (23, 10))]
    red = [figure("r1", "rifle", (5, 6.5)), figure("r2", "rifle", (23, 23))]
    game = new_game(blue, red, [*BLUE_FIRST, *faces], turns=2,
                    options={"morale": False} | (options or {}))
    act(game, "move", "b1", to=[5, 5.7])
    return game


def test_defending_from_cover_lasts_the_whole_fight() -> None:
    """The seed limits the charge bonus to the turn of the charge, not "+1 defending from
    cover": r1, charged behind the wall, keeps it in the next round; b1, who charged, never
    has it (though the wall is within 1in of it too)."""
    game = defended_game([5, 5, *BLUE_FIRST, 5, 5])
    (first,) = cc_rolls(finish_turn(game))
    assert [r["modifiers"] for r in first["rolls"]] == [
        [["charged this turn", 1]], [["defending from cover", 1]]]
    assert first["winner"] is None  # 6 against 6
    assert game.state.figures["r1"].defending == ("b1",)
    (second,) = cc_rolls(finish_turn(game))
    assert [r["modifiers"] for r in second["rolls"]] == [[], [["defending from cover", 1]]]
    assert [r["total"] for r in second["rolls"]] == [5, 6]
    assert second["winner"] == "r1" and second["wounded"] is None  # 6 is under 8
    assert all_dice_used(game)


def test_defending_from_cover_can_be_limited_to_the_first_round() -> None:
    game = defended_game([5, 5, *BLUE_FIRST, 5, 5], {"defence_first_round_only": True})
    (first,) = cc_rolls(finish_turn(game))
    assert first["rolls"][1]["modifiers"] == [["defending from cover", 1]]
    (second,) = cc_rolls(finish_turn(game))
    assert [r["modifiers"] for r in second["rolls"]] == [[], []]
    assert second["winner"] is None
    assert all_dice_used(game)


def test_a_defender_that_lost_still_defends_from_cover() -> None:
    # round one: b1 6 + 1 = 7 beats r1 5 + 1 = 6, under 8: r1 lost. Round two: r1 rolls 9,
    # -1 for the lost round, +1 defending from cover: 9 beats b1's 3 and wounds
    game = defended_game([6, 5, *BLUE_FIRST, 3, 9])
    (first,) = cc_rolls(finish_turn(game))
    assert first["winner"] == "b1" and first["wounded"] is None
    (second,) = cc_rolls(finish_turn(game))
    assert second["rolls"][1]["modifiers"] == [["lost previous round", -1],
                                               ["defending from cover", 1]]
    assert second["rolls"][1]["total"] == 9 and second["wounded"] == "b1"
    assert all_dice_used(game)


def test_a_runner_cannot_end_within_one_inch_of_an_enemy() -> None:
    blue = [figure("b1", "rifle", (20, 5))]
    red = [figure("r1", "rifle", (20, 14))]
    game = new_game(blue, red, BLUE_FIRST)
    assert illegal_code(game, order(game, "move", "b1", to=[20, 13.2])) == "run-into-combat"
    act(game, "move", "b1", to=[20, 12.9])  # 7.9in, 1.1in short: allowed


def test_a_runner_meeting_an_unseen_enemy_stops_short_and_the_order_stands() -> None:
    # r1 stands behind the high wall, out of b1's sight: refusing the run would reveal it
    blue = [figure("b1", "rifle", (20, 5))]
    red = [figure("r1", "rifle", (17, 3))]
    game = new_game(blue, red, BLUE_FIRST)
    assert "r1" not in game.state.knowledge["blue"].sightings
    events = act(game, "move", "b1", path=[[18.5, 1.0], [17.4, 2.2]])
    b1 = game.state.figures["b1"].pos
    assert game.state.figures["r1"].pos.distance(b1) > 1.0
    assert not game.state.figures["b1"].charged
    assert of_kind(events, "halted") and of_kind(events, "moved")[0]["to"] == [b1.x, b1.y]
    assert all(e.to == ("blue",) for e in events if e.kind == "halted")


def test_moving_within_exactly_one_inch_engages() -> None:
    game = new_game(*lane("rifle", (20, 14)), [*BLUE_FIRST, 1, 1], turns=1)
    act(game, "move", "b1", to=[20, 13])
    assert game.state.figures["b1"].charged
    assert len(cc_rolls(finish_turn(game))) == 1
    assert all_dice_used(game)


# ------------------------------------------------------------------------------ morale


def morale_game(faces: list[int], turns: int = 1, morale: bool = True) -> Game:
    """b1 at (13, 1) kills r2; r1 and r3 stand in line with the house door behind them."""
    blue = [figure("b1", "rifle", (13, 1))]
    red = [figure("r1", "rifle", (13, 4)), figure("r2", "rifle", (8, 4)),
           figure("r3", "rifle", (13, 3))]
    game = new_game(blue, red, BLUE_FIRST + faces, turns=turns,
                    options={"morale": morale})
    to_shoot_phase(game)
    events = act(game, "shoot", "b1", target="r2")
    assert of_kind(events, "casualty")
    return game


def test_morale_holds_on_a_d10_lower_than_the_figures_left() -> None:
    game = morale_game([1, 10, 1])
    events = end(game, 2)
    (test,) = of_kind(events, "morale")
    assert test["roll"]["faces"] == [1] and test["roll"]["need"] == 1
    assert test["roll"]["at_most"] is True and test["holds"] is True
    assert not of_kind(events, "fell-back")
    assert all_dice_used(game)


def test_morale_fails_falls_back_to_cover_and_shelters_a_full_turn() -> None:
    game = morale_game([1, 10, 2, *BLUE_FIRST, *BLUE_FIRST], turns=3)
    events = end(game, 2)
    (test,) = of_kind(events, "morale")
    assert test["roll"]["faces"] == [2] and test["holds"] is False  # 2 is not under 2
    falls = {f["figure"]: f for f in of_kind(events, "fell-back")}
    # directly away from b1 at (13, 1), to the doorway of the house: cover from b1
    assert falls["r1"]["to"] == [13.0, 10.0] and falls["r1"]["inches"] == 6.0
    assert falls["r3"]["to"] == [13.0, 10.0] and falls["r3"]["inches"] == 7.0
    assert falls["r1"]["sheltering"] and falls["r3"]["sheltering"]
    # turn 2: no orders at all for the sheltering figures
    assert game.state.turn == 2
    assert game.to_act() == "blue"
    end(game)
    assert game.state.phase is Phase.SHOOT  # red had nobody able to move
    end(game)
    assert game.state.turn == 3 and game.to_act() == "blue"
    end(game)
    act(game, "move", "r1", to=[13, 12])  # turn 3: orders again
    assert all_dice_used(game)


def test_falling_back_from_a_firer_inside_a_building() -> None:
    # b1 fires from inside the house through the west window; r2 runs directly away from
    # it, west, still seen through the window all the way, until the table edge stops it
    blue = [figure("b1", "rifle", (11, 13))]
    red = [figure("r1", "rifle", (4, 13)), figure("r2", "rifle", (4, 12))]
    game = new_game(blue, red, [*BLUE_FIRST, 1, 10, 1], turns=1)
    to_shoot_phase(game)
    (shot,) = of_kind(act(game, "shoot", "b1", target="r1"), "shot")
    assert shot["killed"]
    events = end(game, 2)
    (test,) = of_kind(events, "morale")
    assert test["holds"] is False  # one figure left: no d10 is under 1
    (fall,) = of_kind(events, "fell-back")
    assert fall["figure"] == "r2" and fall["inches"] == 4.0 and fall["to"][0] < 0.25
    assert all_dice_used(game)


def test_morale_off_means_no_tests() -> None:
    game = morale_game([1, 10], morale=False)
    events = end(game, 2)
    assert not of_kind(events, "morale") and not of_kind(events, "fell-back")
    assert game.over and all_dice_used(game)


def test_morale_waits_for_a_third_then_tests_each_further_casualty() -> None:
    blue = [figure("b1", "scoped-rifle", (20, 10))]
    red = [figure(f"r{i}", "rifle", (17 + i, 20)) for i in range(1, 5)]
    # 4 figures: the first loss is under a third, the second is not
    faces = [*BLUE_FIRST, 1, 10]  # turn 1: r1 dies, no test
    faces += [*BLUE_FIRST, 1, 10, 1]  # turn 2: r2 dies, test with 2 left: 1 holds
    faces += [*BLUE_FIRST, 1, 10, 1]  # turn 3: r3 dies, test with 1 left: 1 fails
    game = new_game(blue, red, faces, turns=3)
    tests = []
    for victim in ("r1", "r2", "r3"):
        to_shoot_phase(game)
        act(game, "shoot", "b1", target=victim)
        events = end(game, 2)
        tests.append([(t["roll"]["need"], t["holds"]) for t in of_kind(events, "morale")])
    assert tests == [[], [(1, True)], [(0, False)]]
    assert all_dice_used(game)


@pytest.mark.parametrize(("start", "left", "tested", "due"), [
    (1, 0, 0, 0),  # a single figure never tests
    (2, 1, 0, 1), (3, 2, 0, 1), (3, 1, 1, 1), (3, 1, 0, 2),
    (4, 3, 0, 0), (4, 2, 0, 1), (4, 1, 2, 1),
    (6, 5, 0, 0), (6, 4, 0, 1), (6, 3, 0, 2), (6, 3, 2, 1), (6, 3, 3, 0),
])
def test_tests_due(start: int, left: int, tested: int, due: int) -> None:
    unit = Unit("u", "U", "red", [f"f{i}" for i in range(start)], tested_losses=tested)
    assert morale.tests_due(unit, left) == due


# ---------------------------------------------------------------- random weapon table


@pytest.mark.parametrize(("face", "weapon"), [
    (1, "pistol"), (50, "pistol"), (51, "rifle"), (70, "rifle"), (71, "scoped-rifle"),
    (80, "scoped-rifle"), (81, "assault-rifle"), (90, "assault-rifle"), (91, "lmg"),
    (99, "lmg"), (100, "hmg"),
])
def test_random_weapon_is_rolled_at_set_up(face: int, weapon: str) -> None:
    game = new_game([figure("b1", "random", (20, 10))], [figure("r1", "pistol", (20, 18))],
                    [face, *BLUE_FIRST])
    assert game.state.figures["b1"].weapon == WeaponName(weapon)
    (drawn,) = of_kind(game.log, "weapon-drawn")
    assert drawn["weapon"] == weapon and drawn["roll"]["faces"] == [face]
    assert drawn["roll"]["dice"] == "d100"
    assert all_dice_used(game)


def test_random_weapon_table_covers_every_face() -> None:
    counts: dict[str, int] = {}
    for face in range(1, 101):
        name = str(weapon_for_d100(face).name)
        counts[name] = counts.get(name, 0) + 1
    assert counts == {"pistol": 50, "rifle": 20, "scoped-rifle": 10, "assault-rifle": 10,
                      "lmg": 9, "hmg": 1}


# ------------------------------------------------------------------------- end of game


def test_a_side_wiped_out_loses() -> None:
    game = new_game(*lane("rifle", (20, 12)), [*BLUE_FIRST, 1, 10], turns=6)
    to_shoot_phase(game)
    act(game, "shoot", "b1", target="r1")
    end(game)
    result = game.result()
    assert game.over and result is not None
    assert result.winner == "blue" and "red wiped out" in result.reason


def test_turn_limit_without_victory_conditions_and_no_losses_is_a_draw() -> None:
    game = new_game(*lane(), BLUE_FIRST * 2, turns=2)
    end(game, 8)
    result = game.result()
    assert result is not None and result.winner is None
    assert "turn limit" in result.reason and game.state.turn == 3


def scenario_with_victory(victory: list[dict[str, Any]], blue: list[dict[str, Any]],
                          red: list[dict[str, Any]]) -> Any:
    raw = table_dict(blue, red, turns=1)
    raw["victory"] = victory
    return scenario_from_dict(raw, "test-table")


@pytest.mark.parametrize(("victory", "winner", "points"), [
    ([{"side": "red", "kind": "hold", "points": 2,
       "zone": [[18, 16], [22, 16], [22, 20], [18, 20]]}], "red", {"blue": 0, "red": 2}),
    ([{"side": "blue", "kind": "reach", "zone": [[0, 0], [4, 0], [4, 4], [0, 4]]},
      {"side": "red", "kind": "survive"}], "red", {"blue": 0, "red": 1}),
    ([{"side": "blue", "kind": "reach", "zone": [[10, 10], [16, 10], [16, 16], [10, 16]]},
      {"side": "red", "kind": "survive"}], None, {"blue": 1, "red": 1}),
    ([{"side": "blue", "kind": "hold", "sections": ["house"]},
      {"side": "red", "kind": "hold", "sections": ["house"]}], "blue", {"blue": 1, "red": 0}),
    ([{"side": "red", "kind": "eliminate"}], None, {"blue": 0, "red": 0}),
    ([{"side": "blue", "kind": "hold", "points": 3, "sections": ["house"]},
      {"side": "red", "kind": "survive", "points": 2}], "blue", {"blue": 3, "red": 2}),
])
def test_victory_points_from_the_scenario(
    victory: list[dict[str, Any]], winner: str | None, points: dict[str, float]
) -> None:
    blue = [figure("b1", "rifle", (12, 12))]  # inside the house
    red = [figure("r1", "rifle", (20, 18))]
    game = forced_game(scenario_with_victory(victory, blue, red), BLUE_FIRST)
    end(game, 4)
    result = game.result()
    assert result is not None
    assert result.winner == winner and result.scores == points


def test_equal_points_go_to_the_side_that_caused_more_casualties() -> None:
    victory = [{"side": "blue", "kind": "survive"}, {"side": "red", "kind": "survive"}]
    blue = [figure("b1", "rifle", (20, 10))]
    red = [figure("r1", "rifle", (20, 12)), figure("r2", "rifle", (2, 23))]
    game = forced_game(scenario_with_victory(victory, blue, red), [*BLUE_FIRST, 1, 10, 1])
    to_shoot_phase(game)
    act(game, "shoot", "b1", target="r1")
    end(game, 2)  # red's morale test with 1 left fails on any face; r2 falls back
    result = game.result()
    assert result is not None and result.winner == "blue"
    assert "casualties" in result.reason and result.scores == {"blue": 1, "red": 1}


coordinate = st.integers(0, 6).map(float) | st.floats(0, 6)


@settings(max_examples=300)
@given(pq=st.tuples(coordinate, coordinate, coordinate, coordinate),
       openings=st.lists(st.tuples(coordinate, coordinate, coordinate, coordinate,
                                   st.sampled_from([2, 3])), max_size=6))
def test_the_cover_of_the_openings_crossed_is_found_in_one_call(
    pq: tuple[float, float, float, float], openings: list[tuple[float, ...]]
) -> None:
    """The compiled search gives the best cover of the openings a line of fire meets, as
    the orientation test asked opening by opening does (grid points make lines touch)."""
    segments = np.array([o[:4] for o in openings], dtype=np.float64).reshape(-1, 4)
    covers = np.array([o[4] for o in openings], dtype=np.int64)
    expected = max((int(o[4]) for o in openings if _segments_cross(*pq, *o[:4])), default=0)
    assert _best_crossed(*pq, segments, covers) == expected
