"""Forces of exactly so many points: a side's picks drawn at random from a price list, so
that their points add up to a target both sides can reach.

`ways` counts, for each total and number of picks, the different sets of picks that make
it (within each item's limit). `draw` goes through the items and takes of each a count
weighted by the sets that can still complete the target from there: every set of picks
that makes the target is equally likely, and the draw never has to back out.
`common_target` picks the total the sides get among those near the budget that both can
make, the more likely the more sets of picks make it (so that the sides vary).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

#: (total, picks) -> the number of sets of picks that make it
Ways = dict[tuple[int, int], int]

#: the target is drawn among the totals of at least this share of the budget
LOWEST_SHARE = 0.85


@dataclass(frozen=True, slots=True)
class Item:
    """Something a side may be given: a weapon for a figure, a unit of the catalogue."""

    key: str
    title: str
    points: int
    most: int  # at most this many a side

    def __post_init__(self) -> None:
        if self.points <= 0:
            raise ValueError(f"{self.key}: an item costs at least one point")


def ways(items: Sequence[Item], ceiling: int, most_picks: int) -> list[Ways]:
    """table[k]: how many sets of picks of items[k:] make each total (up to `ceiling`)
    with each number of picks (up to `most_picks`)."""
    table: list[Ways] = [{} for _ in range(len(items) + 1)]
    table[len(items)] = {(0, 0): 1}
    for k in range(len(items) - 1, -1, -1):
        item = items[k]
        found: Ways = {}
        for (total, count), number in table[k + 1].items():
            for n in range(item.most + 1):
                made, picks = total + n * item.points, count + n
                if made > ceiling or picks > most_picks:
                    break
                found[(made, picks)] = found.get((made, picks), 0) + number
        table[k] = found
    return table


def _completions(table: Ways, total: int, taken: int, picks: tuple[int, int]) -> int:
    """Sets of picks in `table` that make `total` and bring the picks within `picks`."""
    low, high = picks
    return sum(table.get((total, c), 0) for c in range(max(low - taken, 0), high - taken + 1))


def totals(items: Sequence[Item], ceiling: int, picks: tuple[int, int]) -> dict[int, int]:
    """Each total the items make with between picks[0] and picks[1] picks, and in how many
    ways."""
    first = ways(items, ceiling, picks[1])[0]
    out: dict[int, int] = {}
    for total, _ in first:
        out[total] = _completions(first, total, 0, picks)
    return {t: n for t, n in out.items() if n}


def draw(rng: random.Random, items: Sequence[Item], target: int,
         picks: tuple[int, int]) -> list[Item]:
    """Picks from `items` whose points add up to `target` exactly, their number within
    `picks`, every such set alike likely; ValueError if there is none."""
    table = ways(items, target, picks[1])
    if not _completions(table[0], target, 0, picks):
        raise ValueError(f"no picks make {target} points")
    chosen: list[Item] = []
    left = target
    for k, item in enumerate(items):
        weights = [_completions(table[k + 1], left - n * item.points, len(chosen) + n, picks)
                   for n in range(item.most + 1)]
        n = rng.choices(range(item.most + 1), weights=weights)[0]
        chosen += [item] * n
        left -= n * item.points
    return chosen


def common_target(rng: random.Random, lists: Sequence[Sequence[Item]], budget: int,
                  picks: tuple[int, int]) -> int:
    """The points each side's picks come to: a total of at most `budget`, and at least
    LOWEST_SHARE of it where there is one, that every list can make, drawn weighted by
    the fewest ways any list makes it."""
    made = [totals(items, budget, picks) for items in lists]
    common = sorted(set.intersection(*(set(m) for m in made)))
    if not common:
        raise ValueError("the sides' lists have no total in common")
    near = [t for t in common if t >= budget * LOWEST_SHARE] or common[-1:]
    weights = [min(m[t] for m in made) for t in near]
    return rng.choices(near, weights=weights)[0]
