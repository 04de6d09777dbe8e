"""The contract every registered rule set keeps (core/contract.py), checked on every bundled
scenario and on the toy rule set: the view has the promised keys, a refused order changes
nothing, every listed order passes `allows` and `preview`, nothing is accepted after the
end, and seats name units of their side that take orders, a computer held to a seat
ordering only those."""

from __future__ import annotations

import pytest

from fibua.core.contract import CHECKS, check_ruleset
from fibua.core.orders import Order
from fibua.core.ruleset import Seat, commands, find_ruleset, seat_allows
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario
from toy_ruleset import TOY, toy_scenario


def scenario_names() -> list[str]:
    return sorted(bundled_scenarios())


@pytest.fixture(scope="module")
def loaded() -> dict[str, Scenario]:
    return {name: load_scenario(name) for name in scenario_names()}


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("name", scenario_names())
def test_every_bundled_scenario_keeps_the_contract(name: str, check: str,
                                                   loaded: dict[str, Scenario]) -> None:
    scenario = loaded[name]
    CHECKS[check](find_ruleset(scenario.ruleset), scenario, 11)


def test_every_registered_rule_set_has_a_bundled_scenario() -> None:
    from fibua.core.ruleset import BUILTIN

    covered = {load_scenario(n).ruleset for n in scenario_names()}
    assert set(BUILTIN) <= covered


def test_the_toy_rule_set_keeps_the_contract() -> None:
    check_ruleset(TOY, toy_scenario())


def test_a_broken_promise_is_named() -> None:
    """The checks can fail: a scenario of another rule set is refused by name."""
    with pytest.raises(AssertionError, match="toy scenario"):
        check_ruleset(find_ruleset("street-fight"), toy_scenario())


def test_a_seat_allows_its_own_units_and_the_sides_orders() -> None:
    seat = Seat("Lt Baker", "blue", frozenset({"b1", "b2"}))
    assert seat_allows(seat, Order("blue", "move", "b1"))
    assert not seat_allows(seat, Order("blue", "move", "b3"))
    assert seat_allows(seat, Order("blue", "end"))
    assert seat_allows(Seat("blue", "blue"), Order("blue", "move", "b3"))
    assert seat_allows(None, Order("blue", "move", "b3"))
    assert commands(None, "b9") and commands(frozenset({"b9"}), "b9")
    assert not commands(frozenset(), "b9")
