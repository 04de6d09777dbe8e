"""The buildings rule set's events as a player reads them: exact sentences on hand-made
event data for the main kinds, and a sentence for the kinds bundled games rarely show."""

from __future__ import annotations

from typing import Any

import pytest

from fibua.core.dice import Modifier, Roll
from fibua.core.events import Event
from fibua.session.narration import Names, headline, narrate
from fibua.session.phrases.buildings import PHRASES

NAMES = Names({"riley": "7 Section (Cpl Riley)", "stein": "Gruppe Stein",
               "tiger": "Tiger 222 (Ostuf Reimann)", "gun": "6-pounder (Sgt Hale)",
               "hq": "Platoon HQ (Lt Ashby)"})


def told(kind: str, data: dict[str, Any]) -> str:
    return headline(Event(kind, data), "buildings", NAMES)


def d6(purpose: str, face: int, need: int | None = None) -> dict[str, Any]:
    """A d6 roll as recorded: made when the face reaches `need`."""
    return Roll(purpose, "d6", (face,), face, need=need).to_dict()


def test_a_shot_names_firer_weapon_target_range_and_outcome() -> None:
    hit = d6("to hit", 6, 4)
    assert told("to-hit", {"unit": "riley", "target": "stein", "weapon": "lmg",
                           "range": 25.756, "rolls": [hit], "hit": True}) == \
        "The 7 Section (Cpl Riley) fires an LMG at Gruppe Stein from 25.76 in: a hit."
    assert told("to-hit", {"unit": "stein", "target": "riley", "weapon": "rifle",
                           "range": 12, "rolls": [d6("to hit", 2, 4)],
                           "hit": False}) == \
        "Gruppe Stein fires a rifle at 7 Section (Cpl Riley) from 12 in: a miss."


def test_a_shot_past_any_chance_says_so() -> None:
    assert told("to-hit", {"unit": "stein", "target": "riley", "weapon": "smg",
                           "range": 3, "rolls": [], "hit": False}) == \
        "Gruppe Stein fires an SMG at 7 Section (Cpl Riley) from 3 in: no chance of a hit."


def test_a_shot_at_a_building_names_the_section_in_words() -> None:
    assert told("to-hit", {"unit": "gun", "section": "cafe-du-centre", "weapon": "medium-gun",
                           "range": 20.06, "rolls": [d6("to hit", 4, 3)],
                           "hit": True}) == \
        "The 6-pounder (Sgt Hale) fires a medium gun at Cafe du Centre from 20.06 in: a hit."
    assert told("fire-at-building", {"unit": "tiger", "section": "mg-bunker-west",
                                     "floor": 1, "weapons": ["heavy-gun", "mmg", "mmg"]}) \
        == ("Tiger 222 (Ostuf Reimann) fires at the first floor of MG Bunker West with "
            "a heavy gun and 2 MMGs.")


def test_fire_lists_the_weapons_that_reach() -> None:
    assert told("fire", {"unit": "riley", "target": "stein", "advanced": True,
                         "weapons": ["lmg", "smg", "rifle", "rifle", "rifle"]}) == \
        ("The 7 Section (Cpl Riley) fires on the move at Gruppe Stein with an LMG, an SMG "
         "and 3 rifles.")
    assert told("fire", {"unit": "hq", "target": "stein", "advanced": False,
                         "weapons": []}) == \
        "Platoon HQ (Lt Ashby) fires at Gruppe Stein, but no weapon of it can reach."


def test_moves_in_the_open_and_into_a_building() -> None:
    assert told("moved", {"unit": "stein", "section": None, "floor": 0,
                          "to": [[17.62, 35.2]], "length": 3.6}) == \
        "Gruppe Stein moves 3.6 in in the open."
    assert told("moved", {"unit": "hq", "section": "maison-huet", "floor": 1,
                          "to": [[3.0, 20.0]], "length": 2}) == \
        "Platoon HQ (Lt Ashby) moves 2 in, to the first floor of Maison Huet."
    assert told("moved", {"unit": "hq", "section": "maison-huet", "floor": 0,
                          "to": [[3.0, 20.0]], "length": 0.0}) == \
        "Platoon HQ (Lt Ashby) moves to the ground floor of Maison Huet."


def test_casualties_pins_and_destruction_say_why() -> None:
    assert told("casualties", {"unit": "riley", "lost": 1, "left": 9,
                               "why": "shot by Gruppe Stein"}) == \
        "The 7 Section (Cpl Riley) loses 1 model (shot by Gruppe Stein): 9 left."
    assert told("pins", {"unit": "stein", "added": 2, "pins": 3, "why": "HE"}) == \
        "Gruppe Stein takes 2 pins (HE): 3 in all."
    assert told("destroyed", {"unit": "stein", "name": "Gruppe Stein",
                              "why": "buried when cafe-du-centre collapsed"}) == \
        "Gruppe Stein is destroyed: buried when Cafe du Centre collapsed."
    assert told("rout", {"unit": "stein", "pins": 9}) == "Gruppe Stein routs with 9 pins on it."
    assert told("destroyed", {"unit": "stein", "name": "Gruppe Stein",
                              "why": "routed: pins reached its morale"}) == \
        "Gruppe Stein is destroyed: routed, pins reached its morale."
    harm = d6("damage", 5, 4)
    assert told("damage", {"unit": "stein", "roll": harm}) == \
        "The hit on Gruppe Stein does damage."


