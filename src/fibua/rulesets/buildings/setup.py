"""Setting up a Buildings game: units and their models placed from the scenario's forces,
units set up inside buildings with their made openings cut into the map before the sight
engine is built, and the scenario checks with field paths."""

from __future__ import annotations

from dataclasses import replace
from math import hypot

from fibua.battlefield.model import Battlefield, Building, Opening, OpeningKind, Section
from fibua.battlefield.sight import SightEngine
from fibua.core.dice import Rng
from fibua.core.errors import Problem
from fibua.core.state import sight_engine
from fibua.rulesets.buildings.forces import Forces, Options, UnitSpec
from fibua.rulesets.buildings.geometry import centroid
from fibua.rulesets.buildings.knowledge import start_knowledge
from fibua.rulesets.buildings.state import BuildingsState, Model, Unit
from fibua.rulesets.buildings.tables import DEFAULT_TURNS, BuildingKind, UnitKind
from fibua.rulesets.buildings.transport import carry
from fibua.scenario.checks import place_problems, two_sides, unique_id
from fibua.scenario.schema import Scenario

MADE_OPENING_WIDTH = 1.0  # inches: a made opening is a window this wide at mid-wall


def made_openings(scenario: Scenario) -> tuple[tuple[str, int, int], ...]:
    """(section, floor, wall) of every opening a unit set up inside made, in a set order."""
    out = []
    for side in scenario.side_names:
        forces: Forces | None = scenario.known_forces(side)
        for spec in forces.units if forces is not None else []:
            inside = spec.inside
            if inside is not None and inside.made_opening is not None:
                out.append((inside.section, inside.floor, inside.made_opening))
    return tuple(sorted(set(out)))


def with_openings(field: Battlefield, made: tuple[tuple[str, int, int], ...]) -> Battlefield:
    """The map with the made openings cut: each a window at the middle of its wall."""
    if not made:
        return field
    buildings = []
    for building in field.buildings:
        sections = []
        for section in building.sections:
            extra = []
            for sid, floor, wall in made:
                if sid != section.id:
                    continue
                (x0, y0), (x1, y1) = section.wall(wall)
                length = hypot(x1 - x0, y1 - y0)
                extra.append(Opening(OpeningKind.WINDOW, wall, floor, length / 2,
                                     min(MADE_OPENING_WIDTH, length)))
            sections.append(replace(section, openings=section.openings + tuple(extra)))
        buildings.append(Building(building.id, building.name, tuple(sections),
                                  building.connections))
    return Battlefield(field.table, field.terrain, field.obstacles, tuple(buildings))


def game_sight(scenario: Scenario) -> tuple[Battlefield, SightEngine]:
    """The map as this scenario's units leave it at set-up, and its shared sight engine
    (built once per scenario, like `sight_engine`)."""
    made = made_openings(scenario)
    if not made:
        return scenario.battlefield, sight_engine(scenario)
    key = f"buildings-sight:{made!r}"
    memo = scenario.memo
    if key not in memo:
        field = with_openings(scenario.battlefield, made)
        memo[key] = (field, SightEngine(field))
    found: tuple[Battlefield, SightEngine] = memo[key]
    return found


def turn_limit(scenario: Scenario, options: Options) -> int:
    if options.turn_limit is not None:
        return options.turn_limit
    return scenario.scenario.turns or DEFAULT_TURNS


def new_state(scenario: Scenario, seed: int, rng: Rng | None) -> BuildingsState:
    field, engine = game_sight(scenario)
    options: Options = scenario.rule_options or Options()
    a, b = scenario.side_names
    state = BuildingsState(
        scenario=scenario, battlefield=field, sight=engine.fork(umpire=True),
        rng=rng if rng is not None else Rng(seed), options=options, sides=(a, b),
        units={}, limit=turn_limit(scenario, options))
    for side in (a, b):
        forces: Forces = scenario.forces_of(side)
        for spec in forces.units:
            state.units[spec.id] = unit_of(field, side, spec)
        for spec in forces.units:
            if spec.aboard is not None:
                carry(state.units[spec.aboard], state.units[spec.id])
    start_knowledge(state)
    return state


