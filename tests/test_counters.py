"""What a unit's counter shows (`RuleSet.counters`, core/counters.py), per rule set: every
unit of every bundled scenario has one at the start, its symbol read from the rule set's
own tables, its strength and its states as badges; an enemy's counter holds only the
side's sighting (the age of it, what was seen), so changing what the side has not seen
of an enemy, or moving one it cannot see, changes no counter. The message a seat is sent
carries the counters of its view (the page draws them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.counters import Counter, Measure, Symbol, Tag
from fibua.core.game import Game
from fibua.core.knowledge import Sure
from fibua.rulesets.buildings import counters as bld
from fibua.rulesets.buildings.forces import ModelSpec, UnitSpec
from fibua.rulesets.buildings.setup import unit_of
from fibua.rulesets.buildings.tables import CATALOGUE as TYPICALS
from fibua.rulesets.buildings.tables import OrderKind, UnitType
from fibua.rulesets.house_clearing import counters as hc
from fibua.rulesets.house_clearing.tables import Rank, Stance
from fibua.rulesets.house_clearing.tables import WeaponName as HcWeapon
from fibua.rulesets.street_fight import counters as sf
from fibua.rulesets.street_fight.state import Overwatch
from fibua.rulesets.street_fight.tables import WeaponName as SfWeapon
from fibua.rulesets.street_fighter import counters as sfr
from fibua.rulesets.street_fighter.tables import CATALOGUE as UNIT_TYPES
from fibua.rulesets.street_fighter.tables import Kind
from fibua.scenario.loader import bundled_scenarios, load_scenario
from server_helpers import auth, client_on, create, server, settled, wait_until

SEED = 3


def start(name: str) -> Game:
    return Game(load_scenario(bundled_scenarios()[name]), SEED)


def by_id(game: Game, side: str) -> dict[str, Counter]:
    return {c.id: c for c in game.counters(side)}


# -- every unit of every bundled scenario, at the start --------------------------------------


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_unit_and_every_enemy_seen_has_a_counter(name: str) -> None:
    game = start(name)
    for side in game.scenario.side_names:
        view = game.view(side)
        found = game.counters(side)
        own = [c for c in found if not c.hostile]
        enemies = {c.id: c for c in found if c.hostile}
        assert [c.id for c in own] == [u["id"] for u in view["own"]]
        assert set(enemies) == {e["id"] for e in view["enemies"]}
        for counter in own:
            assert counter.symbol is not Symbol.UNKNOWN, counter
            assert counter.strength is not None and counter.strength.text, counter
            assert not counter.out_of_action and counter.age is None
            assert counter.stats, counter
        for seen in view["enemies"]:
            counter = enemies[seen["id"]]
            # what the view says of the sighting, and no strength the side cannot know
            assert counter.seen_turn == seen["seen_turn"]
            assert counter.in_sight is seen["visible_now"]
            assert counter.out_of_action is (not seen["alive"])
            assert counter.age == (0 if seen["visible_now"]
                                   else view["turn"] - seen["seen_turn"])
            assert counter.strength is None or counter.strength.start is None
            assert counter.facing is None and not counter.spots
            assert seen["name"] in counter.stats


def enemy_pieces(game: Game, side: str) -> list[Any]:
    pieces: dict[str, Any] = getattr(game.state, "figures", None) or game.state.units
    return [p for p in pieces.values() if p.side != side]


def disturb(piece: Any) -> None:
    """Change what a side's sighting of an enemy does not hold: its place, its strength,
    its states (as the rules would, but without telling any side)."""
    for name, value in (("pinned", True), ("pins", 3), ("aim", 2), ("ducked", True),
                        ("full_cover", True), ("immobilised", True), ("facing", 77.0),
                        ("stance", Stance.PRONE), ("order", OrderKind.DOWN)):
        if hasattr(piece, name):
            setattr(piece, name, value)
    if hasattr(piece, "hp"):
        piece.hp = max(1, piece.hp - 1)
    if hasattr(piece, "models"):
        for model in piece.models:
            model.x, model.y = model.x + 1.5, model.y - 1.5
        del piece.models[1:]
    else:
        piece.pos = Position(piece.pos.x + 1.5, piece.pos.y - 1.5, piece.pos.section,
                             piece.pos.floor)


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_an_enemy_counter_holds_nothing_the_sighting_does_not(name: str) -> None:
    """Moving the enemies, taking their strength, pinning them and the rest, without the
    side's troops seeing it, leaves every counter the side is given as it was."""
    for side in start(name).scenario.side_names:
        game = start(name)
        before = json.dumps([c.to_dict() for c in game.counters(side)])
        for piece in enemy_pieces(game, side):
            disturb(piece)
        assert json.dumps([c.to_dict() for c in game.counters(side)]) == before


