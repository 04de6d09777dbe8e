"""What a player reads of events: plain sentences for every event kind of every rule set,
each die roll in words, no machine text (`key=value`, JSON) and no id where a name is
known."""

from __future__ import annotations

import re

import pytest

from fibua.core.dice import Modifier, Roll
from fibua.core.events import Event
from fibua.session.narration import Names, narrate, phrasebook, plain_roll
from narration_helpers import PACKAGES, emitted_kinds, told

MACHINE = re.compile(r"\w=|[{}\[\]\"]|\bNone\b|\bTrue\b|\bFalse\b|\d\.\d{3}")


def test_a_d3_says_it_is_a_halved_d6() -> None:
    roll = Roll("initiative", "d3", (5,), 3).to_dict()
    assert plain_roll(roll) == "Initiative, a d3 (a d6 halved): rolled 5, counts 3."


def test_a_roll_with_modifiers_and_a_need_reads_through() -> None:
    roll = Roll("to hit", "d6", (4,), 4, (Modifier("cover", 1),), 6,
                basis=(Modifier("base", 3), Modifier("long range", 1),
                       Modifier("target down", 2))).to_dict()
    assert plain_roll(roll) == ("To hit, a d6: rolled 4, +1 cover makes 5; needed 6 or more "
                                "(base 3, long range +1, target down +2): failed.")


def test_a_percentile_roll_says_or_less() -> None:
    roll = Roll("to hit", "d100", (13,), 13, need=30, at_most=True).to_dict()
    assert plain_roll(roll) == "To hit, a d100: rolled 13; needed 30 or less: made it."


def test_names_come_from_the_view_and_ids_stand_in_for_the_unknown() -> None:
    names = Names.from_view({"own": [{"id": "hollis", "name": "Cpl Hollis"}],
                             "enemies": [{"id": "lindner", "name": "Ogfr. Lindner"}]})
    assert names.all(["hollis", "lindner", "x9"]) == "Cpl Hollis, Ogfr. Lindner and x9"


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_event_kind_has_a_sentence(ruleset: str) -> None:
    book = phrasebook(ruleset)
    assert book is not None
    seen = {t.event.kind for t in told(ruleset)}
    missing = sorted((emitted_kinds(ruleset) | seen) - set(book.phrases))
    assert not missing, f"{ruleset}: no sentence for {missing}"


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_no_line_a_player_reads_is_machine_text(ruleset: str) -> None:
    bad: dict[str, str] = {}
    for heard in told(ruleset):
        for line in narrate(heard.event, ruleset, heard.names):
            if MACHINE.search(line) or not (line[:1].isupper() or line[:1].isdigit()):
                bad.setdefault(heard.event.kind, line)
    assert not bad, f"{ruleset}: {bad}"


def test_an_unknown_kind_still_reads_as_words() -> None:
    lines = narrate(Event("weapon-jammed", {"figure": "hollis"}), "street-fight",
                    Names({"hollis": "Cpl Hollis"}))
    assert lines == ["Weapon jammed: Cpl Hollis."]


def test_a_street_fight_phase_with_no_figure_able_to_act_says_it_passes() -> None:
    """A side none of whose figures can act is passed over by the rules: both sides are
    told so, in words, rather than the phase vanishing."""
    lines = narrate(Event("phase-passed", {"phase": "shoot", "side": "germans"}),
                    "street-fight", Names())
    assert lines == ["No German figure can shoot now: the shoot phase passes."]
    found = [t for t in told("street-fight") if t.event.kind == "phase-passed"]
    assert found and {t.side for t in found} == {"british", "germans", "americans"} & {
        t.side for t in told("street-fight")}
