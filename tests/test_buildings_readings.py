"""Readings of the buildings chapter that players may want the other way: each option
plays the seed's words where the default follows rulings.md (docs/rules/buildings.md,
Readings)."""

from __future__ import annotations

import pytest

from bld_helpers import game, line, put
from fibua.rulesets.buildings.actions import assault_distance
from fibua.rulesets.buildings.assault import surprise


@pytest.mark.parametrize("walls", [False, True])
def test_an_enemy_near_the_walls_but_far_from_the_way_out(walls: bool) -> None:
    # The seed: an enemy outside "more than 6in away from the building itself" may fire at
    # a unit leaping out of it to assault. Rulings measure at the exit opening instead;
    # option leap_out_from_walls measures to the building's walls, as the seed says.
    g = game([], options={"leap_out_from_walls": True} if walls else {})
    put(g, "smgs", section="brick", floor=0)
    put(g, "mg", line(21.5, 21, 3))  # 5.2in from the brick house's north-east corner
    gap = assault_distance(g.state, g.state.units["smgs"], g.state.units["mg"])
    if walls:
        assert gap == pytest.approx((1.5 ** 2 + 5 ** 2) ** 0.5, abs=0.01)
        assert surprise(gap)  # within 6in of the building: no reaction fire
    else:
        assert gap > 6 and not surprise(gap)  # over 6in from every ground-floor way out
