"""Scenario files: the bundled Street-Fight scenarios, and how a broken file is reported."""

from __future__ import annotations

import copy
import math
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon, box

from fibua.battlefield.model import Battlefield, OpeningKind, Position, Section
from fibua.core.errors import ScenarioError
from fibua.rulesets.street_fight.forces import Forces, Options
from fibua.rulesets.street_fight.tables import WeaponName
from fibua.scenario.loader import (
    bundled_scenarios,
    load_scenario,
    scenario_from_dict,
    scenario_from_text,
)
from fibua.scenario.schema import Scenario
from first_written import first_written, first_written_raw

BUNDLED = ("corner-shop", "farm-compound")
#: how far a figure keeps from walls and obstacles, so that it is plainly on one side
CLEARANCE = 0.3


def raw_scenario(name: str) -> dict[str, Any]:
    return tomllib.loads(bundled_scenarios()[name].read_text(encoding="utf-8"))


def schema_of(name: str) -> Scenario:
    return Scenario.model_validate(raw_scenario(name))


def footprints(field: Battlefield) -> dict[str, Polygon]:
    return {sid: Polygon(field.section(sid).footprint) for sid in field.section_ids}


def section_containing(field: Battlefield, xy: tuple[float, float]) -> str | None:
    point = Point(xy)
    inside = [sid for sid, poly in footprints(field).items() if poly.covers(point)]
    return inside[0] if inside else None


# -- the bundled scenarios ------------------------------------------------------------------


def test_both_scenarios_are_bundled() -> None:
    found = bundled_scenarios()
    for name in BUNDLED:
        assert name in found
        assert found[name].parent.name == "street-fight"


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenario_fits_the_schema(name: str) -> None:
    scenario = schema_of(name)
    assert scenario.name == name
    assert scenario.ruleset == "street-fight"
    # ten to twelve turns as first written; the balancing gave corner-shop thirteen
    assert 10 <= first_written(name).scenario.turns <= 12
    assert scenario.scenario.turns >= 10
    assert scenario.scenario.description and scenario.scenario.history
    table = scenario.battlefield.table
    assert 36 <= table.width <= 48 and 36 <= table.height <= 48
    assert table.unit == "inch"
    assert len(scenario.sides) == 2
    assert sorted(s.player for s in scenario.sides) == ["computer", "human"]
    assert all(s.deployment for s in scenario.sides)
    assert {v.side for v in scenario.victory} == set(scenario.side_names)


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_forces_and_options(name: str) -> None:
    raw = first_written_raw(name)  # the forces as designed, before the balancing thinned them
    weapons: Counter[str] = Counter()
    names: list[str] = []
    ids: list[str] = []
    for side in raw["sides"]:
        forces = Forces.model_validate(side["forces"])
        assert 1 <= len(forces.units) <= 3
        figures = [f for u in forces.units for f in u.figures]
        assert 5 <= len(figures) <= 8, side["name"]
        assert any(f.weapon == WeaponName.LMG for f in figures), side["name"]
        weapons.update(str(f.weapon) for f in figures)
        names += [f.name for f in figures]
        ids += [u.id for u in forces.units] + [f.id for f in figures]
    Options.model_validate(raw.get("options", {}))
    assert weapons["scoped-rifle"] == 1
    assert weapons["hmg"] <= 1
    assert 1 <= weapons["random"] <= 2
    assert weapons.most_common(1)[0][0] == "rifle"
    assert len(set(names)) == len(names), "figure names must be unique in a file"
    assert len(set(ids)) == len(ids), "unit and figure ids must be unique in a file"


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_map_geometry(name: str) -> None:
    field = schema_of(name).battlefield
    table = box(0, 0, field.table.width, field.table.height)
    polys = footprints(field)
    owner = {s.id: b.id for b in field.buildings for s in b.sections}
    for sid, poly in polys.items():
        assert poly.is_valid and poly.area > 0, sid
        assert poly.exterior.is_ccw, f"{sid}: footprints go anticlockwise"
        assert table.covers(poly), sid
    ids = sorted(polys)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            overlap = polys[a].intersection(polys[b]).area
            assert overlap < 1e-9, f"{a} and {b} overlap ({owner[a]}, {owner[b]})"
    for area in field.terrain:
        assert Polygon(area.polygon).is_valid, area.id
        assert table.covers(Polygon(area.polygon)), area.id
    for obstacle in field.obstacles:
        assert table.covers(LineString(obstacle.points)), obstacle.id


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_sections_of_a_building_share_walls(name: str) -> None:
    field = schema_of(name).battlefield
    polys = footprints(field)
    multi = [b for b in field.buildings if len(b.sections) > 1]
    assert multi, "at least one building of several sections"
    for building in multi:
        for a, b in building.connections:
            shared = polys[a].boundary.intersection(polys[b].boundary).length
            assert shared >= 1.0, f"{a} and {b} are connected but share no wall"
        # the connections join every section of the building
        reached = {building.sections[0].id}
        for _ in building.sections:
            for a, b in building.connections:
                if a in reached or b in reached:
                    reached |= {a, b}
        assert reached == {s.id for s in building.sections}, building.id
    assert any(s.floors == 2 for b in field.buildings for s in b.sections)


