"""The tuner's search, on a fake game whose win rate is a known function of the knob: the
sequential test stops early far from 50% and plays on near it, the bisection finds the
value nearest even, a stopped tune goes on to the same answer, and the value chosen is
written as a house rule the lab loads and as a whole scenario the lobby takes."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import exp
from pathlib import Path

import pytest

from fibua.lab.knobs import parse_knob
from fibua.lab.overrides import with_house_rules
from fibua.lab.records import GameRow
from fibua.lab.stats import confidence_sequence, mixture_radius
from fibua.lab.store import read_info, read_rows
from fibua.lab.tune_out import write_house_rule
from fibua.lab.tuner import (
    Evidence,
    Plan,
    Settings,
    bisect,
    evaluate,
    first_side_wins,
    run_tune,
    value_folder,
)
from fibua.scenario.loader import load_scenario, scenario_from_text
from fibua.scenario.schema import Scenario

SIDES = ("british", "germans")


def logistic(middle: float, slope: float) -> Callable[[int], float]:
    return lambda value: 1 / (1 + exp(-slope * (value - middle)))


def fake_row(seed: int, chance: float, draws: float = 0.0) -> GameRow:
    """Seed S's game: the first side wins when the seed's draw falls under the chance, the
    same draw at every value (as the lab's values share their seeds' dice)."""
    draw = random.Random(seed).random()
    winner = None if draw > 1 - draws else "british" if draw < chance * (1 - draws) \
        else "germans"
    return GameRow(seed=seed, winner=winner, reason="fake", turns=1, orders=1, rolls=0,
                   players=dict.fromkeys(SIDES, "normal"), scores={}, casualties={})


def fake_play(rate: Callable[[int], float], played: list[int] | None = None
              ) -> Callable[[int, Sequence[int]], list[GameRow]]:
    def play(value: int, seeds: Sequence[int]) -> list[GameRow]:
        if played is not None:
            played.extend(seeds)
        return [fake_row(seed, rate(value)) for seed in seeds]
    return play


def judged(rate: Callable[[int], float], settings: Settings
           ) -> Callable[[int, bool], Evidence]:
    play = fake_play(rate)
    return lambda value, settle: evaluate(value, SIDES, settings, play, settle=settle)


def test_the_confidence_sequence_holds_an_even_rate_at_every_look() -> None:
    # 400 even games looked at after every 25, 500 times over: the interval may exclude
    # 50% at some look in at most 5% of the sequences
    rng = random.Random(7)
    wrong = 0
    for _ in range(500):
        wins = 0
        for n in range(1, 401):
            wins += rng.random() < 0.5
            if n % 25 == 0:
                low, high = confidence_sequence(wins, n)
                if not low <= 0.5 <= high:
                    wrong += 1
                    break
    assert wrong <= 25


def test_the_sequence_is_wider_than_a_single_look_and_narrows() -> None:
    assert mixture_radius(100) > 1.96 * 0.5 / 10  # wider than one look's interval
    assert mixture_radius(1000) < mixture_radius(300) < mixture_radius(100)


def test_a_value_far_from_even_stops_after_few_games() -> None:
    settings = Settings(batch=25, max_games=600)
    found = evaluate(1, SIDES, settings, fake_play(lambda v: 0.85))
    assert found.state == "above" and found.games <= 100
    found = evaluate(1, SIDES, settings, fake_play(lambda v: 0.2))
    assert found.state == "below" and found.games <= 100


def test_a_value_near_even_plays_to_the_most_games_allowed() -> None:
    settings = Settings(batch=50, max_games=300)
    found = evaluate(1, SIDES, settings, fake_play(lambda v: 0.52))
    assert found.state == "open" and found.games == 300
    assert found.low < 0.5 < found.high


def test_a_narrow_interval_round_even_is_good_enough() -> None:
    settings = Settings(batch=100, max_games=5000, tolerance=0.05)
    found = evaluate(1, SIDES, settings, fake_play(lambda v: 0.5))
    assert found.state == "even" and found.games < 5000
    assert found.low >= 0.45 and found.high <= 0.55


def test_draws_are_left_out_of_a_values_share() -> None:
    rows = [fake_row(seed, 0.5, draws=0.3) for seed in range(200)]
    first, second, draws = first_side_wins(SIDES, rows)
    assert draws > 0 and first + second + draws == 200


def test_the_search_finds_the_value_nearest_even() -> None:
    # the first side's chance rises with the knob: 45.5% at 7, 60.3% at 8
    rate = logistic(7.3, 0.6)
    settings = Settings(batch=50, max_games=800)
    search = bisect(range(0, 21), judged(rate, settings))
    assert search.crossing
    assert search.best.value == 7
    assert len(search.tried) <= 2 + 5  # both ends, then halving 21 values
    ends = {e.value: e for e in search.tried}
    assert ends[0].state == "below" and ends[20].state == "above"
    assert ends[0].games <= 100 and ends[20].games <= 100  # far from even: stopped early
    # the two it ended between were played to the end, on the same seeds
    assert ends[7].games == ends[8].games == 800


def test_the_search_follows_a_falling_trend_too() -> None:
    rate = logistic(12.3, -1.0)  # falls: 57.4% at 12, 33.2% at 13: nearest 12
    search = bisect(range(3, 31), judged(rate, Settings(batch=50, max_games=800)))
    assert search.best.value == 12


def test_a_range_that_does_not_reach_even_gives_its_nearer_end() -> None:
    rate = logistic(40, 0.3)  # under 50% all the way to 20
    search = bisect(range(0, 21), judged(rate, Settings()))
    assert not search.crossing
    assert [e.value for e in search.tried] == [0, 20]
    assert search.best.value == 20 and search.best.games == 600  # settled


# -- a tune on disk, with the fake game standing in for the lab's ---------------------------


def turns_rate(scenario: Scenario) -> float:
    """The fake game's first-side chance from the scenario's turn limit: even at 12."""
    return logistic(12.2, 0.7)(scenario.scenario.turns)


class FakeGames:
    """Plays the fake game of a scenario; stops (as Ctrl-C would) after `stop_after`."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.played: list[tuple[int, int]] = []
        self.stop_after = stop_after

    def __call__(self, scenario: Scenario, seeds: Sequence[int]) -> list[GameRow]:
        if self.stop_after is not None and len(self.played) >= self.stop_after:
            raise KeyboardInterrupt
        self.played += [(scenario.scenario.turns, s) for s in seeds]
        return [fake_row(seed, turns_rate(scenario)) for seed in seeds]


