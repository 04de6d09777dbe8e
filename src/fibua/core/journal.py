"""Save files: each order kept on disk as it is given, so a game outlives Ctrl-C, a closed
terminal or a crash, and `resume_game` carries on from it.

A save file is a game log in the format `fibua replay` reads, written as the game goes: the
header and set-up events first, then each order with its events, appended, flushed and
synced to disk as the game takes the order in. An orderly stop adds the end line, so the
save is then a complete log; a crash leaves it without one, and at worst with a last line
cut short, which `resume_game` drops, saying so. Resuming plays the saved orders again from
the seed, checks every saved line against the replay, and gives the game as it stood.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from fibua.core.errors import IllegalOrder, InputError, Problem, ReplayMismatch
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.replay import (
    ENTRY_TYPES,
    _bad,
    _check_header,
    _first_difference,
    _parse_line,
    log_lines,
    order_lines,
)


@dataclass
class Journal:
    """Listens to a game and keeps its save file up to date, order by order."""

    path: Path
    game: Game
    _file: IO[str] | None = field(default=None, init=False, repr=False)

    @classmethod
    def begin(cls, game: Game, path: str | Path) -> Journal:
        """Write the game so far to `path` (replacing the file whole) and keep it up to date."""
        journal = cls(Path(path), game)
        journal._rewrite(final=False)
        game.listeners.append(journal.record)
        game.undo_listeners.append(journal.taken_back)
        return journal

    def record(self, order: Order, events: list[Event]) -> None:
        """Append the game's last order and its events, and sync them to disk."""
        self._append(order_lines(self.game, len(self.game.orders) - 1))

    def taken_back(self, order: Order) -> None:
        # rare, and the file must never hold an order the game no longer has: write it anew
        self._rewrite(final=False)

    def close(self) -> None:
        """Stop listening and add the end line: the save is then a complete log."""
        with contextlib.suppress(ValueError):
            self.game.listeners.remove(self.record)
        with contextlib.suppress(ValueError):
            self.game.undo_listeners.remove(self.taken_back)
        if self.game.damaged:
            self.game.restore()
        self._rewrite(final=True)
        self._close_file()

    def _append(self, lines: list[str]) -> None:
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write("".join(line + "\n" for line in lines))
        self._file.flush()
        os.fsync(self._file.fileno())

    def _rewrite(self, final: bool) -> None:
        """The whole file written afresh beside it, then put in its place in one step, so a
        crash leaves either the old file or the new one."""
        self._close_file()
        lines = log_lines(self.game)
        if not final:
            lines.pop()  # the end line is added only when the game stops
        spare = self.path.with_name(self.path.name + ".tmp")
        with spare.open("w", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
            out.flush()
            os.fsync(out.fileno())
        os.replace(spare, self.path)
        _sync_folder(self.path.parent)

    def _close_file(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _sync_folder(folder: Path) -> None:
    """Make the file's new name durable too (POSIX; elsewhere there is nothing to open)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


# -- resuming ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Resumed:
    """A game rebuilt from its save file, and what was noticed on the way."""

    game: Game
    source: str
    notes: list[str]
    #: whether the file had its end line (the game was stopped in good order, or is over)
    closed: bool


def resume_game(path: str | Path, rng: Any = None) -> Resumed:
    """Rebuild a game from a save file (or any full log): its scenario, seed and orders,
    every saved line checked against the replay. A last line cut short is dropped."""
    from fibua.scenario.loader import scenario_from_dict

    source = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise InputError([Problem(source, "", f"cannot read the save: {error}")]) from None
    lines, notes = _saved_lines(raw, source)
    entries = [_parse_line(line, n + 1, source) for n, line in enumerate(lines)]
    _check_save_layout(entries, source)
    scenario = scenario_from_dict(entries[0]["scenario"], f"{source}: header scenario")
    game = Game(scenario, int(entries[0]["seed"]), rng)
    for index, entry in enumerate(entries):
        if entry["type"] != "order":
            continue
        try:
            game.apply(Order.from_dict(entry))
        except IllegalOrder as error:
            raise ReplayMismatch(
                index + 1, lines[index], f"the rules refuse this order: {error.reason}"
            ) from None
    closed = entries[-1]["type"] == "end"
    replayed = log_lines(game)
    if not closed:
        # a crash can cut an order's events short: what is there must agree
        replayed = replayed[: len(lines)]
    mismatch = _first_difference(lines, replayed)
    if mismatch is not None:
        raise mismatch
    return Resumed(game, source, notes, closed)


def _saved_lines(raw: bytes, source: str) -> tuple[list[str], list[str]]:
    """The file's complete lines, and a note if an unfinished last line was dropped."""
    chunks = raw.split(b"\n")
    tail = chunks.pop()  # what follows the last newline: nothing, unless a write was cut
    lines = [_decoded(chunk, n + 1, source).removesuffix("\r") for n, chunk in enumerate(chunks)]
    notes: list[str] = []
    if tail.strip():
        whole = _whole_entry(tail)
        if whole is not None:
            lines.append(whole)
        else:
            notes.append(
                f"{source}: line {len(lines) + 1} was cut short (the program stopped while "
                "writing it) and is dropped; the game goes on from the order before it"
            )
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InputError([Problem(source, "", "the file is empty: not a fibua save")])
    return lines, notes


def _decoded(chunk: bytes, number: int, source: str) -> str:
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad(source, number, "not UTF-8 text") from None


def _whole_entry(tail: bytes) -> str | None:
    """The last line if it is a whole entry that only lacks its newline, else None."""
    try:
        text = tail.decode("utf-8").removesuffix("\r")
        entry = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return text if isinstance(entry, dict) and entry.get("type") in ENTRY_TYPES else None


def _check_save_layout(entries: list[dict[str, Any]], source: str) -> None:
    types = [entry["type"] for entry in entries]
    if types[0] != "header":
        raise _bad(source, 1, "a save starts with a header line")
    for n, kind in enumerate(types[1:], start=2):
        if kind == "header":
            raise _bad(source, n, "a second header: only the first line is a header")
        if kind == "end" and n != len(types):
            raise _bad(source, n, "the end line must be the last line")
    _check_header(entries[0], source)
    view = entries[0].get("view")
    if view is not None:
        raise _bad(
            source,
            1,
            f"this log holds only what side {view!r} saw: it has no seed and no enemy "
            "forces, so the game cannot be resumed from it",
        )
