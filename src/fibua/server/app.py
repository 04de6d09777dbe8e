"""The web server: a Starlette application over the hub.

The rule sets, the games and the database are used by one thread only (the engine
thread): every request that reads or changes a game is handed to it and awaited, so the
event loop stays free for the pages and the WebSockets. After each change the engine
thread builds each watcher's message from its own side's view and hands it to the loop.
A hard computer's choice (about a second of CPU) is worked out in a thinking thread on a
copy of its game (`hub.Decision`), so the engine thread serves everyone else meanwhile;
its order is then given in the engine thread, as every other order is.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from fibua.core.replay import log_lines, side_log_lines
from fibua.server.access import CREATOR, SPECTATOR, ApiError, Holder
from fibua.server.bodies import MAX_JSON_BYTES, json_body, loads, too_large
from fibua.server.guard import Guard, Served, served
from fibua.server.hub import Decision, Hub, LiveGame
from fibua.server.messages import (
    SPECTATORS,
    encoded,
    game_entry,
    map_svg,
    seat_message,
    seat_orders_message,
    spectator_message,
    stamped,
)
from fibua.server.models import CreateGame, OrderRequest, TokenRequest
from fibua.server.odds import odds_routes
from fibua.server.orderforms import order_form_routes
from fibua.server.preparing import Preparation
from fibua.server.progress import IDLE, THINKING, waiting
from fibua.server.scenarios import scenario_map, scenarios, upload
from fibua.server.store import Store
from fibua.session.computers import LEVEL_WORDS, Level

STATIC = Path(__file__).parent / "static"
#: the threads hard computers think in: games beyond these wait their turn to think (the
#: engine thread is never one of them)
THINKERS = 4
#: seconds between two looks at the engine's preparation for a game waiting on it
PROGRESS_EVERY = 0.5
M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
log = logging.getLogger("fibua.server")


@dataclass(eq=False)
class Outgoing:
    """A message on its way to the watchers of one role, encoded once (by the engine
    thread, which compares it with the last one made: see `messages.stamped`), however
    many sockets it goes to."""

    text: str
    closing: bool = False


CLOSED = Outgoing(json.dumps({"type": "closed", "message": "this link no longer opens the game"}),
                  closing=True)


@dataclass(eq=False)
class Watcher:
    """A WebSocket open on a game: who holds it, and where its messages wait."""

    holder: Holder
    queue: asyncio.Queue[Outgoing]
    loop: asyncio.AbstractEventLoop
    #: the version of the last message queued for it (it is sent only newer ones)
    version: int = 0
    #: whether it asked to be told how the server's work for the game goes (`progress`)
    progress: bool = False


@dataclass
class Server:
    hub: Hub
    engine: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="fibua-engine"))
    watchers: dict[str, set[Watcher]] = field(default_factory=dict)
    driving: set[str] = field(default_factory=set)
    #: the drivers under way (kept so they are not collected before they finish)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    #: the rules engine's kernels being compiled in the background (ready unless asked)
    preparation: Preparation = field(default_factory=Preparation)
    #: games whose watchers were told a computer is choosing (told `IDLE` once it stops)
    thinking: set[str] = field(default_factory=set)
    #: where hard computers work out their choices, each on a copy of its game (a game's
    #: computers choose one at a time, so a thread is one thinking game)
    thinkers: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(THINKERS, thread_name_prefix="fibua-think"))

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.engine, functools.partial(func, *args))

    async def move(self, game_id: str) -> bool:
        """The server's next move in a game (`Hub.next_move`): a hard computer's choice is
        worked out in a thinking thread, then given in the engine thread (`Hub.settle`)."""
        move = await self.run(self.hub.next_move, game_id)
        if not isinstance(move, Decision):
            return move
        loop = asyncio.get_running_loop()
        order = await loop.run_in_executor(self.thinkers, move.work)
        return await self.run(self.hub.settle, move, order)

    # -- telling the watchers (in the engine thread) ----------------------------------------

    def message_for(self, live: LiveGame, holder: Holder) -> tuple[str, int]:
        """The holder's message encoded with its version, and that version (made once a
        version of the game for each seat and for the spectators)."""
        if holder.seat is not None:
            seat = live.seat(holder.seat)
            if seat is not None:
                return live.once("text", seat.name, lambda: stamped(
                    live, seat.name, seat_message(self.hub, live, seat)))
        return live.once("text", SPECTATORS,
                         lambda: stamped(live, SPECTATORS, spectator_message(live)))

    def changed(self, game_id: str) -> None:
        """After a change: each watcher whose message is now another is sent it; one whose
        side saw nothing change is sent nothing (the change was none of its business)."""
        live = self.hub.games.get(game_id)
        if live is None and game_id in self.hub.pending:
            return  # its watchers are told how its preparation goes (`_open`)
        made: dict[str, tuple[Outgoing, int]] = {}
        sends: list[tuple[Watcher, Outgoing]] = []
        for watcher in list(self.watchers.get(game_id, ())):
            if live is None or watcher.holder.role not in live.tokens:
                sends.append((watcher, CLOSED))
                continue
            role = watcher.holder.role
            if role not in made:
                text, version = self.message_for(live, watcher.holder)
                made[role] = Outgoing(text), version
            message, version = made[role]
            if version > watcher.version:
                watcher.version = version
                sends.append((watcher, message))
        hand_over(sends)

    def subscribe(self, live: LiveGame, game_id: str, watcher: Watcher) -> None:
        """Add a watcher and queue its first message, in the engine thread: so no change
        can come between them and reach it out of order."""
        self.watchers.setdefault(game_id, set()).add(watcher)
        text, watcher.version = self.message_for(live, watcher.holder)
        watcher.loop.call_soon_threadsafe(watcher.queue.put_nowait, Outgoing(text))

    def watch(self, game_id: str, watcher: Watcher) -> None:
        """`subscribe`, for a game built or not yet (engine thread): a watcher that asked
        for progress is told how a game not built yet is prepared, and after a built
        one's state that its computer is choosing, if it is."""
        live = self.hub.games.get(game_id)
        pending = self.hub.pending.get(game_id)
        told: list[Outgoing] = []
        if live is not None:
            self.subscribe(live, game_id, watcher)
            if watcher.progress and game_id in self.thinking:
                told = [Outgoing(THINKING)]
        elif pending is not None:
            self.watchers.setdefault(game_id, set()).add(watcher)
            if watcher.progress:
                told = [Outgoing(waiting(pending, self.preparation).text())]
        else:
            told = [CLOSED]  # deleted since its holder was found
        for message in told:
            watcher.loop.call_soon_threadsafe(watcher.queue.put_nowait, message)

    def create(self, scenario: str, seed: int | None, seats: Mapping[str, str],
               levels: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A new game, stored (engine thread); built at once only on a ready engine (a
        few milliseconds), else once the engine allows (`_open`, after the answer)."""
        made = self.hub.reserve(scenario, seed, seats, levels)
        if self.preparation.ready:
            self.hub.open(made["id"])
        return made

    def holder_of(self, game_id: str, token: str | None) -> Holder:
        """Who holds `token` for a game, built or not yet."""
        found = self.hub.pending_holder(game_id, token)
        return found if found is not None else self.hub.holder(game_id, token)[1]

    def waiting_state(self, game_id: str, token: str | None) -> str | None:
        """What `GET /api/games/{id}` answers for a game not built yet (None for any
        other): the creator its line of the list and links, anyone else its progress."""
        holder = self.hub.pending_holder(game_id, token)
        pending = self.hub.pending.get(game_id)
        if holder is None or pending is None:
            return None
        if holder.role == CREATOR:
            return encoded({"type": "manage", "game": pending.entry(),
                            "links": sorted(r for r in pending.tokens if r != CREATOR)})
        return waiting(pending, self.preparation).text()

    def tell(self, game_id: str, text: str) -> None:
        """Send a progress message to the watchers of the game that asked for them."""
        hand_over([(w, Outgoing(text)) for w in list(self.watchers.get(game_id, ()))
                   if w.progress])

    def think(self, game_id: str) -> None:
        """A computer of the game is about to choose (engine thread): its watchers are
        told once, until the drive stops."""
        if game_id not in self.thinking:
            self.thinking.add(game_id)
            self.tell(game_id, THINKING)

    # -- the server's own moves --------------------------------------------------------------

    def drive(self, game_id: str) -> None:
        """Let the computer seats of a game play until a person must act (in the background,
        one order at a time, so other games and requests go on meanwhile)."""
        if game_id in self.driving:
            return
        self.driving.add(game_id)
        task = asyncio.get_running_loop().create_task(self._drive(game_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _drive(self, game_id: str) -> None:
        try:
            await self._open(game_id)
            while await self.move(game_id):
                pass
        except Exception:
            log.exception("the computer players of game %s stopped", game_id)
        finally:
            self.driving.discard(game_id)
            if game_id in self.thinking:
                self.thinking.discard(game_id)
                self.tell(game_id, IDLE)

    async def _open(self, game_id: str) -> None:
        """Build a game not built yet once the engine allows it, telling its watchers
        meanwhile how far the engine's preparation has come (its scenario is prepared
        first)."""
        pending = await self.run(self.hub.pending.get, game_id)
        if pending is None:
            return
        name = pending.scenario.name
        self.preparation.want(name)
        shown = ""
        while not self.preparation.allows(name):
            text = waiting(pending, self.preparation).text()
            if text != shown:
                self.tell(game_id, text)
                shown = text
            await asyncio.sleep(PROGRESS_EVERY)
        self.tell(game_id, waiting(pending, self.preparation).text())
        await self.run(self.hub.open, game_id)


def hand_over(sends: list[tuple[Watcher, Outgoing]]) -> None:
    """Queue each message for its watcher, in one wake-up of each event loop (a wake-up
    from this thread waits for the loop's hold on the interpreter: one per change, not
    one per socket)."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[Watcher, Outgoing]]] = {}
    for watcher, message in sends:
        loops.setdefault(watcher.loop, []).append((watcher, message))
    for loop, batch in loops.items():
        loop.call_soon_threadsafe(deliver, batch)


