"""Saying what happens while the sight engine's kernels compile on a first run.

numba compiles the kernels when they are first called and keeps them on disk; a first run
(or the first after an upgrade) spends up to a minute on it, which would otherwise look like
a hang. `fibua warmup` (run by `make play`) compiles them all beforehand under a progress
bar (`run_warmup`); the commands that build a game do it under `preparing`, and `warm_up`
calls what a game calls first (views, a computer's choice) while the message is showing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fibua.core.game import Game, LegalOrders
from fibua.kernels import is_ready, kernels_cold, prepare

COLD_MESSAGE = "preparing the sight engine (compiled once, up to a minute)..."
WARM_MESSAGE = "loading the game..."


@contextmanager
def preparing(console: Console) -> Iterator[None]:
    """While the block runs: a spinner on a terminal; elsewhere one line, on a cold cache."""
    cold = kernels_cold()
    if console.is_terminal:
        with console.status(COLD_MESSAGE if cold else WARM_MESSAGE):
            yield
        return
    if cold:
        console.print(COLD_MESSAGE, markup=False, highlight=False)
    yield


def warm_up(game: Game) -> None:
    """Call, changing nothing, what a game calls first: each side's view, and the choice of
    a computer player for the side to act (discarded), so the kernels compile now."""
    for side in game.scenario.side_names:
        game.observe(side)
    acting = game.to_act()
    if acting is not None:
        player = game.ruleset.computer(acting, game.seed)
        player.choose(game.observe(acting), LegalOrders(game, acting))


def run_warmup(console: Console, force: bool = False) -> bool:
    """Compile every kernel a game calls unless that is done (`force`: again all the
    same), under a progress bar on a terminal and a line a step elsewhere; nothing is
    printed when there is nothing to do. True if it compiled."""
    if not force and is_ready():
        return False
    started = time.perf_counter()
    cpu = time.process_time()
    console.print("preparing the rules engine (compiled once for each version of fibua)",
                  markup=False, highlight=False)
    if console.is_terminal:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=console) as progress:
            task = progress.add_task("scenarios", total=None)

            def advance(done: int, total: int, label: str) -> None:
                progress.update(task, completed=done, total=total, description=label)

            prepare(advance)
    else:
        prepare(lambda done, total, label: console.print(
            f"  {done} of {total} done, next: {label}" if done < total else
            f"  {done} of {total} done", markup=False, highlight=False))
    console.print(f"the rules engine is ready ({time.perf_counter() - started:.0f} s, "
                  f"{time.process_time() - cpu:.0f} s of CPU)", markup=False,
                  highlight=False)
    return True
