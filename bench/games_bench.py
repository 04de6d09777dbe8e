"""Complete computer-vs-computer games per second, per bundled scenario, on one core."""

from __future__ import annotations

import time

from fibua.core.game import Game, play_out
from fibua.scenario.loader import bundled_scenarios, load_scenario


def games_per_second(name: str, seconds: float = 3.0, warmup: int = 2) -> float:
    scenario = load_scenario(name)
    for seed in range(warmup):
        _one_game(scenario, 10_000 + seed)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _one_game(scenario, done)
        done += 1
    return done / (time.perf_counter() - start)


def _one_game(scenario: object, seed: int) -> None:
    game = Game(scenario, seed)  # type: ignore[arg-type]
    a, b = game.scenario.side_names
    players = {a: game.ruleset.computer(a, seed), b: game.ruleset.computer(b, seed + 1)}
    play_out(game, players)


def measure_games(seconds: float = 3.0) -> dict[str, float]:
    return {name: round(games_per_second(name, seconds), 1) for name in bundled_scenarios()}
