"""Street Fighter's events as a player reads them: exact sentences for the main kinds, told
from hand-made event data in the shape the rule set emits."""

from __future__ import annotations

from typing import Any

from fibua.core.dice import Modifier, Roll
from fibua.core.events import Event
from fibua.session.narration import Names, narrate

NAMES = Names({"s1": "Section Ivanov", "hq": "Platoon HQ Zaitsev", "t1": "Sherman 1",
               "pak": "Pak 40 Fuchs", "ht": "Halftrack 2"}, "cm")


def told(kind: str, data: dict[str, Any]) -> list[str]:
    return narrate(Event(kind, data), "street-fighter", NAMES)


def d10(purpose: str, face: int, need: int | None = None, at_most: bool = False,
        modifiers: tuple[Modifier, ...] = ()) -> dict[str, object]:
    return Roll(purpose, "d10[0-9]", (face,), face, modifiers, need, at_most).to_dict()


def test_a_shot_says_weapon_range_cover_and_outcome_then_the_die_in_words() -> None:
    roll = d10("Sherman 1 shoots at Pak 40 Fuchs", 7, need=4)
    assert told("shot", {"firer": "t1", "target": "pak", "row": "tank", "range": 24.73,
                         "cover": "open", "roll": roll, "hit": True}) == [
        "Sherman 1 fires its main gun at Pak 40 Fuchs (24.7 cm, in the open): a hit.",
        "Sherman 1 shoots at Pak 40 Fuchs, a d10 read 0 to 9: rolled 7; needed 4 or more: "
        "made it.",
    ]


def test_a_miss_from_a_building() -> None:
    roll = d10("Section Ivanov shoots at Pak 40 Fuchs", 2, need=6)
    assert told("shot", {"firer": "s1", "target": "pak", "row": "infantry", "range": 30.0,
                         "cover": "strong-building", "roll": roll, "hit": False})[0] == (
        "Section Ivanov fires its small arms at Pak 40 Fuchs (30 cm, in a strong building): "
        "a miss.")


def test_fire_that_cannot_harm_says_so() -> None:
    assert told("no-effect", {"firer": "s1", "target": "ht", "row": "mmg"}) == [
        "Section Ivanov fires its machine gun at Halftrack 2, to no effect."]


def test_moves_say_how_far_how_and_where() -> None:
    assert told("moved", {"unit": "t1", "from": [0, 0], "to": [10, 12], "section": None,
                          "cm": 15.62, "activity": "flat-out"}) == [
        "Sherman 1 moves 15.6 cm flat out."]
    assert told("moved", {"unit": "s1", "from": [0, 0], "to": [3, 4], "section": "hall-west",
                          "cm": 5.0, "activity": "moved"}) == [
        "Section Ivanov moves 5 cm into Hall West."]


def test_being_fired_on_gives_the_direction_and_the_hits() -> None:
    assert told("fired-on", {"unit": "s1", "direction": "SW", "hits": 1}) == [
        "Section Ivanov is fired on from the south-west: 1 hit."]
    assert told("fired-on", {"unit": "s1", "direction": "N", "hits": 0}) == [
        "Section Ivanov is fired on from the north: no hits."]


def test_casualties_use_the_name_the_event_gives() -> None:
    assert told("pinned", {"unit": "s1", "again": True}) == ["Section Ivanov is pinned again."]
    assert told("unit-lost", {"unit": "x7", "name": "Gruppe Schulz", "how": "destroyed"}) == [
        "Gruppe Schulz is destroyed."]
    assert told("enemy-out", {"unit": "pak", "name": "Pak 40 Fuchs", "how": "surrendered"}) \
        == ["The enemy's Pak 40 Fuchs surrenders."]


def test_morale_names_the_platoon_from_its_roll_and_says_whether_it_holds() -> None:
    roll = d10("morale of Pak-Zug Rademacher", 1, need=1, at_most=True)
    assert told("morale", {"formation": "pak-zug", "hit_points": 2, "start": 7, "roll": roll,
                           "demoralised": True})[0] == (
        "Pak-Zug Rademacher, down to 2 of its 7 hit points, tests its morale: it is "
        "demoralised.")