def _outside_point(section: Section, index: int, offset: float = 0.25) -> Point:
    """A point just outside the middle of an opening (footprints go anticlockwise)."""
    opening = section.openings[index]
    (x0, y0), (x1, y1) = section.opening_segment(opening)
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    return Point((x0 + x1) / 2 + dy / length * offset, (y0 + y1) / 2 - dx / length * offset)


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_openings_face_open_ground(name: str) -> None:
    field = schema_of(name).battlefield
    table = box(0, 0, field.table.width, field.table.height)
    polys = footprints(field)
    for building in field.buildings:
        own = {s.id for s in building.sections}
        for section in building.sections:
            for i, opening in enumerate(section.openings):
                assert opening.floor < section.levels
                outside = _outside_point(section, i)
                where = f"{section.id} openings[{i}]"
                assert table.contains(outside), f"{where} opens off the table"
                blocked = [sid for sid, p in polys.items() if sid != section.id
                           and p.covers(outside)]
                assert set(blocked) <= own, f"{where} opens into {blocked}"


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_sections_reachable_through_doors(name: str) -> None:
    """Figures enter buildings only by doors: every section has an outside door on the
    ground floor, or is connected to one that has."""
    field = schema_of(name).battlefield
    polys = footprints(field)
    for building in field.buildings:
        reached = set()
        for section in building.sections:
            for i, opening in enumerate(section.openings):
                outside = _outside_point(section, i)
                if opening.kind is OpeningKind.DOOR and opening.floor == 0 and not any(
                    p.covers(outside) for p in polys.values()
                ):
                    reached.add(section.id)
        assert reached, f"{building.id} has no door to the outside"
        for _ in building.sections:
            for a, b in building.connections:
                if a in reached or b in reached:
                    reached |= {a, b}
        assert reached == {s.id for s in building.sections}, building.id


# -- where the figures stand ----------------------------------------------------------------


def placement_problems(raw: dict[str, Any]) -> list[str]:
    """Every figure on the table, in its side's deployment zone, and either outside every
    building on the ground or inside one section on a floor that section has."""
    scenario = Scenario.model_validate(raw)
    field = scenario.battlefield
    table = box(0, 0, field.table.width, field.table.height)
    polys = footprints(field)
    walls = [LineString(o.points) for o in field.obstacles]
    problems = []
    for side in scenario.sides:
        zone = Polygon(side.deployment) if side.deployment else None
        for unit in Forces.model_validate(side.forces).units:
            for fig in unit.figures:
                where, point = f"{side.name}/{fig.id}", Point(fig.at)
                if not table.contains(point):
                    problems.append(f"{where}: off the table")
                if zone is not None and not zone.covers(point):
                    problems.append(f"{where}: outside the {side.name} deployment zone")
                inside = [sid for sid, poly in polys.items() if poly.covers(point)]
                if len(inside) > 1:
                    problems.append(f"{where}: on the wall between {inside}")
                elif inside:
                    section = field.section(inside[0])
                    if fig.floor >= section.levels:
                        problems.append(f"{where}: {section.id} has no floor {fig.floor}")
                    if polys[section.id].exterior.distance(point) < CLEARANCE:
                        problems.append(f"{where}: standing in a wall of {section.id}")
                else:
                    if fig.floor != 0:
                        problems.append(f"{where}: upstairs but outside every building")
                    if any(poly.distance(point) < CLEARANCE for poly in polys.values()):
                        problems.append(f"{where}: pressed against a building")
                if any(w.distance(point) < CLEARANCE for w in walls):
                    problems.append(f"{where}: standing on a wall or hedge")
    return problems


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_figures_are_placed_correctly(name: str) -> None:
    assert placement_problems(raw_scenario(name)) == []


