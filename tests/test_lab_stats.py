"""The lab's statistics against published values and values worked out by hand."""

from __future__ import annotations

from math import comb

import pytest

from fibua.lab.stats import (
    games_needed_paired,
    games_needed_unpaired,
    mcnemar_exact,
    newcombe_paired,
    newcombe_unpaired,
    paired_difference,
    two_proportion_z,
    wilson,
    z_for,
)


def test_the_critical_value_for_95_percent() -> None:
    assert z_for(0.95) == pytest.approx(1.959964, abs=1e-6)


@pytest.mark.parametrize(("x", "n", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17, 857-872, table II, method 3
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_intervals_match_the_published_ones(x: int, n: int, low: float,
                                                   high: float) -> None:
    assert wilson(x, n) == pytest.approx((low, high), abs=1e-4)


def test_wilson_with_no_games_says_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("x1", "n1", "x2", "n2", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17, 873-890, table II, method 10
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
])
def test_newcombe_unpaired_matches_the_published_intervals(
        x1: int, n1: int, x2: int, n2: int, low: float, high: float) -> None:
    assert newcombe_unpaired(x1, n1, x2, n2) == pytest.approx((low, high), abs=1e-4)


def test_the_two_proportion_z_test_by_hand() -> None:
    # 30/100 against 45/100: pooled 0.375, se = sqrt(0.375 * 0.625 * 0.02), z = -2.1909
    assert two_proportion_z(30, 100, 45, 100) == pytest.approx(0.028459, abs=1e-5)
    assert two_proportion_z(0, 10, 0, 10) == 1.0


def test_exact_mcnemar_is_the_binomial_tail() -> None:
    # 3 games against 11: 2 * P(X <= 3) for X ~ Binomial(14, 1/2)
    expected = 2 * sum(comb(14, k) for k in range(4)) / 2**14
    assert mcnemar_exact(3, 11) == pytest.approx(expected) == pytest.approx(0.057373, abs=1e-6)
    assert mcnemar_exact(11, 3) == mcnemar_exact(3, 11)
    assert mcnemar_exact(5, 5) == 1.0
    assert mcnemar_exact(0, 0) == 1.0


def test_newcombe_paired_without_correlation_is_the_unpaired_interval() -> None:
    # a table with no correlation between the pairs (phi = 0): a*d == b*c
    both, first_only, second_only, neither = 20, 20, 10, 10
    n = both + first_only + second_only + neither
    assert newcombe_paired(both, first_only, second_only, neither) == pytest.approx(
        newcombe_unpaired(both + first_only, n, both + second_only, n))


def test_newcombe_paired_narrows_when_the_pairs_agree() -> None:
    # the same margins, but most seeds decided alike: a tighter interval
    agree = newcombe_paired(35, 5, 0, 20)
    apart = newcombe_paired(20, 20, 15, 5)
    assert agree[1] - agree[0] < apart[1] - apart[0]
    assert agree[0] < 5 / 60 < agree[1]


def test_a_paired_difference_counts_the_games_only_one_variant_won() -> None:
    first = [True] * 8 + [False] * 2 + [True] * 5 + [False] * 5
    second = [True] * 8 + [True] * 2 + [False] * 5 + [False] * 5
    found = paired_difference(first, second)
    assert (found.first, found.second, found.games) == (13 / 20, 10 / 20, 20)
    assert found.p_value == mcnemar_exact(5, 2)
    assert found.low < found.difference < found.high


def test_games_needed_for_independent_runs() -> None:
    # Fleiss' formula without continuity correction: 50% against 60% needs 388 a side
    assert games_needed_unpaired(0.5, 0.6) == 388
    with pytest.raises(ValueError):
        games_needed_unpaired(0.5, 0.5)


def test_games_needed_for_paired_seeds() -> None:
    # Connor (1987): a 10-point difference with 20% of seeds decided differently:
    # (1.96 * sqrt(0.2) + 0.8416 * sqrt(0.19))**2 / 0.01 = 154.6
    assert games_needed_paired(0.1, 0.2) == 155
    # fewer seeds than independent runs need, when the variants agree on most seeds
    assert games_needed_paired(0.1, 0.2) < games_needed_unpaired(0.5, 0.6)