# -- symbols from each rule set's own tables ---------------------------------------------------


def test_street_fighter_symbols_follow_the_unit_table() -> None:
    expected = {
        Kind.INFANTRY: Symbol.INFANTRY, Kind.HQ: Symbol.HQ, Kind.MMG: Symbol.MACHINE_GUN,
        Kind.MORTAR: Symbol.MORTAR, Kind.SNIPER: Symbol.SNIPER, Kind.SHERMAN: Symbol.TANK,
        Kind.FIREFLY: Symbol.TANK, Kind.T34: Symbol.TANK, Kind.ASSAULT_GUN: Symbol.ASSAULT_GUN,
        Kind.AT_GUN: Symbol.ANTI_TANK_GUN, Kind.HALFTRACK: Symbol.ARMOURED_CAR,
        Kind.CARRIER: Symbol.ARMOURED_CAR, Kind.LORRY: Symbol.LORRY,
    }
    assert set(expected) == set(UNIT_TYPES)
    assert {k: sfr.symbol(k) for k in UNIT_TYPES} == expected


def test_buildings_symbols_follow_each_typical_units_weapons() -> None:
    T = UnitType
    expected = {
        T.RIFLE_SQUAD: Symbol.INFANTRY, T.SMG_SQUAD: Symbol.INFANTRY,
        T.ASSAULT_SQUAD: Symbol.INFANTRY, T.HQ: Symbol.HQ, T.MMG_TEAM: Symbol.MACHINE_GUN,
        T.HMG_TEAM: Symbol.MACHINE_GUN, T.AT_RIFLE_TEAM: Symbol.ANTI_TANK,
        T.PIAT_TEAM: Symbol.ANTI_TANK, T.BAZOOKA_TEAM: Symbol.ANTI_TANK,
        T.PANZERSCHRECK_TEAM: Symbol.ANTI_TANK, T.FLAMETHROWER_TEAM: Symbol.FLAME,
        T.LIGHT_MORTAR_TEAM: Symbol.MORTAR, T.MEDIUM_MORTAR_TEAM: Symbol.MORTAR,
        T.AIR_OBSERVER: Symbol.OBSERVER, T.ARTILLERY_OBSERVER: Symbol.OBSERVER,
        T.LIGHT_AT_GUN: Symbol.ANTI_TANK_GUN, T.MEDIUM_AT_GUN: Symbol.ANTI_TANK_GUN,
        T.HEAVY_AT_GUN: Symbol.ANTI_TANK_GUN, T.LIGHT_HOWITZER: Symbol.HOWITZER,
        T.MEDIUM_HOWITZER: Symbol.HOWITZER, T.HEAVY_HOWITZER: Symbol.HOWITZER,
        T.TRUCK: Symbol.LORRY, T.CARRIER: Symbol.ARMOURED_CAR,
        T.ARMOURED_CAR: Symbol.ARMOURED_CAR, T.LIGHT_TANK: Symbol.TANK,
        T.MEDIUM_TANK: Symbol.TANK, T.FLAME_TANK: Symbol.TANK, T.HEAVY_TANK: Symbol.TANK,
        T.SUPER_HEAVY_TANK: Symbol.TANK,
    }
    assert set(expected) == set(TYPICALS)
    field = load_scenario(bundled_scenarios()["village-street"]).battlefield
    for kind, symbol in expected.items():
        models = [ModelSpec(at=(1.0 + i, 1.0)) for i in range(TYPICALS[kind].models)]
        unit = unit_of(field, "x", UnitSpec(id="u", name="u", type=kind, models=models))
        assert bld.symbol(unit) is symbol, kind


def test_figures_symbols_follow_their_weapons() -> None:
    assert sf.symbol(SfWeapon.LMG) is sf.symbol(SfWeapon.HMG) is Symbol.MACHINE_GUN
    assert sf.symbol(SfWeapon.SCOPED_RIFLE) is Symbol.SNIPER
    assert sf.symbol(SfWeapon.ASSAULT_RIFLE) is sf.symbol(None) is Symbol.INFANTRY
    assert hc.symbol(HcWeapon.BELT_LMG) is hc.symbol(HcWeapon.BOX_LMG) is Symbol.MACHINE_GUN
    assert hc.symbol(HcWeapon.SMG, Rank.OFFICER) is Symbol.HQ
    assert hc.symbol(HcWeapon.SMG, Rank.NCO) is hc.symbol(HcWeapon.RIFLE) is Symbol.INFANTRY


# -- strength, states and facing ---------------------------------------------------------------


