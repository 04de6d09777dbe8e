"""Who sees whom, sight and the body model in one compiled call, is the geometry's answer
pair by pair, to the last bit, on the bundled maps."""

from __future__ import annotations

import random

import pytest

from fibua.rulesets.house_clearing.estimates import mutual_sight
from fibua.rulesets.house_clearing.tables import Stance
from hc_helpers import map_geometry, random_places

MAPS = ("ramp-houses", "oosterbeek-crossroads")


@pytest.mark.parametrize("name", MAPS)
def test_who_sees_whom_in_one_call_is_the_geometrys(name: str) -> None:
    geometry = map_geometry(name)
    rng = random.Random(13)
    a = random_places(geometry, 30, 5)
    b = random_places(geometry, 40, 8)
    stances = list(Stance)
    a_stances = [rng.choice(stances) for _ in a]
    b_stances = [rng.choice(stances) for _ in b]
    of_b, of_a = mutual_sight(geometry, geometry.sight, a, a_stances, b, b_stances)
    pairs = 0
    for i, (p, ps) in enumerate(zip(a, a_stances, strict=True)):
        for j, (q, qs) in enumerate(zip(b, b_stances, strict=True)):
            expected = geometry.mutual(p, ps, q, qs)
            assert (int(of_b[i, j]), int(of_a[i, j])) == expected, (p, q)
            pairs += expected != (0, 0)
    assert pairs > 20  # pairs that see each other are tried, and pairs that do not
    assert pairs < len(a) * len(b)
    empty_b, _ = mutual_sight(geometry, geometry.sight, a, a_stances, [], [])
    assert empty_b.shape == (len(a), 0)
