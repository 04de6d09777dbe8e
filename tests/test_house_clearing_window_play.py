"""A person answering a House-Clearing window to fire at a mover, at the terminal: the
window stays open after each shot until the side lets the mover go, and a person whose
figures can no longer fire is not kept at the prompt for it."""

from __future__ import annotations

from rich.console import Console

from fibua.cli.terminal import PlaySession
from fibua.core.game import Game
from fibua.core.orders import Order
from hc_helpers import figure, forced_game, make_scenario, new_game, of_kind


def watched_move() -> Game:
    """b1 (initiative 1) walks in through the house's door; r1 and r2 (initiative 3) both
    see it and may fire. Every percentage die is 99: every shot misses."""
    game = new_game([figure("b1", "rifle", (13, 7), initiative=1)],
                    [figure("r1", "rifle", (21.5, 7.5), initiative=3),
                     figure("r2", "rifle", (13, 2), initiative=3)], [99] * 4)
    game.apply(Order("blue", "move", "b1", {"to": [13, 11]}))
    reaction = game.state.reaction
    assert reaction is not None and sorted(reaction.firers) == ["r1", "r2"]
    return game


def play_red(game: Game, lines: list[str]) -> tuple[str, str]:
    """Red at the terminal typing `lines`; blue is a computer. (outcome, text shown)"""
    out = Console(record=True, width=100)
    feed = iter(lines)
    blue = game.ruleset.computer("blue", 1)
    play = PlaySession(game, "red", {"blue": blue}, out, read_line=lambda: next(feed, None),
                       echo=True)
    return play.run(), " ".join(out.export_text().split())


def red_orders(game: Game) -> list[str]:
    return [str(o) for o in game.orders if o.side == "red"]


def test_after_a_shot_the_person_is_asked_again_and_may_let_the_mover_go() -> None:
    game = watched_move()
    outcome, _ = play_red(game, ["fire r2 target=b1", "end"])
    assert outcome == "eof"
    assert red_orders(game)[:2] == ['red: fire r2 target="b1"', "red: end"]
    assert len(of_kind(game.log, "shot")) == 1
    assert game.state.reaction is None and not game.state.figures["r1"].fired


def test_after_the_last_shot_the_window_is_passed_without_asking() -> None:
    game = watched_move()
    outcome, _ = play_red(game, ["fire r2 target=b1", "fire r1 target=b1"])
    assert outcome == "eof"
    # nobody left to fire: the terminal gives the side's `end` itself, as after a move
    # that no figure of the side may fire at
    assert red_orders(game)[:3] == ['red: fire r2 target="b1"', 'red: fire r1 target="b1"',
                                   "red: end"]
    assert game.state.reaction is None


def test_a_commander_firing_the_last_shot_does_not_leave_the_next_one_asked() -> None:
    """Blue has two commanders, one figure each; only b1 (the first's) saw r1 walk. Once
    b1 has fired, nobody of blue can: the side lets r1 go without the second commander
    being asked."""
    scenario = make_scenario([figure("b1", "rifle", (13, 2), initiative=3),
                              figure("b2", "rifle", (23, 5), initiative=3)],
                             [figure("r1", "rifle", (13, 7), initiative=1)], split=2)
    game = forced_game(scenario, [99] * 4)
    game.apply(Order("red", "move", "r1", {"to": [13, 11]}))
    reaction = game.state.reaction
    assert reaction is not None and sorted(reaction.firers) == ["b1"]
    seats = game.ruleset.seats(scenario, "blue")
    assert [sorted(s.units or ()) for s in seats] == [["b1"], ["b2"]]
    out = Console(record=True, width=100)
    feed = iter(["fire b1 target=r1"])
    red = game.ruleset.computer("red", 1)
    play = PlaySession(game, "blue", {"red": red}, out, read_line=lambda: next(feed, None),
                       echo=True, seats=seats)
    assert play.run() == "eof"
    # had the second commander been asked in the window, the input would have run out
    # there, before blue's `end`
    blue = [str(o) for o in game.orders if o.side == "blue"]
    assert blue[:2] == ['blue: fire b1 target="r1"', "blue: end"]
    assert game.state.reaction is None
