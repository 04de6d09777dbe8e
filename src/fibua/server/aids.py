"""Aids on the map a wargamer expects of a virtual table: where a unit may go, what could be
seen from a point, and the table's measure (the page's tape and odds on hover need no more).

- **Reach** (`GET /api/games/ID/reach?unit=U&kind=K[&params=JSON]`, a seat): the places a
  unit of the seat may be sent by an order of kind K now, as a grid of cells shaded on the
  map. Each cell's centre is put to the rules as the order's point (`RuleSet.allows`, the
  very check the order would get), so the shading is the rules' own legality and tells no
  more than previewing those orders one by one would: it is asked only for the seat's own
  unit while it may act, names in `params` the side has not seen are answered as unknown
  names are, and the answer holds no refusal's words. The grid is centred on the unit, its
  cells sized from the farthest point the unit's listed orders of that kind name, and
  bounded (rings of cells out from the unit, stopping at the first empty ring past the
  listed reach): a request tests at most (2 REACH_MOST + 1)^2 points, kept for the game's
  version.
- **Sight** (`GET /api/games/ID/sight?x=&y=[&floor=]`, any holder of the game): which cells
  of the table are in line of sight from a point, from the public battlefield alone (the
  sight engine over walls, openings, buildings and sight-blocking obstacles, with the
  burning or ruined sections the asking side's view reports): no troop of any side is
  part of the question.
- **Table** (`GET /api/games/ID/table`, anyone, like the map): its size and unit, for the
  tape's figure.

A shading is `{origin: [x, y], cell, cols, rows, runs: [[row, first col, last col]...]}`,
rows counted northwards from the origin (the table's south-west corner of the grid).
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from fibua.battlefield.model import Position, SectionState, Table
from fibua.battlefield.sight import BoolArray, PositionArrays, SightEngine
from fibua.core.orders import Order
from fibua.core.state import sight_engine
from fibua.core.values import is_number
from fibua.server.access import ApiError
from fibua.server.app import Server, bearer, server_of
from fibua.server.bodies import loads
from fibua.server.hub import Hub, LiveGame, SeatPlan
from fibua.server.maplayer import section_states
from fibua.session.figures import has_position

#: cells each side of the unit always tested for its reach
REACH_ALWAYS = 11
#: the most cells each side of the unit tested (bounds a request's work)
REACH_MOST = 14
#: how far past the farthest listed point of the kind the always-tested cells go
REACH_MARGIN = 1.2
#: the least reach the grid is sized for, in table units (a kind listed only in place)
REACH_LEAST = 1.0
#: cells along the table's longer side for the sight shading
SIGHT_CELLS = 100
#: answers kept for one version of a game (more are worked out but not kept)
MAX_KEPT = 32
#: the longest `params` text a reach request takes
MAX_PARAMS_CHARS = 2000


@dataclass(frozen=True, slots=True)
class Grid:
    """Square cells over part of the table: cell (row, col) spans x0 + col * cell to
    x0 + (col + 1) * cell, and so for y with rows."""

    x0: float
    y0: float
    cell: float
    cols: int
    rows: int

    def centre(self, row: int, col: int) -> tuple[float, float]:
        """A cell's centre as an order names a point (to the hundredth)."""
        return (round(self.x0 + (col + 0.5) * self.cell, 2),
                round(self.y0 + (row + 0.5) * self.cell, 2))

    def shading(self, marked: set[tuple[int, int]]) -> dict[str, Any]:
        return {"origin": [self.x0, self.y0], "cell": self.cell, "cols": self.cols,
                "rows": self.rows, "runs": runs(marked)}

    def shading_of(self, marked: BoolArray) -> dict[str, Any]:
        """`shading` of a (rows, cols) array of marks."""
        return {"origin": [self.x0, self.y0], "cell": self.cell, "cols": self.cols,
                "rows": self.rows, "runs": array_runs(marked)}


def grid_of(answer: Mapping[str, Any]) -> Grid:
    """The grid an answer's shading is drawn on (for a reader checking its cells)."""
    x0, y0 = answer["origin"]
    return Grid(float(x0), float(y0), float(answer["cell"]), int(answer["cols"]),
                int(answer["rows"]))


