"""Game logs (JSON Lines) and replays that verify them.

A full log holds everything needed to play the game again: a header with the rule set, the
seed and the scenario's raw table; the set-up events; each order followed by its events;
and an end line with the state hash and the result. Lines are canonical JSON, so two logs of
the same game compare byte for byte.

A side's log (`--as SIDE`) holds only what that side may know: no seed, no enemy forces, no
state hash, only the events it saw and its own orders. It cannot be replayed.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fibua.core.errors import IllegalOrder, InputError, Problem, ReplayMismatch
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order

if TYPE_CHECKING:
    from fibua.scenario.schema import Scenario

LOG_FORMAT = 1
ENTRY_TYPES = ("header", "event", "order", "end")


def log_json(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, so equal logs are equal bytes."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain
    )


def _plain(value: Any) -> Any:
    # TOML dates and times are the only non-JSON values a scenario table can hold
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def scenario_table(scenario: Scenario) -> dict[str, Any]:
    """The scenario as its file's raw table (rebuilt from the model if it has none)."""
    if scenario.raw:
        return scenario.raw
    return scenario.model_dump(mode="json")


# -- writing ----------------------------------------------------------------------------


def _entries(game: Game) -> list[dict[str, Any]]:
    """The full log's entries in order; the header and end first and last."""
    out = [_header_entry(game)]
    out += [_event_entry(game.log[i], i + 1) for i in range(game.marks[0])]
    for n in range(len(game.orders)):
        out += _order_entries(game, n)
    out.append(_end_entry(game))
    return out


def _header_entry(game: Game) -> dict[str, Any]:
    return {
        "type": "header",
        "format": LOG_FORMAT,
        "ruleset": game.scenario.ruleset,
        "seed": game.seed,
        "scenario": scenario_table(game.scenario),
        "view": None,
    }


def _order_entries(game: Game, n: int) -> list[dict[str, Any]]:
    """The n-th order (from 0) and its events."""
    marks = game.marks
    out: list[dict[str, Any]] = [{"type": "order", **game.orders[n].to_dict()}]
    out += [_event_entry(game.log[i], i + 1) for i in range(marks[n], marks[n + 1])]
    return out


def _end_entry(game: Game) -> dict[str, Any]:
    result = game.result()
    return {
        "type": "end",
        "state_hash": game.state_hash(),
        "result": result.to_dict() if result else None,
    }


def _event_entry(event: Event, seq: int) -> dict[str, Any]:
    return {"type": "event", "seq": seq, **event.to_dict()}


def log_lines(game: Game) -> list[str]:
    """The full log of a game, one canonical JSON line per entry."""
    return [log_json(entry) for entry in _entries(game)]


def order_lines(game: Game, n: int) -> list[str]:
    """The log lines of the n-th order (from 0): the order, then its events."""
    return [log_json(entry) for entry in _order_entries(game, n)]


def end_line(game: Game) -> str:
    """The log's last line: the state hash and the result (None while the game goes on)."""
    return log_json(_end_entry(game))


def side_log_lines(game: Game, side: str) -> list[str]:
    """The log as one side may know it: its own forces, its own orders, the events it saw."""
    if side not in game.scenario.side_names:
        raise InputError(
            [Problem("--as", "", f"no side {side!r}; sides: {', '.join(game.scenario.side_names)}")]
        )
    out: list[dict[str, Any]] = []
    seq = 0
    for entry in _entries(game):
        kind = entry["type"]
        if kind == "header":
            out.append(_side_header(game, side))
        elif kind == "order" and entry["side"] == side:
            out.append(entry)
        elif kind == "event" and Event.from_dict(entry).seen_by(side):
            # numbered afresh: gaps in the full log's numbers would betray hidden events
            seq += 1
            out.append({**entry, "seq": seq})
        elif kind == "end":
            out.append({"type": "end", "result": entry["result"]})
    return [log_json(entry) for entry in out]


def _side_header(game: Game, side: str) -> dict[str, Any]:
    return {
        "type": "header",
        "format": LOG_FORMAT,
        "ruleset": game.scenario.ruleset,
        "scenario": _side_scenario(scenario_table(game.scenario), side),
        "view": side,
    }


def _side_scenario(raw: dict[str, Any], side: str) -> dict[str, Any]:
    """Scenario name, title and map, the side's own entry, and only the names of the others."""
    sides = [
        spec if spec.get("name") == side else {"name": spec.get("name"), "title": spec.get("title")}
        for spec in raw.get("sides", [])
        if isinstance(spec, dict)
    ]
    return {"scenario": raw.get("scenario", {}), "map": raw.get("map", {}), "sides": sides}


