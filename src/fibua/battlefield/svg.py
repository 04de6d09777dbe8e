"""Top-down SVG picture of a battlefield, with optional figure markers.

Drawing happens in table units inside a group whose transform flips the y axis (the table's
y grows north, SVG's grows down); text is placed outside that group so it reads upright.
Building names are texts of class `label` with the point they name (`data-anchor-x`,
`data-anchor-y`): the game page moves them off one another (static/labels.js). An
objective is marked by a small numbered symbol, its aims in the symbol's title.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import floor, log10
from xml.sax.saxutils import escape, quoteattr

from fibua.battlefield.model import (
    Battlefield,
    Construction,
    Obstacle,
    ObstacleKind,
    OpeningKind,
    Point,
    Section,
    SectionState,
    TerrainKind,
)

PIXELS_WIDE = 1000.0

GROUND = "#ebe6d2"
TERRAIN_FILL = {
    TerrainKind.OPEN: GROUND,
    TerrainKind.ROAD: "#bdb7aa",
    TerrainKind.ROUGH: "#b5c48a",
    TerrainKind.RUBBLE: "url(#rubble)",
    TerrainKind.PLOT: "#e0dbc2",
}
CONSTRUCTION_FILL = {
    Construction.WOODEN: ("#d2ad80", "#7a5530"),
    Construction.BRICK: ("#c9745a", "#6e2f1d"),
    Construction.STRONG: ("#a7a7a2", "#4a4a46"),
    Construction.BUNKER: ("#7b7d6a", "#33342a"),
}
STATE_FILL = {
    SectionState.BURNING: ("url(#burning)", "#a82800"),
    SectionState.RUBBLE: ("url(#rubble)", "#6d6458"),
}
OPENING_STROKE = {
    OpeningKind.DOOR: "#fff4d6",
    OpeningKind.WINDOW: "#7cc6ff",
    OpeningKind.SLIT: "#111111",
}
#: a slit is a dark slot in a pale frame, so it shows on a bunker's dark concrete
SLIT_FRAME = "#f4f1e4"
OBSTACLE_STYLE = {
    ObstacleKind.HIGH_WALL: ("#4d4d4d", 2.2, ""),
    ObstacleKind.LOW_WALL: ("#8c8c8c", 1.6, ""),
    ObstacleKind.HEDGE: ("#3f7d2c", 3.0, ""),
    ObstacleKind.FENCE: ("#8a6d3b", 1.0, "2 1.5"),
}


OBJECTIVE_STROKE = "#e0a800"
#: a building name's rank among the page's labels (a unit's is higher: it goes first)
BUILDING_PRIORITY = 10


@dataclass(frozen=True, slots=True)
class ObjectiveMark:
    """An objective drawn on the map: sections outlined, or an area shaded, and a symbol
    showing `key` (how a list of objectives names it) titled with `label` (each side and
    what it must do there)."""

    label: str
    sections: tuple[str, ...] = ()
    zone: tuple[Point, ...] = ()
    key: str = ""


@dataclass(frozen=True, slots=True)
class Marker:
    """A figure or unit drawn as a dot with a label; `side` groups markers by player."""

    x: float
    y: float
    label: str = ""
    side: str = ""
    colour: str = "#1f4fa0"


def _num(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _defs(unit: float) -> str:
    step = _num(unit * 4)
    line = _num(unit * 0.8)
    return (
        "<defs>"
        f'<pattern id="rubble" patternUnits="userSpaceOnUse" width="{step}" height="{step}">'
        f'<rect width="{step}" height="{step}" fill="#a69c8e"/>'
        f'<path d="M0,0 L{step},{step}" stroke="#6d6458" stroke-width="{line}"/>'
        "</pattern>"
        # flames: yellow tongues on orange, unlike any construction's colour
        f'<pattern id="burning" patternUnits="userSpaceOnUse" width="{step}" '
        f'height="{step}">'
        f'<rect width="{step}" height="{step}" fill="#ff6a2b"/>'
        f'<path d="M0,0 L{_num(unit)},{step} L{_num(unit * 2)},0 L{_num(unit * 3)},{step} '
        f'L{step},0" fill="none" stroke="#ffd23f" stroke-width="{line}"/>'
        "</pattern>"
        # a flat roof: a pale grid of roofing over the section's own colour
        f'<pattern id="flat-roof" patternUnits="userSpaceOnUse" width="{step}" '
        f'height="{step}">'
        f'<path d="M0,0 L{step},0 M0,0 L0,{step}" stroke="#ffffff" stroke-opacity="0.55" '
        f'stroke-width="{_num(unit * 0.6)}"/>'
        "</pattern></defs>"
    )


def _terrain(battlefield: Battlefield) -> list[str]:
    return [
        f'<polygon class="terrain {area.kind.value}" points="{_points(area.polygon)}" '
        f'fill="{TERRAIN_FILL[area.kind]}"/>'
        for area in battlefield.terrain
    ]


def _obstacle(obstacle: Obstacle, unit: float) -> str:
    colour, width, dash = OBSTACLE_STYLE[obstacle.kind]
    dashes = f' stroke-dasharray="{_points_dash(dash, unit)}"' if dash else ""
    return (
        f'<polyline class="obstacle {obstacle.kind.value}" points="{_points(obstacle.points)}" '
        f'fill="none" stroke="{colour}" stroke-width="{_num(width * unit)}" '
        f'stroke-linecap="round" stroke-linejoin="round"{dashes}/>'
    )


def _points_dash(dash: str, unit: float) -> str:
    return " ".join(_num(float(v) * unit) for v in dash.split())


def _section(section: Section, state: SectionState, unit: float) -> str:
    fill, stroke = STATE_FILL.get(state, CONSTRUCTION_FILL[section.construction])
    return (
        f'<polygon class="section {state.value}" data-id={quoteattr(section.id)} '
        f'points="{_points(section.footprint)}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{_num(unit * 1.2)}" stroke-linejoin="miter"/>'
    )


def _buildings(
    battlefield: Battlefield, states: Mapping[str, SectionState], unit: float
) -> list[str]:
    # Openings go on top of every footprint, else a neighbour would hide an inside door.
    sections = [s for b in battlefield.buildings for s in b.sections]
    state = {s.id: states.get(s.id, SectionState.INTACT) for s in sections}
    shapes = [_section(s, state[s.id], unit) for s in sections]
    shapes += [_roof(s) for s in sections if s.flat_roof and state[s.id] is SectionState.INTACT]
    for section in sections:
        if state[section.id] is not SectionState.RUBBLE:
            shapes.extend(_openings(section, unit))
    return shapes


def _roof(section: Section) -> str:
    return (
        f'<polygon class="roof flat" data-id={quoteattr(section.id)} '
        f'points="{_points(section.footprint)}" fill="url(#flat-roof)" stroke="none"/>'
    )


def _openings(section: Section, unit: float) -> list[str]:
    # Ground-floor openings drawn broad, upper floors thinner on top, so both stay visible.
    shapes = []
    for opening in sorted(section.openings, key=lambda o: o.floor):
        (x0, y0), (x1, y1) = section.opening_segment(opening)
        width = unit * (1.6 if opening.floor == 0 else 0.8)
        ends = f'x1="{_num(x0)}" y1="{_num(y0)}" x2="{_num(x1)}" y2="{_num(y1)}"'
        if opening.kind is OpeningKind.SLIT:
            shapes.append(f'<line class="slit-frame" {ends} stroke="{SLIT_FRAME}" '
                          f'stroke-width="{_num(width * 2)}"/>')
        shapes.append(
            f'<line class="opening {opening.kind.value}" data-floor="{opening.floor}" '
            f'{ends} stroke="{OPENING_STROKE[opening.kind]}" stroke-width="{_num(width)}"/>'
        )
    return shapes


def _centre(points: Sequence[Point]) -> Point:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def _building_names(battlefield: Battlefield, unit: float, flip: float) -> list[str]:
    """Each building's name and height, a label over the middle of its footprints."""
    out = []
    for building in battlefield.buildings:
        points = [p for s in building.sections for p in s.footprint]
        x, y = _centre(points)
        sx, sy = _num(x), _num(flip - y)
        out.append(
            f'<text class="label building-name" x="{sx}" y="{sy}" data-anchor-x="{sx}" '
            f'data-anchor-y="{sy}" data-priority="{BUILDING_PRIORITY}" '
            f'font-size="{_num(unit * 4.5)}" font-family="sans-serif" text-anchor="middle" '
            f'fill="#111" stroke="#fff" stroke-width="{_num(unit * 0.8)}" '
            f'paint-order="stroke">{escape(building.name)}'
            f'<tspan class="building-floors" x="{sx}" dy="{_num(unit * 4.2)}" '
            f'font-size="{_num(unit * 3.2)}" fill="#444">'
            f"{escape(storeys(building.sections))}</tspan></text>")
    return out