def deliver(batch: list[tuple[Watcher, Outgoing]]) -> None:
    for watcher, message in batch:
        watcher.queue.put_nowait(message)


# -- helpers ---------------------------------------------------------------------------------


def problem(status: int, code: str, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **more}, status_code=status)


async def read_body(request: Request, model: type[M]) -> M:
    data = await json_body(request)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = [f"{'.'.join(str(p) for p in item['loc']) or 'body'}: {item['msg']}"
                    for item in error.errors()]
        raise ApiError(422, "bad-request", "; ".join(problems)) from None


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def server_of(request: Request | WebSocket) -> Server:
    found: Server = request.app.state.server
    return found


# -- pages -----------------------------------------------------------------------------------


async def lobby_page(request: Request) -> Response:
    return FileResponse(STATIC / "lobby.html")


async def game_page(request: Request) -> Response:
    return FileResponse(STATIC / "game.html")


# -- games -----------------------------------------------------------------------------------


async def list_games(request: Request) -> Response:
    server = server_of(request)

    def entries() -> list[dict[str, Any]]:
        hub = server.hub
        return [*(game_entry(hub, live) for live in hub.games.values()),
                *(pending.entry() for pending in hub.pending.values())]

    return JSONResponse(await server.run(entries))


async def computer_levels(request: Request) -> Response:
    """The computer's levels, each in plain words, the default first-named (the lobby's
    choice for each computer seat)."""
    return JSONResponse({"default": Level.NORMAL.value,
                         "levels": [{"name": level.value, "description": LEVEL_WORDS[level]}
                                    for level in Level]})


