"""Street Fighter parts of a scenario file: each side's formations and the rule options.

A formation is either a preset from the seed (its units made from the catalogue, placed at
the `at` points in the preset's order, passengers starting in their vehicles) or a list of
units. A company preset stands for several formations (its HQ and platoons), each set up
as if listed on its own. A unit stands `at` a point, or Control picks one of its
`candidates` by the game's seed: a hidden deployment plan that plays differently with
another seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, model_validator

from fibua.rulesets.street_fighter.tables import (
    CATALOGUE,
    COMPANIES,
    PRESETS,
    Kind,
    PresetName,
    placed_titles,
)

Ident = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
XY = tuple[FiniteFloat, FiniteFloat]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitSpec(_Strict):
    id: Ident
    name: str
    kind: Kind
    at: XY | None = None
    #: several places: Control picks one by the game's seed
    candidates: Annotated[list[XY], Field(min_length=2)] | None = None
    #: the vehicle (a unit id of the same formation) the unit starts in
    rides: Ident | None = None

    @model_validator(mode="after")
    def placed_once(self) -> UnitSpec:
        given = sum(x is not None for x in (self.at, self.candidates, self.rides))
        if given != 1:
            raise ValueError("give a unit exactly one of at, candidates or rides")
        return self


class FormationSpec(_Strict):
    id: Ident
    name: str
    #: who commands it: formations with the same commander make one seat at the table
    commander: str | None = None
    preset: PresetName | None = None
    #: for a preset: where each unit that is not a passenger stands, in the preset's order
    at: list[XY] = []
    units: list[UnitSpec] = []

    @model_validator(mode="after")
    def preset_or_units(self) -> FormationSpec:
        if (self.preset is None) == (not self.units):
            raise ValueError("give a formation either a preset or a list of units")
        if self.preset is not None:
            placed = placed_titles(self.preset)
            if len(self.at) != len(placed):
                raise ValueError(f"preset {self.preset!r} needs {len(placed)} points in at "
                                 f"(one for each of: {', '.join(placed)})")
        elif self.at:
            raise ValueError("at is for presets; give each unit its own at")
        return self


class DestroySpec(_Strict):
    """An objective the common victory table cannot say: knock out these enemy units."""

    side: str
    units: Annotated[list[Ident], Field(min_length=1)]
    points: int = Field(default=1, ge=0)
    description: str = ""


class Forces(_Strict):
    formations: Annotated[list[FormationSpec], Field(min_length=1)]
    #: how the computer plays the side: take the objectives, or hold them
    doctrine: Literal["attack", "defend"] = "attack"
    #: artillery fire missions the side's HQ sections may call, for the whole game
    artillery: int = Field(default=0, ge=0, le=20)


class Options(_Strict):
    #: a pinned unit may try to unpin at the end of the turn it was pinned (off: it stays
    #: pinned through the next turn, as the seed says, and rolls from then on)
    early_unpin: bool = False
    #: the infantry target in cover counts as in a building area for the shooting table
    cover_is_building: bool = False
    destroy: list[DestroySpec] = []


@dataclass(frozen=True, slots=True)
class Placement:
    """One unit of a formation as set up: made from a preset or listed."""

    id: str
    name: str
    kind: Kind
    at: tuple[float, float] | None
    candidates: tuple[tuple[float, float], ...]
    rides: str | None


def parts(formation: FormationSpec) -> list[FormationSpec]:
    """The formations a spec stands for: a company preset's HQ and platoons (its `at`
    points dealt out in order), else the spec itself."""
    if formation.preset not in COMPANIES:
        return [formation]
    spots = list(formation.at)
    out = []
    for part in COMPANIES[formation.preset]:
        n = len(placed_titles(part.preset))
        out.append(FormationSpec(
            id=f"{formation.id}-{part.suffix}", name=f"{formation.name} {part.title}",
            commander=formation.commander, preset=part.preset, at=spots[:n]))
        spots = spots[n:]
    return out


def all_formations(forces: Forces) -> list[FormationSpec]:
    """A side's formations as played, company presets split into their formations."""
    return [part for spec in forces.formations for part in parts(spec)]


def placements(formation: FormationSpec) -> list[Placement]:
    """The units of a formation (or of every formation a company preset stands for),
    presets expanded."""
    if formation.preset in COMPANIES:
        return [p for part in parts(formation) for p in placements(part)]
    if formation.preset is None:
        return [
            Placement(u.id, u.name, u.kind, u.at, tuple(u.candidates or ()), u.rides)
            for u in formation.units
        ]
    spots = iter(formation.at)
    out = []
    for unit in PRESETS[formation.preset]:
        at = None if unit.rides else next(spots)
        rides = f"{formation.id}-{unit.rides}" if unit.rides else None
        title = f"{formation.name} {unit.title}" if unit.title else CATALOGUE[unit.kind].title
        out.append(Placement(f"{formation.id}-{unit.suffix}", title, unit.kind, at, (), rides))
    return out
