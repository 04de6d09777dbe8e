"""The House-Clearing speed-ups keep every answer: the stance read from a dict is the
Enum's."""

import pytest

from fibua.core.errors import IllegalOrder
from fibua.rulesets.house_clearing.movement import parse_stance
from fibua.rulesets.house_clearing.tables import Stance


def test_a_stance_by_name_or_member_is_the_enum_s() -> None:
    for stance in Stance:
        assert parse_stance(stance.value, Stance.STANDING) is Stance(stance.value)
        assert parse_stance(stance, Stance.STANDING) is stance
    assert parse_stance(None, Stance.CROUCHING) is Stance.CROUCHING


@pytest.mark.parametrize("value", ["sitting", "", 3, ["standing"], {"stance": "prone"}])
def test_anything_else_is_refused_as_before(value: object) -> None:
    with pytest.raises(IllegalOrder) as refused:
        parse_stance(value, Stance.STANDING)
    assert refused.value.code == "bad-parameter"

