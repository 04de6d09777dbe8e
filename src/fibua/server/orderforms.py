"""Each rule set's orders as typed forms (core/orderforms.py), over HTTP: the game page
builds its order controls from them. They are the rules' syntax, the same for everyone and
no part of any game, so no token is asked (as for the odds questions)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fibua.core.orderforms import registry_dict
from fibua.server.odds import ruleset_of


def order_forms(name: str) -> dict[str, Any]:
    ruleset = ruleset_of(name)
    return registry_dict(ruleset.name, ruleset.order_kinds)


async def list_order_forms(request: Request) -> Response:
    # the rule sets are imported and used by the engine thread only (see app.py)
    found = await request.app.state.server.run(order_forms, request.path_params["ruleset"])
    return JSONResponse(found)


def order_form_routes() -> list[Route]:
    """The routes to mount in the application (before its static files)."""
    return [Route("/api/rulesets/{ruleset}/orders", list_order_forms, methods=["GET"])]