def test_unpinning_says_the_outcome_and_the_die_its_modifiers() -> None:
    roll = d10("unpin Section Ivanov", 7, need=8,
               modifiers=(Modifier("HQ unpinned and in sight", 1),))
    assert told("unpin", {"unit": "s1", "roll": roll, "unpinned": True}) == [
        "Section Ivanov rallies: no longer pinned.",
        "Unpin Section Ivanov, a d10 read 0 to 9: rolled 7, +1 HQ unpinned and in sight "
        "makes 8; needed 8 or more: made it.",
    ]


def test_the_turn_and_its_steps() -> None:
    assert told("turn", {"turn": 3}) == ["Turn 3 begins."]
    assert told("orders", {"side": "germans"}) == ["The Germans give their orders."]
    assert told("observation-die", {"formation": "scouts",
                                     "roll": d10("observation: Scout Platoon", 5)}) == [
        "Control rolls the observation die of Scout Platoon for this turn, and keeps it "
        "secret.",
        "Observation: Scout Platoon, a d10 read 0 to 9: rolled 5.",
    ]
    assert told("game-over", {"winner": "british", "reason": "turn limit reached: on "
                              "objectives", "scores": {"british": 5.0, "germans": 1.0}}) == [
        "Game over, turn limit reached, on objectives: the British win; British 5 points "
        "and Germans 1 point."]
    assert told("game-over", {"winner": None, "reason": "a side has no units left",
                              "scores": {}}) == [
        "Game over, a side has no units left: a draw."]


def test_close_assault_from_going_in_to_clearing() -> None:
    assert told("assault", {"side": "soviets", "units": ["s1", "hq"], "section": "kontora",
                            "defended": True}) == [
        "The Soviets close assault Kontora with Section Ivanov and Platoon HQ Zaitsev: it "
        "is defended."]
    roll = d10("close assault: attackers", 4, need=7, modifiers=(Modifier("10 points", 3),))
    assert told("assault-roll", {"side": "soviets", "points": 10, "roll": roll})[0] == (
        "The Soviets fight hand to hand with 10 assault points: they score a hit.")
    assert told("cleared", {"section": "kontora", "units": ["s1"]}) == [
        "Kontora is cleared; Section Ivanov occupies it."]


def test_indirect_fire_drifting_says_which_way() -> None:
    drift = Roll("drift direction (1 = north, clockwise)", "d8", (3,), 3).to_dict()
    lines = told("fire-lands", {"by": "hq", "point": [52.0, 40.0],
                                "roll": d10("artillery called by hq arrives", 3),
                                "drift": drift})
    assert lines[0] == "The fire called by Platoon HQ Zaitsev drifts east and lands at 52, 40."


def test_what_is_seen_and_lost_from_sight() -> None:
    assert told("enemy-seen", {"unit": "pak", "name": "Pak 40 Fuchs", "kind": "at-gun",
                               "x": 48.0, "y": 47.0, "section": None,
                               "activity": "fired"}) == [
        "Enemy seen: Pak 40 Fuchs, an anti-tank gun, at 48, 47, firing."]
    assert told("enemy-lost", {"unit": "pak", "name": "Pak 40 Fuchs", "last_x": 48.0,
                               "last_y": 47.0}) == [
        "Pak 40 Fuchs is lost from sight; last seen at 48, 47."]


def test_a_name_starting_with_a_figure_does_not_open_the_sentence() -> None:
    names = Names({"t1": "2nd Tank Platoon T34 1"}, "cm")
    lines = narrate(Event("pinned", {"unit": "t1"}), "street-fighter", names)
    assert lines == ["The 2nd Tank Platoon T34 1 is pinned."]
    roll = d10("2nd Tank Platoon T34 1 shoots at StuG III Otto", 0, need=4)
    lines = narrate(Event("shot", {"firer": "t1", "target": "stug", "row": "tank",
                                   "range": 92.2, "cover": "open", "roll": roll,
                                   "hit": False}), "street-fighter", names)
    assert lines == [
        "The 2nd Tank Platoon T34 1 fires its main gun at stug (92.2 cm, in the open): a miss.",
        # the roll line is the rolled purpose as the rules wrote it, figures and all
        "2nd Tank Platoon T34 1 shoots at StuG III Otto, a d10 read 0 to 9: rolled 0; "
        "needed 4 or more: failed.",
    ]
