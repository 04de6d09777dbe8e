"""The computer players of a game, made one way for every front end, so that one scenario,
seed and assignment of seats to people or the computer plays the same game at the terminal,
in the browser, in `fibua autoplay` and in the lab.

The scheme: a side no person plays is played whole by one computer seeded
`derive_seed(seed, "computer", side)`; a seat no person took, on a side some person plays,
by a computer for that seat's units seeded `derive_seed(seed, "computer", side, seat)`.
The seeds are keyed hashes of the game's: a computer's moves do not give the game's seed
away. A computer is asked and its order given the same way everywhere
(`fibua.core.game.chosen`, and `give_or_end` / `attempt`: a refused order is a fault of
the computer, which gives up its phase).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from fibua.core.dice import derive_seed
from fibua.core.ruleset import Notes, Player, RuleSet, Seat


def computer_seed(game_seed: int, side: str, seat: str | None = None) -> int:
    """The seed of the computer that plays `side` whole (`seat` None) or one seat of it."""
    if seat is None:
        return derive_seed(game_seed, "computer", side)
    return derive_seed(game_seed, "computer", side, seat)


def side_computer(rules: RuleSet[Any], side: str, game_seed: int,
                  notes: Notes | None = None) -> Player:
    """The computer that plays a whole side (with the side's notes from earlier games of
    the scenario, where kept: see `Notes`)."""
    seed = computer_seed(game_seed, side)
    if notes is None:
        return rules.computer(side, seed)
    return rules.computer(side, seed, notes=notes)


def seat_computer(rules: RuleSet[Any], seat: Seat, game_seed: int) -> Player:
    """The computer for one seat of a side that a person plays too."""
    return rules.computer(seat.side, computer_seed(game_seed, seat.side, seat.name),
                          seat.units)


def side_computers(rules: RuleSet[Any], sides: Sequence[str], game_seed: int,
                   people: Collection[str] = ()) -> dict[str, Player]:
    """A computer for every side but those in `people`."""
    return {side: side_computer(rules, side, game_seed) for side in sides
            if side not in people}


def seat_computers(rules: RuleSet[Any], seats: Sequence[Seat], game_seed: int,
                   people: Collection[str]) -> dict[str, Player]:
    """A computer for every seat of a side not in `people` (seat names), by seat name, for
    a side some person plays (a side nobody plays has one `side_computer`)."""
    return {seat.name: seat_computer(rules, seat, game_seed) for seat in seats
            if seat.name not in people}