@pytest.fixture(scope="module")
def corner_shop() -> Scenario:
    return load_scenario("corner-shop")


def plan_of(scenario: Scenario, knob: str) -> Plan:
    seats = dict.fromkeys(scenario.side_names, "normal")
    return Plan(scenario.raw, knob, seats, Settings(batch=50, max_games=400), "code")


def test_a_tune_keeps_each_values_games_as_a_lab_run(corner_shop: Scenario,
                                                     tmp_path: Path) -> None:
    knob = parse_knob(corner_shop, "turns=6..16")
    games = FakeGames()
    search = run_tune(tmp_path, corner_shop, knob, plan_of(corner_shop, knob.text), games)
    assert search.best.value == 12
    for found in search.tried:
        folder = value_folder(tmp_path, found.value)
        info = read_info(folder)
        assert info.scenario["scenario"]["turns"] == found.value
        assert info.overrides == [f"--knob turns={found.value}"]
        assert len(list(read_rows(folder))) == found.games == info.games  # not "stopped"
    assert len(games.played) == sum(e.games for e in search.tried)
    assert (tmp_path / "result.json").exists()


def test_a_stopped_tune_goes_on_to_the_same_answer(corner_shop: Scenario,
                                                   tmp_path: Path) -> None:
    knob = parse_knob(corner_shop, "turns=6..16")
    plan = plan_of(corner_shop, knob.text)
    whole = run_tune(tmp_path / "whole", corner_shop, knob, plan, FakeGames())
    stopped = FakeGames(stop_after=300)
    with pytest.raises(KeyboardInterrupt):
        run_tune(tmp_path / "parts", corner_shop, knob, plan, stopped)
    rest = FakeGames()
    again = run_tune(tmp_path / "parts", corner_shop, knob, plan, rest)
    assert again.tried == whole.tried
    assert len(stopped.played) + len(rest.played) == sum(e.games for e in whole.tried)
    # a third time, nothing is left to play
    idle = FakeGames()
    assert run_tune(tmp_path / "parts", corner_shop, knob, plan, idle).tried == whole.tried
    assert idle.played == []


