"""Buildings's registered words: the refusal codes its rules give (beyond the core's
`Refusal`) and the kinds of event they tell. Front ends and tests read these sets, never
the English of a refusal or an event; tests/test_registries.py checks that the rules give
no other and that every kind has its phrase."""

from __future__ import annotations

from typing import Final

#: refusal codes of this rule set's own (`IllegalOrder.code`)
REFUSALS: Final = frozenset({
    "aboard", "assault-infantry", "blocked", "called", "cannot-move", "coherency",
    "enemy-floor", "enter-infantry", "enter-run", "fixed", "has-order", "he-weapon",
    "in-building", "inside", "mount-infantry", "mount-run", "no-barrage", "no-door",
    "no-entering", "no-fixed-weapon", "no-floor", "no-indirect", "no-move",
    "no-observer", "no-opening", "no-section", "no-sight", "no-transport",
    "no-way-through", "not-adjacent", "not-connected", "not-empty", "not-ground",
    "not-heavy", "not-intact", "not-plunging", "occupied", "out-of-range", "outside",
    "rubble", "too-far", "too-strong", "vehicle-inside",
})

#: kinds of event the rules emit (`Event.kind`)
EVENT_KINDS: Final = frozenset({
    "abandons", "air-strike", "ambush", "assault", "assault-round", "assigned",
    "bail-out", "barrage", "barrage-on-building", "barrage-roll", "bumped", "burning",
    "burst", "called", "casualties", "close-assault", "collapse", "damage", "deployed",
    "destroyed", "down-instead", "extra-turn", "fire", "fire-at-building", "fire-roll",
    "flame-hits", "game-over", "he", "he-in-building", "holds", "indirect-fire",
    "kept-down", "leaps-out", "morale-test", "moved", "no-regroup", "no-shot", "order",
    "order-die", "order-test", "passengers-fight", "pins", "rally", "reaction-down",
    "reaction-fire", "regrouped", "rout", "shot-at", "takes-floor", "tank-assault",
    "tank-assault-roll", "to-hit", "turn", "turn-end", "vehicle-damage",
})
