"""Buildings movement and geometry, and close quarters with forced dice."""

from __future__ import annotations

import pytest

from fibua.core.dice import ForcedDice
from fibua.rulesets.buildings.assault import (
    RoundResult,
    casualties,
    round_result,
    strike,
    strike_vehicle,
    surprise,
)
from fibua.rulesets.buildings.movement import (
    allowance,
    coherent,
    facing_of,
    most_firers,
    plunging,
)
from fibua.rulesets.buildings.shooting import Target
from fibua.rulesets.buildings.tables import (
    Facing,
    Mobility,
    OrderKind,
    Quality,
    VehicleKind,
    WeaponName,
)


def dice(*faces: int) -> ForcedDice:
    return ForcedDice(seed=0, faces=list(faces))


def test_allowances() -> None:
    assert allowance(Mobility.FOOT, OrderKind.RUN) == 12
    assert allowance(Mobility.FOOT, OrderKind.RUN, rubble=True) == 6
    assert allowance(Mobility.TRACKED, OrderKind.RUN, rubble=True) == 9
    assert allowance(Mobility.WHEELED, OrderKind.ADVANCE, rubble=True) is None
    assert allowance(Mobility.MANHANDLED, OrderKind.RUN) is None
    assert allowance(Mobility.MANHANDLED, OrderKind.ADVANCE) == 6
    assert allowance(Mobility.FOOT, OrderKind.FIRE) == 0


def test_coherency() -> None:
    assert coherent([(0, 0)], 2)
    assert coherent([(0, 0), (2, 0), (4, 0)], 2)
    assert not coherent([(0, 0), (2, 0), (4.1, 0)], 2)


@pytest.mark.parametrize(("firer", "facing"), [
    ((10, 0), Facing.FRONT), ((10, 9.9), Facing.FRONT), ((10, 10), Facing.FRONT),
    ((0, 10), Facing.SIDE), ((-10, 10), Facing.SIDE), ((-10, 9.9), Facing.REAR),
    ((-10, 0), Facing.REAR), ((0, -10), Facing.SIDE),
])
def test_facing_between_diagonals(firer: tuple[float, float], facing: Facing) -> None:
    assert facing_of((0, 0), 0.0, firer) is facing


def test_facing_turns_with_the_vehicle_and_its_shape() -> None:
    assert facing_of((0, 0), 90.0, (0, 10)) is Facing.FRONT
    # a long hull: its diagonals lie nearer the length, so the sides are wider
    assert facing_of((0, 0), 0.0, (10, 8), length=2.0, width=1.0) is Facing.SIDE


def test_plunging_fire_and_firers() -> None:
    assert plunging(WeaponName.PIAT, 1, 12, armoured=True)
    assert not plunging(WeaponName.PIAT, 0, 5, armoured=True)
    assert not plunging(WeaponName.HMG, 2, 5, armoured=True)  # small arms never plunge
    assert not plunging(WeaponName.BAZOOKA, 1, 12.5, armoured=True)
    assert most_firers(2) == 4 and most_firers(0, roof=True) == 5


def test_close_quarters_ignore_extra_protection() -> None:
    rolls = strike(dice(5, 4, 3), 3, Target(Quality.VETERAN, inside=True))
    assert [r.need for r in rolls] == [5, 5, 5] and casualties(rolls) == 1


def test_round_results_and_surprise() -> None:
    assert round_result(3, 1) is RoundResult.ATTACKER_WINS
    assert round_result(1, 2) is RoundResult.DEFENDER_WINS
    assert round_result(2, 2) is RoundResult.ANOTHER_ROUND
    assert surprise(6) and not surprise(6.1)


def test_assault_on_a_vehicle() -> None:
    # a 6 to hit, then D6 + 2 + 1 (side) against a medium tank's 9: a 6 needed
    attacks = strike_vehicle(dice(6, 6, 5, 6, 5), 3, VehicleKind.MEDIUM_TANK)
    assert [a.hit.success for a in attacks] == [True, False, True]
    assert attacks[0].damage is not None and attacks[0].damage.success
    assert attacks[1].damage is None
    assert attacks[2].damage is not None and not attacks[2].damage.success