def write_log(game: Game, path: str | Path, side: str | None = None) -> int:
    """Write the full log (or one side's log); return the number of lines written."""
    lines = log_lines(game) if side is None else side_log_lines(game, side)
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines)


# -- reading ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ParsedLog:
    source: str
    lines: list[str]
    entries: list[dict[str, Any]]

    @property
    def header(self) -> dict[str, Any]:
        return self.entries[0]

    def orders(self) -> list[tuple[int, Order]]:
        """(line index, order) for each order line."""
        return [
            (i, Order.from_dict(entry))
            for i, entry in enumerate(self.entries)
            if entry["type"] == "order"
        ]


def read_log(path: str | Path) -> ParsedLog:
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError([Problem(source, "", f"cannot read the log: {error}")]) from None
    return parse_log(text, source)


def parse_log(text: str, source: str = "<log>") -> ParsedLog:
    """Check a log's structure; raise InputError naming the first bad line."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InputError([Problem(source, "", "the file is empty: not a fibua log")])
    entries = [_parse_line(line, n + 1, source) for n, line in enumerate(lines)]
    _check_layout(entries, source)
    return ParsedLog(source, lines, entries)


def _bad(source: str, line: int, message: str) -> InputError:
    return InputError([Problem(source, f"line {line}", message)])


def _parse_line(line: str, number: int, source: str) -> dict[str, Any]:
    if not line.strip():
        raise _bad(source, number, "empty line inside the log")
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as error:
        message = f"not valid JSON ({error.msg} at column {error.colno})"
        raise _bad(source, number, message) from None
    except (ValueError, RecursionError) as error:
        # a number too long to convert, arrays nested past the interpreter's stack
        raise _bad(source, number, f"not a log line ({error})") from None
    if not isinstance(entry, dict):
        raise _bad(source, number, "expected a JSON object")
    if entry.get("type") not in ENTRY_TYPES:
        raise _bad(
            source,
            number,
            f"unknown entry type {entry.get('type')!r} (expected one of {', '.join(ENTRY_TYPES)})",
        )
    if entry["type"] == "order":
        _check_order(entry, number, source)
    return entry


def _check_order(entry: dict[str, Any], number: int, source: str) -> None:
    if not isinstance(entry.get("side"), str) or not isinstance(entry.get("kind"), str):
        raise _bad(source, number, "an order needs a string 'side' and a string 'kind'")
    if not isinstance(entry.get("unit", ""), str):
        raise _bad(source, number, "an order's 'unit' must be a string")
    if not isinstance(entry.get("params", {}), dict):
        raise _bad(source, number, "an order's 'params' must be an object")


def _check_layout(entries: list[dict[str, Any]], source: str) -> None:
    types = [entry["type"] for entry in entries]
    if types[0] != "header":
        raise _bad(source, 1, "a log starts with a header line")
    for n, kind in enumerate(types[1:], start=2):
        if kind == "header":
            raise _bad(source, n, "a second header: only the first line is a header")
        if kind == "end" and n != len(types):
            raise _bad(source, n, "the end line must be the last line")
    if types[-1] != "end" or len(types) == 1:
        raise _bad(source, len(types), "the log has no end line (was it cut short?)")
    _check_header(entries[0], source)


def _check_header(header: dict[str, Any], source: str) -> None:
    if header.get("format") != LOG_FORMAT:
        raise _bad(
            source, 1, f"log format {header.get('format')!r}: this fibua reads format {LOG_FORMAT}"
        )
    if not isinstance(header.get("ruleset"), str):
        raise _bad(source, 1, "the header names no rule set ('ruleset')")
    if not isinstance(header.get("scenario"), dict):
        raise _bad(source, 1, "the header holds no scenario table ('scenario')")
    view = header.get("view")
    if view is None and (not isinstance(header.get("seed"), int) or header["seed"] < 0):
        raise _bad(source, 1, "the header has no seed (a non-negative integer)")
    if view is not None and not isinstance(view, str):
        raise _bad(source, 1, "the header's 'view' must be null or a side name")


# -- replaying --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayReport:
    """What a replay found: the order count and final hash, and the first difference if any."""

    source: str
    orders: int
    lines: int
    state_hash: str | None
    result: dict[str, Any] | None
    mismatch: ReplayMismatch | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def check(self) -> ReplayReport:
        """Raise the mismatch, if any."""
        if self.mismatch is not None:
            raise self.mismatch
        return self


class SideViewLog(InputError):
    """A side's log: it has no seed and no enemy forces, so it cannot be replayed."""