def _first_figure(raw: dict[str, Any], side: int) -> dict[str, Any]:
    figure: dict[str, Any] = raw["sides"][side]["forces"]["units"][0]["figures"][0]
    return figure


@pytest.mark.parametrize(
    ("side", "change", "expected"),
    [
        (0, {"at": [1.0, 30.0]}, "outside the british deployment zone"),
        (0, {"floor": 1}, "upstairs but outside every building"),
        (1, {"floor": 4}, "has no floor 4"),
        (1, {"at": [26.9, 25.0]}, "standing in a wall"),
        (1, {"at": [27.0, 25.0]}, "on the wall between"),
        (1, {"at": [28.0, 33.0], "floor": 0}, "standing on a wall or hedge"),
    ],
)
def test_placement_check_finds_misplaced_figures(
    side: int, change: dict[str, Any], expected: str
) -> None:
    raw = raw_scenario("corner-shop")
    _first_figure(raw, side).update(change)
    if expected == "standing on a wall or hedge":
        raw["map"]["obstacles"].append(
            {"id": "test-fence", "kind": "fence", "points": [[27, 33], [29, 33]]}
        )
    problems = placement_problems(raw)
    assert len(problems) >= 1
    assert any(expected in p for p in problems), problems


# -- sight at the start ---------------------------------------------------------------------


def _position(field: Battlefield, xy: tuple[float, float], floor: int = 0) -> Position:
    return Position(xy[0], xy[1], section_containing(field, xy), floor)


def _grid(polygon: Polygon, step: float, inset: float = 0.5) -> Iterator[tuple[float, float]]:
    x0, y0, x1, y1 = polygon.bounds
    x = x0 + inset
    while x <= x1 - inset:
        y = y0 + inset
        while y <= y1 - inset:
            if polygon.contains(Point(x, y)):
                yield (x, y)
            y += step
        x += step


def _sides(scenario: Scenario) -> tuple[Any, Any]:
    attacker = next(s for s in scenario.sides if s.player == "human")
    defender = next(s for s in scenario.sides if s.player == "computer")
    return attacker, defender


def _figure_positions(field: Battlefield, side: Any) -> dict[str, Position]:
    return {
        f.id: _position(field, f.at, f.floor)
        for u in Forces.model_validate(side.forces).units
        for f in u.figures
    }


@pytest.mark.parametrize("name", BUNDLED)
def test_most_defenders_are_hidden_from_the_attackers_deployment(name: str) -> None:
    reference = pytest.importorskip("fibua.battlefield.reference")
    scenario = schema_of(name)
    field = scenario.battlefield
    attacker, defender = _sides(scenario)
    polys = footprints(field)
    viewers = [
        _position(field, xy)
        for xy in _grid(Polygon(attacker.deployment), 1.0)
        if not any(p.covers(Point(xy)) for p in polys.values())
    ]
    assert len(viewers) > 50
    seen = [
        fid
        for fid, pos in _figure_positions(field, defender).items()
        if any(reference.reference_visible(field, {}, v, pos) for v in viewers)
    ]
    defenders = _figure_positions(field, defender)
    assert len(seen) <= len(defenders) // 2, f"seen at the start: {seen}"


@pytest.mark.parametrize("name", BUNDLED)
def test_every_defender_can_fire_out_of_its_zone(name: str) -> None:
    """No defender is shut in a blind box: each sees open ground beyond its deployment
    zone, and the attackers' side of the table can be seen from buildings it can enter."""
    reference = pytest.importorskip("fibua.battlefield.reference")
    scenario = schema_of(name)
    field = scenario.battlefield
    _, defender = _sides(scenario)
    zone = Polygon(defender.deployment)
    polys = footprints(field)
    table = box(0, 0, field.table.width, field.table.height)
    ground = [
        _position(field, xy)
        for xy in _grid(table, 2.0, inset=1.0)
        if not zone.covers(Point(xy)) and not any(p.covers(Point(xy)) for p in polys.values())
    ]
    for fid, pos in _figure_positions(field, defender).items():
        assert any(reference.reference_visible(field, {}, pos, g) for g in ground), fid


