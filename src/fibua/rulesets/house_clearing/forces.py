"""House-Clearing parts of a scenario file: each side's players and figures, and the rule
options."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from fibua.rulesets.house_clearing.tables import Rank, Stance, WeaponName

Ident = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]

MAX_PLAYERS = 5  # players a side
MAX_FIGURES = 6  # figures a player


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FigureSpec(_Strict):
    id: Ident
    name: str
    weapon: WeaponName
    #: officers, NCOs and heroes roll D3+1 initiative and 4D6x10 skill
    rank: Rank = Rank.SOLDIER
    at: tuple[float, float]
    floor: int = Field(default=0, ge=0)
    stance: Stance = Stance.STANDING
    #: fixed statistics; left out, they are rolled at set-up with the game's seed
    initiative: int | None = Field(default=None, ge=0, le=9)
    skill: int | None = Field(default=None, ge=0, le=990)


class PlayerSpec(_Strict):
    """One player's figures: a seat at the table."""

    id: Ident
    name: str
    figures: Annotated[list[FigureSpec], Field(min_length=1, max_length=MAX_FIGURES)]


class Forces(_Strict):
    players: Annotated[list[PlayerSpec], Field(min_length=1, max_length=MAX_PLAYERS)]


class Options(_Strict):
    #: standing height of a figure, inches (25-28 mm figures: about 1 in)
    figure_height: float = Field(default=1.0, gt=0, le=3)
    #: height of a window sill above its floor, inches
    window_sill: float = Field(default=0.5, ge=0, le=2)
    #: a figure that fired during the move phase may still move in its own step
    move_after_reaction_fire: bool = False
    #: roll a D6 a side each turn for who moves first in every step (else they alternate)
    roll_for_first: bool = False
    #: automatic fire also strikes friendly figures inside the cone
    friendly_fire: bool = True
    #: fire at movers during the move phase (and duck back) is allowed
    reaction_fire: bool = True
