"""`make bench`: line of sight, move checks, dice, whole-game speed, the lab, and the game
server under load (100 bot-played games: order-to-view latency, memory a game). The last
line is one JSON object."""

from __future__ import annotations

import json
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from dice_bench import measure_dice
from games_bench import measure_games
from lab_bench import LAB_SCENARIO, measure_lab
from move_bench import measure_moves
from server_bench import measure_server
from sight_bench import measure_sight


def pin_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main() -> None:
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    pin_one_core()
    # the interpreter's build moves every figure (see docs/lab.md, Speed)
    python = f"{platform.python_version()} ({sys.base_prefix})"
    print(f"python: {python}")
    figures: dict[str, object] = {"python": python}
    sight = measure_sight()
    print(f"line of sight: {sight['los_checks_per_s']:,.0f} checks/s, "
          f"{sight['los_speedup_vs_shapely']:,.0f}x plain Shapely")
    figures.update(sight)
    moves = measure_moves()
    print(f"move legs: {moves['move_blocked_us']:.1f} us a leg in one call, "
          f"{moves['move_check_us']:.1f} us by the full move check")
    figures["move_blocked_us"] = round(moves["move_blocked_us"], 2)
    figures["move_check_us"] = round(moves["move_check_us"], 2)
    dice = measure_dice()
    print(f"dice: {dice:,.0f} d6 rolls/s (keyed BLAKE2b generator)")
    figures["dice_rolls_per_s"] = round(dice)
    games = measure_games()
    for name, rate in games.items():
        print(f"{name}: {rate:,.1f} complete computer-vs-computer games/s")
    figures["games_per_s"] = games
    if cores:
        os.sched_setaffinity(0, cores)  # the lab's processes may use every core again
    jobs = 2
    lab = measure_lab(LAB_SCENARIO, jobs=jobs)
    print(f"lab: {lab:,.1f} games/s of {LAB_SCENARIO} with {jobs} jobs")
    figures["lab_games_per_s"] = {LAB_SCENARIO: round(lab, 1), "jobs": jobs}
    server = measure_server()
    per_game = server["mb_per_game"]
    print(f"server: {server['games']} live games, {server['orders_per_s']:.1f} orders/s; an "
          f"order to every seat's new view: p50 {server['p50_ms']:.0f} ms, "
          f"p99 {server['p99_ms']:.0f} ms; "
          + (f"{per_game:.2f} MB a live game" if per_game is not None else "memory not read"))
    figures["server"] = {
        "games": server["games"], "orders_per_s": round(server["orders_per_s"], 1),
        "p50_ms": round(server["p50_ms"], 1), "p99_ms": round(server["p99_ms"], 1),
        "mb_per_game": round(per_game, 3) if per_game is not None else None,
        "refused": server["refused"]}
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
