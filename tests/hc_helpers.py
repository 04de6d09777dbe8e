"""A small House-Clearing test table and helpers to set up positions and force dice.

The table is 24 x 24 inches, open ground unless stated:
- "house": a two-storey section, footprint 10..16 x 10..16; a door in its south wall
  (x 12.5..13.5), windows in its west wall (y 12.5..13.5) on both floors and in its east
  wall on the ground floor (y 12.5..13.5);
- "shed": a one-storey section, footprint 0.5..3.3 x 11..15, with a door in its east wall
  (y 12.5..13.5) facing the house's west window across 6.7in of open ground;
- a building plot (tile ground) at 2..8 x 17..23;
- a low wall (0.5in) from (2, 6) to (8, 6); a high wall (1.5in) from (18, 2) to (18, 8);
- a hedge (1in) from (20, 14) to (20, 20); a factory wall (2in) from (22, 2) to (22, 8).
Figures get fixed statistics (initiative 2, skill 100) unless a test asks otherwise, so the
only dice are the ones a test forces.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fibua.battlefield.model import Position
from fibua.core.dice import ForcedDice
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.rulesets.house_clearing.geometry import MapGeometry
from fibua.rulesets.house_clearing.tables import Stance
from fibua.scenario.loader import load_scenario, scenario_from_dict
from fibua.scenario.schema import Scenario


def figure(fid: str, weapon: str, at: tuple[float, float], initiative: int | None = 2,
           skill: int | None = 100, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": fid, "name": fid.replace("-", " ").title(), "weapon": weapon,
                           "at": list(at)}
    if initiative is not None:
        out["initiative"] = initiative
    if skill is not None:
        out["skill"] = skill
    out.update(extra)
    return out


def players(side: str, figs: list[dict[str, Any]], split: int = 1) -> list[dict[str, Any]]:
    """The figures as `split` players of about equal size."""
    size = max(1, -(-len(figs) // split))
    groups = [figs[i:i + size] for i in range(0, len(figs), size)]
    return [{"id": f"{side}-{i + 1}", "name": f"{side.title()} player {i + 1}", "figures": g}
            for i, g in enumerate(groups)]


def table_dict(blue: list[dict[str, Any]], red: list[dict[str, Any]], turns: int = 6,
               options: dict[str, Any] | None = None, split: int = 1,
               victory: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "scenario": {"name": "hc-test-table", "title": "Test table",
                     "ruleset": "house-clearing", "turns": turns},
        "map": {
            "width": 24, "height": 24, "unit": "inch",
            "terrain": [{"id": "tile", "kind": "plot",
                         "polygon": [[2, 17], [8, 17], [8, 23], [2, 23]]}],
            "obstacles": [
                {"id": "low", "kind": "low-wall", "points": [[2, 6], [8, 6]], "height": 0.5},
                {"id": "high", "kind": "high-wall", "points": [[18, 2], [18, 8]],
                 "height": 1.5},
                {"id": "hedge", "kind": "hedge", "points": [[20, 14], [20, 20]],
                 "height": 1.0},
                {"id": "factory", "kind": "high-wall", "points": [[22, 2], [22, 8]],
                 "height": 2.0},
            ],
            "buildings": [
                {"id": "house-b", "name": "House", "sections": [{
                    "id": "house", "footprint": [[10, 10], [16, 10], [16, 16], [10, 16]],
                    "floors": 2,
                    "openings": [
                        {"kind": "door", "wall": 0, "floor": 0, "at": 3, "width": 1},
                        {"kind": "window", "wall": 3, "floor": 0, "at": 3, "width": 1},
                        {"kind": "window", "wall": 3, "floor": 1, "at": 3, "width": 1},
                        {"kind": "window", "wall": 1, "floor": 0, "at": 3, "width": 1},
                    ],
                }]},
                {"id": "shed-b", "name": "Shed", "sections": [{
                    "id": "shed", "footprint": [[0.5, 11], [3.3, 11], [3.3, 15], [0.5, 15]],
                    "openings": [{"kind": "door", "wall": 1, "floor": 0, "at": 2,
                                  "width": 1}],
                }]},
            ],
        },
        "sides": [
            {"name": "blue", "title": "Blue", "forces": {"players": players("blue", blue, split)}},
            {"name": "red", "title": "Red", "forces": {"players": players("red", red)}},
        ],
        "victory": victory or [],
        "options": options or {},
    }


def make_scenario(blue: list[dict[str, Any]], red: list[dict[str, Any]], **kw: Any) -> Scenario:
    return scenario_from_dict(table_dict(blue, red, **kw), "hc-test-table")


def forced_game(scenario: Scenario, faces: list[int]) -> Game:
    """A game whose dice are the given faces, in order (statistics rolls included)."""
    return Game(scenario, seed=0, rng=ForcedDice(seed=0, faces=list(faces)))


def new_game(blue: list[dict[str, Any]], red: list[dict[str, Any]], faces: list[int] | None = None,
             **kw: Any) -> Game:
    return forced_game(make_scenario(blue, red, **kw), faces or [])


def put(game: Game, fid: str, x: float, y: float, floor: int = 0,
        stance: str | None = None) -> None:
    """Place a figure (test set-up only) and refresh what each side sees."""
    from fibua.rulesets.house_clearing.knowledge import refresh_sight
    from fibua.rulesets.house_clearing.tables import Stance

    state = game.state
    f = state.figures[fid]
    f.pos = Position(x, y, state.sight.section_at((x, y)), floor)
    if stance is not None:
        f.stance = Stance(stance)
    refresh_sight(state, [f])
    state.pending.clear()


def act(game: Game, kind: str, fid: str, **params: Any) -> list[Event]:
    return game.apply(Order(game.state.figures[fid].side, kind, fid, params))


def order(game: Game, kind: str, fid: str, **params: Any) -> Order:
    return Order(game.state.figures[fid].side, kind, fid, params)


def end(game: Game, times: int = 1) -> list[Event]:
    out: list[Event] = []
    for _ in range(times):
        side = game.to_act()
        assert side is not None
        out += game.apply(Order(side, "end"))
    return out


def let_go(game: Game) -> list[Event]:
    """The enemy of a mover is asked after every move; here it has nobody who may fire
    and can only let the mover go."""
    side = game.to_act()
    assert side is not None and game.state.reaction is not None
    assert game.legal_orders(side) == [Order(side, "end")]
    return game.apply(Order(side, "end"))


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def all_dice_used(game: Game) -> bool:
    return bool(game.state.rng.faces == [])


def random_places(geometry: MapGeometry, n: int, seed: int) -> list[Position]:
    """Random places over the table, many near the buildings' openings (where the screen
    and leaning change), on every floor of the section holding them."""
    rng = random.Random(seed)
    sight = geometry.sight
    field = sight.battlefield
    rows = [row for rs in geometry._openings.values() for row in rs.segs.tolist()]
    out = []
    for k in range(n):
        if rows and k % 2:
            x0, y0, x1, y1 = rng.choice(rows)
            t = rng.random()
            x = x0 + (x1 - x0) * t + rng.uniform(-1.2, 1.2)
            y = y0 + (y1 - y0) * t + rng.uniform(-1.2, 1.2)
        else:
            x, y = rng.uniform(0, field.table.width), rng.uniform(0, field.table.height)
        x = min(max(x, 0.0), field.table.width)
        y = min(max(y, 0.0), field.table.height)
        section = sight.section_at((x, y))
        levels = field.section(section).levels if section else 1
        out.append(Position(x, y, section, rng.randrange(levels)))
    return out


def map_geometry(name: str) -> MapGeometry:
    state = Game(load_scenario(name), 1).state
    geometry: MapGeometry = state.geometry
    return geometry


#: two crowds of figures facing each other: places and stances of each
Crowds = tuple[list[Position], list[Stance], list[Position], list[Stance]]


def facing_crowds(geometry: MapGeometry, a: tuple[int, int], b: tuple[int, int],
                  seed: int) -> Crowds:
    """Random places (`random_places` with each (count, seed)) and random stances."""
    rng = random.Random(seed)
    here, there = random_places(geometry, *a), random_places(geometry, *b)
    stances = list(Stance)
    return (here, [rng.choice(stances) for _ in here],
            there, [rng.choice(stances) for _ in there])


def seeing_pairs(of_b: Any, of_a: Any, crowds: Crowds,
                 expected: Callable[[int, int], tuple[int, int]]) -> int:
    """Check who sees whom, pair by pair ((of_b[i, j], of_a[i, j]) against `expected(i,
    j)`), and count the pairs where someone sees."""
    a, _, b, _ = crowds
    pairs = 0
    for i in range(len(a)):
        for j in range(len(b)):
            want = expected(i, j)
            assert (int(of_b[i][j]), int(of_a[i][j])) == want, (a[i], b[j])
            pairs += want != (0, 0)
    return pairs
