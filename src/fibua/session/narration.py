"""Events told in plain words, to one side.

Each rule set's events have a phrasebook (`fibua.session.phrases.<rule set>`): for every
event kind a function from the event's data and the side's `Names` to one sentence. The
dice of an event follow it, one plain line a roll (`plain_roll`): the raw faces, what they
count as, the named modifiers, the number needed and whether it was made. The raw data
stays in the log (a "details" switch shows it); nothing a player reads is `key=value` or
JSON, and nothing is said that the event itself does not tell the side.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fibua.battlefield.model import Battlefield
from fibua.core.dice import describe_roll, modifier_pairs
from fibua.core.events import EVERYONE, Event
from fibua.core.ruleset import Result
from fibua.core.values import is_number
from fibua.session.objectives import game_over_headline

Data = Mapping[str, Any]


@dataclass(frozen=True)
class Names:
    """How a side calls the units it knows: its own and the enemies it has seen (from its
    view), by id; `unit` is the table's unit of length ("in" or "cm")."""

    by_id: Mapping[str, str] = field(default_factory=dict)
    unit: str = "in"
    #: the map's sections by id, as a person calls them (from the public map)
    places: Mapping[str, str] = field(default_factory=dict)

    def place(self, section: Any) -> str:
        """A section by its building's name (`Epicerie Lemoine, store`), else its id in
        words."""
        text = str(section)
        return self.places.get(text) or words(text)

    def of(self, ident: Any) -> str:
        """The name of a unit or figure, from its id (the id itself when unknown)."""
        text = str(ident)
        return self.by_id.get(text, text)

    def all(self, idents: Iterable[Any]) -> str:
        """`A, B and C`."""
        return join([self.of(i) for i in idents])

    def length(self, value: Any) -> str:
        """`9.5 in` / `15 cm`."""
        return f"{number(value)} {self.unit}" if is_number(value) else "?"

    @staticmethod
    def from_view(view: Mapping[str, Any], unit: str = "in",
                  places: Mapping[str, str] | None = None) -> Names:
        by_id: dict[str, str] = {}
        for key in ("enemies", "own"):  # own names win over what was seen
            for entry in view.get(key, ()) or ():
                if isinstance(entry, Mapping) and "id" in entry and entry.get("name"):
                    by_id[str(entry["id"])] = str(entry["name"])
        formations = view.get("formations")  # (Street Fighter's platoons and companies)
        for entry in formations if isinstance(formations, list) else ():
            if isinstance(entry, Mapping) and "id" in entry and entry.get("name"):
                by_id.setdefault(str(entry["id"]), str(entry["name"]))
        return Names(by_id, unit, places or {})


Phrase = Callable[[Data, Names], str]


@dataclass(frozen=True)
class Phrasebook:
    """A rule set's sentences, by event kind, and its unit of length."""

    ruleset: str
    unit: str
    phrases: Mapping[str, Phrase]
    #: kinds whose sentence tells all their die does (a draw from the bag: which side's
    #: die came out), so no roll line follows (the details switch still shows it)
    told_rolls: frozenset[str] = frozenset()


_BOOKS: dict[str, Phrasebook] = {}
BUILTIN_BOOKS = {
    "street-fight": "fibua.session.phrases.street_fight",
    "street-fighter": "fibua.session.phrases.street_fighter",
    "house-clearing": "fibua.session.phrases.house_clearing",
    "buildings": "fibua.session.phrases.buildings",
}


def register_phrasebook(book: Phrasebook) -> Phrasebook:
    _BOOKS[book.ruleset] = book
    return book


def phrasebook(ruleset: str) -> Phrasebook | None:
    if ruleset not in _BOOKS and ruleset in BUILTIN_BOOKS:
        importlib.import_module(BUILTIN_BOOKS[ruleset])
    return _BOOKS.get(ruleset)


# -- words ---------------------------------------------------------------------------------


