"""The Buildings computer as an attacker: a heavy tank drives into an enemy-held building
on the rules' odds, a reach zone is entered only in the last turns and held there with a
kept Down, and an artillery observer calls its barrage on an enemy holding an objective."""

from __future__ import annotations

from shapely.geometry import Point, Polygon

from bld_helpers import line, make_scenario, put, row, unit
from fibua.core.game import Game, LegalOrders, allowed
from fibua.core.orders import Order
from fibua.rulesets.buildings.ai import Control, _ram_odds, _zone_gap, _zone_gaps
from fibua.rulesets.buildings.geometry import distance_to_section
from fibua.rulesets.buildings.knowledge import sighting
from fibua.rulesets.buildings.odds import tank_assault_chances
from fibua.rulesets.buildings.state import Waiting
from fibua.rulesets.buildings.tables import BuildingKind, OrderKind, VehicleKind
from fibua.scenario.schema import Scenario

#: the allies' reach zone on the test table: open ground north of the brick house
ZONE = [[14, 18], [20, 18], [20, 22], [14, 22]]


def decide(game: Game, side: str) -> Order:
    """The computer's order for `side`, its die drawn."""
    state = game.state
    state.drawn = side
    state.waiting = None
    state.pending.clear()
    return Control(side, 7).choose(game.observe(side), LegalOrders(game, side))


def idle(game: Game, *uids: str) -> None:
    for uid in uids:
        game.state.units[uid].order = OrderKind.FIRE


def _zone_table() -> Scenario:
    victory = [{"side": "allies", "kind": "reach", "zone": ZONE, "points": 2},
               {"side": "axis", "kind": "hold", "sections": ["brick"], "points": 1}]
    return make_scenario(victory=victory)


def test_ram_odds_are_the_rules_odds() -> None:
    found = tank_assault_chances(VehicleKind.HEAVY_TANK, BuildingKind.WOODEN)
    assert _ram_odds(VehicleKind.HEAVY_TANK, BuildingKind.WOODEN) == (
        float(found["collapse"]), float(found["knocked_out"]))
    # no tank drives into a bunker, and a medium tank into nothing
    assert _ram_odds(VehicleKind.HEAVY_TANK, BuildingKind.BUNKER) is None
    assert _ram_odds(VehicleKind.MEDIUM_TANK, BuildingKind.WOODEN) is None


def test_a_heavy_tank_drives_into_the_enemy_held_house() -> None:
    allies = [unit("tiger", [{"at": [20, 6]}], type="heavy-tank", facing=90),
              unit("rifles", row(2, 20, 5), type="rifle-squad")]
    game = Game(make_scenario(allies=allies), 1)
    idle(game, "rifles")
    order = decide(game, "allies")
    assert (order.kind, order.unit, order.params) == ("run", "tiger", {"enter": "house"})
    assert allowed(LegalOrders(game, "allies"), order)


def test_no_tank_drives_into_a_house_its_own_side_is_in() -> None:
    allies = [unit("tiger", [{"at": [20, 6]}], type="heavy-tank", facing=90),
              unit("rifles", row(2, 20, 5), type="rifle-squad")]
    game = Game(make_scenario(allies=allies), 1)
    put(game, "rifles", section="house", floor=0)
    put(game, "grenadiers", line(32, 20, 6))
    idle(game, "rifles")
    order = decide(game, "allies")
    assert order.params.get("enter") != "house"


def test_waits_short_of_the_reach_zone_until_the_last_turns() -> None:
    game = Game(_zone_table(), 1)
    put(game, "smgs", line(10, 16, 4))
    idle(game, "rifles")
    order = decide(game, "allies")
    assert order.unit == "smgs"
    to = order.params.get("to")
    assert to is None or _zone_gap(game.observe("allies"), (to[0], to[1])) >= 6.0
    game.state.turn = game.state.limit - 1
    order = decide(game, "allies")
    to = order.params.get("to")
    assert (order.kind, order.unit) in (("run", "smgs"), ("advance", "smgs"))
    assert to is not None and _zone_gap(game.observe("allies"), (to[0], to[1])) == 0.0


