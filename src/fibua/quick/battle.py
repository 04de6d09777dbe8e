"""A quick battle put together: the town, two nations' forces of equal points in zones on
the south and north edges, objectives in the middle of the town, a turn limit, written as
a scenario file and checked by the scenario loader.

Every random choice comes from the seed (through derive_seed, one stream per part), so
the same rule set and seed give the same file, byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from math import ceil
from typing import Any

from fibua.battlefield.model import Battlefield, Building, Point
from fibua.core.dice import derive_seed
from fibua.core.errors import InputError, Problem
from fibua.quick.army import Army, Muster
from fibua.quick.buildings import BuildingsArmy
from fibua.quick.compose import Item, common_target, draw
from fibua.quick.house_clearing import HouseClearingArmy
from fibua.quick.nations import Nation, Roll, match
from fibua.quick.place import Placer
from fibua.quick.street_fight import StreetFightArmy
from fibua.quick.street_fighter import StreetFighterArmy
from fibua.quick.tomlwrite import dumps
from fibua.quick.town import Town, make_town, snap
from fibua.scenario.loader import scenario_from_text
from fibua.scenario.schema import MapSpec, Scenario

ARMIES: dict[str, Callable[[], Army]] = {
    "street-fight": StreetFightArmy,
    "street-fighter": StreetFighterArmy,
    "house-clearing": HouseClearingArmy,
    "buildings": BuildingsArmy,
}

MAIN_POINTS = 3  # the building in the middle of the town (2 each for a pair)
PAIR_POINTS = 2
SECOND_POINTS = 1  # a second building or a garden to hold
ELIMINATE_POINTS = 2


@dataclass(frozen=True, slots=True)
class Objective:
    title: str
    points: int
    sections: tuple[str, ...] = ()
    zone: tuple[Point, ...] | None = None


@dataclass(frozen=True)
class QuickBattle:
    """A made quick battle: its file's text, the scenario it loads as, and a summary."""

    ruleset: str
    seed: int
    text: str
    scenario: Scenario
    points: tuple[int, int]
    summary: tuple[str, ...]


def army_for(ruleset: str) -> Army:
    maker = ARMIES.get(ruleset)
    if maker is None:
        known = ", ".join(sorted(ARMIES))
        raise InputError([Problem("RULESET", "", f"no quick battles for {ruleset!r}: "
                                                 f"choose one of {known}")])
    return maker()


def _stream(seed: int, *labels: str | int) -> random.Random:
    return random.Random(derive_seed(seed, "quick", *labels))


def quick_battle(ruleset: str, seed: int) -> QuickBattle:
    """The quick battle of a rule set and seed."""
    army = army_for(ruleset)
    town = make_town(derive_seed(seed, "quick", ruleset, "town"), army.plan)
    rng = _stream(seed, ruleset, "battle")
    nations = match(rng)
    map_table = map_dict(town)
    field = MapSpec.model_validate(map_table).to_battlefield()
    core = army.core(rng)
    lists = [army.prices(n) for n in nations]
    spent = sum(item.points for item in core)
    target = common_target(rng, lists, army.budget - spent, army.picks)
    sides = [_side(army, field, seed, n, nation, zone, core, lists[n], target)
             for n, (nation, zone) in enumerate(zip(nations, town.zones, strict=True))]
    goals = objectives(rng, town)
    turns = turn_limit(army, town)
    table = {
        "scenario": {
            "name": f"quick-{ruleset}-{seed}",
            "title": f"Quick battle: {goals[0].title}",
            "ruleset": ruleset,
            "turns": turns,
            "description": _description(nations, goals, turns),
        },
        "map": map_table,
        "sides": sides,
        "victory": victory(goals, [n.name for n in nations]),
        "options": army.options(),
    }
    header = (f"A quick battle for {ruleset}, made by `fibua quick {ruleset} --seed {seed}`.",
              "Footprints go anticlockwise; wall i runs from footprint point i to point i+1.")
    text = dumps(table, header)
    scenario = scenario_from_text(text, f"quick {ruleset} seed {seed}")
    points = side_points(army, scenario)
    return QuickBattle(ruleset, seed, text, scenario, points,
                       summary(scenario, town, nations, sides, goals, points))


