"""Setting up a House-Clearing game: the figures, their statistics rolled with the game's
seed (or fixed in the scenario), and the scenario checks."""

from __future__ import annotations

from fibua.battlefield.model import Position
from fibua.core.dice import Modifier, Rng, roll
from fibua.core.errors import Problem
from fibua.core.ruleset import Seat
from fibua.core.state import sight_engine
from fibua.rulesets.house_clearing.forces import FigureSpec, Forces, Options
from fibua.rulesets.house_clearing.geometry import map_geometry
from fibua.rulesets.house_clearing.knowledge import start_knowledge
from fibua.rulesets.house_clearing.movement import paths_traced
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState
from fibua.rulesets.house_clearing.tables import (
    INITIATIVE_DIE,
    INITIATIVE_LEADER_BONUS,
    LEADERS,
    SKILL_DICE,
    Stance,
)
from fibua.scenario.checks import place_problems, two_sides, unique_id
from fibua.scenario.schema import Scenario


def new_state(scenario: Scenario, seed: int, rng: Rng | None) -> HouseClearingState:
    sight = sight_engine(scenario).fork(umpire=True)
    options: Options = scenario.rule_options or Options()
    a, b = scenario.side_names
    state = HouseClearingState(
        scenario=scenario, battlefield=scenario.battlefield, sight=sight,
        geometry=map_geometry(scenario, sight, options),
        rng=rng if rng is not None else Rng(seed), options=options, sides=(a, b),
        figures={}, order=(a, b), traced=paths_traced(scenario, options),
    )
    for side in (a, b):
        forces: Forces = scenario.forces_of(side)
        for player in forces.players:
            for spec in player.figures:
                state.figures[spec.id] = _figure(state, side, player.id, spec)
    state.teams = {side: tuple(f for f in state.figures.values() if f.side == side)
                   for side in (a, b)}
    start_knowledge(state)
    return state


def _figure(state: HouseClearingState, side: str, player: str, spec: FigureSpec) -> Figure:
    pos = Position(spec.at[0], spec.at[1], state.sight.section_at(spec.at), spec.floor)
    leader = spec.rank in LEADERS
    initiative = spec.initiative
    if initiative is None:
        bonus = (Modifier("officer, NCO or hero", INITIATIVE_LEADER_BONUS),) if leader else ()
        rolled = roll(state.rng, INITIATIVE_DIE, f"initiative of {spec.name}", bonus)
        initiative = rolled.total
        state.emit("statistic", {"figure": spec.id, "name": spec.name, "statistic":
                                 "initiative", "roll": rolled.to_dict()}, (side,))
    skill = spec.skill
    if skill is None:
        rolled = roll(state.rng, SKILL_DICE[leader], f"weapon skill of {spec.name}")
        skill = rolled.value
        state.emit("statistic", {"figure": spec.id, "name": spec.name, "statistic": "skill",
                                 "roll": rolled.to_dict()}, (side,))
    return Figure(spec.id, spec.name, side, player, spec.weapon, spec.rank, initiative, skill,
                  pos, spec.stance)


def seats(scenario: Scenario, side: str) -> list[Seat]:
    """A seat for each player, holding the ids of its figures: the ids orders name."""
    forces: Forces = scenario.forces_of(side)
    return [Seat(p.name, side, frozenset(f.id for f in p.figures)) for p in forces.players]


def check_scenario(scenario: Scenario) -> list[Problem]:
    wrong = two_sides(scenario, "House-Clearing")
    if wrong:
        return wrong
    sight = sight_engine(scenario).fork()
    options: Options = scenario.rule_options or Options()
    geometry = map_geometry(scenario, sight, options)
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, side in enumerate(scenario.sides):
        forces: Forces | None = scenario.known_forces(side.name)
        for j, player in enumerate(forces.players if forces is not None else []):
            path = f"sides[{i}].forces.players[{j}]"
            problems += unique_id(player.id, f"{path}.id", seen)
            for k, spec in enumerate(player.figures):
                problems += unique_id(spec.id, f"{path}.figures[{k}].id", seen)
                placed = place_problems(scenario, sight, spec.at, spec.floor,
                                        f"{path}.figures[{k}]")
                problems += placed
                if placed or spec.stance is not Stance.LEANING or scenario.unread_at(spec.at):
                    continue
                pos = Position(spec.at[0], spec.at[1], sight.section_at(spec.at), spec.floor)
                if not geometry.can_lean(pos):
                    problems.append(Problem("", f"{path}.figures[{k}].stance",
                                            "a leaning figure must stand inside a building "
                                            "within 1in of a door or window of its room"))
    return problems
