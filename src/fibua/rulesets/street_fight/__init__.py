"""Street-Fight: a fast d10 skirmish for single figures or small units (inches)."""

from fibua.rulesets.street_fight.rules import StreetFight

__all__ = ["StreetFight"]
