"""The cheap looks at a move that the computer asks before the full check: the ground's
(`too_far_on_the_ground`) refuses nothing the full check allows, and everything the full
check refuses as more than a whole move over the ground alone; a straight step's walls
(`step_through_wall`) refuse nothing the full check allows, and every step it refuses as
going through a wall. On random moves across the bundled House-Clearing maps, asked of a
side's own map as a player asks it."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game
from fibua.rulesets.house_clearing.geometry import UNTOLD
from fibua.rulesets.house_clearing.movement import (
    plan_move,
    step_through_wall,
    too_far_on_the_ground,
    too_far_through,
)
from fibua.rulesets.house_clearing.state import HouseClearingState
from fibua.scenario.loader import bundled_scenarios, load_scenario

CASES = 700
GROUND_ALONE = "more than a whole move over the ground alone"
THROUGH_A_WALL = "blocked"  # the code of a move refused for going through a wall


def _house_clearing() -> list[str]:
    return sorted(n for n in bundled_scenarios()
                  if load_scenario(n).scenario.ruleset == "house-clearing")


def _start(state: HouseClearingState, rng: random.Random) -> Position:
    """A random place on the table, on a random floor of the building there."""
    table = state.battlefield.table
    x, y = round(rng.uniform(0, table.width), 2), round(rng.uniform(0, table.height), 2)
    section = state.sight.section_at((x, y))
    floor = 0
    if section is not None:
        floor = rng.randrange(state.battlefield.section(section).levels)
    return Position(x, y, section, floor)


def _params(start: Position, rng: random.Random) -> dict[str, Any]:
    """A path of a few legs of random heading and length (some off the table, some longer
    than any whole move), sometimes with a floor to end on."""
    points, x, y = [], start.x, start.y
    for _ in range(rng.choice((1, 1, 2, 3, 5))):
        step = rng.uniform(0.2, 6.0)
        heading = rng.uniform(0, 6.2832)
        x, y = round(x + step * rng.choice((-1, 1)) * abs(heading - 3.1416) / 3.1416, 2), \
            round(y + step * rng.choice((-1, 1)) * (1 - abs(heading - 3.1416) / 3.1416), 2)
        points.append([x, y])
    params: dict[str, Any] = {"path": points} if len(points) > 1 or rng.random() < 0.5 \
        else {"to": points[0]}
    if rng.random() < 0.15:
        params["floor"] = rng.randrange(3)
    return params


@pytest.mark.parametrize("name", _house_clearing())
def test_the_ground_look_agrees_with_the_full_check(name: str) -> None:
    game = Game(load_scenario(name), 5)
    state: HouseClearingState = game.state  # type: ignore[assignment]
    side = state.sides[0]
    geometry = game.observe(side).geometry  # the side's own map, as its player reads it
    figure = next(f for f in state.figures.values() if f.side == side)
    rng = random.Random(name)
    counts = {"ground": 0, "refused-cheaply": 0, "allowed": 0}
    for _ in range(CASES):
        figure.pos = _start(state, rng)
        params = _params(figure.pos, rng)
        cheap = too_far_on_the_ground(geometry, figure.pos, params)
        try:
            plan_move(state, figure, params)
        except IllegalOrder as refusal:
            ground_alone = GROUND_ALONE in refusal.reason
            assert cheap or not ground_alone, (figure.pos, params, refusal.reason)
            counts["ground"] += ground_alone
            counts["refused-cheaply"] += cheap
        else:
            assert not cheap, (figure.pos, params)
            counts["allowed"] += 1
    # the cases reach every outcome: the agreement is not an empty one
    assert min(counts.values()) >= CASES // 20, counts


def test_bad_parameters_are_left_to_the_full_check() -> None:
    game = Game(load_scenario(_house_clearing()[0]), 5)
    geometry = game.observe(game.state.sides[0]).geometry  # type: ignore[attr-defined]
    start = Position(1.0, 1.0)
    for params in ({}, {"path": []}, {"to": "here"}, {"to": [-5.0, 1.0]},
                   {"path": [[1.0, 1.0]] * 40}):
        assert not too_far_on_the_ground(geometry, start, params)
    assert too_far_on_the_ground(geometry, start, {"to": [1.0, 12.0]})  # 11in: no ground


@pytest.mark.parametrize("name", _house_clearing())
def test_the_wall_look_agrees_with_the_full_check(name: str) -> None:
    game = Game(load_scenario(name), 5)
    state: HouseClearingState = game.state  # type: ignore[attr-defined]
    side = state.sides[0]
    sight = game.observe(side).sight  # the side's own fork, as its player reads it
    figure = next(f for f in state.figures.values() if f.side == side)
    rng = random.Random(name)
    counts = {"walls": 0, "other refusals": 0, "allowed": 0}
    for _ in range(CASES):
        figure.pos = _start(state, rng)
        # mostly short steps, so that walls rather than distance decide
        heading, step = rng.uniform(0, 6.2832), rng.uniform(0.3, 4.0)
        x = round(figure.pos.x + step * math.cos(heading), 2)
        y = round(figure.pos.y + step * math.sin(heading), 2)
        table = state.battlefield.table
        if not (0 <= x <= table.width and 0 <= y <= table.height):
            continue
        cheap = step_through_wall(sight, figure.pos, x, y)
        try:
            plan_move(state, figure, {"to": [x, y]})
        except IllegalOrder as refusal:
            through = refusal.code == THROUGH_A_WALL
            assert cheap == through or refusal.code == "too-far", \
                (figure.pos, (x, y), refusal.reason)
            counts["walls" if through else "other refusals"] += 1
        else:
            assert not cheap, (figure.pos, (x, y))
            counts["allowed"] += 1
    # the cases reach every outcome: the agreement is not an empty one
    assert min(counts.values()) >= CASES // 50, counts


@pytest.mark.parametrize("name", _house_clearing())
def test_the_compiled_ground_look_agrees_with_the_python_one(name: str) -> None:
    """`too_far_through` (one compiled call, as the computer asks it of a walk) answers as
    `too_far_on_the_ground` does, on paths of every outcome."""
    game = Game(load_scenario(name), 5)
    state: HouseClearingState = game.state  # type: ignore[assignment]
    geometry = game.observe(state.sides[0]).geometry
    rng = random.Random(f"compiled {name}")
    counts = {True: 0, False: 0}
    for _ in range(CASES):
        start = _start(state, rng)
        params = _params(start, rng)
        points = params.get("path") or [params["to"]]
        expected = too_far_on_the_ground(geometry, start, {"path": points})
        assert too_far_through(geometry, start, np.array(points, dtype=np.float64)) \
            == expected, (start, points)
        counts[expected] += 1
    assert min(counts.values()) >= CASES // 10, counts


def test_a_measure_at_a_limit_is_left_to_python() -> None:
    """Where the compiled measure falls on a limit, the kernel does not answer: Python's
    own `hypot` settles it."""
    game = Game(load_scenario(_house_clearing()[0]), 5)
    geometry = game.observe(game.state.sides[0]).geometry  # type: ignore[attr-defined]
    start = Position(1.0, 1.0)
    path = np.array([[4.0, 5.0], [4.5, 5.0]])  # 5in then half an inch
    assert geometry.ground_refusal(start, path, 5.5, 1.0, 9.0) == UNTOLD
    assert geometry.ground_refusal(start, path, 9.0, 5.5, 9.0) == UNTOLD
    assert geometry.ground_refusal(start, path, 5.0, 1.0, 9.0) == 1  # longer than the reach
    assert geometry.ground_refusal(start, path, 9.0, 6.0, 9.0) == 0  # shorter than short


def test_a_whole_move_in_the_open_is_not_too_far_for_the_ground_look() -> None:
    # the seed: "Troops in the open/on roads ... 9"": a 9in move in the open is a whole
    # move, not more; the quick look refuses it no sooner than the full check does
    from fibua.rulesets.house_clearing.movement import too_far_along
    from hc_helpers import figure, new_game

    game = new_game([figure("b1", "rifle", (23, 10))], [figure("r1", "rifle", (2, 23))])
    geometry = game.observe("blue").geometry  # type: ignore[attr-defined]
    start = game.state.figures["b1"].pos
    assert not too_far_along(geometry, start, [(23.0, 19.0)])  # 9in exactly
    assert too_far_along(geometry, start, [(23.0, 19.01)])
    plan_move(game.state, game.state.figures["b1"], {"to": [23.0, 19.0]})  # allowed
