"""Events of whole games of every bundled scenario of a rule set, each with the sides that
were told it and the names each used then: what the narration tests read."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from fibua.core.dice import derive_seed
from fibua.core.events import Event
from fibua.core.game import Game, play_out
from fibua.core.ruleset import Player
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.session.narration import Names, names_for

PACKAGES = {
    "street-fight": "street_fight",
    "street-fighter": "street_fighter",
    "house-clearing": "house_clearing",
    "buildings": "buildings",
}
SOURCE = Path(__file__).resolve().parents[1] / "src" / "fibua" / "rulesets"


@dataclass(frozen=True)
class Told:
    scenario: str
    event: Event
    side: str
    names: Names


def _players(game: Game, seed: int, random_side: str | None) -> dict[str, Player]:
    rules = game.ruleset
    return {side: rules.random_player(side, derive_seed(seed, "random", side))
            if side == random_side else rules.computer(side, derive_seed(seed, "computer", side))
            for side in game.scenario.side_names}


@functools.cache
def told(ruleset: str, seeds: tuple[int, ...] = (1, 2)) -> tuple[Told, ...]:
    """Every event of computer-against-computer and random-against-computer games of every
    bundled scenario of the rule set, once for each side that was told it."""
    found: list[Told] = []
    for name, path in bundled_scenarios().items():
        scenario = load_scenario(path)
        if scenario.ruleset != ruleset:
            continue
        for seed in seeds:
            for random_side in (None, *scenario.side_names):
                game = Game(scenario, seed)
                start = len(game.log)

                def hear(events: list[Event], game: Game = game, name: str = name) -> None:
                    for side in game.scenario.side_names:
                        names = names_for(ruleset, game.view(side),
                                          game.scenario.battlefield)
                        found.extend(Told(name, e, side, names)
                                     for e in events if e.seen_by(side))

                hear(game.log[:start])
                play_out(game, _players(game, seed, random_side), on_events=hear)
    return tuple(found)


def emitted_kinds(ruleset: str) -> set[str]:
    """The event kinds the rule set's source emits by a literal name."""
    kinds: set[str] = set()
    for path in (SOURCE / PACKAGES[ruleset]).glob("*.py"):
        kinds |= set(re.findall(r"emit\(\s*\"([a-z][a-z0-9-]*)\"", path.read_text()))
    return kinds
