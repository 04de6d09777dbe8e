"""Street Fighter: platoon-level FIBUA in centimetres, against a hidden enemy played by the
computer as Control (seed 000)."""

from fibua.rulesets.street_fighter.rules import StreetFighter

__all__ = ["StreetFighter"]
