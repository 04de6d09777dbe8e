"""The table as a character map: terrain, walls, buildings named, objectives marked, the
figures lettered, a coordinate ruler, and a legend; it fits 80 columns."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from fibua.battlefield.model import (
    Battlefield,
    Construction,
    ObstacleKind,
    OpeningKind,
    Point,
    Section,
    SectionState,
    TerrainKind,
)
from fibua.session.figures import has_position, out_of_action

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
FLAT_ROOF_CHAR = "█"
BUNKER_CHAR = "■"
BURNING_CHAR = "▒"
#: a collapsed section is rubble, and is drawn as rubble ground is
RUINED_CHAR = TERRAIN_CHAR[TerrainKind.RUBBLE]
OPENING_CHAR: dict[OpeningKind, str] = {
    OpeningKind.DOOR: "∩",
    OpeningKind.WINDOW: "□",
    OpeningKind.SLIT: "¦",
}
SYMBOL_NAMES: dict[str, str] = {
    **{TERRAIN_CHAR[k]: f"{k.value}" for k in TerrainKind if k is not TerrainKind.OPEN},
    **{OBSTACLE_CHAR[k]: k.value for k in ObstacleKind},
    BUILDING_CHAR: "building",
    FLAT_ROOF_CHAR: "flat roof",
    BUNKER_CHAR: "bunker",
    BURNING_CHAR: "burning",
    "∩": "door",
    "□": "window",
    "¦": "firing slit",
}
STYLE: dict[str, str] = {BUILDING_CHAR: "grey62", FLAT_ROOF_CHAR: "grey70",
                         BUNKER_CHAR: "grey50", BURNING_CHAR: "bold red", "#": "bold",
                         "%": "green", "░": "yellow"}
OWN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ENEMY_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: the mark before an objective building's name or key on the map
OBJECTIVE_MARK = "*"
OBJECTIVE_STYLE = "bold yellow"
LABEL_STYLE = "bold white on grey30"
ZONE_STYLE = "on dark_olive_green3"
#: columns the y ruler takes on the left of the frame
RULER_WIDTH = 4

@dataclass(frozen=True)
class Grid:
    """The table cut into character cells; row 0 is the north edge."""

    width: float
    height: float
    cols: int
    rows: int

    @staticmethod
    def fit(width: float, height: float, max_cols: int = 72, max_rows: int = 34) -> Grid:
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


def section_char(section: Section, state: SectionState = SectionState.INTACT) -> str:
    """How a section's cells are drawn: burning and collapsed first, then a bunker, then a
    building with a flat roof (one can stand on it), else any building."""
    if state is SectionState.RUBBLE:
        return RUINED_CHAR
    if state is SectionState.BURNING:
        return BURNING_CHAR
    if section.construction is Construction.BUNKER:
        return BUNKER_CHAR
    return FLAT_ROOF_CHAR if section.flat_roof else BUILDING_CHAR


def _ground(battlefield: Battlefield, grid: Grid, states: Mapping[str, SectionState]
            ) -> tuple[list[list[str]], list[list[str]]]:
    """Terrain and buildings, cell by cell (the cell's centre decides), and which building
    (its id, or '') covers each cell."""
    cells = [[" "] * grid.cols for _ in range(grid.rows)]
    owner = [[""] * grid.cols for _ in range(grid.rows)]
    for row in range(grid.rows):
        for col in range(grid.cols):
            point = grid.centre(col, row)
            for area in battlefield.terrain:
                if inside(point, area.polygon):
                    cells[row][col] = TERRAIN_CHAR[area.kind]
            for building in battlefield.buildings:
                for section in building.sections:
                    if inside(point, section.footprint):
                        state = states.get(section.id, SectionState.INTACT)
                        cells[row][col] = section_char(section, state)
                        owner[row][col] = building.id
    return cells, owner


def _draw_openings(battlefield: Battlefield, grid: Grid, cells: list[list[str]],
                   states: Mapping[str, SectionState]) -> None:
    """Doors, windows and slits at their middle; an upper floor's window shows like the
    ground's. A collapsed section has none left."""
    for building in battlefield.buildings:
        for section in building.sections:
            if states.get(section.id) is SectionState.RUBBLE:
                continue
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


# -- building names ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Label:
    """A building's name (or its key number when the name does not fit) on the map."""

    building: str
    name: str
    text: str
    keyed: bool
    objective: bool
    row: int
    col: int


def _runs(owner: list[list[str]], building: str) -> list[tuple[int, int, int]]:
    """(row, first column, length) of each horizontal run of the building's cells."""
    runs = []
    for row, line in enumerate(owner):
        col = 0
        while col < len(line):
            if line[col] == building:
                start = col
                while col < len(line) and line[col] == building:
                    col += 1
                runs.append((row, start, col - start))
            else:
                col += 1
    return runs


def place_labels(
    battlefield: Battlefield, owner: list[list[str]], objective_buildings: set[str]
) -> list[Label]:
    """Each building's name written inside it on the row nearest its middle where it fits;
    a key number where it does not (the legend names it)."""
    labels: list[Label] = []
    key = 0
    for building in battlefield.buildings:
        runs = _runs(owner, building.id)
        if not runs:
            continue
        rows = [r for r, _, _ in runs]
        middle = (min(rows) + max(rows)) / 2
        mark = OBJECTIVE_MARK if building.id in objective_buildings else ""
        text = mark + building.name
        fitting = [run for run in runs if run[2] >= len(text)]
        keyed = not fitting
        if keyed:
            key += 1
            text = f"{mark}{key}"
            fitting = [run for run in runs if run[2] >= len(text)] or runs
        row, start, length = min(fitting, key=lambda run: (abs(run[0] - middle), -run[2]))
        col = start + max(0, (length - len(text)) // 2)
        labels.append(Label(building.id, building.name, text[: max(1, length)], keyed,
                            bool(mark), row, col))
    return labels


# -- figures ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A figure drawn on the map: its letter, whose it is and whether seen now."""

    letter: str
    info: Mapping[str, Any]
    own: bool
    now: bool = True


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


def figure_style(figure: Figure) -> str:
    if out_of_action(figure.info):
        return "dim"
    if figure.own:
        return "bold green"
    return "bold red" if figure.now else "red dim"


def _place(grid: Grid, figures: Sequence[Figure]) -> dict[tuple[int, int], Figure]:
    """The figure shown in each cell: the first listed wins (the tables list them all);
    figures out of action are left off."""
    placed: dict[tuple[int, int], Figure] = {}
    for figure in figures:
        if not has_position(figure.info) or out_of_action(figure.info):
            continue
        at = grid.cell(float(figure.info["x"]), float(figure.info["y"]))
        if at is not None and at not in placed:
            placed[at] = figure
    return placed


# -- the ruler ----------------------------------------------------------------------------------


def nice_step(span: float, cells: int, min_cells: int) -> float:
    """A round distance (1, 2, 2.5 or 5 times a power of ten) at least `min_cells` cells
    long."""
    least = span / cells * min_cells
    power = 10.0 ** math.floor(math.log10(least)) if least > 0 else 1.0
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= least:
            return factor * power
    return 10 * power


def _ticks(span: float, cells: int, min_cells: int) -> list[tuple[float, int]]:
    """(value, cell index) of each round value along one edge."""
    step = nice_step(span, cells, min_cells)
    out: list[tuple[float, int]] = []
    value = 0.0
    while value <= span + 1e-9:
        out.append((value, min(cells - 1, int(value / span * cells))))
        value += step
    return out


def _x_ruler(grid: Grid) -> tuple[str, str]:
    """The numbers above the frame and the frame's top line with a tick under each."""
    numbers = [" "] * (grid.cols + 2)
    border = ["─"] * grid.cols
    for value, col in _ticks(grid.width, grid.cols, 8):
        label = f"{value:g}"
        start = col + 1  # the frame's corner takes column 0
        room = numbers[start:start + len(label)]
        if start + len(label) > len(numbers) or any(c != " " for c in room):
            continue
        numbers[start:start + len(label)] = label
        border[col] = "┬"
    pad = " " * RULER_WIDTH
    return pad + "".join(numbers).rstrip(), pad + "┌" + "".join(border) + "┐"


def _y_labels(grid: Grid) -> dict[int, str]:
    """The y value written left of the frame at the rows where a round value falls."""
    out: dict[int, str] = {}
    for value, index in _ticks(grid.height, grid.rows, 3):
        row = grid.rows - 1 - index
        out.setdefault(row, f"{value:g}")
    return out


# -- the whole map ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MapNotes:
    """What the map marks besides the ground: the sections objectives name, and objective
    zones (polygons), each with a short description."""

    objective_sections: frozenset[str] = frozenset()
    zones: tuple[tuple[tuple[Point, ...], str], ...] = ()


def section_states(view: Mapping[str, Any]) -> dict[str, SectionState]:
    """The sections a view says are burning or rubble (its `section_states`, a mapping of
    section to state); anything else in it is left out."""
    raw = view.get("section_states")
    if not isinstance(raw, Mapping):
        return {}
    known = {s.value: s for s in SectionState}
    return {str(sid): known[str(st)] for sid, st in raw.items()
            if str(st) in known and known[str(st)] is not SectionState.INTACT}


def render_map(
    battlefield: Battlefield,
    figures: Sequence[Figure],
    max_cols: int = 72,
    notes: MapNotes | None = None,
    legend: bool = True,
    states: Mapping[str, SectionState] | None = None,
) -> Text:
    """The table as a framed character grid with a coordinate ruler, buildings named,
    objectives marked and figures on it, then a legend. `states`: sections burning or
    collapsed (those missing are intact)."""
    notes = notes or MapNotes()
    states = states or {}
    table = battlefield.table
    grid = Grid.fit(table.width, table.height, max_cols=max_cols)
    cells, owner = _ground(battlefield, grid, states)
    _draw_obstacles(battlefield, grid, cells)
    _draw_openings(battlefield, grid, cells, states)
    objective_buildings = {
        b.id for b in battlefield.buildings
        if any(s.id in notes.objective_sections for s in b.sections)
    }
    labels = place_labels(battlefield, owner, objective_buildings)
    written: dict[tuple[int, int], tuple[str, str]] = {}
    for label in labels:
        style = OBJECTIVE_STYLE if label.objective else LABEL_STYLE
        for i, char in enumerate(label.text):
            written[(label.col + i, label.row)] = (char, style)
    zone_cells = {
        (col, row)
        for zone, _ in notes.zones
        for row in range(grid.rows)
        for col in range(grid.cols)
        if inside(grid.centre(col, row), zone)
    }
    placed = _place(grid, figures)
    y_labels = _y_labels(grid)
    numbers, top = _x_ruler(grid)
    out = Text(numbers + "\n" + top + "\n", style="dim")
    for row in range(grid.rows):
        out.append(f"{y_labels.get(row, ''):>{RULER_WIDTH - 1}} ", style="dim")
        out.append("┤" if row in y_labels else "│")
        for col in range(grid.cols):
            shown = placed.get((col, row))
            zone = ZONE_STYLE if (col, row) in zone_cells else ""
            if shown is not None:
                out.append(shown.letter, style=figure_style(shown))
            elif (col, row) in written:
                char, style = written[(col, row)]
                out.append(char, style=style)
            else:
                char = cells[row][col]
                out.append(char, style=f"{STYLE.get(char, '')} {zone}".strip())
        out.append("│\n")
    out.append(" " * RULER_WIDTH + "└" + "─" * grid.cols + "┘\n")
    if legend:
        out.append(_legend(cells, grid, table.unit.value, labels, notes))
    return out


def _item(*pieces: tuple[str, str]) -> Text:
    text = Text()
    for words, style in pieces:
        text.append(words, style=style)
    return text


def _wrap(items: Sequence[Text], width: int = 78) -> Text:
    """Items two spaces apart, a new line before one that would pass `width` (the plain
    text stays within the width wherever it is printed)."""
    out = Text()
    used = 0
    for item in items:
        if used and used + 2 + len(item) > width:
            out.append("\n")
            used = 0
        elif used:
            out.append("  ")
            used += 2
        out.append_text(item)
        used += len(item)
    out.append("\n")
    return out


def _legend(cells: list[list[str]], grid: Grid, unit: str, labels: Sequence[Label],
            notes: MapNotes) -> Text:
    used = {char for row in cells for char in row}
    items = [_item((f"{char} {name}", "")) for char, name in SYMBOL_NAMES.items()
             if char in used]
    text = _wrap(items) if items else Text()
    keyed = [_item((label.text, OBJECTIVE_STYLE if label.objective else ""),
                   (f" {label.name}", "")) for label in labels if label.keyed]
    if keyed:
        text.append_text(_wrap(keyed))
    items = []
    if any(label.objective for label in labels):
        items.append(_item((f"{OBJECTIVE_MARK} objective", OBJECTIVE_STYLE),
                           (" (building)", "")))
    items += [_item(("shaded", ZONE_STYLE), (f" objective zone: {description}", ""))
              for _, description in notes.zones]
    items += [
        _item(("A-Z", "bold green"), (" yours", "")),
        _item(("a-z", "bold red"), (" enemies (", ""), ("dim", "red dim"),
              (" = last seen)", "")),
    ]
    text.append_text(_wrap(items))
    text.append(
        f"north is up; x (east) and y (north) in {unit}; a column is "
        f"{grid.width / grid.cols:.2g}, a row {grid.height / grid.rows:.2g}"
    )
    return text
