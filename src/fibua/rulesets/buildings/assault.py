"""Close quarters: the attacks of an assault, who wins a round, and attacks on a vehicle.

Every attack hits by itself and damages on a damage roll with no cover: extra protection
and gun shields do not count in close quarters, and the attack has no penetration (the
rules name none for it). The movement and who is in reach belong to the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fibua.core.dice import Modifier, Rng, Roll, roll
from fibua.rulesets.buildings.shooting import Hit, Target, roll_damage
from fibua.rulesets.buildings.tables import (
    ASSAULT_REACH,
    VEHICLE_ASSAULT_HIT,
    VEHICLE_ASSAULT_PEN,
    Facing,
    VehicleKind,
)

CLOSE_QUARTERS = Hit(0, close_quarters=True)
#: an attack on an assaulted vehicle that hits: its side armour, at +2 penetration
VEHICLE_ASSAULT = Hit(VEHICLE_ASSAULT_PEN, close_quarters=True, facing=Facing.SIDE)


class RoundResult(StrEnum):
    ATTACKER_WINS = "attacker-wins"
    DEFENDER_WINS = "defender-wins"
    ANOTHER_ROUND = "another-round"


def surprise(distance: float) -> bool:
    """An assault from within 6 in (and any assault inside a building) allows no reaction
    fire."""
    return round(distance, 9) <= ASSAULT_REACH


def strike(rng: Rng, attacks: int, target: Target) -> tuple[Roll, ...]:
    """One side's attacks in a round: a damage roll each; each success removes a model."""
    return tuple(roll_damage(rng, CLOSE_QUARTERS, target) for _ in range(attacks))


def casualties(rolls: tuple[Roll, ...]) -> int:
    return sum(1 for r in rolls if r.success)


def round_result(by_attacker: int, by_defender: int) -> RoundResult:
    """The side that caused fewer casualties loses (and is destroyed); a tie fights on."""
    if by_attacker > by_defender:
        return RoundResult.ATTACKER_WINS
    if by_defender > by_attacker:
        return RoundResult.DEFENDER_WINS
    return RoundResult.ANOTHER_ROUND


@dataclass(frozen=True, slots=True)
class VehicleAttack:
    hit: Roll
    damage: Roll | None  # rolled only after a hit


def strike_vehicle(rng: Rng, attacks: int, vehicle: VehicleKind) -> tuple[VehicleAttack, ...]:
    """Each attacker within reach of an assaulted vehicle hits on a 6 and strikes its side
    armour at +2 penetration; the vehicle never strikes back."""
    target = Target(None, vehicle)
    out = []
    for _ in range(attacks):
        made = roll(rng, "d6", "close assault on a vehicle", need=VEHICLE_ASSAULT_HIT,
                    basis=(Modifier("close assault", VEHICLE_ASSAULT_HIT),))
        out.append(VehicleAttack(
            made, roll_damage(rng, VEHICLE_ASSAULT, target) if made.success else None))
    return tuple(out)
