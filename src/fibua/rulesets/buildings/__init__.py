"""Buildings: an order-dice WWII skirmish with intact buildings and bunkers (inches)."""

from fibua.rulesets.buildings.rules import Buildings

__all__ = ["Buildings"]