def side_points(army: Army, scenario: Scenario) -> tuple[int, int]:
    """Each side's points, priced again from its forces as the rule set read them."""
    first, second = (army.price(scenario.forces_of(side)) for side in scenario.side_names)
    return first, second


def _side(army: Army, field: Battlefield, seed: int, n: int, nation: Nation,
          zone: tuple[Point, ...], core: list[Item], items: tuple[Item, ...],
          target: int) -> dict[str, Any]:
    rng = _stream(seed, army.ruleset, "side", n)
    picks = core + draw(rng, items, target, army.picks)
    placer = Placer(field, zone, army.clearance)
    facing = 90.0 if n == 0 else 270.0
    forces = army.forces(Muster(nation, picks, Roll(nation, rng), placer, facing, rng))
    return {"name": nation.name, "title": nation.title,
            "player": "human" if n == 0 else "computer",
            "deployment": [list(p) for p in zone], "forces": forces}


# -- the map ----------------------------------------------------------------------------------


def map_dict(town: Town) -> dict[str, Any]:
    """The town as a scenario's `map` table (obstacles at the format's default heights)."""
    field = town.battlefield
    return {
        "width": field.table.width,
        "height": field.table.height,
        "unit": str(field.table.unit),
        "terrain": [{"id": t.id, "kind": str(t.kind), "polygon": [list(p) for p in t.polygon]}
                    for t in field.terrain],
        "obstacles": [{"id": o.id, "kind": str(o.kind), "points": [list(p) for p in o.points]}
                      for o in field.obstacles],
        "buildings": [_building_dict(b) for b in field.buildings],
    }


def _building_dict(building: Building) -> dict[str, Any]:
    out: dict[str, Any] = {"id": building.id, "name": building.name}
    if building.connections:
        out["connections"] = [list(pair) for pair in building.connections]
    sections = []
    for s in building.sections:
        section: dict[str, Any] = {"id": s.id, "footprint": [list(p) for p in s.footprint],
                                   "floors": s.floors}
        if s.flat_roof:
            section["flat_roof"] = True
        section["construction"] = str(s.construction)
        section["openings"] = [{"kind": str(o.kind), "wall": o.wall, "floor": o.floor,
                                "at": o.at, "width": o.width} for o in s.openings]
        sections.append(section)
    out["sections"] = sections
    return out


# -- objectives, victory and turns ----------------------------------------------------------


