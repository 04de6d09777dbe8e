"""House Clearing's computer keeps its notes of the map (walks, paces, walks to the
objective) from game to game when handed a side's notes, as the lab does: the games are
the very games played without them, and each side keeps its own."""

from __future__ import annotations

import pytest

from fibua.core.dice import derive_seed
from fibua.core.game import Game, play_out
from fibua.core.ruleset import Notes
from fibua.lab.seats import Seats
from fibua.rulesets.house_clearing.ai import NOTES_KEY, MapNotes, Sergeant, map_notes
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


@pytest.mark.parametrize("scenario_name", ["ramp-houses", "oosterbeek-crossroads"])
def test_games_with_the_notes_of_earlier_games_are_the_same(scenario_name: str) -> None:
    notes: dict[str, Notes] = {}
    kept = [final_hash(scenario_name, seed, notes) for seed in SEEDS]
    fresh = [final_hash(scenario_name, seed, None) for seed in SEEDS]
    assert kept == fresh
    # the later games had notes to read: every side's walks and paces were kept
    for side_notes in notes.values():
        found = side_notes[NOTES_KEY]
        assert isinstance(found, MapNotes)
        assert len(found.walks) > 50 and len(found.paces) > 50 and found.to_goal


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
