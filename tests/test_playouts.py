"""The random-playout checker, run over every registered rule set and bundled scenario:
games between random players and computer players never crash, always end, replay to
the same log and state hash, and never hand a side the seed or the generator."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from fibua.core.game import Game, LegalOrders, play_out
from fibua.core.replay import log_lines, parse_log, replay_log, side_log_lines
from fibua.core.ruleset import Player
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario

SEEDS = range(3)
MAX_ORDERS = 20_000
PAIRINGS = ("random-random", "computer-random", "random-computer", "computer-computer")


def players(game: Game, pairing: str, seed: int) -> dict[str, Player]:
    kinds = pairing.split("-")
    out: dict[str, Player] = {}
    for n, side in enumerate(game.scenario.side_names):
        kind = kinds[min(n, 1)]
        rules = game.ruleset
        out[side] = (rules.computer(side, seed + n) if kind == "computer"
                     else rules.random_player(side, seed + n))
    return out


def scenarios() -> list[str]:
    return sorted(bundled_scenarios())


@pytest.fixture(scope="module")
def loaded() -> dict[str, Scenario]:
    return {name: load_scenario(name) for name in scenarios()}


def secrets_in(value: Any) -> set[str]:
    """Keys of a view that would hand over the generator."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("rng", "seed", "counter"):
                found.add(key)
            found |= secrets_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= secrets_in(item)
    return found


def no_secrets(game: Game, name: str, _: object) -> None:
    for side in game.scenario.side_names:
        assert not secrets_in(game.view(side)), f"{name}: {side}'s view"


@pytest.mark.parametrize("pairing", PAIRINGS)
@pytest.mark.parametrize("name", scenarios())
def test_playouts_end_replay_and_keep_secrets(
    name: str, pairing: str, loaded: dict[str, Scenario]
) -> None:
    scenario = loaded[name]
    for seed in SEEDS:
        game = Game(scenario, seed)
        sides = scenario.side_names
        check_views = partial(no_secrets, game, name)
        result = play_out(game, players(game, pairing, seed), MAX_ORDERS, check_views)
        assert game.over and result.winner in (*sides, None)
        lines = log_lines(game)
        report = replay_log(parse_log("\n".join(lines), f"{name}-{seed}"))
        assert report.mismatch is None, report.mismatch
        assert report.state_hash == game.state_hash()
        again = Game(scenario, seed)
        for order in game.orders:
            again.apply(order)
        assert log_lines(again) == lines
        for side in sides:
            header = json.loads(side_log_lines(game, side)[0])
            assert "seed" not in header and header["view"] == side


@pytest.mark.parametrize("name", scenarios())
def test_a_forced_order_is_the_one_legal_order(
    name: str, loaded: dict[str, Scenario]
) -> None:
    """`play_out` gives the order `Game.forced` names without asking the player: asked
    before every order of a game between random players, it names one only where that is
    the one legal order. House Clearing names the window to answer a move no figure of
    the side can fire in."""
    game = Game(loaded[name], 0)
    seated = players(game, "random-random", 0)
    forced = 0
    while (side := game.to_act()) is not None:
        order = game.forced(side)
        if order is None:
            order = seated[side].choose(game.observe(side), LegalOrders(game, side))
        else:
            assert game.legal_orders(side) == [order]
            forced += 1
        game.apply(order)
    assert (forced > 0) == (game.ruleset.name == "house-clearing")
