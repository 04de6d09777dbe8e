"""After the game: the after-action report with every turn, and replays of uploaded logs.

Both are built the same way, from a full log (`core.replay`): its orders are played again
from its seed, turn by turn (`replay_by_turn`), and each turn is sent as Control saw it:
every event, whoever it was addressed to, and where every figure of every side stood at its
end. That is everything both sides did not see, so a game's report is given only once the
game is over; before, every holder is refused (fog of war).

An uploaded log is verified first (every line and the final state hash must be what the
replay gives) and stored nowhere. A side's log is refused: it has no seed and no enemy
forces, so it can be neither verified nor drawn as Control saw it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from fibua.core.errors import FibuaError, IllegalOrder, InputError, ReplayMismatch
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.replay import (
    ParsedLog,
    SideViewLog,
    TurnRecord,
    log_lines,
    parse_log,
    replay_by_turn,
    replay_log,
)
from fibua.core.ruleset import ruleset_names
from fibua.server.access import ApiError
from fibua.server.app import STATIC, bearer, server_of
from fibua.server.bodies import check_limits
from fibua.server.hub import players_line
from fibua.server.messages import briefing, map_svg
from fibua.session.figures import has_position, out_of_action, where
from fibua.session.narration import (
    Names,
    audience,
    describe_event,
    names_for,
    narrate,
    place_names,
    win_text,
)

#: the largest log the upload takes (a whole game of a few hundred orders is a few hundred
#: kilobytes; the bound keeps one upload from holding the engine thread for long)
MAX_LOG_BYTES = 4 * 1024 * 1024
#: one colour per side, in the scenario's order (the game page's own blue and red first)
SIDE_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1")
#: how much of a differing log line a refusal quotes
QUOTED = 300


# -- what a report holds ---------------------------------------------------------------------


def figure_entry(info: Mapping[str, Any]) -> dict[str, Any]:
    """A figure where it stood: the few keys the map and the table need."""
    return {
        "id": str(info.get("id", "")),
        "name": str(info.get("name", "")),
        "x": info["x"] if has_position(info) else None,
        "y": info["y"] if has_position(info) else None,
        "where": where(info),
        "status": str(info.get("status", "")),
        "out": out_of_action(info),
    }


def sighting_entry(info: Mapping[str, Any]) -> dict[str, Any]:
    """An enemy as a side's view held it: where it was last seen, and whether in sight."""
    return {**figure_entry(info), "visible": info.get("visible_now") is True,
            "seen_turn": info.get("seen_turn")}


def event_entry(event: Event, ruleset: str, names: Names,
                sides: Sequence[str] = ()) -> dict[str, Any]:
    """An event as Control tells it once the game is over (every name revealed), with the
    sides it was told to (of `sides`: the report's view switch shows a side its own)."""
    head, *rolls = narrate(event, ruleset, names)
    return {"kind": event.kind, "turn": event.turn, "to": audience(event), "text": head,
            "rolls": rolls, "details": describe_event(event),
            "sides": [side for side in sides if event.seen_by(side)]}


def revealed_names(game: Game) -> Names:
    """Every unit's name as the sides' views hold them at the end, and the map's places."""
    scenario = game.scenario
    by_id: dict[str, str] = {}
    for side in scenario.side_names:
        by_id |= names_for(scenario.ruleset, game.view(side)).by_id
    return Names(by_id, names_for(scenario.ruleset, {}).unit,
                 place_names(scenario.battlefield))


def turn_entry(record: TurnRecord, ruleset: str, names: Names) -> dict[str, Any]:
    sides = list(record.standing)
    return {
        "turn": record.turn,
        "events": [event_entry(event, ruleset, names, sides) for event in record.events],
        "standing": {side: [figure_entry(info) for info in figures]
                     for side, figures in record.standing.items()},
        "seen": {side: [sighting_entry(info) for info in enemies]
                 for side, enemies in record.seen.items()},
    }


def report_body(game: Game, records: Sequence[TurnRecord], lines: int) -> dict[str, Any]:
    """The whole report: the scenario, the result, the after-action text and every turn."""
    scenario = game.scenario
    result = game.result()
    names = revealed_names(game)
    return {
        "scenario": briefing(scenario),
        # as its digits: a page's JSON reader rounds any number past 2**53, and a seed is
        # 128 bits when the server drew it
        "seed": str(game.seed),
        "orders": len(game.orders),
        "lines": lines,
        "state_hash": game.state_hash(),
        "sides": [{"name": side, "colour": SIDE_COLOURS[n % len(SIDE_COLOURS)]}
                  for n, side in enumerate(scenario.side_names)],
        "result": result.to_dict() if result is not None else None,
        "headline": win_text(result) if result is not None else "the game was not finished",
        "after_action": game.ruleset.after_action(game.state),
        "map": map_svg(scenario),
        "turns": [turn_entry(record, scenario.ruleset, names) for record in records],
    }


# -- verifying and replaying a log -----------------------------------------------------------


def refusal(error: InputError, code: str) -> ApiError:
    return ApiError(422, code, "; ".join(p.message if not p.path else f"{p.path}: {p.message}"
                                         for p in error.problems))


