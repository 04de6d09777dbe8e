"""The computers' notes of the map, kept from game to game when a side's notes are
handed over, as the lab does (House Clearing: walks, paces, walks to the objective;
Street-Fight: the cells seen from a place, the approaches under fire): the games are the
very games played without them, and each side keeps its own."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fibua.core.dice import derive_seed
from fibua.core.game import Game, play_out
from fibua.core.ruleset import Notes, kept_notes
from fibua.lab.seats import Seats
from fibua.rulesets.house_clearing.ai import NOTES_KEY, MapNotes, Sergeant, map_notes
from fibua.rulesets.street_fight import ai as street_fight_ai
from fibua.scenario.loader import load_scenario

SEEDS = range(3)


def final_hash(scenario_name: str, seed: int, notes: dict[str, Notes] | None) -> str:
    game = Game(load_scenario(scenario_name), seed)
    players = {side: game.ruleset.computer(
        side, derive_seed(seed, "computer", side),
        notes=None if notes is None else notes.setdefault(side, {}))
        for side in game.scenario.side_names}
    play_out(game, players)
    return game.state_hash()


def house_clearing_notes_filled(found: list[object]) -> bool:
    # every side's walks and paces were kept
    return all(isinstance(n, MapNotes) and len(n.walks) > 50 and len(n.paces) > 50
               and n.to_goal for n in found)


def street_fight_notes_filled(found: list[object]) -> bool:
    # the attackers of the farm make their approach under the MG 42 game after game; at
    # the corner shop no gun is fixed in the objective
    return all(isinstance(n, street_fight_ai.ApproachNotes) for n in found) and any(
        isinstance(n, street_fight_ai.ApproachNotes) and n.seen and n.plans for n in found)


@pytest.mark.parametrize(("scenario_name", "key", "filled"), [
    ("ramp-houses", NOTES_KEY, house_clearing_notes_filled),
    ("oosterbeek-crossroads", NOTES_KEY, house_clearing_notes_filled),
    ("farm-compound", street_fight_ai.NOTES_KEY, street_fight_notes_filled),
    ("corner-shop", street_fight_ai.NOTES_KEY,
     lambda found: all(isinstance(n, street_fight_ai.ApproachNotes) for n in found)),
])
def test_games_with_the_notes_of_earlier_games_are_the_same(
        scenario_name: str, key: str, filled: Callable[[list[object]], bool]) -> None:
    notes: dict[str, Notes] = {}
    kept = [final_hash(scenario_name, seed, notes) for seed in SEEDS]
    fresh = [final_hash(scenario_name, seed, None) for seed in SEEDS]
    assert kept == fresh
    assert filled([side_notes[key] for side_notes in notes.values()])


def test_notes_of_the_wrong_kind_are_made_afresh() -> None:
    notes: Notes = {"k": "not notes"}
    made = kept_notes(notes, "k", MapNotes)
    assert isinstance(made, MapNotes) and notes["k"] is made
    assert kept_notes(notes, "k", MapNotes) is made
    assert kept_notes(None, "k", MapNotes) is not made


def test_a_computer_reads_and_adds_to_the_notes_it_is_handed() -> None:
    notes: Notes = {}
    first = map_notes(notes)
    assert map_notes(notes) is first  # kept in the side's notes
    assert map_notes(None) is not first  # no notes: its own
    notes[NOTES_KEY] = "not notes"  # anything else there is replaced
    assert isinstance(map_notes(notes), MapNotes)
    game = Game(load_scenario("ramp-houses"), 5)
    side = game.scenario.side_names[0]
    play_out(game, {s: Sergeant(s, 1, notes=first if s == side else None)
                    for s in game.scenario.side_names})
    assert first.walks and first.paces


def test_the_lab_hands_each_side_its_own_notes_game_after_game() -> None:
    scenario = load_scenario("ramp-houses")
    seats = Seats(dict.fromkeys(scenario.side_names, "computer"))
    for seed in range(2):
        game = Game(scenario, seed)
        play_out(game, seats(game, seed))
    a, b = (seats.notes[side][NOTES_KEY] for side in scenario.side_names)
    assert isinstance(a, MapNotes) and isinstance(b, MapNotes) and a is not b
    assert a.walks and b.walks
    game = Game(scenario, 7)
    players = seats(game, 7)
    for side, kept in zip(scenario.side_names, (a, b), strict=True):
        player = players[side]
        assert isinstance(player, Sergeant) and player._notes is kept
