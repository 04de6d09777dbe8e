"""Street-Fight parts of a scenario file: each side's forces and the rule options."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from fibua.rulesets.street_fight.tables import WeaponName

Ident = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FigureSpec(_Strict):
    id: Ident
    name: str
    #: a weapon, or "random" to roll on the random weapon table at set-up
    weapon: WeaponName | Literal["random"]
    at: tuple[float, float]
    floor: int = Field(default=0, ge=0)


class UnitSpec(_Strict):
    id: Ident
    name: str
    figures: Annotated[list[FigureSpec], Field(min_length=1)]


class Forces(_Strict):
    units: Annotated[list[UnitSpec], Field(min_length=1)]


class Options(_Strict):
    #: roll initiative once for the whole game instead of every turn
    fixed_initiative: bool = False
    #: the optional morale rules (units of more than one figure)
    morale: bool = True
    #: "+1 defending from cover" only in the round the enemy charged in, not in the later
    #: rounds of the same fight
    defence_first_round_only: bool = False
