"""The games a server keeps: each rebuilt from its seed and orders, its seats, and what the
server does for the seats nobody took.

Everything here runs in the server's one engine thread (see `app`), so the games, the rule
sets' caches and the database have one user at a time. The one piece of work done
elsewhere is a hard computer's choice (about a second of CPU): `next_move` hands it out
as a `Decision` that reads a copy of the game, and `settle` gives its order in the engine
thread, through `Game.apply` as every other order. Every change goes through
`Game.apply` or `Game.undo`, is committed to the database before anyone is told, and then
every watcher is sent the view of its own side (`messages`). What is worked out from a
game (its views, legal orders, each side's part of the messages) is kept for one version
of it (`LiveGame.once`): every change the hub makes starts a new one.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from fibua.core.dice import new_seed
from fibua.core.errors import FibuaError, IllegalOrder, Problem, Refusal, ScenarioError
from fibua.core.events import Event
from fibua.core.game import (
    Game,
    Refusals,
    ask,
    attempt,
    canonical_json,
    give_or_end,
)
from fibua.core.orders import Order
from fibua.core.replay import log_json, scenario_table
from fibua.core.ruleset import Player, Preview, Seat, commands, find_ruleset
from fibua.scenario.loader import (
    bundled_scenarios,
    load_scenario,
    scenario_from_dict,
    scenario_from_text,
)
from fibua.scenario.schema import Scenario
from fibua.server.access import (
    CREATOR,
    NO_ACCESS,
    SPECTATOR,
    ApiError,
    Holder,
    find_holder,
    new_token,
    seat_role,
    token_hash,
)
from fibua.server.store import Store, StoredGame
from fibua.session.computers import (
    Level,
    decision_apart,
    looks_ahead,
    seat_computer,
    side_computer,
)
from fibua.session.seats import (
    COMPUTER,
    HUMAN,
    ComputerSeat,
    ComputerSide,
    EndSide,
    Forced,
    Next,
    SeatPlan,
    SeatRound,
)

#: the most scenarios a server keeps uploaded
MAX_UPLOADED = 500
#: a computer seat that gives this many orders in one phase is stopped (a fault, not play)
MAX_COMPUTER_ORDERS = 5000
T = TypeVar("T")


@dataclass
class LiveGame:
    id: str
    game: Game
    seats: list[SeatPlan]
    secret_seed: bool
    created: float
    tokens: dict[str, str]
    #: per side, the seats that have finished the side's current phase: {"key", "seats"}
    done: dict[str, Any] = field(default_factory=dict)
    #: the computers, by seat name (by side for a side the computer plays whole)
    computers: dict[str, Player] = field(default_factory=dict)
    seat_round: SeatRound | None = None
    #: computer orders the rules refused (a fault of the computer: it gave up its phase)
    refusals: Refusals = field(default_factory=Refusals)
    #: orders a computer seat has given in the phase under way (a runaway guard)
    computer_orders: int = 0
    #: bumped by every order given and taken back: a computer's choice worked out apart
    #: (`Decision`) is given only if the game has not moved since it was asked
    moves: int = 0
    #: bumped whenever the game may have changed: what is worked out from it is kept
    #: only for one version (the legal orders, the views and each side's part of the
    #: messages: asked for by every message, step and order)
    version: int = 0
    #: what was worked out for the present version, by (what, side)
    kept: dict[tuple[str, str], Any] = field(default_factory=dict)
    kept_stamp: tuple[int, int, int] = (-1, 0, 0)
    #: events as the pages show them, by the event's identity and reader (each is told
    #: many times)
    told: dict[tuple[int, str], tuple[Event, dict[str, Any]]] = field(default_factory=dict)
    #: per side, the labels of its legal orders of the last version they were asked for,
    #: by `order_key` (most stay legal from one order to the next)
    labels: dict[str, dict[tuple[str, str | None, str], str]] = field(default_factory=dict)
    #: each event's canonical JSON for the state hash, by the event's identity
    hashed: dict[int, tuple[Event, bytes]] = field(default_factory=dict)
    #: per holder (a seat's name, "" for the spectators), a digest of the last message
    #: made for it and that message's version (see `messages.stamped`)
    shown: dict[str, tuple[bytes, int]] = field(default_factory=dict)

    def entry(self, event: Event, reader: str,
              describe: Callable[[Event], dict[str, Any]]) -> dict[str, Any]:
        """`describe(event)` for a reader (a side, or "" for spectators: each is told in
        the names it knows), worked out once an event and reader (the event is held, so
        its id stays its own)."""
        key = (id(event), reader)
        kept = self.told.get(key)
        if kept is None or kept[0] is not event:
            kept = self.told[key] = (event, describe(event))
        return kept[1]

    def changed(self) -> None:
        self.version += 1
        self.kept.clear()

    def once(self, what: str, side: str, work: Callable[[], T]) -> T:
        """`work()`, done once a version of the game for (what, side). Besides the version
        (bumped by every change the hub makes), the number of orders and of events is part
        of the key: a change that forgot to bump it still cannot be answered from before."""
        stamp = self.stamp()
        if stamp != self.kept_stamp:
            self.kept.clear()
            self.kept_stamp = stamp
        key = (what, side)
        if key not in self.kept:
            self.kept[key] = work()
        found: T = self.kept[key]
        return found

    def legal(self, side: str) -> list[Order]:
        """The side's legal orders now, worked out once a version."""
        return self.once("legal", side, lambda: self.game.legal_orders(side))

    def unit_legal(self, side: str, unit: str) -> list[Order]:
        """One unit's legal orders now, worked out once a version (taken from the side's
        list when that was worked out already)."""
        if self.kept_stamp == self.stamp() and ("legal", side) in self.kept:
            return [o for o in self.legal(side) if o.unit == unit]
        return self.once(f"legal {unit}", side, lambda: self.game.unit_orders(side, unit))

    def has_choice(self, side: str) -> bool:
        """Whether the side may give anything but `end` now, worked out once a version."""
        return self.once("choice", side, lambda: self.game.has_choice(side))

    def stamp(self) -> tuple[int, int, int]:
        game = self.game
        return self.version, len(game.orders), len(game.log)

    def view(self, side: str) -> dict[str, Any]:
        """The side's view now (`Game.view`), worked out once a version: shared by every
        reader, so read only."""
        return self.once("view", side, lambda: self.game.view(side))

    def state_hash(self) -> str:
        """`Game.state_hash()`, with each event's canonical JSON worked out once (the log
        is hashed whole after every order)."""
        game = self.game
        digest = hashlib.sha256()
        digest.update(canonical_json(game.ruleset.snapshot(game.state)).encode())
        for event in game.log:
            kept = self.hashed.get(id(event))
            if kept is None or kept[0] is not event:
                kept = self.hashed[id(event)] = (event,
                                                 canonical_json(event.to_dict()).encode())
            digest.update(kept[1])
        return digest.hexdigest()

    def forget_events(self) -> None:
        """After an undo: the events taken back are told and hashed no more."""
        self.told.clear()
        self.hashed.clear()

    @property
    def round(self) -> SeatRound:
        """The seat round over this game (`fibua.session.seats`), reading the views and
        orders kept for the version, its `done` the game's own (kept in the store)."""
        kept = self.seat_round
        if kept is None or kept.game is not self.game:
            kept = self.seat_round = SeatRound(self.game, self.seats, self.done, self.view,
                                               self.legal, self.has_choice)
        return kept

    def seats_of(self, side: str) -> list[SeatPlan]:
        return [seat for seat in self.seats if seat.side == side]

    def seat(self, name: str) -> SeatPlan | None:
        return next((seat for seat in self.seats if seat.name == name), None)

    def side_level(self, side: str) -> Level:
        """The level of the computer that plays a side whole (its seats' one level: the
        hub refuses a game whose computer side's seats differ)."""
        return next((s.level for s in self.seats_of(side)), Level.NORMAL)


