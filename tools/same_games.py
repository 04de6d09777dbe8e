"""The same games? One line a game: its seed and its state hash (the final state and the
whole log, `Game.state_hash`), the computer at the normal level on every side, or a hard
computer (the lab budget) on side `--hard K` of the scenario's sides. A change meant only
to make the code faster must leave every line as it was: run this on the tree before and
after (`PYTHONPATH=<tree>/src python tools/same_games.py SCENARIO FIRST COUNT > hashes`)
and compare the files. CPU seconds a game go to standard error, so that the two trees'
costs can be set side by side in the same run (the second run of a tree counts: the first
compiles its kernels)."""

from __future__ import annotations

import argparse
import sys
import time

from fibua.core.game import Game, play_out
from fibua.core.search import Budget
from fibua.lab.ladder import LADDER_BUDGET
from fibua.lab.seats import Seats
from fibua.scenario.loader import load_scenario


def seats_for(sides: tuple[str, ...] | list[str], hard: int | None) -> Seats:
    players = {side: "hard" if k == hard else "computer" for k, side in enumerate(sides)}
    budget: Budget | None = LADDER_BUDGET if hard is not None else None
    return Seats(players, budget=budget)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("first", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("--hard", type=int, default=None,
                        help="the index of the side a hard computer plays")
    args = parser.parse_args()
    scenario = load_scenario(args.scenario)
    seats = seats_for(scenario.side_names, args.hard)
    cpu = 0.0
    for seed in range(args.first, args.first + args.count):
        game = Game(scenario, seed)
        start = time.process_time()
        play_out(game, seats(game, seed))
        cpu += time.process_time() - start
        print(seed, game.state_hash(), flush=True)
    print(f"# {args.scenario}: {args.count} games, "
          f"{cpu / args.count * 1000:.1f} CPU-s per 1,000", file=sys.stderr)


if __name__ == "__main__":
    main()
