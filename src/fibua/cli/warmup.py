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
from pathlib import Path
from typing import Any

from rich.console import Console

from fibua.core.game import Game, LegalOrders

COLD_MESSAGE = "preparing the sight engine (compiled once, up to a minute)..."
WARM_MESSAGE = "loading the game..."


def kernels_cold() -> bool:
    """Whether this run will compile kernels: numba's disk cache has none of fibua's yet
    (a first run), or holds one made from an older source (an upgrade), or there is no
    disk cache at all (no writable folder). Kernels only ever called from other kernels
    have no file of their own, so a missing file alone says nothing."""
    try:
        from numba.core.caching import FunctionCache
        from numba.core.registry import CPUDispatcher

        import fibua.battlefield.sight  # noqa: F401  (the kernels are defined on import)
    except ImportError:
        return False
    usable = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("fibua.") or module is None:
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            cache = getattr(value, "_cache", None)
            if not isinstance(cache, FunctionCache):
                return True  # compiled on every run
            state = _index_state(cache)
            if state == "stale":
                return True
            usable += state == "usable"
    return usable == 0


def _index_state(cache: Any) -> str:
    """"usable", "stale" (a file numba will not use) or "missing", from numba's own index
    (its internals: should they move, the answer is "stale", so the message is shown)."""
    try:
        cache_file: Any = getattr(cache, "_cache_file")  # noqa: B009
        if not Path(cache_file._index_path).exists():
            return "missing"
        return "usable" if cache_file._load_index() else "stale"
    except Exception:
        return "stale"


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
