"""`hundredths` (battlefield/geometry.py): `round(v, 2)` of many values at once, to the
last bit, which the computer players' candidate places are written in."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from fibua.battlefield.geometry import hundredths

#: values on a gaming table and past it, negative ones too
_VALUES = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False)


def _same_bits(values: list[float]) -> None:
    found = hundredths(np.array(values, dtype=np.float64)).tolist()
    expected = [round(float(v), 2) for v in values]  # Python's, not numpy's
    assert [v.hex() for v in found] == [v.hex() for v in expected]


@given(st.lists(_VALUES, max_size=50))
def test_hundredths_are_round_to_two_places(values: list[float]) -> None:
    _same_bits(values)


@given(st.integers(min_value=-10**6, max_value=10**6))
def test_values_at_a_half_hundredth_go_as_round_sends_them(k: int) -> None:
    # k/100 + 0.005 written as a float lies a hair to one side of the half: only `round`,
    # reading the float exactly, knows which
    half = k / 100 + 0.005
    _same_bits([half, float(np.nextafter(half, np.inf)), float(np.nextafter(half, -np.inf))])


def test_known_halves_and_the_shape_are_kept() -> None:
    values = np.array([[2.675, 1.005, -0.125], [0.0, -0.001, 12.345]])
    found = hundredths(values)
    assert found.shape == values.shape
    assert found.tolist() == [[round(v, 2) for v in row] for row in values.tolist()]
    assert str(found[1, 1]) == "-0.0"  # as round(-0.001, 2)
