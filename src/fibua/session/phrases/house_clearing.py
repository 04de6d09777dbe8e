"""The house-clearing rule set's events in plain words (see fibua.session.narration)."""

from __future__ import annotations

from fibua.session.narration import Phrase, Phrasebook, register_phrasebook

PHRASES: dict[str, Phrase] = {}

BOOK = register_phrasebook(Phrasebook("house-clearing", "in", PHRASES))
