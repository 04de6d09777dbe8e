"""The rules engine made ready in the background when `fibua serve` starts before its
kernels are compiled (`make play` compiles them first; a server started otherwise, or after
a change to fibua's sources, would make the first game wait a minute in silence).

A thread plays the warm-up games of `fibua.kernels` while the server answers; the lobby
and the seat pages ask `/api/engine` (or are told over their WebSocket) how far it has come
("preparing the rules engine: 3 of 10"). A game may be created meanwhile: it is stored at
once and opened (built, its computers let play) as soon as the warm-up has played its
scenario, which the warm-up then plays next (`want`); a game of a scenario the warm-up does
not play (an uploaded one) waits for the whole of it. The warm-up games are the thread's
own: they share with the server's games only numba's compiled kernels and pure functions'
caches.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("fibua.server")

#: the step reported once every scenario has been played
READY_STEP = "ready"


@dataclass
class Preparation:
    """How far the rules engine's preparation has come; `ready` from the start when there
    is nothing to prepare."""

    ready: bool = True
    done: int = 0
    total: int = 0
    step: str = ""
    #: scenarios whose warm-up game has been played (their games may open)
    played: set[str] = field(default_factory=set)
    #: scenarios a game waits for, first asked first (played before the others)
    wanted: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def start_if_needed(cls) -> Preparation:
        """A preparation under way in a thread of its own if the kernels are not ready,
        else one that is ready."""
        from fibua.kernels import is_ready

        if is_ready():
            return cls()
        preparation = cls(ready=False)
        threading.Thread(target=preparation.run, name="fibua-prepare", daemon=True).start()
        return preparation

    def run(self) -> None:
        """Compile the kernels, then be ready; should that fail, be ready all the same (a
        game then compiles what it calls as it calls it, as it would have)."""
        from fibua.kernels import prepare

        try:
            prepare(self.report, self.pick)
        except Exception:
            log.exception("preparing the rules engine failed; games compile as they go")
        with self.lock:
            self.ready = True

    def report(self, done: int, total: int, step: str) -> None:
        """A step begins: the one before it (a scenario's game) is over."""
        with self.lock:
            if self.step and self.step != READY_STEP:
                self.played.add(self.step)
            self.done, self.total, self.step = done, total, step

    def pick(self, remaining: list[Path]) -> Path:
        """The next scenario to play: the first a game waits for, else the next listed."""
        with self.lock:
            for name in self.wanted:
                for path in remaining:
                    if path.stem == name:
                        return path
        return remaining[0]

    def want(self, scenario: str) -> None:
        """A game of `scenario` waits: its warm-up game goes before the others left."""
        with self.lock:
            if scenario not in self.wanted:
                self.wanted.append(scenario)

    def allows(self, scenario: str) -> bool:
        """Whether a game of `scenario` may be opened now: the engine is ready, or the
        warm-up has played that scenario (the kernels its games call are compiled)."""
        with self.lock:
            return self.ready or scenario in self.played

    def turn_of(self, scenario: str) -> int:
        """Where `scenario`'s warm-up game stands: 0 under way, 1 next, and so on (after
        the other waited-for scenarios before it); -1 played, or not among those waited
        for."""
        with self.lock:
            if self.step == scenario:
                return 0
            waiting = [name for name in self.wanted
                       if name not in self.played and name != self.step]
            return waiting.index(scenario) + 1 if scenario in waiting else -1

    def message(self) -> str:
        if self.ready:
            return "the rules engine is ready"
        counted = f": {self.done} of {self.total}" if self.total else ""
        return f"preparing the rules engine{counted} (compiled once for this version)"

    def percent(self) -> int:
        """How far the whole preparation has come, in whole per cent."""
        if self.ready:
            return 100
        return 100 * self.done // self.total if self.total else 0

    def status(self) -> dict[str, Any]:
        with self.lock:
            return {"ready": self.ready, "done": self.done, "total": self.total,
                    "percent": self.percent(), "message": self.message()}
