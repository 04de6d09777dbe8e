"""Making the rules engine ready: every compiled kernel a game calls, compiled once.

numba compiles a kernel the first time it is called with new types and keeps it on disk
(see `kernel_cache` in battlefield/geometry.py); on a fresh install, or after any change to
fibua's sources, the first game would spend about a minute of CPU on that. `prepare` does it
beforehand: it plays one computer-against-computer game of every bundled scenario (the set-up,
each side's view, a preview of one order of each kind, then the game to its end), reporting
each step, and leaves a mark beside the kernels once all are compiled. `fibua warmup` (which
`make play` runs) shows it as a progress bar; `fibua serve` runs it in the background when
the mark is missing, and the lobby shows how far it has come.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fibua.core.game import Game

#: the seed of the games played to compile the kernels (any seed would do)
WARM_SEED = 1
#: a game that runs longer is stopped there: the kernels it needed are compiled by then
MAX_ORDERS = 3000

#: (steps done, steps in all, what the next step is)
Report = Callable[[int, int, str], None]


def ready_mark() -> Path:
    """The file that says the kernels of these sources are compiled: in numba's cache
    folder (itself named by the sources' digest unless NUMBA_CACHE_DIR names it), so a
    change to any source, or another cache folder, leaves it missing."""
    from numba.core import config

    from fibua.battlefield.geometry import PACKAGE, sources_digest

    return Path(vars(config)["CACHE_DIR"]) / f"fibua-ready-{sources_digest(PACKAGE)}"


def is_ready() -> bool:
    """Whether `prepare` has run to its end for these sources, and numba still holds
    their kernels."""
    return ready_mark().exists() and not kernels_cold()


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


def warm_scenarios() -> list[Path]:
    """The scenarios whose games compile the kernels: every bundled one (each rule set
    calls its own kernels, and each map asks some with other types)."""
    from fibua.scenario.loader import bundled_scenarios

    return list(bundled_scenarios().values())


def play_one(path: Path) -> None:
    """A computer-against-computer game of the scenario at `path`, asking on the way what
    the server and the terminal ask of a game, so that every kernel it calls compiles."""
    from fibua.core.dice import derive_seed
    from fibua.core.game import Game, play_out
    from fibua.scenario.loader import load_scenario

    scenario = load_scenario(path)
    game = Game(scenario, WARM_SEED)
    for side in scenario.side_names:
        game.view(side)
    preview_each_kind(game)
    players = {side: game.ruleset.computer(side, derive_seed(WARM_SEED, "computer", side))
               for side in scenario.side_names}
    # a game that does not end: what it called is compiled all the same
    with contextlib.suppress(RuntimeError):
        play_out(game, players, max_orders=MAX_ORDERS)


def preview_each_kind(game: Game) -> None:
    """A preview of the first legal order of each kind for the side to act (a page asks
    these: they go through the rules' checks without changing the game)."""
    from fibua.core.errors import FibuaError

    acting = game.to_act()
    if acting is None:
        return
    seen: set[str] = set()
    for order in game.legal_orders(acting):
        if order.kind in seen:
            continue
        seen.add(order.kind)
        try:
            game.preview(order)
        except FibuaError:
            continue  # a refusal compiles what the check called, which is all we want


def in_turn(remaining: list[Path]) -> Path:
    """The scenarios in their listed order."""
    return remaining[0]


def prepare(report: Report, pick: Callable[[list[Path]], Path] = in_turn) -> None:
    """Compile every kernel a game calls, telling `report` each step (the step named
    by the scenario whose game is next), then leave the mark (a cache folder that cannot
    be written is no error: the kernels are compiled in this process all the same).
    `pick` chooses the next scenario among those left (a server plays first the one a
    game waits for)."""
    remaining = warm_scenarios()
    total = len(remaining)
    for done in range(total):
        path = pick(remaining)
        remaining.remove(path)
        report(done, total, path.stem)
        play_one(path)
    report(total, total, "ready")
    try:
        mark = ready_mark()
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
    except OSError:
        pass
