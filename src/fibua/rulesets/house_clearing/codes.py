"""House Clearing's registered words: the refusal codes its rules give (beyond the core's
`Refusal`) and the kinds of event they tell. Front ends and tests read these sets, never
the English of a refusal or an event; tests/test_registries.py checks that the rules give
no other and that every kind has its phrase."""

from __future__ import annotations

from typing import Final

#: refusal codes of this rule set's own (`IllegalOrder.code`)
REFUSALS: Final = frozenset({
    "already-moved", "blocked", "cannot-lean", "cannot-react", "crowded", "fired",
    "no-change", "no-floor", "no-loader", "not-automatic", "not-the-mover",
    "out-of-range", "pinned", "reacted", "too-far", "too-high",
})

#: kinds of event the rules emit (`Event.kind`)
EVENT_KINDS: Final = frozenset({
    "deployed", "ducked-back", "enemy-glimpsed", "enemy-hit", "enemy-lost",
    "enemy-seen", "fire-declared", "fire-resolved", "fired-on", "first-roll",
    "game-over", "initiative-lost", "moved", "moved-back", "out-of-action", "reaction",
    "reaction-over", "shot", "stance", "statistic", "step", "stopped", "turn",
})
