"""Setting up a Street-Fight game from a scenario."""

from __future__ import annotations

from fibua.battlefield.model import Position
from fibua.core.dice import Rng, roll
from fibua.core.errors import Problem
from fibua.core.state import sight_engine
from fibua.rulesets.street_fight.forces import Forces, Options
from fibua.rulesets.street_fight.knowledge import start_knowledge
from fibua.rulesets.street_fight.state import Figure, StreetFightState, Unit
from fibua.rulesets.street_fight.tables import WeaponName, weapon_for_d100
from fibua.scenario.checks import place_problems, two_sides, unique_id
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
    start_knowledge(state)
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
    problems = two_sides(scenario, "Street-Fight")
    if problems:
        return problems
    sight = sight_engine(scenario).fork()
    seen: set[str] = set()
    for i, side in enumerate(scenario.sides):
        forces: Forces | None = scenario.known_forces(side.name)
        for j, unit in enumerate(forces.units if forces is not None else []):
            for k, fig in enumerate(unit.figures):
                path = f"sides[{i}].forces.units[{j}].figures[{k}]"
                problems += unique_id(fig.id, f"{path}.id", seen)
                problems += place_problems(scenario, sight, fig.at, fig.floor, path)
            problems += unique_id(unit.id, f"sides[{i}].forces.units[{j}].id", seen)
    return problems