def storeys(sections: Sequence[Section]) -> str:
    """How high a building stands: its floors (the range, if its sections differ) and
    whether a flat roof can be stood on."""
    counts = sorted({s.floors for s in sections})
    low, high = counts[0], counts[-1]
    text = f"{low} floor" if high == 1 else (
        f"{high} floors" if low == high else f"{low}-{high} floors")
    return text + (", flat roof" if any(s.flat_roof for s in sections) else "")


def _objectives(battlefield: Battlefield, objectives: Sequence[ObjectiveMark], unit: float,
                flip: float) -> list[str]:
    """Objective sections outlined and zones shaded (in table coordinates), then the
    symbols of the objectives naming each section or zone in its top left corner (upright,
    on top)."""
    shapes: list[str] = []
    symbols: list[str] = []
    known = {s.id: s for b in battlefield.buildings for s in b.sections}
    marks_of: dict[str, list[ObjectiveMark]] = {}
    for mark in objectives:
        for section in (s for s in mark.sections if s in known):
            marks_of.setdefault(section, []).append(mark)
            shapes.append(
                f'<polygon class="objective section" points="{_points(known[section].footprint)}" '
                f'fill="none" stroke="{OBJECTIVE_STROKE}" stroke-width="{_num(unit * 1.8)}" '
                f'stroke-dasharray="{_num(unit * 4)} {_num(unit * 2)}"/>'
            )
        if mark.zone:
            shapes.append(
                f'<polygon class="objective zone" points="{_points(mark.zone)}" '
                f'fill="{OBJECTIVE_STROKE}" fill-opacity="0.18" stroke="{OBJECTIVE_STROKE}" '
                f'stroke-width="{_num(unit * 1.2)}"/>'
            )
            symbols.extend(_objective_symbols([mark], mark.zone, unit, flip))
    for section, marks in marks_of.items():
        symbols.extend(_objective_symbols(marks, known[section].footprint, unit, flip))
    return ['<g class="objectives" transform="matrix(1 0 0 -1 0 ' + _num(flip) + ')">',
            *shapes, "</g>", *symbols]


