"""What a Street-Fight player reads: the view's log, the figures' statuses, the numbers in
events, the shot preview and the after-action report."""

from __future__ import annotations

from typing import Any

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.street_fight.state import LOG_LENGTH
from fibua.scenario.loader import load_scenario
from sf_helpers import figure, forced_game, make_scenario

BLUE_FIRST = [2, 1]


def computer_game(name: str, seed: int, orders: int) -> Game:
    """A game of the computer against itself, `orders` orders in (or to its end)."""
    game = Game(load_scenario(name), seed)
    players = {side: game.ruleset.computer(side, seed + k)
               for k, side in enumerate(game.scenario.side_names)}
    for _ in range(orders):
        side = game.to_act()
        if side is None:
            break
        game.apply(players[side].choose(game.observe(side), game.legal_orders(side)))
    return game


def floats_in(value: Any) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in floats_in(v)]
    if isinstance(value, list | tuple):
        return [f for v in value for f in floats_in(v)]
    return []


# ------------------------------------------------------------------------------- log


def test_the_view_log_is_the_last_events_addressed_to_the_side() -> None:
    game = computer_game("corner-shop", 3, 400)
    assert len(game.log) > 2 * LOG_LENGTH
    for side in game.scenario.side_names:
        expected = [e.to_dict() for e in game.log_for(side)][-LOG_LENGTH:]
        assert game.view(side)["log"] == expected
        assert all(side in e["to"] or e["to"] == ["*"] for e in expected)


def test_a_new_game_logs_each_side_only_its_own_deployment() -> None:
    game = forced_game(make_scenario([figure("b1", "rifle", (20, 10))],
                                     [figure("r1", "rifle", (2, 23))]), BLUE_FIRST)
    for side in ("blue", "red"):
        log = game.view(side)["log"]
        assert log == [e.to_dict() for e in game.log_for(side)]
        (deployed,) = [e for e in log if e["kind"] == "deployed"]
        assert deployed["data"]["side"] == side


# --------------------------------------------------------------------------- numbers


def test_event_distances_and_places_are_given_to_a_hundredth() -> None:
    # three whole games: one alone may be short (a side falls back early)
    numbers = [f for seed in (1, 2, 3)
               for e in computer_game("farm-compound", seed, 10_000).log
               for f in floats_in(e.data)]
    assert len(numbers) > 50
    assert all(f == round(f, 2) for f in numbers)


def test_a_diagonal_move_is_reported_rounded_and_kept_exact() -> None:
    game = forced_game(make_scenario([figure("b1", "rifle", (20, 10))],
                                     [figure("r1", "rifle", (2, 23))]), BLUE_FIRST)
    events = game.apply(Order("blue", "move", "b1", {"to": [23, 13.5]}))
    (moved,) = [e.data for e in events if e.kind == "moved"]
    assert moved["inches"] == 4.61  # sqrt(3^2 + 3.5^2) = 4.6098...
    assert game.state.figures["b1"].moved == (3**2 + 3.5**2) ** 0.5
    (own,) = [f for f in game.view("blue")["own"] if f["id"] == "b1"]
    assert own["moved"] == 4.61 and own["status"] == "moved 4.6in"


# -------------------------------------------------------------------------- statuses


def test_a_figure_locked_in_close_combat_says_with_whom() -> None:
    blue = [figure("b1", "rifle", (20, 10)), figure("b2", "rifle", (23, 10))]
    red = [figure("r1", "rifle", (20, 14)), figure("r2", "rifle", (2, 23))]
    game = forced_game(make_scenario(blue, red, options={"morale": False}), BLUE_FIRST)
    game.apply(Order("blue", "move", "b1", {"to": [20, 13.2]}))
    status = {f["id"]: f["status"] for f in game.view("blue")["own"]}
    assert status["b1"] == "locked with R1, moved 3.2in"
    assert status["b2"] == "ready"
    red_status = {f["id"]: f["status"] for f in game.view("red")["own"]}
    assert red_status == {"r1": "locked with B1", "r2": "ready"}


