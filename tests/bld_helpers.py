"""A small Buildings test table and helpers to place units and force dice.

The table is 36 x 24 inches, open ground unless stated:
- "brick": a two-floor brick section, footprint 14..20 x 10..16; a door in its south wall
  (x 16.5..17.5) and a window in its east wall (y 12.5..13.5) on the ground floor, windows
  in its west wall (y 12.5..13.5) and its south wall (x 16.5..17.5) on floor 1;
- "house": a one-floor wooden section, footprint 26..30 x 4..8, a door in its west wall
  (y 5.5..6.5) and a window in its north wall (x 27.5..28.5);
- rubble at 8..11 x 18..21.
Allies deploy at x <= 10, axis at x >= 24. Two infantry units a side: the allies' rifle
and SMG squads in the open, the axis grenadiers inside the house and an MMG team outside.
"""

from __future__ import annotations

from typing import Any

from fibua.core.dice import ForcedDice
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario


def row(x: float, y: float, n: int, step: float = 1.0) -> list[dict[str, Any]]:
    """n models in a row eastwards from (x, y), 1in apart."""
    return [{"at": [x + step * k, y]} for k in range(n)]


def line(x: float, y: float, n: int, step: float = 1.0) -> list[tuple[float, float]]:
    """n points in a row eastwards from (x, y), `step` apart (for `put`)."""
    return [(x + step * k, y) for k in range(n)]


def unit(uid: str, models: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "name": uid.replace("-", " ").title(), "models": models}
    out.update(extra)
    return out


def default_allies() -> list[dict[str, Any]]:
    return [unit("rifles", row(2, 5, 5) + row(2, 6, 5), type="rifle-squad"),
            unit("smgs", row(2, 16, 4), weapon="smg")]


def default_axis() -> list[dict[str, Any]]:
    return [unit("grenadiers", row(27, 5, 6), weapon="rifle",
                 inside={"section": "house", "floor": 0}),
            unit("mg", row(32, 14, 3), type="mmg-team")]


def table_dict(allies: list[dict[str, Any]] | None = None,
               axis: list[dict[str, Any]] | None = None, turns: int = 6,
               options: dict[str, Any] | None = None,
               victory: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "scenario": {"name": "buildings-test-table", "title": "Test table",
                     "ruleset": "buildings", "turns": turns},
        "map": {
            "width": 36, "height": 24, "unit": "inch",
            "terrain": [{"id": "ruin", "kind": "rubble",
                         "polygon": [[8, 18], [11, 18], [11, 21], [8, 21]]}],
            "buildings": [
                {"id": "brick-b", "name": "Brick house", "sections": [{
                    "id": "brick", "footprint": [[14, 10], [20, 10], [20, 16], [14, 16]],
                    "floors": 2, "construction": "brick",
                    "openings": [
                        {"kind": "door", "wall": 0, "floor": 0, "at": 3, "width": 1},
                        {"kind": "window", "wall": 1, "floor": 0, "at": 3, "width": 1},
                        {"kind": "window", "wall": 3, "floor": 1, "at": 3, "width": 1},
                        {"kind": "window", "wall": 0, "floor": 1, "at": 3, "width": 1},
                    ],
                }]},
                {"id": "house-b", "name": "Wooden house", "sections": [{
                    "id": "house", "footprint": [[26, 4], [30, 4], [30, 8], [26, 8]],
                    "construction": "wooden",
                    "openings": [
                        {"kind": "door", "wall": 3, "floor": 0, "at": 2, "width": 1},
                        {"kind": "window", "wall": 2, "floor": 0, "at": 2, "width": 1},
                    ],
                }]},
            ],
        },
        "sides": [
            {"name": "allies", "title": "Allies",
             "deployment": [[0, 0], [10, 0], [10, 24], [0, 24]],
             "forces": {"units": allies if allies is not None else default_allies()}},
            {"name": "axis", "title": "Axis",
             "deployment": [[24, 0], [36, 0], [36, 24], [24, 24]],
             "forces": {"units": axis if axis is not None else default_axis()}},
        ],
        "victory": victory if victory is not None else [
            {"side": "allies", "kind": "hold", "sections": ["house"], "points": 2,
             "description": "take the wooden house"},
            {"side": "axis", "kind": "hold", "sections": ["brick"], "points": 1,
             "description": "hold the brick house"},
        ],
        "options": options or {},
    }


def make_scenario(**kw: Any) -> Scenario:
    return scenario_from_dict(table_dict(**kw), "buildings-test-table")


def forced_game(scenario: Scenario, faces: list[int]) -> Game:
    """A game whose dice are the given faces, in order (the first draw from the bag
    included)."""
    return Game(scenario, seed=0, rng=ForcedDice(seed=0, faces=list(faces)))


def force(game: Game, faces: list[int]) -> None:
    """Replace the dice still to come."""
    rng = game.state.rng
    assert isinstance(rng, ForcedDice)
    rng.faces[:] = list(faces)


def draw_for(game: Game, side: str) -> None:
    """Make it `side`'s die that was drawn (test set-up only)."""
    game.state.drawn = side
    game.state.pending.clear()


def put(game: Game, uid: str, points: list[tuple[float, float]] | None = None,
        section: str | None = None, floor: int = 0) -> None:
    """Place a unit (test set-up only) and refresh what each side sees."""
    from fibua.rulesets.buildings.geometry import centroid
    from fibua.rulesets.buildings.knowledge import refresh

    state = game.state
    u = state.units[uid]
    if section is not None:
        cx, cy = centroid(state.battlefield.section(section))
        points = [(cx, cy)] * len(u.models)
    assert points is not None
    for m, (x, y) in zip(u.models, points, strict=False):
        m.x, m.y = x, y
    u.section, u.floor = section, floor
    refresh(state)
    state.pending.clear()


def act(game: Game, kind: str, uid: str, **params: Any) -> list[Event]:
    return game.apply(Order(game.state.units[uid].side, kind, uid, params))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def game(faces: list[int] | None = None, **kw: Any) -> Game:
    """The test table with the first draw forced to the allies (face 1 of the bag), then
    these faces."""
    g = forced_game(make_scenario(**kw), [1])
    force(g, faces or [])
    return g


def rolls_of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]

