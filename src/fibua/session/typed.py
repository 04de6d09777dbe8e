"""Orders as a person types them: `KIND [UNIT] key=value ...`, read and written back.

Values are JSON, `x,y` pairs, or lists written as help shows them (`[koch,wolf]`: bare words
inside brackets are strings, numbers stay numbers). `format_order` writes what
`parse_order` reads back to the same order. Also the hints a person needs when an order is
mistyped: the parameter names each order takes, and "did you mean ...".
"""

from __future__ import annotations

import difflib
import json
import re
import shlex
from collections.abc import Iterable, Mapping
from typing import Any

from fibua.core.orders import Order
from fibua.core.values import is_number


class OrderSyntaxError(ValueError):
    """A typed order that cannot be read (not a rules question: that is IllegalOrder)."""


#: a word that may stand bare inside brackets (it is read back as the same string)
BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
#: a bare word that JSON would read as something else than a string
JSON_WORDS = frozenset({"true", "false", "null"})


def _bare(token: str) -> Any:
    """A bare item inside brackets: a JSON scalar (number, true...) if it is one, else the
    text itself."""
    try:
        value = json.loads(token)
    except json.JSONDecodeError:
        return token
    return value if not isinstance(value, list | dict) else token


class _ListReader:
    """Reads `[a, "b c", 3, [1,2]]` where items may be bare words (a small recursive
    descent: JSON would refuse the bare words)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def read(self) -> list[Any]:
        value = self._list()
        self._space()
        if self.at != len(self.text):
            raise ValueError(f"unexpected {self.text[self.at:]!r} after the list")
        return value

    def _space(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def _list(self) -> list[Any]:
        self._expect("[")
        items: list[Any] = []
        self._space()
        if self._peek() == "]":
            self.at += 1
            return items
        while True:
            items.append(self._item())
            self._space()
            if self._peek() == ",":
                self.at += 1
                continue
            self._expect("]")
            return items

    def _item(self) -> Any:
        self._space()
        char = self._peek()
        if char == "[":
            return self._list()
        if char == '"':
            value, end = json.JSONDecoder().raw_decode(self.text, self.at)
            self.at = end
            return value
        start = self.at
        while self.at < len(self.text) and self.text[self.at] not in ",[]":
            self.at += 1
        token = self.text[start:self.at].strip()
        if not token:
            raise ValueError("an empty item in the list")
        return _bare(token)

    def _peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def _expect(self, char: str) -> None:
        self._space()
        if self._peek() != char:
            found = repr(self._peek()) if self._peek() else "the end"
            raise ValueError(f"expected {char!r}, found {found}")
        self.at += 1


def parse_value(text: str) -> Any:
    """A parameter value: JSON if it parses, a list with bare words (`[koch,wolf]`), `x,y`
    as a list of numbers, else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if text.startswith("["):
        try:
            return _ListReader(text).read()
        except (ValueError, json.JSONDecodeError) as error:
            raise OrderSyntaxError(f"cannot read the list {text!r}: {error}") from None
    if "," in text:
        try:
            value = json.loads(f"[{text}]")
        except json.JSONDecodeError:
            return text
        if isinstance(value, list):
            return value
    return text


def _quoted(text: str, at: int, quote: str) -> tuple[str, int]:
    """The text of a quoted string starting at `at` (the quote), as a shell reads it, and
    where it ends: single quotes keep everything, double quotes let a backslash escape a
    double quote or a backslash."""
    out: list[str] = []
    i = at + 1
    while i < len(text):
        char = text[i]
        if char == quote:
            return "".join(out), i + 1
        if quote == '"' and char == "\\" and i + 1 < len(text) and text[i + 1] in '"\\':
            i += 1
            char = text[i]
        out.append(char)
        i += 1
    raise OrderSyntaxError("cannot read the order: a quote is not closed")


def _json_string(text: str, at: int) -> int:
    """Where the JSON string starting at `at` ends (inside brackets, kept as it is)."""
    i = at + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    raise OrderSyntaxError("cannot read the order: a quote is not closed")


def split_words(text: str) -> list[str]:
    """Words as a shell splits them, except that spaces inside brackets do not split
    (`targets=[koch, wolf]` is one word) and quotes inside brackets stay for JSON."""
    words: list[str] = []
    word: list[str] = []
    started = False
    depth = 0
    i = 0
    while i < len(text):
        char = text[i]
        if depth == 0 and char.isspace():
            if started:
                words.append("".join(word))
                word, started = [], False
            i += 1
            continue
        started = True
        if depth == 0 and char in "'\"":
            piece, i = _quoted(text, i, char)
            word.append(piece)
            continue
        if depth > 0 and char == '"':
            end = _json_string(text, i)
            word.append(text[i:end])
            i = end
            continue
        if depth == 0 and char == "\\" and i + 1 < len(text):
            word.append(text[i + 1])
            i += 2
            continue
        if char == "[":
            depth += 1
        elif char == "]" and depth > 0:
            depth -= 1
        word.append(char)
        i += 1
    if depth > 0:
        raise OrderSyntaxError("cannot read the order: a [ is not closed by ]")
    if started:
        words.append("".join(word))
    return words