def test_zone_gaps_in_one_call_are_each_points_own_distance() -> None:
    view = Game(_zone_table(), 1).observe("allies")
    zone = Polygon([(float(x), float(y)) for x, y in ZONE])
    points = [(0.0, 0.0), (13.37, 2.5), (30.0, 40.0), (-1.0, 7.25)]
    gaps = _zone_gaps(view, points)
    assert gaps == [zone.distance(Point(p)) for p in points]
    assert gaps == [_zone_gap(view, p) for p in points]
    assert any(g == 0.0 for g in _zone_gaps(view, [zone.representative_point().coords[0]]))


def test_shot_at_in_its_reach_zone_it_keeps_a_down() -> None:
    game = Game(_zone_table(), 1)
    put(game, "rifles", line(14.5, 20, 5))
    game.state.waiting = Waiting("mg", "rifles", advanced=False)
    game.state.pending.clear()
    order = Control("allies", 7).choose(game.observe("allies"), LegalOrders(game, "allies"))
    assert (order.kind, order.unit, order.params) == ("down", "rifles", {"keep": True})


def test_a_pinned_tank_in_its_reach_zone_keeps_a_down() -> None:
    allies = [unit("tiger", [{"at": [17, 20]}], type="heavy-tank", facing=90),
              unit("rifles", row(2, 5, 5), type="rifle-squad")]
    victory = [{"side": "allies", "kind": "reach", "zone": ZONE, "points": 2}]
    game = Game(make_scenario(allies=allies, victory=victory), 1)
    game.state.units["tiger"].pins = 3
    idle(game, "rifles")
    order = decide(game, "allies")
    assert (order.kind, order.unit, order.params) == ("down", "tiger", {"keep": True})


def test_the_artillery_observer_calls_its_barrage_on_the_held_house() -> None:
    allies = [unit("foo", row(6, 2, 2), type="artillery-observer"),  # no Run to a door
              unit("rifles", row(2, 20, 5), type="rifle-squad")]
    game = Game(make_scenario(allies=allies), 1)
    idle(game, "rifles")
    order = decide(game, "allies")
    assert (order.kind, order.unit, order.params.get("call")) == ("fire", "foo", True)
    assert "at" in order.params
    assert allowed(LegalOrders(game, "allies"), order)


def test_a_tank_shot_at_keeps_its_order_until_well_pinned() -> None:
    allies = [unit("sherman", [{"at": [6, 12]}], type="medium-tank", facing=90),
              unit("rifles", row(2, 5, 5), type="rifle-squad")]
    game = Game(make_scenario(allies=allies), 1)
    tank = game.state.units["sherman"]
    tank.pins = 2
    game.state.waiting = Waiting("mg", "sherman", advanced=False)
    game.state.pending.clear()
    order = Control("allies", 7).choose(game.observe("allies"), LegalOrders(game, "allies"))
    assert order.kind == "end"
    tank.pins = 4
    order = Control("allies", 7).choose(game.observe("allies"), LegalOrders(game, "allies"))
    assert (order.kind, order.unit) == ("down", "sherman")


def test_from_a_held_objective_the_flamethrower_makes_for_the_enemy_held_one() -> None:
    victory = [{"side": "allies", "kind": "hold", "sections": ["brick", "house"],
                "points": 2}]
    allies = [unit("flamer", row(16, 8.5, 2), type="flamethrower-team"),
              unit("rifles", row(2, 20, 5), type="rifle-squad")]
    game = Game(make_scenario(allies=allies, victory=victory), 1)
    put(game, "rifles", section="brick", floor=0)
    put(game, "mg", line(33, 22, 3))
    idle(game, "rifles")
    # the side knows the grenadiers hold the house (seen there earlier)
    game.state.knowledge["allies"].record(sighting(game.state,
                                                   game.state.units["grenadiers"]))
    view = game.observe("allies")
    house = view.sight.battlefield.section("house")
    order = decide(game, "allies")
    assert order.unit == "flamer" and order.kind in ("advance", "run")
    to = order.params["to"]
    assert isinstance(to, list)
    assert distance_to_section((to[0], to[1]), house) < distance_to_section((16, 8.5), house)
