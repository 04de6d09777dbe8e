"""The order-form registry (core/orderforms.py) of every rule set: it names exactly the
parameters the dispatcher lets through, the terminal's syntax is written from it, and
every legal order met in playouts of every bundled scenario (and every order a computer
gives) fits one form of its kind, each value of the declared type and, for ids, naming
what the type says (an enemy, one of the side's own, a section of the map)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from fibua.core.dispatch import DispatchedRuleSet
from fibua.core.game import Game, play_out
from fibua.core.orderforms import (
    Form,
    OrderForms,
    Param,
    ParamType,
    fitting_form,
    kinds_of,
    registry_dict,
    syntax_lines,
    value_fits,
)
from fibua.core.orders import Order
from fibua.core.ruleset import Player, find_ruleset
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.session.typed import parameter_names

RULESETS = ("street-fighter", "street-fight", "house-clearing", "buildings")
MAX_ORDERS = 20_000


def dispatched(name: str) -> DispatchedRuleSet[Any, Any]:
    rules = find_ruleset(name)
    assert isinstance(rules, DispatchedRuleSet)
    return rules


@pytest.mark.parametrize("name", RULESETS)
def test_each_kind_takes_what_the_dispatcher_lets_through(name: str) -> None:
    rules = dispatched(name)
    kinds = rules.order_kinds
    takes = {kind: k.takes for kind, k in rules.dispatcher.kinds.items()}
    assert set(kinds) == {*takes, "end"}
    assert not kinds["end"].unit and kinds["end"].params == frozenset()
    for kind, found in takes.items():
        forms = kinds[kind]
        assert forms.unit
        assert forms.params | forms.refused == found, kind
        assert not forms.params & forms.refused, kind
        names = [f.name for f in forms.forms]
        assert len(set(names)) == len(names), f"{kind}: two forms of one name"
        assert all(f.name for f in forms.forms) or len(names) == 1, kind


@pytest.mark.parametrize("name", RULESETS)
def test_the_terminal_syntax_is_written_from_the_forms(name: str) -> None:
    rules = find_ruleset(name)
    noun = rules.order_syntax["move" if "move" in rules.order_syntax else "fire"].split()[1]
    assert dict(rules.order_syntax) == syntax_lines(rules.order_kinds, noun)
    for kind, forms in rules.order_kinds.items():
        # the terminal completes and checks parameter names from the line
        assert set(parameter_names(rules.order_syntax[kind])) == forms.params, kind


@pytest.mark.parametrize("name", RULESETS)
def test_refused_parameters_get_the_rules_reason(name: str) -> None:
    """A parameter the rules refuse with their own reason is one no form takes, and the
    Buildings Advance told to enter is one (only a Run goes into a building)."""
    refused = {k: f.refused for k, f in find_ruleset(name).order_kinds.items() if f.refused}
    assert refused == ({"advance": frozenset({"enter"})} if name == "buildings" else {})


def test_values_are_checked_by_type() -> None:
    point = Param("to", ParamType.POINT, "")
    assert value_fits(point, [1, 2.5]) and not value_fits(point, [1, True])
    assert not value_fits(point, "1,2") and not value_fits(point, [1, 2, 3])
    path = Param("path", ParamType.PATH, "", most=2)
    assert value_fits(path, [[1, 2]]) and not value_fits(path, [])
    assert not value_fits(path, [[1, 2]] * 3)
    several = Param("targets", ParamType.ENEMIES, "", least=2)
    assert value_fits(several, ["a", "b"]) and not value_fits(several, ["a"])
    assert not value_fits(several, ["a", 3])
    floor = Param("floor", ParamType.FLOOR, "")
    assert value_fits(floor, 0) and not value_fits(floor, -1) and not value_fits(floor, True)
    whole = Param("opening", ParamType.NUMBER, "", whole=True)
    assert value_fits(whole, 2) and not value_fits(whole, 2.5)
    assert value_fits(Param("r", ParamType.NUMBER, ""), 2.5)
    call = Param("call", ParamType.FLAG, "")
    assert value_fits(call, True) and not value_fits(call, False)
    keep = Param("keep", ParamType.FLAG, "", required=False)
    assert value_fits(keep, False) and not value_fits(keep, "true")
    at = Param("at", ParamType.CHOICE, "", choices=("first", "last"))
    assert value_fits(at, "last") and not value_fits(at, "middle")


def test_an_order_fits_the_first_form_that_takes_all_it_names() -> None:
    run = OrderForms("run", "", (
        Form("to", (Param("to", ParamType.POINT, ""),)),
        Form("enter", (Param("enter", ParamType.SECTION, ""),)),
        Form("assault", (Param("assault", ParamType.ENEMY, ""),
                         Param("take", ParamType.FLAG, "", required=False)))))
    form = fitting_form(run, {"enter": "maison"})
    assert form is not None and form.name == "enter"
    form = fitting_form(run, {"assault": "x", "take": False})
    assert form is not None and form.name == "assault"
    assert fitting_form(run, {"to": [1, 2], "enter": "maison"}) is None
    assert fitting_form(run, {"take": False}) is None
    assert fitting_form(run, {}) is None


def test_the_registry_as_json_keeps_every_form_and_type() -> None:
    kinds = kinds_of(OrderForms("aim", "steady"), OrderForms(
        "shoot", "fire", (Form("targets", (Param("targets", ParamType.ENEMIES, "who",
                                                 least=2),), "spread"),)))
    sent = registry_dict("toy", kinds)
    assert sent["ruleset"] == "toy"
    aim, shoot = sent["kinds"]
    assert aim == {"kind": "aim", "help": "steady", "unit": True,
                   "forms": [{"name": "", "help": "", "params": []}]}
    assert shoot["forms"][0]["params"][0] == {
        "name": "targets", "type": "enemies", "help": "who", "required": True,
        "choices": [], "whole": False, "least": 2, "most": 0, "default": None,
        "joins": False}


# ---------------------------------------------------------------- over real games


class Checker:
    """Fits every order to the registry, the ids it names to the game's sides and map."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.kinds = game.ruleset.order_kinds
        self.sections = set(game.scenario.battlefield.section_ids)
        self.ids: dict[str, set[str]] = {}
        self.forms: set[tuple[str, str]] = set()

    def side_ids(self, side: str) -> set[str]:
        if side not in self.ids:
            self.ids[side] = {str(u["id"]) for u in self.game.view(side)["own"]}
        return self.ids[side]

    def check(self, order: Order) -> None:
        kinds = self.kinds[order.kind]
        form = fitting_form(kinds, order.params)
        assert form is not None, f"{order} fits no form of {order.kind}"
        assert (order.unit is not None) == kinds.unit, order
        self.forms.add((order.kind, form.name))
        enemy = next(s for s in self.game.scenario.side_names if s != order.side)
        wanted = {ParamType.ENEMY: self.side_ids(enemy), ParamType.ENEMIES: self.side_ids(enemy),
                  ParamType.OWN: self.side_ids(order.side),
                  ParamType.OWNS: self.side_ids(order.side), ParamType.SECTION: self.sections}
        for name, value in order.params.items():
            param = form.param(name)
            assert param is not None
            if param.type in wanted:
                named = value if isinstance(value, list) else [value]
                assert set(named) <= wanted[param.type], f"{order}: {name}"


