"""Many games in one process: what playtests, win-rate and speed measurements run on.

Such a process holds a large heap that never changes while it plays: the imported
libraries, the compiled kernels, the maps and what is remembered about them (some
150,000 objects). Python's cyclic collector would walk all of them in each of its full
collections, tens of milliseconds every few dozen games, though none of them ever becomes
garbage. `watch_games` sets them aside once the first game has built the map's caches
(`gc.freeze`), so full collections look only at what the games themselves made, and puts
them back when it is done. A game makes objects by the hundred thousand, few of them in
cycles: the youngest generation is collected every ten thousand new objects rather than
every seven hundred (a few per cent of a game's time), and the thresholds put back after.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator, Iterable
from typing import TYPE_CHECKING, Protocol, TypeVar

from fibua.core.events import Event
from fibua.core.game import Game, play_out
from fibua.core.ruleset import Player, Result
from fibua.lab.seats import Seats
from fibua.session.computers import side_computers

if TYPE_CHECKING:
    from fibua.scenario.schema import Scenario

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: objects made between two collections of the youngest generation while games are played
YOUNG_THRESHOLD = 10_000

#: who plays each side of a game with this seed
Seating = Callable[[Game, int], dict[str, Player]]


class Watcher(Protocol[T_co]):
    """Follows one game as it is played and says what is kept of it at the end."""

    def on_events(self, events: list[Event]) -> None: ...

    def finish(self, result: Result) -> T_co: ...


#: makes the watcher of a new game (before its first order) from the game and its seed
WatcherFactory = Callable[[Game, int], Watcher[T]]


def computers(game: Game, seed: int) -> dict[str, Player]:
    """The computer on both sides, each with a seed of its own drawn from the game's (as
    `fibua autoplay` seats them, so a seed plays the same game here and there)."""
    return side_computers(game.ruleset, game.scenario.side_names, seed)


class _ResultOnly:
    def on_events(self, events: list[Event]) -> None:
        pass

    def finish(self, result: Result) -> Result:
        return result


def _result_only(game: Game, seed: int) -> Watcher[Result]:
    return _ResultOnly()


def watch_games(scenario: Scenario, seeds: Iterable[int], seating: Seating,
                watcher: WatcherFactory[T],
                max_orders: int = 100_000) -> Generator[T, None, None]:
    """Play one game of the scenario per seed, to the end, and yield what each game's
    watcher kept of it."""
    frozen = False
    set_aside = gc.get_freeze_count() > 0  # by its caller: left as it is
    thresholds = gc.get_threshold()
    if thresholds[0]:  # (0: its caller turned collection off)
        gc.set_threshold(max(thresholds[0], YOUNG_THRESHOLD), *thresholds[1:])
    try:
        for seed in seeds:
            game = Game(scenario, seed)
            watch = watcher(game, seed)
            result = play_out(game, seating(game, seed), max_orders, watch.on_events)
            kept = watch.finish(result)
            del game, watch  # not kept among what is set aside
            if not set_aside:
                gc.collect()
                gc.freeze()
                frozen = set_aside = True
            yield kept
    finally:
        gc.set_threshold(*thresholds)
        if frozen:
            gc.unfreeze()


def play_games(scenario: Scenario, seeds: Iterable[int],
               seating: Seating | None = None) -> Generator[Result, None, None]:
    """Play one game of the scenario per seed, to the end, and yield each result: by
    default the computer on both sides as the lab seats it (`Seats`: as `computers`, each
    side keeping its notes from game to game)."""
    if seating is None:
        seating = Seats(dict.fromkeys(scenario.side_names, "computer"))
    return watch_games(scenario, seeds, seating, _result_only)
