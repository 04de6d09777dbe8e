"""Buildings tables and the scenario models: the numbers of the rules, and the forces and
options a scenario file may give."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from fibua.rulesets.buildings.forces import Forces, Options, UnitSpec
from fibua.rulesets.buildings.tables import (
    CATALOGUE,
    COLLAPSE_AT,
    FACING_BONUS,
    HE_TEMPLATES,
    INFANTRY_DAMAGE,
    MORALE,
    MOVEMENT,
    SMALL_ARMS,
    TANK_ASSAULT_BUILDING,
    VEHICLE_DAMAGE,
    WEAPONS,
    BuildingKind,
    Facing,
    Mobility,
    Quality,
    UnitKind,
    UnitType,
    VehicleKind,
    WeaponName,
    weapons_of,
)


def test_quality_gives_morale_and_damage_value() -> None:
    assert [MORALE[q] for q in Quality] == [8, 9, 10]
    assert [INFANTRY_DAMAGE[q] for q in Quality] == [3, 4, 5]


def test_vehicle_damage_values_rise_with_armour() -> None:
    assert [VEHICLE_DAMAGE[v] for v in VehicleKind] == [6, 7, 8, 9, 10, 11]


def test_movement_rates() -> None:
    assert (MOVEMENT[Mobility.FOOT].advance, MOVEMENT[Mobility.FOOT].run) == (6, 12)
    assert MOVEMENT[Mobility.MANHANDLED].run is None
    assert (MOVEMENT[Mobility.TRACKED].advance, MOVEMENT[Mobility.TRACKED].run) == (9, 18)
    assert (MOVEMENT[Mobility.WHEELED].advance, MOVEMENT[Mobility.WHEELED].run) == (12, 24)


@pytest.mark.parametrize(("name", "rng", "shots", "pen"), [
    (WeaponName.PISTOL, 6, 1, 0), (WeaponName.RIFLE, 24, 1, 0), (WeaponName.SMG, 12, 2, 0),
    (WeaponName.ASSAULT_RIFLE, 18, 2, 0), (WeaponName.LMG, 36, 4, 0),
    (WeaponName.MMG, 36, 5, 0), (WeaponName.HMG, 36, 3, 1), (WeaponName.AT_RIFLE, 36, 1, 2),
    (WeaponName.PIAT, 12, 1, 5), (WeaponName.BAZOOKA, 24, 1, 5),
    (WeaponName.PANZERSCHRECK, 24, 1, 6), (WeaponName.PANZERFAUST, 12, 1, 6),
    (WeaponName.FLAMETHROWER, 6, 1, 3), (WeaponName.LIGHT_GUN, 48, 1, 4),
    (WeaponName.MEDIUM_GUN, 60, 1, 5), (WeaponName.HEAVY_GUN, 72, 1, 6),
    (WeaponName.SUPER_HEAVY_GUN, 84, 1, 7),
])
def test_weapon_table(name: WeaponName, rng: float, shots: int, pen: int) -> None:
    w = WEAPONS[name]
    assert (w.range, w.shots, w.pen) == (rng, shots, pen)


def test_weapon_flags() -> None:
    assert {n for n, w in WEAPONS.items() if w.assault} == {
        WeaponName.PISTOL, WeaponName.SMG, WeaponName.ASSAULT_RIFLE}
    assert {n for n, w in WEAPONS.items() if w.shaped} == {
        WeaponName.PIAT, WeaponName.BAZOOKA, WeaponName.PANZERSCHRECK, WeaponName.PANZERFAUST}
    assert {n for n, w in WEAPONS.items() if w.one_shot} == {WeaponName.PANZERFAUST}
    assert WEAPONS[WeaponName.MMG].fixed and WEAPONS[WeaponName.HMG].fixed
    assert not WEAPONS[WeaponName.LMG].fixed and WEAPONS[WeaponName.LMG].team
    assert all(WEAPONS[w].fixed for w in (WeaponName.LIGHT_GUN, WeaponName.HEAVY_HOWITZER))
    assert {WeaponName.PISTOL, WeaponName.RIFLE, WeaponName.SMG,
                          WeaponName.ASSAULT_RIFLE, WeaponName.LMG, WeaponName.MMG,
                          WeaponName.HMG} == SMALL_ARMS


def test_indirect_weapons() -> None:
    assert WEAPONS[WeaponName.LIGHT_MORTAR].indirect == (12, 24)
    assert WEAPONS[WeaponName.LIGHT_MORTAR].he == 1
    assert WEAPONS[WeaponName.MEDIUM_MORTAR].indirect == (12, 60)
    assert WEAPONS[WeaponName.MEDIUM_MORTAR].he == 2
    assert (WEAPONS[WeaponName.LIGHT_HOWITZER].range,
            WEAPONS[WeaponName.LIGHT_HOWITZER].indirect) == (48, (24, 60))
    assert WEAPONS[WeaponName.MEDIUM_HOWITZER].indirect == (30, 72)
    assert WEAPONS[WeaponName.HEAVY_HOWITZER].indirect == (36, 84)
    assert WEAPONS[WeaponName.HEAVY_HOWITZER].he == 4
    assert WEAPONS[WeaponName.LIGHT_MORTAR].range == 0  # indirect only


def test_he_templates() -> None:
    rows = [(t.pins, t.pen, t.in_buildings) for t in HE_TEMPLATES.values()]
    assert rows == [("d2", 1, "d3"), ("d3", 2, "d6"), ("d3", 3, "2d6"), ("d6", 4, "3d6")]


def test_buildings() -> None:
    assert COLLAPSE_AT[BuildingKind.BRICK] == 10
    assert COLLAPSE_AT[BuildingKind.STRONG] == 10
    assert COLLAPSE_AT[BuildingKind.BUNKER] == 12
    assert TANK_ASSAULT_BUILDING == {BuildingKind.WOODEN: "2d6", BuildingKind.BRICK: "3d6"}
    assert FACING_BONUS == {Facing.FRONT: 0, Facing.SIDE: 1, Facing.REAR: 2, Facing.TOP: 1}


def test_catalogue_units_have_their_weapons() -> None:
    squad = CATALOGUE[UnitType.RIFLE_SQUAD]
    weapons = weapons_of(squad)
    assert len(weapons) == squad.models == 10
    assert weapons.count(WeaponName.LMG) == 1 and weapons.count(WeaponName.RIFLE) == 8
    tank = CATALOGUE[UnitType.MEDIUM_TANK]
    assert weapons_of(tank) == [WeaponName.MEDIUM_GUN, WeaponName.MMG, WeaponName.MMG]
    for typical in CATALOGUE.values():
        assert (typical.vehicle is not None) == (typical.kind is UnitKind.VEHICLE)
        assert weapons_of(typical) or typical.transport


def _squad(**extra: object) -> dict[str, object]:
    return {"id": "a", "name": "A", "type": "rifle-squad",
            "models": [{"at": [i, 0]} for i in range(10)]} | extra


def test_a_catalogue_squad_fills_its_weapons() -> None:
    unit = UnitSpec.model_validate(_squad())
    assert unit.unit_kind is UnitKind.INFANTRY
    assert unit.model_weapons()[:2] == [WeaponName.LMG, WeaponName.SMG]
    assert unit.model_weapons()[2:] == [WeaponName.RIFLE] * 8


def test_a_team_fires_one_weapon() -> None:
    unit = UnitSpec.model_validate({"id": "m", "name": "MMG", "type": "mmg-team",
                                    "models": [{"at": [0, i]} for i in range(3)]})
    assert unit.model_weapons() == [WeaponName.MMG, None, None]


def test_a_vehicle_is_one_model_and_a_gun_inside_names_its_opening() -> None:
    tank = {"id": "t", "name": "T", "type": "heavy-tank", "models": [{"at": [0, 0]}]}
    assert UnitSpec.model_validate(tank).unit_mounts()[0] is WeaponName.HEAVY_GUN
    with pytest.raises(ValidationError, match="one model"):
        UnitSpec.model_validate(tank | {"models": [{"at": [0, 0]}, {"at": [1, 0]}]})
    gun = {"id": "g", "name": "G", "type": "light-anti-tank-gun",
           "models": [{"at": [0, 0]}], "inside": {"section": "s1"}}
    with pytest.raises(ValidationError, match="opening"):
        UnitSpec.model_validate(gun)
    placed = UnitSpec.model_validate(gun | {"inside": {"section": "s1", "opening": 0}})
    assert placed.shielded and placed.unit_mobility is Mobility.MANHANDLED


def test_forces_check_transports_and_ids() -> None:
    truck = {"id": "lorry", "name": "Lorry", "type": "truck", "models": [{"at": [0, 0]}]}
    Forces.model_validate({"units": [truck, _squad(aboard="lorry")]})
    with pytest.raises(ValidationError, match="carries one unit"):
        Forces.model_validate({"units": [truck, _squad(aboard="lorry"),
                                         _squad(id="b", aboard="lorry")]})
    with pytest.raises(ValidationError, match="not a transport"):
        Forces.model_validate({"units": [_squad(aboard="nowhere")]})
    with pytest.raises(ValidationError, match="unique"):
        Forces.model_validate({"units": [_squad(), _squad()]})
    with pytest.raises(ValidationError):
        UnitSpec.model_validate(_squad(colour="red"))


def test_options_defaults_are_our_values() -> None:
    o = Options()
    assert (o.coherency, o.regroup, o.bail_out, o.extra_turn_on) == (2.0, 6.0, 3.0, 4)
    assert (o.shaken_up_to, o.immobilised_up_to, o.superficial_immobilised_on) == (2, 4, 5)
    assert (o.strike_friendly_up_to, o.strike_no_show_up_to, o.strike_pin_radius) == (1, 3, 6)
    assert (o.barrage_radius, o.barrage_nothing_up_to, o.barrage_pins_up_to) == (12, 2, 5)
    assert o.blunder and o.blunder_pins == 1 and o.barrages == 1
    with pytest.raises(ValidationError):
        Options.model_validate({"shaken_up_to": 5, "immobilised_up_to": 3})
    with pytest.raises(ValidationError):
        Options.model_validate({"unknown": 1})
