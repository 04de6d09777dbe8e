"""What the server tells each watcher, built from what its side may know.

A seat's message is its side's view (`Game.view(side)`) and the events addressed to its
side (`Event.seen_by`); the legal orders of its own units are a message of their own
(`seat_orders_message`), sent when the page asks for them: listing them was most of the
work of every change, and is needed only by a seat about to give an order. A spectator's
message holds only events addressed to everyone until the game is over. Both carry a map
layer (`maplayer`): for a seat, markers and fire reports from its view; for a spectator,
the map's floors alone.
Nothing here reads the full state, except the after-action report and every side's troops,
which are everyone's once the game has ended.

Each holder's message carries a version of its own (`stamped`): it grows when, and only
when, what that holder is told changes, so an order the holder cannot see leaves its
message, version and all, as it was, and nothing is pushed to it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fibua.battlefield.svg import render_svg
from fibua.core.events import EVERYONE, Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import commands
from fibua.core.views import ViewHeader
from fibua.scenario.schema import Scenario
from fibua.server.hub import HUMAN, Hub, LiveGame, SeatPlan, players_line
from fibua.server.maplayer import all_sections, public_layer, revealed, side_layer
from fibua.session.holding import final_panel, panel_dicts
from fibua.session.narration import Names, describe_event, names_for, narrate, place_names
from fibua.session.objectives import objective_marks, objectives
from fibua.session.typed import format_order

#: the latest events a message carries (the whole log is downloadable)
EVENTS_SENT = 300
#: the most order labels kept for a side between versions
MAX_LABELS = 5000


def briefing(scenario: Scenario) -> dict[str, Any]:
    """The scenario as its file tells it to everyone: story, sides, objectives."""
    meta = scenario.scenario
    return {
        "name": meta.name,
        "title": meta.title,
        "ruleset": meta.ruleset,
        "turns": meta.turns,
        "history": meta.history,
        "description": " ".join(meta.description.split()),
        "sides": [{"name": s.name, "title": s.title} for s in scenario.sides],
        "objectives": [{"side": o.side, "description": o.description, "points": o.points}
                       for o in objectives(scenario)],
    }


def map_svg(scenario: Scenario) -> str:
    """The battlefield with its objectives and no troops: the same for everyone."""
    return render_svg(scenario.battlefield, objectives=objective_marks(scenario))


def event_entry(event: Event, ruleset: str, names: Names) -> dict[str, Any]:
    """An event as a side reads it: a plain sentence, a plain line a roll, and the raw
    data behind the page's details switch."""
    head, *rolls = narrate(event, ruleset, names)
    return {"kind": event.kind, "turn": event.turn, "text": head, "rolls": rolls,
            "details": describe_event(event)}


def side_names(live: LiveGame, side: str) -> Names:
    """The names a side knows (its units, the enemies it has seen, the map's buildings),
    worked out once a version."""
    game = live.game
    return live.once("names", side, lambda: names_for(
        game.scenario.ruleset, live.view(side), game.scenario.battlefield))


def status(live: LiveGame) -> dict[str, Any]:
    """Turn, phase and who acts: the same in every side's view, so read from the first."""
    game = live.game
    return game_status(game, live.view(game.scenario.side_names[0]))


