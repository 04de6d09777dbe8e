"""Buildings parts of a scenario file: each side's units and the rule options.

A unit may name a typical unit of the catalogue (`type = "rifle-squad"`) and leave out
what the catalogue gives: its kind, weapons, vehicle, mobility. Every value the rules
leave to us is an option here, named in docs/rules/buildings.md.
"""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from fibua.rulesets.buildings.tables import (
    CATALOGUE,
    Mobility,
    ObserverKind,
    Quality,
    Typical,
    UnitKind,
    UnitType,
    VehicleKind,
    WeaponName,
    weapons_of,
)

Ident = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
Inches = Annotated[float, Field(ge=0, allow_inf_nan=False)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelSpec(_Strict):
    """One model of a unit (a vehicle or a gun is one model, its crew counted apart)."""

    at: tuple[float, float]
    #: its weapon; left out, the unit's catalogue or `weapon` gives it
    weapon: WeaponName | None = None


class InsideSpec(_Strict):
    """Where a unit set up inside a building starts."""

    section: str
    floor: int = Field(default=0, ge=0)
    #: a gun's opening (its index in the section's openings), fixed for the whole game
    opening: int | None = Field(default=None, ge=0)
    #: a wall of its floor with no opening (its index) where the unit made an opening
    made_opening: int | None = Field(default=None, ge=0)


class UnitSpec(_Strict):
    id: Ident
    name: str
    #: a typical unit of the catalogue, whose values fill what is left out
    type: UnitType | None = None
    kind: UnitKind | None = None
    quality: Quality = Quality.REGULAR
    models: Annotated[list[ModelSpec], Field(min_length=1)]
    #: the weapon of infantry models that name none
    weapon: WeaponName | None = None
    #: the weapons a gun's crew or a vehicle fire, one per mount
    mounts: list[WeaponName] | None = None
    vehicle: VehicleKind | None = None
    mobility: Mobility | None = None
    transport: bool | None = None
    gun_shield: bool | None = None
    observer: ObserverKind | None = None
    #: degrees, for vehicles and guns: the way their front faces (0 = +x, counter-clockwise)
    facing: float = Field(default=0.0, allow_inf_nan=False)
    #: the transport (a unit of the same side) it starts in
    aboard: Ident | None = None
    inside: InsideSpec | None = None

    @property
    def typical(self) -> Typical | None:
        return None if self.type is None else CATALOGUE[self.type]

    @property
    def unit_kind(self) -> UnitKind:
        if self.kind is not None:
            return self.kind
        typical = self.typical
        return UnitKind.INFANTRY if typical is None else typical.kind

    @property
    def unit_mobility(self) -> Mobility:
        if self.mobility is not None:
            return self.mobility
        typical = self.typical
        if typical is not None:
            return typical.mobility
        return {UnitKind.GUN: Mobility.MANHANDLED, UnitKind.VEHICLE: Mobility.TRACKED}.get(
            self.unit_kind, Mobility.FOOT)

    @property
    def vehicle_kind(self) -> VehicleKind | None:
        typical = self.typical
        return self.vehicle or (typical.vehicle if typical else None)

    @property
    def carries(self) -> bool:
        if self.transport is not None:
            return self.transport
        typical = self.typical
        return typical.transport if typical else False

    @property
    def shielded(self) -> bool:
        if self.gun_shield is not None:
            return self.gun_shield
        typical = self.typical
        return typical.gun_shield if typical else False

    @property
    def observes(self) -> ObserverKind | None:
        typical = self.typical
        return self.observer or (typical.observer if typical else None)

    def model_weapons(self) -> list[WeaponName | None]:
        """The weapon each model fires (None: it fires nothing, as a gun's crew or a
        vehicle's hull fire only the mounts)."""
        if self.unit_kind is not UnitKind.INFANTRY:
            return [None] * len(self.models)
        typical = self.typical
        listed: list[WeaponName] = weapons_of(typical) if typical else []
        fallback = self.weapon or (typical.weapon if typical else None) or WeaponName.RIFLE
        out: list[WeaponName | None] = []
        for i, model in enumerate(self.models):
            if model.weapon is not None:
                out.append(model.weapon)
            elif i < len(listed):
                out.append(listed[i])
            elif typical is not None and typical.weapon is None:
                out.append(None)  # a team's other models serve its weapon
            else:
                out.append(fallback)
        return out

    def unit_mounts(self) -> list[WeaponName]:
        """The weapons of a gun or vehicle, one per mount."""
        if self.mounts is not None:
            return list(self.mounts)
        typical = self.typical
        if typical is None or typical.kind is UnitKind.INFANTRY:
            return []
        return weapons_of(typical)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        kind = self.unit_kind
        if kind is UnitKind.VEHICLE:
            if self.vehicle_kind is None:
                raise ValueError("a vehicle needs its vehicle kind (or a vehicle type)")
            if len(self.models) != 1:
                raise ValueError("a vehicle is one model")
            if self.inside is not None:
                raise ValueError("vehicles cannot be set up inside buildings")
        elif self.vehicle is not None or self.transport:
            raise ValueError("only vehicles have a vehicle kind or carry troops")
        if kind is UnitKind.GUN and not self.unit_mounts():
            raise ValueError("a gun needs its weapon (mounts or a gun type)")
        if self.aboard is not None and kind is not UnitKind.INFANTRY:
            raise ValueError("only infantry ride in transports")
        if self.aboard is not None and self.inside is not None:
            raise ValueError("a unit starts aboard a transport or inside a building, not both")
        inside = self.inside
        if inside is not None:
            if kind is UnitKind.GUN and (inside.floor != 0 or inside.opening is None):
                raise ValueError("a gun set up inside is on the ground floor and names the "
                                 "opening it fires through")
            if kind is not UnitKind.GUN and inside.opening is not None:
                raise ValueError("only a gun names a fixed opening")
        if self.unit_mobility is Mobility.MANHANDLED and kind is not UnitKind.GUN:
            raise ValueError("only guns are manhandled")
        return self


class Forces(_Strict):
    units: Annotated[list[UnitSpec], Field(min_length=1)]

    @model_validator(mode="after")
    def _references(self) -> Self:
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise ValueError("unit ids must be unique within a side")
        carriers = {u.id for u in self.units if u.carries}
        riders: dict[str, str] = {}
        for unit in self.units:
            if unit.aboard is None:
                continue
            if unit.aboard not in carriers:
                raise ValueError(f"{unit.id} is aboard {unit.aboard}, not a transport of "
                                 "this side")
            if unit.aboard in riders:
                raise ValueError(f"{unit.aboard} carries one unit: {riders[unit.aboard]} "
                                 f"and {unit.id}")
            riders[unit.aboard] = unit.id
        return self


class Options(_Strict):
    """Rule options: each *ours* value of docs/rules/buildings.md, and the readings."""

    #: inches: each model of a unit stays this close to another model of the unit
    coherency: Inches = 2.0
    #: a double 6 on an order test: the unit goes Down and gains `blunder_pins` pins;
    #: false: a double 6 is only a failed test (the unit goes Down)
    blunder: bool = True
    blunder_pins: int = Field(default=1, ge=0, le=3)
    #: inches a winner of an assault may regroup
    regroup: Inches = 6.0
    #: false: the players agree that no unit goes into a building (the seed's option: none
    #: enters, none is set up inside); buildings are scenery, still shot at, set alight,
    #: brought down and driven into
    enter_buildings: bool = True
    #: true: whether an enemy outside may fire at assaulters leaping out of a building is
    #: measured from the building's walls, as the chapter words it; false, the default
    #: (rulings): from the opening they leap out by
    leap_out_from_walls: bool = False
    #: inches from a stopped transport that its passengers are placed when they bail out
    bail_out: Inches = 3.0
    #: turns to play; None: the scenario's `turns` (the rules' usual game is DEFAULT_TURNS)
    turn_limit: int | None = Field(default=None, ge=1, le=200)
    #: after the last turn, a D6 of at least this plays one more; None: no extra turn
    extra_turn_on: int | None = Field(default=4, ge=1, le=6)
    #: the vehicle damage chart: D6 up to this, crew shaken (one pin, next order Down)
    shaken_up_to: int = Field(default=2, ge=0, le=6)
    #: then up to this, immobilised; above it, knocked out
    immobilised_up_to: int = Field(default=4, ge=0, le=6)
    #: superficial damage: one pin, and immobilised on a D6 of at least this
    superficial_immobilised_on: int = Field(default=5, ge=1, le=7)
    #: forward observers may call air strikes and barrages
    observers: bool = True
    #: air strike, the D6 next turn: up to this it hits the nearest friendly unit
    strike_friendly_up_to: int = Field(default=1, ge=0, le=6)
    #: then up to this, it does not come; above it, it strikes
    strike_no_show_up_to: int = Field(default=3, ge=0, le=6)
    #: inches: every other unit this close to the target takes a pin
    strike_pin_radius: Inches = 6.0
    #: barrages an artillery observer may call in a game
    barrages: int = Field(default=1, ge=0)
    #: inches from the aiming point within which units roll on the barrage table
    barrage_radius: Inches = 12.0
    #: barrage D6 per unit: up to this, nothing
    barrage_nothing_up_to: int = Field(default=2, ge=0, le=6)
    #: then up to this, D3 pins; above it, a heavy howitzer hit
    barrage_pins_up_to: int = Field(default=5, ge=0, le=6)

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.shaken_up_to > self.immobilised_up_to:
            raise ValueError("shaken_up_to cannot be above immobilised_up_to")
        if self.strike_friendly_up_to > self.strike_no_show_up_to:
            raise ValueError("strike_friendly_up_to cannot be above strike_no_show_up_to")
        if self.barrage_nothing_up_to > self.barrage_pins_up_to:
            raise ValueError("barrage_nothing_up_to cannot be above barrage_pins_up_to")
        return self