def test_morale_and_order_tests_say_the_outcome() -> None:
    test = Roll("morale test", "2d6", (4, 6), 10, need=8, at_most=True,
                basis=(Modifier("regular morale", 9), Modifier("pins", -1))).to_dict()
    assert told("morale-test", {"unit": "stein", "roll": test, "passed": False}) == \
        "Gruppe Stein takes a morale test at half strength: it fails."
    assert told("morale-test", {"unit": "stein", "roll": test, "passed": True,
                                "why": "flamethrower"}) == \
        "Gruppe Stein takes a morale test under the flamethrower: it passes and fights on."
    assert told("order-test", {"unit": "riley", "roll": test, "passed": False,
                               "blunder": True}) == \
        "The 7 Section (Cpl Riley) blunders its order test with a double six."
    assert told("order-test", {"unit": "hq", "roll": test, "passed": True,
                               "blunder": False}) == \
        "Platoon HQ (Lt Ashby) passes its order test."
    assert told("down-instead", {"unit": "hq", "why": "failed its order test"}) == \
        "Platoon HQ (Lt Ashby) goes Down instead: it failed its order test."


def test_orders_take_their_article() -> None:
    for kind, said in (("fire", "a Fire"), ("advance", "an Advance"), ("run", "a Run"),
                       ("ambush", "an Ambush"), ("rally", "a Rally"), ("down", "a Down")):
        assert told("order", {"unit": "hq", "name": "Platoon HQ (Lt Ashby)",
                              "order": kind}) == f"Platoon HQ (Lt Ashby) is given {said} order."


def test_the_turn_and_the_bag() -> None:
    assert told("turn", {"turn": 1, "bag": {"british": 7, "germans": 5}}) == \
        "Turn 1 begins: 7 British and 5 German order dice go into the bag."
    die = Roll("order die", "d12", (3,), 3).to_dict()
    assert told("order-die", {"side": "germans", "roll": die,
                              "left": {"british": 7, "germans": 3}}) == \
        "Order die drawn: German. Left in the bag: 7 British and 3 German."
    assert told("order-die", {"side": "british", "roll": die,
                              "left": {"british": 0, "germans": 0}}) == \
        "Order die drawn: British. The bag is now empty."
    assert told("turn-end", {"turn": 4}) == "End of turn 4."
    assert told("extra-turn", {"roll": d6("one more turn", 2, 4),
                               "played": False}) == \
        "The roll for one more turn fails: no extra turn is played."


def test_the_end_names_the_winner_and_the_sides() -> None:
    assert told("game-over", {"winner": "americans",
                              "reason": "a side has no units left: germans has no units left",
                              "scores": {"americans": 2.0, "germans": 0.0}}) == \
        ("Game over: the Americans win (a side has no units left: Germans has no units "
         "left). Objective points: Americans 2 and Germans 0.")
    assert told("game-over", {"winner": None, "reason": "turn limit reached",
                              "scores": {}}) == "Game over: a draw (turn limit reached)."


def test_he_counts_casualties_and_pins() -> None:
    pins = Roll("HE pins", "d3", (5,), 3).to_dict()
    harm = [d6("damage", 5, 4), d6("damage", 1, 4)]
    assert told("he", {"unit": "stein", "template": 2, "under": 2, "pins": pins,
                       "damage": harm}) == \
        "A 2 in HE template falls on Gruppe Stein, over 2 models: 1 casualty and 3 pins."
    hits = Roll("HE hits in the building", "3d6", (6, 5, 2), 13).to_dict()
    assert told("he-in-building", {"section": "forge", "floor": 0, "template": 4,
                                   "unit": None, "hits": hits, "collapsed": True,
                                   "pins": None, "damage": []}) == \
        "HE bursts on the ground floor of Forge: 13 hits, and the building collapses."


def test_a_tank_driving_in_tells_the_nested_damage_die() -> None:
    tank = Roll("tank drives into the building", "d6", (1,), 1,
                (Modifier("heavy-tank damage value", 10),)).to_dict()
    walls = Roll("brick building resists", "3d6", (3, 3, 6), 12).to_dict()
    data = {"unit": "tiger", "section": "cafe-du-centre", "tank": tank, "building": walls,
            "outcome": "building-holds", "penetrating": True,
            "damage": {"roll": d6("vehicle damage", 6), "result": "knocked-out"}}
    assert told("tank-assault-roll", data) == (
        "Tiger 222 (Ostuf Reimann) against Cafe du Centre: 11 to 12, the building holds; "
        "the tank takes damage (a 6 on the damage die) and is knocked out.")


