"""A view is plain data: nothing reachable from what a side is handed, or from its computer
player, leads to hidden state. Followed through every attribute and container, it never
reaches the game state (or anything the state holds that can change), the generator, the
rules' or the other side's sight engine, another game's objects, or a scenario (whose memo
keeps what its games share). And games of one scenario do not touch each other: played
interleaved they end exactly as played apart."""

from __future__ import annotations

import dataclasses
import gc
from collections import deque
from collections.abc import Iterator
from enum import Enum
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any

import pytest

from fibua.battlefield.sight import STAMP
from fibua.core.dice import Rng
from fibua.core.game import Game, LegalOrders
from fibua.core.ruleset import Player
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario

#: the state's fields that are the scenario's, the same for all its games and public
PUBLIC_FIELDS = frozenset({"scenario", "battlefield", "options"})
#: where a sight engine (or a geometry reading one) keeps what its user asked
PRIVATE = ("memo", "_umpire_memos", "_move_piece_cache", "_lean_memo")
IMMUTABLE = (str, bytes, int, float, complex, bool, type(None), tuple, frozenset, Enum)
ORDERS = 60  # orders of each game before looking: both sides have played by then


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from `root` by reference, not looking into modules, classes
    or the globals of functions (the code is shared by everyone)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, type | ModuleType | BuiltinFunctionType):
            continue
        if isinstance(obj, FunctionType):
            refs: list[Any] = [obj.__closure__, obj.__defaults__, obj.__kwdefaults__,
                               obj.__dict__]
        elif isinstance(obj, MethodType):
            refs = [obj.__self__, obj.__func__]
        else:
            refs = gc.get_referents(obj)
        stack.extend(r for r in refs if r is not None)


def _mutable(value: object) -> bool:
    if isinstance(value, IMMUTABLE):
        return False
    params = getattr(type(value), "__dataclass_params__", None)
    return not (params is not None and params.frozen)


def _fields(state: object) -> list[str]:
    if dataclasses.is_dataclass(state):
        return [f.name for f in dataclasses.fields(state)]
    return list(vars(state))


def game_objects(game: Game, mine: set[int]) -> dict[int, str]:
    """What of a game no player may reach: the game and its state, the state's fields
    that can change and the changeable things they hold (but `mine`, the side's own)."""
    state = game.state
    found = {id(game): "the game", id(state): "the game state"}
    for name in _fields(state):
        if name in PUBLIC_FIELDS:
            continue
        value = getattr(state, name)
        if _mutable(value) and id(value) not in mine:
            found[id(value)] = f"state.{name}"
        items: Any = ()
        if isinstance(value, dict):
            items = value.values()
        elif isinstance(value, list | set | deque):
            items = value
        for item in items:
            if _mutable(item) and id(item) not in mine:
                found[id(item)] = f"something in state.{name}"
    return found


def with_private(found: dict[int, str], objects: dict[int, object]) -> dict[int, str]:
    """`found`, and the memos of the engines and geometries among `objects`."""
    out = dict(found)
    for key, obj in objects.items():
        for name in PRIVATE:
            memo = getattr(obj, name, None)
            if isinstance(memo, dict):
                out[id(memo)] = f"what {found.get(key, 'an engine')} keeps in its {name}"
    return out


def own_map(view: Any) -> set[int]:
    """The side's own sight engine (and geometry reading it), which its view holds."""
    return {id(view.sight), *([id(view.geometry)] if hasattr(view, "geometry") else [])}


def computers(game: Game, seed: int) -> dict[str, Player]:
    rules = game.ruleset
    return {side: rules.computer(side, seed + k)
            for k, side in enumerate(game.scenario.side_names)}


def step(game: Game, players: dict[str, Player]) -> bool:
    """One order of the game, as `play_out` gives it; False once the game is over."""
    side = game.to_act()
    if side is None:
        return False
    game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    return True


def interleaved(scenario: Scenario, seeds: tuple[int, ...],
                orders: int | None) -> list[tuple[Game, dict[str, Player]]]:
    """Games of one scenario played an order at a time in turn, `orders` each (None: to
    the end)."""
    games = [Game(scenario, seed) for seed in seeds]
    tables = [(game, computers(game, seed)) for game, seed in zip(games, seeds, strict=True)]
    going, played = True, 0
    while going and (orders is None or played < orders):
        going = False
        for game, players in tables:
            going |= step(game, players)
        played += 1
    return tables


@pytest.fixture(scope="module", params=sorted(bundled_scenarios()))
def played(request: pytest.FixtureRequest) -> tuple[Scenario,
                                                    list[tuple[Game, dict[str, Player]]]]:
    scenario = load_scenario(request.param)
    return scenario, interleaved(scenario, (0, 1), ORDERS)


def test_nothing_hidden_is_reachable_from_a_view_or_a_computer_player(
        played: tuple[Scenario, list[tuple[Game, dict[str, Player]]]]) -> None:
    scenario, tables = played
    (game, players), (other_game, _) = tables
    sides = game.scenario.side_names
    views = {side: game.observe(side) for side in sides}
    assert len({id(v.sight) for v in views.values()} | {id(game.state.sight)}) == 3
    for side in sides:
        mine = own_map(views[side])
        forbidden = game_objects(game, mine)
        for other in sides:
            if other != side:
                forbidden |= {k: f"{other}'s sight engine" for k in own_map(views[other])}
        forbidden |= {k: f"another game: {why}"
                      for k, why in game_objects(other_game, set()).items()}
        forbidden |= {k: "another game's sight engine" for s in sides
                      for k in own_map(other_game.observe(s))}
        forbidden[id(scenario.memo["sight"])] = "the scenario's sight engine"
        forbidden[id(scenario.memo)] = "the scenario's memo"
        kept: dict[int, object] = {id(v): v for v in scenario.memo.values()}
        for g in (game, other_game):
            kept |= {id(v): v for v in (g.state.sight, getattr(g.state, "geometry", None),
                                        *(getattr(g.observe(s), n, None) for s in sides
                                          for n in ("sight", "geometry")))
                     if id(v) in forbidden}
        forbidden = with_private(forbidden, kept)
        for start, root in (("view", views[side]), ("computer player", players[side])):
            for obj in reachable(root):
                assert id(obj) not in forbidden, \
                    f"{side}'s {start} reaches {forbidden[id(obj)]}: {type(obj).__name__}"
                assert not isinstance(obj, Rng | Scenario), \
                    f"{side}'s {start} reaches a {type(obj).__name__}"


def test_the_scenario_s_engine_answers_nothing_itself(
        played: tuple[Scenario, list[tuple[Game, dict[str, Player]]]]) -> None:
    """Everyone asks their own fork: the engine the scenario keeps has no memo, and its
    scratch array was never written."""
    scenario, _ = played
    engine = scenario.memo["sight"]
    assert engine.memo == {}
    assert not engine.kernel_tables[STAMP].any()


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_games_played_interleaved_end_as_played_apart(name: str) -> None:
    seeds = (3, 4)
    together = interleaved(load_scenario(name), seeds, None)
    for (game, _), seed in zip(together, seeds, strict=True):
        alone = interleaved(load_scenario(name), (seed,), None)[0][0]
        assert game.state_hash() == alone.state_hash()