# -- loading through the rule set -----------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenario_loads_with_the_rule_set(name: str) -> None:
    pytest.importorskip("fibua.rulesets.street_fight.rules")
    from fibua.core.ruleset import find_ruleset

    scenario = load_scenario(name)
    assert load_scenario(bundled_scenarios()[name]).name == name
    for side in scenario.side_names:
        assert isinstance(scenario.forces_of(side), Forces)
    assert isinstance(scenario.rule_options, Options)
    ruleset = find_ruleset("street-fight")
    state = ruleset.new_state(scenario, seed=7)
    ruleset.start(state)
    acting = ruleset.to_act(state)
    assert acting in scenario.side_names
    assert ruleset.legal_orders(state, acting)


# -- broken files ---------------------------------------------------------------------------

MINIMAL = """\
[scenario]
name = "mini"
title = "Mini"
ruleset = "street-fight"
turns = 6

[map]
width = 24
height = 24

[[map.terrain]]
id = "road"
kind = "road"
polygon = [[0, 10], [24, 10], [24, 14], [0, 14]]

[[map.obstacles]]
id = "wall"
kind = "high-wall"
points = [[2, 5], [8, 5]]

[[map.buildings]]
id = "row"
name = "Row"
connections = [["row-west", "row-east"]]

[[map.buildings.sections]]
id = "row-west"
footprint = [[4, 16], [8, 16], [8, 20], [4, 20]]
floors = 2
openings = [{ kind = "door", wall = 0, at = 2 }]

[[map.buildings.sections]]
id = "row-east"
footprint = [[8, 16], [12, 16], [12, 20], [8, 20]]
floors = 2
openings = [
    { kind = "door", wall = 0, at = 2 },
    { kind = "window", wall = 1, floor = 1, at = 2 },
    { kind = "window", wall = 2, at = 2 },
    { kind = "door", wall = 3, at = 2 },
]

[[sides]]
name = "allies"
title = "Allies"
player = "human"
deployment = [[0, 0], [24, 0], [24, 3], [0, 3]]

[[sides.forces.units]]
id = "a1"
name = "Able"
figures = [{ id = "able", name = "Private Able", weapon = "rifle", at = [5, 1] }]

[[sides]]
name = "axis"
title = "Axis"

[[sides.forces.units]]
id = "b1"
name = "Baker"
figures = [{ id = "baker", name = "Schuetze Baker", weapon = "lmg", at = [6, 18], floor = 1 }]

[[victory]]
side = "allies"
kind = "hold"
sections = ["row-west", "row-east"]
points = 2

[options]
"""

SOURCE = "broken.toml"


def variant(*edits: tuple[str, str]) -> str:
    text = MINIMAL
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def problems_of(text: str) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as caught:
        scenario_from_text(text, SOURCE)
    for problem in caught.value.problems:
        assert problem.source == SOURCE
        assert problem.message
        assert str(problem) == (
            f"{SOURCE}: {problem.path}: {problem.message}" if problem.path
            else f"{SOURCE}: {problem.message}"
        )
    return [(p.path, p.message) for p in caught.value.problems]


def test_minimal_scenario_is_valid() -> None:
    Scenario.model_validate(tomllib.loads(MINIMAL))
    pytest.importorskip("fibua.rulesets.street_fight.rules")
    assert scenario_from_text(MINIMAL, SOURCE).name == "mini"