def cells_of(answer: Mapping[str, Any]) -> set[tuple[int, int]]:
    """The (row, col) of every cell an answer's runs shade."""
    return {(row, col) for row, first, last in answer["runs"]
            for col in range(first, last + 1)}


def runs(marked: set[tuple[int, int]]) -> list[list[int]]:
    """Marked cells as runs along each row: [row, first col, last col]."""
    found: list[list[int]] = []
    for row, col in sorted(marked):
        if found and found[-1][0] == row and found[-1][2] == col - 1:
            found[-1][2] = col
        else:
            found.append([row, col, col])
    return found


def array_runs(marked: BoolArray) -> list[list[int]]:
    """`runs` of a (rows, cols) array of marks, a row at a time."""
    found: list[list[int]] = []
    for row, line in enumerate(marked):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], line.view(np.int8), [0]))))
        found += [[row, int(a), int(b) - 1] for a, b in zip(edges[::2], edges[1::2],
                                                            strict=True)]
    return found


def on_table(table: Table, x: float, y: float) -> bool:
    return 0 <= x <= table.width and 0 <= y <= table.height


# -- where a unit may go -----------------------------------------------------------------------


class ReachQuery(BaseModel):
    """A reach request's query: the unit, the kind of order, and the order's other
    parameters (a target for a move-and-fire, a floor...) when not those of its first
    listed order of that kind."""

    model_config = ConfigDict(extra="forbid", strict=True)
    unit: str = Field(min_length=1, max_length=100)
    kind: str = Field(min_length=1, max_length=40)
    params: dict[str, JsonValue] | None = None


def point_param(params: Mapping[str, Any]) -> str | None:
    """The name of the parameter that is a place on the table ([x, y]), if any (as the page
    reads it)."""
    for name, value in params.items():
        if isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value):
            return name
    return None


@dataclass(frozen=True, slots=True)
class Template:
    """The order a reach varies: its kind and unit, its other parameters, the name of its
    point parameter, and how far from the unit the listed orders of that kind go."""

    order: Order
    param: str
    listed_reach: float


def template(live: LiveGame, seat: SeatPlan, query: ReachQuery,
             at: tuple[float, float]) -> Template | None:
    """From the unit's listed (legal) orders of the kind that name a point: the one with
    the fewest other parameters, unless the query gives them; None if it has none."""
    listed = [o for o in live.unit_legal(seat.side, query.unit)
              if o.kind == query.kind and point_param(o.params) is not None]
    if not listed:
        return None
    first = min(listed, key=lambda o: len(o.params))
    param = point_param(first.params)
    assert param is not None
    farthest = max(math.dist(at, o.params[param]) for o in listed
                   if point_param(o.params) == param)
    others = {k: v for k, v in first.params.items() if k != param}
    if query.params is not None:
        others = {k: v for k, v in query.params.items() if k != param}
    order = Order(seat.side, query.kind, query.unit, others)
    return Template(order, param, max(farthest, REACH_LEAST))


def masked(hub: Hub, live: LiveGame, side: str, params: dict[str, Any]) -> dict[str, Any]:
    """The parameters with every name of an enemy the side has not seen swapped for a
    name nobody has: the answer is then the one any unknown name gets. (Parameters that
    name nothing, most of them, spare the work of finding the names.)"""
    if not any(isinstance(v, str | list | dict) for v in params.values()):
        return params
    hidden = hub.hidden_names(live, side)

    def swap(value: Any) -> Any:
        if isinstance(value, str) and value in hidden:
            return f"zz{secrets.token_hex(4)}"
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    return {k: swap(v) for k, v in params.items()}


def ring(centre: int, k: int) -> Iterator[tuple[int, int]]:
    """The cells k cells out from the centre cell (a square ring; the centre for k = 0)."""
    if k == 0:
        yield centre, centre
        return
    low, high = centre - k, centre + k
    for col in range(low, high + 1):
        yield low, col
        yield high, col
    for row in range(low + 1, high):
        yield row, low
        yield row, high


