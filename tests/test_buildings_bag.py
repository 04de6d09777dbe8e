"""The Buildings order-dice bag: draws empty it die by die, each side's dice are drawn as
many times as it put in, and the same seed draws the same dice."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fibua.core.dice import ForcedDice, Rng
from fibua.rulesets.buildings.bag import Bag, EmptyBag, new_bag

SIDES = st.dictionaries(st.sampled_from(["axis", "allies", "neutral"]),
                        st.integers(min_value=0, max_value=12), min_size=1)


def draw_all(bag: Bag, rng: Rng) -> list[str]:
    drawn = []
    while not bag.empty:
        draw, bag = bag.draw(rng)
        drawn.append(draw.side)
    return drawn


@given(counts=SIDES, seed=st.integers(min_value=0, max_value=2**64))
def test_the_bag_empties_in_as_many_draws_as_dice(counts: dict[str, int], seed: int) -> None:
    drawn = draw_all(Bag.of(counts), Rng(seed))
    assert len(drawn) == sum(counts.values())
    assert {side: drawn.count(side) for side in counts} == counts


@given(counts=SIDES, seed=st.integers(min_value=0, max_value=2**64))
def test_same_seed_same_draws(counts: dict[str, int], seed: int) -> None:
    assert draw_all(Bag.of(counts), Rng(seed)) == draw_all(Bag.of(counts), Rng(seed))


@given(counts=SIDES, kept=st.integers(min_value=0, max_value=12),
       seed=st.integers(min_value=0, max_value=2**64))
def test_kept_dice_stay_out_and_losses_take_one_out(counts: dict[str, int], kept: int,
                                                    seed: int) -> None:
    side = sorted(counts)[0]
    keep = min(kept, counts[side])
    bag = new_bag(counts, {side: keep})
    assert bag.count(side) == counts[side] - keep
    if bag.count(side):
        bag = bag.without(side)  # a unit destroyed before its order
    drawn = draw_all(bag, Rng(seed))
    assert drawn.count(side) == max(0, counts[side] - keep - 1)
    assert len(drawn) == sum(counts.values()) - keep - (1 if counts[side] - keep else 0)


def test_a_draw_is_a_recorded_roll() -> None:
    bag = Bag.of({"allies": 2, "axis": 3})
    draw, rest = bag.draw(ForcedDice(seed=0, faces=[3]))
    assert draw.side == "axis"  # allies hold faces 1-2, axis 3-5
    assert (draw.roll.purpose, draw.roll.dice, draw.roll.faces) == ("order die", "d5", (3,))
    assert rest.count("axis") == 2 and rest.total == 4
    first, _ = bag.draw(ForcedDice(seed=0, faces=[2]))
    assert first.side == "allies"


def test_the_last_die_needs_no_roll() -> None:
    draw, rest = Bag.of({"axis": 1, "allies": 0}).draw(ForcedDice(seed=0, faces=[]))
    assert draw.side == "axis" and rest.empty


def test_refusals() -> None:
    with pytest.raises(EmptyBag):
        Bag.of({"axis": 0}).draw(Rng(1))
    with pytest.raises(EmptyBag):
        Bag.of({"axis": 0, "allies": 1}).without("axis")
    with pytest.raises(ValueError, match="more dice"):
        new_bag({"axis": 1}, {"axis": 2})
    with pytest.raises(ValueError, match="no units"):
        new_bag({"axis": 1}, {"allies": 1})
