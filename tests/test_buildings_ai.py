"""The Buildings computer picks sensible orders in small set pieces on the test table
(tests/bld_helpers.py), orders only its seat's units, and beats random play on a few fixed
seeds (a lower bound, not a measure: tools/winrate.py measures)."""

from __future__ import annotations

from bld_helpers import line, make_scenario, put, row, table_dict, unit
from fibua.core.dice import derive_seed
from fibua.core.game import Game, LegalOrders, play_out
from fibua.core.orders import Order
from fibua.rulesets.buildings.ai import Control
from fibua.rulesets.buildings.estimates import Mark, unit_losses
from fibua.rulesets.buildings.knowledge import sighting
from fibua.rulesets.buildings.state import Waiting
from fibua.rulesets.buildings.tables import OrderKind, WeaponName
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario


def decide(game: Game, side: str, units: frozenset[str] | None = None) -> Order:
    """The computer's order for `side`, its die drawn."""
    state = game.state
    state.drawn = side
    state.waiting = None
    state.pending.clear()
    return Control(side, 7, units).choose(game.observe(side), LegalOrders(game, side))


def idle(game: Game, *uids: str) -> None:
    """These units have had their order this turn (test set-up)."""
    for uid in uids:
        game.state.units[uid].order = OrderKind.FIRE


def test_estimate_prefers_a_target_in_the_open_to_one_inside() -> None:
    rifles = [WeaponName.RIFLE] * 10
    open_ground = unit_losses(rifles, Mark(models=6, distance=12.0))
    inside = unit_losses(rifles, Mark(models=6, distance=12.0, inside=True))
    assert open_ground > 2 * inside > 0


def test_fires_at_the_seen_enemy_with_the_best_odds() -> None:
    game = Game(make_scenario(), 1)
    put(game, "rifles", line(6, 3, 10, 0.5))
    put(game, "mg", line(24, 1, 3))
    idle(game, "smgs")
    order = decide(game, "allies")
    assert (order.kind, order.unit, order.params.get("target")) == ("fire", "rifles", "mg")


def test_goes_up_a_floor_to_garrison_the_house_it_holds() -> None:
    game = Game(make_scenario(), 1)
    put(game, "rifles", line(14, 23, 10, 0.5))
    put(game, "smgs", line(14, 22, 4))
    put(game, "grenadiers", section="brick", floor=0)
    idle(game, "mg")
    order = decide(game, "axis")
    assert (order.kind, order.unit, order.params) == ("advance", "grenadiers", {"floor": 1})


def test_uses_the_flamethrower_on_a_held_building() -> None:
    allies = [unit("flamer", row(23, 6, 2), type="flamethrower-team"),
              unit("rifles", row(2, 20, 5), type="rifle-squad")]
    game = Game(make_scenario(allies=allies), 1)
    idle(game, "rifles")
    order = decide(game, "allies")
    assert (order.kind, order.unit, order.params.get("target")) == (
        "fire", "flamer", "grenadiers")


def test_rallies_a_heavily_pinned_unit() -> None:
    game = Game(make_scenario(), 1)
    put(game, "rifles", line(1, 22, 10, 0.5))
    game.state.units["rifles"].pins = 5
    idle(game, "smgs")
    order = decide(game, "allies")
    assert (order.kind, order.unit) == ("rally", "rifles")


def test_orders_only_its_seats_units() -> None:
    game = Game(make_scenario(), 1)
    for seed in range(5):
        order = Control("allies", seed, frozenset({"smgs"})).choose(
            game.observe("allies"), LegalOrders(game, "allies")) \
            if game.to_act == "allies" else decide(game, "allies", frozenset({"smgs"}))
        assert order.unit in (None, "smgs")


def test_beats_random_on_fixed_seeds() -> None:
    scenario = make_scenario()
    for side in scenario.side_names:
        wins = 0
        for seed in range(3):
            game = Game(scenario, seed)
            rules = game.ruleset
            players = {s: rules.computer(s, derive_seed(seed, "computer", s)) if s == side
                       else rules.random_player(s, derive_seed(seed, "random", s))
                       for s in scenario.side_names}
            wins += play_out(game, players).winner == side
        assert wins >= 2, side


