"""What the game commands of `fibua` share (the side and seats a person plays, the
computer players, a game built under the first run's message), kept apart from
`fibua.cli.main` so that `fibua --help` imports none of the engine."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import typer

from fibua.battlefield.svg import Marker
from fibua.cli.common import error_console
from fibua.cli.warmup import preparing, warm_up
from fibua.core.dice import new_seed
from fibua.core.errors import InputError, Problem, ReplayMismatch
from fibua.core.game import Game
from fibua.core.journal import resume_game
from fibua.core.replay import ReplayReport
from fibua.core.ruleset import Player, Seat, find_ruleset
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario
from fibua.session.computers import Level, side_computers

#: the scenario `fibua play` opens when none is named
DEFAULT_RULESET = "street-fight"
DEFAULT_SCENARIO = "corner-shop"
#: marker colours for sides in the order the scenario lists them
SIDE_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1")


def check_side(scenario: Scenario, side: str, option: str = "--side") -> str:
    if side not in scenario.side_names:
        names = ", ".join(scenario.side_names)
        raise InputError(
            [Problem(option, "", f"no side {side!r} in {scenario.name}; sides: {names}")]
        )
    return side


def computer_players(
    scenario: Scenario, seed: int, humans: tuple[str, ...] = (), level: Level = Level.NORMAL
) -> dict[str, Player]:
    """The rule set's computer for every side not played by a person (see
    `fibua.session.computers`: the same players in every front end)."""
    return side_computers(find_ruleset(scenario.ruleset), scenario.side_names, seed, humans,
                          level)


def computer_level(given: str) -> Level:
    """`--level` read, or a clear refusal naming the levels."""
    try:
        return Level(given)
    except ValueError:
        known = ", ".join(level.value for level in Level)
        raise InputError([Problem("--level", "", f"no level {given!r}; levels: {known}")]
                         ) from None


def default_scenario() -> str:
    """corner-shop if bundled, else the first bundled Street-Fight scenario, else any."""
    bundled = bundled_scenarios()
    street = [name for name, path in bundled.items() if path.parent.name == DEFAULT_RULESET]
    if DEFAULT_SCENARIO in street:
        return DEFAULT_SCENARIO
    if street or bundled:
        return (street or list(bundled))[0]
    raise InputError([Problem("play", "", "no bundled scenarios: name a scenario file")])


def human_seats(seats: list[Seat], chosen: list[str] | None) -> set[str]:
    names = [s.name for s in seats]
    if not chosen:
        return set(names)
    unknown = [c for c in chosen if c not in names]
    if unknown:
        raise InputError([Problem("--seat", "", f"no seat {unknown[0]!r}; the seats are "
                                                f"{', '.join(names)}")])
    return set(chosen)


def human_side(scenario: Scenario, side: str | None) -> str:
    if side is not None:
        return check_side(scenario, side)
    humans = [spec.name for spec in scenario.sides if spec.player == "human"]
    return (humans or list(scenario.side_names))[0]


class HangUp(KeyboardInterrupt):
    """The terminal was closed (SIGHUP): stop as on Ctrl-C, but print nothing more."""


#: how soon a signal that landed where it could not stop the game is raised again
RETRY_SECONDS = 0.05


def _swallowed_there(frame: FrameType | None) -> bool:
    """Whether an exception raised in `frame` would be printed and ignored rather than
    stop the game: a weak reference's callback or a finaliser, run by the collector or by
    an object's release wherever that happens (the prompt's event loop frees its tasks
    while it starts, so a Ctrl-C or a hang-up can land there)."""
    code = frame.f_code if frame is not None else None
    return code is not None and (code.co_name == "__del__"
                                 or code.co_filename.endswith("_weakrefset.py"))


def _stopping(error: type[KeyboardInterrupt]) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        if _swallowed_there(frame):
            # raised here it would be ignored and the game would wait on: the same signal
            # again in a moment, when the interpreter is back in the game's own code
            threading.Timer(RETRY_SECONDS, os.kill, (os.getpid(), signum)).start()
            return
        raise error

    return handler


@contextmanager
def hang_up_stops_the_game() -> Iterator[None]:
    """Within the block a closed terminal raises HangUp and Ctrl-C KeyboardInterrupt, so
    the game stops in good order, wherever in the interpreter the signal lands."""
    kept: list[tuple[int, Any]] = []
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        kept.append((signal.SIGINT, signal.signal(signal.SIGINT, _stopping(KeyboardInterrupt))))
    if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) != signal.SIG_IGN:
        # (under nohup a hang-up is left ignored)
        kept.append((signal.SIGHUP, signal.signal(signal.SIGHUP, _stopping(HangUp))))
    try:
        yield
    finally:
        for signum, previous in kept:
            signal.signal(signum, previous)


def prepared_play(
    scenario: str | None, seed: int | None, resume: Path | None
) -> tuple[Game, list[str]]:
    """The game to play: a new one, or one carried on from its save (with the notes made
    while reading it). Built under the first run's message about compiling."""
    with preparing(error_console()):
        if resume is not None:
            resumed = resume_game(resume)
            game = resumed.game
            notes = [*resumed.notes, f"Resumed {resume}: {len(game.orders)} orders played "
                                     f"again, state hash {game.state_hash()[:16]}."]
        else:
            loaded = load_scenario(scenario or default_scenario())
            game_seed = seed if seed is not None else new_seed()
            game = Game(loaded, game_seed)
            notes = []
        warm_up(game)
    return game, notes


def print_mismatch(report: ReplayReport, error: ReplayMismatch) -> None:
    typer.echo(f"MISMATCH in {report.source} at line {error.line}:")
    typer.echo(f"  log:    {error.expected}")
    typer.echo(f"  replay: {error.actual}")


def ask_next_turn() -> bool:
    """Between turns of a review at a terminal: Enter goes on, q stops."""
    try:
        answer = input("Enter: next turn, q: stop ")
    except EOFError:
        return False
    return answer.strip().lower() not in ("q", "quit")


def side_markers(scenario: Scenario, sides: tuple[str, ...]) -> list[Marker]:
    """Markers for the figures each side starts with, as the rule set's view reports them
    (forces are the rule set's own format; its view is the common one)."""
    game = Game(scenario, 0)
    markers: list[Marker] = []
    for side in sides:
        colour = SIDE_COLOURS[scenario.side_names.index(side) % len(SIDE_COLOURS)]
        for figure in game.own_view(side):
            if isinstance(figure.get("x"), int | float) and isinstance(
                figure.get("y"), int | float
            ):
                label = str(figure.get("id") or figure.get("name") or "")
                markers.append(Marker(figure["x"], figure["y"], label, side, colour))
    return markers
