"""Terminal play: order parsing, readable events and dice, a Unicode map, and the play loop.

Everything here works from `Game.view(side)` (the keys every rule set fills), the events a
side may see and the battlefield geometry, so any registered rule set can be played.
Input is read line by line, so a pipe (tests, tmux, scripts) drives it as well as a person.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from fibua.battlefield.model import Battlefield, ObstacleKind, OpeningKind, Point, TerrainKind
from fibua.core.dice import describe_roll
from fibua.core.errors import FibuaError, IllegalOrder
from fibua.core.events import Event
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.core.ruleset import Player, Seat
from fibua.core.values import is_number

# -- orders as typed ------------------------------------------------------------------------


class OrderSyntaxError(ValueError):
    """A typed order that cannot be read (not a rules question: that is IllegalOrder)."""


def parse_value(text: str) -> Any:
    """A parameter value: JSON if it parses, `x,y` as a list of numbers, else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if "," in text:
        try:
            value = json.loads(f"[{text}]")
        except json.JSONDecodeError:
            return text
        if isinstance(value, list):
            return value
    return text


def parse_order(text: str, side: str) -> Order:
    """`KIND [UNIT] key=value ...` as an order of `side`."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise OrderSyntaxError(f"cannot read the order: {error}") from None
    if not words:
        raise OrderSyntaxError("empty order")
    kind, rest = words[0], words[1:]
    unit = None
    if rest and "=" not in rest[0]:
        unit, rest = rest[0], rest[1:]
    params: dict[str, Any] = {}
    for word in rest:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise OrderSyntaxError(f"{word!r}: parameters are written key=value")
        if key in params:
            raise OrderSyntaxError(f"parameter {key!r} given twice")
        params[key] = parse_value(value)
    return Order(side, kind, unit, params)


def format_value(value: Any) -> str:
    """A value as it can be typed back: numbers in a list as `x,y`, plain words bare."""
    if isinstance(value, list) and len(value) > 1 and all(is_number(v) for v in value):
        return ",".join(json.dumps(v) for v in value)
    if isinstance(value, str) and parse_value(value) == value and shlex.quote(value) == value:
        return value
    return shlex.quote(json.dumps(value, separators=(",", ":")))


def format_order(order: Order) -> str:
    """An order in the syntax `parse_order` reads."""
    words = [order.kind]
    if order.unit is not None:
        words.append(order.unit)
    words += [f"{key}={format_value(value)}" for key, value in order.params.items()]
    return " ".join(words)


# -- events and dice --------------------------------------------------------------------------


def is_roll(value: Any) -> bool:
    return isinstance(value, Mapping) and "dice" in value and "faces" in value


def _rolls_in(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    rolls: list[Mapping[str, Any]] = []
    for value in data.values():
        if is_roll(value):
            rolls.append(value)
        elif isinstance(value, list):
            rolls += [item for item in value if is_roll(item)]
    return rolls


def _short(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        # a list of units or figures: their names (or ids) say enough on one line
        names = [str(v.get("name", v.get("id", "?"))) for v in value]
        return f"{len(names)}: " + ", ".join(names)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def describe_event(event: Event) -> list[str]:
    """An event as lines: `turn N  kind: key=value ...`, then one line per roll."""
    plain = {
        key: value
        for key, value in event.data.items()
        if not is_roll(value) and not (isinstance(value, list) and any(map(is_roll, value)))
    }
    text = plain.pop("text", None)
    detail = " ".join(f"{key}={_short(value)}" for key, value in plain.items())
    head = f"turn {event.turn}  {event.kind}"
    if text is not None:
        head += f": {text}"
    if detail:
        head += f" ({detail})" if text is not None else f": {detail}"
    return [head] + [f"    {describe_roll(roll)}" for roll in _rolls_in(event.data)]


# -- the map ----------------------------------------------------------------------------------

TERRAIN_CHAR: dict[TerrainKind, str] = {
    TerrainKind.OPEN: " ",
    TerrainKind.ROAD: "·",
    TerrainKind.ROUGH: '"',
    TerrainKind.RUBBLE: "░",
    TerrainKind.PLOT: ",",
}
OBSTACLE_CHAR: dict[ObstacleKind, str] = {
    ObstacleKind.HIGH_WALL: "#",
    ObstacleKind.LOW_WALL: "=",
    ObstacleKind.HEDGE: "%",
    ObstacleKind.FENCE: ":",
}
BUILDING_CHAR = "▓"
SYMBOL_NAMES: dict[str, str] = {
    **{TERRAIN_CHAR[k]: f"{k.value}" for k in TerrainKind if k is not TerrainKind.OPEN},
    **{OBSTACLE_CHAR[k]: k.value for k in ObstacleKind},
    BUILDING_CHAR: "building",
    "∩": "door",
    "□": "window",
    "¦": "firing slit",
}
STYLE: dict[str, str] = {BUILDING_CHAR: "grey62", "#": "bold", "%": "green", "░": "yellow"}
OWN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ENEMY_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Grid:
    """The table cut into character cells; row 0 is the north edge."""

    width: float
    height: float
    cols: int
    rows: int

    @staticmethod
    def fit(width: float, height: float, max_cols: int = 76, max_rows: int = 34) -> Grid:
        # a character is about twice as tall as it is wide
        cols = max_cols
        rows = max(1, round(cols * height / width / 2))
        if rows > max_rows:
            rows = max_rows
            cols = max(1, min(max_cols, round(rows * 2 * width / height)))
        return Grid(width, height, cols, rows)

    def centre(self, col: int, row: int) -> Point:
        return (
            (col + 0.5) * self.width / self.cols,
            self.height - (row + 0.5) * self.height / self.rows,
        )

    def cell(self, x: float, y: float) -> tuple[int, int] | None:
        if not (0 <= x <= self.width and 0 <= y <= self.height):
            return None
        col = min(self.cols - 1, int(x / self.width * self.cols))
        row = min(self.rows - 1, int((self.height - y) / self.height * self.rows))
        return col, row

    @property
    def step(self) -> float:
        return min(self.width / self.cols, self.height / self.rows) / 2


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd rule point-in-polygon test."""
    x, y = point
    result = False
    j = len(polygon) - 1
    for i, (xi, yi) in enumerate(polygon):
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            result = not result
        j = i
    return result


