"""`fibua lab compare`: two runs of a scenario (two variants, or two seatings) side by side.

On the seeds both runs played the games are paired (exact McNemar test, Newcombe's paired
interval); runs with no seed in common are compared as independent samples (two-proportion
z-test, Newcombe's interval). See `fibua.lab.stats` for why.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import mean

from fibua.core.errors import InputError, Problem
from fibua.lab.records import GameRow
from fibua.lab.report import Run, check_alike
from fibua.lab.stats import (
    Difference,
    games_needed_paired,
    games_needed_unpaired,
    paired_difference,
    unpaired_difference,
)


@dataclass(frozen=True)
class SideComparison:
    side: str
    difference: Difference
    #: games (seeds, when paired) the test needs to find a difference of the size asked
    games_needed: int
    mean_turns: tuple[float, float]
    mean_losses: tuple[float, float]


@dataclass(frozen=True)
class Comparison:
    paired: bool
    seeds_in_common: int
    sides: list[SideComparison]


def compare_runs(first: Run, second: Run, wanted: float = 0.05) -> Comparison:
    """Each side's win rate in the first run against the second; `wanted` is the size of
    difference the sample-size estimate is for."""
    check_alike(first, second)
    if not 0 < wanted < 1:
        raise InputError([Problem("--difference", "", "a difference between 0 and 1, e.g. "
                                                      "0.05 for 5 points")])
    by_seed = {row.seed: row for row in second.rows}
    common = [(row, by_seed[row.seed]) for row in first.rows if row.seed in by_seed]
    sides = []
    for side in first.sides:
        if common:
            found = paired_difference([a.winner == side for a, _ in common],
                                      [b.winner == side for _, b in common])
            discordant = sum(1 for a, b in common
                             if (a.winner == side) != (b.winner == side)) / len(common)
            needed = games_needed_paired(wanted, discordant)
            rows_a, rows_b = [a for a, _ in common], [b for _, b in common]
        else:
            rows_a, rows_b = first.rows, second.rows
            won_a = sum(1 for r in rows_a if r.winner == side)
            won_b = sum(1 for r in rows_b if r.winner == side)
            found = unpaired_difference(won_a, len(rows_a), won_b, len(rows_b))
            base = found.first
            target = base + wanted if base + wanted <= 1 else base - wanted
            needed = games_needed_unpaired(base, target)
        sides.append(SideComparison(side, found, needed, (_turns(rows_a), _turns(rows_b)),
                                    (_losses(rows_a, side), _losses(rows_b, side))))
    return Comparison(bool(common), len(common), sides)


def _turns(rows: list[GameRow]) -> float:
    return mean(r.turns for r in rows)


def _losses(rows: list[GameRow], side: str) -> float:
    return mean(r.casualties.get(side, 0) for r in rows)
