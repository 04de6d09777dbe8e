"""The contract every registered rule set keeps, checked on every bundled scenario (in the
spirit of pgx's api_test and OpenSpiel's random_sim_test): the view has the promised keys,
a refused order changes nothing, every listed order passes `allows` and `preview`, nothing
is accepted after the end, and seats name units of their side that take orders."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from fibua.core.errors import IllegalOrder
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.core.ruleset import Seat
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario

VIEW_KEYS = {"ruleset", "scenario", "side", "turn", "phase", "to_act", "own", "enemies",
             "log", "result"}
OWN_KEYS = {"id", "name", "x", "y", "status"}
#: orders checked at each sampled state, and how many states a game samples
LISTED_SAMPLE = 12
STATES = 6
SEED = 11


def scenario_names() -> list[str]:
    return sorted(bundled_scenarios())


@pytest.fixture(scope="module")
def loaded() -> dict[str, Scenario]:
    return {name: load_scenario(name) for name in scenario_names()}


def sampled_states(scenario: Scenario, seed: int) -> Iterator[Game]:
    """A game played by random players, stopped at a few points along the way."""
    game = Game(scenario, seed)
    rules = game.ruleset
    players = {s: rules.random_player(s, seed + n) for n, s in enumerate(scenario.side_names)}
    pick = random.Random(seed)
    stops = sorted(pick.sample(range(1, 400), STATES - 1))
    done = 0
    yield game
    for stop in stops:
        while done < stop and (side := game.to_act()) is not None:
            game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
            done += 1
        yield game
        if game.over:
            return


def bad_orders(game: Game, side: str) -> list[Order]:
    """Orders every rule set must refuse: nonsense kinds, units and parameters."""
    enemy = next(s for s in game.scenario.side_names if s != side)
    own = [f["id"] for f in game.view(side)["own"]]
    theirs = [f["id"] for f in game.view(enemy)["own"]]
    kinds = [k for k in game.ruleset.order_syntax if k != "end"]
    out = [Order(side, "fly", own[0] if own else None), Order(enemy, "end")]
    for kind in kinds:
        out += [
            Order(side, kind, "no-such-unit"),
            Order(side, kind, None),
            Order(side, kind, theirs[0] if theirs else "x"),
            Order(side, kind, own[0] if own else "x", {"tagret": "nobody"}),
        ]
    return out


@pytest.mark.parametrize("name", scenario_names())
def test_views_have_the_promised_keys(name: str, loaded: dict[str, Scenario]) -> None:
    for game in sampled_states(loaded[name], SEED):
        for side in game.scenario.side_names:
            view = game.view(side)
            assert set(view) >= VIEW_KEYS, f"{name}: missing {VIEW_KEYS - set(view)}"
            assert view["side"] == side and view["ruleset"] == game.ruleset.name
            assert view["to_act"] == game.to_act()
            for figure in view["own"]:
                assert set(figure) >= OWN_KEYS, f"{name}: own figure lacks keys"
            seen = [e.to_dict() for e in game.log_for(side)]
            # a rule set may carry only the most recent events; they must be the side's
            assert (view["log"] == seen[-len(view["log"]):]) if view["log"] else not seen


@pytest.mark.parametrize("name", scenario_names())
def test_refused_orders_change_nothing(name: str, loaded: dict[str, Scenario]) -> None:
    for game in sampled_states(loaded[name], SEED):
        side = game.to_act()
        if side is None:
            break
        before = (game.state_hash(), len(game.log), len(game.orders))
        for order in bad_orders(game, side):
            with pytest.raises(IllegalOrder) as refused:
                game.apply(order)
            assert refused.value.reason, f"{name}: {order} refused without a reason"
            assert (game.state_hash(), len(game.log), len(game.orders)) == before, str(order)


@pytest.mark.parametrize("name", scenario_names())
def test_listed_orders_pass_allows_and_preview(name: str, loaded: dict[str, Scenario]) -> None:
    pick = random.Random(SEED)
    for game in sampled_states(loaded[name], SEED):
        side = game.to_act()
        if side is None:
            break
        legal = game.legal_orders(side)
        assert legal, f"{name}: {side} must act but has no legal order"
        before = game.state_hash()
        for order in pick.sample(legal, min(LISTED_SAMPLE, len(legal))):
            assert game.ruleset.allows(game.state, order), str(order)
            assert isinstance(game.ruleset.preview(game.state, order), str)
        assert game.state_hash() == before


@pytest.mark.parametrize("name", scenario_names())
def test_nothing_is_accepted_after_the_end(name: str, loaded: dict[str, Scenario]) -> None:
    scenario = loaded[name]
    game = Game(scenario, SEED)
    rules = game.ruleset
    players = {s: rules.computer(s, SEED + n) for n, s in enumerate(scenario.side_names)}
    while (side := game.to_act()) is not None:
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    assert game.result() is not None
    final = game.state_hash()
    for side in scenario.side_names:
        assert game.legal_orders(side) == []
        with pytest.raises(IllegalOrder):
            game.apply(Order(side, "end"))
    assert game.state_hash() == final


def seats_of(game: Game) -> list[tuple[str, Seat]]:
    return [(side, seat) for side in game.scenario.side_names
            for seat in game.ruleset.seats(game.scenario, side)]


@pytest.mark.parametrize("name", scenario_names())
def test_seats_name_units_of_their_side(name: str, loaded: dict[str, Scenario]) -> None:
    game = Game(loaded[name], SEED)
    for side, seat in seats_of(game):
        assert seat.side == side
        if seat.units is None:
            continue
        ids = {f["id"] for f in game.view(side)["own"]}
        assert seat.units, f"{name}: seat {seat.name} has no units"
        assert seat.units <= ids, (f"{name}: seat {seat.name} names "
                                   f"{sorted(seat.units - ids)}, not ids of {side}'s units")


def until_seat_can_act(game: Game, side: str, seat: Seat, most: int = 600) -> list[Order]:
    """Let the computer play every side until one of the seat's units has a legal order
    (in rule sets that act by initiative, not every seat acts in every step)."""
    rules = game.ruleset
    players = {s: rules.computer(s, SEED) for s in game.scenario.side_names}
    assert seat.units is not None
    for _ in range(most):
        acting = game.to_act()
        if acting is None:
            break
        if acting == side:
            theirs = [o for o in game.legal_orders(side) if o.unit in seat.units]
            if theirs:
                return theirs
        game.apply(players[acting].choose(game.observe(acting), LegalOrders(game, acting)))
    return []


@pytest.mark.parametrize("name", scenario_names())
def test_each_seat_orders_its_own_units(name: str, loaded: dict[str, Scenario]) -> None:
    """A seat's units take orders, and the computer held to a seat orders only those."""
    for side, seat in seats_of(Game(loaded[name], SEED)):
        if seat.units is None:
            continue
        game = Game(loaded[name], SEED)
        theirs = until_seat_can_act(game, side, seat)
        assert theirs, f"{name}: no legal order for seat {seat.name}'s units"
        player = game.ruleset.computer(side, SEED, seat.units)
        order = player.choose(game.observe(side), LegalOrders(game, side))
        assert order.kind == "end" or order.unit in seat.units, f"{name}: {order}"
        game.apply(theirs[0])

