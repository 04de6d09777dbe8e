"""What the server keeps between changes (server/hub.py `LiveGame.once`, the side's part of
a message, the legal orders' labels, the events' hash JSON, a message encoded once): after
every change anyone makes (an order, a seat's done, an undo, the server's own end of a
phase) every watcher of every seat and the spectators is sent exactly what a message built
from nothing kept would say, and the stored hash is the game's own."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fibua.core.orders import Order
from fibua.server.access import SPECTATOR, ApiError, Holder, seat_role
from fibua.server.app import Outgoing, Server, Watcher
from fibua.server.hub import HUMAN, Hub, LiveGame
from fibua.server.store import Store


class SameThread:
    """Stands for the event loop: hands a message over at once."""

    def call_soon_threadsafe(self, func: Callable[..., object], *args: Any) -> None:
        func(*args)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    store = Store(tmp_path / "games.sqlite3")
    hub = Hub(store)
    found = Server(hub)
    hub.on_change = found.changed
    yield found
    found.engine.shutdown()
    store.close()


def watch(server: Server, live: LiveGame, holder: Holder) -> Watcher:
    loop: Any = SameThread()
    watcher = Watcher(holder, asyncio.Queue(), loop)
    server.subscribe(live, live.id, watcher)
    return watcher


def latest(watcher: Watcher) -> Outgoing:
    found = watcher.queue.get_nowait()
    while not watcher.queue.empty():
        found = watcher.queue.get_nowait()
    return found


def cold(live: LiveGame) -> LiveGame:
    """The same game with nothing kept: what it says is worked out anew."""
    return replace(live, kept={}, kept_stamp=(-1, 0, 0), told={}, hashed={}, labels={})


def settle(server: Server, game_id: str) -> None:
    while server.hub.step(game_id):
        pass


def act(server: Server, made: dict[str, Any], live: LiveGame, rng: random.Random) -> None:
    """One change by a seat that may act: mostly an order, now and then done or undo."""
    hub = server.hub
    seats = [s for s in live.seats if hub.may_act(live, s)]
    if not seats:
        return
    seat = rng.choice(seats)
    token = made["seat_tokens"][seat.name]
    roll = rng.random()
    try:
        if roll < 0.1:
            hub.undo(live.id, token)
        elif roll < 0.2:
            hub.done(live.id, token)
        else:
            order: Order = rng.choice(hub.seat_orders(live, seat))
            hub.order(live.id, token, order.kind, order.unit, dict(order.params))
    except ApiError as error:
        assert error.code == "cannot-undo", error.message


@pytest.mark.parametrize("scenario", ["corner-shop", "normandy-village", "ramp-houses"])
def test_every_change_reaches_every_watcher_as_a_fresh_message_says(
        server: Server, scenario: str) -> None:
    hub = server.hub
    plans = hub._seat_plans(hub.scenario_named(scenario), {})
    made = hub.create(scenario, 4, {plan.name: HUMAN for plan in plans})
    live = hub.games[made["id"]]
    holders = [Holder(seat_role(p.name)) for p in plans] + [Holder(SPECTATOR)]
    # two sockets for each holder, as a page open twice
    watchers = [watch(server, live, h) for h in holders for _ in range(2)]
    rng = random.Random(7)
    changes = 0
    for _ in range(40):
        settle(server, live.id)
        act(server, made, live, rng)
        settle(server, live.id)
        fresh = cold(live)
        for watcher in watchers:
            sent = latest(watcher)
            assert sent.text == server.message_for(fresh, watcher.holder)[0], \
                watcher.holder
            assert json.loads(sent.text)["type"] == "state"
            watcher.queue.put_nowait(sent)  # still the latest next time round
        assert live.state_hash() == live.game.state_hash()
        changes = len(live.game.orders)
        if live.game.over:
            break
    assert changes > 5


def test_the_sockets_of_one_holder_share_one_encoding(server: Server) -> None:
    hub = server.hub
    made = hub.create("corner-shop", 4, {"british": HUMAN, "germans": HUMAN})
    live = hub.games[made["id"]]
    settle(server, live.id)
    side = live.game.to_act()
    seat = live.seat(str(side))
    assert seat is not None
    holder = Holder(seat_role(seat.name))
    first, second = watch(server, live, holder), watch(server, live, holder)
    order = hub.seat_orders(live, seat)[0]
    hub.order(live.id, made["seat_tokens"][seat.name], order.kind, order.unit,
              dict(order.params))
    sent = latest(first)
    assert sent is latest(second)


def test_a_change_the_hub_was_not_told_of_is_not_answered_from_before(
        server: Server) -> None:
    hub = server.hub
    made = hub.create("corner-shop", 4, {"british": HUMAN, "germans": HUMAN})
    live = hub.games[made["id"]]
    settle(server, live.id)
    side = live.game.to_act()
    assert side is not None
    before = live.view(side)
    assert live.view(side) is before  # kept while nothing changes
    order = next(o for o in live.legal(side) if o.kind != "end")
    live.game.apply(order)  # not through the hub: its version is not bumped
    assert live.view(side) is not before
    assert live.view(side) == live.game.view(side)
    assert live.legal(side) == live.game.legal_orders(side)


def test_a_label_is_taken_again_only_for_the_same_order() -> None:
    from fibua.server.messages import order_key

    assert order_key(Order("a", "move", "u", {"to": [1, 2]})) == \
        order_key(Order("a", "move", "u", {"to": [1, 2]}))
    assert order_key(Order("a", "move", "u", {"to": [1, 2]})) != \
        order_key(Order("a", "move", "u", {"to": [1.0, 2]}))
    assert order_key(Order("a", "fire", "u", {"a": 1, "b": 2})) != \
        order_key(Order("a", "fire", "u", {"b": 2, "a": 1}))


def test_a_preview_keeps_what_was_worked_out_and_changes_no_message(server: Server) -> None:
    hub = server.hub
    made = hub.create("corner-shop", 4, {"british": HUMAN, "germans": HUMAN})
    live = hub.games[made["id"]]
    settle(server, live.id)
    side = live.game.to_act()
    seat = live.seat(str(side))
    assert seat is not None
    holder = Holder(seat_role(seat.name))
    before = server.message_for(live, holder)[0]
    kept = live.view(seat.side)
    order = next(o for o in hub.seat_orders(live, seat) if o.kind != "end")
    hub.preview(live.id, made["seat_tokens"][seat.name], order.kind, order.unit,
                dict(order.params))
    with pytest.raises(ApiError):
        hub.preview(live.id, made["seat_tokens"][seat.name], order.kind, order.unit,
                    {"nonsense": 1})
    assert live.view(seat.side) is kept
    assert server.message_for(live, holder)[0] == before
    assert server.message_for(cold(live), holder)[0] == before
