"""What the game page draws over the public map, worked out from a side's view alone.

Every function here reads the side's view dict (`Game.view(side)`), the events addressed
to the side, or the scenario's public map; none reads the game state. The layer is plain
JSON: the floors a building has, the state of its sections (burning, rubble) when the view
carries it, markers on the side's own troops (overwatch, aim, observing...), and the
fire the side was told it took, as arrows from where (or the direction) it came, and the
objectives panel: each objective with who holds it as the side knows it (session/holding).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from fibua.battlefield.model import SectionState
from fibua.core.events import Event
from fibua.scenario.schema import Scenario
from fibua.session.holding import objective_panel, panel_dicts

#: fired-on reports drawn: those of this turn and the last
FIRE_TURNS = 2
#: the angle (degrees, counter-clockwise from east, north up the table) of a compass point
COMPASS_DEGREES = {"E": 0.0, "NE": 45.0, "N": 90.0, "NW": 135.0, "W": 180.0, "SW": 225.0,
                   "S": 270.0, "SE": 315.0}
#: section states drawn apart from an intact section
DRAWN_STATES = frozenset(s.value for s in SectionState if s is not SectionState.INTACT)


def floors(scenario: Scenario) -> dict[str, Any]:
    """How many floors the floor switch offers, and each section's (the map is public)."""
    levels = {s.id: s.levels for b in scenario.battlefield.buildings for s in b.sections}
    return {"count": max(levels.values(), default=1), "sections": levels}


def section_states(view: Mapping[str, Any]) -> dict[str, str]:
    """The sections the view says are burning or rubble: `section_states` is a mapping of
    section to state, or a list of {section, state}. No rule set sets one yet; the page
    draws them whenever a view carries them."""
    raw = view.get("section_states")
    pairs: Iterable[tuple[Any, Any]]
    if isinstance(raw, Mapping):
        pairs = raw.items()
    elif isinstance(raw, list):
        pairs = [(item.get("section"), item.get("state")) for item in raw
                 if isinstance(item, Mapping)]
    else:
        return {}
    return {str(section): str(state) for section, state in pairs
            if isinstance(section, str) and str(state) in DRAWN_STATES}


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def unit_marks(unit: Mapping[str, Any], reacting: frozenset[str]) -> list[dict[str, Any]]:
    """The markers one of the side's own units carries, from the fields its rule set puts
    in the view (each rule set names its own states; a field it lacks gives no marker)."""
    marks: list[dict[str, Any]] = []
    watch = unit.get("overwatch")
    if isinstance(watch, Mapping) and all(k in watch for k in ("x", "y", "radius")):
        marks.append({"kind": "overwatch", "label": "overwatch", "x": watch["x"],
                      "y": watch["y"], "radius": watch["radius"]})
    if _positive_int(unit.get("aim")):
        marks.append({"kind": "aim", "label": f"aiming {unit['aim']}"})
    if unit.get("activity") == "observing":
        marks.append({"kind": "observing", "label": "observing"})
    if unit.get("ambush") is True:
        marks.append({"kind": "ambush", "label": "ambush"})
    if unit.get("pinned") is True:
        marks.append({"kind": "pinned", "label": "pinned"})
    if unit.get("ducked") is True:
        marks.append({"kind": "ducked", "label": "ducked back"})
    if unit.get("loading") is True:
        marks.append({"kind": "loading", "label": "feeding the belt"})
    if unit.get("full_cover") is True:
        marks.append({"kind": "cover", "label": "full cover"})
    if unit.get("id") in reacting:
        marks.append({"kind": "react", "label": "may fire at the mover"})
    return marks


def _reacting(view: Mapping[str, Any]) -> frozenset[str]:
    reaction = view.get("reaction")
    if isinstance(reaction, Mapping):
        return frozenset(str(f) for f in reaction.get("firers") or ())
    return frozenset()


def _place(item: Mapping[str, Any]) -> list[float] | None:
    x, y = item.get("x"), item.get("y")
    if isinstance(x, int | float) and isinstance(y, int | float):
        return [float(x), float(y)]
    return None


def fire_reports(view: Mapping[str, Any], events: Iterable[Event]) -> list[dict[str, Any]]:
    """The fire the side's own units took this turn and the last: each with the unit, where
    it is, and where the fire came from (`source`, the firer as the side last saw it) or
    the compass angle of its direction (`bearing`) when that is all the side was told."""
    own = {str(u.get("id")): u for u in view.get("own") or () if isinstance(u, Mapping)}
    seen = {str(e.get("id")): e for e in view.get("enemies") or () if isinstance(e, Mapping)}
    turn = view.get("turn")
    oldest = turn - FIRE_TURNS + 1 if isinstance(turn, int) else 0
    reports: list[dict[str, Any]] = []
    shown: dict[tuple[str, int, Any], dict[str, Any]] = {}

    def report(unit_id: str, when: int, source: list[float] | None, bearing: float | None,
               hits: Any = None) -> None:
        unit = own.get(unit_id)
        place = _place(unit) if unit is not None else None
        if unit is None or place is None or when < oldest:
            return
        if source is None and bearing is None:
            return
        key = (unit_id, when, tuple(source) if source is not None else bearing)
        if key in shown:  # several rounds of one firing: one arrow, counted
            shown[key]["shots"] += 1
            return
        shown[key] = {"unit": unit_id, "x": place[0], "y": place[1],
                      "floor": unit.get("floor", 0), "turn": when, "source": source,
                      "bearing": bearing, "hits": hits, "shots": 1}
        reports.append(shown[key])

    # told with a direction only (the firer may be unseen)
    for item in view.get("fired_on") or ():
        if isinstance(item, Mapping):
            bearing = COMPASS_DEGREES.get(str(item.get("direction")))
            report(str(item.get("unit")), int(item.get("turn") or 0), None, bearing,
                   item.get("hits"))
    # told who fired: the side saw (or was shown) the firer, so its sighting says where from
    for event in events:
        if event.kind not in ("fired-on", "shot") or event.turn < oldest:
            continue
        firer, target = event.data.get("firer"), event.data.get("target")
        if not isinstance(target, str) or target not in own or firer in own:
            continue
        sighting = seen.get(str(firer))
        source = _place(sighting) if sighting is not None else None
        report(target, event.turn, source, None, event.data.get("hits"))
    return reports


def side_layer(scenario: Scenario, view: Mapping[str, Any],
               events: Iterable[Event]) -> dict[str, Any]:
    """Everything the page draws over the map for one side, from its view and events."""
    reacting = _reacting(view)
    marks = {str(u.get("id")): found for u in view.get("own") or ()
             if isinstance(u, Mapping) and (found := unit_marks(u, reacting))}
    side = view.get("side")
    return {"floors": floors(scenario), "sections": section_states(view), "marks": marks,
            "fired_on": fire_reports(view, events),
            "objectives": panel_dicts(objective_panel(
                scenario, side if isinstance(side, str) else None, view))}


def public_layer(scenario: Scenario) -> dict[str, Any]:
    """What a spectator's map draws before the end: the map's floors, and the objectives
    with nobody's holding."""
    return {"floors": floors(scenario), "sections": {}, "marks": {}, "fired_on": [],
            "objectives": panel_dicts(objective_panel(scenario, None, None))}


def revealed(views: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every troop of every side, from each side's own view: told to everyone once the
    game is over."""
    return [{**unit, "side": side} for side, view in views.items()
            for unit in view.get("own") or () if isinstance(unit, Mapping)]


def all_sections(views: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """The section states every side's view carries, together (for the end)."""
    found: dict[str, str] = {}
    for view in views.values():
        found.update(section_states(view))
    return found