async def engine_status(request: Request) -> Response:
    return JSONResponse(server_of(request).preparation.status())


async def create_game(request: Request) -> Response:
    server = server_of(request)
    body = await read_body(request, CreateGame)
    # stored at once; built, and its computers' first orders given, after the answer
    made = await server.run(server.create, body.scenario, body.seed, body.seats, body.levels)
    server.drive(made["id"])
    return JSONResponse(made, status_code=201)


async def game_state(request: Request) -> Response:
    server = server_of(request)
    game_id = request.path_params["game"]

    def state() -> str:
        waiting_text = server.waiting_state(game_id, bearer(request))
        if waiting_text is not None:
            return waiting_text
        live, holder = server.hub.holder(game_id, bearer(request))
        if holder.role == CREATOR:
            return encoded({"type": "manage", "game": game_entry(server.hub, live),
                            "links": sorted(role for role in live.tokens if role != CREATOR)})
        return server.message_for(live, holder)[0]

    return Response(await server.run(state), media_type="application/json")


async def seat_orders(request: Request) -> Response:
    """A seat's legal orders and idle reasons now, with the version of its message."""
    server = server_of(request)
    game_id = request.path_params["game"]

    def orders() -> dict[str, Any]:
        hub = server.hub
        live, holder = hub.holder(game_id, bearer(request))
        seat = hub.seat_of(live, holder)
        _, version = server.message_for(live, holder)
        return seat_orders_message(hub, live, seat, version, request.query_params.get("unit"))

    return JSONResponse(await server.run(orders))


async def delete_game(request: Request) -> Response:
    server = server_of(request)
    game_id = request.path_params["game"]
    await server.run(server.hub.delete, game_id, bearer(request))
    await server.run(server.changed, game_id)
    return JSONResponse({"deleted": game_id})


async def reissue_token(request: Request) -> Response:
    server = server_of(request)
    game_id = request.path_params["game"]
    body = await read_body(request, TokenRequest)
    token = await server.run(server.hub.reissue, game_id, bearer(request), body.role,
                             body.revoke)
    await server.run(server.changed, game_id)
    return JSONResponse({"role": body.role, "token": token})


