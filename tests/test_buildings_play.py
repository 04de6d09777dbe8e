"""Random playouts of the Buildings test table (tests/bld_helpers.py): games between random
and computer players never crash, always end, replay byte for byte, and hand no side the
generator; and the generic contract of tests/test_ruleset_contract.py holds on the table."""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any

import pytest

from bld_helpers import make_scenario, row, unit
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game, LegalOrders, play_out
from fibua.core.orders import Order
from fibua.core.replay import log_lines, parse_log, replay_log, side_log_lines
from fibua.core.ruleset import find_ruleset
from fibua.scenario.schema import Scenario
from test_playouts import MAX_ORDERS, PAIRINGS, no_secrets, players
from test_ruleset_contract import LISTED_SAMPLE, OWN_KEYS, VIEW_KEYS, bad_orders, sampled_states

SEEDS = range(4)
NAME = "buildings-test-table"


def mixed_allies() -> list[dict[str, Any]]:
    """Infantry, a carrier with a squad aboard, and an anti-tank gun."""
    return [unit("rifles", row(2, 5, 5) + row(2, 6, 5), type="rifle-squad"),
            unit("carrier", [{"at": [6, 12]}], type="carrier"),
            unit("smgs", row(6, 12, 4), weapon="smg", aboard="carrier"),
            unit("atg", row(3, 20, 3), type="light-anti-tank-gun")]


def mixed_axis() -> list[dict[str, Any]]:
    return [unit("grenadiers", row(27, 5, 6), weapon="rifle",
                 inside={"section": "house", "made_opening": 0}),
            unit("mg", row(32, 14, 3), type="mmg-team"),
            unit("tank", [{"at": [33, 20]}], type="medium-tank", facing=180.0)]


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


def test_views_have_the_promised_keys(table: Scenario) -> None:
    for game in sampled_states(table, 5):
        for side in table.side_names:
            view = game.view(side)
            assert set(view) >= VIEW_KEYS
            assert view["to_act"] == game.to_act()
            for own in view["own"]:
                assert set(own) >= OWN_KEYS
            seen = [e.to_dict() for e in game.log_for(side)]
            assert (view["log"] == seen[-len(view["log"]):]) if view["log"] else not seen


def test_refused_orders_change_nothing(table: Scenario) -> None:
    for game in sampled_states(table, 6):
        side = game.to_act()
        if side is None:
            break
        before = (game.state_hash(), len(game.log), len(game.orders))
        for order in bad_orders(game, side):
            with pytest.raises(IllegalOrder) as refused:
                game.apply(order)
            assert refused.value.reason
            assert (game.state_hash(), len(game.log), len(game.orders)) == before, str(order)


def test_listed_orders_pass_allows_and_preview(table: Scenario) -> None:
    pick = random.Random(7)
    for game in sampled_states(table, 7):
        side = game.to_act()
        if side is None:
            break
        legal = game.legal_orders(side)
        assert legal
        before = game.state_hash()
        for order in pick.sample(legal, min(LISTED_SAMPLE, len(legal))):
            assert game.ruleset.allows(game.state, order), str(order)
            assert isinstance(game.ruleset.preview(game.state, order), str)
        assert game.state_hash() == before


def test_nothing_is_accepted_after_the_end(table: Scenario) -> None:
    game = Game(table, 8)
    rules = game.ruleset
    computers = {s: rules.computer(s, 8 + n) for n, s in enumerate(table.side_names)}
    while (side := game.to_act()) is not None:
        game.apply(computers[side].choose(game.observe(side), LegalOrders(game, side)))
    final = game.state_hash()
    for side in table.side_names:
        assert game.legal_orders(side) == []
        with pytest.raises(IllegalOrder):
            game.apply(Order(side, "end"))
    assert game.state_hash() == final


def test_the_computer_orders_only_its_seat(table: Scenario) -> None:
    game = Game(table, 9)
    side = game.to_act()
    assert side is not None
    player = game.ruleset.computer(side, 9, frozenset({"smgs", "mg"}))
    order = player.choose(game.observe(side), LegalOrders(game, side))
    assert order.kind == "end" or order.unit in {"smgs", "mg"}