def reach_cells(grid: Grid, allowed: Callable[[float, float], bool],
                table: Table) -> set[tuple[int, int]]:
    """The cells whose centre the rules allow, ring by ring out from the centre: every ring
    up to REACH_ALWAYS, then further ones while the last one had any (up to REACH_MOST)."""
    legal: set[tuple[int, int]] = set()
    for k in range(REACH_MOST + 1):
        found = False
        for row, col in ring(REACH_MOST, k):
            x, y = grid.centre(row, col)
            if on_table(table, x, y) and allowed(x, y):
                legal.add((row, col))
                found = True
        if k >= REACH_ALWAYS and not found:
            break
    return legal


def reach_of(live: LiveGame, seat: SeatPlan, query: ReachQuery,
             hub: Hub) -> dict[str, Any]:
    """The reach answer for a seat's unit (the request checked already)."""
    own = next((u for u in live.view(seat.side).get("own", [])
                if str(u.get("id")) == query.unit), None)
    answer: dict[str, Any] = {"unit": query.unit, "kind": query.kind, "param": None,
                              "origin": [0.0, 0.0], "cell": 0.0, "cols": 0, "rows": 0,
                              "runs": []}
    if own is None or not has_position(own):
        return answer
    at = (float(own["x"]), float(own["y"]))
    found = template(live, seat, query, at)
    if found is None:
        return answer
    game = live.game
    base = masked(hub, live, seat.side, found.order.params)
    cell = REACH_MARGIN * found.listed_reach / REACH_ALWAYS
    size = 2 * REACH_MOST + 1
    grid = Grid(at[0] - (REACH_MOST + 0.5) * cell, at[1] - (REACH_MOST + 0.5) * cell, cell,
                size, size)
    side, kind, unit, param = seat.side, query.kind, query.unit, found.param

    def allowed(x: float, y: float) -> bool:
        order = Order(side, kind, unit, {**base, param: [x, y]})
        return game.ruleset.allows(game.state, order)

    try:
        legal = reach_cells(grid, allowed, game.scenario.battlefield.table)
    except Exception as error:  # a check changes nothing: the game is as it was
        raise ApiError(500, "rules-fault", f"the rules failed on this question ({error})") \
            from None
    return answer | {"param": param} | grid.shading(legal)


def kept(live: LiveGame, what: str, side: str, work: Callable[[], dict[str, Any]]
         ) -> dict[str, Any]:
    """`live.once` for an aid's answer, but no more than MAX_KEPT of them a version (a
    page asking for many keeps nothing more)."""
    stamp = live.stamp()
    if stamp == live.kept_stamp:
        aids = sum(1 for key in live.kept if key[0].startswith("aid "))
        if aids >= MAX_KEPT and (what, side) not in live.kept:
            return work()
    return live.once(what, side, work)


def query_of(request: Request) -> ReachQuery:
    args = request.query_params
    raw = args.get("params")
    if raw is not None and len(raw) > MAX_PARAMS_CHARS:
        raise ApiError(413, "too-large", f"params is longer than {MAX_PARAMS_CHARS} "
                                         "characters")
    try:
        return ReachQuery.model_validate({
            "unit": args.get("unit", ""), "kind": args.get("kind", ""),
            "params": loads(raw, "params") if raw is not None else None})
    except ValidationError as error:
        problems = [f"{'.'.join(str(p) for p in item['loc']) or 'query'}: {item['msg']}"
                    for item in error.errors()]
        raise ApiError(422, "bad-request", "; ".join(problems)) from None


async def reach(request: Request) -> Response:
    server = server_of(request)
    query = query_of(request)
    found = await server.run(reach_answer, server, request.path_params["game"],
                             bearer(request), query)
    return JSONResponse(found)


def reach_answer(server: Server, game_id: str, token: str | None,
                 query: ReachQuery) -> dict[str, Any]:
    """In the engine thread: the seat's unit's reach, if the seat may give it that order
    now (the checks a preview gets), with the version of the seat's message."""
    hub = server.hub
    live, holder = hub.holder(game_id, token)
    seat = hub.seat_of(live, holder)
    hub.checked_order(live, seat, query.kind, query.unit, {})
    if not hub.may_act(live, seat):
        raise ApiError(409, "not-your-turn", "you have no orders to give now")
    _, version = server.message_for(live, holder)
    key = json.dumps([query.unit, query.kind, query.params], sort_keys=True)
    found = kept(live, f"aid reach {key}", seat.side, lambda: reach_of(live, seat, query, hub))
    return {"version": version, **found}


