"""Buildings worlds for the searching computer (rulesets/buildings/sampling.py): a world
keeps what the side sees, draws the rest from its knowledge (a hidden unit out of its
sight, the enemy's dice in the bag as the side sees them), and moving an enemy the side
cannot see changes no world drawn and no choice made."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from fibua.core.game import Game
from fibua.core.ruleset import Result
from fibua.core.search import Budget, judge
from fibua.rulesets.buildings import sampling
from fibua.rulesets.buildings.geometry import centroid
from fibua.rulesets.buildings.knowledge import refresh, seen_by
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import UnitKind
from fibua.scenario.loader import bundled_scenarios, load_scenario
from search_helpers import assert_twin_changes_nothing

BUILDINGS = sorted(name for name, path in bundled_scenarios().items()
                   if load_scenario(path).ruleset == "buildings")
SMALL = Budget(candidates=3, worlds=2, horizon=4)


def _midgame(name: str, orders: int, until: Callable[[Game], bool] | None = None,
             most: int = 60) -> Game:
    """A game of the scenario after `orders` random orders, and then more (up to `most`
    in all) until `until` holds, if given."""
    game = Game(load_scenario(bundled_scenarios()[name]), 6)
    rng = random.Random(name)
    for n in range(most if until is not None else orders):
        side = game.to_act()
        if side is None or (n >= orders and (until is None or until(game))):
            break
        game.apply(rng.choice(game.legal_orders(side)))
    return game


def _hidden(state: BuildingsState, side: str) -> list[Unit]:
    memory = state.knowledge[side].sightings
    return [u for u in state.side_units(state.enemy_of(side))
            if not (u.id in memory and memory[u.id].visible)]


def _unseen(state: BuildingsState, side: str, unit: Unit) -> bool:
    return not seen_by(state, state.side_units(side), [unit])[0]


def _moves(state: BuildingsState, unit: Unit) -> Iterator[Callable[[], None]]:
    """Ways to stand a unit elsewhere: its models shifted outside, or another floor."""
    if unit.section is None and unit.aboard is None:
        for dx, dy in ((3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (-2, -2), (6, 0), (0, 6)):
            def shift(dx: float = dx, dy: float = dy) -> None:
                for m in unit.models:
                    m.x, m.y = m.x + dx, m.y + dy
            yield shift
    elif unit.section is not None and unit.kind is UnitKind.INFANTRY:
        section = state.battlefield.section(unit.section)
        for floor in range(section.levels):
            if floor != unit.floor and state.occupant(section.id, floor) is None:
                def climb(floor: int = floor) -> None:
                    unit.floor = floor
                yield climb


def _standing(state: BuildingsState, unit: Unit) -> bool:
    table, sight = state.battlefield.table, state.sight
    return unit.section is not None or all(
        0 <= m.x <= table.width and 0 <= m.y <= table.height
        and sight.section_at((m.x, m.y)) is None for m in unit.models)


def _twin_with_one_moved(game: Game, side: str) -> BuildingsState | None:
    """A copy of the true game in which one enemy the side cannot see stands elsewhere,
    still unseen (the rules' own sight memories brought up to date)."""
    for uid in sorted(u.id for u in _hidden(game.state, side)):
        for k in range(8):
            twin: BuildingsState = game.ruleset.clone(game.state)
            unit = twin.units[uid]
            move = next((m for i, m in enumerate(_moves(twin, unit)) if i == k), None)
            if move is None:
                break
            move()
            if _standing(twin, unit) and _unseen(twin, side, unit):
                refresh(twin)
                twin.pending.clear()
                if uid in {u.id for u in _hidden(twin, side)}:
                    return twin
    return None


def _public(state: BuildingsState) -> dict[str, Any]:
    return {"turn": state.turn, "drawn": state.drawn, "bag": state.bag().dice,
            "limit": state.limit, "destroyed_by": dict(state.destroyed_by),
            "sections": dict(state.sight.section_states),
            "result": state.result}


@pytest.mark.parametrize("orders", [10, 30])
@pytest.mark.parametrize("name", BUILDINGS)
def test_a_world_keeps_what_the_side_sees_and_hides_the_rest(name: str, orders: int) -> None:
    game = _midgame(name, orders)
    rules, state = game.ruleset, game.state
    before = rules.snapshot(state)
    for side in game.scenario.side_names:
        enemy = state.enemy_of(side)
        world = rules.resample(state, side, random.Random(1))
        # the side's own units, its memory and what is public stay
        for unit in state.units.values():
            if unit.side == side:
                assert world.units[unit.id].snapshot() == unit.snapshot()
        assert dict(world.knowledge[side].sightings) == \
            dict(state.knowledge[side].sightings)
        assert _public(world) == _public(state)
        # enemies in sight stay; hidden ones are out of the side's sight
        hidden = {u.id for u in _hidden(state, side)}
        for unit in state.side_units(enemy):
            if unit.id not in hidden:
                assert world.units[unit.id].snapshot() == unit.snapshot()
        for unit in _hidden(world, side):
            assert _unseen(world, side, unit)
        # a unit never seen is as fresh as the roster makes it
        for uid in hidden - set(state.knowledge[side].sightings):
            assert world.units[uid].pins == 0
            assert len(world.units[uid].models) == world.units[uid].start
        assert world.logs.of(enemy) == [] and world.pending == []
    assert rules.snapshot(state) == before


@pytest.mark.parametrize("name", BUILDINGS)
def test_moving_an_unseen_enemy_changes_no_world_and_no_choice(name: str) -> None:
    def movable(game: Game) -> bool:
        side = game.to_act()
        return side is not None and _twin_with_one_moved(game, side) is not None

    game = _midgame(name, 10, until=movable)
    side = game.to_act()
    assert side is not None
    twin = _twin_with_one_moved(game, side)
    if twin is None:
        pytest.skip("no enemy hidden from the side to act")
    assert_twin_changes_nothing(game, twin, side, SMALL)


def test_the_check_catches_a_sampler_that_reads_the_true_places(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails for a sampler that keeps the hidden units as they truly are."""
    name = "beach-exit"
    game = _midgame(name, 10, until=lambda g: g.to_act() is not None and _twin_with_one_moved(
        g, str(g.to_act())) is not None)
    side = game.to_act()
    assert side is not None
    twin = _twin_with_one_moved(game, side)
    assert twin is not None
    monkeypatch.setattr(sampling, "_fresh",
                        lambda world, spec, known, destroyed: world.units[spec.id])
    monkeypatch.setattr(sampling, "_place_all", lambda *args: None)
    rules = game.ruleset
    worlds = [rules.snapshot(rules.resample(s, side, random.Random(9)))
              for s in (game.state, twin)]
    assert worlds[0] != worlds[1]


@pytest.mark.parametrize("name", BUILDINGS)
def test_a_world_plays_on(name: str) -> None:
    game = _midgame(name, 20)
    rules = game.ruleset
    for side in game.scenario.side_names:
        world = rules.resample(game.state, side, random.Random(3))
        players = {s: rules.computer(s, 5) for s in world.sides}
        for _ in range(40):
            acting = rules.to_act(world)
            if acting is None:
                break
            order = rules.forced(world, acting) or players[acting].choose(
                rules.observe(world, acting), rules.legal_orders(world, acting))
            rules.apply(world, order)


def _open(state: BuildingsState, side: str) -> list[Unit]:
    """Hidden enemies the side cannot tell have spent their die (not seen this turn with
    an order)."""
    memory = state.knowledge[side].sightings
    return [u for u in _hidden(state, side)
            if not (u.id in memory and memory[u.id].turn == state.turn
                    and memory[u.id].doing is not None)]


def _dice_undecided(game: Game) -> bool:
    """Some of the side to act's hidden enemies hold their die, and some do not."""
    side = game.to_act()
    if side is None:
        return False
    holding = [u.order is None for u in _open(game.state, side)]
    return any(holding) and not all(holding)


@pytest.mark.parametrize("name", BUILDINGS)
def test_the_enemy_dice_in_the_bag_are_kept_and_the_rest_drawn(name: str) -> None:
    """The dice left in the bag are public: a world holds as many enemy units with no order
    as the bag shows, whichever hidden units they are."""
    game = _midgame(name, 2, until=_dice_undecided)
    if not _dice_undecided(game):
        pytest.skip("no side to act unsure which of its hidden enemies hold their die")
    rules, state = game.ruleset, game.state
    for side in game.scenario.side_names:
        holders = set()
        for seed in range(12):
            world = rules.resample(state, side, random.Random(seed))
            assert world.bag() == state.bag()
            holders.add(frozenset(u.id for u in _open(world, side) if u.order is None))
        if side == game.to_act():
            assert len(holders) > 1


def test_survivors_are_taken_off_as_the_rules_take_them() -> None:
    """Casualties take plain riflemen first, the last first, and the leader last."""
    from fibua.rulesets.buildings.tables import WeaponName as W

    weapons = [W.SMG, W.RIFLE, W.LMG, W.RIFLE, W.RIFLE]
    assert sampling.survivors(weapons, 3) == [0, 1, 2]
    assert sampling.survivors(weapons, 1) == [0]
    assert sampling.survivors(weapons, 2) == [0, 2]


def test_a_position_is_judged_on_the_scoring_and_the_units_left() -> None:
    game = _midgame("village-street", 0)
    rules, state = game.ruleset, game.state
    a, b = game.scenario.side_names
    standing = rules.standing(state)
    assert isinstance(standing, Result) and state.result is None
    assert rules.strength(state, a) == len(state.side_units(a))
    unit = state.side_units(a)[0]
    full = rules.strength(state, a)
    if len(unit.models) > 1:
        unit.models.pop()
        assert rules.strength(state, a) < full
    assert 0.0 <= judge(rules, state, a) <= 1.0
    state.result = Result(a, "a test", {})
    assert judge(rules, state, a) == 1.0 and judge(rules, state, b) == 0.0


def _unwatched_floor(game: Game) -> bool:
    """The side to act last saw a hidden enemy on a floor none of its units sees now."""
    side = game.to_act()
    return side is not None and bool(_left_inside(game.state, side))


def _left_inside(state: BuildingsState, side: str) -> list[Unit]:
    memory = state.knowledge[side].sightings
    out = []
    for unit in _hidden(state, side):
        known = memory.get(unit.id)
        if known is None or known.section is None:
            continue
        if _unseen(state, side, _at(state, unit, known.section, known.floor)):
            out.append(unit)
    return out


@pytest.mark.parametrize("name", BUILDINGS)
def test_a_hidden_unit_stays_on_its_floor_while_unwatched(name: str) -> None:
    """A unit last seen on a floor that no unit of the side sees now stays there
    (wherever it truly is), unless another enemy unit holds it in the world drawn."""
    game = _midgame(name, 2, until=_unwatched_floor)
    side = game.to_act()
    if side is None or not _unwatched_floor(game):
        pytest.skip("no hidden enemy last seen on a floor now unwatched")
    state = game.state
    world = game.ruleset.resample(state, side, random.Random(2))
    for unit in _left_inside(state, side):
        known = state.knowledge[side].sightings[unit.id]
        holder = world.occupant(known.section or "", known.floor)
        # there, unless another enemy was drawn there first or is there in sight
        assert holder is not None and holder.side == unit.side
        if holder.id != unit.id:
            assert holder.id < unit.id or holder not in _hidden(world, side)


def _at(state: BuildingsState, unit: Unit, sid: str, floor: int) -> Unit:
    cx, cy = centroid(state.battlefield.section(sid))
    return replace(unit, section=sid, floor=floor,
                   models=[type(m)(cx, cy, m.weapon) for m in unit.models])


def _mixed() -> Game:
    from bld_helpers import make_scenario
    from test_buildings_play import mixed_allies, mixed_axis

    return Game(make_scenario(allies=mixed_allies(), axis=mixed_axis()), 3)


def test_a_squad_never_seen_rides_in_the_transport_it_set_up_in() -> None:
    """Passengers are off the table: the enemy never sees a squad aboard, so a world keeps
    it in the transport the scenario puts it in while the transport is in the fight."""
    game = _mixed()
    rules, state = game.ruleset, game.state
    assert "smgs" not in state.knowledge["axis"].sightings
    world = rules.resample(state, "axis", random.Random(4))
    assert world.units["smgs"].aboard == "carrier"
    assert world.units["carrier"].carrying == "smgs"
    carrier = world.units["carrier"]
    assert world.units["smgs"].lead.x == carrier.lead.x
    state.units["carrier"].destroyed = True  # knocked out: the squad is on foot somewhere
    world = rules.resample(state, "axis", random.Random(4))
    assert world.units["smgs"].aboard is None and world.units["smgs"].alive


@pytest.mark.parametrize("seed", range(3))
def test_a_world_of_every_kind_of_unit_plays_on(seed: int) -> None:
    """Guns, mortars, observers, a tank and a transport: worlds drawn mid-game for either
    side play on under the computers."""
    game = _mixed()
    rules = game.ruleset
    rng = random.Random(seed)
    for _ in range(15):
        side = game.to_act()
        if side is None:
            break
        game.apply(rng.choice(game.legal_orders(side)))
    for side in game.scenario.side_names:
        world = rules.resample(game.state, side, random.Random(seed))
        for unit in _hidden(world, side):
            assert _unseen(world, side, unit)
        players = {s: rules.computer(s, seed) for s in world.sides}
        for _ in range(30):
            acting = rules.to_act(world)
            if acting is None:
                break
            order = rules.forced(world, acting) or players[acting].choose(
                rules.observe(world, acting), rules.legal_orders(world, acting))
            rules.apply(world, order)
