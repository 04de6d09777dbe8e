"""The House-Clearing orders as typed data (core/orderforms.py): what the terminal shows
and the page asks for, written from the parameters `actions.py` reads."""

from __future__ import annotations

from fibua.core.orderforms import Form, OrderForms, Param, ParamType, kinds_of
from fibua.rulesets.house_clearing.movement import MOST_WAYPOINTS
from fibua.rulesets.house_clearing.tables import Stance

STANCES = tuple(str(s) for s in Stance)

_FLOOR = Param("floor", ParamType.FLOOR, "the floor it ends on, inside a building",
               required=False)
_STANCE = Param("stance", ParamType.CHOICE, "how it stands when the move ends",
                required=False, choices=STANCES, shown="S")

ORDER_KINDS: dict[str, OrderForms] = kinds_of(
    OrderForms("move", "in its initiative step; 9in open/road, 6in on a plot, 3in inside; "
                       "climbing and windows cost half a move, walls taller than the "
                       "figure a whole move", (
        Form("to", (Param("to", ParamType.POINT, "where the figure goes"), _FLOOR, _STANCE),
             "straight to a point"),
        Form("path", (Param("path", ParamType.PATH, "the places it goes through, in turn",
                            most=MOST_WAYPOINTS), _FLOOR, _STANCE),
             "along a path of several legs"))),
    OrderForms("stance", "instead of moving", (
        Form("", (Param("stance", ParamType.CHOICE, "how the figure stands",
                        choices=STANCES),)),)),
    OrderForms("fire", "in its fire step, or at a moving enemy of lower initiative when "
                       "offered", (
        Form("", (Param("target", ParamType.ENEMY, "the enemy figure fired at"),
                  Param("auto", ParamType.FLAG, "fire the automatic weapon on automatic",
                        required=False),
                  Param("loader", ParamType.OWN, "a figure of yours feeding the belt",
                        required=False))),)),
    OrderForms("end", "the side is done with this step (or lets the mover go)", unit=False),
)
