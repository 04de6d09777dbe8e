"""What a page is told while it waits for the server, so it never waits in the dark: the
rules engine being compiled (how far), the game being set up, the computer choosing its
orders, and that nothing is under way any more.

These go over a game's WebSocket beside its state messages (`{"type": "progress"}`), to
every holder alike: they say nothing of the game but where the server stands with it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from enum import StrEnum

from fibua.server.hub import PendingGame
from fibua.server.preparing import Preparation


class Stage(StrEnum):
    #: the rules engine's kernels are being compiled (the game is stored, not built)
    ENGINE = "engine"
    #: the game is being built from what is stored of it
    GAME = "game"
    #: a computer seat or side is choosing its orders
    COMPUTER = "computer"
    #: nothing is under way: the page shows the game as it is
    IDLE = "idle"


@dataclass(frozen=True)
class Progress:
    stage: Stage
    message: str
    #: how far, in whole per cent, where it can be told
    percent: int | None = None
    #: the scenario's title, for a page that has no state message yet
    title: str | None = None

    def text(self) -> str:
        """The message as it is sent."""
        return json.dumps({"type": "progress", **asdict(self)}, separators=(",", ":"),
                          ensure_ascii=False)


def waiting(pending: PendingGame, preparation: Preparation) -> Progress:
    """Where a game not built yet stands: waiting for the engine, or being set up."""
    title = pending.scenario.scenario.title
    if preparation.allows(pending.scenario.name):
        return Progress(Stage.GAME, "setting up the game", None, title)
    status = preparation.status()
    turn = preparation.turn_of(pending.scenario.name)
    where = ("now compiling the rules of this game's map" if turn == 0 else
             "the rules of this game's map are next" if turn == 1 else
             f"the rules of this game's map come after those of {turn - 1} other "
             f"map{'s' if turn > 2 else ''}" if turn > 1 else
             "the rules of this game's map come with the rest")
    return Progress(Stage.ENGINE, f"{status['message']}; {where}: the game opens once "
                                  f"they are compiled", status["percent"], title)


THINKING = Progress(Stage.COMPUTER, "the computer is thinking").text()
IDLE = Progress(Stage.IDLE, "").text()