# -- what could be seen from a point -----------------------------------------------------------


def number(request: Request, name: str, default: float | None = None) -> float:
    raw = request.query_params.get(name)
    if raw is None and default is not None:
        return default
    try:
        value = float(raw) if raw is not None and len(raw) <= 40 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ApiError(422, "bad-request", f"{name} is a number")
    return value


def public_sight(live: LiveGame, states: Mapping[str, str]) -> SightEngine:
    """A fork of the map's engine with the sections in the states the asker knows of."""
    engine = sight_engine(live.game.scenario).fork()
    known = {sid: SectionState(st) for sid, st in states.items()
             if sid in engine.section_ids and st in set(SectionState)}
    engine.set_section_states(known)
    return engine


def sight_grid(table: Table) -> Grid:
    cell = max(table.width, table.height) / SIGHT_CELLS
    return Grid(0.0, 0.0, cell, math.ceil(table.width / cell), math.ceil(table.height / cell))


def sight_from(engine: SightEngine, x: float, y: float, floor: int) -> dict[str, Any]:
    """The cells of the table whose centre (on the ground, or on the observer's floor in
    its own section) is in line of sight from the point."""
    table = engine.battlefield.table
    grid = sight_grid(table)
    section = engine.section_at((x, y))
    observer = Position(x, y, section, floor if section is not None else 0)
    rows, cols = np.divmod(np.arange(grid.rows * grid.cols), grid.cols)
    xy = np.column_stack([np.minimum(grid.x0 + (cols + 0.5) * grid.cell, table.width),
                          np.minimum(grid.y0 + (rows + 0.5) * grid.cell, table.height)])
    sections = engine.section_indices(xy)
    own = engine.section_index(section) if section is not None else -2
    floors = np.where(sections == own, observer.floor, 0).astype(np.int64)
    seen = engine.visible_row(observer, PositionArrays(xy, sections, floors))
    return {"from": [x, y], "floor": observer.floor, "section": section,
            **grid.shading_of(seen.reshape(grid.rows, grid.cols))}


def sight_answer(server: Server, game_id: str, token: str | None, x: float, y: float,
                 floor: int) -> dict[str, Any]:
    """In the engine thread: the sight shading from (x, y) for a holder of the game."""
    hub = server.hub
    live, holder = hub.holder(game_id, token)
    table = live.game.scenario.battlefield.table
    if not on_table(table, x, y):
        raise ApiError(422, "off-table", f"({x:g}, {y:g}) is off the table")
    seat = live.seat(holder.seat) if holder.seat is not None else None
    states = section_states(live.view(seat.side)) if seat is not None else {}
    engine = public_sight(live, states)
    section = engine.section_at((x, y))
    levels = engine.battlefield.section(section).levels if section is not None else 1
    # the page asks from the floor its switch shows: a lower building is looked from its top
    return sight_from(engine, x, y, min(floor, levels - 1))


async def sight(request: Request) -> Response:
    server = server_of(request)
    x, y = number(request, "x"), number(request, "y")
    floor = number(request, "floor", 0.0)
    if floor != int(floor) or floor < 0:
        raise ApiError(422, "bad-floor", "floor is a whole number, 0 for the ground")
    found = await server.run(sight_answer, server, request.path_params["game"],
                             bearer(request), x, y, int(floor))
    return JSONResponse(found)


# -- the table ------------------------------------------------------------------------------------


async def table(request: Request) -> Response:
    server = server_of(request)
    game_id = request.path_params["game"]

    def measure() -> dict[str, Any]:
        found = server.hub.live(game_id).game.scenario.battlefield.table
        return {"width": found.width, "height": found.height, "unit": str(found.unit)}

    return JSONResponse(await server.run(measure))


def routes() -> list[BaseRoute]:
    """The aids' routes, to mount in the application."""
    return [
        Route("/api/games/{game}/reach", reach, methods=["GET"]),
        Route("/api/games/{game}/sight", sight, methods=["GET"]),
        Route("/api/games/{game}/table", table, methods=["GET"]),
    ]
