"""`make bench`: line of sight, move checks, dice, whole-game speed, what a search costs
(a copy of a state, an order of a rollout), the lab, the game server under load (100 and
200 bot-played games: order-to-view latency, memory a game), and an order given on the
game page to the seat's map drawn anew, in Chromium.
Every figure is given by CPU time beside wall time (see timing.py). The last line is one
JSON object."""

from __future__ import annotations

import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from click_bench import measure_click_to_map
from dice_bench import measure_dice
from games_bench import measure_games
from lab_bench import LAB_SCENARIO, measure_lab
from move_bench import measure_moves
from search_bench import measure_search
from server_bench import measure_server
from sight_bench import measure_sight

#: the server bench's loads: live games at once
SERVER_GAMES = (100, 200)


def pin_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def server_line(server: dict[str, Any]) -> str:
    per_game = server["mb_per_game"]
    cpu = server["server_cpu_ms_per_order"]
    return (f"server: {server['games']} live games, {server['orders_per_s']:.1f} orders/s; an "
            f"order to every seat's new view (wall): p50 {server['p50_ms']:.0f} ms, "
            f"p99 {server['p99_ms']:.0f} ms; server CPU "
            + (f"{cpu:.1f} ms an order" if cpu is not None else "not read")
            + f", bots' CPU {server['bots_cpu_ms_per_order']:.1f} ms an order; "
            + (f"{per_game:.2f} MB a live game" if per_game is not None else "memory not read"))


def click_line(click: dict[str, Any]) -> str:
    if "skipped" in click:
        return f"order click to map drawn: not measured ({click['skipped']})"

    def cpu(key: str) -> str:
        value = click[key]
        return f"{value:.0f} ms" if value is not None else "not read"

    return (f"order click to map drawn, in Chromium ({click['orders']} orders, "
            f"{click['games']} games): p50 {click['click_to_map_p50_ms']:.0f} ms, p95 "
            f"{click['click_to_map_p95_ms']:.0f} ms wall (POST to push p50 "
            f"{click['to_push_p50_ms']:.0f}/p95 {click['to_push_p95_ms']:.0f}, redraw "
            f"{click['redraw_p50_ms']:.0f}/{click['redraw_p95_ms']:.0f}, to the frame "
            f"{click['paint_p50_ms']:.0f}/{click['paint_p95_ms']:.0f}); CPU an order: "
            f"server {cpu('server_cpu_ms_per_order')}, browser "
            f"{cpu('browser_cpu_ms_per_order')}")


def main() -> None:
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    pin_one_core()
    # the interpreter's build moves every figure (see docs/lab.md, Speed)
    python = f"{platform.python_version()} ({sys.base_prefix})"
    print(f"python: {python}")
    figures: dict[str, object] = {"python": python}
    sight = measure_sight()
    print(f"line of sight: {sight['los_checks_per_cpu_s']:,.0f} checks a CPU second "
          f"({sight['los_checks_per_s']:,.0f} a wall second), "
          f"{sight['los_speedup_vs_shapely_cpu']:,.0f}x plain Shapely by CPU")
    figures.update(sight)
    moves = measure_moves()
    print(f"move legs: {moves['move_blocked_cpu_us']:.1f} us of CPU a leg in one call "
          f"({moves['move_blocked_us']:.1f} wall), {moves['move_check_cpu_us']:.1f} us by "
          f"the full move check ({moves['move_check_us']:.1f} wall)")
    figures.update({k: round(v, 2) for k, v in moves.items() if k.startswith("move_")})
    dice = measure_dice()
    print(f"dice: {dice['per_cpu_s']:,.0f} d6 rolls a CPU second ({dice['per_wall_s']:,.0f} "
          f"a wall second; keyed BLAKE2b generator)")
    figures["dice_rolls"] = {k: round(v) for k, v in dice.items()}
    games = measure_games()
    for name, rate in games.items():
        print(f"{name}: {rate['per_cpu_s']:,.1f} complete computer-vs-computer games a CPU "
              f"second ({rate['per_wall_s']:,.1f} a wall second)")
    figures["games"] = games
    search = measure_search()
    for name, cost in search.items():
        print(f"search, {name}: a copy {cost['clone_cpu_ms']:.2f} ms CPU "
              f"({cost['clone_wall_ms']:.2f} wall); a rollout order "
              f"{cost['random_order_cpu_ms']:.2f} ms CPU random, "
              f"{cost['computer_order_cpu_ms']:.2f} ms CPU by the computer")
    figures["search"] = search
    if cores:
        os.sched_setaffinity(0, cores)  # the lab's processes may use every core again
    jobs = 2
    lab = measure_lab(LAB_SCENARIO, jobs=jobs)
    print(f"lab: {lab['per_wall_s']:,.1f} games a wall second of {LAB_SCENARIO} with {jobs} "
          f"jobs ({lab['per_cpu_s']:,.1f} a CPU second, the workers' included)")
    figures["lab_games"] = {LAB_SCENARIO: {k: round(v, 1) for k, v in lab.items()},
                            "jobs": jobs}
    loads = []
    for count in SERVER_GAMES:
        server = measure_server(games=count)
        print(server_line(server))
        loads.append({key: round(value, 3) if isinstance(value, float) else value
                      for key, value in server.items()})
    figures["server"] = loads
    click = measure_click_to_map()
    print(click_line(click))
    figures["click_to_map"] = {key: round(value, 1) if isinstance(value, float) else value
                               for key, value in click.items()}
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
