"""The Buildings computer's heavy tank brings down the better defended section of a
condition the enemy holds with another, and leaves the weaker one to the infantry."""

from __future__ import annotations

from bld_helpers import make_scenario, put, row, unit
from fibua.core.game import Game, LegalOrders, allowed
from fibua.core.orders import Order
from fibua.rulesets.buildings.ai import Control, _defenders, _leaves_stronger, _ram_targets
from fibua.rulesets.buildings.tables import OrderKind

#: the axis holds the house and the brick house together: one unit in either, no enemy
TOGETHER = [{"side": "axis", "kind": "hold", "sections": ["house", "brick"], "points": 3},
            {"side": "allies", "kind": "hold", "sections": ["house", "brick"], "points": 3}]


def _game(brick_guard: bool) -> Game:
    """Grenadiers (6) in the wooden house, a team (2) upstairs in the brick one and, when
    `brick_guard`, a rifle squad (10) in the open by it; an allied Tiger within a Run of
    both houses."""
    allies = [unit("tiger", [{"at": [22, 6]}], type="heavy-tank", facing=90),
              unit("rifles", row(2, 20, 5), type="rifle-squad")]
    axis = [unit("grenadiers", row(27, 5, 6), weapon="rifle",
                 inside={"section": "house", "floor": 0}),
            unit("team", row(32, 20, 2), weapon="rifle")]
    if brick_guard:
        axis.append(unit("squad", row(25, 14, 10, step=1.0), type="rifle-squad"))
    game = Game(make_scenario(allies=allies, axis=axis, victory=TOGETHER), 1)
    put(game, "team", section="brick", floor=1)
    if brick_guard:
        put(game, "squad", [(14.0 + 0.6 * k, 19.0) for k in range(10)])
    game.state.units["rifles"].order = OrderKind.FIRE
    return game


def _decide(game: Game) -> Order:
    game.state.drawn = "allies"
    game.state.waiting = None
    game.state.pending.clear()
    return Control("allies", 7).choose(game.observe("allies"), LegalOrders(game, "allies"))


def test_defenders_count_the_known_models_in_and_near_the_sections() -> None:
    game = _game(brick_guard=True)
    view = game.observe("allies")
    known = {i for i, s in view.enemies if s.alive}
    assert {"grenadiers", "team", "squad"} <= known
    assert _defenders(view, {"house"}) == 6
    assert _defenders(view, {"brick"}) == 12  # the team inside and the squad a Run off


def test_the_tank_leaves_the_weaker_held_house_to_the_infantry() -> None:
    game = _game(brick_guard=True)
    view = game.observe("allies")
    # the house down, the brick house would still hold the hold for 12 models
    assert _leaves_stronger(view, "house")
    assert not _leaves_stronger(view, "brick")
    order = _decide(game)
    assert order.params.get("enter") != "house"


def test_the_tank_brings_down_the_better_held_house() -> None:
    game = _game(brick_guard=False)
    view = game.observe("allies")
    assert not _leaves_stronger(view, "house")
    order = _decide(game)
    assert (order.kind, order.unit, order.params) == ("run", "tiger", {"enter": "house"})
    assert allowed(LegalOrders(game, "allies"), order)


#: the allies' reach zone, open ground just north of the brick house
ZONE = [[14, 18], [20, 18], [20, 22], [14, 22]]


def _late_game(turn: int) -> Game:
    """A Tiger within a Run of both houses on `turn` of 6, the allies to reach the zone;
    grenadiers in the wooden house (far from the zone), a squad in the brick one (by it)."""
    allies = [unit("tiger", [{"at": [22, 12]}], type="heavy-tank", facing=90),
              unit("rifles", row(2, 20, 5), type="rifle-squad")]
    axis = [unit("grenadiers", row(27, 5, 6), weapon="rifle",
                 inside={"section": "house", "floor": 0}),
            unit("squad", row(25, 20, 10, step=1.0), type="rifle-squad")]
    victory = [{"side": "allies", "kind": "reach", "zone": ZONE, "points": 2},
               {"side": "axis", "kind": "hold", "sections": ["brick"], "points": 1}]
    game = Game(make_scenario(allies=allies, axis=axis, victory=victory), 1)
    put(game, "squad", section="brick", floor=1)
    game.state.units["rifles"].order = OrderKind.FIRE
    game.state.turn = turn
    return game


def test_in_the_last_turns_the_tank_drives_only_into_a_house_by_its_zone() -> None:
    game = _late_game(5)
    view = game.observe("allies")
    found = _ram_targets(view, view.unit("tiger"))
    assert [section.id for section, _ in found] == ["brick"]  # the far house left
    order = _decide(game)
    assert (order.kind, order.unit, order.params) == ("run", "tiger", {"enter": "brick"})
    assert allowed(LegalOrders(game, "allies"), order)


def test_on_the_last_turn_the_tank_drives_into_nothing() -> None:
    order = _decide(_late_game(6))
    assert order.params.get("enter") is None
