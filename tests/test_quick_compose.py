"""Forces of exactly so many points (fibua.quick.compose): every draw adds up to the
target with a number of picks in range and no item beyond its limit; every set of picks
that makes the target can come; a target no picks make is refused."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fibua.quick.compose import Item, common_target, draw, totals

RIFLE = Item("rifle", "Rifle", 16, 8)
LMG = Item("lmg", "LMG", 43, 2)
PISTOL = Item("pistol", "Pistol", 14, 2)
ITEMS = (RIFLE, LMG, PISTOL)


def test_draws_add_up_exactly_within_limits() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        target = rng.choice(sorted(totals(ITEMS, 200, (3, 9))))
        picks = draw(rng, ITEMS, target, (3, 9))
        counts = Counter(picks)
        assert sum(item.points for item in picks) == target
        assert 3 <= len(picks) <= 9
        assert all(counts[item] <= item.most for item in ITEMS)


def test_every_set_that_makes_the_target_can_come() -> None:
    items = (Item("a", "A", 10, 6), Item("b", "B", 30, 2), Item("c", "C", 5, 3))
    # the sets of picks that make 60, found by brute force: the draws must come to all
    sets = {(a, b, c) for a in range(7) for b in range(3) for c in range(4)
            if 10 * a + 30 * b + 5 * c == 60 and 2 <= a + b + c <= 8}
    assert len(sets) > 3
    seen = set()
    for seed in range(300):
        counts = Counter(item.key for item in draw(random.Random(seed), items, 60, (2, 8)))
        seen.add((counts["a"], counts["b"], counts["c"]))
    assert seen == sets


def test_a_target_no_picks_make_is_refused() -> None:
    with pytest.raises(ValueError):
        draw(random.Random(1), ITEMS, 15, (1, 9))
    with pytest.raises(ValueError):
        draw(random.Random(1), ITEMS, 16, (2, 9))  # one rifle makes it, but two picks at least


def test_the_common_target_is_one_both_lists_make() -> None:
    other = (Item("rifle", "Rifle", 16, 8), Item("smg", "SMG", 19, 3))
    for seed in range(20):
        target = common_target(random.Random(seed), [ITEMS, other], 150, (3, 9))
        assert target <= 150
        assert target in totals(ITEMS, 150, (3, 9)) and target in totals(other, 150, (3, 9))
