"""Street Fighter's registered words: the refusal codes its rules give (beyond the core's
`Refusal`) and the kinds of event they tell. Front ends and tests read these sets, never
the English of a refusal or an event; tests/test_registries.py checks that the rules give
no other and that every kind has its phrase."""

from __future__ import annotations

from typing import Final

#: refusal codes of this rule set's own (`IllegalOrder.code`)
REFUSALS: Final = frozenset({
    "acted", "blocked", "cannot-ride", "full", "held", "in-building", "morale",
    "mounted", "no-effect", "no-indirect", "no-vehicle", "not-infantry", "not-mounted",
    "out-of-range", "pinned", "too-far", "unarmed", "unseen-point",
})

#: kinds of event the rules emit (`Event.kind`)
EVENT_KINDS: Final = frozenset({
    "assault", "assault-roll", "assault-stopped", "bailed-out", "bombard-result",
    "bombarded", "cleared", "deployed", "deployment-picked", "dismounted", "enemy-lost",
    "enemy-out", "enemy-seen", "fire-called", "fire-lands", "fire-lost", "fired-on",
    "game-over", "morale", "mounted", "moved", "no-effect", "observation-die",
    "observing", "orders", "pinned", "retreated", "shot", "turn", "unit-lost", "unpin",
})