def _segment_points(a: Point, b: Point, step: float) -> Iterable[Point]:
    n = max(1, math.ceil(math.dist(a, b) / step))
    for i in range(n + 1):
        yield (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)


def _ground(battlefield: Battlefield, grid: Grid) -> list[list[str]]:
    """Terrain and buildings, cell by cell (the cell's centre decides)."""
    cells = [[" "] * grid.cols for _ in range(grid.rows)]
    footprints = [s.footprint for b in battlefield.buildings for s in b.sections]
    for row in range(grid.rows):
        for col in range(grid.cols):
            point = grid.centre(col, row)
            for area in battlefield.terrain:
                if inside(point, area.polygon):
                    cells[row][col] = TERRAIN_CHAR[area.kind]
            if any(inside(point, fp) for fp in footprints):
                cells[row][col] = BUILDING_CHAR
    return cells


OPENING_CHAR: dict[OpeningKind, str] = {
    OpeningKind.DOOR: "∩",
    OpeningKind.WINDOW: "□",
    OpeningKind.SLIT: "¦",
}


def _draw_openings(battlefield: Battlefield, grid: Grid, cells: list[list[str]]) -> None:
    """Doors and windows at their middle; an upper floor's window shows like the ground's."""
    for building in battlefield.buildings:
        for section in building.sections:
            for opening in section.openings:
                (x0, y0), (x1, y1) = section.opening_segment(opening)
                at = grid.cell((x0 + x1) / 2, (y0 + y1) / 2)
                if at is not None:
                    cells[at[1]][at[0]] = OPENING_CHAR[opening.kind]


