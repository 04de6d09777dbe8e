"""The rules engine made ready in the background when `fibua serve` starts before its
kernels are compiled (`make play` compiles them first; a server started otherwise, or after
a change to fibua's sources, would make the first game wait a minute in silence).

A thread plays the warm-up games of `fibua.kernels` while the server answers; the lobby
asks `/api/engine` how far it has come ("preparing the rules engine: 3 of 10") and offers
Create once it is done (a game asked for through the API before then is made as before,
compiling what it needs as it goes). The warm-up games are the thread's own: they share
with the server's games only numba's compiled kernels and pure functions' caches.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("fibua.server")


@dataclass
class Preparation:
    """How far the rules engine's preparation has come; `ready` from the start when there
    is nothing to prepare."""

    ready: bool = True
    done: int = 0
    total: int = 0
    step: str = ""
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
            prepare(self.report)
        except Exception:
            log.exception("preparing the rules engine failed; games compile as they go")
        with self.lock:
            self.ready = True

    def report(self, done: int, total: int, step: str) -> None:
        with self.lock:
            self.done, self.total, self.step = done, total, step

    def message(self) -> str:
        if self.ready:
            return "the rules engine is ready"
        counted = f": {self.done} of {self.total}" if self.total else ""
        return f"preparing the rules engine{counted} (compiled once for this version)"

    def status(self) -> dict[str, Any]:
        with self.lock:
            return {"ready": self.ready, "done": self.done, "total": self.total,
                    "message": self.message()}
