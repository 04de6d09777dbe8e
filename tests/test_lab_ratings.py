"""The ladder's Bradley-Terry fit: it finds ratings that made synthetic games, its
bootstrap intervals hold the truth about as often as they say, and its goodness of fit
and chi-squared tail are right."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fibua.lab.ratings import (
    ELO,
    Cell,
    Record,
    by_side_design,
    chi2_sf,
    connected,
    deviance,
    fit,
    overall_design,
)

PLAYERS = ("a", "b", "c", "d")
#: the true ratings (Elo) and the first side's advantage, as a ladder would find them
TRUE = {"a": 0.0, "b": 200.0, "c": -150.0, "d": 400.0}
ADVANTAGE = 100.0
DRAWS = 0.1


def chance(first: float, second: float, advantage: float) -> float:
    return 1 / (1 + 10 ** (-(first - second + advantage) / 400))


def synthetic(rng: np.random.Generator, games: int, truth: dict[str, float] = TRUE,
              advantage: float = ADVANTAGE, scenario: str = "s") -> list[Cell]:
    """Games of every ordered pairing drawn from the model, some of them drawn: a draw
    takes as much from the wins as from the losses, so the mean score is the model's."""
    cells = []
    for first in truth:
        for second in truth:
            if first == second:
                continue
            p = chance(truth[first], truth[second], advantage)
            drawn = DRAWS * 2 * min(p, 1 - p)
            u = rng.random(games)
            scores = tuple(1.0 if x < p - drawn / 2 else 0.5 if x < p + drawn / 2 else 0.0
                           for x in u)
            cells.append(Cell(scenario, first, second, scores))
    return cells


def test_the_fit_recovers_known_ratings_within_its_intervals() -> None:
    cells = synthetic(np.random.default_rng(7), 60)
    found = fit(overall_design(cells, PLAYERS, ["s"], "a"), cells, resamples=400)
    by_name = {r.name: r for r in found.ratings}
    for player, truth in TRUE.items():
        r = by_name[player]
        assert r.low <= truth <= r.high, (player, r)
        assert abs(r.elo - truth) < 80
    side = by_name["s: first side's advantage"]
    assert side.low <= ADVANTAGE <= side.high
    assert by_name["a"].elo == 0.0  # the anchor


def test_ratings_by_side_recover_each_players_two_ratings() -> None:
    # rated per side, a player's rating as the first side is its rating plus half the
    # advantage, as the second side less half: the anchor's two average 0
    cells = synthetic(np.random.default_rng(11), 80)
    found = fit(by_side_design(cells, PLAYERS, ("x", "y"), "a"), cells, resamples=400)
    by_name = {r.name: r for r in found.ratings}
    for player, truth in TRUE.items():
        for side, shift in (("x", ADVANTAGE / 2), ("y", -ADVANTAGE / 2)):
            r = by_name[f"{player} as {side}"]
            assert r.low <= truth + shift <= r.high, (player, side, r)


def test_bootstrap_intervals_cover_the_truth_about_as_often_as_they_say() -> None:
    rng = np.random.default_rng(2024)
    trials, held = 60, 0
    for _ in range(trials):
        cells = synthetic(rng, 20)
        found = fit(overall_design(cells, PLAYERS, ["s"], "a"), cells, resamples=200,
                    seed=int(rng.integers(1 << 31)))
        b = next(r for r in found.ratings if r.name == "b")
        held += b.low <= TRUE["b"] <= b.high
    # nominal 95%: 60 trials hold it 57 times on average; below 51 would be rare
    assert held / trials >= 0.85, held


def test_intervals_narrow_with_more_games() -> None:
    rng = np.random.default_rng(3)
    widths = []
    for games in (10, 160):
        cells = synthetic(rng, games)
        b = next(r for r in fit(overall_design(cells, PLAYERS, ["s"], "a"), cells,
                                resamples=300).ratings if r.name == "b")
        widths.append(b.high - b.low)
    assert widths[1] < widths[0] / 2


def test_a_fit_that_is_the_truth_has_a_small_deviance_and_a_wrong_one_a_large() -> None:
    cells = synthetic(np.random.default_rng(5), 200)
    good = fit(overall_design(cells, PLAYERS, ["s"], "a"), cells, resamples=0)
    assert good.df == len(cells) - (len(PLAYERS) - 1) - 1
    assert good.p_value is not None and good.p_value > 0.01
    # games no rating explains: a beats b as the first side, b beats a as the first side
    # (no single pair of ratings and side advantage does both), and so round the circle
    rigged = [Cell("s", f, s, (1.0,) * 30 if (f, s) in {("a", "b"), ("b", "c"), ("c", "a")}
                   else (0.0,) * 30) for f in PLAYERS[:3] for s in PLAYERS[:3] if f != s]
    bad = fit(overall_design(rigged, PLAYERS[:3], ["s"], "a"), rigged, resamples=0)
    assert bad.p_value is not None and bad.p_value < 1e-6


def test_draws_count_half_a_win_each_way() -> None:
    cells = [Cell("s", "a", "b", (0.5,) * 10), Cell("s", "b", "a", (0.5,) * 10)]
    found = fit(overall_design(cells, ("a", "b"), ["s"], "a"), cells, resamples=0)
    assert [round(r.elo, 6) for r in found.ratings] == [0.0, 0.0, 0.0]


def test_a_player_that_lost_every_game_is_far_below_and_said_so() -> None:
    cells = [Cell("s", "a", "b", (1.0,) * 5), Cell("s", "b", "a", (0.0,) * 5)]
    found = fit(overall_design(cells, ("a", "b"), ["s"], "a"), cells, resamples=50)
    b = found.ratings[1]
    assert b.record is Record.ALL_LOST and found.ratings[0].record is Record.ALL_WON
    assert math.isfinite(b.elo) and b.elo < -400  # the prior keeps it finite


def test_two_players_alone_do_not_tie_their_side_ratings_together() -> None:
    two = [Cell("s", "a", "b", (1.0, 0.0)), Cell("s", "b", "a", (0.5, 0.0))]
    three = [Cell("s", f, s, (1.0, 0.0)) for f in "abc" for s in "abc" if f != s]
    assert not connected(two, ("a", "b"))
    assert connected(three, ("a", "b", "c"))


def test_the_deviance_is_zero_where_the_model_predicts_each_cell_exactly() -> None:
    games = np.array([4.0, 10.0])
    scores = np.array([1.0, 7.5])
    assert deviance(games, scores, scores / games) == pytest.approx(0.0, abs=1e-12)
    assert deviance(games, scores, np.array([0.5, 0.5])) > 0


@pytest.mark.parametrize(("x", "df", "tail"), [
    (3.841459, 1, 0.05), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (9.487729, 4, 0.05),
    (11.0705, 5, 0.05), (18.30704, 10, 0.05), (6.634897, 1, 0.01), (2.0, 2, math.exp(-1)),
])
def test_the_chi_squared_tail_matches_the_tables(x: float, df: int, tail: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(tail, rel=1e-4)


def test_elo_points_are_400_for_odds_of_ten() -> None:
    assert 1 / (1 + math.exp(-400 / ELO)) == pytest.approx(10 / 11)