def _draw_obstacles(battlefield: Battlefield, grid: Grid, cells: list[list[str]]) -> None:
    for obstacle in battlefield.obstacles:
        for a, b in zip(obstacle.points, obstacle.points[1:], strict=False):
            for x, y in _segment_points(a, b, grid.step):
                at = grid.cell(x, y)
                if at is not None:
                    cells[at[1]][at[0]] = OBSTACLE_CHAR[obstacle.kind]


@dataclass(frozen=True)
class Figure:
    """A figure drawn on the map: its letter, whose it is and whether seen now."""

    letter: str
    info: Mapping[str, Any]
    own: bool
    now: bool = True


def _has_position(info: Mapping[str, Any]) -> bool:
    return is_number(info.get("x")) and is_number(info.get("y"))


@dataclass
class Letters:
    """Letters that stay with a figure for the whole game: own A, B, C...; enemies a, b, c...
    (letters run out as '*')."""

    given: dict[tuple[bool, str], str] = field(default_factory=dict)

    def of(self, own: bool, ident: str) -> str:
        key = (own, ident)
        if key not in self.given:
            alphabet = OWN_LETTERS if own else ENEMY_LETTERS
            used = sum(1 for k in self.given if k[0] == own)
            self.given[key] = alphabet[used] if used < len(alphabet) else "*"
        return self.given[key]


def letter_figures(
    own: Sequence[Mapping[str, Any]],
    enemies: Sequence[Mapping[str, Any]],
    letters: Letters | None = None,
) -> list[Figure]:
    """Own and enemy figures with their letters."""
    letters = letters if letters is not None else Letters()
    out = [
        Figure(letters.of(True, str(info.get("id", i))), info, True) for i, info in enumerate(own)
    ]
    out += [
        Figure(
            letters.of(False, str(info.get("id", i))),
            info,
            False,
            bool(info.get("visible_now", True)),
        )
        for i, info in enumerate(enemies)
    ]
    return out


def _figure_style(figure: Figure) -> str:
    if figure.own:
        return "bold green"
    return "bold red" if figure.now else "red dim"


def _place(grid: Grid, figures: Sequence[Figure]) -> dict[tuple[int, int], Figure]:
    """The figure shown in each cell: the first listed wins (the tables list them all)."""
    placed: dict[tuple[int, int], Figure] = {}
    for figure in figures:
        if not _has_position(figure.info):
            continue
        at = grid.cell(float(figure.info["x"]), float(figure.info["y"]))
        if at is not None and at not in placed:
            placed[at] = figure
    return placed


def render_map(battlefield: Battlefield, figures: Sequence[Figure], max_cols: int = 76) -> Text:
    """The table as a framed character grid with figures on it, then a legend."""
    table = battlefield.table
    grid = Grid.fit(table.width, table.height, max_cols=max_cols)
    cells = _ground(battlefield, grid)
    _draw_obstacles(battlefield, grid, cells)
    _draw_openings(battlefield, grid, cells)
    placed = _place(grid, figures)
    out = Text("┌" + "─" * grid.cols + "┐\n")
    for row in range(grid.rows):
        out.append("│")
        for col in range(grid.cols):
            shown = placed.get((col, row))
            if shown is not None:
                out.append(shown.letter, style=_figure_style(shown))
            else:
                out.append(cells[row][col], style=STYLE.get(cells[row][col], ""))
        out.append("│\n")
    out.append("└" + "─" * grid.cols + "┘\n")
    out.append(_legend(cells, grid, table.unit.value))
    return out


def _legend(cells: list[list[str]], grid: Grid, unit: str) -> Text:
    used = {char for row in cells for char in row}
    parts = [f"{char} {name}" for char, name in SYMBOL_NAMES.items() if char in used]
    text = Text("  ".join(parts) + ("\n" if parts else ""))
    text.append("A-Z", style="bold green")
    text.append(" yours  ")
    text.append("a-z", style="bold red")
    text.append(" enemies (")
    text.append("dim", style="red dim")
    text.append(" = last seen)\n")
    text.append(
        f"north is up; one column = {grid.width / grid.cols:.2g} {unit}, "
        f"one row = {grid.height / grid.rows:.2g} {unit}"
    )
    return text