def _centre_rows(lots: int) -> tuple[int, ...]:
    """The middle row of lots (an odd number of lots), or the two middle rows."""
    return (lots // 2,) if lots % 2 else (lots // 2 - 1, lots // 2)


def _nearest_centre(town: Town, row: int, taken: set[str]) -> Building | None:
    """The building of a row nearest the table's middle column, or None."""
    middle = (town.plan.lots - 1) / 2
    found = [b for b in town.battlefield.buildings
             if town.lot_of[b.id][1] == row and b.id not in taken]
    found.sort(key=lambda b: (abs(town.lot_of[b.id][0] - middle), town.lot_of[b.id][0]))
    return found[0] if found else None


def _held(building: Building, points: int) -> Objective:
    return Objective(f"the {building.name}", points, tuple(s.id for s in building.sections))


def objectives(rng: random.Random, town: Town) -> list[Objective]:
    """The building in the middle of the town (or one in each of the two middle rows,
    mirrored: each side has one nearer it), and half the time a second one to hold: a
    garden in the middle rows, else another building there."""
    rows = _centre_rows(town.plan.lots)
    taken: set[str] = set()
    goals = []
    for row in rows:
        building = _nearest_centre(town, row, taken)
        if building is not None:  # every town row has a building
            taken.add(building.id)
            goals.append(_held(building, MAIN_POINTS if len(rows) == 1 else PAIR_POINTS))
    if rng.random() < 0.5:
        return goals
    gardens = [lot for lot in town.gardens if lot[1] in rows]
    if gardens:
        lot = rng.choice(gardens)
        x0, y0, x1, y1 = town.lot_rect(lot)
        inset = (x1 - x0) * 0.15
        zone = ((snap(x0 + inset), snap(y0 + inset)), (snap(x1 - inset), snap(y0 + inset)),
                (snap(x1 - inset), snap(y1 - inset)), (snap(x0 + inset), snap(y1 - inset)))
        goals.append(Objective("the garden in the middle of the town", SECOND_POINTS,
                               zone=zone))
        return goals
    others = [b for row in rows if (b := _nearest_centre(town, row, taken)) is not None]
    if others:
        goals.append(_held(rng.choice(others), SECOND_POINTS))
    return goals


def victory(goals: list[Objective], sides: list[str]) -> list[dict[str, Any]]:
    """The same conditions for both sides: hold each objective, wipe out the enemy."""
    out: list[dict[str, Any]] = []
    for side in sides:
        for goal in goals:
            entry: dict[str, Any] = {"side": side, "kind": "hold", "points": goal.points}
            if goal.sections:
                entry["sections"] = list(goal.sections)
            if goal.zone is not None:
                entry["zone"] = [list(p) for p in goal.zone]
            entry["description"] = f"{goal.title} held: troops there and no enemy"
            out.append(entry)
        out.append({"side": side, "kind": "eliminate", "points": ELIMINATE_POINTS,
                    "description": "no enemy left able to fight"})
    return out


def turn_limit(army: Army, town: Town) -> int:
    """Twice the turns a foot unit needs from its zone to the middle of the table, and
    four more."""
    reach = town.plan.size / 2 - town.plan.lot
    return 2 * ceil(reach / army.pace) + 4


# -- words ------------------------------------------------------------------------------------


def _description(nations: tuple[Nation, Nation], goals: list[Objective], turns: int) -> str:
    south, north = nations
    held = "; ".join(f"{g.title} ({g.points} point{'s' if g.points != 1 else ''})"
                     for g in goals)
    return (f"A town no one has fought over before. The {south.title} come in from "
            f"the south edge, the {north.title} from the north; both sides have the "
            f"same points. Hold at the end of turn {turns}: {held}; wiping out the enemy "
            f"is worth {ELIMINATE_POINTS} more.")


def summary(scenario: Scenario, town: Town, nations: tuple[Nation, Nation],
            sides: list[dict[str, Any]], goals: list[Objective],
            points: tuple[int, int]) -> tuple[str, ...]:
    field = town.battlefield
    table = field.table
    sections = sum(len(b.sections) for b in field.buildings)
    lines = [
        f"{scenario.scenario.title} ({scenario.ruleset}, {scenario.scenario.turns} turns)",
        f"table {table.width:g} x {table.height:g} {table.unit}: {len(field.buildings)} "
        f"buildings ({sections} sections), {len(field.obstacles)} walls and hedges",
    ]
    for nation, side, worth in zip(nations, sides, points, strict=True):
        lines.append(f"{nation.name} ({worth} points): {forces_words(side['forces'])}")
    lines += [f"objective: {g.title}, {g.points} point{'s' if g.points != 1 else ''}"
              for g in goals]
    return tuple(lines)


def forces_words(forces: dict[str, Any]) -> str:
    """A side's forces in a few words: its units, or its figures, counted."""
    counts: dict[str, int] = {}
    for unit in _listed(forces):
        counts[unit] = counts.get(unit, 0) + 1
    return ", ".join(f"{n} {what}" for what, n in counts.items())


def _listed(forces: dict[str, Any]) -> list[str]:
    if "formations" in forces:
        return [u["kind"] for f in forces["formations"] for u in f["units"]]
    if "players" in forces:
        return [f["weapon"] for p in forces["players"] for f in p["figures"]]
    units = forces["units"]
    if units and "figures" in units[0]:
        return [f["weapon"] for u in units for f in u["figures"]]
    return [u["type"] for u in units]
