"""Mutated scenario files: each either loads and plays, or is refused with located problems.

A seeded mutator damages every bundled file in the ways people and tools damage files (a
key dropped, a value of the wrong type, a number made 0, negative, huge or not finite, an
unknown or repeated id, floors swapped, points swapped, the text cut short or overwritten
with random bytes). Loading must then give the scenario or a ScenarioError, never another
exception; and a scenario that loads must start a game that takes a few random orders.
"""

from __future__ import annotations

import contextlib
import copy
import math
import random
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fibua.core.errors import IllegalOrder, ScenarioError
from fibua.core.game import Game, LegalOrders
from fibua.core.ruleset import find_ruleset
from fibua.scenario.loader import bundled_scenarios, load_scenario, scenario_from_dict
from fibua.scenario.schema import Scenario

#: examples per bundled file, and random orders tried in a game that loads
EXAMPLES = 8
ORDERS = 6

BUNDLED = bundled_scenarios()
TEXTS = {name: path.read_text(encoding="utf-8") for name, path in BUNDLED.items()}
NUMBERS: tuple[Any, ...] = (0, -1, -7.5, 0.001, 1e20, -1e308, 2**63 - 1, 10**400,
                            math.nan, math.inf, -math.inf)
OTHER_TYPES: tuple[Any, ...] = ("text", 3, 2.5, True, [], {}, [1, 2], {"a": 1}, [[0, 0]])

Place = tuple[Any, Any]  # (container, key or index)


def places(value: Any) -> list[Place]:
    """(container, key) for every value nested in a table."""
    found: list[Place] = []
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        found.append((value, key))
        found += places(item)
    return found


def tables(value: Any) -> list[dict[str, Any]]:
    return [c[k] for c, k in places(value) if isinstance(c[k], dict)] + (
        [value] if isinstance(value, dict) else [])


def drop_key(raw: dict[str, Any], rng: random.Random) -> None:
    container, key = rng.choice(places(raw))
    del container[key]


def retype(raw: dict[str, Any], rng: random.Random) -> None:
    container, key = rng.choice(places(raw))
    old = container[key]
    container[key] = rng.choice([v for v in OTHER_TYPES if type(v) is not type(old)])


def bad_number(raw: dict[str, Any], rng: random.Random) -> None:
    numbers = [(c, k) for c, k in places(raw)
               if isinstance(c[k], int | float) and not isinstance(c[k], bool)]
    container, key = rng.choice(numbers)
    container[key] = rng.choice(NUMBERS)


def nudge(raw: dict[str, Any], rng: random.Random) -> None:
    """A number moved a little: mostly still valid, so odd places reach the game."""
    numbers = [(c, k) for c, k in places(raw)
               if isinstance(c[k], int | float) and not isinstance(c[k], bool)]
    for container, key in rng.sample(numbers, min(len(numbers), 4)):
        value = container[key] + rng.choice([-3, -1, -0.5, 0.5, 1, 3])
        container[key] = type(container[key])(value)


def unknown_id(raw: dict[str, Any], rng: random.Random) -> None:
    strings = [(c, k) for c, k in places(raw) if isinstance(c[k], str)]
    container, key = rng.choice(strings)
    container[key] = rng.choice(["no-such-id", "", "Bad Id!", "random"])


def duplicate_id(raw: dict[str, Any], rng: random.Random) -> None:
    owners = [t for t in tables(raw) if isinstance(t.get("id"), str)]
    first, second = rng.sample(owners, 2)
    second["id"] = first["id"]


def swap_floors(raw: dict[str, Any], rng: random.Random) -> None:
    """Two sections (or openings, or figures) trade floors: upper-floor openings and
    figures may be left on a floor that is gone."""
    owners = [t for t in tables(raw) if "footprint" in t or "floor" in t]
    first, second = rng.sample(owners, 2)
    key_a = "floors" if "footprint" in first else "floor"
    key_b = "floors" if "footprint" in second else "floor"
    first[key_a], second[key_b] = second.get(key_b, 1), first.get(key_a, 1)


def swap_points(raw: dict[str, Any], rng: random.Random) -> None:
    """Two points of a polygon or line trade places (an outline crossing itself, a
    footprint turned clockwise), or a point is moved off the table's edge."""
    lines = [c[k] for c, k in places(raw) if isinstance(c[k], list) and len(c[k]) >= 2
             and all(isinstance(p, list) and len(p) == 2 for p in c[k])]
    points = rng.choice(lines)
    i, j = rng.sample(range(len(points)), 2)
    if rng.random() < 0.5:
        points[i], points[j] = points[j], points[i]
    else:
        points[i] = [points[i][0] + rng.choice([-80, 80, 500]), points[i][1]]


MUTATIONS: tuple[Callable[[dict[str, Any], random.Random], None], ...] = (
    drop_key, retype, bad_number, nudge, unknown_id, duplicate_id, swap_floors, swap_points)


def mutated(name: str, seed: int) -> dict[str, Any]:
    rng = random.Random(f"{name}-{seed}")
    raw = copy.deepcopy(tomllib.loads(TEXTS[name]))
    for _ in range(rng.randint(1, 3)):
        rng.choice(MUTATIONS)(raw, rng)
    return raw


def check_refusal(error: ScenarioError, source: str, whole_file: bool = False) -> None:
    assert error.problems
    for problem in error.problems:
        assert problem.source == source
        assert problem.message
        assert problem.path or whole_file, problem


def play_a_little(scenario: Scenario, seed: int) -> None:
    game = Game(scenario, seed)
    ruleset = find_ruleset(scenario.ruleset)
    players = {side: ruleset.random_player(side, seed) for side in scenario.side_names}
    for _ in range(ORDERS):
        side = game.to_act()
        if side is None:
            break
        order = players[side].choose(game.observe(side), LegalOrders(game, side))
        with contextlib.suppress(IllegalOrder):
            game.apply(order)


CASES = [(name, seed) for name in BUNDLED for seed in range(EXAMPLES)]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_a_mutated_table_loads_and_plays_or_is_refused(name: str, seed: int) -> None:
    raw = mutated(name, seed)
    try:
        scenario = scenario_from_dict(raw, "mutated.toml")
    except ScenarioError as error:
        check_refusal(error, "mutated.toml")
    else:
        play_a_little(scenario, seed)


def cut_short(text: str, rng: random.Random) -> bytes:
    return text.encode()[: rng.randrange(len(text))]


def random_bytes(text: str, rng: random.Random) -> bytes:
    data = bytearray(text.encode())
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


@pytest.mark.parametrize(("name", "seed"), CASES)
@pytest.mark.parametrize("damage", [cut_short, random_bytes])
def test_a_damaged_file_loads_and_plays_or_is_refused(
    tmp_path: Path, name: str, seed: int, damage: Callable[[str, random.Random], bytes]
) -> None:
    data = damage(TEXTS[name], random.Random(f"{name}-{seed}"))
    path = tmp_path / "damaged.toml"
    path.write_bytes(data)
    try:
        scenario = load_scenario(path)
    except ScenarioError as error:
        try:
            tomllib.loads(data.decode("utf-8"))
            parsed = b"\0" not in data and bool(data.strip())
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            parsed = False
        check_refusal(error, str(path), whole_file=not parsed)
    else:
        play_a_little(scenario, seed)
