"""The baseline: picks uniformly among the legal orders it is offered."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fibua.core.orders import Order


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        return self._rng.choice(legal)
