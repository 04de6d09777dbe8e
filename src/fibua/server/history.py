"""Looking back: a side's view as it was at an earlier point of the game.

A side's past is a list of positions: the set-up, then every order of its own (and the
moment before it, when the turn to act had just passed to the side) and every order that
told it something (an event addressed to it). An order the side could not see makes no
position, so the list, and each position's answer, are the same whether or not the enemy
gave it: positions count what the side knows, never the game's orders. The
answer for a position is the side's part of a seat's message (view, map layer, status,
the events it had been told) made from the game played again from its seed up to that
position (`Game.apply`, as `core.replay` does).

While the game goes on a seat may look back over its own side only; spectators see
nothing. Once it is over anyone holding a link may look back over any side.

The cost is bounded per game (`Book`): one replaying game moves forward from answer to
answer, and is built again from the seed only when asked for an earlier position (then
the few positions before it, where a scrubbing page goes next, are made on the way);
answers are kept by position, the last few per game, for the last few games.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.server.access import NO_ACCESS, ApiError, Holder
from fibua.server.app import bearer, server_of
from fibua.server.hub import LiveGame
from fibua.server.maplayer import side_layer
from fibua.server.messages import encoded, event_entry, game_status
from fibua.session.narration import names_for

#: answers kept per game (a few dozen kilobytes each)
ANSWERS_KEPT = 64
#: games whose replay and answers are kept
BOOKS_KEPT = 16
#: positions before the one asked made on the same replay when it starts from the seed
BEHIND = 12
#: the latest events an answer carries (what the side had just been told; narrating them
#: is most of an answer's cost)
PAST_EVENTS = 50

log = logging.getLogger("fibua.server.history")


@dataclass(frozen=True)
class Moment:
    """A position of a side's past: after how many of the game's orders (never sent: it
    counts the enemy's unseen orders too), the latest turn the side had been told of, and
    whether the order was the side's own."""

    orders: int
    turn: int
    own: bool


def moments(game: Game, side: str) -> list[Moment]:
    """The side's positions: the set-up; each order of its own, with the moment before it
    (the turn to act passing to the side is told by no event: it is public, in the
    status); each order that told the side something; and now, if the side is to act."""
    turn = max((e.turn for e in game.log[: game.marks[0]] if e.seen_by(side)), default=0)
    found = [Moment(0, turn, False)]
    for n, order in enumerate(game.orders):
        mine = order.side == side
        if mine and found[-1].orders != n:
            found.append(Moment(n, turn, False))
        told = [e.turn for e in game.events_of(n) if e.seen_by(side)]
        if mine or told:
            turn = max([turn, *told])
            found.append(Moment(n + 1, turn, mine))
    if game.to_act() == side and found[-1].orders != len(game.orders):
        found.append(Moment(len(game.orders), turn, False))
    return found


def past_part(game: Game, side: str) -> dict[str, Any]:
    """The side's part of a seat's message, from the game as it stands (a replay): its
    view, map layer, status and the events it had been told, in the names it knew."""
    scenario = game.scenario
    view = dict(game.view(side))
    view.pop("log", None)
    events = game.log_for(side)
    names = names_for(scenario.ruleset, view, scenario.battlefield)
    return {
        "status": game_status(game, view),
        "view": view,
        "map": side_layer(scenario, view, events),
        "events": [event_entry(e, scenario.ruleset, names) for e in events[-PAST_EVENTS:]],
        "event_count": len(events),
    }


@dataclass(eq=False)
class Book:
    """What is kept of one game's past: the orders it was made from (a prefix of the live
    game's, checked at every use: an undo takes the last back), the replay under way and
    the answers, by (side, number of orders), encoded."""

    game: Game
    given: list[Order] = field(default_factory=list)
    replay: Game | None = None
    answers: OrderedDict[tuple[str, int], str] = field(default_factory=OrderedDict)

    def follow(self, orders: Sequence[Order]) -> None:
        """Forget what was made from orders the live game no longer has."""
        same = 0
        for mine, theirs in zip(self.given, orders, strict=False):
            if mine is not theirs:
                break
            same += 1
        if same < len(self.given):
            for key in [k for k in self.answers if k[1] > same]:
                del self.answers[key]
            if self.replay is not None and len(self.replay.orders) > same:
                self.replay = None
        self.given = list(orders)

    def answer(self, side: str, upto: int, before: Sequence[int] = ()) -> str:
        """The side's past part after `upto` orders, encoded; when the replay must start
        again from the seed, the parts after each of `before` (earlier counts) are made on
        the way."""
        key = (side, upto)
        if key in self.answers:
            self.answers.move_to_end(key)
            return self.answers[key]
        if self.replay is None or len(self.replay.orders) > upto:
            self.replay = Game(self.game.scenario, self.game.seed)
            wanted = {n for n in before if n < upto and (side, n) not in self.answers}
        else:
            wanted = set()
        replay = self.replay
        while len(replay.orders) < upto:
            if len(replay.orders) in wanted:
                self.keep((side, len(replay.orders)), encoded(past_part(replay, side)))
            replay.apply(self.given[len(replay.orders)])
        return self.keep(key, encoded(past_part(replay, side)))

    def keep(self, key: tuple[str, int], text: str) -> str:
        self.answers[key] = text
        while len(self.answers) > ANSWERS_KEPT:
            self.answers.popitem(last=False)
        return text


@dataclass(eq=False)
class Books:
    """The books of the last games looked back over, by game id."""

    books: OrderedDict[str, Book] = field(default_factory=OrderedDict)

    def of(self, live: LiveGame) -> Book:
        book = self.books.get(live.id)
        if book is None or book.game is not live.game:
            book = self.books[live.id] = Book(live.game)
        self.books.move_to_end(live.id)
        while len(self.books) > BOOKS_KEPT:
            self.books.popitem(last=False)
        book.follow(live.game.orders)
        return book


# -- who may look back at what -------------------------------------------------------------


def looked_at(live: LiveGame, holder: Holder, asked: str | None) -> str:
    """The side whose past the holder asks for: its own seat's side (or, once the game is
    over, any side, for anyone); refused otherwise."""
    game = live.game
    seat = live.seat(holder.seat) if holder.seat is not None else None
    if game.over:
        side = asked if asked is not None else seat.side if seat is not None else None
        if side is None:
            raise ApiError(422, "needs-side", "name the side to look back over (?side=...)")
        if side not in game.scenario.side_names:
            raise ApiError(404, "unknown-side", f"no side {side!r} in this game; the sides "
                                                f"are {', '.join(game.scenario.side_names)}")
        return side
    if seat is None:
        raise NO_ACCESS  # spectators see no side's past until the end
    if asked is not None and asked != seat.side:
        raise ApiError(403, "not-your-side", "until the game is over you may look back over "
                                             "your own side's view only")
    return seat.side


def position_of(text: str, count: int) -> int:
    """A position as the path gives it, one that has happened."""
    if not text.isdigit() or len(text) > 9:
        raise ApiError(422, "bad-position", "a position is a whole number from 0")
    position = int(text)
    if position >= count:
        raise ApiError(409, "future", f"position {position} has not happened yet: the last "
                                      f"is {count - 1}")
    return position


def side_moments(live: LiveGame, side: str) -> list[Moment]:
    """The side's positions, worked out once a version of the game."""
    return live.once("history", side, lambda: moments(live.game, side))


def index(live: LiveGame, side: str) -> dict[str, Any]:
    return {"type": "history-index", "side": side,
            "positions": [{"turn": m.turn, "own": m.own} for m in side_moments(live, side)]}


def past(books: Books, live: LiveGame, side: str, text: str) -> str:
    """The side's part at a position, encoded, with the position and how many there are."""
    found = side_moments(live, side)
    position = position_of(text, len(found))
    before = [m.orders for m in found[max(0, position - BEHIND):position]]
    body = books.of(live).answer(side, found[position].orders, before)
    head = encoded({"type": "history", "side": side, "position": position,
                    "positions": len(found), "turn": found[position].turn})
    return f"{head[:-1]},{body[1:]}"


# -- the routes ------------------------------------------------------------------------------


def measured(work: Callable[[], str], what: str) -> str:
    """`work()`, its CPU time logged (in the engine thread, whose clock it reads)."""
    start = time.thread_time()
    try:
        return work()
    finally:
        log.debug("%s: %.1f ms of CPU", what, (time.thread_time() - start) * 1000)


def routes() -> list[BaseRoute]:
    books = Books()

    async def history_index(request: Request) -> Response:
        """The positions of a side's past: the turn of each, and whether it was an order
        of the side's own."""
        server = server_of(request)

        def work() -> str:
            live, holder = server.hub.holder(request.path_params["game"], bearer(request))
            side = looked_at(live, holder, request.query_params.get("side"))
            return encoded(index(live, side))

        return Response(await server.run(work), media_type="application/json")

    async def history_at(request: Request) -> Response:
        """The side's view, map layer, status and events as they were at a position."""
        server = server_of(request)
        game_id = request.path_params["game"]

        def work() -> str:
            live, holder = server.hub.holder(game_id, bearer(request))
            side = looked_at(live, holder, request.query_params.get("side"))
            return measured(lambda: past(books, live, side, request.path_params["position"]),
                            f"history of {game_id} for {side}")

        return Response(await server.run(work), media_type="application/json")

    return [
        Route("/api/games/{game}/history", history_index, methods=["GET"]),
        Route("/api/games/{game}/history/{position}", history_at, methods=["GET"]),
    ]
