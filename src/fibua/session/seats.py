"""Seats and the seat round, once for every front end.

A side can have several seats (commanders, each with their own units: `RuleSet.seats`),
each played by a person or the computer. Within a stage of the game (a turn, phase and
step, as the acting side's view gives them) the side's seats give their orders one after
another; a seat says it has finished with `done`, and once every seat that has orders has
finished, the side's `end` follows. A seat with no order to give is not asked. A side whose
every seat is the computer's is played whole by one computer (`fibua.session.computers`).

The terminal and the server ask the same question, `SeatRound.next(side)`, and do what it
says: so `done` means the same in both, and a seed plays the same game in both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import Seat, commands
from fibua.core.views import ViewHeader
from fibua.session.computers import Level

HUMAN = "human"
COMPUTER = "computer"


@dataclass(frozen=True)
class SeatPlan:
    """A seat of a game: its place in the rule set's seats, who plays it and, for the
    computer, how well (a person's seat keeps `normal`, which nothing reads)."""

    name: str
    side: str
    units: frozenset[str] | None
    player: str
    level: Level = Level.NORMAL

    @property
    def seat(self) -> Seat:
        return Seat(self.name, self.side, self.units)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "side": self.side, "player": self.player,
                "units": sorted(self.units) if self.units is not None else None,
                "level": self.level.value}

    @staticmethod
    def from_dict(raw: Mapping[str, Any]) -> SeatPlan:
        """A seat as `to_dict` wrote it (one written before seats had levels: `normal`);
        ValueError for a level that is none."""
        units = raw.get("units")
        return SeatPlan(str(raw["name"]), str(raw["side"]),
                        frozenset(units) if units is not None else None, str(raw["player"]),
                        Level(str(raw.get("level", Level.NORMAL.value))))


@dataclass(frozen=True)
class Stage:
    """Where the game stands for a side: the turn, and the phase and step where the rule
    set has them. The seats' `done` holds for one stage."""

    turn: int | None
    phase: str | None
    step: int | None

    @staticmethod
    def of(view: Mapping[str, Any]) -> Stage:
        head = ViewHeader.of(view)
        return Stage(head.turn, head.phase, head.step)

    def key(self) -> list[Any]:
        return [self.turn, self.phase, self.step]


# -- what comes next ---------------------------------------------------------------------


@dataclass(frozen=True)
class ComputerSide:
    """The side is the computer's in every seat: ask its one computer."""

    side: str


@dataclass(frozen=True)
class EndSide:
    """Every seat has finished or has nothing to do (or `end` is all the side may do)."""

    side: str


@dataclass(frozen=True)
class Forced:
    """The side has no choice (`Game.forced`, or `end` is all it may do): nobody is asked.
    `quiet`: the rules' own forced order (a window to answer an enemy's move that nobody
    can fire in), given without a word: a side is offered such a window after every enemy
    move, seen or not, so saying it passed would tell of moves it did not see. A phase with
    nothing to order may be said to pass."""

    order: Order
    quiet: bool = False


@dataclass(frozen=True)
class ComputerSeat:
    """A computer seat of a side a person plays too owes orders."""

    seat: SeatPlan


@dataclass(frozen=True)
class PersonSeat:
    """A person's seat owes orders: ask them (a server waits for them)."""

    seat: SeatPlan


Next = ComputerSide | Forced | EndSide | ComputerSeat | PersonSeat


@dataclass
class SeatRound:
    """The seats of a game and which have finished the stage under way. `view` and
    `legal` are how the round reads the game (a server passes ones kept per version)."""

    game: Game
    seats: Sequence[SeatPlan]
    #: per side, the seats that have finished: {"key": Stage.key(), "seats": [names]} (as
    #: the server's store keeps it)
    done: dict[str, Any] = field(default_factory=dict)
    view: Callable[[str], Mapping[str, Any]] | None = None
    legal: Callable[[str], list[Order]] | None = None
    choice: Callable[[str], bool] | None = None

    def _view(self, side: str) -> Mapping[str, Any]:
        return self.view(side) if self.view is not None else self.game.view(side)

    def _legal(self, side: str) -> list[Order]:
        return self.legal(side) if self.legal is not None else self.game.legal_orders(side)

    def _choice(self, side: str) -> bool:
        return self.choice(side) if self.choice is not None else self.game.has_choice(side)

    def of(self, side: str) -> list[SeatPlan]:
        return [seat for seat in self.seats if seat.side == side]

    def named(self, name: str) -> SeatPlan | None:
        return next((seat for seat in self.seats if seat.name == name), None)

    def computer_side(self, side: str) -> bool:
        return all(seat.player == COMPUTER for seat in self.of(side))

    def stage(self, side: str) -> Stage:
        return Stage.of(self._view(side))

    def done_seats(self, side: str) -> set[str]:
        """The seats of `side` that have finished the stage under way."""
        entry = self.done.get(side)
        if not entry or entry.get("key") != self.stage(side).key():
            return set()
        return set(entry.get("seats", []))

    def finish(self, seat: SeatPlan) -> None:
        """The seat has finished its orders for the stage under way."""
        seats = self.done_seats(seat.side) | {seat.name}
        self.done[seat.side] = {"key": self.stage(seat.side).key(), "seats": sorted(seats)}

    def ended(self, orders: Sequence[Order]) -> None:
        """After these orders: a side that gave its `end` starts its next stage afresh."""
        for side in {o.side for o in orders if o.kind == "end"}:
            self.done.pop(side, None)

    def seat_orders(self, seat: SeatPlan) -> list[Order]:
        """The legal orders of the seat's own units now (the side's, when it has all; a
        seat of a shared side has no `end`: it says done instead)."""
        if self.game.to_act() != seat.side:
            return []
        legal = self._legal(seat.side)
        if seat.units is None:
            return legal
        return [o for o in legal if o.unit is not None and commands(seat.units, o.unit)]

    def owes(self, seat: SeatPlan) -> bool:
        """Whether the seat is to give orders now: its side acts, it has not finished,
        and it has an order to give (a seat with the whole side always has: its `end`,
        so its orders need not be listed)."""
        if self.game.to_act() != seat.side or seat.name in self.done_seats(seat.side):
            return False
        return seat.units is None or bool(self.seat_orders(seat))

    def next(self, side: str) -> Next:
        """What the side's seats do next (the side must be the one to act)."""
        if self.computer_side(side):
            return ComputerSide(side)
        seats = self.of(side)
        forced = self.game.forced(side)
        if forced is not None:
            return Forced(forced, quiet=True)
        if not self._choice(side):
            return Forced(Order(side, "end"))  # every rule set lets the side to act end
        if len(seats) == 1 and seats[0].units is None:
            return PersonSeat(seats[0])  # one person plays the side: they end it
        done = self.done_seats(side)
        for seat in seats:
            if seat.name not in done and self.seat_orders(seat):
                return ComputerSeat(seat) if seat.player == COMPUTER else PersonSeat(seat)
        return EndSide(side)


__all__ = ["COMPUTER", "HUMAN", "ComputerSeat", "ComputerSide", "EndSide", "Forced", "Next",
           "PersonSeat", "SeatPlan", "SeatRound", "Stage"]