def unit_of(field: Battlefield, side: str, spec: UnitSpec) -> Unit:
    weapons = spec.model_weapons()
    models = [Model(m.at[0], m.at[1], w) for m, w in zip(spec.models, weapons, strict=True)]
    section, floor, opening = None, 0, None
    if spec.inside is not None:
        section, floor, opening = spec.inside.section, spec.inside.floor, spec.inside.opening
        cx, cy = centroid(field.section(section))
        models = [Model(cx, cy, m.weapon) for m in models]
    return Unit(spec.id, spec.name, side, spec.unit_kind, spec.quality, spec.unit_mobility,
                models, len(models), tuple(spec.unit_mounts()), spec.vehicle_kind,
                spec.facing, section, floor, opening, observer=spec.observes,
                shield=spec.shielded)


def check_scenario(scenario: Scenario) -> list[Problem]:
    problems = two_sides(scenario, "Buildings")
    if problems:
        return problems
    sight = sight_engine(scenario).fork()
    options: Options = scenario.rule_options or Options()
    seen: set[str] = set()
    rooms: dict[tuple[str, int], str] = {}
    made_on: set[tuple[str, int, int]] = set()
    for i, side in enumerate(scenario.sides):
        forces: Forces | None = scenario.known_forces(side.name)
        for k, spec in enumerate(forces.units if forces is not None else []):
            path = f"sides[{i}].forces.units[{k}]"
            problems += unique_id(spec.id, f"{path}.id", seen)
            for m, model in enumerate(spec.models):
                where = f"{path}.models[{m}]"
                placed = place_problems(scenario, sight, model.at, 0, where)
                problems += placed
                if placed or spec.inside is not None or scenario.unread_at(model.at):
                    continue
                inside = sight.section_at(model.at)
                if inside is not None:
                    problems.append(Problem("", f"{where}.at", f"({model.at[0]:g}, "
                                            f"{model.at[1]:g}) is inside section "
                                            f"{inside!r}: a unit set up in a building "
                                            "names it with `inside`"))
            if spec.inside is not None and not options.enter_buildings:
                problems.append(Problem("", f"{path}.inside", "no unit is set up inside a "
                                        "building when enter_buildings = false"))
            elif spec.inside is not None:
                problems += _check_inside(scenario, side.deployment, spec, f"{path}.inside",
                                          rooms, made_on)
    return problems


def _check_inside(scenario: Scenario, zone: list[tuple[float, float]] | None,
                  spec: UnitSpec, path: str, rooms: dict[tuple[str, int], str],
                  made_on: set[tuple[str, int, int]]) -> list[Problem]:
    inside = spec.inside
    assert inside is not None
    if scenario.unread_at((0.0, 0.0)) and not scenario.table_known:
        return []
    field = scenario.battlefield
    if inside.section not in field.section_ids:
        return [Problem("", f"{path}.section", f"no section {inside.section!r} on the map")]
    section = field.section(inside.section)
    problems = []
    if inside.floor >= section.levels:
        problems.append(Problem("", f"{path}.floor",
                                f"section {section.id!r} has floors 0..{section.levels - 1}"))
    room = (section.id, inside.floor)
    if room in rooms:
        problems.append(Problem("", f"{path}.floor", f"{rooms[room]} is already on floor "
                                f"{inside.floor} of {section.id!r}: one unit a floor"))
    rooms[room] = spec.id
    if zone and not _within(section, zone):
        problems.append(Problem("", f"{path}.section", f"section {section.id!r} is not "
                                "wholly inside the side's deployment zone"))
    opening = inside.opening
    if spec.unit_kind is UnitKind.GUN and opening is not None and (
            opening >= len(section.openings) or section.openings[opening].floor != 0):
        problems.append(Problem("", f"{path}.opening", "a gun fires through an opening "
                                "of its section's ground floor"))
    if inside.made_opening is not None:
        problems += _check_made(section, inside.floor, inside.made_opening,
                                f"{path}.made_opening", made_on)
    return problems


def _check_made(section: Section, floor: int, wall: int, path: str,
                made_on: set[tuple[str, int, int]]) -> list[Problem]:
    if section.construction is BuildingKind.BUNKER:
        return [Problem("", path, "no opening can be made in a bunker")]
    if wall >= len(section.footprint):
        return [Problem("", path, f"section {section.id!r} has walls 0.."
                        f"{len(section.footprint) - 1}")]
    if any(o.wall == wall and o.floor == floor for o in section.openings) or \
            (section.id, floor, wall) in made_on:
        return [Problem("", path, "an opening is made only in a wall of its floor with none")]
    made_on.add((section.id, floor, wall))
    return []


def _within(section: Section, zone: list[tuple[float, float]]) -> bool:
    from shapely.geometry import Polygon

    return bool(Polygon(zone).buffer(1e-9).covers(Polygon(section.footprint)))
