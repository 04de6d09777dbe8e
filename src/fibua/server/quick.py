"""Quick battles in the lobby: a rule set and a seed make a scenario no one has seen
(fibua.quick), which the server keeps as if it had been uploaded, so the lobby offers it
with the others and games are made from it the same way.

The seed only makes the map and the forces; a game made from the scenario draws its own
dice seed as any other does.
"""

from __future__ import annotations

import secrets
from typing import Any

from pydantic import Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fibua.core.errors import InputError
from fibua.quick.battle import ARMIES, quick_battle
from fibua.server.access import ApiError
from fibua.server.bodies import json_body
from fibua.server.hub import Hub
from fibua.server.models import Request as Body
from fibua.server.scenarios import entry, server_of

#: the seeds the lobby draws when none is given (short enough to read out)
DRAWN_SEEDS = 1_000_000


class QuickRequest(Body):
    ruleset: str = Field(min_length=1, max_length=40)
    #: the seed the battle is made from; none: one is drawn
    seed: int | None = Field(default=None, ge=0, lt=2**64)


def make(hub: Hub, ruleset: str, seed: int) -> dict[str, Any]:
    """The quick battle kept among the uploaded scenarios (engine thread): its lobby
    entry, with the seed and a few lines saying what it is."""
    try:
        battle = quick_battle(ruleset, seed)
    except InputError as error:
        raise ApiError(422, "unknown-ruleset", error.problems[0].message) from None
    scenario = hub.upload(battle.text, f"quick {ruleset} seed {seed}")
    return {**entry(scenario.name, scenario, uploaded=True), "seed": seed,
            "summary": list(battle.summary)}


async def rulesets(request: Request) -> Response:
    return JSONResponse({"rulesets": sorted(ARMIES)})


async def create(request: Request) -> Response:
    """A quick battle: 201 with its lobby entry."""
    server = server_of(request)
    try:
        body = QuickRequest.model_validate(await json_body(request))
    except ValidationError as error:
        problems = [f"{'.'.join(str(p) for p in item['loc']) or 'body'}: {item['msg']}"
                    for item in error.errors()]
        raise ApiError(422, "bad-request", "; ".join(problems)) from None
    seed = body.seed if body.seed is not None else secrets.randbelow(DRAWN_SEEDS)
    made = await server.run(make, server.hub, body.ruleset, seed)
    return JSONResponse(made, status_code=201)


def quick_routes() -> list[Route]:
    return [Route("/api/quick", rulesets, methods=["GET"]),
            Route("/api/quick", create, methods=["POST"])]