def parsed_upload(text: str) -> ParsedLog:
    """The log's structure checked, and its rule set one this server knows."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            check_limits(line, f"line {number}")
    try:
        parsed = parse_log(text, "log")
    except InputError as error:
        raise refusal(error, "bad-log") from None
    ruleset = parsed.header["ruleset"]
    if ruleset not in ruleset_names():
        raise ApiError(422, "unknown-ruleset", f"line 1: the log is a game of rule set "
                                               f"{ruleset!r}, which this server does not know "
                                               f"(it knows {', '.join(ruleset_names())})")
    if parsed.header.get("view") is not None:
        raise ApiError(422, "side-log", f"this is side {parsed.header['view']!r}'s log: it "
                                        "holds no seed and no enemy forces, so it can be "
                                        "neither verified nor replayed; upload the full log "
                                        "(the game's log once it is over)")
    return parsed


def mismatch_error(found: ReplayMismatch) -> ApiError:
    def quoted(value: object) -> str:
        text = str(value)
        return text if len(text) <= QUOTED else text[:QUOTED] + "..."

    return ApiError(422, "replay-mismatch",
                    f"the log does not verify: at line {found.line} it has "
                    f"{quoted(found.expected)} where playing its orders again gives "
                    f"{quoted(found.actual)}")


def first_difference(logged: Sequence[str], replayed: Sequence[str]) -> ReplayMismatch | None:
    for n, (one, other) in enumerate(zip(logged, replayed, strict=False)):
        if one != other:
            return ReplayMismatch(n + 1, one, other)
    if len(logged) != len(replayed):
        n = min(len(logged), len(replayed))
        return ReplayMismatch(n + 1, logged[n] if n < len(logged) else "<no more lines>",
                              replayed[n] if n < len(replayed) else "<no more lines>")
    return None


def verified_turns(parsed: ParsedLog) -> tuple[list[TurnRecord], Game]:
    """Play the log's orders again turn by turn and check every line it holds against the
    replay's; any difference (a die, an event, the final hash) refuses the log."""
    try:
        records, game = replay_by_turn(parsed)
    except SideViewLog as error:
        raise refusal(error, "side-log") from None
    except InputError as error:
        raise refusal(error, "bad-scenario") from None
    except IllegalOrder:
        # the verifying replay names the first line that differs (maybe before the refusal)
        report = replay_log(parsed)
        raise mismatch_error(report.mismatch or ReplayMismatch(0, "", "")) from None
    except FibuaError as error:
        raise ApiError(422, "rules-fault", f"the rules failed on this log: {error}") from None
    found = first_difference(parsed.lines, log_lines(game))
    if found is not None:
        raise mismatch_error(found)
    return records, game


@functools.lru_cache(maxsize=8)
def report_of_log(text: str) -> dict[str, Any]:
    """The report of a full log, verified (kept for the last few logs asked: a game's
    report is asked by each of its seats and spectators)."""
    parsed = parsed_upload(text)
    records, game = verified_turns(parsed)
    return report_body(game, records, len(parsed.lines))


def game_log_text(game: Game) -> str:
    return "".join(line + "\n" for line in log_lines(game))


# -- the routes ------------------------------------------------------------------------------


async def report_page(request: Request) -> Response:
    return FileResponse(STATIC / "report.html")


async def watch_page(request: Request) -> Response:
    return FileResponse(STATIC / "watch.html")


async def game_report(request: Request) -> Response:
    """A finished game's report, for any holder of one of its links; refused before the
    end, when it would show each side what it has not seen."""
    server = server_of(request)
    game_id = request.path_params["game"]

    def build() -> dict[str, Any]:
        live, _ = server.hub.holder(game_id, bearer(request))
        if not live.game.over:
            raise ApiError(409, "game-not-over",
                           "the after-action report opens once the game is over: until then "
                           "it would show each side the enemies it has not seen")
        return {"id": live.id, "players": players_line(live.seats),
                **report_of_log(game_log_text(live.game))}

    return JSONResponse(await server.run(build))


async def read_upload(request: Request) -> str:
    """The request body as text, refused once it passes MAX_LOG_BYTES (read no further)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_LOG_BYTES:
        raise too_big()
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_LOG_BYTES:
            raise too_big()
        chunks.append(chunk)
    if not size:
        raise ApiError(422, "bad-log", "the file is empty: not a fibua log")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as error:
        raise ApiError(422, "bad-log", f"the file is not UTF-8 text (byte {error.start}): "
                                       "not a fibua log") from None


def too_big() -> ApiError:
    return ApiError(413, "too-big", f"the log is larger than {MAX_LOG_BYTES // (1024 * 1024)} "
                                    "MiB, the most this server replays")


async def upload_replay(request: Request) -> Response:
    """A full log sent as the request body: verified, replayed and answered with its
    report; nothing is stored."""
    text = await read_upload(request)
    server = server_of(request)
    return JSONResponse(await server.run(report_of_log, text))


def routes() -> list[BaseRoute]:
    return [
        Route("/report/{game}", report_page),
        Route("/watch", watch_page),
        Route("/api/games/{game}/report", game_report, methods=["GET"]),
        Route("/api/replays", upload_replay, methods=["POST"]),
    ]