def _objective_symbols(marks: Sequence[ObjectiveMark], where: Sequence[Point], unit: float,
                       flip: float) -> list[str]:
    """A gold disc with each objective's key, in a row just inside the top left corner of
    a section or zone (its middle is left to the building's name)."""
    radius = unit * 3
    left = min(p[0] for p in where) + radius + unit
    y = flip - max(p[1] for p in where) + radius + unit
    out = []
    for i, mark in enumerate(marks):
        x = left + i * radius * 2.3
        out.append(
            f'<g class="objective-mark" data-key={quoteattr(mark.key)}>'
            f"<title>{escape(mark.label)}</title>"
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(radius)}" '
            f'fill="{OBJECTIVE_STROKE}" stroke="#5c4400" stroke-width="{_num(unit * 0.5)}"/>'
            f'<text x="{_num(x)}" y="{_num(y + radius * 0.45)}" '
            f'font-size="{_num(radius * 1.3)}" font-family="sans-serif" font-weight="bold" '
            f'text-anchor="middle" fill="#2a2000">{escape(mark.key or "*")}</text></g>'
        )
    return out


def _nice_length(span: float) -> float:
    """A round length (1, 2 or 5 times a power of ten) near a fifth of `span`."""
    target = max(span / 5, 1e-9)
    power = 10.0 ** floor(log10(target))
    return max((m * power for m in (1, 2, 5) if m * power <= target), default=power)


