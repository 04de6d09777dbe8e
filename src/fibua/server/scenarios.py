"""The lobby's scenarios: the bundled ones and those uploaded, their maps, and uploading.

An upload is the file's bytes as the request body (its name in `?filename=`). It is read
with a size limit, must be UTF-8 text, and is checked by the scenario loader; every problem
goes back with its field path, and nothing is kept unless the file is valid.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from fibua.core.errors import FibuaError, ScenarioError
from fibua.core.ruleset import find_ruleset
from fibua.scenario.loader import bundled_scenarios
from fibua.scenario.schema import Scenario
from fibua.server.access import ApiError
from fibua.server.hub import Hub
from fibua.server.messages import briefing, map_svg

if TYPE_CHECKING:
    from fibua.server.app import Server

#: the largest scenario file taken: the bundled ones are at most 15 KB, and a file is
#: checked in the engine thread (a valid 800 KB one takes seconds, other games waiting)
MAX_UPLOAD_BYTES = 256 * 2**10
#: a file name is only for the messages: longer ones are cut
MAX_SOURCE = 200


def server_of(request: Request) -> Server:
    found: Server = request.app.state.server
    return found


def entry(name: str, scenario: Scenario, uploaded: bool) -> dict[str, Any]:
    """A scenario as the lobby shows it: its briefing and its seats."""
    ruleset = find_ruleset(scenario.ruleset)
    seats = [{"name": s.name, "side": s.side,
              "units": sorted(s.units) if s.units is not None else None}
             for side in scenario.side_names for s in ruleset.seats(scenario, side)]
    return {**briefing(scenario), "name": name, "seats": seats, "uploaded": uploaded}


@functools.cache
def bundled_entries() -> tuple[dict[str, Any], ...]:
    from fibua.scenario.loader import load_scenario

    out = []
    for name, path in bundled_scenarios().items():
        try:
            out.append(entry(name, load_scenario(path), uploaded=False))
        except FibuaError:
            continue
    return tuple(out)


def scenario_list(hub: Hub) -> list[dict[str, Any]]:
    """The bundled scenarios, then the uploaded ones (in the engine thread)."""
    uploaded = [entry(name, scenario, uploaded=True) for name, scenario in hub.uploaded.items()]
    return [*bundled_entries(), *uploaded]


#: drawn maps, by scenario name, with the scenario object they were drawn from
_drawn: dict[str, tuple[Scenario, str]] = {}


def scenario_svg(hub: Hub, name: str) -> str:
    scenario = hub.scenario_named(name)
    kept = _drawn.get(name)
    if kept is None or kept[0] is not scenario:
        kept = _drawn[name] = (scenario, map_svg(scenario))
    return kept[1]


async def scenarios(request: Request) -> Response:
    server = server_of(request)
    return JSONResponse(await server.run(scenario_list, server.hub))


async def scenario_map(request: Request) -> Response:
    server = server_of(request)
    text = await server.run(scenario_svg, server.hub, request.path_params["name"])
    return Response(text, media_type="image/svg+xml")


async def upload_body(request: Request) -> bytes:
    """The request body, refused (413) as soon as it passes the limit, whatever the
    Content-Length says."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
        raise too_large()
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_UPLOAD_BYTES:
            raise too_large()
    return bytes(data)


def too_large() -> ApiError:
    return ApiError(413, "too-large", f"a scenario file is at most {MAX_UPLOAD_BYTES // 1024} "
                                      f"KiB; this one is larger")


def upload_text(data: bytes) -> str:
    """The file's text, or a 400 saying why it is not a text file."""
    if b"\0" in data:
        raise ApiError(400, "not-text", "the file holds binary data: a scenario is TOML text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ApiError(400, "not-text",
                       f"the file is not UTF-8 text: byte 0x{data[error.start]:02x} at offset "
                       f"{error.start} does not decode (save it as UTF-8)") from None


async def upload(request: Request) -> Response:
    """A scenario file: 201 with its lobby entry, or 422 with every problem."""
    server = server_of(request)
    source = (request.query_params.get("filename") or "upload")[:MAX_SOURCE]
    text = upload_text(await upload_body(request))
    try:
        scenario = await server.run(server.hub.upload, text, source)
    except ScenarioError as error:
        count = len(error.problems)
        return JSONResponse({
            "error": "invalid-scenario",
            "message": f"{source}: {count} problem{'s' if count != 1 else ''}, nothing kept",
            "problems": [{"path": p.path, "message": p.message} for p in error.problems],
        }, status_code=422)
    made = await server.run(entry, scenario.name, scenario, True)
    return JSONResponse(made, status_code=201)
