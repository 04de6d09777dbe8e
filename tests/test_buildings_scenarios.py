"""The bundled Buildings scenarios: each file reads, and everything in it stands where the
rules allow (on the table, in its zone, inside only where set up inside, in coherency).

The common schema is checked on its own and each side's forces and the options with the
rule set's models; once the rule set is registered the loader reads the whole file too.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass
from math import dist
from typing import Any, cast

import pytest
from shapely.geometry import LineString, Point, Polygon

from fibua.battlefield.model import Construction, OpeningKind, Section
from fibua.core.errors import Problem, UnknownRuleset
from fibua.core.ruleset import _REGISTRY as ruleset_registry
from fibua.core.ruleset import RuleSet, find_ruleset
from fibua.rulesets.buildings.forces import Forces, Options, UnitSpec
from fibua.rulesets.buildings.tables import (
    WEAPONS,
    Mobility,
    ObserverKind,
    UnitKind,
    VehicleKind,
    WeaponName,
)
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario
from first_written import first_written_raw

BUNDLED = ("tobacco-factory", "beach-exit", "village-street")
#: how far a model outside keeps from every wall, and a model inside from its own walls
CLEARANCE = 0.3
#: how far a vehicle's centre keeps from every wall (a hull is some 3 in long)
VEHICLE_CLEARANCE = 2.5


def raw_of(name: str) -> dict[str, Any]:
    return tomllib.loads(bundled_scenarios()[name].read_text(encoding="utf-8"))


def common(name: str) -> Scenario:
    return Scenario.model_validate(raw_of(name))


def forces(name: str) -> dict[str, Forces]:
    return {side["name"]: Forces.model_validate(side["forces"])
            for side in raw_of(name)["sides"]}


def units(name: str) -> list[tuple[str, UnitSpec]]:
    return [(side, unit) for side, f in forces(name).items() for unit in f.units]


def sections(scenario: Scenario) -> dict[str, Section]:
    return {s.id: s for b in scenario.battlefield.buildings for s in b.sections}


def registered() -> bool:
    try:
        find_ruleset("buildings")
    except UnknownRuleset:
        return False
    return True


# -- the files read ---------------------------------------------------------------------------


def test_the_three_scenarios_are_bundled_together() -> None:
    found = bundled_scenarios()
    assert all(found[name].parent.name == "buildings" for name in BUNDLED)
    assert sorted(p.stem for p in found.values() if p.parent.name == "buildings") == \
        sorted(BUNDLED)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_common_part_reads(name: str) -> None:
    scenario = common(name)
    assert scenario.name == name
    assert scenario.ruleset == "buildings"
    assert scenario.scenario.turns == 6
    assert scenario.scenario.description.strip() and scenario.scenario.history.strip()
    table = scenario.battlefield.table
    assert (table.width, table.height, str(table.unit)) == (48, 48, "inch")
    assert len(scenario.sides) == 2
    assert sorted(s.player for s in scenario.sides) == ["computer", "human"]
    assert all(s.deployment for s in scenario.sides)
    assert {v.side for v in scenario.victory} == set(scenario.side_names)


@pytest.mark.parametrize("name", BUNDLED)
def test_forces_and_options_read_with_the_rule_sets_models(name: str) -> None:
    raw = raw_of(name)
    found = forces(name)
    assert set(found) == {side["name"] for side in raw["sides"]}
    assert all(len(f.units) >= 4 for f in found.values())
    # as first written every side fielded five units or more; the balancing took some away
    assert all(len(Forces.model_validate(side["forces"]).units) >= 5
               for side in first_written_raw(name)["sides"])
    options = Options.model_validate(raw.get("options", {}))
    assert options.extra_turn_on == 4  # six turns and perhaps a seventh
    assert options.turn_limit is None  # the scenario's turns rule


@dataclass(frozen=True)
class StandIn:
    """The parts of the rule set the loader uses, until the real one is registered: its
    models of forces and options, and no checks of its own."""

    name: str = "buildings"
    forces_model: type[Forces] = Forces
    options_model: type[Options] = Options

    def check_scenario(self, scenario: Scenario) -> list[Problem]:
        return []


@pytest.mark.parametrize("name", BUNDLED)
def test_the_loader_reads_the_whole_file(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Registered: the rule set's own checks run too. Not yet: a stand-in lends the loader
    # the models, so that its checks across the parts of the file still run.
    if not registered():
        monkeypatch.setitem(ruleset_registry, "buildings", cast(RuleSet[Any], StandIn()))
    scenario = load_scenario(name)
    assert scenario.name == name
    assert set(scenario.side_names) == set(forces(name))
    for side in scenario.side_names:
        assert scenario.forces_of(side) == forces(name)[side]
    assert scenario.rule_options == Options.model_validate(raw_of(name).get("options", {}))


# -- where things stand -------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
def test_ids_are_unique(name: str) -> None:
    # the map's ids are checked by the common schema; unit ids across both sides here
    ids = Counter(unit.id for _, unit in units(name))
    assert [i for i, n in ids.items() if n > 1] == []


@pytest.mark.parametrize("name", BUNDLED)
def test_every_model_is_on_the_table_and_in_its_zone(name: str) -> None:
    scenario = common(name)
    table = scenario.battlefield.table
    for side, unit in units(name):
        zone = Polygon(scenario.side(side).deployment or [])
        for model in unit.models:
            x, y = model.at
            assert 0 <= x <= table.width and 0 <= y <= table.height, (unit.id, model.at)
            assert zone.covers(Point(model.at)), (unit.id, model.at)


@pytest.mark.parametrize("name", BUNDLED)
def test_models_stand_outside_walls_unless_set_up_inside(name: str) -> None:
    scenario = common(name)
    footprints = {sid: Polygon(s.footprint) for sid, s in sections(scenario).items()}
    for _, unit in units(name):
        clearance = VEHICLE_CLEARANCE if unit.unit_kind is UnitKind.VEHICLE else CLEARANCE
        for model in unit.models:
            at = Point(model.at)
            if unit.inside is None:
                for sid, footprint in footprints.items():
                    assert footprint.exterior.distance(at) >= clearance and \
                        not footprint.covers(at), (unit.id, model.at, sid)
            else:
                own = footprints[unit.inside.section]
                assert own.contains(at) and own.exterior.distance(at) >= CLEARANCE, \
                    (unit.id, model.at)


@pytest.mark.parametrize("name", BUNDLED)
def test_models_are_in_coherency(name: str) -> None:
    reach = Options.model_validate(raw_of(name).get("options", {})).coherency
    for _, unit in units(name):
        points = [m.at for m in unit.models]
        if len(points) < 2:
            continue
        for i, here in enumerate(points):
            nearest = min(dist(here, there) for j, there in enumerate(points) if j != i)
            assert nearest <= reach, (unit.id, here)
        # and no two models on one spot
        assert len(set(points)) == len(points), unit.id


@pytest.mark.parametrize("name", BUNDLED)
def test_units_set_up_inside_where_the_rules_allow(name: str) -> None:
    scenario = common(name)
    known = sections(scenario)
    floors_taken: Counter[tuple[str, int]] = Counter()
    for side, unit in units(name):
        inside = unit.inside
        if inside is None:
            continue
        assert inside.section in known, unit.id
        section = known[inside.section]
        floors_taken[(section.id, inside.floor)] += 1
        assert unit.unit_kind is not UnitKind.VEHICLE
        assert inside.floor < section.levels, unit.id
        zone = Polygon(scenario.side(side).deployment or [])
        assert zone.covers(Polygon(section.footprint)), (unit.id, "section not wholly in zone")
        if unit.unit_kind is UnitKind.GUN:
            assert inside.floor == 0 and inside.opening is not None
            assert inside.opening < len(section.openings), unit.id
            assert section.openings[inside.opening].floor == 0, unit.id
        if any(WEAPONS[w].indirect is not None and WEAPONS[w].range == 0
               for w in unit.model_weapons() if w is not None):
            # a mortar inside fires only from a flat roof
            assert section.flat_roof and inside.floor == section.floors, unit.id
        if inside.made_opening is not None:
            assert section.construction is not Construction.BUNKER, unit.id
            assert inside.made_opening < len(section.footprint), unit.id
            assert not [o for o in section.openings
                        if o.wall == inside.made_opening and o.floor == inside.floor], unit.id
            (x0, y0), (x1, y1) = section.wall(inside.made_opening)
            assert dist((x0, y0), (x1, y1)) >= 1.0, unit.id
    assert [key for key, n in floors_taken.items() if n > 1] == []  # one unit to a floor


@pytest.mark.parametrize("name", BUNDLED)
def test_openings_name_walls_that_exist(name: str) -> None:
    for section in sections(common(name)).values():
        for opening in section.openings:
            assert 0 <= opening.wall < len(section.footprint), section.id
            assert opening.floor < section.levels, section.id
            (x0, y0), (x1, y1) = section.wall(opening.wall)
            assert opening.width / 2 <= opening.at <= dist((x0, y0), (x1, y1)) - \
                opening.width / 2, section.id


@pytest.mark.parametrize("name", BUNDLED)
def test_every_section_can_be_entered(name: str) -> None:
    # a way in from outside: a ground-floor door or window on a wall no neighbour shares
    scenario = common(name)
    known = sections(scenario)
    for section in known.values():
        others = [Polygon(s.footprint) for s in known.values() if s.id != section.id]
        ways = [o for o in section.openings if o.floor == 0
                and o.kind in (OpeningKind.DOOR, OpeningKind.WINDOW)
                and all(LineString(section.opening_segment(o)).distance(p.exterior) > 1e-6
                        for p in others)]
        assert ways, section.id


@pytest.mark.parametrize("name", BUNDLED)
def test_bunkers_have_a_door_and_slits_and_nothing_else(name: str) -> None:
    for section in sections(common(name)).values():
        if section.construction is not Construction.BUNKER:
            assert all(o.kind is not OpeningKind.SLIT for o in section.openings), section.id
            continue
        kinds = Counter(o.kind for o in section.openings)
        assert kinds[OpeningKind.DOOR] >= 1 and kinds[OpeningKind.SLIT] >= 1, section.id
        assert kinds[OpeningKind.WINDOW] == 0, section.id
        assert section.floors == 1 and not section.flat_roof, section.id


@pytest.mark.parametrize("name", BUNDLED)
def test_objectives_name_sections_on_the_map(name: str) -> None:
    scenario = common(name)
    known = sections(scenario)
    for condition in scenario.victory:
        assert all(s in known for s in condition.sections), condition
        if condition.kind in ("hold", "reach"):
            assert condition.sections or condition.zone
    # every side has something to take or keep, not only to survive
    assert {v.side for v in scenario.victory if v.kind == "hold"} == set(scenario.side_names)


# -- what each scenario is for ----------------------------------------------------------------


def _inside(name: str, side: str) -> dict[str, UnitSpec]:
    return {u.inside.section: u for s, u in units(name) if s == side and u.inside is not None}


def test_the_tobacco_factory_is_a_large_building_defended_from_inside() -> None:
    scenario = common("tobacco-factory")
    factory = next(b for b in scenario.battlefield.buildings if b.id == "tobacco-factory")
    assert len(factory.sections) >= 3 and len(factory.connections) >= 2
    kinds = {s.construction for s in factory.sections}
    assert {Construction.BRICK, Construction.STRONG} <= kinds
    assert any(s.flat_roof for s in factory.sections)
    assert max(s.floors for s in factory.sections) >= 3
    germans = [u for s, u in units("tobacco-factory") if s == "germans"]
    assert all(u.inside is not None for u in germans)
    # the MG 42 upstairs in the office block, as first written (the balancing left it out)
    first = next(Forces.model_validate(side["forces"]).units
                 for side in first_written_raw("tobacco-factory")["sides"]
                 if side["name"] == "germans")
    assert any(u.type == "mmg-team" and u.inside and u.inside.floor >= 1 for u in first)
    assert any(u.unit_kind is UnitKind.GUN for u in germans)
    assert any(u.inside and u.inside.made_opening is not None for u in germans)
    americans = [u for s, u in units("tobacco-factory") if s == "americans"]
    assert any(u.vehicle_kind is VehicleKind.MEDIUM_TANK for u in americans)


def test_the_beach_exit_is_held_from_bunkers() -> None:
    scenario = common("beach-exit")
    bunkers = [s for s in sections(scenario).values() if s.construction is Construction.BUNKER]
    assert len(bunkers) >= 3
    held = _inside("beach-exit", "germans")
    in_bunkers = [held[b.id] for b in bunkers if b.id in held]
    assert any(u.unit_kind is UnitKind.GUN for u in in_bunkers)
    assert any(WeaponName.MMG in u.model_weapons() for u in in_bunkers)
    gun = next(u for u in in_bunkers if u.unit_kind is UnitKind.GUN)
    assert gun.inside is not None and gun.inside.opening is not None
    slit = sections(scenario)[gun.inside.section].openings[gun.inside.opening]
    assert slit.kind is OpeningKind.SLIT
    weapons = {w for s, u in units("beach-exit") if s == "americans"
               for w in u.model_weapons()}
    assert {WeaponName.FLAMETHROWER, WeaponName.BAZOOKA} <= weapons
    observers = [u for s, u in units("beach-exit") if s == "americans" and u.observes]
    assert [u.observes for u in observers] == [ObserverKind.ARTILLERY]
    options = Options.model_validate(raw_of("beach-exit").get("options", {}))
    assert options.observers and options.barrages >= 1


def test_the_village_street_has_a_tank_a_gun_in_a_house_and_houses_to_fall() -> None:
    scenario = common("village-street")
    everyone = units("village-street")
    tanks = [u for _, u in everyone if u.vehicle_kind is VehicleKind.HEAVY_TANK]
    assert len(tanks) == 1 and tanks[0].unit_mobility is Mobility.TRACKED
    guns = [u for _, u in everyone if u.unit_kind is UnitKind.GUN]
    assert guns and all(g.inside is not None and g.inside.opening is not None for g in guns)
    assert any(w in (WeaponName.LIGHT_MORTAR, WeaponName.MEDIUM_MORTAR)
               for _, u in everyone for w in u.model_weapons())
    kinds = Counter(s.construction for s in sections(scenario).values())
    assert kinds[Construction.WOODEN] >= 2 and kinds[Construction.BRICK] >= 2
    assert kinds[Construction.STRONG] >= 1  # one the tank cannot drive into
    # the tank can drive down the street: a road touches its start and runs west
    roads = [Polygon(a.polygon) for a in scenario.battlefield.terrain if a.kind == "road"]
    assert any(r.covers(Point(tanks[0].models[0].at)) for r in roads)
