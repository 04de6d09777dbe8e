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

import random
from collections.abc import Callable, Collection, Sequence
from enum import StrEnum
from typing import Any

from fibua.core.dice import derive_seed
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.core.ruleset import (
    Notes,
    Player,
    Risk,
    RuleSet,
    Seat,
    commands,
    is_searcher,
    own_computer,
)
from fibua.core.search import Budget, WorldLegal, search_player


class Level(StrEnum):
    """How well a computer plays: `normal` is the rule set's own computer; `easy` it
    with lapses (now and then an order drawn at random); `hard` it looking ahead
    (core/search.py) where the rule set can draw worlds, else `normal`."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


#: each level in plain words, for a person choosing one (the lobby)
LEVEL_WORDS: dict[Level, str] = {
    Level.EASY: "the computer with lapses: now and then it gives an order at random",
    Level.NORMAL: "the computer's own judgement, order by order: it answers at once",
    Level.HARD: "looks ahead: tries a few orders in possible futures before each one; "
                "stronger, and takes up to a second or two per order",
}

#: how often an easy computer gives an order drawn at random instead of its own
LAPSE = 0.3


class Careless:
    """A computer that now and then gives a legal order of one of its units drawn at
    random instead of its own choice (never `end` unasked: a lapse is a poor order, not
    giving up the phase; nor one whose forecast calls it hopeless: a lapse misjudges, it
    does not fire at what it cannot hit)."""

    def __init__(self, player: Player, seed: int, units: frozenset[str] | None) -> None:
        self.player = player
        self.units = units
        self.rng = random.Random(derive_seed(seed, "lapse"))

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        if self.rng.random() < LAPSE:
            mine = [o for o in legal if o.kind != "end" and commands(self.units, o.unit)]
            while mine:
                pick = self.rng.choice(mine)
                if not hopeless(legal, pick):
                    return pick
                mine.remove(pick)
        return self.player.choose(view, legal)


def hopeless(legal: Sequence[Order], order: Order) -> bool:
    """Whether the order's forecast says no roll it makes can succeed (where the legal
    orders can tell: a game's or a drawn world's)."""
    if not isinstance(legal, LegalOrders):
        return False
    preview = legal.forecast(order)
    return preview is not None and Risk.HOPELESS in preview.risks


def leveled(rules: RuleSet[Any], side: str, seed: int, level: Level,
            units: frozenset[str] | None = None, notes: Notes | None = None,
            budget: Budget | None = None) -> Player:
    """The computer of one level for a side (or the seat with `units`); `budget` what
    a hard computer's decision may weigh (core/search.py's default unless given)."""
    if level is Level.HARD:
        return search_player(rules, side, seed, budget, units=units, notes=notes)
    player = own_computer(rules, side, seed, units, notes)
    return Careless(player, seed, units) if level is Level.EASY else player


def computer_seed(game_seed: int, side: str, seat: str | None = None) -> int:
    """The seed of the computer that plays `side` whole (`seat` None) or one seat of it."""
    if seat is None:
        return derive_seed(game_seed, "computer", side)
    return derive_seed(game_seed, "computer", side, seat)


def side_computer(rules: RuleSet[Any], side: str, game_seed: int,
                  notes: Notes | None = None, level: Level = Level.NORMAL) -> Player:
    """The computer that plays a whole side (with the side's notes from earlier games of
    the scenario, where kept: see `Notes`)."""
    return leveled(rules, side, computer_seed(game_seed, side), level, notes=notes)


def seat_computer(rules: RuleSet[Any], seat: Seat, game_seed: int,
                  level: Level = Level.NORMAL) -> Player:
    """The computer for one seat of a side that a person plays too."""
    return leveled(rules, seat.side, computer_seed(game_seed, seat.side, seat.name), level,
                   seat.units)


def side_computers(rules: RuleSet[Any], sides: Sequence[str], game_seed: int,
                   people: Collection[str] = (), level: Level = Level.NORMAL
                   ) -> dict[str, Player]:
    """A computer for every side but those in `people`."""
    return {side: side_computer(rules, side, game_seed, level=level) for side in sides
            if side not in people}


def seat_computers(rules: RuleSet[Any], seats: Sequence[Seat], game_seed: int,
                   people: Collection[str], level: Level = Level.NORMAL
                   ) -> dict[str, Player]:
    """A computer for every seat of a side not in `people` (seat names), by seat name, for
    a side some person plays (a side nobody plays has one `side_computer`)."""
    return {seat.name: seat_computer(rules, seat, game_seed, level) for seat in seats
            if seat.name not in people}


def looks_ahead(player: Player) -> bool:
    """Whether the player searches from the game (a hard computer's decision takes about
    a second of CPU; any other's a few milliseconds)."""
    return is_searcher(player)


def decision_apart(game: Game, side: str, player: Player) -> Callable[[], Order]:
    """The player's choice for `side` now (as `fibua.core.game.ask` makes it), as work to be
    done elsewhere, such as another thread: it reads a copy of the game's state taken now
    (`RuleSet.clone`: its own sight engines), never the game, which may be read and
    changed meanwhile. The copy is the game to the last bit, so the choice is the one
    `ask` would make. The player is the work's alone while it runs."""
    rules = game.ruleset
    state = rules.clone(game.state)

    def decide() -> Order:
        legal = WorldLegal(rules, state, side)
        view = rules.observe(state, side)
        if is_searcher(player):
            return player.search(state, view, legal)
        return player.choose(view, legal)

    return decide