class Listing:
    """A player that fits every legal order it is offered, then lets `chooser` pick (a
    computer's pick is fitted too)."""

    def __init__(self, checker: Checker, chooser: Player) -> None:
        self.checker, self.chooser = checker, chooser

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        for order in legal:
            self.checker.check(order)
        order = self.chooser.choose(view, legal)
        self.checker.check(order)
        return order


class Pick:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        return self.rng.choice(list(legal))


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_order_met_in_play_fits_a_form(name: str) -> None:
    """Each side in turn random and computer, one game each way."""
    scenario = load_scenario(name)
    met: set[tuple[str, str]] = set()
    for seed in range(2):
        game = Game(scenario, seed)
        checker = Checker(game)
        players: dict[str, Player] = {}
        for n, side in enumerate(scenario.side_names):
            computer = (n + seed) % 2 == 1
            chooser = game.ruleset.computer(side, seed) if computer else Pick(seed)
            players[side] = Listing(checker, chooser)
        play_out(game, players, MAX_ORDERS)
        for order in game.orders:
            checker.check(order)
        met |= checker.forms
    assert ("end", "") in met and len(met) > 3


def test_a_joining_parameter_names_a_unit_exactly_when_it_could_give_the_order_itself() -> None:
    """An assault's `with` (Street Fighter) is a joining parameter: each unit named is held
    to what the unit giving the order is held to (infantry, ready, free, within a move of
    the area), so a friend may join exactly when its own assault on that area would be
    allowed. The page leans on this: it picks the friends clicked on the map from their
    own legal orders (static/friends.js)."""
    from fibua.rulesets.street_fighter.orderforms import ORDER_KINDS as SF_KINDS
    from sfr_helpers import forced_game, make_scenario, unit

    joining = {(kind, p.name) for kind, k in SF_KINDS.items() for f in k.forms
               for p in f.params if p.joins}
    assert joining == {("assault", "with")}
    blue = [unit("b1", "infantry-section", (26, 17)), unit("b2", "infantry-section", (24, 17)),
            unit("b3", "infantry-section", (60, 4)), unit("mg", "mmg-section", (28, 17)),
            unit("tank", "sherman", (22, 16)), unit("lorry", "lorry", (30, 17)),
            unit("rider", "infantry-section", rides="lorry")]
    game = forced_game(make_scenario(blue, [unit("r1", "sniper", (5, 75))]), [9, 0])
    assert game.to_act() == "blue"
    friends = ("b2", "b3", "mg", "tank", "lorry", "rider")

    def allowed(by: str, **more: Any) -> bool:
        order = Order("blue", "assault", by, {"section": "house", **more})
        return game.ruleset.allows(game.state, order)

    alone = {f: allowed(f) for f in friends}
    joined = {f: allowed("b1", **{"with": [f]}) for f in friends}
    assert joined == alone
    # both ways occur here: the test would see a friend judged otherwise than alone
    assert alone["b2"] and not alone["b3"] and not alone["tank"] and not alone["rider"]
