"""Check that a change keeps behaviour: the final state hash (state and whole log) of many
games, computer against computer and each side against the random player.

    python tools/oracle.py record hashes.json [--seeds N] [SCENARIO ...]
    python tools/oracle.py compare hashes.json [--seeds N] [SCENARIO ...]

`record` before the change, `compare` after it: exit status 1 and the games that differ
when any does. With no scenario named, every bundled scenario is played.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from fibua.core.dice import derive_seed
from fibua.core.game import Game, play_out
from fibua.core.ruleset import Notes
from fibua.scenario.loader import bundled_scenarios, load_scenario

#: who plays each side: the computer (c) or the random baseline (r)
PAIRINGS = ("cc", "rc", "cr")


def game_hashes(names: list[str], seeds: int) -> Iterator[tuple[str, str]]:
    for name in names:
        scenario = load_scenario(name)
        # each side's computer keeps its notes of the map from game to game, as in the lab:
        # a game must come out the same as with none
        notes: dict[str, Notes] = {}
        for seed in range(seeds):
            for pairing in PAIRINGS:
                yield f"{name}/{seed}/{pairing}", _final_hash(scenario, seed, pairing, notes)


def _final_hash(scenario: object, seed: int, pairing: str, notes: dict[str, Notes]) -> str:
    game = Game(scenario, seed)  # type: ignore[arg-type]
    rules = game.ruleset
    players = {
        side: rules.computer(side, derive_seed(seed, "computer", side),
                             notes=notes.setdefault(side, {})) if who == "c"
        else rules.random_player(side, derive_seed(seed, "random", side))
        for side, who in zip(game.scenario.side_names, pairing, strict=True)
    }
    play_out(game, players)
    return game.state_hash()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["record", "compare"])
    parser.add_argument("file", type=Path)
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("scenarios", nargs="*")
    args = parser.parse_intermixed_args()
    names = args.scenarios or sorted(bundled_scenarios())
    found = dict(game_hashes(names, args.seeds))
    if args.action == "record":
        args.file.write_text(json.dumps(found, indent=0, sort_keys=True))
        print(f"{len(found)} games recorded in {args.file}")
        return 0
    before = json.loads(args.file.read_text())
    differ = [key for key, digest in found.items() if before.get(key) != digest]
    if differ:
        print(f"{len(differ)} of {len(found)} games differ: {', '.join(differ[:10])}")
        return 1
    print(f"identical: {len(found)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
