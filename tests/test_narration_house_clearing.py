"""House-Clearing's events as a player reads them: exact sentences for hand-made events of
the main kinds (the turn and its steps, moves, fire, losses, the end), and every sentence
still plain words when its event lacks the optional parts."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fibua.core.dice import Modifier, Roll
from fibua.core.events import Event
from fibua.scenario.loader import load_scenario
from fibua.session.narration import Names, headline, narrate, phrasebook, place_names
from fibua.session.phrases.house_clearing import PHRASES

RULES = "house-clearing"
NAMES = Names({"lane": "Pte. Lane", "kessler": "Uscha. Kessler", "wolf": "Schtz. Wolf",
               "braun": "Gefr. Braun", "cottle": "Pte. Cottle"})
MACHINE = re.compile(r"\w=|[{}\[\]\"]|\bNone\b|\bTrue\b|\bFalse\b|\d\.\d{3}")


def said(kind: str, data: dict[str, Any]) -> str:
    return headline(Event(kind, data, ("british", "germans"), 1), RULES, NAMES)


def _shot(**changes: Any) -> dict[str, Any]:
    shot: dict[str, Any] = {
        "firer": "cottle", "target": "kessler", "range": 8.2, "band": "Half", "row": "rifle",
        "auto": False, "reaction": False, "fifths": 2, "chance": 80, "automatic_hits": 0,
        "extra_chance": 80, "roll": None, "cover": [], "effect": [], "hits": 0,
        "confirmed": 0, "loss": 0}
    shot.update(changes)
    return shot


def test_the_book_is_the_house_clearing_one_in_inches() -> None:
    book = phrasebook(RULES)
    assert book is not None and book.unit == "in" and book.phrases is PHRASES


def test_a_turn_says_who_gives_orders_first() -> None:
    assert said("turn", {"turn": 2, "first": "germans"}) == (
        "Turn 2: the Germans give their orders first in every step.")


def test_a_move_step_and_a_fire_step_say_who_acts() -> None:
    assert said("step", {"phase": "move", "step": 1, "side": "british"}) == (
        "Move phase, step 1: the British may move their figures of initiative 1.")
    assert said("step", {"phase": "fire", "step": 0, "side": "germans"}) == (
        "Fire phase, step 0: the Germans may fire with their figures of initiative 0.")


def test_the_roll_for_first_names_the_winner_or_the_tie() -> None:
    four = Roll("first to move: british", "d6", (4,), 4).to_dict()
    two = Roll("first to move: germans", "d6", (2,), 2).to_dict()
    assert said("first-roll", {"british": four, "germans": two}) == (
        "Rolling to go first: the British 4 and the Germans 2; the British go first.")
    assert said("first-roll", {"british": two, "germans": two}) == (
        "Rolling to go first: the British 2 and the Germans 2, a tie, so both roll again.")


def test_declared_fire_waits_for_both_sides() -> None:
    assert said("fire-declared", {"figure": "wolf", "target": "lane", "auto": True,
                                  "row": "belt-lmg", "loader": "braun"}) == (
        "Schtz. Wolf will fire at Pte. Lane (a burst, as a belt-fed LMG, Gefr. Braun feeding "
        "the belt); it goes off once both sides have declared.")
    assert said("fire-resolved", {"step": 3}) == (
        "The fire declared in step 3 goes off, and its hits all count together.")


def test_a_missed_shot_gives_range_band_cover_and_chance() -> None:
    assert said("shot", _shot()) == (
        "Pte. Cottle fires at Uscha. Kessler (8.2 in, half range, 2/5 showing; chance 80%): "
        "a miss.")


def test_a_hit_the_cover_stops() -> None:
    assert said("shot", _shot(hits=1)) == (
        "Pte. Cottle fires at Uscha. Kessler (8.2 in, half range, 2/5 showing; chance 80%): "
        "1 hit, but the cover saves Uscha. Kessler.")


def test_sure_hits_and_a_burst_at_a_mover() -> None:
    data = _shot(firer="wolf", target="lane", range=1.12, band="Full", auto=True,
                 reaction=True, fifths=5, chance=140, automatic_hits=1, extra_chance=40,
                 hits=2, confirmed=1, loss=3)
    assert said("shot", data) == (
        "Schtz. Wolf fires a burst at Pte. Lane on the move (1.12 in, full range, in full "
        "view; chance 140%, so 1 sure hit and 40% of another): 2 hits, 1 through the cover, "
        "and Pte. Lane loses 3 points of initiative.")


def test_the_target_side_reads_the_shot_without_chance_or_band() -> None:
    seen = {k: v for k, v in _shot(hits=1, confirmed=1, loss=2).items()
            if k not in ("chance", "automatic_hits", "extra_chance", "band", "row")}
    assert said("fired-on", seen) == (
        "Pte. Cottle fires at Uscha. Kessler (8.2 in, 2/5 showing): 1 hit, and Uscha. "
        "Kessler loses 2 points of initiative.")


def test_the_dice_follow_the_shot_one_line_each() -> None:
    d100 = Roll("Pte. Cottle fires at Uscha. Kessler", "d100", (21,), 21, need=80,
                at_most=True, basis=(Modifier("weapon skill", 160),)).to_dict()
    cover = Roll("cover die: Uscha. Kessler shows 2/5", "d6", (2,), 2, need=2,
                 at_most=True).to_dict()
    lines = narrate(Event("shot", _shot(roll=d100, cover=[cover], hits=1, confirmed=1,
                                        loss=1), ("british",), 1), RULES, NAMES)
    assert lines[0].endswith("1 hit, and Uscha. Kessler loses 1 point of initiative.")
    assert lines[1].startswith("Pte. Cottle fires at Uscha. Kessler, a d100: rolled 21")
    assert lines[2].startswith("Cover die: Uscha. Kessler shows 2/5, a d6: rolled 2")
    assert len(lines) == 3


def test_a_move_through_a_window_into_a_room_upstairs() -> None:
    data = {"figure": "lane", "from": [33.5, 12.5], "to": [29.5, 18.5], "floor": 1,
            "section": "corner-b", "stance": "crouching", "share": 0.8508, "inches": 7.66,
            "climbed": ["a window of corner-b", "low wall 'yard-front'", "wall 'yard-wall'"]}
    assert said("moved", data) == (
        "Pte. Lane moves 7.66 in, 0.85 of a move, from (33.5, 12.5) to (29.5, 18.5) in "
        "corner b, on the first floor, climbing through a window of corner b, over the low "
        "wall (yard front) and over the yard wall, and ends crouching.")


def test_a_whole_move_in_the_open() -> None:
    data = {"figure": "lane", "from": [34, 11], "to": [29.23, 18.63], "floor": 0,
            "section": None, "stance": "standing", "share": 0.9998, "inches": 9.0,
            "climbed": []}
    assert said("moved", data) == (
        "Pte. Lane moves 9 in, the whole move, from (34, 11) to (29.23, 18.63), and ends "
        "standing.")


def test_a_move_that_covers_no_ground_changes_floor() -> None:
    data = {"figure": "lane", "from": [25.26, 12.82], "to": [25.26, 12.82], "floor": 0,
            "section": "stenhuis-b", "stance": "crouching", "share": 0.5, "inches": 0.0,
            "climbed": []}
    assert said("moved", data) == (
        "Pte. Lane changes floor, 0.5 of a move, to (25.26, 12.82) in stenhuis b, on the "
        "ground floor, and ends crouching.")


def test_stances_and_a_mover_stopped_or_ducking_back() -> None:
    assert said("stance", {"figure": "lane", "stance": "prone"}) == "Pte. Lane goes prone."
    assert said("stance", {"figure": "lane", "stance": "leaning"}) == "Pte. Lane leans out."
    assert said("stopped", {"figure": "lane", "name": "Pte. Lane"}) == (
        "Pte. Lane is stopped where the shot struck.")
    assert said("ducked-back", {"figure": "lane", "name": "Pte. Lane"}) == (
        "Pte. Lane ducks back to where the move began.")
    assert said("moved-back", {"figure": "lane", "x": 31.38, "y": 16.62, "section": None,
                               "floor": 0, "stance": "standing"}) == (
        "Pte. Lane ends up at (31.38, 16.62), standing.")


def test_losses_as_the_own_side_and_the_enemy_hear_them() -> None:
    assert said("initiative-lost", {"figure": "lane", "lost": 1, "initiative": 0}) == (
        "Pte. Lane loses 1 point of initiative, down to 0: can still fire, but not move.")
    assert said("initiative-lost", {"figure": "lane", "lost": 2, "initiative": -1}) == (
        "Pte. Lane loses 2 points of initiative, down to -1.")
    assert said("enemy-hit", {"figure": "kessler", "name": "Uscha. Kessler", "lost": 3,
                              "out_of_action": True}) == (
        "Uscha. Kessler is hit and loses 3 points of initiative, and is out of action.")
    assert said("out-of-action", {"figure": "kessler", "name": "Uscha. Kessler"}) == (
        "Uscha. Kessler is out of action.")


def test_what_a_side_sees_of_the_enemy() -> None:
    assert said("enemy-seen", {"figure": "kessler", "name": "Uscha. Kessler",
                               "weapon": "assault-rifle", "x": 26.5, "y": 23.0,
                               "section": "corner-b", "floor": 0, "stance": "leaning"}) == (
        "Uscha. Kessler is seen at (26.5, 23) in corner b, on the ground floor, leaning "
        "out, with an assault rifle.")
    assert said("enemy-lost", {"figure": "lane", "name": "Pte. Lane", "last_x": 33.5,
                               "last_y": 12.5}) == (
        "Pte. Lane is out of sight, last seen at (33.5, 12.5).")
    assert said("enemy-glimpsed", {"figure": "lane", "name": "Pte. Lane",
                                   "weapon": "box-lmg", "x": 31.38, "y": 16.62,
                                   "section": None, "floor": 0}) == (
        "Pte. Lane, with a box-fed LMG, is glimpsed at (31.38, 16.62), and is out of "
        "sight again.")
    assert said("reaction", {"mover": "lane", "name": "Pte. Lane",
                             "firers": ["kessler", "braun"], "step": 1}) == (
        "Pte. Lane is seen moving: Uscha. Kessler and Gefr. Braun may fire at the mover.")
    assert said("reaction-over", {"mover": "lane"}) == (
        "The chance to fire at Pte. Lane passes.")


def test_the_set_up_and_the_end() -> None:
    rolled = Roll("initiative of Pte. Lane", "d3", (6,), 3).to_dict()
    assert said("statistic", {"figure": "lane", "name": "Pte. Lane",
                              "statistic": "initiative", "roll": rolled}) == (
        "Pte. Lane's initiative is 3.")
    assert said("deployed", {"side": "british", "figures": [
        {"id": "lane", "name": "Pte. Lane", "weapon": "box-lmg", "player": "p",
         "initiative": 1, "skill": 130},
        {"id": "cottle", "name": "Pte. Cottle", "weapon": "smg", "player": "p",
         "initiative": 3, "skill": 160}]}) == (
        "The British deploy: Pte. Lane (box-fed LMG, initiative 1, skill 130) and "
        "Pte. Cottle (SMG, initiative 3, skill 160).")
    assert said("game-over", {"winner": "germans",
                              "reason": "a side has no figures left in action: british "
                                        "wiped out",
                              "scores": {"british": 0.0, "germans": 2.0}}) == (
        "Game over: the Germans win (a side has no figures left in action, the British "
        "wiped out); points: the British 0 and the Germans 2.")
    assert said("game-over", {"winner": None, "reason": "turn limit reached: draw",
                              "scores": {"british": 1.0, "germans": 1.0}}) == (
        "Game over: a draw (turn limit reached, draw); points: the British 1 and the "
        "Germans 1.")


@pytest.mark.parametrize("kind", sorted(PHRASES))
def test_a_sentence_stays_words_when_its_event_has_no_data(kind: str) -> None:
    text = said(kind, {})
    assert text[:1].isupper() and not MACHINE.search(text), text


def test_a_room_is_named_by_its_house_as_the_map_names_it() -> None:
    """In the browser a sighting read "seen at (26.5, 23) in corner b": a section's id,
    which the map names nowhere. Where the names know the map, the room is its house's
    name and its own part."""
    scenario = load_scenario("ramp-houses")
    names = Names(NAMES.by_id, "in", place_names(scenario.battlefield))
    data = {"figure": "kessler", "name": "Uscha. Kessler", "weapon": "assault-rifle",
            "x": 26.5, "y": 23.0, "section": "corner-b", "floor": 1, "stance": "standing"}
    assert headline(Event("enemy-seen", data, ("british",), 1), RULES, names) == (
        "Uscha. Kessler is seen at (26.5, 23) in The corner house, b, on the first floor, "
        "standing, with an assault rifle.")