@dataclass(frozen=True)
class Decision:
    """A computer's choice to be worked out away from the engine thread (`work`, which
    reads a copy of the game taken when it was asked), then given by `Hub.settle` if the
    game has not moved meanwhile."""

    game_id: str
    game: Game
    #: what the seat round said was next when the choice was asked
    upcoming: Next
    #: `LiveGame.moves` when it was asked
    moves: int
    work: Callable[[], Order]


def players_line(seats: list[SeatPlan]) -> list[dict[str, Any]]:
    """Who plays each seat, as the pages list it (public: the game's set-up): a
    computer's with its level."""
    return [{"name": s.name, "side": s.side, "player": s.player,
             **({"level": s.level.value} if s.player == COMPUTER else {})} for s in seats]


@dataclass
class PendingGame:
    """A game made and stored but not built yet (`Hub.reserve`): its first moments cost
    the kernels' compiling on a cold engine and the computers' first orders, so they come
    after the creator's answer (`Hub.open`). Its seats' links work meanwhile: their pages
    are told it is being prepared."""

    id: str
    scenario: Scenario
    seats: list[SeatPlan]
    created: float
    tokens: dict[str, str]

    def entry(self) -> dict[str, Any]:
        """A line of the games list while the game is being prepared (public)."""
        scenario = self.scenario
        return {
            "id": self.id, "scenario": scenario.name, "title": scenario.scenario.title,
            "ruleset": scenario.ruleset, "created": self.created,
            "status": {"turn": None, "turns": scenario.scenario.turns, "over": False,
                       "preparing": True},
            "waiting_for": "", "result": None,
            "seats": players_line(self.seats),
        }


