"""What a game costs at each computer level: `python bench/level_cost.py [--games N]
[--budget candidates=C,worlds=W,horizon=H] [--levels L1,L2,...] SCENARIO ...`.

For each scenario and level, N games (seeds from 100,000) with that player on both sides,
played as the lab plays them (`fibua.lab.runner.play_all`, one process), after one game
of the computer not counted (the kernels compiled, the map's caches made). CPU seconds a
game (`time.process_time`, which other work on a shared machine hardly moves) beside
wall seconds. A ladder never seats a player against itself: a game of hard against
another player costs about half a game of hard against hard and the other's half. The
last line is JSON."""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path

from fibua.lab.ladder import parse_budget
from fibua.lab.runner import play_all
from fibua.scenario.loader import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from timing import spent

SEEDS_FROM = 100_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--budget", default=None)
    parser.add_argument("--levels", default="random,doctrine,easy,normal,hard")
    parser.add_argument("scenarios", nargs="+")
    args = parser.parse_args()
    budget = parse_budget(args.budget)
    seeds = range(SEEDS_FROM, SEEDS_FROM + args.games)
    found: dict[str, dict[str, dict[str, float]]] = {}
    for name in args.scenarios:
        scenario = load_scenario(name)
        sides = scenario.side_names
        play_all(scenario, dict.fromkeys(sides, "computer"), [1])  # not counted
        found[name] = {}
        for level in args.levels.split(","):
            seats = dict.fromkeys(sides, level)
            took = spent(partial(play_all, scenario, seats, seeds, budget=budget))
            cpu, wall = took.cpu / args.games, took.wall / args.games
            found[name][level] = {"cpu": round(cpu, 3), "wall": round(wall, 3)}
            print(f"{name}: {level} v {level}: {cpu:.2f} s CPU a game "
                  f"({wall:.2f} s wall), {args.games} games", flush=True)
    print(json.dumps({"budget": vars(budget), "games": args.games, "cost": found}))


if __name__ == "__main__":
    main()
