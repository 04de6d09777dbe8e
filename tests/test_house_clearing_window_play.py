"""People answering a House-Clearing window to fire at a mover, at the terminal and on
the server: the window stays open after each shot until the side lets the mover go, and
a side whose figures can no longer fire is not kept waiting for it."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from fibua.cli.terminal import PlaySession
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.server.hub import Hub
from fibua.server.store import Store
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


def test_a_server_seat_answers_a_window_shot_by_shot_and_the_server_passes_the_last(
        tmp_path: Path) -> None:
    """The same window on the server, both sides played by people: red's seat fires with
    r2 and is still asked (r1 may fire); after r1's shot nobody may, and the server gives
    red's `end` itself, as it does after a move no figure may fire at."""
    scenario = make_scenario([figure("b1", "rifle", (13, 7), initiative=1)],
                             [figure("r1", "rifle", (21.5, 7.5), initiative=3, skill=1),
                              figure("r2", "rifle", (13, 2), initiative=3, skill=1)])
    store = Store(tmp_path / "games.sqlite3")
    try:
        hub = Hub(store)
        hub.uploaded[scenario.name] = scenario  # as if uploaded in the lobby
        made = hub.create(scenario.name, 5, {"Blue player 1": "human", "Red player 1": "human"})
        game_id, tokens = made["id"], made["seat_tokens"]
        live = hub.live(game_id)
        hub.order(game_id, tokens["Blue player 1"], "move", "b1", {"to": [13, 11]})
        assert not hub.step(game_id) and live.game.to_act() == "red"
        hub.order(game_id, tokens["Red player 1"], "fire", "r2", {"target": "b1"})
        # skill 1 halved in the Half band leaves no chance: nothing is rolled, b1 goes on
        assert of_kind(live.game.log, "fired-on")[0]["hits"] == 0
        assert not hub.step(game_id) and live.game.to_act() == "red"
        red = live.seat("Red player 1")
        assert red is not None and hub.may_act(live, red)
        hub.order(game_id, tokens["Red player 1"], "fire", "r1", {"target": "b1"})
        assert of_kind(live.game.log, "fired-on")[1]["hits"] == 0
        assert live.game.state.reaction is not None  # still asked: nobody may fire
        assert hub.step(game_id)  # the server lets b1 go for red
        assert live.game.orders[-1] == Order("red", "end")
        assert live.game.state.reaction is None
    finally:
        store.close()
