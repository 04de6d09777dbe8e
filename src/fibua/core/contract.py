"""The promises every rule set keeps, checked generically on a scenario (in the spirit of
pgx's `api_test` and OpenSpiel's `random_sim_test`). `check_ruleset(rules, scenario)` runs
them all and raises AssertionError naming the first one broken:

- the view has the keys `RuleSet.view` promises, its log the side's latest events;
- a refused order (nonsense kinds, units, parameters, the wrong side) changes nothing;
- each listed legal order passes `allows` and `preview`, and neither changes anything;
- nothing is accepted once the game is over;
- every seat's ids name units of its side, and a computer held to a seat orders only those.

tests/test_ruleset_contract.py runs each check over every registered rule set and bundled
scenario; a new rule set passes them before its own tests mean much.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from fibua.core.errors import IllegalOrder
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.core.ruleset import RuleSet, Seat, seat_allows
from fibua.core.views import CONTRACT_KEYS

if TYPE_CHECKING:
    from fibua.scenario.schema import Scenario

#: what each of a view's own units shows, at least
OWN_KEYS = frozenset({"id", "name", "x", "y", "status"})
SEED = 11
#: how many states a game is sampled at, and orders checked at each
STATES = 6
LISTED_SAMPLE = 12
#: orders the computer may give before a seat's units have an order of their own
SEAT_WAIT = 600

Check = Callable[[RuleSet[Any], "Scenario", int], None]


def check_ruleset(rules: RuleSet[Any], scenario: Scenario, seed: int = SEED) -> None:
    """Every check of this module on one scenario of `rules`."""
    for check in CHECKS.values():
        check(rules, scenario, seed)


def _game(rules: RuleSet[Any], scenario: Scenario, seed: int) -> Game:
    game = Game(scenario, seed)
    assert game.ruleset is rules, f"{scenario.name} is a {game.ruleset.name} scenario"
    return game


def sampled_states(rules: RuleSet[Any], scenario: Scenario, seed: int) -> Iterator[Game]:
    """A game played by random players, stopped at a few points along the way."""
    game = _game(rules, scenario, seed)
    players = {s: rules.random_player(s, seed + n) for n, s in enumerate(scenario.side_names)}
    stops = sorted(random.Random(seed).sample(range(1, 400), STATES - 1))
    done = 0
    yield game
    for stop in stops:
        while done < stop and (side := game.to_act()) is not None:
            game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
            done += 1
        yield game
        if game.over:
            return


def check_views(rules: RuleSet[Any], scenario: Scenario, seed: int) -> None:
    name = scenario.name
    for game in sampled_states(rules, scenario, seed):
        for side in game.scenario.side_names:
            view = game.view(side)
            assert set(view) >= CONTRACT_KEYS, f"{name}: missing {CONTRACT_KEYS - set(view)}"
            assert view["side"] == side and view["ruleset"] == rules.name, name
            assert view["to_act"] == game.to_act(), f"{name}: to_act"
            for unit in view["own"]:
                assert set(unit) >= OWN_KEYS, f"{name}: own unit lacks {OWN_KEYS - set(unit)}"
            assert game.own_view(side) == view["own"], f"{name}: {side}'s own_view"
            seen = [e.to_dict() for e in game.log_for(side)]
            # a rule set may carry only the most recent events; they must be the side's
            log = view["log"]
            assert (log == seen[-len(log):]) if log else not seen, f"{name}: {side}'s log"


def bad_orders(game: Game, side: str) -> list[Order]:
    """Orders every rule set must refuse: nonsense kinds, units and parameters, and an
    order of the side not to act."""
    enemy = next(s for s in game.scenario.side_names if s != side)
    own = [f["id"] for f in game.view(side)["own"]]
    theirs = [f["id"] for f in game.view(enemy)["own"]]
    kinds = [k for k in game.ruleset.order_syntax if k != "end"]
    # kinds the side gives without naming a unit, as it does `end`
    sides_own = {o.kind for o in game.legal_orders(side) if o.unit is None}
    out = [Order(side, "fly", own[0] if own else None), Order(enemy, "end"),
           *[Order(side, kind, None, {"tagret": "nobody"}) for kind in sides_own]]
    for kind in kinds:
        if kind in sides_own:
            continue
        out += [
            Order(side, kind, "no-such-unit"),
            Order(side, kind, None),
            Order(side, kind, theirs[0] if theirs else "x"),
            Order(side, kind, own[0] if own else "x", {"tagret": "nobody"}),
        ]
    return out


def check_refusals(rules: RuleSet[Any], scenario: Scenario, seed: int) -> None:
    name = scenario.name
    for game in sampled_states(rules, scenario, seed):
        side = game.to_act()
        if side is None:
            break
        before = (game.state_hash(), len(game.log), len(game.orders))
        for order in bad_orders(game, side):
            assert not rules.allows(game.state, order), f"{name}: {order} allowed"
            try:
                game.apply(order)
            except IllegalOrder as refused:
                assert refused.reason, f"{name}: {order} refused without a reason"
                assert refused.order is not None, f"{name}: {order} refused without itself"
            else:
                raise AssertionError(f"{name}: {order} accepted")
            assert (game.state_hash(), len(game.log), len(game.orders)) == before, str(order)


def check_listed_orders(rules: RuleSet[Any], scenario: Scenario, seed: int) -> None:
    name = scenario.name
    pick = random.Random(seed)
    for game in sampled_states(rules, scenario, seed):
        side = game.to_act()
        if side is None:
            break
        legal = game.legal_orders(side)
        assert legal, f"{name}: {side} must act but has no legal order"
        before = game.state_hash()
        for order in pick.sample(legal, min(LISTED_SAMPLE, len(legal))):
            assert rules.allows(game.state, order), f"{name}: listed {order} not allowed"
            assert isinstance(rules.preview(game.state, order), str), str(order)
        assert game.state_hash() == before, f"{name}: allows or preview changed the game"


def check_the_end(rules: RuleSet[Any], scenario: Scenario, seed: int) -> None:
    game = _game(rules, scenario, seed)
    players = {s: rules.computer(s, seed + n) for n, s in enumerate(scenario.side_names)}
    while (side := game.to_act()) is not None:
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    assert game.result() is not None, f"{scenario.name}: no result at the end"
    final = game.state_hash()
    for side in scenario.side_names:
        assert game.legal_orders(side) == [], f"{scenario.name}: orders after the end"
        try:
            game.apply(Order(side, "end"))
        except IllegalOrder:
            pass
        else:
            raise AssertionError(f"{scenario.name}: {side}'s end accepted after the end")
    assert game.state_hash() == final


def seats_of(rules: RuleSet[Any], scenario: Scenario) -> list[tuple[str, Seat]]:
    return [(side, seat) for side in scenario.side_names
            for seat in rules.seats(scenario, side)]


def check_seats(rules: RuleSet[Any], scenario: Scenario, seed: int) -> None:
    name = scenario.name
    game = _game(rules, scenario, seed)
    for side, seat in seats_of(rules, scenario):
        assert seat.side == side, f"{name}: seat {seat.name} of {seat.side} listed for {side}"
        if seat.units is None:
            continue
        ids = {f["id"] for f in game.view(side)["own"]}
        assert seat.units, f"{name}: seat {seat.name} has no units"
        assert seat.units <= ids, (f"{name}: seat {seat.name} names "
                                   f"{sorted(seat.units - ids)}, not ids of {side}'s units")


def until_seat_can_act(game: Game, side: str, seat: Seat, seed: int) -> list[Order]:
    """Let the computer play every side until one of the seat's units has a legal order
    (in rule sets that act by initiative, not every seat acts in every step)."""
    rules = game.ruleset
    players = {s: rules.computer(s, seed) for s in game.scenario.side_names}
    for _ in range(SEAT_WAIT):
        acting = game.to_act()
        if acting is None:
            break
        if acting == side:
            theirs = [o for o in game.legal_orders(side)
                      if o.unit is not None and seat_allows(seat, o)]
            if theirs:
                return theirs
        game.apply(players[acting].choose(game.observe(acting), LegalOrders(game, acting)))
    return []


def check_seat_computers(rules: RuleSet[Any], scenario: Scenario, seed: int) -> None:
    """A seat's units take orders, and the computer held to a seat orders only those."""
    name = scenario.name
    for side, seat in seats_of(rules, scenario):
        if seat.units is None:
            continue
        game = _game(rules, scenario, seed)
        theirs = until_seat_can_act(game, side, seat, seed)
        assert theirs, f"{name}: no legal order for seat {seat.name}'s units"
        player = rules.computer(side, seed, seat.units)
        order = player.choose(game.observe(side), LegalOrders(game, side))
        assert order.kind == "end" or (order.unit is not None and seat_allows(seat, order)), \
            f"{name}: the computer at seat {seat.name} gave {order}"
        game.apply(theirs[0])


#: each check by name, in the order `check_ruleset` runs them
CHECKS: dict[str, Check] = {
    "views": check_views,
    "refusals": check_refusals,
    "listed-orders": check_listed_orders,
    "the-end": check_the_end,
    "seats": check_seats,
    "seat-computers": check_seat_computers,
}
