"""A small Street Fighter test table (cm) and helpers to set up positions and force dice.

The table is 80 x 80 cm:
- "house": a brick building area, footprint 20..32 x 20..30, a door in the middle of the
  south wall and a window in the middle of each other wall;
- "bunker": a strong building area, footprint 50..58 x 50..56, a slit in each wall;
- "shed": a brick building area 20..26 x 40..46 with a door on its south wall;
- a low wall from (5, 10) to (15, 10); a high wall from (40, 0) to (40, 15);
- rubble at 60..70 x 10..20.
Each side has one formation unless told otherwise, so a game starts with two observation
d10s (blue's formation, then red's) at the start of every turn.
"""

from __future__ import annotations

from typing import Any

from fibua.battlefield.model import Position
from fibua.core.dice import ForcedDice
from fibua.core.game import Game
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario


def unit(uid: str, kind: str, at: tuple[float, float] | None = None, rides: str | None = None,
         candidates: list[tuple[float, float]] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "name": uid.replace("-", " ").title(), "kind": kind}
    if at is not None:
        out["at"] = list(at)
    if rides is not None:
        out["rides"] = rides
    if candidates is not None:
        out["candidates"] = [list(c) for c in candidates]
    return out


def _section(sid: str, box: tuple[float, float, float, float], construction: str,
             openings: list[dict[str, Any]]) -> dict[str, Any]:
    x0, y0, x1, y1 = box
    return {"id": sid, "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
            "construction": construction, "openings": openings}


def _opening(kind: str, wall: int, at: float, width: float = 2.0) -> dict[str, Any]:
    return {"kind": kind, "wall": wall, "at": at, "width": width}


MAP: dict[str, Any] = {
    "width": 80, "height": 80, "unit": "cm",
    "terrain": [{"id": "rubble", "kind": "rubble",
                 "polygon": [[60, 10], [70, 10], [70, 20], [60, 20]]}],
    "obstacles": [
        {"id": "low", "kind": "low-wall", "points": [[5, 10], [15, 10]]},
        {"id": "high", "kind": "high-wall", "points": [[40, 0], [40, 15]]},
    ],
    "buildings": [
        {"id": "house-b", "name": "House", "sections": [_section(
            "house", (20, 20, 32, 30), "brick",
            [_opening("door", 0, 6), _opening("window", 1, 5), _opening("window", 2, 6),
             _opening("window", 3, 5)])]},
        {"id": "bunker-b", "name": "Bunker", "sections": [_section(
            "bunker", (50, 50, 58, 56), "strong",
            [_opening("slit", w, 3, 1.0) for w in range(4)])]},
        {"id": "shed-b", "name": "Shed", "sections": [_section(
            "shed", (20, 40, 26, 46), "brick", [_opening("door", 0, 3)])]},
    ],
}


def table_dict(blue: list[dict[str, Any]], red: list[dict[str, Any]], turns: int = 6,
               options: dict[str, Any] | None = None,
               blue_extra: list[list[dict[str, Any]]] | None = None,
               victory: list[dict[str, Any]] | None = None,
               red_artillery: int = 0, blue_artillery: int = 0) -> dict[str, Any]:
    blue_formations = [{"id": "blue-1", "name": "Blue 1", "units": blue}]
    for i, units in enumerate(blue_extra or []):
        blue_formations.append({"id": f"blue-{i + 2}", "name": f"Blue {i + 2}",
                                "units": units})
    return {
        "scenario": {"name": "test-table", "title": "Test table", "ruleset": "street-fighter",
                     "turns": turns},
        "map": MAP,
        "sides": [
            {"name": "blue", "title": "Blue", "player": "human",
             "deployment": [[0, 0], [80, 0], [80, 8], [0, 8]],
             "forces": {"formations": blue_formations, "artillery": blue_artillery}},
            {"name": "red", "title": "Red", "player": "computer",
             "deployment": [[0, 72], [80, 72], [80, 80], [0, 80]],
             "forces": {"formations": [{"id": "red-1", "name": "Red 1", "units": red}],
                        "doctrine": "defend", "artillery": red_artillery}},
        ],
        "victory": victory or [],
        "options": options or {},
    }


def make_scenario(blue: list[dict[str, Any]], red: list[dict[str, Any]], **kw: Any) -> Scenario:
    return scenario_from_dict(table_dict(blue, red, **kw), "test-table")


def forced_game(scenario: Scenario, faces: list[int]) -> Game:
    """A game whose dice are the given faces, in order (read 0-9 on the d10)."""
    return Game(scenario, seed=0, rng=ForcedDice(seed=0, faces=list(faces)))


def put(game: Game, uid: str, x: float, y: float) -> None:
    """Place a unit (test set-up only) and work out again what each side sees."""
    from fibua.rulesets.street_fighter.knowledge import refresh

    state = game.state
    u = state.units[uid]
    u.pos = Position(x, y, state.sight.section_at((x, y)))
    for p in u.passengers:
        state.units[p].pos = u.pos
    refresh(state)
    state.pending.clear()
