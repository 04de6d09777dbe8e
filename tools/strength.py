"""The computer measured against the doctrine player, seat by seat (the lab's section 5):
`python tools/strength.py [--games N] [--jobs J] [--opponent P] [SCENARIO ...]`; the last
line is JSON.

For each bundled scenario and each side S, two runs on the same seeds: the computer in S
against doctrine, and doctrine in S against doctrine. With `--opponent computer` the other
side is the computer instead in both runs: where doctrine never beats doctrine's
defenders, a seat is measured against an attacker that does. The computer is stronger in that
seat by the difference of S's win rates; each rate is given with its 95% Wilson interval
and the difference with
Newcombe's interval for paired seeds and McNemar's exact p-value (lab/stats.py)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from fibua.lab.runner import play_all
from fibua.lab.stats import paired_difference, wilson
from fibua.scenario.loader import bundled_scenarios, load_scenario


def wins(name: str, seats: dict[str, str], side: str, games: int, jobs: int) -> list[bool]:
    rows = play_all(load_scenario(name), seats, range(games), jobs)
    return [row.winner == side for row in rows]


def measure(name: str, side: str, games: int, jobs: int,
            opponent: str = "doctrine") -> dict[str, Any]:
    others = {s: opponent for s in load_scenario(name).side_names if s != side}
    computer = wins(name, {side: "computer", **others}, side, games, jobs)
    doctrine = wins(name, {side: "doctrine", **others}, side, games, jobs)
    difference = paired_difference(computer, doctrine)
    return {"computer": sum(computer) / games, "computer_ci": wilson(sum(computer), games),
            "doctrine": sum(doctrine) / games, "doctrine_ci": wilson(sum(doctrine), games),
            "difference": difference.first - difference.second,
            "difference_ci": (difference.low, difference.high),
            "p_value": difference.p_value, "games": games}


def row(name: str, side: str, m: dict[str, Any]) -> str:
    def pct(x: float) -> str:
        return f"{100 * x:.1f}"

    def ci(pair: tuple[float, float]) -> str:
        return f"{pct(pair[0])}-{pct(pair[1])}"

    return (f"| {name} | {side} | {pct(m['computer'])}% ({ci(m['computer_ci'])}) "
            f"| {pct(m['doctrine'])}% ({ci(m['doctrine_ci'])}) "
            f"| {100 * m['difference']:+.1f} ({ci(m['difference_ci'])}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--opponent", choices=("doctrine", "computer"), default="doctrine")
    parser.add_argument("scenarios", nargs="*")
    args = parser.parse_args()
    names = args.scenarios or sorted(bundled_scenarios())
    results: dict[str, dict[str, Any]] = {}
    against = args.opponent
    print(f"| scenario | side | computer vs {against} | doctrine vs {against} | difference |")
    print("|---|---|---|---|---|")
    for name in names:
        results[name] = {}
        for side in load_scenario(name).side_names:
            start = time.perf_counter()
            results[name][side] = measure(name, side, args.games, args.jobs, against)
            results[name][side]["seconds"] = round(time.perf_counter() - start, 1)
            print(row(name, side, results[name][side]), flush=True)
    print(json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()
