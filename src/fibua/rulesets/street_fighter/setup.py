"""Setting up a Street Fighter game: formations made from presets or listed units, and
Control's hidden deployment plan, where a unit's place is picked by the game's seed."""

from __future__ import annotations

from fibua.battlefield.model import Position
from fibua.battlefield.sight import SightEngine
from fibua.core.dice import Rng, roll
from fibua.core.errors import Problem
from fibua.core.state import sight_engine
from fibua.rulesets.street_fighter.forces import (
    Forces,
    Options,
    Placement,
    all_formations,
    placements,
)
from fibua.rulesets.street_fighter.knowledge import start_knowledge
from fibua.rulesets.street_fighter.state import Formation, StreetFighterState, Unit
from fibua.rulesets.street_fighter.tables import CATALOGUE, Body, a_or_an
from fibua.scenario.checks import off_table, two_sides
from fibua.scenario.schema import Scenario


def new_state(scenario: Scenario, seed: int, rng: Rng | None) -> StreetFighterState:
    sight = sight_engine(scenario).fork(umpire=True)
    a, b = scenario.side_names
    state = StreetFighterState(
        scenario=scenario, battlefield=scenario.battlefield, sight=sight,
        rng=rng if rng is not None else Rng(seed),
        options=scenario.rule_options or Options(), sides=(a, b), units={}, formations={},
    )
    taken = _fixed_points(scenario)
    for side in (a, b):
        forces: Forces = scenario.forces_of(side)
        state.artillery[side] = forces.artillery
        for spec in all_formations(forces):
            made = placements(spec)
            for p in made:
                state.units[p.id] = _unit(state, side, spec.id, p, taken)
            for p in made:
                if p.rides is not None:
                    _board(state, state.units[p.id], p.rides)
            ids = [p.id for p in made]
            state.formations[spec.id] = Formation(
                spec.id, spec.name, side, spec.commander, ids,
                sum(state.units[u].start_hp for u in ids))
    start_knowledge(state)
    return state


def _fixed_points(scenario: Scenario) -> set[tuple[float, float]]:
    """Where the units given one place stand, on both sides."""
    return {p.at for side in scenario.side_names
            for spec in all_formations(scenario.forces_of(side))
            for p in placements(spec) if p.at is not None}


def _unit(state: StreetFighterState, side: str, formation: str, p: Placement,
          taken: set[tuple[float, float]]) -> Unit:
    at = p.at or (0.0, 0.0)
    if p.candidates:
        at = _pick(state, p, taken)
        taken.add(at)
    hp = CATALOGUE[p.kind].hit_points
    pos = Position(at[0], at[1], state.sight.section_at(at))
    return Unit(p.id, p.name, side, formation, p.kind, pos, hp, hp)


def _pick(state: StreetFighterState, p: Placement,
          taken: set[tuple[float, float]]) -> tuple[float, float]:
    """Control's pick among a unit's candidates that no other unit stands on (a fixed
    place or an earlier pick), by the seed; if none is free, among all of them."""
    free = [c for c in p.candidates if c not in taken] or list(p.candidates)
    if len(free) == 1:
        at = free[0]
    else:
        pick = state.record(roll(state.rng, f"d{len(free)}", f"deployment of {p.name}"))
        at = free[pick.total - 1]
    state.deployment[p.id] = at
    state.emit("deployment-picked", {"unit": p.id, "choice": p.candidates.index(at) + 1,
                                     "of": len(p.candidates), "at": list(at)}, ())
    return at


def _board(state: StreetFighterState, unit: Unit, vehicle_id: str) -> None:
    vehicle = state.units[vehicle_id]
    unit.rides = vehicle.id
    unit.pos = vehicle.pos
    vehicle.passengers.append(unit.id)


# ---------------------------------------------------------------- checks


def check_scenario(scenario: Scenario) -> list[Problem]:
    wrong = two_sides(scenario, "Street Fighter")
    if wrong:
        return wrong
    sight = sight_engine(scenario).fork()
    problems: list[Problem] = []
    owner: dict[str, str] = {}
    every_side_read = True
    for i, side in enumerate(scenario.sides):
        forces: Forces | None = scenario.known_forces(side.name)
        every_side_read = every_side_read and forces is not None
        for j, formation in enumerate(forces.formations if forces is not None else []):
            where = f"sides[{i}].forces.formations[{j}]"
            problems += _check_formation(scenario, sight, side.name, placements(formation),
                                         where, owner)
    options: Options = scenario.rule_options or Options()
    for k, goal in enumerate(options.destroy):
        if goal.side not in scenario.side_names:
            problems.append(Problem("", f"options.destroy[{k}].side",
                                    f"no side {goal.side!r}"))
        for m, uid in enumerate(goal.units):
            if uid not in owner and not every_side_read:
                continue  # it may be a unit of the side whose forces did not read
            if owner.get(uid, goal.side) == goal.side:
                problems.append(Problem("", f"options.destroy[{k}].units[{m}]",
                                        f"{uid!r} is not a unit of the enemy of {goal.side}"))
    return problems


def _check_formation(scenario: Scenario, sight: SightEngine, side: str,
                     made: list[Placement], where: str,
                     owner: dict[str, str]) -> list[Problem]:
    problems: list[Problem] = []
    ids = {p.id: p for p in made}
    for k, p in enumerate(made):
        path = f"{where}.units[{k}]"
        if p.id in owner:
            problems.append(Problem("", f"{path}.id", f"id {p.id!r} is used twice"))
        owner[p.id] = side
        for spot in ([p.at] if p.at else []) + list(p.candidates):
            problems += _check_spot(scenario, sight, p, spot, path)
        if p.rides is not None:
            problems += _check_ride(ids, p, made, path)
    return problems


def _check_spot(scenario: Scenario, sight: SightEngine, p: Placement,
                spot: tuple[float, float], path: str) -> list[Problem]:
    off = off_table(scenario, spot)
    if off is not None:
        return [Problem("", path, off)]
    if scenario.unread_at(spot):
        return []
    x, y = spot
    if sight.section_at(spot) is not None and CATALOGUE[p.kind].body not in (Body.FOOT,
                                                                            Body.GUN):
        what = a_or_an(CATALOGUE[p.kind].title)
        return [Problem("", path, f"{what} cannot stand in a building area ({x:g}, {y:g})")]
    return []


def _check_ride(ids: dict[str, Placement], p: Placement, made: list[Placement],
                path: str) -> list[Problem]:
    vehicle = ids.get(p.rides or "")
    if vehicle is None:
        return [Problem("", f"{path}.rides", f"no vehicle {p.rides!r} in this formation")]
    room = CATALOGUE[vehicle.kind].capacity
    riders = sum(1 for q in made if q.rides == vehicle.id)
    if CATALOGUE[p.kind].body is not Body.FOOT:
        what = a_or_an(CATALOGUE[p.kind].title)
        return [Problem("", path, f"{what} cannot ride in a vehicle")]
    if riders > room:
        return [Problem("", f"{path}.rides", f"{vehicle.name} carries {room} unit(s) at most")]
    return []