# -- tables -----------------------------------------------------------------------------------

OWN_KEYS = ("id", "name", "unit", "x", "y", "floor", "section", "status")
ENEMY_KEYS = ("id", "name", "x", "y", "floor", "section", "seen_turn", "visible_now")


def where(info: Mapping[str, Any]) -> str:
    if not _has_position(info):
        return "-"
    text = f"{float(info['x']):.1f},{float(info['y']):.1f}"
    if info.get("section"):
        text += f" in {info['section']}"
    if info.get("floor"):
        text += f" floor {info['floor']}"
    return text


def _extras(info: Mapping[str, Any], known: Sequence[str]) -> str:
    """The rule set's own keys, briefly: a true flag by its name, unset ones left out."""
    words = []
    for key, value in info.items():
        if key in known or key == "side" or value in (None, False, 0, "", [], {}):
            continue
        words.append(key if value is True else f"{key}={_short(value)}")
    return " ".join(words)


def own_table(figures: Sequence[Figure]) -> Table:
    table = Table(title="Your figures", title_justify="left", expand=False)
    for column in ("", "id", "name", "unit", "where", "status", "more"):
        table.add_column(column)
    for figure in figures:
        info = figure.info
        table.add_row(
            Text(figure.letter, style="bold green"),
            str(info.get("id", "")),
            str(info.get("name", "")),
            str(info.get("unit") or ""),
            where(info),
            str(info.get("status", "")),
            _extras(info, OWN_KEYS),
        )
    return table


def enemy_table(figures: Sequence[Figure]) -> Table:
    table = Table(title="Enemies seen", title_justify="left", expand=False)
    for column in ("", "id", "name", "where", "seen", "more"):
        table.add_column(column)
    for figure in figures:
        info = figure.info
        seen = "now" if figure.now else f"turn {info.get('seen_turn', '?')}"
        table.add_row(
            Text(figure.letter, style=_figure_style(figure)),
            str(info.get("id", "")),
            str(info.get("name", "")),
            where(info),
            seen,
            _extras(info, ENEMY_KEYS),
        )
    return table


# -- the play loop ----------------------------------------------------------------------------

Outcome = Literal["over", "quit", "eof"]
Step = Literal["again", "done", "quit"]
META_COMMANDS = {
    "? ORDER": "show what an order would cost and its odds, without giving it",
    "orders": "list orders you may give now",
    "map": "show the map and your figures again",
    "undo": "take back your last order (same phase, no dice rolled, nothing new seen)",
    "help": "this list",
    "quit": "leave the game",
}


def read_stdin_line() -> str | None:
    """One line from standard input, None at its end (works on pipes too)."""
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\r\n")


