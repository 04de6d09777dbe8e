"""Each rule set registers the refusal codes and event kinds its rules give (its codes.py,
read as `RuleSet.refusals` and `RuleSet.event_kinds`): front ends and tests read codes and
kinds, never English. These tests hold the registries to the rules both ways: read from the
source (every code and kind written there is registered, and nothing stale is) and met in
play (the events of whole games, the refusals of orders mangled on purpose)."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fibua.core.errors import IllegalOrder, Refusal
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import RuleSet, find_ruleset
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.session.narration import phrasebook
from narration_helpers import PACKAGES, told

SOURCE = Path(__file__).resolve().parents[1] / "src" / "fibua" / "rulesets"
#: calls that make a refusal, and the place of the code among their arguments
REFUSERS = {"IllegalOrder": 2, "_refuse": 1}
#: calls that emit an event, and the place of its kind
EMITTERS = {"emit": 0, "tell": 3}
CORE = frozenset(str(code) for code in Refusal)


def _literals(ruleset: str, calls: dict[str, int], keyword: str | None) -> set[str]:
    """The text constants passed to `calls` at their place (or as `keyword`) in the rule
    set's package."""
    found: set[str] = set()
    for path in (SOURCE / PACKAGES[ruleset]).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in calls:
                continue
            values = [k.value for k in node.keywords if k.arg == keyword]
            if len(node.args) > calls[name]:
                values.append(node.args[calls[name]])
            found |= {v.value for v in values
                      if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return found


def _rules(ruleset: str) -> RuleSet[Any]:
    return find_ruleset(ruleset)


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_refusal_code_in_the_source_is_registered_and_none_is_stale(ruleset: str) -> None:
    rules = _rules(ruleset)
    written = _literals(ruleset, REFUSERS, "code")
    assert not written - rules.refusals - CORE, "unregistered codes"
    assert not rules.refusals - written, "registered codes the rules never give"
    assert not rules.refusals & CORE, "the core's codes registered again"


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_event_kind_in_the_source_is_registered_and_none_is_stale(ruleset: str) -> None:
    rules = _rules(ruleset)
    assert _literals(ruleset, EMITTERS, None) == set(rules.event_kinds)


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_events_of_whole_games_are_of_registered_kinds(ruleset: str) -> None:
    met = {heard.event.kind for heard in told(ruleset)}
    assert met, "no game was played"
    assert not met - _rules(ruleset).event_kinds


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_each_registered_kind_has_its_phrase_and_no_phrase_is_for_another(ruleset: str) -> None:
    book = phrasebook(ruleset)
    assert book is not None
    assert set(book.phrases) == set(_rules(ruleset).event_kinds)


def _mangled(order: Order, ids: list[str], rng: random.Random) -> Iterator[Order]:
    """Orders near a legal one that the rules may well refuse: another unit, another
    target, a place far off, a value of the wrong type, a parameter the kind lacks."""
    yield Order(order.side, order.kind, rng.choice(ids), dict(order.params))
    for name, value in order.params.items():
        if isinstance(value, str):
            yield Order(order.side, order.kind, order.unit, {**order.params,
                                                             name: rng.choice(ids)})
        if isinstance(value, list) and len(value) == 2:
            far = [value[0] + rng.uniform(-40, 40), value[1] + rng.uniform(-40, 40)]
            yield Order(order.side, order.kind, order.unit, {**order.params, name: far})
        yield Order(order.side, order.kind, order.unit, {**order.params, name: {"x": 1}})
    yield Order(order.side, order.kind, order.unit, {**order.params, "nonsense": 1})


def _scenarios(ruleset: str) -> list[str]:
    return sorted(name for name, path in bundled_scenarios().items()
                  if load_scenario(path).ruleset == ruleset)


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_refusals_met_in_play_carry_registered_codes(ruleset: str) -> None:
    rules = _rules(ruleset)
    allowed = rules.refusals | CORE
    met: set[str] = set()
    rng = random.Random(5)
    for name in _scenarios(ruleset):
        game = Game(load_scenario(bundled_scenarios()[name]), 3)
        ids = [str(u["id"]) for side in game.scenario.side_names for u in game.view(side)["own"]]
        for _ in range(60):
            side = game.to_act()
            if side is None:
                break
            legal = game.legal_orders(side)
            for order in rng.sample(legal, min(4, len(legal))):
                for wrong in _mangled(order, ids, rng):
                    try:
                        game.preview(wrong)
                    except IllegalOrder as refusal:
                        met.add(refusal.code)
            game.apply(rng.choice(legal))
    assert met - {Refusal.BAD_PARAMETER, Refusal.NO_UNIT}, "only the dispatcher refused"
    assert not met - allowed, "unregistered codes met in play"