async def game_map(request: Request) -> Response:
    server = server_of(request)
    game_id = request.path_params["game"]

    def draw() -> str:
        return map_svg(server.hub.scenario_of_game(game_id))

    return Response(await server.run(draw), media_type="image/svg+xml")


async def preview(request: Request) -> Response:
    server = server_of(request)
    body = await read_body(request, OrderRequest)
    found = await server.run(server.hub.preview, request.path_params["game"], bearer(request),
                             body.kind, body.unit, dict(body.params))
    # the sentence, and the same as data for a page that reads it (never its words)
    return JSONResponse({"preview": found.text, "forecast": found.to_dict()})


async def give_order(request: Request) -> Response:
    server = server_of(request)
    game_id = request.path_params["game"]
    body = await read_body(request, OrderRequest)
    done = await server.run(server.hub.order, game_id, bearer(request), body.kind, body.unit,
                            dict(body.params))
    server.drive(game_id)
    return JSONResponse(done)


async def seat_done(request: Request) -> Response:
    """A seat's End phase. With `?version=N`, the version of the message its page showed,
    it is refused when the seat has been sent another since (the side ended itself with
    its last order and the next turn came while the click was on its way): it would end
    a phase the person has not seen."""
    server = server_of(request)
    game_id = request.path_params["game"]
    shown = shown_version(request)

    def finish() -> dict[str, Any]:
        if shown is not None:
            live, holder = server.hub.holder(game_id, bearer(request))
            if server.message_for(live, holder)[1] != shown:
                raise ApiError(409, "stale", "the game has moved on since your page showed "
                                             "it: look at it again, then end the phase")
        return server.hub.done(game_id, bearer(request))

    done = await server.run(finish)
    server.drive(game_id)
    return JSONResponse(done)


def shown_version(request: Request) -> int | None:
    """The `version` query parameter: the message a page showed when it was clicked."""
    text = request.query_params.get("version")
    if text is None:
        return None
    if not text.isdigit() or len(text) > 12:
        raise ApiError(400, "bad-version", f"version is a whole number, not {text[:20]!r}")
    return int(text)


async def undo(request: Request) -> Response:
    server = server_of(request)
    game_id = request.path_params["game"]
    done = await server.run(server.hub.undo, game_id, bearer(request))
    return JSONResponse(done)


async def download_log(request: Request) -> Response:
    """The full log once the game is over (the one `fibua replay` checks); while it goes
    on, a seat gets its own side's log and nobody else gets any."""
    server = server_of(request)
    game_id = request.path_params["game"]

    def lines() -> list[str]:
        live, holder = server.hub.holder(game_id, bearer(request))
        if live.game.over:
            return log_lines(live.game)
        seat = live.seat(holder.seat) if holder.seat is not None else None
        if seat is None:
            raise ApiError(403, "game-not-over", "the whole log is given once the game is over")
        return side_log_lines(live.game, seat.side)

    text = "".join(line + "\n" for line in await server.run(lines))
    return Response(text, media_type="application/x-ndjson", headers={
        "content-disposition": f'attachment; filename="fibua-{game_id}.jsonl"'})


async def game_socket(socket: WebSocket) -> None:
    """Sends the holder its message now and after every change; the first thing the page
    sends is its token."""
    server = server_of(socket)
    game_id = socket.path_params["game"]
    await socket.accept()
    try:
        hello = await first_hello(socket)
        holder = await server.run(server.holder_of, game_id, hello.token)
    except ApiError as error:
        await socket.send_json({"type": "error", "error": error.code, "message": error.message})
        await socket.close(code=SOCKET_CLOSE.get(error.status, 4404))
        return
    except WebSocketDisconnect:
        return
    watcher = Watcher(holder, asyncio.Queue(), asyncio.get_running_loop(),
                      progress=hello.progress)
    if holder.role == CREATOR:
        watcher = Watcher(Holder(SPECTATOR), watcher.queue, watcher.loop,
                          progress=hello.progress)
    try:
        await server.run(server.watch, game_id, watcher)
        listening = asyncio.ensure_future(_drain(socket))
        while True:
            getting = asyncio.ensure_future(watcher.queue.get())
            finished, _ = await asyncio.wait({getting, listening},
                                             return_when=asyncio.FIRST_COMPLETED)
            if listening in finished:
                getting.cancel()
                break
            message = getting.result()
            await socket.send_text(message.text)
            if message.closing:
                await socket.close(code=4403)
                listening.cancel()
                break
    except WebSocketDisconnect:
        pass
    finally:
        server.watchers.get(game_id, set()).discard(watcher)


