"""Who holds each objective, as one side may know it: read from the side's view alone.

A side knows where its own troops are, and where it saw enemies: in sight now, or when
last seen. So its own presence at a place is certain, an enemy's is certain only while in
sight, and a place with no troop of its own and no enemy seen there may still hold
enemies it has not seen. Nothing here reads a game's state: the answer is the same for
any two games whose views are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fibua.battlefield.model import Battlefield, Position
from fibua.scenario.objectives import in_objective
from fibua.scenario.schema import Scenario, VictorySpec
from fibua.session.objectives import Objective, Place, objective_places, objectives

#: statuses the rule sets' views give a troop out of the fight (it holds nothing)
OUT_STATUSES = frozenset({"casualty", "out of action", "destroyed", "surrendered"})


class Holding(StrEnum):
    """A place's holder as the side knows it."""

    YOURS = "yours"  # own troops there, no enemy seen there now
    CONTESTED = "contested"  # own troops and an enemy in sight there
    ENEMY = "enemy"  # an enemy in sight there, no own troop
    ENEMY_LAST_SEEN = "enemy-last-seen"  # no own troop; an enemy was last seen there
    NOBODY_KNOWN = "nobody-known"  # no own troop, no enemy seen there
    UNKNOWN = "unknown"  # no side's view read (a spectator before the end)
    HELD = "held"  # once the game is over: one side's troops alone are there
    NOBODY = "nobody"  # once the game is over: nobody's troops are there
    NO_PLACE = "no-place"  # an objective with no place to hold (eliminate, survive)


@dataclass(frozen=True, slots=True)
class Aim:
    """One side's victory condition at a place (or anywhere, for eliminate and survive)."""

    side: str
    kind: str
    points: int
    description: str


@dataclass(frozen=True, slots=True)
class ObjectiveStatus:
    """A line of the objectives panel: `key` the map's symbol ("" for an objective with no
    place), `name` the place, `holding` and `holder` (a side's name, or "") as the side
    knows them, `seen_turn` the turn an enemy was last seen there when not in sight."""

    key: str
    name: str
    aims: tuple[Aim, ...]
    holding: Holding
    holder: str = ""
    seen_turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "holding": self.holding.value,
                "holder": self.holder, "seen_turn": self.seen_turn,
                "aims": [{"side": a.side, "kind": a.kind, "points": a.points,
                          "description": a.description} for a in self.aims]}


@dataclass(frozen=True, slots=True)
class _Placed:
    pos: Position


def _placed(item: Mapping[str, Any]) -> _Placed | None:
    x, y, section = item.get("x"), item.get("y"), item.get("section")
    if not isinstance(x, int | float) or not isinstance(y, int | float):
        return None
    return _Placed(Position(float(x), float(y), section if isinstance(section, str) else None))


def in_the_fight(unit: Mapping[str, Any]) -> bool:
    """Whether one of the side's own troops still counts (its view's status says so)."""
    return (str(unit.get("status", "")) not in OUT_STATUSES and unit.get("alive") is not False
            and unit.get("destroyed") is not True)


def place_name(battlefield: Battlefield, place: Place) -> str:
    """The buildings a place's sections belong to, or the area of its zone."""
    names: list[str] = []
    for section in place.sections:
        building = next((b.name for b in battlefield.buildings
                         if any(s.id == section for s in b.sections)), section)
        if building not in names:
            names.append(building)
    if place.zone:
        xs, ys = [p[0] for p in place.zone], [p[1] for p in place.zone]
        names.append(f"the area x {min(xs):g}-{max(xs):g}, y {min(ys):g}-{max(ys):g}")
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _aims(found: Iterable[Objective]) -> tuple[Aim, ...]:
    return tuple(Aim(o.side, o.kind, o.points, o.description) for o in found)


def _spec(place: Place) -> VictorySpec:
    """A condition standing for the place (`in_objective` reads its sections and zone)."""
    return VictorySpec(side=place.aims[0].side, kind="hold", sections=list(place.sections),
                       zone=list(place.zone) or None)


def _own_there(spec: VictorySpec, view: Mapping[str, Any]) -> bool:
    """Whether any of the view's own troops still in the fight stands in the place."""
    return any(in_objective(p, spec) for u in view.get("own") or ()
               if isinstance(u, Mapping) and in_the_fight(u) and (p := _placed(u)))


Known = tuple[Holding, str, int | None]


def holding(place: Place, side: str, enemy: str, view: Mapping[str, Any]) -> Known:
    """Who holds the place as the side's view tells it: the holding, the holder's side
    (or ""), and the turn an enemy was last seen there when it is not in sight now."""
    spec = _spec(place)
    seen_now, seen_turns = False, []
    for e in view.get("enemies") or ():
        if not isinstance(e, Mapping) or e.get("alive") is False:
            continue
        placed = _placed(e)
        if placed is None or not in_objective(placed, spec):
            continue
        if e.get("visible_now") is True:
            seen_now = True
        elif isinstance(e.get("seen_turn"), int):
            seen_turns.append(int(e["seen_turn"]))
    if _own_there(spec, view):
        return (Holding.CONTESTED, "", None) if seen_now else (Holding.YOURS, side, None)
    if seen_now:
        return Holding.ENEMY, enemy, None
    if seen_turns:
        return Holding.ENEMY_LAST_SEEN, enemy, max(seen_turns)
    return Holding.NOBODY_KNOWN, "", None


def final_holding(place: Place, views: Mapping[str, Mapping[str, Any]]) -> Known:
    """Who holds the place once the game is over, from every side's own troops."""
    spec = _spec(place)
    there = [side for side, view in views.items() if _own_there(spec, view)]
    if len(there) == 1:
        return Holding.HELD, there[0], None
    return (Holding.CONTESTED if there else Holding.NOBODY), "", None


def _panel(scenario: Scenario, known: Callable[[Place], Known]) -> list[ObjectiveStatus]:
    """The places first (keyed as the map marks them), each with `known(place)`, then the
    objectives with no place."""
    out = [ObjectiveStatus(place.key, place_name(scenario.battlefield, place),
                           _aims(place.aims), *known(place))
           for place in objective_places(scenario)]
    for objective in objectives(scenario):
        if not objective.sections and not objective.zone:
            # its description (the file's, else the kind in a few words) names it
            out.append(ObjectiveStatus("", objective.description.rstrip("."),
                                       _aims([objective]), Holding.NO_PLACE))
    return out


def objective_panel(scenario: Scenario, side: str | None,
                    view: Mapping[str, Any] | None) -> list[ObjectiveStatus]:
    """Every objective of the scenario for the panel, with who holds each place as
    `side`'s view tells it (UNKNOWN without a view)."""
    if side is None or view is None:
        return _panel(scenario, lambda place: (Holding.UNKNOWN, "", None))
    enemy = next((s for s in scenario.side_names if s != side), "")
    return _panel(scenario, lambda place: holding(place, side, enemy, view))


def final_panel(scenario: Scenario, views: Mapping[str, Mapping[str, Any]]
                ) -> list[ObjectiveStatus]:
    """The objectives once the game is over, when every side's troops are everyone's
    (`views`: every side's view)."""
    return _panel(scenario, lambda place: final_holding(place, views))


def panel_dicts(statuses: Sequence[ObjectiveStatus]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in statuses]