def read_uploaded(text: str, source: str) -> Scenario:
    """A scenario from an uploaded file's text, or ScenarioError with every problem (a
    pathologically nested file is one problem, not a crash)."""
    try:
        return scenario_from_text(text, source)
    except RecursionError:
        raise ScenarioError([Problem(source, "", "nested too deeply to be a scenario")]) \
            from None


def leveled_plans(scenario: Scenario, plans: list[SeatPlan],
                  levels: Mapping[str, str]) -> list[SeatPlan]:
    """The seats with the computer's level of each (`levels`, by seat name), or a 422
    naming what is wrong: a seat the scenario has not, a level that is none, a level for
    a person's seat, or seats of one side the computer plays whole (as one player) at
    different levels."""
    names = [p.name for p in plans]
    unknown = sorted(set(levels) - set(names))
    if unknown:
        raise ApiError(422, "unknown-seat",
                       f"levels: no seat {unknown[0]!r} in {scenario.name}; the seats are "
                       f"{', '.join(names)}")
    known = [level.value for level in Level]
    bad = sorted(name for name, level in levels.items() if level not in known)
    if bad:
        raise ApiError(422, "bad-level", f"levels.{bad[0]}: no level {levels[bad[0]]!r}; "
                                         f"the levels are {', '.join(known)}")
    people = sorted(p.name for p in plans if p.player == HUMAN and p.name in levels)
    if people:
        raise ApiError(422, "level-for-person",
                       f"levels.{people[0]}: a person plays this seat; a level is for a "
                       f"seat the computer plays")
    leveled = [replace(p, level=Level(levels.get(p.name, Level.NORMAL.value)))
               for p in plans]
    for side in scenario.side_names:
        seats = [p for p in leveled if p.side == side]
        if all(p.player == COMPUTER for p in seats) and len({p.level for p in seats}) > 1:
            chosen = ", ".join(f"{p.name} {p.level.value}" for p in seats)
            raise ApiError(422, "mixed-levels",
                           f"levels: the computer plays {side} whole, as one player, so "
                           f"its seats take one level (given: {chosen})")
    return leveled


