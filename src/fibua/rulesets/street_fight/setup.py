"""Setting up a Street-Fight game from a scenario."""

from __future__ import annotations

from typing import Any

from fibua.battlefield.model import Position
from fibua.battlefield.sight import SightEngine
from fibua.core.dice import Rng, roll
from fibua.core.errors import Problem
from fibua.core.state import sight_engine
from fibua.rulesets.street_fight.forces import Forces, Options
from fibua.rulesets.street_fight.state import Figure, StreetFightState, Unit
from fibua.rulesets.street_fight.tables import WeaponName, weapon_for_d100
from fibua.scenario.checks import floor_problem, off_table
from fibua.scenario.schema import Scenario


def new_state(scenario: Scenario, seed: int, rng: Rng | None) -> StreetFightState:
    sight = sight_engine(scenario).fork(umpire=True)
    a, b = scenario.side_names
    state = StreetFightState(
        scenario=scenario,
        battlefield=scenario.battlefield,
        sight=sight,
        rng=rng if rng is not None else Rng(seed),
        options=scenario.rule_options or Options(),
        sides=(a, b),
        figures={},
        units={},
    )
    for side in (a, b):
        forces: Forces = scenario.forces_of(side)
        for spec in forces.units:
            state.units[spec.id] = Unit(spec.id, spec.name, side, [f.id for f in spec.figures])
            for fig in spec.figures:
                weapon = _arm(state, side, fig.name, fig.weapon)
                pos = Position(fig.at[0], fig.at[1], sight.section_at(fig.at), fig.floor)
                state.figures[fig.id] = Figure(fig.id, fig.name, side, spec.id, weapon, pos)
    return state


def _arm(state: StreetFightState, side: str, name: str, weapon: str) -> WeaponName:
    if weapon != "random":
        return WeaponName(weapon)
    face = roll(state.rng, "d100", f"random weapon for {name}")
    drawn = weapon_for_d100(face.value).name
    state.emit("weapon-drawn", {"name": name, "weapon": str(drawn), "roll": face.to_dict()},
               (side,))
    return drawn


def check_scenario(scenario: Scenario) -> list[Problem]:
    problems: list[Problem] = []
    if len(scenario.sides) != 2:
        problems.append(Problem("", "sides", "Street-Fight is played by exactly two sides"))
        return problems
    sight = sight_engine(scenario).fork()
    seen: dict[str, str] = {}
    for i, side in enumerate(scenario.sides):
        forces: Forces | None = scenario.known_forces(side.name)
        for j, unit in enumerate(forces.units if forces is not None else []):
            for k, fig in enumerate(unit.figures):
                path = f"sides[{i}].forces.units[{j}].figures[{k}]"
                problems += _check_figure(scenario, sight, fig, path, seen)
            if unit.id in seen:
                problems.append(Problem("", f"sides[{i}].forces.units[{j}].id",
                                        f"id {unit.id!r} is used twice"))
            seen[unit.id] = unit.id
    return problems


def _check_figure(
    scenario: Scenario, sight: SightEngine, fig: Any, path: str, seen: dict[str, str]
) -> list[Problem]:
    problems = []
    if fig.id in seen:
        problems.append(Problem("", f"{path}.id", f"id {fig.id!r} is used twice"))
    seen[fig.id] = fig.id
    off = off_table(scenario, fig.at)
    if off is not None:
        problems.append(Problem("", f"{path}.at", off))
        return problems
    wrong = floor_problem(scenario, sight, fig.at, fig.floor)
    if wrong is not None:
        problems.append(Problem("", f"{path}.floor", wrong))
    return problems
