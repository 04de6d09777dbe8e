"""The bodies the server accepts: every request is read through one of these models, so a
malformed one is refused with the field and what is wrong, before anything is touched."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

#: the computer's levels as a request names them (`fibua.session.computers.Level`'s
#: values: tests/test_server_levels.py keeps the two the same)
LevelName = Literal["easy", "normal", "hard"]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateGame(Request):
    scenario: str = Field(min_length=1, max_length=100)
    #: a seed to play a game again (no secret); none: a secret one is drawn
    seed: int | None = Field(default=None, ge=0, lt=2**256)
    #: who plays each seat, by seat name; seats left out are played by the computer
    seats: dict[str, Literal["human", "computer"]] = {}
    #: how well the computer plays each of its seats, by seat name (`Level`); a computer
    #: seat left out plays `normal`
    levels: dict[str, LevelName] = {}


class OrderRequest(Request):
    kind: str = Field(min_length=1, max_length=40)
    unit: str | None = Field(default=None, min_length=1, max_length=100)
    params: dict[str, JsonValue] = {}


class TokenRequest(Request):
    #: a human seat's name, or "spectator"
    role: str = Field(min_length=1, max_length=200)
    #: true: the link stops working and no new one is made
    revoke: bool = False


def plain(params: dict[str, JsonValue]) -> dict[str, Any]:
    return dict(params)
