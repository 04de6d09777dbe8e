"""Street-Fight's registered words: the refusal codes its rules give (beyond the core's
`Refusal`) and the kinds of event they tell. Front ends and tests read these sets, never
the English of a refusal or an event; tests/test_registries.py checks that the rules give
no other and that every kind has its phrase."""

from __future__ import annotations

from typing import Final

#: refusal codes of this rule set's own (`IllegalOrder.code`)
REFUSALS: Final = frozenset({
    "already-moved", "blocked", "crowded", "fired", "full-cover", "in-combat", "morale",
    "moved", "moving", "no-aim", "no-cover", "no-floor", "not-automatic", "overwatch",
    "ran", "repeat", "run-into-combat", "stationary", "target-in-combat", "too-far",
    "too-wide", "unseen-point",
})

#: kinds of event the rules emit (`Event.kind`)
EVENT_KINDS: Final = frozenset({
    "aimed", "casualty", "close-combat", "deployed", "enemy-lost", "enemy-seen",
    "fell-back", "fire-cancelled", "full-cover-lost", "game-over", "halted",
    "initiative", "initiative-order", "morale", "moved", "overwatch", "overwatch-fire",
    "phase", "phase-passed", "rounds", "shot", "took-cover", "turn", "weapon-drawn",
})
