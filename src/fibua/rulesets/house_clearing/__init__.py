"""House-Clearing: a D100 skirmish of initiative steps and body cover, for up to five
players a side (inches)."""

from fibua.rulesets.house_clearing.rules import HouseClearing

__all__ = ["HouseClearing"]
