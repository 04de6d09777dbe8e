"""Who plays each side in the lab: `--seat SIDE=PLAYER`, the computer where none is named.

Each player gets a seed of its own drawn from the game's and its kind's name, so a seed
plays the same game whatever else runs. The computer of every level (`easy`, `normal`,
`hard`, and `computer`, which is `normal`) is made by `fibua.session.computers.leveled`
and seeded as the session seeds a side's computer (`computer_seed`, the seed `fibua
autoplay` gives it): `normal` and `computer` play the same games, and a level differs
from another only by its play."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from fibua.core.dice import derive_seed
from fibua.core.errors import InputError, Problem
from fibua.core.game import Game
from fibua.core.ruleset import Notes, Player, RuleSet
from fibua.core.search import Budget
from fibua.lab.doctrine import DoctrinePlayer
from fibua.scenario.schema import Scenario
from fibua.session.computers import Level, leveled

#: makes a player of a kind for a side of a rule set, from the player's own seed and the
#: notes the side's players of the series keep from game to game (`Notes`)
PlayerMaker = Callable[[RuleSet[Any], str, int, Notes], Player]


#: the name a computer of any level draws its seed under (the session's `computer_seed`)
COMPUTER_SEED = "computer"


@dataclass(frozen=True)
class Leveled:
    """Makes the computer of one level; `budget` what a hard one's decision may weigh
    (the default `Budget` unless the seating gives one)."""

    level: Level
    budget: Budget | None = None

    def __call__(self, rules: RuleSet[Any], side: str, seed: int, notes: Notes) -> Player:
        # `seed` is derive_seed(game seed, "computer", side): the session's computer_seed
        return leveled(rules, side, seed, self.level, notes=notes, budget=self.budget)

    @property
    def searches(self) -> bool:
        return self.level is Level.HARD


def _random(rules: RuleSet[Any], side: str, seed: int, notes: Notes) -> Player:
    return rules.random_player(side, seed)


def _doctrine(rules: RuleSet[Any], side: str, seed: int, notes: Notes) -> Player:
    return DoctrinePlayer(side, seed)


#: the kinds of player a seat may name; the default one first
PLAYERS: dict[str, PlayerMaker] = {
    "computer": Leveled(Level.NORMAL), "random": _random, "doctrine": _doctrine,
    "easy": Leveled(Level.EASY), "normal": Leveled(Level.NORMAL),
    "hard": Leveled(Level.HARD)}


def register_player(name: str, maker: PlayerMaker) -> None:
    PLAYERS[name] = maker


def seed_name(kind: str) -> str:
    """The name a player of this kind draws its seed under."""
    return COMPUTER_SEED if isinstance(PLAYERS[kind], Leveled) else kind


def searches(kind: str) -> bool:
    """Whether a player of this kind looks ahead (and so takes a `Budget`)."""
    maker = PLAYERS[kind]
    return isinstance(maker, Leveled) and maker.searches


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
    series: one scenario, in one process). `budget`, where given, is what a hard
    computer's decision may weigh."""

    players: Mapping[str, str]
    notes: dict[str, Notes] = field(default_factory=dict, compare=False)
    budget: Budget | None = None

    def maker(self, kind: str) -> PlayerMaker:
        maker = PLAYERS[kind]
        if isinstance(maker, Leveled) and self.budget is not None:
            return replace(maker, budget=self.budget)
        return maker

    def __call__(self, game: Game, seed: int) -> dict[str, Player]:
        rules = game.ruleset
        return {side: self.maker(kind)(rules, side, derive_seed(seed, seed_name(kind), side),
                                       self.notes.setdefault(side, {}))
                for side, kind in self.players.items()}
