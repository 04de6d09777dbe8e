"""Who sees whom, sight and the body model in one compiled call, is the geometry's answer
pair by pair, to the last bit, on the bundled maps."""

from __future__ import annotations

import pytest

from fibua.rulesets.house_clearing.estimates import mutual_sight
from hc_helpers import facing_crowds, map_geometry, seeing_pairs

MAPS = ("ramp-houses", "oosterbeek-crossroads")


@pytest.mark.parametrize("name", MAPS)
def test_who_sees_whom_in_one_call_is_the_geometrys(name: str) -> None:
    geometry = map_geometry(name)
    crowds = facing_crowds(geometry, (30, 5), (40, 8), 13)
    a, a_stances, b, b_stances = crowds
    of_b, of_a = mutual_sight(geometry, geometry.sight, a, a_stances, b, b_stances)
    pairs = seeing_pairs(of_b, of_a, crowds, lambda i, j: geometry.mutual(
        a[i], a_stances[i], b[j], b_stances[j]))
    assert pairs > 20  # pairs that see each other are tried, and pairs that do not
    assert pairs < len(a) * len(b)
    empty_b, _ = mutual_sight(geometry, geometry.sight, a, a_stances, [], [])
    assert empty_b.shape == (len(a), 0)