def game_status(game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """Where the game stands, from a side's view of it (public: the same for every side)."""
    head = ViewHeader.of(view)
    return {"turn": head.turn, "turns": head.turns, "phase": head.phase, "step": head.step,
            "to_act": game.to_act(), "over": game.over}


def ending(game: Game) -> dict[str, Any] | None:
    """The result and the after-action report, once the game is over (for everyone)."""
    result = game.result()
    if result is None:
        return None
    return {"result": result.to_dict(),
            "after_action": game.ruleset.after_action(game.state)}


def side_counters(live: LiveGame, side: str) -> dict[str, dict[str, Any]]:
    """What the side's page writes on each counter (`Game.counters`, from its view alone),
    by unit id: its own units and the enemies it has seen apart. Worked out once a
    version."""
    def work() -> dict[str, dict[str, Any]]:
        found = live.game.counters(side)
        return {"own": {c.id: c.to_dict() for c in found if not c.hostile},
                "enemies": {c.id: c.to_dict() for c in found if c.hostile}}

    kept: dict[str, dict[str, Any]] = live.once("counters", side, work)
    return kept


def final_map(live: LiveGame) -> dict[str, Any] | None:
    """Once the game is over, every troop and section as each side's own view holds them
    (everyone's by then), who holds each objective, and each side's counters of its own
    troops; before, None."""
    game = live.game
    if not game.over:
        return None
    sides = game.scenario.side_names
    views = {side: live.view(side) for side in sides}
    return {"troops": revealed(views), "sections": all_sections(views),
            "objectives": panel_dicts(final_panel(game.scenario, views)),
            "counters": {side: side_counters(live, side)["own"] for side in sides}}


def game_head(live: LiveGame) -> dict[str, Any]:
    """What names the game (never how many orders it has had: that counts the enemy's
    unseen ones too)."""
    scenario = live.game.scenario
    return {"id": live.id, "scenario": scenario.name, "title": scenario.scenario.title,
            "ruleset": scenario.ruleset, "players": players_line(live.seats)}


def side_part(live: LiveGame, side: str) -> dict[str, Any]:
    """What every seat of a side is told alike: built from the side's view and events
    alone, once a version of the game (read only: it goes into each seat's message)."""
    game = live.game
    view = dict(live.view(side))
    view.pop("log", None)
    events = game.log_for(side)
    ruleset, names = game.scenario.ruleset, side_names(live, side)
    return {
        "game": game_head(live),
        "status": status(live),
        "view": view,
        "map": side_layer(game.scenario, view, events),
        "counters": side_counters(live, side),
        "revealed": final_map(live),
        "events": [live.entry(e, side, lambda e: event_entry(e, ruleset, names))
                   for e in events[-EVENTS_SENT:]],
        "event_count": len(events),
        "can_undo": game.undo_refusal(side) is None,
        "ending": ending(game),
    }


def order_key(order: Order) -> tuple[str, str | None, str]:
    """What an order's label is made from (`repr` tells 1 from 1.0 and keeps the order of
    the parameters, as the label does)."""
    return order.kind, order.unit, repr(order.params)


def labelled(live: LiveGame, side: str) -> dict[int, dict[str, Any]]:
    """The side's legal orders as the page lists them, by the order's identity; a label
    of the side's orders of the last version is taken again."""
    before = live.labels.get(side, {})
    labels: dict[tuple[str, str | None, str], str] = {}
    entries: dict[int, dict[str, Any]] = {}
    for order in live.legal(side):
        key = order_key(order)
        label = before.get(key)
        labels[key] = label if label is not None else format_order(order)
        entries[id(order)] = {"kind": order.kind, "unit": order.unit,
                              "params": order.params, "label": labels[key]}
    live.labels[side] = labels
    return entries


def order_entries(live: LiveGame, side: str) -> dict[int, dict[str, Any]]:
    """The side's legal orders as the page lists them, by the order's identity (labelled
    once a version, whichever of the side's seats is told them)."""
    return live.once("orders", side, lambda: labelled(live, side))


def idle_reasons(live: LiveGame, side: str) -> dict[str, str]:
    """Why each of the side's units with no order now has none (`Game.why_idle`), while
    the side is to act: worked out once a version."""
    def reasons() -> dict[str, str]:
        busy = {o.unit for o in live.legal(side)}
        out = {}
        for unit in live.view(side).get("own", []):
            uid = unit.get("id")
            if isinstance(uid, str) and uid not in busy:
                why = live.game.why_idle(side, uid)
                if why is not None:
                    out[uid] = why
        return out

    found: dict[str, str] = live.once("idle", side, reasons)
    return found


def seat_message(hub: Hub, live: LiveGame, seat: SeatPlan) -> dict[str, Any]:
    """What a seat is told: its side's view and events, whether it may give orders now
    (its orders themselves: `seat_orders_message`)."""
    side = seat.side
    shared = live.once("message", side, lambda: side_part(live, side))
    may_act = hub.may_act(live, seat)
    done = hub.done_seats(live, side)
    return {
        "type": "state",
        "role": "seat",
        "seat": {"name": seat.name, "side": side, "may_act": may_act,
                 "units": sorted(seat.units) if seat.units is not None else None,
                 "done": seat.name in done, "shared": seat.units is not None},
        "side_seats": [{**line, "done": line["name"] in done}
                       for line in players_line(live.seats_of(side))],
        **shared,
    }


def seat_orders_message(hub: Hub, live: LiveGame, seat: SeatPlan, version: int,
                        unit: str | None = None) -> dict[str, Any]:
    """The orders a seat may give now, as the page lists them, and why each of its units
    with none has none; with `unit`, that unit's alone (what the page asks for when one
    is picked: a rule set may list one unit's for less). `version` is that of the seat's
    message they go with (the page drops an answer that no longer matches its message)."""
    answer: dict[str, Any] = {"type": "orders", "version": version, "legal": [], "idle": {}}
    if not hub.may_act(live, seat):
        return answer
    if unit is None:
        legal = hub.seat_orders(live, seat)
        entries = order_entries(live, seat.side) if legal else {}
        answer["legal"] = [entries[id(o)] for o in legal]
        answer["idle"] = idle_reasons(live, seat.side)
        return answer
    own = {u.get("id") for u in live.view(seat.side).get("own", [])}
    if unit not in own or not commands(seat.units, unit):
        return answer  # an enemy's name is answered as a name nobody has
    orders = live.unit_legal(seat.side, unit)
    answer["legal"] = [entry(live, seat.side, o) for o in orders]
    why = live.game.why_idle(seat.side, unit) if not orders else None
    answer["idle"] = {unit: why} if why is not None else {}
    return answer


def entry(live: LiveGame, side: str, order: Order) -> dict[str, Any]:
    """An order as the page lists it (its label kept for the next time it is legal)."""
    labels = live.labels.setdefault(side, {})
    if len(labels) > MAX_LABELS:
        labels.clear()  # kept for the orders legal now and again, not for the whole game
    key = order_key(order)
    label = labels.get(key)
    if label is None:
        label = labels[key] = format_order(order)
    return {"kind": order.kind, "unit": order.unit, "params": order.params, "label": label}


def spectator_part(live: LiveGame) -> dict[str, Any]:
    game = live.game
    public = [e for e in game.log if e.to == EVERYONE]
    # a spectator knows the map, not the sides' troops: units go by their ids
    ruleset = game.scenario.ruleset
    names = live.once("names", "", lambda: Names(places=place_names(
        game.scenario.battlefield)))
    return {
        "type": "state",
        "role": "spectator",
        "game": game_head(live),
        "status": status(live),
        "map": public_layer(game.scenario),
        "revealed": final_map(live),
        "events": [live.entry(e, "", lambda e: event_entry(e, ruleset, names))
                   for e in public[-EVENTS_SENT:]],
        "event_count": len(public),
        "ending": ending(game),
    }


def spectator_message(live: LiveGame) -> dict[str, Any]:
    """What anyone may know: the public events, where the game stands; at the end, all
    (built once a version of the game, for every spectator)."""
    found: dict[str, Any] = live.once("spectator", "", lambda: spectator_part(live))
    return found


#: the key of the spectators' message in `LiveGame.shown` (a seat's is its name)
SPECTATORS = ""


def encoded(message: dict[str, Any]) -> str:
    """A message as it is sent (as Starlette's send_json writes it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def stamped(live: LiveGame, key: str, message: dict[str, Any]) -> tuple[str, int]:
    """The message encoded with its holder's version first, and that version: the last
    one made for `key` (a seat's name, or SPECTATORS) when the content is the same, else
    one more. So it counts what the holder saw change, not the game's orders (a
    game-wide count would tell each side how many orders the enemy gave)."""
    body = encoded(message)
    digest = hashlib.blake2b(body.encode(), digest_size=16).digest()
    last_digest, version = live.shown.get(key, (b"", 0))
    if digest != last_digest:
        version += 1
        live.shown[key] = (digest, version)
    return f'{{"version":{version},{body[1:]}', version


def waiting_for(hub: Hub, live: LiveGame) -> str:
    """Who the game waits for, as everyone may know it: a side, and whether a person or
    the computer plays it (never which of a side's seats still have orders)."""
    side = live.game.to_act()
    if side is None:
        return ""
    people = any(s.player == HUMAN for s in live.seats_of(side))
    return f"{side} ({'players' if people else 'computer'})"


def game_entry(hub: Hub, live: LiveGame) -> dict[str, Any]:
    """A line of the games list (public)."""
    game = live.game
    end = game.result()
    return {
        **game_head(live),
        "created": live.created,
        "status": status(live),
        "waiting_for": waiting_for(hub, live),
        "result": end.to_dict() if end is not None else None,
        "seats": players_line(live.seats),
    }
