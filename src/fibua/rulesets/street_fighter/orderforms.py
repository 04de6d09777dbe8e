"""The Street Fighter orders as typed data (core/orderforms.py): what the terminal shows
and the page asks for, written from the parameters `actions.py` reads."""

from __future__ import annotations

from fibua.core.orderforms import Form, OrderForms, Param, ParamType, kinds_of

_TO = Param("to", ParamType.POINT, "where the unit goes")
_PATH = Param("path", ParamType.PATH, "the places it goes through, in turn")
_TARGET = Param("target", ParamType.ENEMY, "the enemy unit it fires at")
_ROCKET = Param("weapon", ParamType.CHOICE, "fire its rocket launcher instead",
                required=False, choices=("rocket",))


def _moves(*more: Param) -> tuple[Form, ...]:
    return (Form("to", (_TO, *more), "straight to a point"),
            Form("path", (_PATH, *more), "along a path of several legs"))


ORDER_KINDS: dict[str, OrderForms] = kinds_of(
    OrderForms("move", "the full move (tanks, halftracks 8cm, infantry 5cm, guns 2cm, "
                       "lorries 10cm), no firing", _moves()),
    OrderForms("move-fire", "half a move, then fire with low effect (-4)",
               _moves(_TARGET, _ROCKET)),
    OrderForms("shoot", "fire with maximum effect, no move; indirect fire at a point: "
                        "mortars, and HQs call the artillery", (
        Form("target", (_TARGET, _ROCKET), "direct fire at an enemy unit in sight"),
        Form("point", (Param("point", ParamType.POINT, "where the shells fall"),),
             "indirect fire at a point"))),
    OrderForms("assault", "close assault a building area within a move (infantry only; "
                          "clearing takes the whole action)", (
        Form("", (Param("section", ParamType.SECTION, "the building area assaulted",
                        shown="ID"),
                  Param("with", ParamType.OWNS, "other units of yours that join in",
                        required=False, joins=True))),)),
    OrderForms("mount", "climb into a vehicle within 5cm", (
        Form("", (Param("vehicle", ParamType.OWN, "the vehicle of yours it climbs into"),)),)),
    OrderForms("dismount", "get out, within 5cm of the vehicle", (
        Form("", (Param("to", ParamType.POINT, "where it gets out (beside the vehicle "
                                               "if not given)", required=False),)),)),
    OrderForms("observe", "watch (the better observation table) until its next action"),
    OrderForms("flat-out", "double move, no fire, sees nothing", _moves()),
    OrderForms("end", "the side (or this commander) has given its orders for the turn",
               unit=False),
)
