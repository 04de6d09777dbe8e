"""Leak canary for Street-Fight: a side is never told the name of an enemy figure before
its troops could have seen it. "Could have seen" is worked out independently of the rule
set's own bookkeeping, with the plain Shapely sight oracle on the full state."""

from __future__ import annotations

import dataclasses
import json

import pytest

from fibua.battlefield.reference import reference_visible
from fibua.core.events import Event
from fibua.core.game import Game, play_out
from fibua.core.orders import Order
from fibua.core.replay import side_log_lines
from fibua.rulesets.street_fight.knowledge import record_casualty
from fibua.rulesets.street_fight.views import SideView
from fibua.scenario.loader import load_scenario
from sf_helpers import figure, forced_game, make_scenario, put

# public by the rules: both sides see a shot, a close combat, a casualty
SHARED_KINDS = {"shot", "overwatch-fire", "close-combat", "casualty", "fire-cancelled"}


class Canary:
    """Follows a game order by order and checks what each side has been told."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.observed: dict[str, set[str]] = {side: set() for side in game.scenario.side_names}
        self.look()

    def look(self) -> None:
        state = self.game.state
        bf = state.battlefield
        for side in self.observed:
            watchers = [f for f in state.figures.values() if f.side == side and f.alive]
            for enemy in state.figures.values():
                if enemy.side != side and enemy.alive and any(
                    reference_visible(bf, {}, w.pos, enemy.pos) for w in watchers
                ):
                    self.observed[side].add(enemy.id)

    def after(self, events: list[Event]) -> None:
        state = self.game.state
        for event in events:
            if event.kind in SHARED_KINDS:
                for side in self.observed:
                    self.observed[side] |= _figures_named(event, state.figures)
        self.look()
        for side in self.observed:
            self.check(side)

    def check(self, side: str) -> None:
        text = json.dumps(self.game.view(side)) + json.dumps(
            [e.to_dict() for e in self.game.log_for(side)])
        for enemy in self.game.state.figures.values():
            if enemy.side != side and enemy.id not in self.observed[side]:
                assert enemy.name not in text, f"{side} was told of unseen {enemy.name}"

    def unseen_names(self, side: str) -> list[str]:
        return [f.name for f in self.game.state.figures.values()
                if f.side != side and f.id not in self.observed[side]]


def _figures_named(event: Event, figures: dict[str, object]) -> set[str]:
    found = set()
    for key in ("firer", "target", "figure"):
        value = event.data.get(key)
        if isinstance(value, str) and value in figures:
            found.add(value)
    for value in event.data.get("figures", []):
        if value in figures:
            found.add(value)
    return found


@pytest.mark.parametrize("name", ["corner-shop", "farm-compound"])
def test_no_side_hears_of_an_enemy_before_it_could_see_it(name: str) -> None:
    scenario = load_scenario(name)
    hidden_at_start = 0
    for seed in range(3):
        game = Game(scenario, seed)
        canary = Canary(game)
        hidden_at_start += sum(len(canary.unseen_names(s)) for s in scenario.side_names)
        sides = scenario.side_names
        players = {sides[0]: game.ruleset.computer(sides[0], seed),
                   sides[1]: game.ruleset.random_player(sides[1], seed)}
        play_out(game, players, on_events=canary.after)
        for side in sides:
            log = "\n".join(side_log_lines(game, side))
            for enemy_name in canary.unseen_names(side):
                assert enemy_name not in log
    assert hidden_at_start > 0  # the canary had something to guard


def test_the_canary_sings_when_a_name_leaks() -> None:
    scenario = load_scenario("corner-shop")
    game = Game(scenario, 0)
    canary = Canary(game)
    side = scenario.side_names[0]
    unseen = canary.unseen_names(side)
    assert unseen
    game.log.append(Event("gossip", {"who": unseen[0]}, (side,), 0))
    with pytest.raises(AssertionError, match="unseen"):
        canary.check(side)


def test_a_view_holds_copies_the_game_cannot_reach() -> None:
    game = forced_game(make_scenario([figure("b1", "rifle", (20, 10))],
                                     [figure("r1", "rifle", (20, 18))]), [2, 1])
    game.apply(Order("blue", "overwatch", "b1", {"point": [20, 18], "radius": 1}))
    before = game.state_hash()
    view = game.observe("blue")
    mine = view.figure("b1")
    assert mine is not game.state.figures["b1"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.overwatch.radius = 9  # type: ignore[misc, union-attr]
    mine.aim = 3
    with pytest.raises(AttributeError):
        view.enemies[0][1].x = 0.0  # type: ignore[misc]
    assert game.state_hash() == before


def test_a_view_has_every_field_of_a_side_view() -> None:
    # observe builds its views without SideView's __init__: a field added to SideView
    # must be filled there too
    game = forced_game(make_scenario([figure("b1", "rifle", (20, 10))],
                                     [figure("r1", "rifle", (20, 18))]), [2, 1])
    view = game.observe("blue")
    assert set(vars(view)) == {f.name for f in dataclasses.fields(SideView)}
    assert view == SideView(**vars(view))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 9  # type: ignore[misc]


def test_a_view_shows_the_side_s_memory_as_it_stands() -> None:
    """Views share their enemies while the side's memory is unchanged: each change (in
    sight, moved in sight, out of sight, fallen) shows in the next view."""
    game = forced_game(make_scenario([figure("b1", "rifle", (3, 3))],
                                     [figure("r1", "rifle", (21, 21))]), [2, 1])

    def shown() -> dict[str, tuple[float, float, bool, bool]]:
        return {i: (s.x, s.y, s.visible, s.alive) for i, s in game.observe("blue").enemies}

    def memory() -> dict[str, tuple[float, float, bool, bool]]:
        return {i: (s.x, s.y, s.visible, s.alive)
                for i, s in game.state.knowledge["blue"].sightings.items()}

    put(game, "r1", 22, 22)  # behind the house
    assert shown() == memory()
    put(game, "r1", 8, 3)
    assert shown() == memory() == {"r1": (8, 3, True, True)}
    put(game, "r1", 8, 4)
    assert shown() == memory() == {"r1": (8, 4, True, True)}
    put(game, "r1", 22, 22)
    assert shown() == memory() == {"r1": (8, 4, False, True)}
    record_casualty(game.state, game.state.figures["r1"], ("blue",))
    assert shown() == memory() == {"r1": (8, 4, False, False)}