def test_goes_down_when_shot_at_in_the_open() -> None:
    game = Game(make_scenario(), 1)
    game.state.waiting = Waiting("mg", "rifles", advanced=False)
    game.state.pending.clear()
    order = Control("allies", 7).choose(game.observe("allies"), LegalOrders(game, "allies"))
    assert (order.kind, order.unit) == ("down", "rifles")


def test_takes_a_shot_in_a_building_to_keep_its_order() -> None:
    game = Game(make_scenario(), 1)
    game.state.waiting = Waiting("rifles", "grenadiers", advanced=False)
    game.state.pending.clear()
    order = Control("axis", 7).choose(game.observe("axis"), LegalOrders(game, "axis"))
    assert order.kind == "end"


def _last_turn(game: Game) -> None:
    game.state.turn = game.state.limit


def test_assaults_upstairs_on_a_fair_chance_when_the_last_turn_is_not_won() -> None:
    # the allies must hold the brick house; the grenadiers upstairs spoil it
    victory = [{"side": "allies", "kind": "hold", "sections": ["brick"], "points": 2}]
    game = Game(make_scenario(victory=victory), 1)
    put(game, "rifles", section="brick", floor=0)
    del game.state.units["rifles"].models[5:]  # 5 against 6: short of the usual margin
    put(game, "grenadiers", section="brick", floor=1)
    idle(game, "smgs", "mg")
    assert decide(game, "allies").params.get("assault") is None  # turn 1: it waits
    _last_turn(game)
    order = decide(game, "allies")
    assert (order.kind, order.unit, order.params) == ("run", "rifles",
                                                      {"assault": "grenadiers"})


def _annexed(**kw: object) -> Scenario:
    """The test table with an annex east of the brick house (20..24 x 10..16, two
    floors), joined to it inside; the allies must hold the two together."""
    table = table_dict(victory=[{"side": "allies", "kind": "hold",
                                 "sections": ["brick", "annex"], "points": 2}], **kw)
    building = table["map"]["buildings"][0]
    building["sections"].append({
        "id": "annex", "footprint": [[20, 10], [24, 10], [24, 16], [20, 16]], "floors": 2,
        "construction": "brick",
        "openings": [{"kind": "door", "wall": 0, "floor": 0, "at": 2, "width": 1},
                     {"kind": "door", "wall": 3, "floor": 0, "at": 3, "width": 1}]})
    building["connections"] = [["brick", "annex"]]
    return scenario_from_dict(table, "buildings-test-table")


def test_heads_inside_for_a_floor_next_to_a_weak_enemy_in_the_objective() -> None:
    game = Game(_annexed(), 1)
    put(game, "rifles", section="brick", floor=1)
    put(game, "mg", section="annex", floor=0)
    put(game, "grenadiers", line(34, 22, 6))
    game.state.turn = game.state.limit - 1
    # the side knows where the MG team is (seen from outside earlier)
    game.state.knowledge["allies"].record(sighting(game.state, game.state.units["mg"]))
    idle(game, "smgs")
    order = decide(game, "allies")
    # down to the floor beside it, or up over it
    assert order.unit == "rifles" and order.kind in ("advance", "run")
    assert order.params in ({"floor": 0}, {"section": "annex"})


def test_assaults_within_the_sections_it_holds_and_not_outside() -> None:
    game = Game(_annexed(), 1)
    put(game, "rifles", section="annex", floor=0)
    put(game, "mg", line(23, 17.5, 3))
    put(game, "grenadiers", line(34, 22, 6))
    idle(game, "smgs")
    assert decide(game, "allies").params.get("assault") is None
    put(game, "mg", section="brick", floor=0)
    game.state.knowledge["allies"].record(sighting(game.state, game.state.units["mg"]))
    order = decide(game, "allies")
    assert (order.kind, order.unit, order.params) == ("run", "rifles", {"assault": "mg"})
