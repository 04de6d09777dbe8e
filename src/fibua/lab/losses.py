"""Which units a side loses, how often and how early, over a run's games.

A designer reads a playtest for the moves that lose games, not only for who won: a
headquarters run into the open and lost in the first turn of nearly every game, a gun lost
before it ever mattered. The lab's rows keep each figure or unit out of the fight with the
turn it fell (`Fall`), so this needs no replay: per side and unit, the share of games it was
lost in (with its Wilson interval), the median turn, and the share lost by a given turn.
It names whatever the scenario names; nothing here knows one scenario from another."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from fibua.lab.records import Fall, GameRow
from fibua.lab.stats import wilson


@dataclass(frozen=True)
class Loss:
    """One unit (or figure) of a side over a run: lost in `lost` of `games` games, in
    `early` of them by turn `by_turn`, and the turns it fell in (None where no event said)."""

    side: str
    id: str
    name: str
    games: int
    lost: int
    early: int
    by_turn: int
    turns: tuple[int, ...]

    @property
    def rate(self) -> float:
        return self.lost / self.games if self.games else 0.0

    @property
    def early_rate(self) -> float:
        return self.early / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.lost, self.games)

    def early_interval(self) -> tuple[float, float]:
        return wilson(self.early, self.games)

    def median_turn(self) -> float | None:
        return median(self.turns) if self.turns else None


def losses(rows: Sequence[GameRow], by_turn: int = 1) -> list[Loss]:
    """Every unit lost in at least one game, the most often lost first (then the earliest
    lost, then by side and id, so the order is the same on every run of the same games)."""
    falls: dict[tuple[str, str], list[Fall]] = defaultdict(list)
    for row in rows:
        for fall in _once_each(row.falls):
            falls[(fall.side, fall.id)].append(fall)
    found = [_loss(side, ident, fell, len(rows), by_turn)
             for (side, ident), fell in falls.items()]
    return sorted(found, key=lambda loss: (-loss.lost, -loss.early, loss.side, loss.id))


def _once_each(falls: Sequence[Fall]) -> list[Fall]:
    """A unit listed once a game, whatever the row holds."""
    seen: dict[tuple[str, str], Fall] = {}
    for fall in falls:
        seen.setdefault((fall.side, fall.id), fall)
    return list(seen.values())


def _loss(side: str, ident: str, fell: list[Fall], games: int, by_turn: int) -> Loss:
    turns = tuple(sorted(f.turn for f in fell if f.turn is not None))
    early = sum(1 for f in fell if f.turn is not None and f.turn <= by_turn)
    return Loss(side=side, id=ident, name=fell[0].name, games=games, lost=len(fell),
                early=early, by_turn=by_turn, turns=turns)


def losses_table(found: Sequence[Loss], top: int | None = None) -> list[list[str]]:
    """The table the command prints and the report shows: a header row, then a row a unit."""
    if not found:
        return [["side", "unit", "lost"]]
    by_turn = found[0].by_turn
    table = [["side", "unit", "lost in [95% CI]", "median turn",
              f"lost by turn {by_turn} [95% CI]"]]
    for loss in found[:top]:
        low, high = loss.interval()
        e_low, e_high = loss.early_interval()
        turn = loss.median_turn()
        table.append([
            loss.side, f"{loss.name} ({loss.id})",
            f"{loss.lost}/{loss.games} = {_pc(loss.rate)} [{_pc(low)}, {_pc(high)}]",
            "-" if turn is None else f"{turn:g}",
            f"{loss.early}/{loss.games} = {_pc(loss.early_rate)} "
            f"[{_pc(e_low)}, {_pc(e_high)}]"])
    return table


def _pc(value: float) -> str:
    return f"{100 * value:.1f}%"
