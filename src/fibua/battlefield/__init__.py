"""The battlefield: immutable map model, line of sight, random maps and SVG pictures.

The model is imported eagerly; the sight engine (numba), the Shapely reference, random maps
and SVG rendering load on first use, so importing the model stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Construction,
    LengthUnit,
    Obstacle,
    ObstacleKind,
    Opening,
    OpeningKind,
    Point,
    Position,
    Section,
    SectionState,
    Table,
    TerrainArea,
    TerrainKind,
    convert_length,
)

if TYPE_CHECKING:
    from fibua.battlefield.randommap import random_battlefield, random_positions
    from fibua.battlefield.reference import reference_visible
    from fibua.battlefield.sight import MoveCheck, PositionArrays, SightEngine, WallCrossing
    from fibua.battlefield.svg import Marker, render_svg

_LAZY = {
    "MoveCheck": "sight",
    "PositionArrays": "sight",
    "SightEngine": "sight",
    "WallCrossing": "sight",
    "reference_visible": "reference",
    "random_battlefield": "randommap",
    "random_positions": "randommap",
    "Marker": "svg",
    "render_svg": "svg",
}

__all__ = [
    "Battlefield",
    "Building",
    "Construction",
    "LengthUnit",
    "Marker",
    "MoveCheck",
    "Obstacle",
    "ObstacleKind",
    "Opening",
    "OpeningKind",
    "Point",
    "Position",
    "PositionArrays",
    "Section",
    "SectionState",
    "SightEngine",
    "Table",
    "TerrainArea",
    "TerrainKind",
    "WallCrossing",
    "convert_length",
    "random_battlefield",
    "random_positions",
    "reference_visible",
    "render_svg",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"fibua.battlefield.{module}"), name)