class Hub:
    """Every game on the server, and the changes made to them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: dict[str, LiveGame] = {}
        #: called with a game's id after each change (the app sends the new views)
        self.on_change: Callable[[str], None] = lambda game_id: None
        self._scenarios: dict[str, Scenario] = {}
        self._bundled: dict[str, Scenario] = {}
        #: scenarios uploaded in the lobby, by name
        self.uploaded: dict[str, Scenario] = {}
        #: games stored but not built yet (opened in the background: `open`)
        self.pending: dict[str, PendingGame] = {}
        #: called with a game's id before a computer of it chooses an order
        self.on_thinking: Callable[[str], None] = lambda game_id: None
        #: games whose stored orders did not replay to their stored hashes, with why
        self.broken: dict[str, str] = {}
        #: uploaded scenarios that no longer pass the loader, with why
        self.broken_scenarios: dict[str, str] = {}

    # -- scenarios ---------------------------------------------------------------------------

    def scenario_of(self, table: dict[str, Any]) -> Scenario:
        """One Scenario object per distinct table, so its games share the sight engine."""
        key = self._key(table)
        if key not in self._scenarios:
            self._scenarios[key] = scenario_from_dict(table, "stored scenario")
        return self._scenarios[key]

    @staticmethod
    def _key(table: dict[str, Any]) -> str:
        return hashlib.sha256(log_json(table).encode()).hexdigest()

    def _kept(self, scenario: Scenario) -> Scenario:
        """The one object for this scenario's table (a validated one is kept as it is)."""
        return self._scenarios.setdefault(self._key(scenario_table(scenario)), scenario)

    def bundled(self, name: str) -> Scenario:
        if name not in self._bundled:
            paths = bundled_scenarios()
            if name not in paths:
                raise ApiError(404, "unknown-scenario",
                               f"no scenario {name!r}; there are "
                               f"{', '.join([*paths, *self.uploaded])}")
            self._bundled[name] = self._kept(load_scenario(paths[name]))
        return self._bundled[name]

    def scenario_named(self, name: str) -> Scenario:
        """A bundled scenario by its file's name, or an uploaded one by its own name."""
        uploaded = self.uploaded.get(name)
        return uploaded if uploaded is not None else self.bundled(name)

    def upload(self, text: str, source: str) -> Scenario:
        """Check a scenario file's text with the loader (ScenarioError lists every problem
        with its field path) and keep it under its `[scenario] name`, replacing an earlier
        upload of that name; nothing is stored unless it is valid."""
        scenario = read_uploaded(text, source)
        name = scenario.name
        if name in bundled_scenarios():
            raise ApiError(409, "name-taken",
                           f"{name!r} is a bundled scenario's name: give yours another "
                           f"name in [scenario] name")
        if name not in self.uploaded and len(self.uploaded) >= MAX_UPLOADED:
            raise ApiError(409, "too-many-scenarios",
                           f"this server keeps at most {MAX_UPLOADED} uploaded scenarios")
        self.store.save_scenario(name, source, text)
        self.uploaded[name] = self._kept(scenario)
        return self.uploaded[name]

    # -- loading -----------------------------------------------------------------------------

    def load_all(self, pending: bool = False) -> None:
        """Read the uploaded scenarios again, and rebuild every stored game from its seed
        and orders, checking the stored hashes; with `pending`, keep each game to be
        rebuilt later by `open` (the engine is not ready: rebuilding would compile its
        kernels before the server answers anyone)."""
        for kept in self.store.scenarios():
            try:
                self.uploaded[kept.name] = self._kept(read_uploaded(kept.text, kept.source))
            except FibuaError as error:  # the rules have changed since: no longer offered
                self.broken_scenarios[kept.name] = str(error)
        for game_id in self.store.game_ids():
            try:  # a row not as the store writes it is one damaged game, not a stop
                stored = self.store.game(game_id)
                if pending:
                    self.pending[game_id] = PendingGame(
                        game_id, self.scenario_of(stored.scenario),
                        [SeatPlan.from_dict(s) for s in stored.seats], stored.created,
                        dict(stored.tokens))
                else:
                    self.games[game_id] = self._rebuild(stored)
            except (FibuaError, ValueError, KeyError, TypeError) as error:
                self.broken[game_id] = str(error) or type(error).__name__

    def open(self, game_id: str) -> bool:
        """Build a game kept by `reserve` or `load_all` from what is stored of it, and
        tell its watchers; False when there was none to build (deleted meanwhile, or
        built already). A game that cannot be rebuilt is kept among the broken ones."""
        if self.pending.pop(game_id, None) is None:
            return False
        try:
            self.games[game_id] = self._rebuild(self.store.game(game_id))
        except (FibuaError, ValueError, KeyError, TypeError) as error:
            self.broken[game_id] = str(error) or type(error).__name__
        self.on_change(game_id)
        return True

    def pending_scenario(self, game_id: str) -> str | None:
        """The scenario's name of a game waiting to be built, None for any other."""
        pending = self.pending.get(game_id)
        return pending.scenario.name if pending is not None else None

    def scenario_of_game(self, game_id: str) -> Scenario:
        """The scenario of a game, built or not yet."""
        pending = self.pending.get(game_id)
        return pending.scenario if pending is not None else self.live(game_id).game.scenario

    def pending_holder(self, game_id: str, token: str | None) -> Holder | None:
        """Who holds `token` for a game not yet built (403 for nobody); None when the
        game is not waiting to be built."""
        pending = self.pending.get(game_id)
        if pending is None:
            return None
        found = find_holder(token, pending.tokens)
        if found is None:
            raise ApiError(403, "bad-token", "this link is not (or no longer) valid for "
                                             "this game")
        return found

    def _rebuild(self, stored: StoredGame) -> LiveGame:
        game = Game(self.scenario_of(stored.scenario), stored.seed)
        for entry in stored.orders:
            game.apply(Order.from_dict(entry.body))
        if stored.orders and game.state_hash() != stored.orders[-1].state_hash:
            raise ValueError(self._first_mismatch(stored))
        return LiveGame(stored.id, game, [SeatPlan.from_dict(s) for s in stored.seats],
                        stored.secret_seed, stored.created, dict(stored.tokens), stored.done)

    def _first_mismatch(self, stored: StoredGame) -> str:
        """Which order first gave another hash than the stored one (asked only on failure:
        the last hash being equal says every one is)."""
        game = Game(self.scenario_of(stored.scenario), stored.seed)
        for entry in stored.orders:
            game.apply(Order.from_dict(entry.body))
            if game.state_hash() != entry.state_hash:
                return f"order {entry.n + 1} replays to another state than was stored"
        return "the replay differs from what was stored"

    # -- creating ----------------------------------------------------------------------------

    def create(self, scenario_name: str, seed: int | None, players: Mapping[str, str],
               base_url: str = "", levels: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A new game, stored and built (`reserve` then `open`)."""
        made = self.reserve(scenario_name, seed, players, levels)
        self.open(made["id"])
        return made

    def reserve(self, scenario_name: str, seed: int | None,
                players: Mapping[str, str],
                levels: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A new game, checked and stored but not built: `open` builds it (the slow part
        on a cold engine), so the creator has the links at once. `levels`: how well the
        computer plays each of its seats (by seat name; `normal` where not given)."""
        scenario = self.scenario_named(scenario_name)
        plans = self._seat_plans(scenario, players, levels or {})
        game_seed = seed if seed is not None else new_seed()
        game_id = secrets.token_hex(6)
        tokens = {CREATOR: new_token(), SPECTATOR: new_token()}
        tokens |= {seat_role(p.name): new_token() for p in plans if p.player == HUMAN}
        pending = PendingGame(game_id, scenario, plans, time.time(),
                              {role: token_hash(token) for role, token in tokens.items()})
        self.store.create_game(game_id, scenario_table(scenario), game_seed, seed is None,
                               [p.to_dict() for p in plans], pending.tokens, [])
        self.pending[game_id] = pending
        return {
            "id": game_id,
            "creator_token": tokens[CREATOR],
            "spectator_token": tokens[SPECTATOR],
            "seat_tokens": {p.name: tokens[seat_role(p.name)] for p in plans
                            if p.player == HUMAN},
        }

    @staticmethod
    def _seat_plans(scenario: Scenario, players: Mapping[str, str],
                    levels: Mapping[str, str] | None = None) -> list[SeatPlan]:
        ruleset = find_ruleset(scenario.ruleset)
        seats: list[Seat] = [s for side in scenario.side_names
                             for s in ruleset.seats(scenario, side)]
        names = [s.name for s in seats]
        unknown = sorted(set(players) - set(names))
        if unknown:
            raise ApiError(422, "unknown-seat",
                           f"no seat {unknown[0]!r} in {scenario.name}; the seats are "
                           f"{', '.join(names)}")
        bad = sorted(name for name, who in players.items() if who not in (HUMAN, COMPUTER))
        if bad:
            raise ApiError(422, "bad-player",
                           f"seat {bad[0]!r}: a seat is played by 'human' or 'computer'")
        plans = [SeatPlan(s.name, s.side, s.units, players.get(s.name, COMPUTER))
                 for s in seats]
        return leveled_plans(scenario, plans, levels or {})

    # -- who asks ----------------------------------------------------------------------------

    def live(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is None and game_id in self.pending:
            raise ApiError(409, "game-preparing", "the game is being prepared: it opens "
                                                  "in a moment")
        if live is None:
            if game_id in self.broken:
                raise ApiError(409, "game-damaged",
                               f"game {game_id} could not be rebuilt: {self.broken[game_id]}")
            raise ApiError(404, "unknown-game", f"no game {game_id!r} on this server")
        return live

    def holder(self, game_id: str, token: str | None) -> tuple[LiveGame, Holder]:
        live = self.live(game_id)
        found = find_holder(token, live.tokens)
        if found is None:
            raise ApiError(403, "bad-token", "this link is not (or no longer) valid for "
                                             "this game")
        return live, found

    def seat_of(self, live: LiveGame, holder: Holder) -> SeatPlan:
        name = holder.seat
        seat = live.seat(name) if name is not None else None
        if seat is None:
            raise NO_ACCESS
        return seat

    # -- the creator -------------------------------------------------------------------------

    def reissue(self, game_id: str, token: str | None, role: str, revoke: bool) -> str | None:
        """A new token for a seat or the spectators (the old one stops working), or none
        (`revoke`). Only the creator may."""
        live, holder = self.holder(game_id, token)
        if holder.role != CREATOR:
            raise NO_ACCESS
        seat = live.seat(role)
        if role != SPECTATOR and (seat is None or seat.player != HUMAN):
            raise ApiError(404, "unknown-seat", f"no human seat {role!r} in this game")
        key = role if role == SPECTATOR else seat_role(role)
        fresh = None if revoke else new_token()
        digest = token_hash(fresh) if fresh is not None else None
        self.store.set_token(game_id, key, digest)
        if digest is None:
            live.tokens.pop(key, None)
        else:
            live.tokens[key] = digest
        return fresh

    def delete(self, game_id: str, token: str | None) -> None:
        waiting = self.pending_holder(game_id, token)
        if waiting is not None:  # a game not built yet goes as well
            if waiting.role != CREATOR:
                raise NO_ACCESS
            self.store.delete_game(game_id)
            del self.pending[game_id]
            return
        live, holder = self.holder(game_id, token)
        if holder.role != CREATOR:
            raise NO_ACCESS
        self.store.delete_game(live.id)
        del self.games[live.id]

    # -- playing -----------------------------------------------------------------------------

    def done_seats(self, live: LiveGame, side: str) -> set[str]:
        """The seats of `side` that have finished its stage under way."""
        return live.round.done_seats(side)

    def _mark_done(self, live: LiveGame, seat: SeatPlan) -> None:
        live.round.finish(seat)
        live.changed()  # the messages say who is done

    def seat_orders(self, live: LiveGame, seat: SeatPlan) -> list[Order]:
        """The legal orders of the seat's own units now (the side's when it has all)."""
        return live.round.seat_orders(seat)

    def may_act(self, live: LiveGame, seat: SeatPlan) -> bool:
        """Whether the seat has orders to give now."""
        return live.round.owes(seat)

    def checked_order(self, live: LiveGame, seat: SeatPlan, kind: str, unit: str | None,
                      params: dict[str, Any]) -> Order:
        """The order a seat asks for, if it may give it now; the side comes from the seat.
        Names of enemies the side has not seen are answered as unknown names would be."""
        game = live.game
        if game.over:
            raise ApiError(409, "game-over", "the game is over")
        if game.to_act() != seat.side:
            raise ApiError(409, "not-your-turn", f"it is {game.to_act()}'s turn to give orders")
        if seat.name in self.done_seats(live, seat.side):
            raise ApiError(409, "seat-done", "you have finished your orders for this phase")
        if unit is not None:
            own = {str(f.get("id")) for f in live.view(seat.side).get("own", [])}
            if unit not in own or not commands(seat.units, unit):
                raise ApiError(422, "not-your-unit", f"no unit {unit!r} under your command")
        elif seat.units is not None and kind != "end":
            raise ApiError(422, "needs-unit", f"{kind} needs one of your units")
        return Order(seat.side, kind, unit, params)

    def hidden_names(self, live: LiveGame, side: str) -> set[str]:
        """Ids and names of enemy units the side has never seen (never shown to anyone:
        used only to answer an order naming one as an unknown name is answered)."""
        game = live.game
        seen: set[str] = set()
        for enemy in live.view(side).get("enemies", []):
            seen |= {str(enemy.get("id")), str(enemy.get("name"))}
        hidden: set[str] = set()
        for other in game.scenario.side_names:
            if other != side:
                for unit in live.view(other).get("own", []):
                    hidden |= {str(unit.get("id")), str(unit.get("name"))}
        return hidden - seen

    def judged(self, live: LiveGame, order: Order,
               act: Callable[[Order], Any], changes: bool = True) -> Any:
        """Carry out `act` (preview or apply) on the order; a refusal is a 422 naming why.
        An order naming an unseen enemy is judged with that name swapped for one nobody
        has, and the answer given with the name put back: the same as for any unknown.
        A preview (`changes` false) keeps what was worked out from the game, unless the
        rules failed half-way (the game is then rebuilt)."""
        hidden = self.hidden_names(live, order.side)
        swaps: dict[str, str] = {}

        def swap(value: Any) -> Any:
            if isinstance(value, str) and value in hidden:
                swaps.setdefault(value, f"zz{secrets.token_hex(4)}")
                return swaps[value]
            if isinstance(value, list):
                return [swap(v) for v in value]
            if isinstance(value, dict):
                return {k: swap(v) for k, v in value.items()}
            return value

        masked = Order(order.side, order.kind, order.unit, swap(order.params))
        if changes:
            live.changed()  # an apply may change it, whatever it raises
        try:
            if swaps:
                # it can only be refused, or the rule set accepts a name it does not know
                live.game.preview(masked)
                raise IllegalOrder("no such target", masked, Refusal.UNKNOWN_TARGET)
            return act(masked)
        except IllegalOrder as error:
            reason = error.reason
            for real, fake in swaps.items():
                reason = reason.replace(fake, real)
            raise ApiError(422, error.code or "illegal-order", reason) from None
        except FibuaError as error:
            live.changed()
            raise ApiError(500, "rules-fault", f"the rules failed on this order; the game is "
                                               f"as it was ({error})") from None

    def order(self, game_id: str, token: str | None, kind: str, unit: str | None,
              params: dict[str, Any]) -> dict[str, Any]:
        live, holder = self.holder(game_id, token)
        seat = self.seat_of(live, holder)
        if kind == "end" and seat.units is not None:
            return self.done(game_id, token)
        order = self.checked_order(live, seat, kind, unit, params)
        first = len(live.game.orders)
        events = self.judged(live, order, live.game.apply)
        self._commit(live, first)
        return {"events": [e.to_dict() for e in events if e.seen_by(seat.side)]}

    def preview(self, game_id: str, token: str | None, kind: str, unit: str | None,
                params: dict[str, Any]) -> Preview:
        """What the order would do (`Game.forecast`: the sentence and its data)."""
        live, holder = self.holder(game_id, token)
        seat = self.seat_of(live, holder)
        order = self.checked_order(live, seat, kind, unit, params)
        found: Preview = self.judged(live, order, live.game.forecast, changes=False)
        return found

    def done(self, game_id: str, token: str | None) -> dict[str, Any]:
        """A seat has finished its orders for the phase; the side's `end` follows once every
        seat has (given by the server, in `step`)."""
        live, holder = self.holder(game_id, token)
        seat = self.seat_of(live, holder)
        if live.game.to_act() != seat.side:
            raise ApiError(409, "not-your-turn", "your side is not giving orders now")
        if seat.units is None:
            first = len(live.game.orders)
            self.judged(live, Order(seat.side, "end"), live.game.apply)
            self._commit(live, first)
            return {"events": []}
        self._mark_done(live, seat)
        self.store.set_done(live.id, live.done)
        self.on_change(live.id)
        return {"events": []}

    def undo(self, game_id: str, token: str | None) -> dict[str, Any]:
        live, holder = self.holder(game_id, token)
        seat = self.seat_of(live, holder)
        game = live.game
        last = game.orders[-1] if game.orders else None
        if last is not None and seat.units is not None and last.unit not in seat.units:
            raise ApiError(409, "cannot-undo", "cannot take the order back: only your own "
                                               "orders can be taken back")
        try:
            taken = game.undo(seat.side)
        except IllegalOrder as error:
            raise ApiError(409, "cannot-undo", error.reason) from None
        finally:
            live.changed()
        live.forget_events()
        live.moves += 1
        self.store.take_back(live.id, len(game.orders), live.done)
        self.on_change(live.id)
        return {"taken_back": taken.to_dict()}

    def _commit(self, live: LiveGame, first: int) -> None:
        """Orders from `first` on, with their events and the hash after each, in one
        transaction (only the last hash is worked out anew: one order at a time here)."""
        game = live.game
        live.changed()
        live.moves += 1
        rows = []
        for n in range(first, len(game.orders)):
            events = [e.to_dict() for e in game.events_of(n)]
            rows.append((game.orders[n].to_dict(), events, live.state_hash()))
        live.round.ended(game.orders[first:])
        self.store.add_orders(live.id, first, rows, live.done)
        self.on_change(live.id)

    # -- the server's own moves ----------------------------------------------------------------

    def step(self, game_id: str) -> bool:
        """One move the server makes without waiting for a person (`next_move`), a
        computer's choice worked out here and now. False when it waits for a person or
        the game is over."""
        move = self.next_move(game_id)
        if isinstance(move, Decision):
            return self.settle(move, move.work())
        return move

    def next_move(self, game_id: str) -> bool | Decision:
        """One move the server makes without waiting for a person: a computer seat's order,
        a computer seat finishing, or the side's `end` once every seat has finished (or when
        `end` is all it may do); or, for a computer that looks ahead (a hard one), the
        `Decision` to work out elsewhere and `settle`. False when it waits for a person or
        the game is over."""
        live = self.games.get(game_id)
        if live is None:
            return False
        game = live.game
        side = game.to_act()
        if side is None:
            return False
        upcoming = live.round.next(side)
        match upcoming:
            case ComputerSide():
                forced = game.forced(side)  # as `chosen`: a side with no choice is not asked
                if forced is not None:
                    return self._side_order(live, side, forced)
                return self._ask(live, upcoming, side, self._side_player(live, side))
            case Forced(order=order):
                return self._server_order(live, order)
            case EndSide():
                return self._server_order(live, Order(side, "end"))
            case ComputerSeat(seat=seat):
                return self._ask(live, upcoming, side, self._seat_player(live, seat))
        return False  # a person's seat owes orders: wait for them

    def _ask(self, live: LiveGame, upcoming: Next, side: str,
             player: Player) -> bool | Decision:
        """The computer's order given now, or for one that looks ahead the decision to
        work out away from the engine thread."""
        self.on_thinking(live.id)
        if looks_ahead(player):
            return Decision(live.id, live.game, upcoming, live.moves,
                            decision_apart(live.game, side, player))
        return self._give(live, upcoming, ask(live.game, side, player))

    def settle(self, decision: Decision, order: Order) -> bool:
        """Give the order a `Decision` worked out, if its game has not moved since it was
        asked (else it is dropped, and the next move asked again); False when the game is
        gone."""
        live = self.games.get(decision.game_id)
        if live is None or live.game is not decision.game:
            return False
        game = live.game
        side = game.to_act()
        if (side is None or live.moves != decision.moves
                or live.round.next(side) != decision.upcoming):
            return True  # moved meanwhile (a person's order, an undo): ask again
        return self._give(live, decision.upcoming, order)

    def _give(self, live: LiveGame, upcoming: Next, order: Order) -> bool:
        match upcoming:
            case ComputerSide(side=side):
                return self._side_order(live, side, order)
            case ComputerSeat(seat=seat):
                return self._seat_order(live, seat, order)
        raise ValueError(f"no computer's order is given for {upcoming}")

    def _server_order(self, live: LiveGame, order: Order) -> bool:
        first = len(live.game.orders)
        live.game.apply(order)
        live.computer_orders = 0
        self._commit(live, first)
        return True

    def _side_player(self, live: LiveGame, side: str) -> Player:
        """The computer that plays a whole side (every seat of it is the computer's: the
        same player as `fibua autoplay --level` and the lab seat)."""
        player = live.computers.get(side)
        if player is None:
            game = live.game
            player = live.computers[side] = side_computer(game.ruleset, side, game.seed,
                                                          level=live.side_level(side))
        return player

    def _seat_player(self, live: LiveGame, seat: SeatPlan) -> Player:
        """The computer in one seat of a side a person plays too."""
        player = live.computers.get(seat.name)
        if player is None:
            game = live.game
            player = live.computers[seat.name] = seat_computer(game.ruleset, seat.seat,
                                                               game.seed, seat.level)
        return player

    def _side_order(self, live: LiveGame, side: str, order: Order) -> bool:
        """An order of the computer that plays a whole side (refused: the side's end)."""
        game = live.game
        live.computer_orders += 1
        if live.computer_orders > MAX_COMPUTER_ORDERS:
            order = Order(side, "end")
        first = len(game.orders)
        give_or_end(game, order, live.refusals)
        if any(o.kind == "end" for o in game.orders[first:]):
            live.computer_orders = 0
        self._commit(live, first)
        return True

    def _seat_order(self, live: LiveGame, seat: SeatPlan, order: Order) -> bool:
        """An order of the computer in one seat of a side a person plays too (its `end`,
        or an order refused, finishes the seat)."""
        game = live.game
        live.computer_orders += 1
        runaway = live.computer_orders > MAX_COMPUTER_ORDERS
        if seat.units is not None and (order.kind == "end" or runaway):
            self._mark_done(live, seat)
            live.computer_orders = 0
            self.store.set_done(live.id, live.done)
            self.on_change(live.id)
            return True
        first = len(game.orders)
        if attempt(game, order, live.refusals) is None:
            self._mark_done(live, seat)  # refused: the seat has finished
        if order.kind == "end":
            live.computer_orders = 0
        self._commit(live, first)
        return True


__all__ = ["COMPUTER", "HUMAN", "Decision", "Hub", "LiveGame", "PendingGame", "SeatPlan"]
