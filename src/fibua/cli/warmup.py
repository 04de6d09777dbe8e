"""Saying what happens while the sight engine's kernels compile on a first run.

numba compiles the kernels when they are first called and keeps them on disk; a first run
(or the first after an upgrade) spends up to a minute on it, which would otherwise look like
a hang. The commands that build a game do it under `preparing`, and `warm_up` calls what a
game calls first (views, a computer's choice) while the message is showing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console

from fibua.core.game import Game, LegalOrders

COLD_MESSAGE = "preparing the sight engine (compiled once, up to a minute)..."
WARM_MESSAGE = "loading the game..."


def kernels_cold() -> bool:
    """Whether some compiled kernel of fibua has no usable copy on disk, so this run will
    compile it (numba's own index says so: missing, or older than its source)."""
    try:
        from numba.core.caching import FunctionCache
        from numba.core.registry import CPUDispatcher

        import fibua.battlefield.sight  # noqa: F401  (the kernels are defined on import)
    except ImportError:
        return False
    for name, module in list(sys.modules.items()):
        if not name.startswith("fibua.") or module is None:
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            cache = getattr(value, "_cache", None)
            if not isinstance(cache, FunctionCache):
                return True  # no disk cache (no writable folder): compiled on every run
            try:
                index: Any = getattr(cache, "_cache_file")._load_index()  # noqa: B009
                if not index:
                    return True
            except Exception:  # numba's internals moved: better to say it than stay silent
                return True
    return False


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
