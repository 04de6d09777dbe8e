"""The Buildings orders as typed data (core/orderforms.py): what the terminal shows and
the page asks for, written from the parameters `actions.py` and `indirect.py` read."""

from __future__ import annotations

from fibua.core.orderforms import Form, OrderForms, Param, ParamType, kinds_of
from fibua.rulesets.buildings.actions import AMBUSH_POINTS

_TARGET = Param("target", ParamType.ENEMY, "the enemy unit it shoots at")
_SECTION = Param("section", ParamType.SECTION, "the building section")
_CALL = Param("call", ParamType.FLAG, "an observer's call")
_INDIRECT = Param("indirect", ParamType.FLAG, "indirect fire (a mortar's, over the "
                                              "buildings)", required=False)
_OPENING = Param("opening", ParamType.NUMBER, "the opening of its floor (counted from 0) "
                 "its MMG or HMG is assigned to", whole=True, shown="K")
_OPENING_TOO = Param("opening", ParamType.NUMBER, _OPENING.help, required=False, whole=True,
                     shown="K")
_FLOOR = Param("floor", ParamType.FLOOR, "the floor it moves to")
_OTHER_SECTION = Param("section", ParamType.SECTION, "a connected section, on the same "
                                                     "floor", required=False)


def _inside(*more: Param) -> tuple[Form, ...]:
    """The moves inside a building, and the reassignment of a fixed weapon alone."""
    return (
        Form("floor", (_FLOOR, _OTHER_SECTION, *more, _OPENING_TOO),
             "up or down inside its section"),
        Form("section", (Param("section", ParamType.SECTION, "a connected section, on the "
                               "same floor"), *more, _OPENING_TOO),
             "into a connected section"),
        Form("opening", (_OPENING,), "assign its MMG or HMG to an opening, no move"),
    )


ORDER_KINDS: dict[str, OrderForms] = kinds_of(
    OrderForms("fire", "no move, shoot at an enemy unit in sight (mortars always "
                       "indirect); an observer calls an air strike at a unit or a section, "
                       "or a barrage at a point; HE or a flamethrower fires at an empty "
                       "building; inside, a unit divides its fire, one target a side of "
                       "the section", (
        Form("target", (_TARGET, _INDIRECT), "at an enemy unit"),
        Form("targets", (Param("targets", ParamType.ENEMIES, "the enemy units, one a side "
                               "of its section", least=2),),
             "a unit inside divides its fire"),
        Form("section", (_SECTION, Param("floor", ParamType.FLOOR, "the floor fired at "
                                         "(the ground floor if not given)", required=False),
                         _INDIRECT), "at an empty building section"),
        Form("call target", (_TARGET, _CALL), "an air observer calls a strike at a unit"),
        Form("call section", (_SECTION, _CALL), "an air observer calls a strike at a "
                                                "section"),
        Form("call at", (Param("at", ParamType.POINT, "where the barrage falls"), _CALL),
             "an artillery observer calls a barrage"))),
    OrderForms("advance", "move up to the normal rate (inside: one floor or one connected "
                          "section; out from the ground floor), then shoot at -1; a team "
                          "with an MMG or HMG inside may assign it to an opening of its "
                          "floor (alone: no move)", (
        Form("to", (Param("to", ParamType.POINT, "where the unit goes"),
                    Param("target", ParamType.ENEMY, "the enemy unit it shoots at after "
                          "the move", required=False)),
             "to a point outside"),
        *_inside(Param("target", ParamType.ENEMY, "the enemy unit it shoots at after the "
                       "move", required=False))),
        refused=frozenset({"enter"})),
    OrderForms("run", "up to double the rate, no shooting; the only way into a building "
                      "or a transport, or to assault (a winner may regroup, and takes the "
                      "floor it cleared unless take=false)", (
        Form("to", (Param("to", ParamType.POINT, "where the unit goes"),),
             "to a point outside (out of a building or a transport too)"),
        Form("enter", (Param("enter", ParamType.SECTION, "the building section it enters",
                             shown="SECTION"), _OPENING_TOO),
             "into a building by a door or window"),
        Form("mount", (Param("mount", ParamType.OWN, "the transport of yours it boards"),),
             "into a transport"),
        Form("assault", (Param("assault", ParamType.ENEMY, "the enemy unit assaulted"),
                         Param("regroup", ParamType.POINT, "where it regroups if it wins",
                               required=False),
                         Param("take", ParamType.FLAG, "whether a winner takes the floor "
                               "it cleared", required=False, default=True)),
             "close assault an enemy unit"),
        *_inside())),
    OrderForms("ambush", "no move; fire at the first enemy that acts in sight; a mover "
                         "coming into sight is fired at the first, the nearest or the last "
                         "point of its path in sight", (
        Form("", (Param("at", ParamType.CHOICE, "where along a mover's path it fires",
                        required=False, choices=AMBUSH_POINTS),)),)),
    OrderForms("rally", "no move, lose D6 pins"),
    OrderForms("down", "no move, no test; shots at it -2; keep=true keeps its die out of "
                       "the next bag. Also the answer of a unit shot at", (
        Form("", (Param("keep", ParamType.FLAG, "keep its die out of the next bag",
                        required=False),)),)),
    OrderForms("end", "give the drawn die to no order (the first unit without one holds); "
                      "answering a shot, take it without going Down", unit=False),
)
