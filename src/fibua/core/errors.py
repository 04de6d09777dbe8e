"""Typed errors. Each carries the context a user needs to fix the problem."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class FibuaError(Exception):
    """Base of every error fibua raises on purpose."""


class Refusal(StrEnum):
    """The refusal codes the core, the session and the front ends give or read, whatever
    the rules. A rule set registers its own beside these (`RuleSet.refusals`); a code is
    what a program reads, the reason what a person reads."""

    #: refused, with nothing more precise to say
    ILLEGAL = "illegal"
    #: a parameter the kind does not take, or a value of the wrong type
    BAD_PARAMETER = "bad-parameter"
    #: no order of that kind in this rule set
    UNKNOWN = "unknown"
    #: the order names no unit of its side
    NO_UNIT = "no-unit"
    #: the unit can no longer take orders
    OUT_OF_ACTION = "out-of-action"
    #: another side's order is awaited
    NOT_YOUR_TURN = "not-your-turn"
    #: the game is over
    GAME_OVER = "game-over"
    #: nothing to take back
    CANNOT_UNDO = "cannot-undo"
    #: a place off the table
    OFF_TABLE = "off-table"
    #: an order of another phase
    WRONG_PHASE = "wrong-phase"
    #: an order of another step of the phase
    WRONG_STEP = "wrong-step"
    #: an answer to an enemy's action is awaited first
    REACTING = "reacting"
    #: the order names no target the unit may take
    NO_TARGET = "no-target"
    #: the unit is not under the seat's command
    SEAT = "seat"
    #: a target the side has not seen (a front end's masked refusal)
    UNKNOWN_TARGET = "unknown-target"


class IllegalOrder(FibuaError):
    """An order the rules do not allow now. The game state is left exactly as it was."""

    def __init__(self, reason: str, order: Any = None, code: str = Refusal.ILLEGAL) -> None:
        self.reason = reason
        self.order = order
        self.code = code
        super().__init__(reason)


class RulesFault(FibuaError):
    """The rule set failed (raised something other than IllegalOrder) while carrying out
    or previewing an order. The game was put back as it was before the order."""

    def __init__(self, order: Any, error: BaseException) -> None:
        self.order = order
        self.error = error
        super().__init__(
            f"the rules failed on the order {order}: {type(error).__name__}: {error} "
            "(the game is as it was before the order)"
        )


class UnknownRuleset(FibuaError):
    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown rule set {name!r}; known: {', '.join(known) or 'none'}")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file: where it is and what is wrong."""

    source: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}: {self.path}" if self.path else self.source
        return f"{where}: {self.message}"


class InputError(FibuaError):
    """Bad input (a scenario file, a log, arguments), with one problem per line."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class ScenarioError(InputError):
    pass


class ReplayMismatch(FibuaError):
    """A replayed game diverged from its log."""

    def __init__(self, line: int, expected: Any, actual: Any) -> None:
        self.line = line
        self.expected = expected
        self.actual = actual
        super().__init__(f"line {line}: log has {expected!r}, replay gives {actual!r}")


class DiceExhausted(FibuaError):
    """A forced-dice test double ran out of faces: the test expected fewer rolls."""