@dataclass
class PlaySession:
    """People play `side` at the terminal, one seat after another (the side's commanders
    take turns at the keyboard); the computer plays the other sides (`computers`) and the
    seats of `side` that no person took (`seat_players`)."""

    game: Game
    side: str
    computers: Mapping[str, Player]
    console: Console
    read_line: Callable[[], str | None] = read_stdin_line
    #: repeat what was read after the prompt, so a piped transcript reads like a session
    echo: bool = False
    max_orders_listed: int = 30
    #: the side's seats in order; empty means one seat with every unit
    seats: Sequence[Seat] = ()
    #: computer players for seats of `side` that no person took, by seat name
    seat_players: Mapping[str, Player] = field(default_factory=dict)
    _shown: int = field(default=0, init=False)
    _letters: Letters = field(default_factory=Letters, init=False)
    _seat: Seat | None = field(default=None, init=False)
    #: the seat the keyboard goes back to when the other side answered in between
    _resume: tuple[int, tuple[Any, ...]] | None = field(default=None, init=False)

    def run(self) -> Outcome:
        while (acting := self.game.to_act()) is not None:
            if acting != self.side:
                self._computer_order(acting)
                continue
            if self.game.legal_orders(self.side) == [Order(self.side, "end")]:
                # nothing to decide (a side may be asked only so that its enemy learns
                # nothing from whether it was): pass without asking
                self.game.apply(Order(self.side, "end"))
                continue
            stop = self._side_turn() if len(self.seats) > 1 else self._human_turn()
            if stop is not None:
                return stop
        self.show_new_events()
        self.show_result()
        return "over"

    def _computer_order(self, side: str) -> None:
        player = self.computers[side]
        order = player.choose(self.game.observe(side), LegalOrders(self.game, side))
        self.game.apply(order)

    def _side_turn(self) -> Outcome | None:
        """Each seat gives its units' orders; the side's phase ends after the last."""
        mark = len(self.game.orders)
        resume, self._resume = self._resume, None
        first = resume[0] if resume is not None and resume[1] == self._moment() else 0
        for index in range(first, len(self.seats)):
            seat = self.seats[index]
            self._seat = seat
            stop = self._seat_turn(seat)
            self._seat = None
            if stop is not None:
                return stop
            if self.game.to_act() != self.side:
                self._resume = (index, self._moment())  # the enemy answers, then back here
                return None
            if self._phase_moved_on(mark):
                return None
        self.game.apply(Order(self.side, "end"))
        return None

    def _moment(self) -> tuple[Any, ...]:
        view = self.game.view(self.side)
        return (view.get("turn"), view.get("phase"), view.get("step"))

    def _phase_moved_on(self, mark: int) -> bool:
        # an order can end the side's phase by itself (nothing left to do)
        return any(o.kind == "end" for o in self.game.orders[mark:])

    def _seat_turn(self, seat: Seat) -> Outcome | None:
        player = self.seat_players.get(seat.name)
        if player is None:
            self.console.print(Rule(f"{seat.name}: your orders (type done when finished)"))
            return self._human_turn()
        while self.game.to_act() == self.side:
            order = player.choose(self.game.observe(self.side), LegalOrders(self.game, self.side))
            if order.kind == "end":
                return None
            self.game.apply(order)
        return None

    def _human_turn(self) -> Outcome | None:
        self.show_screen()
        while True:
            line = self._ask()
            if line is None:
                return "eof"
            step = self.command(line.strip())
            if step == "done":
                return None
            if step == "quit":
                return "quit"

    def _ask(self) -> str | None:
        who = self._seat.name if self._seat is not None else self.side
        self.console.print(f"{who}> ", end="", markup=False, highlight=False)
        line = self.read_line()
        if line is None:
            self.console.print()
        elif self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line

    def command(self, text: str) -> Step:
        """Carry out one typed line."""
        word = text.split(maxsplit=1)[0].lower() if text else ""
        if not word:
            return "again"
        if word in ("quit", "q", "exit"):
            return "quit"
        if text.startswith("?"):
            self.preview(text[1:].strip())
            return "again"
        simple: dict[str, Callable[[], None]] = {
            "help": self.show_help,
            "h": self.show_help,
            "orders": self.show_orders,
            "map": self.show_screen,
            "look": self.show_screen,
            "undo": self.undo,
        }
        if word in simple and len(text.split()) == 1:
            simple[word]()
            return "again"
        return self.give(text)

    def give(self, text: str) -> Step:
        if self._seat is not None and text.split()[0].lower() in ("done", "end"):
            return "done"  # this seat has finished; the next one takes the keyboard
        try:
            order = parse_order(text, self.side)
            self._check_seat(order)
            self.game.apply(order)
        except OrderSyntaxError as error:
            self._warn(f"{error} (type help for the syntax)")
            return "again"
        except IllegalOrder as error:
            self._warn(f"not allowed: {error.reason}")
            return "again"
        except FibuaError as error:  # the rules failed (RulesFault): the game is as it was
            self._warn(str(error))
            return "again"
        if self._seat is not None and self.game.to_act() == self.side:
            self.show_new_events()
            return "again"  # a seat gives all its orders before passing the keyboard on
        return "done"

    def undo(self) -> None:
        """Take back the side's last order (the game says when it cannot)."""
        try:
            order = self.game.undo(self.side)
        except IllegalOrder as error:
            self._warn(error.reason)
            return
        self._shown = min(self._shown, len(self.game.log))
        self.console.print(f"Taken back: {format_order(order)}", markup=False, highlight=False)

    def _check_seat(self, order: Order) -> None:
        seat = self._seat
        if seat is None or seat.units is None or order.unit is None:
            return
        if order.unit not in seat.units:
            raise IllegalOrder(f"{order.unit} is not under {seat.name}'s command", order, "seat")

    def preview(self, text: str) -> None:
        try:
            order = parse_order(text, self.side)
            report = self.game.ruleset.preview(self.game.state, order)
        except OrderSyntaxError as error:
            self._warn(str(error))
            return
        except IllegalOrder as error:
            self._warn(f"not allowed: {error.reason}")
            return
        self.console.print(report, markup=False, highlight=False)

    def _warn(self, message: str) -> None:
        self.console.print(Text(message, style="bold yellow"))

    # -- showing -------------------------------------------------------------------------

    def show_screen(self) -> None:
        view = self.game.view(self.side)
        own = [f for f in view.get("own", []) if isinstance(f, Mapping)]
        enemies = [f for f in view.get("enemies", []) if isinstance(f, Mapping)]
        figures = letter_figures(own, enemies, self._letters)
        title = f"turn {view.get('turn', '?')} - {view.get('phase', '')} - you are {self.side}"
        self.console.print(Rule(title))
        self.console.print(render_map(self.game.scenario.battlefield, figures))
        self.console.print(own_table([f for f in figures if f.own]))
        seen = [f for f in figures if not f.own]
        if seen:
            self.console.print(enemy_table(seen))
        else:
            self.console.print("No enemies seen.")
        self.show_new_events()

    def show_new_events(self) -> None:
        log = self.game.log
        fresh = [e for e in log[self._shown :] if e.seen_by(self.side)]
        self._shown = len(log)
        if not fresh:
            return
        self.console.print(Text("What happened:", style="bold"))
        for event in fresh:
            for line in describe_event(event):
                self.console.print(Text("  " + line), highlight=False)

    def show_help(self) -> None:
        table = Table(title="Orders", title_justify="left", show_header=False)
        table.add_column("order")
        table.add_column("meaning")
        for kind, syntax in self.game.ruleset.order_syntax.items():
            table.add_row(kind, syntax)
        for name, meaning in META_COMMANDS.items():
            table.add_row(name, meaning)
        self.console.print(table)
        self.console.print("Values are JSON or x,y pairs, e.g. move cpl-smith to=12.5,20")

    def show_orders(self) -> None:
        legal = self.game.legal_orders(self.side)
        if not legal:
            self.console.print("No orders are possible now.")
            return
        for order in legal[: self.max_orders_listed]:
            self.console.print("  " + format_order(order), markup=False, highlight=False)
        if len(legal) > self.max_orders_listed:
            self.console.print(f"  ... and {len(legal) - self.max_orders_listed} more")

    def show_result(self) -> None:
        result = self.game.result()
        if result is None:
            return
        headline = f"{result.winner} wins" if result.winner else "a draw"
        self.console.print(Rule(f"Game over: {headline}"))
        self.console.print(f"{result.reason}", markup=False)
        for side, score in result.scores.items():
            self.console.print(f"  {side}: {score:g}", markup=False)
        report = self.game.ruleset.after_action(self.game.state)
        if report:
            self.console.print(Rule("After-action report"))
            for line in report:
                self.console.print(line, markup=False, highlight=False)
