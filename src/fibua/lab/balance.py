"""Is a scenario fair? The balance verdict of a lab run, and of several side by side.

An even game is one in which each side wins half the games that are won: a draw goes
to nobody, so draws are left out of the test (as ties are in a sign test) and shown apart.
The test is the exact binomial test of the first side's wins among the decided games
against 1/2 (two-sided); each side's share of the decided games carries its Wilson
interval. At the 5% level the verdict names the side favoured and by how many points
its share stands above 50%; otherwise the game is called even, for want of evidence.
The same verdict for runs of one scenario played by other players (each level of the
computer, doctrine) is set side by side, with a warning when two of them favour
different sides: then who is favoured depends on who plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fibua.lab.records import GameRow
from fibua.lab.stats import binomial_even, wilson

#: the level of the test against an even game
ALPHA = 0.05


def side_title(side: str) -> str:
    """A side's name as the verdict says it: germans -> Germans."""
    return side.replace("-", " ").title()


def p_text(p_value: float) -> str:
    return "p < 0.001" if p_value < 0.001 else f"p = {p_value:.2g}"


@dataclass(frozen=True)
class Balance:
    """The balance of one run of a two-sided scenario."""

    sides: tuple[str, str]
    wins: tuple[int, int]
    draws: int

    @property
    def decided(self) -> int:
        return self.wins[0] + self.wins[1]

    @property
    def games(self) -> int:
        return self.decided + self.draws

    def share(self, i: int) -> float:
        """Side i's share of the decided games (0.5 when none was decided)."""
        return self.wins[i] / self.decided if self.decided else 0.5

    def interval(self, i: int) -> tuple[float, float]:
        return wilson(self.wins[i], self.decided)

    @property
    def p_value(self) -> float:
        return binomial_even(self.wins[0], self.decided)

    @property
    def favoured(self) -> str | None:
        """The side the test finds favoured at the 5% level, or None: even."""
        if self.decided == 0 or self.p_value >= ALPHA:
            return None
        return self.sides[0] if self.wins[0] > self.wins[1] else self.sides[1]

    @property
    def margin(self) -> float:
        """How far the favoured side's share stands above 50%, in points."""
        return 100 * abs(self.share(0) - 0.5)

    def words(self) -> str:
        if self.decided == 0:
            return f"no game was decided ({self.draws} draws): nothing to judge"
        favoured = self.favoured
        if favoured is None:
            return f"even: no evidence either way ({p_text(self.p_value)})"
        return (f"favours the {side_title(favoured)} by {self.margin:.0f} points, "
                f"{p_text(self.p_value)}")


def balance_of(sides: Sequence[str], rows: Sequence[GameRow]) -> Balance | None:
    """The balance of these games, or None unless the scenario has two sides."""
    if len(sides) != 2:
        return None
    first, second = sides
    wins = (sum(1 for r in rows if r.winner == first),
            sum(1 for r in rows if r.winner == second))
    return Balance((first, second), wins, sum(1 for r in rows if r.winner is None))


def yardstick(seats: dict[str, str]) -> str:
    """Who played: `normal v normal`, or each side's player when they differ."""
    players = list(seats.values())
    if len(set(players)) == 1:
        return " v ".join(players)
    return ", ".join(f"{side}: {player}" for side, player in seats.items())


def disagreement(verdicts: Sequence[tuple[str, Balance]]) -> str | None:
    """A warning when two verdicts favour different sides; None when they agree."""
    by_side: dict[str, list[str]] = {}
    for label, balance in verdicts:
        if balance.favoured is not None:
            by_side.setdefault(balance.favoured, []).append(label)
    if len(by_side) < 2:
        return None
    parts = "; ".join(f"{', '.join(labels)} favour{'s' if len(labels) == 1 else ''} the "
                      f"{side_title(side)}" for side, labels in by_side.items())
    return (f"the verdicts disagree about who is favoured ({parts}): the balance depends "
            "on who plays")
