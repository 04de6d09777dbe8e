"""Who plays each side in the lab: `--seat SIDE=PLAYER`, the computer where none is named.

Each player gets a seed of its own drawn from the game's and its kind's name (the computer
as `fibua autoplay` seats it), so a seed plays the same game whatever else runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fibua.core.dice import derive_seed
from fibua.core.errors import InputError, Problem
from fibua.core.game import Game
from fibua.core.ruleset import Notes, Player, RuleSet
from fibua.lab.doctrine import DoctrinePlayer
from fibua.scenario.schema import Scenario

#: makes a player of a kind for a side of a rule set, from the player's own seed and the
#: notes the side's players of the series keep from game to game (`Notes`)
PlayerMaker = Callable[[RuleSet[Any], str, int, Notes], Player]


def _computer(rules: RuleSet[Any], side: str, seed: int, notes: Notes) -> Player:
    # `seed` is derive_seed(game seed, "computer", side): the session's computer_seed
    return rules.computer(side, seed, notes=notes)


def _random(rules: RuleSet[Any], side: str, seed: int, notes: Notes) -> Player:
    return rules.random_player(side, seed)


def _doctrine(rules: RuleSet[Any], side: str, seed: int, notes: Notes) -> Player:
    return DoctrinePlayer(side, seed)


#: the kinds of player a seat may name; the default one first
PLAYERS: dict[str, PlayerMaker] = {"computer": _computer, "random": _random,
                                   "doctrine": _doctrine}


def register_player(name: str, maker: PlayerMaker) -> None:
    PLAYERS[name] = maker


def _problem(message: str) -> InputError:
    return InputError([Problem("--seat", "", message)])


def parse_seats(scenario: Scenario, given: Iterable[str]) -> dict[str, str]:
    """Every side's kind of player: the computer unless `SIDE=PLAYER` names another."""
    seats = dict.fromkeys(scenario.side_names, "computer")
    named: set[str] = set()
    for text in given:
        side, sep, player = (part.strip() for part in text.partition("="))
        if not sep or not side or not player:
            raise _problem(f"{text!r} is not SIDE=PLAYER (e.g. "
                           f"{scenario.side_names[0]}=random)")
        if side not in seats:
            raise _problem(f"no side {side!r} in {scenario.name}; sides: "
                           f"{', '.join(scenario.side_names)}")
        if player not in PLAYERS:
            raise _problem(f"no player {player!r}; players: {', '.join(PLAYERS)}")
        if side in named:
            raise _problem(f"side {side!r} is seated twice")
        named.add(side)
        seats[side] = player
    return seats


@dataclass(frozen=True)
class Seats:
    """A seating (see `fibua.lab.engine.Seating`) from each side's kind of player. Each
    side's players keep their notes of the map from game to game of the seating (a
    series: one scenario, in one process)."""

    players: Mapping[str, str]
    notes: dict[str, Notes] = field(default_factory=dict, compare=False)

    def __call__(self, game: Game, seed: int) -> dict[str, Player]:
        rules = game.ruleset
        return {side: PLAYERS[kind](rules, side, derive_seed(seed, kind, side),
                                    self.notes.setdefault(side, {}))
                for side, kind in self.players.items()}
