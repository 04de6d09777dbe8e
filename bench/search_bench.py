"""What a search costs on each bundled scenario, mid-game: a copy of the state
(`RuleSet.clone`), and an order of a rollout as the search plays it (the side's orders
lazy, `WorldLegal`: a random player lists them, the rule set's computer asks of the
orders it builds, with the side's notes kept from rollout to rollout), by a random
player and by the rule set's computer. CPU time beside wall."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from fibua.core.dice import Rng
from fibua.core.game import Game
from fibua.core.ruleset import Notes, Player, RuleSet
from fibua.core.search import WorldLegal
from fibua.scenario.loader import bundled_scenarios, load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from timing import Spent, spent

#: random orders before the state measured, copies made, rollout orders given
MIDGAME, COPIES, ROLLOUT = 40, 30, 120


def _midgame(name: str) -> Game:
    game = Game(load_scenario(bundled_scenarios()[name]), 100_000)
    rng = random.Random(100_000)
    for _ in range(MIDGAME):
        side = game.to_act()
        if side is None:
            break
        game.apply(rng.choice(game.legal_orders(side)))
    return game


def _rollout(rules: RuleSet[Any], state: Any, players: dict[str, Player]) -> int:
    """Orders given on a copy until the game ends or ROLLOUT are given."""
    for n in range(ROLLOUT):
        side = rules.to_act(state)
        if side is None:
            return n
        order = rules.forced(state, side)
        if order is None:
            order = players[side].choose(rules.observe(state, side),
                                         WorldLegal(rules, state, side))
        rules.apply(state, order)
    return ROLLOUT


def _per_order(game: Game, computer: bool) -> dict[str, float]:
    rules = game.ruleset
    sides = game.scenario.side_names
    notes: dict[str, Notes] = {side: {} for side in sides}
    players = {side: rules.computer(side, n, notes=notes[side]) if computer
               else rules.random_player(side, n) for n, side in enumerate(sides)}
    copy = rules.clone(game.state, Rng(1))
    given = [0]

    def run() -> None:
        given[0] = _rollout(rules, copy, players)

    took = spent(run)
    count = max(given[0], 1)
    return {"cpu_ms": took.cpu * 1000 / count, "wall_ms": took.wall * 1000 / count}


def _copy_cost(game: Game) -> Spent:
    rules, state = game.ruleset, game.state

    def run() -> None:
        for _ in range(COPIES):
            rules.clone(state)

    took = spent(run)
    return Spent(took.wall * 1000 / COPIES, took.cpu * 1000 / COPIES)


def measure_search() -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name in sorted(bundled_scenarios()):
        game = _midgame(name)
        copy = _copy_cost(game)
        random_order = _per_order(game, computer=False)
        computer_order = _per_order(game, computer=True)
        out[name] = {"clone_cpu_ms": round(copy.cpu, 2), "clone_wall_ms": round(copy.wall, 2),
                     "random_order_cpu_ms": round(random_order["cpu_ms"], 2),
                     "random_order_wall_ms": round(random_order["wall_ms"], 2),
                     "computer_order_cpu_ms": round(computer_order["cpu_ms"], 2),
                     "computer_order_wall_ms": round(computer_order["wall_ms"], 2)}
    return out


if __name__ == "__main__":
    for scenario, figures in measure_search().items():
        print(scenario, figures)