def test_a_folder_of_another_tune_is_refused(corner_shop: Scenario, tmp_path: Path) -> None:
    knob = parse_knob(corner_shop, "turns=6..16")
    run_tune(tmp_path, corner_shop, knob, plan_of(corner_shop, knob.text), FakeGames())
    other = parse_knob(corner_shop, "turns=6..15")
    from fibua.core.errors import InputError
    with pytest.raises(InputError, match="another scenario, knob"):
        run_tune(tmp_path, corner_shop, other, plan_of(corner_shop, other.text), FakeGames())


def test_the_value_chosen_is_a_house_rule_the_lab_and_the_lobby_load(
        corner_shop: Scenario, tmp_path: Path) -> None:
    knob = parse_knob(corner_shop, "turns=6..16")
    search = run_tune(tmp_path, corner_shop, knob, plan_of(corner_shop, knob.text),
                      FakeGames())
    overlay, whole = write_house_rule(tmp_path, corner_shop, knob, search, "normal")
    text = overlay.read_text(encoding="utf-8")
    assert text.startswith("# corner-shop tuned: turns = 12 (the file gives 13)")
    assert "turns = 12" in text and "[[map" not in text  # the change alone
    ruled = with_house_rules(corner_shop, overlays=[overlay])
    assert ruled.scenario.turns == 12
    assert ruled.raw == knob.apply(corner_shop.raw, 12)
    tuned = scenario_from_text(whole.read_text(encoding="utf-8"), str(whole))
    assert tuned.name == "corner-shop-tuned" and tuned.scenario.turns == 12
    assert {**tuned.raw, "scenario": {}} == {**ruled.raw, "scenario": {}}
    from fibua.server.hub import read_uploaded
    assert read_uploaded(whole.read_text(encoding="utf-8"), whole.name).scenario.turns == 12


def test_the_command_tunes_real_games_and_leaves_its_files(tmp_path: Path) -> None:
    from lab_helpers import lab

    out = tmp_path / "tune"
    result = lab("tune", "corner-shop", "--knob", "turns=1..2", "--max-games", "4",
                 "--batch", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "nearest an even game: turns=" in result.output
    for name in ("tune.json", "result.json", "tune.png", "overlay.toml",
                 "corner-shop-tuned.toml"):
        assert (out / name).exists(), name
    assert (out / "tune.png").read_bytes().startswith(b"\x89PNG")
    ran = lab("run", "corner-shop", "--overlay", str(out / "overlay.toml"), "--games", "1",
              "--out", str(tmp_path / "ruled"))
    assert ran.exit_code == 0, ran.output
    assert read_info(tmp_path / "ruled").scenario["scenario"]["turns"] in (1, 2)
    # the same command again plays nothing more and chooses the same
    again = lab("tune", "corner-shop", "--knob", "turns=1..2", "--max-games", "4",
                "--batch", "2", "--out", str(out))
    assert again.exit_code == 0, again.output
    assert again.output.splitlines()[-4:] == result.output.splitlines()[-4:]
