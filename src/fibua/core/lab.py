"""Many games in one process: what playtests, win-rate and speed measurements run on.

Such a process holds a large heap that never changes while it plays: the imported
libraries, the compiled kernels, the maps and what is remembered about them (some
150,000 objects). Python's cyclic collector would walk all of them in each of its full
collections, tens of milliseconds every few dozen games, though none of them ever becomes
garbage. `play_games` sets them aside once the first game has built the map's caches
(`gc.freeze`), so full collections look only at what the games themselves made, and puts
them back when it is done.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from fibua.core.dice import derive_seed
from fibua.core.game import Game, play_out
from fibua.core.ruleset import Player, Result

if TYPE_CHECKING:
    from fibua.scenario.schema import Scenario

#: who plays each side of a game with this seed
Seating = Callable[[Game, int], dict[str, Player]]


def computers(game: Game, seed: int) -> dict[str, Player]:
    """The computer on both sides, each with a seed of its own drawn from the game's (as
    `fibua autoplay` seats them, so a seed plays the same game here and there)."""
    rules = game.ruleset
    return {side: rules.computer(side, derive_seed(seed, "computer", side))
            for side in game.scenario.side_names}


def play_games(scenario: Scenario, seeds: Iterable[int],
               seating: Seating = computers) -> Iterator[Result]:
    """Play one game of the scenario per seed, to the end, and yield each result."""
    frozen = False
    set_aside = gc.get_freeze_count() > 0  # by its caller: left as it is
    try:
        for seed in seeds:
            game = Game(scenario, seed)
            result = play_out(game, seating(game, seed))
            del game  # not kept among what is set aside
            if not set_aside:
                gc.collect()
                gc.freeze()
                frozen = set_aside = True
            yield result
    finally:
        if frozen:
            gc.unfreeze()