def test_an_assault_round_counts_both_sides() -> None:
    attacks = [d6("damage", 6, 4), d6("damage", 4, 4), d6("damage", 2, 4)]
    lines = narrate(Event("assault-round", {"round": 2, "unit": "riley", "target": "stein",
                                            "attacks": attacks, "back": []}),
                    "buildings", NAMES)
    assert lines[0] == ("Assault, round 2: 7 Section (Cpl Riley) causes 2 casualties, "
                        "Gruppe Stein no casualties back.")
    assert len(lines) == 4  # one line a die


def test_answers_to_fire_and_calls_for_support() -> None:
    assert told("shot-at", {"unit": "stein", "by": "riley", "hit": False}) == \
        "The 7 Section (Cpl Riley) opens fire on Gruppe Stein."
    assert told("shot-at", {"unit": "stein", "by": "gun", "hit": True}) == \
        "Fire from 6-pounder (Sgt Hale) lands on Gruppe Stein."
    assert told("reaction-down", {"unit": "stein"}) == \
        "Gruppe Stein goes Down as the shot comes in."
    assert told("called", {"side": "british", "by": "hq", "kind": "artillery", "turn": 2,
                           "target": None, "section": "maison-ferrand",
                           "point": [34.0, 16.0]}) == \
        ("Platoon HQ (Lt Ashby) calls a barrage on Maison Ferrand, to arrive at the start "
         "of next turn.")
    assert told("kept-down", {"unit": "stein", "roll": d6("kept down", 2), "pins": 1}) == \
        "Gruppe Stein stayed Down all turn and shakes off pins: 1 pin left."


def test_a_refusal_names_the_units_it_holds_by_id() -> None:
    assert told("no-shot", {"unit": "gun", "target": "tiger",
                            "why": "6-pounder (Sgt Hale) cannot see tiger"}) == \
        ("The 6-pounder (Sgt Hale) has no shot at Tiger 222 (Ostuf Reimann): "
         "6-pounder (Sgt Hale) cannot see Tiger 222 (Ostuf Reimann).")


RARE: list[tuple[str, dict[str, Any], str]] = [
    ("flame-hits", {"unit": "stein", "roll": Roll("flame hits", "d6", (4,), 4).to_dict()},
     "The flames engulf Gruppe Stein: 4 hits."),
    ("fire-roll", {"section": "epicerie", "roll": d6("fire", 5, 4)},
     "Epicerie catches fire."),
    ("burning", {"section": "epicerie"}, "Epicerie is ablaze."),
    ("abandons", {"unit": "stein", "section": "epicerie"},
     "Gruppe Stein escapes the fire in Epicerie and goes Down outside."),
    ("bail-out", {"unit": "stein", "from": "tiger"},
     "Gruppe Stein bails out of Tiger 222 (Ostuf Reimann)."),
    ("passengers-fight", {"unit": "stein", "from": "tiger", "assaulter": "riley"},
     "Gruppe Stein, out of Tiger 222 (Ostuf Reimann), fights 7 Section (Cpl Riley)."),
    ("close-assault", {"unit": "tiger", "hit": d6("close assault", 6, 6),
                       "damage": d6("damage", 3, 9)},
     "An attack on Tiger 222 (Ostuf Reimann) hits but does no harm."),
    ("air-strike", {"by": "hq", "roll": d6("air strike", 1), "result": "does-not-come"},
     "The air strike called by Platoon HQ (Lt Ashby) does not come."),
    ("burst", {"section": "eglise", "floor": 2, "rolls": [d6("burst", 4, 4)]},
     "The shell bursts on the second floor of Eglise."),
    ("regrouped", {"unit": "riley", "to": [3.0, 4.0]},
     "The 7 Section (Cpl Riley) regroups after the fight."),
    ("no-regroup", {"unit": "riley", "why": "never into a building"},
     "The 7 Section (Cpl Riley) cannot regroup there and stays: never into a building."),
]


@pytest.mark.parametrize(("kind", "data", "said"), RARE, ids=[k for k, _, _ in RARE])
def test_kinds_the_bundled_games_rarely_show(kind: str, data: dict[str, Any],
                                             said: str) -> None:
    assert kind in PHRASES
    assert told(kind, data) == said


def test_missing_keys_still_make_a_sentence() -> None:
    for kind in PHRASES:
        line = told(kind, {})
        assert line[:1].isupper() and "None" not in line, (kind, line)


def test_leaping_out_is_told_as_the_seed_has_it_in_the_open() -> None:
    names = Names({"gruppe-falk": "Gruppe Falk"})
    lines = narrate(Event("leaps-out", {"unit": "gruppe-falk", "at": [34.0, 15.5]}),
                    "buildings", names)
    assert lines == ["Gruppe Falk leaps out of its building at (34, 15.5), in the open as "
                     "it charges."]
