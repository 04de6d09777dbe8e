"""Scenario files: the common schema. Each rule set validates its own `forces` and `options`.

Unknown keys are errors everywhere (`extra="forbid"`), so a typo never passes silently.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Construction,
    LengthUnit,
    Obstacle,
    ObstacleKind,
    Opening,
    OpeningKind,
    Section,
    Table,
    TerrainArea,
    TerrainKind,
)

XY = tuple[float, float]
PolygonPoints = Annotated[list[XY], Field(min_length=3)]

#: Heights in inches used when a file leaves an obstacle's height out (28 mm figures).
DEFAULT_HEIGHT_INCH: dict[ObstacleKind, float] = {
    ObstacleKind.LOW_WALL: 0.5,
    ObstacleKind.HIGH_WALL: 1.5,
    ObstacleKind.HEDGE: 1.0,
    ObstacleKind.FENCE: 0.6,
}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Meta(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    ruleset: str
    description: str = ""
    turns: int = Field(ge=1, le=200)
    history: str = ""


class TerrainSpec(Strict):
    id: str
    kind: TerrainKind
    polygon: PolygonPoints


class ObstacleSpec(Strict):
    id: str
    kind: ObstacleKind
    points: Annotated[list[XY], Field(min_length=2)]
    height: float | None = Field(default=None, gt=0)


class OpeningSpec(Strict):
    kind: OpeningKind
    wall: int = Field(ge=0)
    floor: int = Field(default=0, ge=0)
    at: float = Field(ge=0)
    width: float = Field(default=1.0, gt=0)


class SectionSpec(Strict):
    id: str
    footprint: PolygonPoints
    floors: int = Field(default=1, ge=1, le=20)
    flat_roof: bool = False
    construction: Construction = Construction.BRICK
    openings: list[OpeningSpec] = []

    @model_validator(mode="after")
    def openings_fit(self) -> SectionSpec:
        section = self.to_section()
        for i, spec in enumerate(self.openings):
            if spec.wall >= len(self.footprint):
                raise ValueError(
                    f"openings[{i}]: wall {spec.wall} does not exist "
                    f"(the footprint has walls 0..{len(self.footprint) - 1})"
                )
            if spec.floor >= section.levels:
                raise ValueError(
                    f"openings[{i}]: floor {spec.floor} does not exist "
                    f"(floors 0..{section.levels - 1})"
                )
            (x0, y0), (x1, y1) = section.wall(spec.wall)
            length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
            if spec.at - spec.width / 2 < 0 or spec.at + spec.width / 2 > length + 1e-9:
                raise ValueError(
                    f"openings[{i}]: an opening {spec.width} wide at {spec.at} does not fit "
                    f"on wall {spec.wall}, which is {length:g} long"
                )
        return self

    def to_section(self) -> Section:
        return Section(
            id=self.id,
            footprint=tuple(self.footprint),
            floors=self.floors,
            flat_roof=self.flat_roof,
            construction=self.construction,
            openings=tuple(
                Opening(o.kind, o.wall, o.floor, o.at, o.width) for o in self.openings
            ),
        )


class BuildingSpec(Strict):
    id: str
    name: str
    sections: Annotated[list[SectionSpec], Field(min_length=1)]
    connections: list[tuple[str, str]] = []

    @model_validator(mode="after")
    def connections_known(self) -> BuildingSpec:
        ids = {s.id for s in self.sections}
        for a, b in self.connections:
            for name in (a, b):
                if name not in ids:
                    raise ValueError(f"connection names section {name!r}, not in this building")
        return self


class MapSpec(Strict):
    width: float = Field(gt=0)
    height: float = Field(gt=0)
    unit: LengthUnit = LengthUnit.INCH
    terrain: list[TerrainSpec] = []
    obstacles: list[ObstacleSpec] = []
    buildings: list[BuildingSpec] = []

    @model_validator(mode="after")
    def ids_unique(self) -> MapSpec:
        seen: set[str] = set()
        names = [t.id for t in self.terrain] + [o.id for o in self.obstacles]
        names += [b.id for b in self.buildings]
        names += [s.id for b in self.buildings for s in b.sections]
        for name in names:
            if name in seen:
                raise ValueError(f"id {name!r} is used twice on the map")
            seen.add(name)
        return self

    def to_battlefield(self) -> Battlefield:
        scale = 1.0 if self.unit is LengthUnit.INCH else 2.54
        return Battlefield(
            table=Table(self.width, self.height, self.unit),
            terrain=tuple(TerrainArea(t.id, t.kind, tuple(t.polygon)) for t in self.terrain),
            obstacles=tuple(
                Obstacle(
                    o.id,
                    o.kind,
                    tuple(o.points),
                    o.height if o.height is not None else DEFAULT_HEIGHT_INCH[o.kind] * scale,
                )
                for o in self.obstacles
            ),
            buildings=tuple(
                Building(
                    b.id,
                    b.name,
                    tuple(s.to_section() for s in b.sections),
                    tuple(b.connections),
                )
                for b in self.buildings
            ),
        )


class SideSpec(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    deployment: PolygonPoints | None = None
    forces: dict[str, Any]
    #: who plays this side when `fibua play` starts without --side: "human" or "computer"
    player: Literal["human", "computer"] = "computer"


class VictorySpec(Strict):
    """A condition scored at the end. `hold`: the side has troops in the zone or sections and
    the enemy has none; `reach`: the side has troops in the zone; `eliminate`: the enemy
    has no troops left able to fight; `survive`: the side still has troops able to fight."""

    side: str
    kind: Literal["hold", "reach", "eliminate", "survive"]
    points: int = Field(default=1, ge=0)
    zone: PolygonPoints | None = None
    sections: list[str] = []
    description: str = ""


class Scenario(Strict):
    """A whole scenario file; `forces` and `options` checked by the rule set named in it."""

    scenario: Meta
    map: MapSpec
    sides: Annotated[list[SideSpec], Field(min_length=2)]
    victory: list[VictorySpec] = []
    options: dict[str, Any] = {}
    _forces: dict[str, Any] = PrivateAttr(default_factory=dict)
    _options: Any = PrivateAttr(default=None)
    #: the file's raw table, embedded in logs so a replay needs no file
    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def references_known(self) -> Scenario:
        names = [s.name for s in self.sides]
        if len(set(names)) != len(names):
            raise ValueError("two sides have the same name")
        sections = {s.id for b in self.map.buildings for s in b.sections}
        for i, v in enumerate(self.victory):
            if v.side not in names:
                raise ValueError(f"victory[{i}]: side {v.side!r} is not one of {names}")
            unknown = [s for s in v.sections if s not in sections]
            if unknown:
                raise ValueError(f"victory[{i}]: unknown sections {unknown}")
            if v.kind in ("hold", "reach") and v.zone is None and not v.sections:
                raise ValueError(f"victory[{i}]: a {v.kind} condition needs a zone or sections")
        return self

    @property
    def ruleset(self) -> str:
        return self.scenario.ruleset

    @property
    def name(self) -> str:
        return self.scenario.name

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sides)

    def side(self, name: str) -> SideSpec:
        for spec in self.sides:
            if spec.name == name:
                return spec
        raise KeyError(name)

    @cached_property
    def battlefield(self) -> Battlefield:
        return self.map.to_battlefield()

    def forces_of(self, side: str) -> Any:
        """A side's forces as the rule set's model (checked by the loader)."""
        return self._forces[side]

    @property
    def rule_options(self) -> Any:
        """The options as the rule set's options model (checked by the loader)."""
        return self._options