#: the close code a refused socket gets, by the status an HTTP request would
SOCKET_CLOSE = {400: 4400, 403: 4403, 413: 4413}


@dataclass(frozen=True)
class Hello:
    """The first message a page sends on a game's socket: its token, and whether it
    would be told how the server's work for the game goes (`{"progress": true}`: the
    game page; other clients get state messages alone)."""

    token: str | None
    progress: bool = False


async def first_hello(socket: WebSocket) -> Hello:
    """The first message the page sends, `{"token": ..., "progress": true}` (progress may
    be left out): read as a request body is (the same limits and refusals), as text
    only."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if not isinstance(text, str):
        raise ApiError(400, "not-json", 'send {"token": ...} as a text message')
    if len(text) > MAX_JSON_BYTES:
        raise too_large(MAX_JSON_BYTES)
    first = loads(text)
    if not isinstance(first, dict):
        return Hello(None)
    token = first.get("token")
    return Hello(token if isinstance(token, str) else None, first.get("progress") is True)


async def _drain(socket: WebSocket) -> None:
    """Read (and ignore) what the page sends until it goes away."""
    try:
        while True:
            await socket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return


# -- the application -------------------------------------------------------------------------


async def api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return problem(error.status, error.code, error.message)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return problem(error.status_code, "http", str(error.detail))


def quiet_collector() -> None:
    """Set the heap built so far (libraries, compiled kernels, maps) aside from the cyclic
    collector and let it run less often: its full passes over every live game were the
    longest pauses between an order and the new views."""
    gc.freeze()
    gc.set_threshold(20_000, 50, 50)


def create_app(db_path: str | Path, *, own_process: bool = False,
               prepare: bool = False, hosts: Served | None = None) -> Starlette:
    """The application over the database at `db_path` (made if missing): every game in it
    is rebuilt from its seed and orders before the first request. `own_process`: the
    server has the process to itself (`fibua serve`), so it may tune the collector.
    `prepare`: compile the rules engine's kernels in the background if they are not
    (`preparing`). `hosts`: the addresses it answers to (by default the loopback ones, on
    any port)."""
    from fibua.server.aids import routes as aid_routes  # it imports this module
    from fibua.server.history import routes as history_routes  # it imports this module
    from fibua.server.reports import routes as report_routes  # it imports this module

    store = Store(db_path)
    hub = Hub(store)
    server = Server(hub)
    if prepare:
        server.preparation = Preparation.start_if_needed()
    hub.on_change = server.changed
    hub.on_thinking = server.think

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # on an engine not ready, stored games are rebuilt once it is (rebuilding compiles)
        await server.run(hub.load_all, not server.preparation.ready)
        if own_process:
            quiet_collector()
        for game_id in [*hub.games, *hub.pending]:
            server.drive(game_id)
        yield
        for task in list(server.tasks):
            task.cancel()
        server.engine.shutdown(wait=True, cancel_futures=True)
        server.thinkers.shutdown(wait=True, cancel_futures=True)
        store.close()

    from fibua.server.quick import quick_routes  # the lobby's quick battles

    routes = [
        Route("/", lobby_page),
        Route("/play/{game}", game_page),
        Route("/api/scenarios", scenarios, methods=["GET"]),
        Route("/api/scenarios", upload, methods=["POST"]),
        Route("/api/scenarios/{name}/map.svg", scenario_map),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/engine", engine_status, methods=["GET"]),
        Route("/api/levels", computer_levels, methods=["GET"]),
        Route("/api/games/{game}", game_state, methods=["GET"]),
        Route("/api/games/{game}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game}/tokens", reissue_token, methods=["POST"]),
        Route("/api/games/{game}/map.svg", game_map),
        Route("/api/games/{game}/orders", seat_orders, methods=["GET"]),
        Route("/api/games/{game}/preview", preview, methods=["POST"]),
        Route("/api/games/{game}/orders", give_order, methods=["POST"]),
        Route("/api/games/{game}/done", seat_done, methods=["POST"]),
        Route("/api/games/{game}/undo", undo, methods=["POST"]),
        Route("/api/games/{game}/log.jsonl", download_log),
        WebSocketRoute("/api/games/{game}/ws", game_socket),
        *report_routes(),
        *aid_routes(),
        *history_routes(),
        *odds_routes(),
        *order_form_routes(),
        *quick_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = Middleware(Guard, served=hosts or served("127.0.0.1", None))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[guard],
                    exception_handlers={ApiError: api_error, HTTPException: http_error})
    app.state.server = server
    return app