def _scale_bar(battlefield: Battlefield, unit: float, flip: float) -> list[str]:
    table = battlefield.table
    length = _nice_length(table.width)
    x0, y = unit * 6, flip - unit * 6  # bottom-left corner, in flipped (screen) coordinates
    height = unit * 1.5
    text_size = unit * 5
    return [
        '<g class="scale-bar">',
        f'<rect x="{_num(x0)}" y="{_num(y - height)}" width="{_num(length)}" '
        f'height="{_num(height)}" fill="#222" stroke="#fff" stroke-width="{_num(unit * 0.4)}"/>',
        f'<text x="{_num(x0)}" y="{_num(y - height * 2)}" font-size="{_num(text_size)}" '
        f'font-family="sans-serif" fill="#222">{escape(_num(length))} {table.unit.value}</text>',
        "</g>",
    ]


def _markers(markers: Sequence[Marker], unit: float, flip: float) -> list[str]:
    shapes = []
    for marker in markers:
        cx, cy = marker.x, flip - marker.y
        shapes.append(
            f'<g class="marker" data-side={quoteattr(marker.side)}>'
            f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(unit * 2.2)}" '
            f'fill={quoteattr(marker.colour)} stroke="#fff" '
            f'stroke-width="{_num(unit * 0.6)}"/>'
            f'<text x="{_num(cx + unit * 3)}" y="{_num(cy + unit * 1.5)}" '
            f'font-size="{_num(unit * 4.5)}" font-family="sans-serif" fill="#111" '
            f'stroke="#fff" stroke-width="{_num(unit * 0.8)}" paint-order="stroke">'
            f"{escape(marker.label)}</text></g>"
        )
    return shapes


def render_svg(
    battlefield: Battlefield,
    states: Mapping[str, SectionState] | None = None,
    markers: Sequence[Marker] = (),
    objectives: Sequence[ObjectiveMark] = (),
) -> str:
    """The battlefield seen from above as an SVG document, buildings named and objectives
    marked (sections missing from `states` are intact)."""
    states = states or {}
    table = battlefield.table
    width, height = table.width, table.height
    unit = max(width, height) / 400  # stroke widths and text scale with the table
    pixels_high = PIXELS_WIDE * height / width if width else PIXELS_WIDE
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{_num(PIXELS_WIDE)}" height="{_num(pixels_high)}" '
        f'data-unit="{table.unit.value}" '
        f'viewBox="0 0 {_num(width)} {_num(height)}">',
        _defs(unit),
        f'<rect class="table" x="0" y="0" width="{_num(width)}" height="{_num(height)}" '
        f'fill="{GROUND}"/>',
        f'<g class="map" transform="matrix(1 0 0 -1 0 {_num(height)})">',
        *_terrain(battlefield),
        *(_obstacle(obstacle, unit) for obstacle in battlefield.obstacles),
        *_buildings(battlefield, states, unit),
        "</g>",
        *_objectives(battlefield, objectives, unit, height),
        *_building_names(battlefield, unit, height),
        *_scale_bar(battlefield, unit, height),
        *_markers(markers, unit, height),
        "</svg>",
    ]
    return "\n".join(parts)
