"""Street Fighter orders and players: refusals change nothing, random playouts of every
bundled scenario end and replay, no hidden enemy leaks into the players' view, and
Control decides from its side's view alone."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game, LegalOrders, play_out
from fibua.core.orders import Order
from fibua.core.replay import side_log_lines
from fibua.rulesets.street_fighter.views import view_dict
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario
from first_written import first_written

BUNDLED = ("normandy-village", "factory-district", "anti-tank-screen")


def scenario(name: str) -> Scenario:
    return load_scenario(name)


def test_the_three_scenarios_are_bundled_on_cm_tables() -> None:
    found = bundled_scenarios()
    for name in BUNDLED:
        assert found[name].parent.name == "street-fighter"
        s = scenario(name)
        assert s.ruleset == "street-fighter" and s.battlefield.table.unit == "cm"
        assert s.scenario.history and s.scenario.description
        assert sorted(side.player for side in s.sides) == ["computer", "human"]


@pytest.mark.parametrize("name", BUNDLED)
def test_control_hides_units_among_candidates_picked_by_the_seed(name: str) -> None:
    # as first written: the balanced factory-district keeps only the two units with a fixed
    # place, none among candidates
    s = first_written(name)
    places = {tuple(sorted(Game(s, seed).state.deployment.items())) for seed in range(6)}
    assert len(places) > 1


@pytest.mark.parametrize("name", BUNDLED)
def test_control_never_puts_two_units_on_one_point(name: str) -> None:
    s = scenario(name)
    for seed in range(40):
        state = Game(s, seed).state
        points = [u.pos.point for u in state.units.values() if u.rides is None]
        assert len(points) == len(set(points)), f"seed {seed}"


@pytest.mark.parametrize("name", BUNDLED)
def test_players_sides_have_several_commanders(name: str) -> None:
    s = scenario(name)
    human = next(side.name for side in s.sides if side.player == "human")
    game = Game(s, 0)
    seats = game.ruleset.seats(s, human)
    units = {u.id for u in game.state.units.values() if u.side == human}
    if name == "anti-tank-screen":
        assert len(seats) == 1
        return
    assert len(seats) >= 2 and all(seat.side == human for seat in seats)
    covered = set().union(*(seat.units or frozenset() for seat in seats))
    assert covered == units


def random_game(name: str, seed: int) -> Game:
    s = scenario(name)
    game = Game(s, seed)
    players = {side: game.ruleset.random_player(side, seed + i)
               for i, side in enumerate(s.side_names)}
    play_out(game, players, max_orders=5_000)
    return game


@pytest.mark.parametrize("name", BUNDLED)
def test_random_playouts_end_and_replay_to_the_same_hash(name: str) -> None:
    game = random_game(name, 11)
    assert game.result() is not None
    again = Game(game.scenario, 11)
    for order in game.orders:
        again.apply(order)
    assert again.state_hash() == game.state_hash()
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in game.log]
    lines = game.ruleset.after_action(game.state)
    assert lines[0] == "AFTER-ACTION REPORT" and any("Every roll" in x for x in lines)


@pytest.mark.parametrize("name", BUNDLED)
def test_computer_against_computer_ends(name: str) -> None:
    s = scenario(name)
    game = Game(s, 5)
    players = {side: game.ruleset.computer(side, 5 + i) for i, side in enumerate(s.side_names)}
    assert play_out(game, players, max_orders=5_000) is not None


def test_every_listed_order_is_allowed_and_refusals_change_nothing() -> None:
    game = Game(scenario("normandy-village"), 3)
    rng = random.Random(3)
    for _ in range(60):
        side = game.to_act()
        if side is None:
            break
        legal = game.legal_orders(side)
        assert all(game.ruleset.allows(game.state, o) for o in legal)
        bad = [Order(side, "move", "nobody", {"to": [1, 1]}),
               Order(side, "shoot", legal[-1].unit, {"target": "not-a-unit"}),
               Order(side, "fly"), Order(game.state.enemy_of(side), "end")]
        for order in bad:
            before = game.state_hash()
            with pytest.raises(IllegalOrder):
                game.apply(order)
            assert game.state_hash() == before
        game.apply(rng.choice(legal))


def test_shooting_an_unseen_unit_says_the_same_as_a_missing_one() -> None:
    game = Game(scenario("normandy-village"), 1)
    hidden = next(u for u in game.state.units.values() if u.side == "germans")
    shooter = "tp3-t1"
    reasons = []
    for target in (hidden.id, "no-such-unit"):
        with pytest.raises(IllegalOrder) as caught:
            game.apply(Order("british", "shoot", shooter, {"target": target}))
        reasons.append(caught.value.reason.replace(target, "X"))
    assert reasons[0] == reasons[1]


# ------------------------------------------------------------------ the leak canary


def hidden_words(game: Game, side: str) -> set[str]:
    """Names and ids of the enemy units the side has never observed."""
    seen = game.state.knowledge[side].sightings
    return {w for u in game.state.units.values()
            if u.side != side and u.id not in seen for w in (u.id, u.name)}


@pytest.mark.parametrize("name", BUNDLED)
def test_leak_canary_for_the_players_side(name: str) -> None:
    s = scenario(name)
    human = next(side.name for side in s.sides if side.player == "human")
    game = Game(s, 2)
    players = {side: game.ruleset.computer(side, 2 + i) for i, side in enumerate(s.side_names)}
    for _ in range(400):
        side = game.to_act()
        if side is None:
            break
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
        text = json.dumps(game.view(human)) + "".join(side_log_lines(game, human))
        for word in hidden_words(game, human):
            assert word not in text, f"{word!r} leaked to {human}"


# ------------------------------------------------------------------ Control does not cheat


def unseen_player_unit(game: Game, control: str) -> str:
    seen = game.state.knowledge[control].sightings
    for u in game.state.units.values():
        if u.side != control and u.id not in seen and u.rides is None and u.alive:
            return u.id
    raise AssertionError("every player unit is seen")


@pytest.mark.parametrize("name", BUNDLED)
def test_control_decides_the_same_when_unobserved_players_move(name: str) -> None:
    s = scenario(name)
    control = next(side.name for side in s.sides if side.player == "computer")
    human = s.side_names[0] if s.side_names[1] == control else s.side_names[1]
    game = Game(s, 4)
    while game.to_act() == human:
        game.apply(Order(human, "end"))
    assert game.to_act() == control
    uid = unseen_player_unit(game, control)
    before_view = view_dict(game.observe(control))
    first = game.ruleset.computer(control, 9).choose(game.observe(control),
                                                     LegalOrders(game, control))
    state = game.state
    mover = state.units[uid]
    mover.pos = Position(mover.pos.x + 3.0, mover.pos.y + 3.0,
                         state.sight.section_at((mover.pos.x + 3.0, mover.pos.y + 3.0)))
    assert view_dict(game.observe(control)) == before_view
    second = game.ruleset.computer(control, 9).choose(game.observe(control),
                                                      LegalOrders(game, control))
    assert first == second


def test_the_view_holds_copies_not_the_state() -> None:
    game = Game(scenario("factory-district"), 0)
    view = game.observe("germans")
    own = view.own[0]
    own_copy = replace(own)
    own.pos = Position(0, 0)
    assert game.state.units[own_copy.id].pos == own_copy.pos


def test_view_has_the_generic_keys() -> None:
    game = Game(scenario("normandy-village"), 0)
    view: dict[str, Any] = game.view("british")
    for key in ("ruleset", "scenario", "side", "turn", "phase", "to_act", "own", "enemies",
                "log", "result"):
        assert key in view
    for entry in view["own"]:
        assert {"id", "name", "unit", "x", "y", "floor", "section", "status"} <= set(entry)


def test_the_view_log_is_the_events_addressed_to_the_side() -> None:
    from fibua.rulesets.street_fighter.state import LOG_LENGTH

    s = scenario("normandy-village")
    game = Game(s, 2)
    players = {side: game.ruleset.computer(side, 2 + i) for i, side in enumerate(s.side_names)}
    for side in s.side_names:  # at the start: the deployment and the first turn's news
        log = game.view(side)["log"]
        assert log and log == [e.to_dict() for e in game.log_for(side)][-LOG_LENGTH:]
    for _ in range(120):
        side = game.to_act()
        if side is None:
            break
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    assert game.state.turn >= 2
    for side in s.side_names:
        mine = [e.to_dict() for e in game.log_for(side)]
        assert len(mine) > LOG_LENGTH  # the log keeps the most recent, bounded
        assert game.view(side)["log"] == mine[-LOG_LENGTH:]
        assert all(side in e["to"] or e["to"] == ["*"] for e in game.view(side)["log"])
    view = game.view(s.side_names[0])
    view["log"][-1]["data"]["changed"] = True  # the view is a copy: the game keeps its own
    assert "changed" not in game.log_for(s.side_names[0])[-1].data


# ------------------------------------------------------------------ scenario checks


def test_presets_are_the_seeds_formations() -> None:
    from typing import get_args

    from fibua.rulesets.street_fighter.tables import (
        CATALOGUE,
        COMPANIES,
        PRESETS,
        Kind,
        PresetName,
    )

    assert set(get_args(PresetName)) == set(PRESETS) | set(COMPANIES)
    assert not set(PRESETS) & set(COMPANIES)
    kinds = {name: sorted(str(u.kind) for u in units) for name, units in PRESETS.items()}
    assert kinds["british-tank-troop"] == ["sherman", "sherman", "sherman", "sherman-firefly"]
    assert kinds["soviet-tank-platoon"] == ["t34"] * 3
    assert kinds["motor-platoon"].count("m3-halftrack") == 4
    assert kinds["motor-platoon"].count("infantry-section") == 3
    assert kinds["scout-platoon"] == ["bren-carrier"] * 12
    for units in PRESETS.values():
        by_suffix = {u.suffix: u for u in units}
        for u in units:
            if u.rides is not None:
                assert CATALOGUE[by_suffix[u.rides].kind].capacity >= 1
                assert by_suffix[u.rides].kind is not Kind.INFANTRY


def test_the_motor_company_is_its_hq_three_motor_platoons_and_the_scout_platoon() -> None:
    from fibua.rulesets.street_fighter.tables import COMPANIES

    parts = [(p.suffix, p.preset) for p in COMPANIES["motor-company"]]
    assert parts == [("hq", "motor-company-hq"), ("p1", "motor-platoon"),
                     ("p2", "motor-platoon"), ("p3", "motor-platoon"),
                     ("scouts", "scout-platoon")]


def motor_company_game() -> Game:
    from fibua.scenario.loader import scenario_from_dict
    from sfr_helpers import table_dict, unit

    raw = table_dict([unit("b0", "sniper", (1, 7))], [unit("r1", "sniper", (5, 75))])
    spots = [[2 + 3 * n, 4] for n in range(26)]
    raw["sides"][0]["forces"]["formations"][0]["commander"] = "Sergeant Lowe"
    raw["sides"][0]["forces"]["formations"].insert(0, {
        "id": "coy", "name": "B Company", "commander": "Major Hartley",
        "preset": "motor-company", "at": spots})
    game = Game(scenario_from_dict(raw, "motor-company"), 0)
    assert [list(u.pos.point) for u in game.state.units.values()
            if u.id.startswith("coy-") and u.rides is None] == spots
    return game


def test_a_motor_company_preset_is_five_formations_of_one_commander() -> None:
    game = motor_company_game()
    formations = {f.id: f for f in game.state.formations.values()
                  if f.id.startswith("coy")}
    assert list(formations) == ["coy-hq", "coy-p1", "coy-p2", "coy-p3", "coy-scouts"]
    assert formations["coy-p2"].name == "B Company 2nd Platoon"
    assert {f.commander for f in formations.values()} == {"Major Hartley"}
    kinds = sorted(str(game.state.units[u].kind) for f in formations.values()
                   for u in f.units)
    assert kinds.count("m3-halftrack") == 1 + 3 * 4 and kinds.count("lorry") == 1
    assert kinds.count("infantry-section") == 9 and kinds.count("hq-section") == 4
    assert kinds.count("bren-carrier") == 12 and kinds.count("mortar-section") == 1
    riders = game.state.units["coy-p3-s2"]
    assert riders.rides == "coy-p3-ht3" and riders.pos == game.state.units["coy-p3-ht3"].pos
    seats = {seat.name: seat.units for seat in game.ruleset.seats(game.scenario, "blue")}
    assert seats["Major Hartley"] == {u for f in formations.values() for u in f.units}
    assert seats["Sergeant Lowe"] == {"b0"}


def test_a_motor_company_needs_a_point_for_each_vehicle() -> None:
    from fibua.rulesets.street_fighter.forces import FormationSpec

    with pytest.raises(ValueError, match="needs 26 points in at"):
        FormationSpec(id="coy", name="B Company", preset="motor-company", at=[(1, 1)])


def test_scenario_mistakes_are_located() -> None:
    from fibua.core.errors import ScenarioError
    from fibua.scenario.loader import scenario_from_dict
    from sfr_helpers import table_dict, unit

    blue = [unit("t1", "sherman", (26, 25)), unit("ht", "m3-halftrack", (70, 5)),
            unit("a", "infantry-section", rides="ht"), unit("b", "mmg-section", rides="ht")]
    raw = table_dict(blue, [unit("r1", "sniper", (5, 75))],
                     options={"destroy": [{"side": "blue", "units": ["t1"]}]})
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, "bad.toml")
    paths = {p.path for p in caught.value.problems}
    assert "sides[0].forces.formations[0].units[0]" in paths  # a tank in a building
    assert "sides[0].forces.formations[0].units[3].rides" in paths  # no room left
    assert "options.destroy[0].units[0]" in paths  # not an enemy unit
