"""The balance verdict: each side's share of the decided games, the exact binomial test
against an even game (draws go to nobody), the verdict in words, and a warning when runs
played by different players favour different sides."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from fibua.lab.balance import Balance, balance_of, disagreement, p_text, yardstick
from fibua.lab.records import GameRow
from fibua.lab.stats import binomial_even

SIDES = ("british", "germans")


def rows(british: int, germans: int, draws: int) -> list[GameRow]:
    """Hand-made games: so many won by each side, so many drawn."""
    winners = ["british"] * british + ["germans"] * germans + [None] * draws
    return [GameRow(seed=i, winner=w, reason="turn limit", turns=1, orders=1, rolls=0,
                    players=dict.fromkeys(SIDES, "normal"), scores={}, casualties={})
            for i, w in enumerate(winners)]


def as_likely_or_less(k: int, n: int) -> Fraction:
    """The two-sided exact p-value summed the other way: every count no likelier than the
    one seen, under an even chance (R's binom.test)."""
    seen = comb(n, k)
    return sum((Fraction(comb(n, j), 2**n) for j in range(n + 1) if comb(n, j) <= seen),
               Fraction(0))


@pytest.mark.parametrize(("k", "n"), [(9, 10), (1, 10), (5, 10), (60, 100), (171, 200),
                                      (0, 7), (104, 200)])
def test_the_exact_test_sums_every_count_as_far_from_even(k: int, n: int) -> None:
    assert binomial_even(k, n) == pytest.approx(float(min(Fraction(1),
                                                          as_likely_or_less(k, n))))


def test_nine_wins_in_ten_has_the_textbook_p_value() -> None:
    # P(X <= 1) + P(X >= 9) for X ~ Bin(10, 1/2): (1 + 10 + 10 + 1) / 1024
    assert binomial_even(9, 10) == 22 / 1024


def test_a_lopsided_run_favours_the_side_that_wins_most() -> None:
    balance = balance_of(SIDES, rows(29, 171, 0))
    assert balance is not None
    assert balance.favoured == "germans"
    assert balance.share(1) == pytest.approx(0.855)
    assert balance.words() == "favours the Germans by 36 points, p < 0.001"


def test_draws_are_left_out_of_the_test() -> None:
    # 30 won by each side and 140 drawn: even, however many draws
    with_draws = balance_of(SIDES, rows(30, 30, 140))
    assert with_draws is not None
    assert with_draws.p_value == 1.0 and with_draws.favoured is None
    # 40 to 20 is a British game whether or not 100 more were drawn
    plain, drawn = balance_of(SIDES, rows(40, 20, 0)), balance_of(SIDES, rows(40, 20, 100))
    assert plain is not None and drawn is not None
    assert drawn.p_value == plain.p_value == binomial_even(40, 60)
    assert drawn.favoured == "british" and drawn.draws == 100 and drawn.games == 160
    assert drawn.words().startswith("favours the British by 17 points, p = 0.013")


def test_a_close_run_is_even_for_want_of_evidence() -> None:
    balance = balance_of(SIDES, rows(52, 48, 3))
    assert balance is not None
    assert balance.favoured is None
    assert balance.words() == f"even: no evidence either way ({p_text(binomial_even(52, 100))})"
    assert balance.words() == "even: no evidence either way (p = 0.76)"


def test_just_under_the_five_percent_level_is_a_verdict() -> None:
    # 61 of 100: p = 0.035; 60 of 100: p = 0.057
    assert Balance(SIDES, (61, 39), 0).favoured == "british"
    assert Balance(SIDES, (60, 40), 0).favoured is None


def test_nothing_decided_is_nothing_to_judge() -> None:
    balance = balance_of(SIDES, rows(0, 0, 4))
    assert balance is not None and balance.favoured is None
    assert "nothing to judge" in balance.words()


def test_a_scenario_of_three_sides_gets_no_verdict() -> None:
    assert balance_of(("a", "b", "c"), rows(3, 4, 0)) is None


def test_verdicts_that_favour_different_sides_are_warned_of() -> None:
    computer = Balance(SIDES, (184, 16), 0)
    doctrine = Balance(SIDES, (12, 188), 0)
    even = Balance(SIDES, (50, 50), 0)
    warning = disagreement([("normal v normal", computer), ("doctrine v doctrine", doctrine),
                            ("easy v easy", even)])
    assert warning is not None
    assert "normal v normal favours the British" in warning
    assert "doctrine v doctrine favours the Germans" in warning
    # one favoured and one even, or two favouring the same side, do not disagree
    assert disagreement([("normal v normal", computer), ("easy v easy", even)]) is None
    assert disagreement([("a", computer), ("b", Balance(SIDES, (150, 50), 0))]) is None


def test_the_yardstick_names_the_players() -> None:
    assert yardstick({"british": "normal", "germans": "normal"}) == "normal v normal"
    assert yardstick({"british": "doctrine", "germans": "normal"}) == \
        "british: doctrine, germans: normal"