def tags(counter: Counter) -> dict[Tag, str]:
    return {m.tag: m.short for m in counter.marks}


def test_buildings_counter_shows_models_pins_order_facing_and_loss() -> None:
    """A unit's strength is its models left of its models; its pins and the order its die
    went on are badges; a vehicle faces its way; a destroyed unit is out of action, and
    one with no model left is off the table."""
    game = start("village-street")
    tiger, squad = game.state.units["tiger"], game.state.units["gruppe-stein"]
    del squad.models[7:]
    squad.pins, squad.order = 2, OrderKind.DOWN
    tiger.order, tiger.facing = OrderKind.FIRE, 135.0
    found = by_id(game, "germans")
    assert found["gruppe-stein"].strength is not None
    assert found["gruppe-stein"].strength.text == "7/10"
    assert found["gruppe-stein"].strength.measure is Measure.MODELS
    assert tags(found["gruppe-stein"]) == {Tag.PINS: "P2", Tag.DOWN: "DN"}
    assert len(found["gruppe-stein"].spots) == 7 and found["gruppe-stein"].facing is None
    assert tags(found["tiger"]) == {Tag.ORDER: "FI"} and found["tiger"].facing == 135.0
    tiger.destroyed = True
    assert by_id(game, "germans")["tiger"].out_of_action
    # a unit whose last model has gone has no place left on the table to be drawn at
    assert by_id(game, "germans")["tiger"].on_table
    del squad.models[:]
    gone = by_id(game, "germans")["gruppe-stein"]
    assert gone.out_of_action and not gone.on_table and not gone.marks


def test_street_fighter_counter_shows_hits_pins_and_riders() -> None:
    game = start("normandy-village")
    section = game.state.units["pl7-s1"]
    section.hp, section.pinned = 2, True
    found = by_id(game, "british")
    assert found["pl7-s1"].strength is not None and found["pl7-s1"].strength.text == "2/3"
    assert tags(found["pl7-s1"])[Tag.PINNED] == "PN"
    assert found["pl7-s1"].carried_by == "pl7-ht2"
    assert tags(found["pl7-ht2"])[Tag.CARRYING] == "+1"


def test_house_clearing_counter_shows_initiative_stance_and_ducking() -> None:
    game = start("oosterbeek-crossroads")
    figure = game.state.figures["harder"]
    figure.stance, figure.ducked, figure.initiative = Stance.CROUCHING, True, 2
    found = by_id(game, "germans")["harder"]
    assert found.strength is not None and found.strength.text == "I2"
    assert tags(found) == {Tag.STANCE: "CR", Tag.DUCKED: "DK"}
    figure.initiative = -1
    assert by_id(game, "germans")["harder"].out_of_action


def test_street_fight_counter_shows_aim_overwatch_and_casualty() -> None:
    game = start("corner-shop")
    figure = game.state.figures["dunn"]
    figure.aim, figure.overwatch = 2, Overwatch(5.0, 5.0, 3.0, False)
    found = by_id(game, "british")["dunn"]
    assert tags(found) == {Tag.AIMING: "A2", Tag.OVERWATCH: "OW"}
    figure.alive = False
    fallen = by_id(game, "british")["dunn"]
    assert fallen.out_of_action and fallen.strength is not None
    assert fallen.strength.text == "out" and not fallen.marks


def test_an_enemy_remembered_carries_its_age() -> None:
    """A sighting out of sight is shown where it was, with the turns since."""
    game = start("corner-shop")
    known = game.state.knowledge["british"]
    enemy = next(iter(known.sightings))
    known.record(known.sightings[enemy]._replace(sure=Sure.LAST_SEEN, turn=0))
    game.state.turn = 3
    counter = by_id(game, "british")[enemy]
    assert (counter.age, counter.in_sight, counter.seen_turn) == (3, False, 0)
    assert "3 turns ago" in " ".join(counter.stats)


# -- in the seat's message ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def test_a_seats_message_carries_its_sides_counters(client: Any) -> None:
    made = create(client, "village-street", SEED, {"british": "human"})
    wait_until(lambda: settled(client, made["id"]))
    message = client.get(f"/api/games/{made['id']}",
                         headers=auth(made["seat_tokens"]["british"])).json()
    game = server(client).hub.games[made["id"]].game
    sent = message["counters"]
    assert list(sent["own"]) == [u["id"] for u in message["view"]["own"]]
    assert set(sent["enemies"]) == {e["id"] for e in message["view"]["enemies"]}
    assert sent["own"]["six-pounder"] == by_id(game, "british")["six-pounder"].to_dict()
    assert sent["own"]["six-pounder"]["symbol"] == "anti-tank-gun"
    assert all(c["hostile"] for c in sent["enemies"].values())
