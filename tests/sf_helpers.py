"""A small Street-Fight test table and helpers to set up positions and force dice.

The table is 24 x 24 inches: a two-storey house (section "house", footprint 10..16 x
10..16) with a door on its south wall and windows on the west wall on both floors; a low
wall from (2, 6) to (8, 6); a high wall from (18, 2) to (18, 8); a rubble patch at
2..5 x 18..21.
"""

from __future__ import annotations

from typing import Any

from fibua.battlefield.model import Position
from fibua.core.dice import ForcedDice
from fibua.core.game import Game
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario


def figure(fid: str, weapon: str, at: tuple[float, float], floor: int = 0) -> dict[str, Any]:
    return {"id": fid, "name": fid.replace("-", " ").title(), "weapon": weapon,
            "at": list(at), "floor": floor}


def table_dict(
    blue: list[dict[str, Any]], red: list[dict[str, Any]], turns: int = 6,
    options: dict[str, Any] | None = None, blue_units: int = 1,
) -> dict[str, Any]:
    def units(side: str, figs: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
        if n == 1:
            return [{"id": f"{side}-unit", "name": f"{side} unit", "figures": figs}]
        return [{"id": f"{side}-{i}", "name": f"{side} {i}", "figures": [f]}
                for i, f in enumerate(figs)]

    return {
        "scenario": {"name": "test-table", "title": "Test table", "ruleset": "street-fight",
                     "turns": turns},
        "map": {
            "width": 24, "height": 24, "unit": "inch",
            "terrain": [{"id": "rubble", "kind": "rubble",
                         "polygon": [[2, 18], [5, 18], [5, 21], [2, 21]]}],
            "obstacles": [
                {"id": "low", "kind": "low-wall", "points": [[2, 6], [8, 6]]},
                {"id": "high", "kind": "high-wall", "points": [[18, 2], [18, 8]]},
            ],
            "buildings": [{
                "id": "house-b", "name": "House",
                "sections": [{
                    "id": "house", "footprint": [[10, 10], [16, 10], [16, 16], [10, 16]],
                    "floors": 2,
                    "openings": [
                        {"kind": "door", "wall": 0, "floor": 0, "at": 3, "width": 1},
                        {"kind": "window", "wall": 3, "floor": 0, "at": 3, "width": 1},
                        {"kind": "window", "wall": 3, "floor": 1, "at": 3, "width": 1},
                    ],
                }],
            }],
        },
        "sides": [
            {"name": "blue", "title": "Blue", "forces": {"units": units("blue", blue, blue_units)}},
            {"name": "red", "title": "Red", "forces": {"units": units("red", red, 1)}},
        ],
        "options": options or {},
    }


def make_scenario(blue: list[dict[str, Any]], red: list[dict[str, Any]], **kw: Any) -> Scenario:
    return scenario_from_dict(table_dict(blue, red, **kw), "test-table")


def forced_game(scenario: Scenario, faces: list[int]) -> Game:
    """A game whose dice are the given faces, in order; initiative rolls included."""
    return Game(scenario, seed=0, rng=ForcedDice(seed=0, faces=list(faces)))


def put(game: Game, fid: str, x: float, y: float, floor: int = 0) -> None:
    """Place a figure (test set-up only) and refresh what each side sees."""
    from fibua.rulesets.street_fight.knowledge import refresh_sight

    state = game.state
    f = state.figures[fid]
    f.pos = Position(x, y, state.sight.section_at((x, y)), floor)
    refresh_sight(state, [f])
    state.pending.clear()