BROKEN = {
    "unknown key": (
        [("turns = 6\n", 'turns = 6\ncolour = "red"\n')],
        "scenario.colour", "unknown key",
    ),
    "wrong type": (
        [("turns = 6", 'turns = "six"')],
        "scenario.turns", "Input should be a valid integer",
    ),
    "number out of range": (
        [("turns = 6", "turns = 0")],
        "scenario.turns", "greater than or equal to 1 (got 0)",
    ),
    "not finite": (
        [("width = 24", "width = nan")],
        "map.width", "finite number",
    ),
    "bad choice": (
        [('kind = "road"', 'kind = "lava"')],
        "map.terrain[0].kind", "Input should be 'open', 'road', 'rough', 'rubble' or 'plot'",
    ),
    "polygon too short": (
        [("polygon = [[0, 10], [24, 10], [24, 14], [0, 14]]", "polygon = [[0, 10], [24, 10]]")],
        "map.terrain[0].polygon", "at least 3 items",
    ),
    "point with one number": (
        [("footprint = [[4, 16], [8, 16], [8, 20], [4, 20]]",
          "footprint = [[4, 16], [8], [8, 20], [4, 20]]")],
        "map.buildings[0].sections[0].footprint[1]", "a point is written as two numbers, [x, y]",
    ),
    "text where a table belongs": (
        [('openings = [{ kind = "door", wall = 0, at = 2 }]', 'openings = ["door"]')],
        "map.buildings[0].sections[0].openings[0]", "should be a table of keys and values",
    ),
    "missing required key": (
        [('title = "Axis"\n', "")],
        "sides[1].title", "required key is missing",
    ),
    "opening on a missing wall": (
        [('{ kind = "window", wall = 2, at = 2 }', '{ kind = "window", wall = 9, at = 2 }')],
        "map.buildings[0].sections[1].openings[2].wall",
        "wall 9 does not exist: the footprint has 4 points, so walls 0..3",
    ),
    "opening that does not fit": (
        [("wall = 1, floor = 1, at = 2 }", "wall = 1, floor = 1, at = 3.8 }")],
        "map.buildings[0].sections[1].openings[1].at",
        "a window 1 wide centred at 3.8 does not fit on wall 1, which is 4 long",
    ),
    "opening wider than its wall": (
        [("wall = 1, floor = 1, at = 2 }", "wall = 1, floor = 1, at = 2, width = 5 }")],
        "map.buildings[0].sections[1].openings[1].width",
        "a window 5 wide does not fit on wall 1, which is 4 long",
    ),
    "opening on a missing floor": (
        [("wall = 1, floor = 1, at = 2 }", "wall = 1, floor = 2, at = 2 }")],
        "map.buildings[0].sections[1].openings[1].floor",
        "floor 2 does not exist: the section has floors 0..1",
    ),
    "duplicate map id": (
        [('id = "road"', 'id = "row-east"')],
        "map.buildings[0].sections[1].id",
        "id 'row-east' is already used on the map, by map.terrain[0]",
    ),
    "duplicate side name": (
        [('name = "axis"', 'name = "allies"')],
        "sides[1].name", "side name 'allies' is used twice",
    ),
    "unknown connection": (
        [('connections = [["row-west", "row-east"]]', 'connections = [["row-west", "row-n"]]')],
        "map.buildings[0].connections[0][1]",
        "section 'row-n' is not in this building (its sections: row-west, row-east)",
    ),
    "unknown side in victory": (
        [('side = "allies"', 'side = "allied"')],
        "victory[0].side", "no side is called 'allied'; the sides are allies, axis",
    ),
    "unknown section in victory": (
        [('sections = ["row-west", "row-east"]', 'sections = ["row-west", "row-middle"]')],
        "victory[0].sections[1]", "no section 'row-middle' on the map",
    ),
    "hold with nothing to hold": (
        [('sections = ["row-west", "row-east"]\n', "")],
        "victory[0]", "a hold condition needs a zone or sections",
    ),
    "invalid TOML": (
        [("turns = 6", "turns = ")],
        "", "not valid TOML",
    ),
    "unknown rule set": (
        [('ruleset = "street-fight"', 'ruleset = "street-fights"')],
        "scenario.ruleset", "unknown rule set 'street-fights'",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_mistake_gives_one_clear_problem(case: str) -> None:
    edits, path, message = BROKEN[case]
    problems = problems_of(variant(*edits))
    assert len(problems) == 1, problems
    assert problems[0][0] == path
    assert message in problems[0][1]


def test_several_mistakes_give_several_problems() -> None:
    text = variant(
        ("turns = 6\n", 'turns = 6\ncolour = "red"\n'),
        ('{ kind = "window", wall = 2, at = 2 }', '{ kind = "window", wall = 9, at = 2 }'),
        ("wall = 1, floor = 1, at = 2 }", "wall = 1, floor = 3, at = 3.8 }"),
        ('title = "Axis"\n', ""),
        ('side = "allies"', 'side = "allied"'),
        ('id = "road"', 'id = "wall"'),
    )
    paths = [path for path, _ in problems_of(text)]
    assert sorted(paths) == sorted([
        "scenario.colour",
        "map.buildings[0].sections[1].openings[2].wall",
        "map.buildings[0].sections[1].openings[1].floor",
        "map.buildings[0].sections[1].openings[1].at",
        "sides[1].title",
        "victory[0].side",
        "map.obstacles[0].id",
    ])


def test_problems_name_the_file_they_come_from(tmp_path: Path) -> None:
    path = tmp_path / "my-scenario.toml"
    path.write_text(variant(("turns = 6", 'turns = "six"')), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    (problem,) = caught.value.problems
    assert problem.source == str(path)
    assert str(caught.value).startswith(f"{path}: scenario.turns: ")


def test_missing_file_is_a_problem_too(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "nowhere.toml")
    assert "no such file" in caught.value.problems[0].message


@pytest.mark.parametrize(
    ("edit", "path", "message"),
    [
        (
            ('weapon = "lmg"', 'weapon = "bazooka"'),
            "sides[1].forces.units[0].figures[0].weapon",
            "'random'",
        ),
        (
            ('id = "baker"', 'id = "able"'),
            "sides[1].forces.units[0].figures[0].id",
            "'able'",
        ),
        (
            ("at = [6, 18], floor = 1", "at = [6, 18], floor = 3"),
            "sides[1].forces.units[0].figures[0].floor",
            "",
        ),
        (
            ('figures = [{ id = "able"', 'rank = 3\nfigures = [{ id = "able"'),
            "sides[0].forces.units[0].rank",
            "unknown key",
        ),
    ],
)
def test_forces_mistakes_are_located(edit: tuple[str, str], path: str, message: str) -> None:
    pytest.importorskip("fibua.rulesets.street_fight.rules")
    problems = problems_of(variant(edit))
    assert len(problems) == 1, problems
    assert problems[0][0] == path
    assert message in problems[0][1]


def test_union_alternatives_are_one_problem() -> None:
    """A bad weapon is not one of the weapons nor "random": one problem naming both."""
    pytest.importorskip("fibua.rulesets.street_fight.rules")
    ((_, message),) = problems_of(variant(('weapon = "lmg"', 'weapon = "bazooka"')))
    assert "'rifle'" in message and "'random'" in message and "(got 'bazooka')" in message


# -- any mutation of a valid file loads or is reported --------------------------------------

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["", "rifle", "door", "street-fight", "row-east", "allies", "hold"])
    | st.just(10**400),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=8,
)


def _places(value: Any) -> list[tuple[Any, Any]]:
    """(container, key) for every value nested in a table."""
    found: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((value, key))
            found += _places(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append((value, index))
            found += _places(item)
    return found


BASES = [tomllib.loads(MINIMAL)] + [raw_scenario(name) for name in BUNDLED]


def _like(old: Any) -> st.SearchStrategy[Any]:
    if isinstance(old, bool):
        return st.booleans()
    if isinstance(old, int):
        return st.integers(-3, 60)
    if isinstance(old, float):
        return st.floats(-3, 60)
    if isinstance(old, str):
        return st.sampled_from(["rifle", "random", "door", "window", "hold", "germans",
                                "allies", "row-east", "epicerie-shop", "farmhouse", "x"])
    return st.just(old)


def _not_of_type(kind: type) -> Callable[[Any], bool]:
    return lambda value: type(value) is not kind


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    raw: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        places = _places(raw)
        container, key = places[draw(st.integers(0, len(places) - 1))]
        old = container[key]
        action = draw(st.sampled_from(["delete", "retype", "add key", "perturb"]))
        if action == "delete":
            del container[key]
        elif action == "perturb":
            # same type, another value: mostly still valid, so the rule set's checks run
            container[key] = draw(_like(old))
        elif action == "retype":
            container[key] = draw(VALUES.filter(_not_of_type(type(old))))
        else:
            target = container[key] if isinstance(container[key], dict) else raw
            target[draw(st.text(min_size=1, max_size=10))] = draw(VALUES)
    return raw


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_scenarios())
def test_mutated_scenarios_load_or_raise_scenario_error(raw: dict[str, Any]) -> None:
    try:
        scenario = scenario_from_dict(raw, "mutated.toml")
    except ScenarioError as error:
        event("reported")
        assert error.problems
        for problem in error.problems:
            assert problem.source == "mutated.toml"
            assert problem.message
    else:
        event("loaded")
        assert isinstance(scenario, Scenario)


def test_connected_sections_need_a_door_in_their_shared_wall() -> None:
    text = MINIMAL.replace('    { kind = "door", wall = 3, at = 2 },\n', "")
    with pytest.raises(ScenarioError) as caught:
        scenario_from_text(text, "row.toml")
    (problem,) = caught.value.problems
    assert problem.path == "map.buildings[0].connections[0]"
    assert "no ground-floor door" in problem.message