def number(value: Any) -> str:
    """`9.5`, `12`, `0.33` (at most two decimals, no trailing zeros)."""
    if isinstance(value, bool) or not is_number(value):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def join(words: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    words = [w for w in words if w]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: Any, word: str, many: str | None = None) -> str:
    """`1 hit`, `3 hits`."""
    n = int(count) if is_number(count) else 0
    return f"{number(count)} {word if n == 1 else (many or word + 's')}"


def words(kind: str) -> str:
    """An identifier as words: `assault-rifle` -> `assault rifle`."""
    return str(kind).replace("-", " ").replace("_", " ")


def side_noun(side: Any) -> str:
    """A side by its own name: `Germans`, `British`."""
    if side is None or side == "":
        return "Unknown"
    return " ".join(w[:1].upper() + w[1:] for w in words(str(side)).split())


def side_adjective(side: Any) -> str:
    """`German` of `germans`, `British` of `british` (a plural in -ans drops its s)."""
    noun = side_noun(side)
    return noun[:-1] if noun.endswith("ans") else noun


def sentence(text: str) -> str:
    """A capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?:" else text + "."


# -- dice ----------------------------------------------------------------------------------


def is_roll(value: Any) -> bool:
    return isinstance(value, Mapping) and "dice" in value and "faces" in value


def rolls_in(data: Data) -> list[Mapping[str, Any]]:
    """The rolls an event holds, at its top level or in its lists, in order."""
    found: list[Mapping[str, Any]] = []
    for value in data.values():
        if is_roll(value):
            found.append(value)
        elif isinstance(value, list):
            found += [item for item in value if is_roll(item)]
        elif isinstance(value, Mapping):
            found += rolls_in(value)  # (a result that holds its own die)
    return found


DICE_RANGE = re.compile(r"^(?P<dice>[^\[]+)\[(?P<low>\d+)-(?P<high>\d+)\]$")


def _dice_words(dice: str) -> str:
    """`a d6`, `2d6`, `a d3 (a d6 halved)`, `a d10 read 0 to 9` (notation `d10[0-9]`)."""
    ranged = DICE_RANGE.match(dice)
    if ranged is not None:
        return (f"{_dice_words(ranged['dice'])} read {ranged['low']} to "
                f"{ranged['high']}")
    if dice == "d3":
        return "a d3 (a d6 halved)"
    if dice.startswith("d"):
        return f"a {dice}"
    return dice


def plain_roll(raw: Mapping[str, Any]) -> str:
    """`To hit, a d6: rolled 4, +1 cover makes 5; needed 6 or more (base 3, long range +1,
    target down +2): missed.` Every part the record holds is said, in words."""
    faces = [f for f in raw.get("faces", []) if is_number(f)]
    value = raw.get("value")
    dice = str(raw.get("dice", "?"))
    purpose = str(raw.get("purpose", "roll"))
    text = f"{purpose[:1].upper()}{purpose[1:]}, {_dice_words(dice)}: rolled "
    text += " and ".join(number(f) for f in faces) or "?"
    if is_number(value) and faces and sum(faces) != value:
        text += f", counts {number(value)}"
    elif len(faces) > 1:
        text += f", {number(value)} in all"
    mods = modifier_pairs(raw.get("modifiers"))
    if mods:
        text += "".join(f", {v:+d} {name}" for name, v in mods)
        text += f" makes {number(raw.get('total'))}"
    need = raw.get("need")
    if need is not None:
        text += f"; needed {number(need)} or {'less' if raw.get('at_most') else 'more'}"
        basis = modifier_pairs(raw.get("basis"))
        if basis:
            text += " (" + ", ".join(
                f"{name} {v}" if i == 0 and name == "base" else f"{name} {v:+d}"
                for i, (name, v) in enumerate(basis)) + ")"
    success = raw.get("success")
    if success is not None:
        text += ": made it" if success else ": failed"
    return text + "."


# -- the details: an event as its data, for the "details" switch and the logs --------


def rounded(value: Any) -> Any:
    """Floats to at most 2 decimals, inside lists and tables too (for reading, not logs)."""
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    if isinstance(value, Mapping):
        return {k: rounded(v) for k, v in value.items()}
    return value


def short_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        # a list of units or figures: their names (or ids) say enough on one line
        names = [str(v.get("name", v.get("id", v.get("unit", "?")))) for v in value]
        return f"{len(names)}: " + ", ".join(names)
    return json.dumps(rounded(value), separators=(",", ":"), ensure_ascii=False)


def describe_event(event: Event) -> list[str]:
    """An event as lines: `turn N  kind: key=value ...` (unset values and empty lists left
    out: `climbed=[]` says nothing), then one line per roll."""
    plain = {
        key: value
        for key, value in event.data.items()
        if value is not None and value != [] and value != {} and not is_roll(value)
        and not (isinstance(value, list) and any(map(is_roll, value)))
    }
    text = plain.pop("text", None)
    detail = " ".join(f"{key}={short_value(value)}" for key, value in plain.items())
    head = f"turn {event.turn}  {event.kind}"
    if text is not None:
        head += f": {text}"
    if detail:
        head += f" ({detail})" if text is not None else f": {detail}"
    return [head] + [f"    {describe_roll(roll)}" for roll in rolls_in(event.data)]


def audience(event: Event) -> str:
    """Who an event was for: everyone, Control alone, or the sides named."""
    if event.to == EVERYONE:
        return "all"
    return ", ".join(event.to) if event.to else "Control"


def win_text(result: Result) -> str:
    """The outcome in words: "the germans win", or a draw."""
    return game_over_headline(result.winner)


# -- narration -----------------------------------------------------------------------------


def generic(kind: str, data: Data, names: Names) -> str:
    """An event no phrasebook knows, told as plainly as its data allows (no key=value)."""
    subject = next((data[k] for k in ("unit", "figure", "firer", "name") if k in data), None)
    head = words(kind)
    return sentence(f"{head}: {names.of(subject)}" if subject is not None else head)


def headline(event: Event, ruleset: str, names: Names) -> str:
    book = phrasebook(ruleset)
    phrase = book.phrases.get(event.kind) if book is not None else None
    if phrase is None:
        return generic(event.kind, event.data, names)
    return sentence(phrase(event.data, names))


def narrate(event: Event, ruleset: str, names: Names) -> list[str]:
    """An event as a side reads it: one sentence, then one line a die roll."""
    book = phrasebook(ruleset)
    if book is not None and event.kind in book.told_rolls:
        return [headline(event, ruleset, names)]
    return [headline(event, ruleset, names), *(plain_roll(r) for r in rolls_in(event.data))]


def place_names(battlefield: Battlefield) -> dict[str, str]:
    """Each section of the map by its building's name, and the part's own name after it
    where a building has several (`Epicerie Lemoine, store`)."""
    found: dict[str, str] = {}
    for building in battlefield.buildings:
        for section in building.sections:
            part = section.id.removeprefix(building.id).strip("-_")
            several = len(building.sections) > 1 and part
            found[section.id] = f"{building.name}, {words(part)}" if several else building.name
    return found


def names_for(ruleset: str, view: Mapping[str, Any],
              battlefield: Battlefield | None = None) -> Names:
    """The names a side uses, from its view (and the public map's buildings), in the rule
    set's unit of length."""
    book = phrasebook(ruleset)
    places = place_names(battlefield) if battlefield is not None else None
    return Names.from_view(view, book.unit if book is not None else "in", places)


__all__ = [
    "Names",
    "Phrase",
    "Phrasebook",
    "headline",
    "join",
    "names_for",
    "narrate",
    "number",
    "phrasebook",
    "plain_roll",
    "plural",
    "register_phrasebook",
    "rolls_in",
    "sentence",
    "side_adjective",
    "side_noun",
    "words",
]
