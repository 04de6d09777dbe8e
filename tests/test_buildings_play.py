"""Random playouts of the Buildings test table (tests/bld_helpers.py): games between random
and computer players never crash, always end, replay byte for byte, and hand no side the
generator; and the generic contract of tests/test_ruleset_contract.py holds on the table."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from bld_helpers import make_scenario, row, unit
from fibua.core.contract import CHECKS
from fibua.core.game import Game, play_out
from fibua.core.replay import log_lines, parse_log, replay_log, side_log_lines
from fibua.core.ruleset import find_ruleset
from fibua.scenario.schema import Scenario
from test_playouts import MAX_ORDERS, PAIRINGS, no_secrets, players

SEEDS = range(4)
NAME = "buildings-test-table"


def mixed_allies() -> list[dict[str, Any]]:
    """Infantry, a carrier with a squad aboard, an anti-tank gun, a mortar, an air
    observer and a flamethrower."""
    return [unit("rifles", row(2, 5, 5) + row(2, 6, 5), type="rifle-squad"),
            unit("carrier", [{"at": [6, 12]}], type="carrier"),
            unit("smgs", row(6, 12, 4), weapon="smg", aboard="carrier"),
            unit("atg", row(3, 20, 3), type="light-anti-tank-gun"),
            unit("mortar", row(2, 22, 3), type="medium-mortar-team"),
            unit("obs", row(6, 22, 2), type="air-observer"),
            unit("flamer", row(4, 2, 2), type="flamethrower-team")]


def mixed_axis() -> list[dict[str, Any]]:
    return [unit("grenadiers", row(27, 5, 6), weapon="rifle",
                 inside={"section": "house", "made_opening": 0}),
            unit("mg", row(32, 14, 3), type="mmg-team"),
            unit("tank", [{"at": [33, 20]}], type="heavy-tank", facing=180.0),
            unit("fo", row(31, 2, 2), type="artillery-observer")]


TABLES = {"plain": {}, "mixed": {"allies": mixed_allies(), "axis": mixed_axis()}}


@pytest.fixture(scope="module", params=sorted(TABLES))
def table(request: pytest.FixtureRequest) -> Scenario:
    return make_scenario(**TABLES[request.param])


def test_buildings_is_registered() -> None:
    assert find_ruleset("buildings").name == "buildings"


@pytest.mark.parametrize("pairing", PAIRINGS)
def test_playouts_end_replay_and_keep_secrets(pairing: str, table: Scenario) -> None:
    for seed in SEEDS:
        game = Game(table, seed)
        check_views = partial(no_secrets, game, NAME)
        result = play_out(game, players(game, pairing, seed), MAX_ORDERS, check_views)
        assert game.over and result.winner in (*table.side_names, None)
        lines = log_lines(game)
        report = replay_log(parse_log("\n".join(lines), f"{NAME}-{seed}"))
        assert report.mismatch is None, report.mismatch
        assert report.state_hash == game.state_hash()
        again = Game(table, seed)
        for order in game.orders:
            again.apply(order)
        assert log_lines(again) == lines
        for side in table.side_names:
            header = json.loads(side_log_lines(game, side)[0])
            assert "seed" not in header and header["view"] == side


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_the_table_keeps_the_contract(check: str, table: Scenario) -> None:
    CHECKS[check](find_ruleset("buildings"), table, 11)
