"""What each order of a rule set looks like, as typed data: its kinds, each kind's forms
(the alternatives a person chooses between, such as a Run to a point or into a section),
and each form's parameters with their type, whether they are required, and a short help.

A rule set declares its kinds once (`RuleSet.order_kinds`); its `order_syntax`, the lines
the terminal shows and completes from, is written from them (`syntax_lines`), and the
browser builds its order controls from the same data (`registry_dict`), so whatever can
be typed can be given by pointing and clicking. The registry describes the shape of an
order, never whether it is allowed now: the rules decide that (`Game.preview`, `apply`).
`fitting_form` tells which form an order's parameters fit, values checked by type only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fibua.core.values import is_number


class ParamType(StrEnum):
    """What a parameter's value is, and so how a page asks for it."""

    POINT = "point"        # a place on the table, [x, y]
    PATH = "path"          # places gone through in turn, [[x, y], ...]
    ENEMY = "enemy"        # an enemy unit's id
    ENEMIES = "enemies"    # several enemy units' ids, [id, ...]
    OWN = "own"            # one of the side's own units' id
    OWNS = "owns"          # several of the side's own units' ids
    SECTION = "section"    # a building section's id
    FLOOR = "floor"        # a floor, 0 the ground floor
    NUMBER = "number"      # a number (`whole`: a whole number)
    FLAG = "flag"          # true or false
    CHOICE = "choice"      # one of fixed words (`choices`)


#: how the terminal's help shows a value of each type, where a parameter names none
SHOWN: dict[ParamType, str] = {
    ParamType.POINT: "X,Y", ParamType.PATH: "[[X,Y],...]", ParamType.ENEMY: "ID",
    ParamType.ENEMIES: "[ID,...]", ParamType.OWN: "ID", ParamType.OWNS: "[ID,...]",
    ParamType.SECTION: "S", ParamType.FLOOR: "N", ParamType.NUMBER: "N",
    ParamType.FLAG: "true",
}

#: the list types, whose `least` bounds their length
LISTS = frozenset({ParamType.PATH, ParamType.ENEMIES, ParamType.OWNS})


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a form. A required flag is always true in its form (`call=true`
    makes a fire an observer's call): a page sets it without asking. `joins`: the units a
    friendly parameter names act in the order beside the unit giving it (an assault's
    `with`), so each may be named where it could give the kind itself with the form's other
    values; the page asks that unit's own legal orders, not the giver's."""

    name: str
    type: ParamType
    help: str
    required: bool = True
    choices: tuple[str, ...] = ()  # a choice's words
    whole: bool = False            # a number that is a whole number
    least: int = 1                 # the fewest items of a list
    most: int = 0                  # the most items of a list (0: no bound)
    shown: str = ""                # the value the terminal's help shows, if not the type's
    default: bool | None = None    # what an optional flag is when not given, if not false
    joins: bool = False            # own units that act in the order beside the unit

    def syntax(self) -> str:
        value = self.shown or ("|".join(self.choices) if self.type is ParamType.CHOICE
                               else "false" if self.default is True else SHOWN[self.type])
        text = f"{self.name}={value}"
        return text if self.required else f"[{text}]"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": str(self.type), "help": self.help,
                "required": self.required, "choices": list(self.choices),
                "whole": self.whole, "least": self.least, "most": self.most,
                "default": self.default, "joins": self.joins}


@dataclass(frozen=True, slots=True)
class Form:
    """One way of giving a kind of order: `name` tells it from the kind's other forms
    ("to", "enter"; empty for a kind with one form), `params` are what it takes."""

    name: str
    params: tuple[Param, ...] = ()
    help: str = ""

    def syntax(self) -> str:
        return " ".join(p.syntax() for p in self.params)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "help": self.help,
                "params": [p.to_dict() for p in self.params]}


@dataclass(frozen=True, slots=True)
class OrderForms:
    """A kind of order: its forms and a plain help. `unit`: whether it names a unit (a
    side's `end` does not). `refused` names the parameters the dispatcher lets through
    only for the rules to refuse with a clearer reason than an unknown parameter (an
    Advance told to enter a building: only a Run enters); no form takes them."""

    kind: str
    help: str
    forms: tuple[Form, ...] = (Form(""),)
    unit: bool = True
    refused: frozenset[str] = field(default_factory=frozenset)

    @property
    def params(self) -> frozenset[str]:
        """Every parameter some form takes."""
        return frozenset(p.name for f in self.forms for p in f.params)

    def syntax(self, noun: str) -> str:
        """The line the terminal shows: `run UNIT to=X,Y | enter=S: help`."""
        head = f"{self.kind} {noun}" if self.unit else self.kind
        forms = " | ".join(s for s in (f.syntax() for f in self.forms) if s)
        return f"{head}{' ' + forms if forms else ''}: {self.help}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "help": self.help, "unit": self.unit,
                "forms": [f.to_dict() for f in self.forms]}


def kinds_of(*kinds: OrderForms) -> dict[str, OrderForms]:
    """A rule set's kinds by name, in the order given (the order the terminal lists)."""
    return {k.kind: k for k in kinds}


def syntax_lines(kinds: Mapping[str, OrderForms], noun: str) -> dict[str, str]:
    """A rule set's `order_syntax`, written from its kinds."""
    return {name: k.syntax(noun) for name, k in kinds.items()}


def registry_dict(ruleset: str, kinds: Mapping[str, OrderForms]) -> dict[str, Any]:
    """The registry as JSON for a page (public: it is the rules' syntax)."""
    return {"ruleset": ruleset, "kinds": [k.to_dict() for k in kinds.values()]}


# ---------------------------------------------------------------- fitting orders to forms


def value_fits(param: Param, value: Any) -> bool:
    """Whether a value is of the parameter's type (and, for a required flag, true)."""
    kind = param.type
    if kind in LISTS:
        if not isinstance(value, list) or len(value) < param.least or \
                (param.most and len(value) > param.most):
            return False
        item = ParamType.POINT if kind is ParamType.PATH else ParamType.ENEMY
        return all(value_fits(Param("", item, ""), v) for v in value)
    if kind is ParamType.POINT:
        return isinstance(value, list) and len(value) == 2 and all(map(is_number, value))
    if kind in (ParamType.ENEMY, ParamType.OWN, ParamType.SECTION):
        return isinstance(value, str) and value != ""
    if kind is ParamType.FLOOR:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind is ParamType.NUMBER:
        return is_number(value) and (not param.whole or isinstance(value, int))
    if kind is ParamType.FLAG:
        return value is True if param.required else isinstance(value, bool)
    return value in param.choices


def fits(form: Form, params: Mapping[str, Any]) -> bool:
    """Whether an order's parameters are one of the form's: every required one there,
    nothing the form does not take, each value of its type."""
    for param in form.params:
        if param.required and param.name not in params:
            return False
    for name, value in params.items():
        taken = form.param(name)
        if taken is None or not value_fits(taken, value):
            return False
    return True


def fitting_form(kind: OrderForms, params: Mapping[str, Any]) -> Form | None:
    """The first of the kind's forms an order's parameters fit, if any."""
    return next((f for f in kind.forms if fits(f, params)), None)

