"""The Street-Fight orders as typed data (core/orderforms.py): what the terminal shows
and the page asks for, written from the parameters `actions.py` reads."""

from __future__ import annotations

from fibua.core.orderforms import Form, OrderForms, Param, ParamType, kinds_of
from fibua.rulesets.street_fight.tables import OVERWATCH_AREA_MAX_RADIUS

_FLOOR = Param("floor", ParamType.FLOOR, "the floor it ends on, inside a building",
               required=False)

ORDER_KINDS: dict[str, OrderForms] = kinds_of(
    OrderForms("move", "up to 5in, or up to 9in running (no fire, no cover, counts as "
                       "moving next turn)", (
        Form("to", (Param("to", ParamType.POINT, "where the figure goes"), _FLOOR),
             "straight to a point"),
        Form("path", (Param("path", ParamType.PATH, "the places it goes through, in turn"),
                      _FLOOR), "along a path of several legs"))),
    OrderForms("overwatch", "stay put and fire at the first enemy moving through or "
                            "shooting from it (radius over 1in: large area)", (
        Form("", (Param("point", ParamType.POINT, "the point watched"),
                  Param("radius", ParamType.NUMBER, "inches round the point watched, up "
                        f"to {OVERWATCH_AREA_MAX_RADIUS:g}", required=False,
                        shown="R"))),)),
    OrderForms("take-cover", "full cover behind 1/2 or 3/4 cover"),
    OrderForms("shoot", "automatic weapons spread fire over several targets", (
        Form("target", (Param("target", ParamType.ENEMY, "the enemy figure fired at"),),
             "at one enemy figure in sight"),
        Form("targets", (Param("targets", ParamType.ENEMIES,
                               "the enemy figures the fire is spread over"),),
             "spread over several (automatic weapons)"))),
    OrderForms("aim", "+10% for each turn spent aiming, up to 3"),
    OrderForms("end", "the side is done with this phase", unit=False),
)
