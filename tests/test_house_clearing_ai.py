"""The House-Clearing computer player: it keeps a low-initiative figure out of the first
fire, fires where it does most, sprays a cone only when no friend is in it, feeds a belt,
fires at movers worth it, and beats random play."""

from __future__ import annotations

from fibua.core.game import Game, LegalOrders, play_out
from fibua.core.orders import Order
from fibua.rulesets.house_clearing.ai import Sergeant
from fibua.rulesets.house_clearing.state import Phase
from fibua.scenario.loader import load_scenario
from hc_helpers import act, end, figure, new_game


def computer_order(game: Game, side: str) -> Order:
    return Sergeant(side, 1).choose(game.observe(side), LegalOrders(game, side))


def to_fire_phase(game: Game) -> None:
    while game.state.phase is Phase.MOVE:
        end(game)


def test_a_low_initiative_figure_gets_out_of_the_first_fire() -> None:
    # b1 (initiative 1) stands in the open north of the low wall; r1 (initiative 3) would
    # fire first: b1 goes where r1 cannot see it
    game = new_game([figure("b1", "rifle", (5, 7.5), initiative=1)],
                    [figure("r1", "rifle", (6, 14), initiative=3)])
    assert game.state.sees("r1", "b1")
    chosen = computer_order(game, "blue")
    assert chosen.kind in ("move", "stance") and chosen.unit == "b1"
    game.apply(chosen)
    if game.state.reaction is not None:
        end(game)
    assert not game.state.sees("r1", "b1")


def test_fire_goes_where_it_does_most() -> None:
    blue = [figure("b1", "rifle", (21, 10), initiative=3)]
    red = [figure("far", "rifle", (21, 22), initiative=1),
           figure("near", "rifle", (23.5, 13), initiative=1)]
    game = new_game(blue, red)
    to_fire_phase(game)
    chosen = computer_order(game, "blue")
    assert chosen == Order("blue", "fire", "b1", {"target": "near"})


def test_automatic_fire_only_with_no_friend_in_the_cone() -> None:
    # three enemies 4.5-6in out, all in the Quarter band and in the cone: a burst at 20%
    # each beats a single shot at 40%
    red = [figure("r1", "rifle", (21, 15), initiative=1),
           figure("r2", "rifle", (21.3, 14.5), initiative=1),
           figure("r3", "rifle", (20.8, 13.5), initiative=1)]
    game = new_game([figure("b1", "smg", (21, 9), skill=160, initiative=3)], red)
    to_fire_phase(game)
    chosen = computer_order(game, "blue")
    assert chosen.params.get("auto") is True
    friendly = new_game([figure("b1", "smg", (21, 9), skill=160, initiative=3),
                         figure("b2", "rifle", (20.9, 12), initiative=1)], red)
    to_fire_phase(friendly)
    assert "auto" not in computer_order(friendly, "blue").params


def test_a_belt_fed_gun_takes_a_loader_with_nothing_to_shoot() -> None:
    blue = [figure("gun", "belt-lmg", (21, 9), initiative=3),
            figure("no2", "pistol", (21.5, 9.3), initiative=1)]
    game = new_game(blue, [figure("r1", "rifle", (21, 23.5), initiative=1)])
    to_fire_phase(game)
    chosen = computer_order(game, "blue")
    assert chosen.params.get("loader") == "no2"


def test_a_defender_fires_at_a_mover_crossing_open_ground() -> None:
    victory = [{"side": "red", "kind": "hold", "sections": ["house"]}]
    game = new_game([figure("b1", "rifle", (17, 9), initiative=1)],
                    [figure("r1", "rifle", (15.5, 13), initiative=3)], victory=victory)
    act(game, "move", "b1", to=[17, 17])
    assert game.to_act() == "red"
    assert computer_order(game, "red") == Order("red", "fire", "r1", {"target": "b1"})


def test_the_computer_ends_when_it_has_nothing_to_do() -> None:
    game = new_game([figure("b1", "rifle", (21, 10), initiative=0)],
                    [figure("r1", "rifle", (2, 23))])
    assert game.to_act() == "red"
    assert computer_order(game, "red").kind in ("end", "move", "stance")
    to_fire_phase(game)
    assert game.over or computer_order(game, game.to_act() or "red").kind == "end"


def test_the_computer_beats_random_play() -> None:
    """A small sample (the full measure, 200 seeds a side, is in docs/winrates.md)."""
    wins = games = 0
    for name in ("ramp-houses", "oosterbeek-crossroads"):
        scenario = load_scenario(name)
        for side in scenario.side_names:
            for seed in (7, 8):
                game = Game(scenario, seed)
                rules = game.ruleset
                players = {s: rules.computer(s, seed) if s == side
                           else rules.random_player(s, seed) for s in scenario.side_names}
                wins += play_out(game, players).winner == side
                games += 1
    assert wins >= games - 1
