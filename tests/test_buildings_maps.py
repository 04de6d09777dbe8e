"""The maps show what the Buildings rules turn on: bunkers and their firing slits, flat
roofs one can stand on, and sections burning or brought down."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET

import pytest

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Construction,
    Opening,
    OpeningKind,
    Section,
    SectionState,
    Table,
)
from fibua.battlefield.svg import render_svg
from fibua.cli.textmap import (
    BUILDING_CHAR,
    BUNKER_CHAR,
    BURNING_CHAR,
    FLAT_ROOF_CHAR,
    OPENING_CHAR,
    RUINED_CHAR,
    render_map,
    section_char,
)
from fibua.scenario.loader import bundled_scenarios
from fibua.scenario.schema import Scenario

SVG = "{http://www.w3.org/2000/svg}"


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _section(ident: str, x0: float, flat_roof: bool = False, floors: int = 1) -> Section:
    """A 6 x 6 section on the row y 4..10, a door in its south wall."""
    door = Opening(OpeningKind.DOOR, 0, 0, 3.0, 1.0)
    return Section(ident, _rect(x0, 4, x0 + 6, 10), floors=floors, flat_roof=flat_roof,
                   openings=(door,))


PILLBOX = Section(
    "pillbox", _rect(50, 4, 56, 10), construction=Construction.BUNKER,
    openings=(Opening(OpeningKind.DOOR, 2, 0, 3.0, 1.0),
              Opening(OpeningKind.SLIT, 0, 0, 3.0, 2.0),
              Opening(OpeningKind.SLIT, 1, 0, 3.0, 1.0)),
)
FIELD = Battlefield(
    table=Table(60, 14),
    buildings=(
        Building("houses", "Row", (
            _section("plain", 2),
            _section("roofed", 12, flat_roof=True, floors=2),
            _section("alight", 22),
            _section("fallen", 32, flat_roof=True),
        )),
        Building("bunker", "Pillbox", (PILLBOX,)),
    ),
)
STATES = {"alight": SectionState.BURNING, "fallen": SectionState.RUBBLE}


def _cells(text: str) -> str:
    """The map's cells only: the framed rows, without the ruler and the legend."""
    rows = [line for line in text.splitlines() if "│" in line]
    return "".join(line[line.index("│") + 1:-1] for line in rows)


# -- the text map -----------------------------------------------------------------------------


def test_each_kind_of_section_has_its_own_character() -> None:
    assert section_char(FIELD.section("plain")) == BUILDING_CHAR
    assert section_char(FIELD.section("roofed")) == FLAT_ROOF_CHAR
    assert section_char(PILLBOX) == BUNKER_CHAR
    # the state wins over what the section is made of
    assert section_char(FIELD.section("roofed"), SectionState.BURNING) == BURNING_CHAR
    assert section_char(FIELD.section("fallen"), SectionState.RUBBLE) == RUINED_CHAR
    assert section_char(PILLBOX, SectionState.RUBBLE) == RUINED_CHAR
    assert len({BUILDING_CHAR, FLAT_ROOF_CHAR, BUNKER_CHAR, BURNING_CHAR, RUINED_CHAR}) == 5


def test_the_text_map_shows_roofs_bunkers_slits_fire_and_rubble() -> None:
    text = render_map(FIELD, [], states=STATES).plain
    cells = _cells(text)
    for char in (BUILDING_CHAR, FLAT_ROOF_CHAR, BUNKER_CHAR, BURNING_CHAR, RUINED_CHAR,
                 OPENING_CHAR[OpeningKind.SLIT]):
        assert char in cells, char
    legend = text.split("┘", 1)[1]
    for words in ("flat roof", "bunker", "burning", "rubble", "firing slit"):
        assert words in legend, words
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_collapsed_section_keeps_no_openings() -> None:
    intact = _cells(render_map(FIELD, []).plain)
    fallen = _cells(render_map(FIELD, [], states=STATES).plain)
    door = OPENING_CHAR[OpeningKind.DOOR]
    assert fallen.count(door) == intact.count(door) - 1


def test_without_states_every_section_stands() -> None:
    cells = _cells(render_map(FIELD, []).plain)
    assert BURNING_CHAR not in cells and RUINED_CHAR not in cells
    # the flat-roofed section that fell is drawn whole and roofed while it stands
    assert cells.count(FLAT_ROOF_CHAR) > _cells(
        render_map(FIELD, [], states=STATES).plain).count(FLAT_ROOF_CHAR)


def _bundled(name: str) -> Battlefield:
    raw = tomllib.loads(bundled_scenarios()[name].read_text(encoding="utf-8"))
    return Scenario.model_validate(raw).battlefield


@pytest.mark.parametrize(("name", "shown"), [
    ("beach-exit", (BUNKER_CHAR, OPENING_CHAR[OpeningKind.SLIT])),
    ("tobacco-factory", (FLAT_ROOF_CHAR, BUILDING_CHAR)),
])
def test_the_bundled_maps_show_their_bunkers_and_roofs(name: str, shown: tuple[str, ...]
                                                       ) -> None:
    cells = _cells(render_map(_bundled(name), []).plain)
    assert all(char in cells for char in shown)


# -- the SVG ----------------------------------------------------------------------------------


def _svg(states: dict[str, SectionState] | None = None) -> ET.Element:
    return ET.fromstring(render_svg(FIELD, states))


def test_the_svg_frames_each_slit_and_only_slits() -> None:
    root = _svg()
    frames = [e for e in root.iter(f"{SVG}line") if e.get("class") == "slit-frame"]
    slits = [e for e in root.iter(f"{SVG}line") if e.get("class") == "opening slit"]
    assert len(frames) == len(slits) == 2
    for frame, slit in zip(frames, slits, strict=True):
        assert [frame.get(k) for k in ("x1", "y1", "x2", "y2")] == \
            [slit.get(k) for k in ("x1", "y1", "x2", "y2")]
        assert float(frame.get("stroke-width", 0)) > float(slit.get("stroke-width", 0))
        assert frame.get("stroke") != slit.get("stroke")


def test_the_svg_marks_flat_roofs_of_standing_sections() -> None:
    roofs = [e.get("data-id") for e in _svg().iter(f"{SVG}polygon")
             if e.get("class") == "roof flat"]
    assert roofs == ["roofed", "fallen"]
    roofs = [e.get("data-id") for e in _svg(STATES).iter(f"{SVG}polygon")
             if e.get("class") == "roof flat"]
    assert roofs == ["roofed"]


def test_the_svg_fills_burning_and_fallen_sections_with_their_own_patterns() -> None:
    root = _svg(STATES)
    fills = {e.get("data-id"): e.get("fill") for e in root.iter(f"{SVG}polygon")
             if (e.get("class") or "").startswith("section ")}
    assert fills["alight"] == "url(#burning)"
    assert fills["fallen"] == "url(#rubble)"
    assert fills["plain"] not in ("url(#burning)", "url(#rubble)")
    patterns = {e.get("id") for e in root.iter(f"{SVG}pattern")}
    assert {"burning", "rubble", "flat-roof"} <= patterns