def parse_order(text: str, side: str) -> Order:
    """`KIND [UNIT] key=value ...` as an order of `side` (the kind in any case)."""
    words = split_words(text)
    if not words:
        raise OrderSyntaxError("empty order")
    kind, rest = words[0].lower(), words[1:]
    unit = None
    if rest and "=" not in rest[0]:
        unit, rest = rest[0], rest[1:]
    params: dict[str, Any] = {}
    for word in rest:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise OrderSyntaxError(f"{word!r}: parameters are written key=value")
        if key in params:
            raise OrderSyntaxError(f"parameter {key!r} given twice")
        params[key] = parse_value(value)
    return Order(side, kind, unit, params)


def _bracketed(value: Any) -> str | None:
    """A list written as help shows it (`[koch,wolf]`, `[[1,2],[3,4]]`), or None when an
    item needs JSON (a string with spaces, a string that reads as a number...)."""
    if not isinstance(value, list):
        return None
    items: list[str] = []
    for item in value:
        if isinstance(item, list):
            inner = _bracketed(item)
            if inner is None:
                return None
            items.append(inner)
        elif is_number(item):
            items.append(json.dumps(item))
        elif isinstance(item, str) and BARE_WORD.fullmatch(item) and _bare(item) == item \
                and item not in JSON_WORDS:
            items.append(item)
        else:
            return None
    return "[" + ",".join(items) + "]"


def format_value(value: Any) -> str:
    """A value as it can be typed back: numbers in a list as `x,y`, plain words bare,
    lists of words and numbers in brackets."""
    if isinstance(value, list) and len(value) > 1 and all(is_number(v) for v in value):
        return ",".join(json.dumps(v) for v in value)
    if isinstance(value, str) and parse_value_safe(value) == value \
            and shlex.quote(value) == value:
        return value
    bracketed = _bracketed(value)
    if bracketed is not None and parse_value_safe(bracketed) == value:
        return bracketed
    return shlex.quote(json.dumps(value, separators=(",", ":")))


def parse_value_safe(text: str) -> Any:
    """`parse_value`, with text that does not read as a value answered by None."""
    try:
        return parse_value(text)
    except OrderSyntaxError:
        return None


def format_order(order: Order) -> str:
    """An order in the syntax `parse_order` reads."""
    words = [order.kind]
    if order.unit is not None:
        words.append(order.unit)
    words += [f"{key}={format_value(value)}" for key, value in order.params.items()]
    return " ".join(words)


# -- what an order takes, and suggestions -----------------------------------------------------

PARAMETER = re.compile(r"([a-z][a-z0-9_-]*)=")
#: words in an order's syntax that stand for the unit it orders
UNIT_WORDS = frozenset({"FIGURE", "UNIT"})


def parameter_names(syntax: str) -> list[str]:
    """The parameter names an order's help line shows (`to=X,Y [floor=N]` -> to, floor)."""
    return list(dict.fromkeys(PARAMETER.findall(syntax)))


def needs_unit(syntax: str) -> bool:
    """Whether the help line names a unit right after the kind (`aim FIGURE: ...`)."""
    words = syntax.replace(":", " ").split()
    return len(words) > 1 and words[1] in UNIT_WORDS


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The closest of `choices` to a mistyped word, if one is close enough."""
    options = list(choices)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word.lower(), [o.lower() for o in options], n=1,
                                          cutoff=0.6)
        if close:
            close = [next(o for o in options if o.lower() == close[0])]
    return close[0] if close else None


def order_hints(
    order: Order, syntax: Mapping[str, str], units: Iterable[str]
) -> list[str]:
    """What is probably mistyped in an order: its kind, unit or parameter names, each with
    the closest right word ("did you mean ...")."""
    if order.kind not in syntax:
        guess = did_you_mean(order.kind, syntax)
        if guess is not None:
            return [f"there is no order {order.kind!r}: did you mean {guess}?"]
        return [f"there is no order {order.kind!r}; the orders are {', '.join(syntax)}"]
    hints: list[str] = []
    known_units = list(units)
    if order.unit is not None and order.unit not in known_units:
        guess = did_you_mean(order.unit, known_units)
        if guess is not None:
            hints.append(f"no unit {order.unit!r} of yours: did you mean {guess}?")
    names = parameter_names(syntax[order.kind])
    for key in order.params:
        if key not in names:
            guess = did_you_mean(key, names)
            takes = ", ".join(names) or "no parameters"
            hints.append(f"{order.kind} takes no {key}=" + (f": did you mean {guess}=?"
                                                              if guess else f" ({takes})"))
    return hints
