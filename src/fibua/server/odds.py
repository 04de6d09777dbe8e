"""The odds questions of every rule set, over HTTP: public knowledge, so no token.

A rule set declares its questions as data (`RuleSet.odds_queries`: a name, a help line and
a pydantic model of the parameters), as `fibua odds` reads them. Here each question is
listed with its model's JSON schema, from which the game page builds a form, and answered
from a JSON body validated by that model; a bad body gets a 422 naming the fields.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fibua.core.errors import FibuaError, UnknownRuleset
from fibua.core.ruleset import OddsQuery, RuleSet, find_ruleset
from fibua.server.access import ApiError
from fibua.server.bodies import json_body


def ruleset_of(name: str) -> RuleSet[Any]:
    try:
        return find_ruleset(name)
    except (UnknownRuleset, ImportError):
        raise ApiError(404, "unknown-ruleset", f"no rule set {name!r}") from None


def query_of(ruleset: RuleSet[Any], name: str) -> OddsQuery:
    query = ruleset.odds_queries.get(name)
    if query is None:
        known = ", ".join(ruleset.odds_queries) or "none"
        raise ApiError(404, "unknown-question",
                       f"rule set {ruleset.name!r} has no odds question {name!r}; "
                       f"questions: {known}")
    return query


def describe(query: OddsQuery) -> dict[str, Any]:
    return {"name": query.name, "help": query.help,
            "schema": query.params.model_json_schema()}


def questions(name: str) -> dict[str, Any]:
    ruleset = ruleset_of(name)
    return {"ruleset": ruleset.name,
            "questions": [describe(q) for q in ruleset.odds_queries.values()]}


def bad_fields(error: ValidationError) -> tuple[list[str], str]:
    """The fields a validation error names, and one line saying what is wrong with each."""
    fields, parts = [], []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"])
        message = item["msg"].removeprefix("Value error, ")
        if where:
            fields.append(str(item["loc"][0]))
        parts.append(f"{where}: {message}" if where else message)
    return sorted(set(fields)), "; ".join(parts)


def answer(ruleset_name: str, query_name: str, body: Any) -> dict[str, Any]:
    """The answer to one question: its values and its breakdown, (label, value) rows."""
    query = query_of(ruleset_of(ruleset_name), query_name)
    if not isinstance(body, dict):
        raise ApiError(422, "bad-question", "the question's parameters are a JSON object")
    try:
        params = query.params.model_validate(body)
    except ValidationError as error:
        fields, message = bad_fields(error)
        raise BadQuestion(message, fields) from None
    try:
        report = query.compute(params)
    except (ValueError, FibuaError) as error:
        # a firing the rules forbid (out of range, no line of sight...) is the asker's input
        raise ApiError(422, "bad-question", str(getattr(error, "reason", error))) from None
    return {"ruleset": ruleset_name, "question": query_name, "values": report.values,
            "breakdown": [list(row) for row in report.breakdown]}


class BadQuestion(ApiError):
    """Parameters the question's model refuses: the answer names the fields."""

    def __init__(self, message: str, fields: list[str]) -> None:
        super().__init__(422, "bad-question", message)
        self.fields = fields


async def _run(request: Request, func: Any, *args: Any) -> Any:
    # the rule sets are used by the engine thread only (see app.py)
    return await request.app.state.server.run(func, *args)


async def list_questions(request: Request) -> Response:
    return JSONResponse(await _run(request, questions, request.path_params["ruleset"]))


async def ask(request: Request) -> Response:
    body = await json_body(request)
    try:
        found = await _run(request, answer, request.path_params["ruleset"],
                           request.path_params["question"], body)
    except BadQuestion as error:
        return JSONResponse({"error": error.code, "message": error.message,
                             "fields": error.fields}, status_code=error.status)
    return JSONResponse(found)


def odds_routes() -> list[Route]:
    """The routes to mount in the application (before its static files)."""
    return [
        Route("/api/odds/{ruleset}", list_questions, methods=["GET"]),
        Route("/api/odds/{ruleset}/{question}", ask, methods=["POST"]),
    ]