def test_the_shot_preview_names_cover_in_words() -> None:
    # r1 in the open; r2 behind the low wall (y = 6) from b1 south of it
    game = forced_game(make_scenario([figure("b1", "rifle", (5, 2))],
                                     [figure("r1", "rifle", (9, 2)),
                                      figure("r2", "rifle", (5, 6.5))]), BLUE_FIRST)
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    rules = game.ruleset
    open_shot = rules.preview(game.state, Order("blue", "shoot", "b1", {"target": "r1"}))
    assert open_shot == ("R1: range 4.0in, no cover, hit 100% per round, kill 70% per hit, "
                         "removed 70%")
    covered = rules.preview(game.state, Order("blue", "shoot", "b1", {"target": "r2"}))
    assert covered == ("R2: range 4.5in, cover 1/2, hit 40% per round, kill 70% per hit, "
                       "removed 28%")  # 100 - 20 - 50 + 10
    assert "/4" not in open_shot + covered.replace("1/4", "")


# ------------------------------------------------------------------ after-action report


def test_the_after_action_report_reveals_everything() -> None:
    # r1 in the open is shot dead; r2 behind the high wall is never seen by blue
    blue = [figure("b1", "rifle", (20, 10))]
    red = [figure("r1", "rifle", (20, 18)), figure("r2", "rifle", (16.5, 4))]
    game = forced_game(make_scenario(blue, red, turns=1, options={"morale": False}),
                       [*BLUE_FIRST, 1, 10])
    assert game.ruleset.after_action(game.state)  # a report at any time, though shown at the end
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    game.apply(Order("blue", "shoot", "b1", {"target": "r1"}))
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    assert game.over
    lines = game.ruleset.after_action(game.state)
    assert lines[0] == "AFTER-ACTION REPORT"
    assert lines[1].startswith("Result: blue - turn limit reached")
    assert lines[2] == "Casualties: blue lost 0 of 1, red lost 1 of 2"
    assert "  B1 (Rifle, blue-unit) at (20.00, 10.00): unhurt" in lines
    assert "  R1 (Rifle, red-unit) at (20.00, 18.00): casualty" in lines
    never = lines.index("blue never saw:")
    assert lines[never + 1] == "  R2 (Rifle, red-unit) at (16.50, 4.00): unhurt"
    # red's only eyes on b1 fell with r1
    lost = lines.index("red had lost sight of:")
    assert lines[lost + 1] == "  B1, last seen at (20.00, 10.00), ended at (20.00, 10.00)"
    assert not any(line.startswith("red never saw") for line in lines)


def test_a_side_that_saw_everything_to_the_end_is_told_so() -> None:
    game = forced_game(make_scenario([figure("b1", "rifle", (20, 10))],
                                     [figure("r1", "rifle", (20, 18))], turns=1), BLUE_FIRST * 2)
    while not game.over:
        side = game.to_act()
        assert side is not None
        game.apply(Order(side, "end"))
    lines = game.ruleset.after_action(game.state)
    assert "blue saw every enemy figure, and saw the survivors at the end" in lines
    assert "red saw every enemy figure, and saw the survivors at the end" in lines
    assert lines[1] == "Result: nobody (a draw) - turn limit reached: draw"


def test_a_fallen_figure_counts_none_on_its_own_counter() -> None:
    # the seed removes a casualty: its side's counter shows 0 of 1 and out of action
    game = forced_game(make_scenario([figure("b1", "rifle", (20, 10)),
                                      figure("b2", "rifle", (23, 10))],
                                     [figure("r1", "rifle", (2, 23))]), [2, 1])
    game.state.figures["b2"].alive = False
    found = {c.id: c for c in game.counters("blue")}
    assert found["b1"].strength is not None and found["b1"].strength.now == 1
    fallen = found["b2"]
    assert fallen.strength is not None and (fallen.strength.now, fallen.strength.start) == (0, 1)
    assert fallen.out_of_action and fallen.marks == ()
