"""The statistics of the lab's reports and comparisons, from the standard library.

Win rates carry Wilson score intervals (good down to a handful of games and near 0 or 1,
where the textbook Wald interval fails). Two runs on the same seeds are paired: a seed's
game under one variant and under the other start from the same dice, so they are compared
game by game, with the exact McNemar test (a binomial test on the games only one variant
won: exact at any count, where the chi-squared form needs many) and Newcombe's score
interval for a difference of paired proportions. Runs on different seeds are compared with
the pooled two-proportion z-test and Newcombe's hybrid score interval for independent
proportions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, comb, log, sqrt
from statistics import NormalDist

STANDARD_NORMAL = NormalDist()


def z_for(confidence: float) -> float:
    """The two-sided critical value (1.96 for 95%)."""
    return STANDARD_NORMAL.inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when there is nothing to go on."""
    if n == 0:
        return (0.0, 1.0)
    z = z_for(confidence)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Difference:
    """A difference of two win rates (first minus second), its interval and p-value, and
    which test gave them."""

    first: float
    second: float
    low: float
    high: float
    p_value: float
    test: str
    games: int

    @property
    def difference(self) -> float:
        return self.first - self.second


def newcombe_unpaired(x1: int, n1: int, x2: int, n2: int,
                      confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) for p1 - p2, independent samples."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, confidence)
    l2, u2 = wilson(x2, n2, confidence)
    d = p1 - p2
    return (d - sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (1 when it cannot tell)."""
    pooled = (x1 + x2) / (n1 + n2)
    se = sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (x1 / n1 - x2 / n2) / se
    return 2 * (1 - STANDARD_NORMAL.cdf(abs(z)))


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value: b and c are the games only the first, only the
    second variant won; under no difference each such game goes either way at even odds."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(comb(n, k) for k in range(min(b, c) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


def newcombe_paired(both: int, first_only: int, second_only: int, neither: int,
                    confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's score interval (his method 10 for paired data) for p1 - p2, where p1 =
    (both + first_only) / n and p2 = (both + second_only) / n."""
    a, b, c, d = both, first_only, second_only, neither
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, confidence)
    l2, u2 = wilson(a + c, n, confidence)
    spread = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / sqrt(spread) if spread > 0 else 0.0
    dl1, du1, dl2, du2 = p1 - l1, u1 - p1, p2 - l2, u2 - p2
    below = sqrt(max(0.0, dl1 ** 2 - 2 * phi * dl1 * du2 + du2 ** 2))
    above = sqrt(max(0.0, du1 ** 2 - 2 * phi * du1 * dl2 + dl2 ** 2))
    return (max(-1.0, p1 - p2 - below), min(1.0, p1 - p2 + above))


def paired_difference(first: list[bool], second: list[bool],
                      confidence: float = 0.95) -> Difference:
    """Game by game over the same seeds: did the side win under each variant."""
    pairs = list(zip(first, second, strict=True))
    both = sum(1 for f, s in pairs if f and s)
    first_only = sum(1 for f, s in pairs if f and not s)
    second_only = sum(1 for f, s in pairs if s and not f)
    neither = len(pairs) - both - first_only - second_only
    low, high = newcombe_paired(both, first_only, second_only, neither, confidence)
    n = len(pairs)
    return Difference((both + first_only) / n, (both + second_only) / n, low, high,
                      mcnemar_exact(first_only, second_only), "exact McNemar (paired seeds)",
                      n)


def unpaired_difference(x1: int, n1: int, x2: int, n2: int,
                        confidence: float = 0.95) -> Difference:
    low, high = newcombe_unpaired(x1, n1, x2, n2, confidence)
    return Difference(x1 / n1, x2 / n2, low, high, two_proportion_z(x1, n1, x2, n2),
                      "two-proportion z-test (different seeds)", min(n1, n2))


def games_needed_unpaired(p1: float, p2: float, alpha: float = 0.05,
                          power: float = 0.8) -> int:
    """Games per variant for a two-sided two-proportion test at `alpha` to find the
    difference between p1 and p2 with the given power (Fleiss, no continuity correction)."""
    if p1 == p2:
        raise ValueError("no difference to find")
    za, zb = z_for(1 - alpha), STANDARD_NORMAL.inv_cdf(power)
    mean = (p1 + p2) / 2
    top = za * sqrt(2 * mean * (1 - mean)) + zb * sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return ceil(top ** 2 / (p1 - p2) ** 2)


def games_needed_paired(difference: float, discordant: float, alpha: float = 0.05,
                        power: float = 0.8) -> int:
    """Seeds for the paired (McNemar) test to find a difference in win rate, given the
    share of seeds whose games the variants decide differently (Connor's formula)."""
    if difference == 0:
        raise ValueError("no difference to find")
    share = max(discordant, abs(difference))  # at least every changed game is discordant
    za, zb = z_for(1 - alpha), STANDARD_NORMAL.inv_cdf(power)
    top = za * sqrt(share) + zb * sqrt(share - difference ** 2)
    return ceil(top ** 2 / difference ** 2)


def binomial_even(successes: int, n: int) -> float:
    """Two-sided exact binomial p-value of `successes` in `n` trials against an even
    chance (each trial either way at 1/2): the chance of a count at least as far from
    n/2, summed exactly. 1 when there is nothing to go on."""
    return mcnemar_exact(successes, n - successes)  # the same test: games one way or other


def mixture_radius(n: int, alpha: float = 0.05, tight_at: int = 300) -> float:
    """Half-width of a confidence sequence for a proportion after n trials (Robbins's
    normal mixture over a sub-Gaussian sum, variance proxy 1/4 a trial for any outcome in
    [0, 1]): with chance at least 1 - alpha the interval holds the true rate at every n at
    once, so it may be looked at after every batch and a search may stop as soon as it
    says enough. The mixture's width is set to be tightest near `tight_at` trials."""
    if n == 0:
        return float("inf")
    spread = n / 4
    rho = (tight_at / 4) / (2 * log(1 / alpha) + log(1 + 2 * log(1 / alpha)))
    return sqrt(2 * (spread + rho) * log(sqrt((spread + rho) / rho) / alpha)) / n


def confidence_sequence(successes: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The anytime-valid interval for a proportion after n trials (`mixture_radius`)."""
    if n == 0:
        return (0.0, 1.0)
    radius = mixture_radius(n, alpha)
    share = successes / n
    return (max(0.0, share - radius), min(1.0, share + radius))