def replay(path: str | Path) -> ReplayReport:
    """Play a full log's orders again from its header and compare every line."""
    return replay_log(read_log(path))


def replay_log(log: ParsedLog, rng: Any = None) -> ReplayReport:
    game = _game_of(log, rng)
    mismatch = _replay_orders(game, log)
    if mismatch is None:
        mismatch = _first_difference(log.lines, log_lines(game))
    result = game.result()
    return ReplayReport(
        source=log.source,
        orders=len(game.orders),
        lines=len(log.lines),
        state_hash=game.state_hash(),
        result=result.to_dict() if result else None,
        mismatch=mismatch,
    )


def _game_of(log: ParsedLog, rng: Any = None) -> Game:
    """A fresh game from a full log's header (a side's log has no seed: SideViewLog)."""
    from fibua.scenario.loader import scenario_from_dict

    view = log.header.get("view")
    if view is not None:
        raise SideViewLog(
            [
                Problem(
                    log.source,
                    "line 1",
                    f"this log holds only what side {view!r} saw: it has no seed and no enemy "
                    "forces, so it cannot be replayed or verified (only a full log can)",
                )
            ]
        )
    scenario = scenario_from_dict(log.header["scenario"], f"{log.source}: header scenario")
    return Game(scenario, int(log.header["seed"]), rng)


def _replay_orders(game: Game, log: ParsedLog) -> ReplayMismatch | None:
    """Apply the logged orders; a refused one is a difference at its line, unless an
    earlier line already differs."""
    for index, order in log.orders():
        try:
            game.apply(order)
        except IllegalOrder as error:
            so_far = log_lines(game)[:-1]  # without the end line
            earlier = _first_difference(log.lines[: len(so_far)], so_far)
            return earlier or ReplayMismatch(
                index + 1, log.lines[index], f"the rules refuse this order: {error.reason}"
            )
    return None


def _first_difference(expected: list[str], actual: list[str]) -> ReplayMismatch | None:
    for n, (logged, replayed) in enumerate(zip(expected, actual, strict=False)):
        if logged != replayed:
            return ReplayMismatch(n + 1, logged, replayed)
    if len(expected) != len(actual):
        n = min(len(expected), len(actual))
        logged = expected[n] if n < len(expected) else "<no more lines>"
        replayed = actual[n] if n < len(actual) else "<no more lines>"
        return ReplayMismatch(n + 1, logged, replayed)
    return None


# -- looking back -----------------------------------------------------------------------


@dataclass(frozen=True)
class TurnRecord:
    """One turn as Control saw it: every event of the turn, whoever it was addressed to,
    and where each side's figures stood at its end (each side's own view of its troops);
    and as each side saw it: the enemies in its view at the turn's end (`seen`)."""

    turn: int
    events: list[Event]
    standing: dict[str, list[dict[str, Any]]]
    seen: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def replay_by_turn(log: ParsedLog, rng: Any = None) -> tuple[list[TurnRecord], Game]:
    """Play a full log's orders again, recording each turn; returns the turns and the game
    at its end. The log should be verified first (`replay_log`): this only plays it."""
    game = _game_of(log, rng)
    records: list[TurnRecord] = []
    waiting: dict[int, list[Event]] = {}
    current = 0

    def gather(events: list[Event]) -> None:
        for event in events:
            # an event dated before the turn under way (a late report) joins that turn
            waiting.setdefault(max(event.turn, current), []).append(event)

    def close_turns_before(turn: int) -> None:
        done = [number for number in sorted(waiting) if number < turn]
        if not done:
            return
        standing, seen = _standing(game), _seen(game)
        records.extend(TurnRecord(number, waiting.pop(number), standing, seen) for number in done)

    gather(game.log)
    # the set-up may already open the first turn: what came before it stood as set up
    current = max(waiting, default=0)
    close_turns_before(current)
    for _, order in log.orders():
        events = game.apply(order)
        gather(events)
        latest = max((event.turn for event in events), default=current)
        if latest > current:
            close_turns_before(latest)
            current = latest
    close_turns_before(current + 1)
    return records, game


def _standing(game: Game) -> dict[str, list[dict[str, Any]]]:
    return {side: list(game.own_view(side)) for side in game.scenario.side_names}


def _seen(game: Game) -> dict[str, list[dict[str, Any]]]:
    """Each side's enemies as its own view holds them (where last seen, whether in sight)."""
    return {side: list(game.view(side)["enemies"]) for side in game.scenario.side_names}
