"""Win rate of the computer player against the random baseline, on each side of each
bundled scenario: `python tools/winrate.py [SEEDS] [SCENARIO ...]`; last line JSON."""

from __future__ import annotations

import json
import sys

from fibua.core.dice import derive_seed
from fibua.core.game import Game
from fibua.core.ruleset import Player
from fibua.lab.engine import play_games
from fibua.scenario.loader import bundled_scenarios, load_scenario


def win_rate(name: str, computer_side: str, seeds: int) -> float:
    def seating(game: Game, seed: int) -> dict[str, Player]:
        rules = game.ruleset
        return {side: rules.computer(side, derive_seed(seed, "computer", side))
                if side == computer_side
                else rules.random_player(side, derive_seed(seed, "random", side))
                for side in game.scenario.side_names}

    results = play_games(load_scenario(name), range(seeds), seating)
    return sum(result.winner == computer_side for result in results) / seeds


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    names = sys.argv[2:] or sorted(bundled_scenarios())
    rates: dict[str, dict[str, float]] = {}
    for name in names:
        scenario = load_scenario(name)
        rates[name] = {}
        for side in scenario.side_names:
            rates[name][side] = win_rate(name, side, seeds)
            print(f"{name}: computer as {side} beats random in "
                  f"{rates[name][side]:.1%} of {seeds} games", flush=True)
    print(json.dumps(rates, sort_keys=True))


if __name__ == "__main__":
    main()
