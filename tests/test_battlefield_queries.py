"""Where-is-it queries of the sight engine, random maps, and the SVG picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from shapely.geometry import Point, Polygon

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Obstacle,
    ObstacleKind,
    Section,
    SectionState,
    Table,
    TerrainArea,
    TerrainKind,
)
from fibua.battlefield.randommap import random_battlefield, random_positions
from fibua.battlefield.sight import SightEngine
from fibua.battlefield.svg import Marker, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


FIELD = Battlefield(
    table=Table(30, 20),
    terrain=(
        TerrainArea("plot", TerrainKind.PLOT, _rect(0, 0, 12, 12)),
        TerrainArea("road", TerrainKind.ROAD, _rect(0, 12, 30, 14)),
        TerrainArea("rough", TerrainKind.ROUGH, _rect(8, 8, 11, 16)),  # on top of both
    ),
    obstacles=(
        Obstacle("wall", ObstacleKind.HIGH_WALL, ((20, 0), (20, 10)), 2.0),
        Obstacle("fence", ObstacleKind.FENCE, ((24, 0), (24, 5), (24, 10)), 1.0),
        Obstacle("hedge", ObstacleKind.HEDGE, ((18, 8), (28, 8)), 1.5),
    ),
    buildings=(
        Building(
            "b",
            "Pair",
            (Section("left", _rect(2, 2, 5, 6)), Section("right", _rect(5, 2, 8, 6))),
        ),
    ),
)


def test_section_at() -> None:
    engine = SightEngine(FIELD)
    assert engine.section_at((3, 3)) == "left"
    assert engine.section_at((7, 5)) == "right"
    assert engine.section_at((2, 4)) == "left"  # on the outer wall
    assert engine.section_at((5, 4)) in {"left", "right"}  # on the shared wall
    assert engine.section_at((9, 4)) is None
    assert engine.section_at((-5, 40)) is None  # off the table


def test_terrain_at() -> None:
    engine = SightEngine(FIELD)
    assert engine.terrain_at((1, 1)) is TerrainKind.PLOT
    assert engine.terrain_at((20, 13)) is TerrainKind.ROAD
    assert engine.terrain_at((9, 13)) is TerrainKind.ROUGH  # the last listed area wins
    assert engine.terrain_at((25, 18)) is TerrainKind.OPEN
    assert engine.terrain_at((3, 3)) is TerrainKind.PLOT
    engine.set_section_state("left", SectionState.RUBBLE)
    assert engine.terrain_at((3, 3)) is TerrainKind.RUBBLE
    assert engine.terrain_at((7, 3)) is TerrainKind.PLOT


def test_obstacles_crossed_nearest_first() -> None:
    engine = SightEngine(FIELD)
    crossed = engine.obstacles_crossed((18, 4), (29, 4))
    assert [o.id for o, _ in crossed] == ["wall", "fence"]
    assert [d for _, d in crossed] == pytest.approx([2, 6])
    crossed = engine.obstacles_crossed((22, 2), (22, 12))
    assert [o.id for o, _ in crossed] == ["hedge"]
    assert [d for _, d in crossed] == pytest.approx([6])
    assert engine.obstacles_crossed((10, 18), (12, 18)) == []


def test_obstacle_met_end_on_counts_from_its_nearest_point() -> None:
    engine = SightEngine(FIELD)
    crossed = engine.obstacles_crossed((20, -3), (20, 5))  # runs along the wall
    assert [o.id for o, _ in crossed] == ["wall"]
    assert [d for _, d in crossed] == pytest.approx([3])


def test_random_battlefield_is_deterministic_and_sane() -> None:
    first, again = random_battlefield(5, n_buildings=40, size=70), random_battlefield(5, 40, 70)
    assert first == again
    assert len(first.buildings) == 40
    polygons = [Polygon(first.section(sid).footprint) for sid in first.section_ids]
    assert all(p.is_valid and p.area > 0 for p in polygons)
    for i, p in enumerate(polygons):
        for q in polygons[i + 1 :]:
            assert p.intersection(q).area < 1e-9  # sections may share walls, never floor
    assert any(len(b.sections) > 1 for b in first.buildings)
    assert {o.kind for o in first.obstacles} == set(ObstacleKind)


def test_random_positions_are_where_they_say() -> None:
    field = random_battlefield(2, n_buildings=40, size=70)
    positions = random_positions(3, field, 300)
    assert len(positions) == 300
    assert any(p.section is None for p in positions)
    assert any(p.floor > 0 for p in positions)
    for p in positions:
        if p.section is None:
            assert all(
                not Polygon(field.section(s).footprint).covers(Point(p.point))
                for s in field.section_ids
            )
        else:
            assert 0 <= p.floor < field.section(p.section).levels
            assert Polygon(field.section(p.section).footprint).buffer(1e-6).covers(Point(p.point))


def test_svg_is_valid_xml_with_every_section_and_marker() -> None:
    field = random_battlefield(4, n_buildings=25, size=60)
    ids = field.section_ids
    states = {ids[0]: SectionState.BURNING, ids[1]: SectionState.RUBBLE}
    markers = [
        Marker(10, 10, "Sgt <Kowalski> & co", "allies", "#2040c0"),
        Marker(30, 40, "MG 42", "axis"),
    ]
    root = ET.fromstring(render_svg(field, states, markers))
    assert root.tag == f"{SVG}svg"
    sections = [e for e in root.iter(f"{SVG}polygon") if "section" in e.get("class", "")]
    assert len(sections) == len(ids)
    assert sum("burning" in e.get("class", "") for e in sections) == 1
    assert sum("rubble" in e.get("class", "") for e in sections) == 1
    marker_groups = [e for e in root.iter(f"{SVG}g") if e.get("class") == "marker"]
    assert [g.get("data-side") for g in marker_groups] == ["allies", "axis"]
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "Sgt <Kowalski> & co" in texts
    assert any(t.endswith("inch") for t in texts)  # the scale bar


def test_svg_flips_the_y_axis() -> None:
    root = ET.fromstring(render_svg(FIELD))
    group = next(e for e in root.iter(f"{SVG}g") if e.get("class") == "map")
    assert group.get("transform") == "matrix(1 0 0 -1 0 20)"
