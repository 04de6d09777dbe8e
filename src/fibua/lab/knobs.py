"""Knobs: one number of a scenario the tuner may turn, named and typed.

`--knob NAME=LOW..HIGH` names one of:
- `turns`: the turn limit (`[scenario] turns`);
- `points.N`: the points of the file's Nth `[[victory]]` condition (1 is the first);
- `count.SIDE`: how many of a side's figures (models, or listed units of a formation)
  take the field: the first so many in the file's order, a unit left with none dropped;
- `count.UNIT`: how many of one unit's figures (a Street-Fight or Buildings unit, a House
  Clearing player's group, a Street-Fighter formation's units) take the field, the first
  so many; 0 drops the unit;
- `depth.SIDE`: how deep the side's deployment zone reaches from the table edge it
  stands on: the zone's front moves, and with it every figure, model or place of the side
  standing in the open (not inside a building), so the side sets up nearer the enemy or
  further back.

Every value is a whole number (depth in the table's unit). A count can only take troops
away: there is nothing in the file to add. A knob is checked as it is read: a name the
scenario has no place for, or an end of the range that does not make a valid scenario, is
refused with one line (`InputError`, status 2 at the command line).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from shapely.geometry import Point, Polygon

from fibua.core.errors import InputError, Problem, ScenarioError
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario

OPTION = "--knob"
#: what `--knob` reads: NAME=LOW..HIGH
KNOB_TEXT = re.compile(r"^\s*([a-z][a-z0-9.-]*)\s*=\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
#: the lists of a side's forces that hold its units (Street Fight and Buildings, House
#: Clearing's players, Street Fighter's formations)
GROUP_KEYS = ("units", "players", "formations")
#: the lists of a unit that hold what it fields (figures, models, a formation's units)
MEMBER_KEYS = ("figures", "models", "units")
#: the keys of a side's forces that place something on the table: a point, or a list
#: of them (a preset formation's places, the candidates Control picks among)
PLACE_KEYS = frozenset({"at", "candidates"})
#: the most values a knob's range may hold: a search plays games at a few of them
MAX_VALUES = 200
KNOB_NAMES = "turns, points.N, count.SIDE, count.UNIT, depth.SIDE"


class KnobKind(StrEnum):
    TURNS = "turns"
    POINTS = "points"
    COUNT = "count"
    DEPTH = "depth"


def refusal(message: str) -> InputError:
    return InputError([Problem(OPTION, "", message)])


@dataclass(frozen=True)
class Knob:
    """A knob read against a scenario: what it turns, the range to search, and the value
    the scenario file gives it."""

    kind: KnobKind
    target: str  # the victory number, the side or the unit ("" for turns)
    low: int
    high: int
    current: int
    what: str  # in words, for the messages and the curve's title

    @property
    def name(self) -> str:
        return f"{self.kind}.{self.target}" if self.target else str(self.kind)

    @property
    def text(self) -> str:
        return f"{self.name}={self.low}..{self.high}"

    def values(self) -> list[int]:
        return list(range(self.low, self.high + 1))

    def apply(self, raw: dict[str, Any], value: int) -> dict[str, Any]:
        """A copy of the scenario table with the knob at `value`."""
        out = copy.deepcopy(raw)
        if self.kind is KnobKind.TURNS:
            out["scenario"]["turns"] = value
        elif self.kind is KnobKind.POINTS:
            out["victory"][int(self.target) - 1]["points"] = value
        elif self.kind is KnobKind.COUNT:
            _keep_count(out, self.target, value)
        else:
            _set_depth(out, self.target, value)
        return out

    def scenario(self, base: Scenario, value: int) -> Scenario:
        """The scenario with the knob at `value`, checked as a scenario file is."""
        return scenario_from_dict(self.apply(base.raw, value), f"{base.name} with {self.name}"
                                                               f"={value}")


def parse_knob(scenario: Scenario, text: str) -> Knob:
    """`NAME=LOW..HIGH` read against the scenario; both ends must make valid scenarios."""
    found = KNOB_TEXT.match(text)
    if found is None:
        raise refusal(f"{text!r} is not NAME=LOW..HIGH (e.g. turns=6..14); knobs: "
                      f"{KNOB_NAMES}")
    name, low, high = found.group(1), int(found.group(2)), int(found.group(3))
    if low >= high:
        raise refusal(f"{name}: the range {low}..{high} is empty or one value; give LOW "
                      "below HIGH")
    if high - low + 1 > MAX_VALUES:
        raise refusal(f"{name}: {high - low + 1} values is more than a search takes "
                      f"(at most {MAX_VALUES})")
    kind_name, _, target = name.partition(".")
    try:
        kind = KnobKind(kind_name)
    except ValueError:
        raise refusal(f"no knob {name!r}; knobs: {KNOB_NAMES}") from None
    raw = scenario.raw
    if kind is KnobKind.TURNS:
        knob = _turns(raw, target, low, high)
    elif kind is KnobKind.POINTS:
        knob = _points(raw, target, low, high)
    elif kind is KnobKind.COUNT:
        knob = _count(raw, target, low, high)
    else:
        knob = _depth(raw, target, low, high)
    for value in (low, high):
        _check_value(scenario, knob, value)
    return knob


def _check_value(scenario: Scenario, knob: Knob, value: int) -> None:
    try:
        knob.scenario(scenario, value)
    except ScenarioError as error:
        first = error.problems[0]
        where = f"{first.path}: " if first.path else ""
        more = len(error.problems) - 1
        rest = f" (and {more} more)" if more else ""
        raise refusal(f"{knob.name}={value} does not make a valid {scenario.name}: "
                      f"{where}{first.message}{rest}") from None


# -- turns and points -------------------------------------------------------------------------


def _turns(raw: dict[str, Any], target: str, low: int, high: int) -> Knob:
    if target:
        raise refusal(f"turns takes no part after it (turns.{target}); give turns=LOW..HIGH")
    if low < 1:
        raise refusal(f"turns: a game lasts at least 1 turn, not {low}")
    current = int(raw["scenario"]["turns"])
    return Knob(KnobKind.TURNS, "", low, high, current, "the turn limit")


def _points(raw: dict[str, Any], target: str, low: int, high: int) -> Knob:
    victory = raw.get("victory", [])
    listed = "; ".join(f"{i + 1}: {v.get('side')} {v.get('kind')}"
                       for i, v in enumerate(victory)) or "none"
    if not target.isdigit() or not 1 <= int(target) <= len(victory):
        raise refusal(f"points.N names one of the file's [[victory]] conditions by its "
                      f"number; {raw['scenario']['name']} has: {listed}")
    if low < 0:
        raise refusal(f"points.{target}: points are 0 or more, not {low}")
    condition = victory[int(target) - 1]
    what = (f"the points of victory condition {target} ({condition.get('side')} "
            f"{condition.get('kind')})")
    return Knob(KnobKind.POINTS, target, low, high, int(condition.get("points", 1)), what)


# -- counts -----------------------------------------------------------------------------------


def _groups(side: dict[str, Any]) -> list[dict[str, Any]]:
    """A side's units as the file lists them."""
    forces = side.get("forces", {})
    for key in GROUP_KEYS:
        if isinstance(forces.get(key), list):
            return [g for g in forces[key] if isinstance(g, dict)]
    return []


def _members_key(group: dict[str, Any]) -> str | None:
    for key in MEMBER_KEYS:
        if isinstance(group.get(key), list):
            return key
    return None


def _side_named(raw: dict[str, Any], name: str) -> dict[str, Any] | None:
    for side in raw["sides"]:
        if isinstance(side, dict) and side.get("name") == name:
            found: dict[str, Any] = side
            return found
    return None


def _unit_named(raw: dict[str, Any], ident: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(side, unit) of the unit with this id."""
    for side in raw["sides"]:
        for group in _groups(side):
            if group.get("id") == ident:
                return side, group
    return None


def _side_count(side: dict[str, Any]) -> int:
    return sum(len(g[key]) for g in _groups(side) if (key := _members_key(g)) is not None)


def _count(raw: dict[str, Any], target: str, low: int, high: int) -> Knob:
    sides = [str(s.get("name")) for s in raw["sides"]]
    if not target:
        raise refusal(f"count needs a side or a unit: count.SIDE (sides: {', '.join(sides)}) "
                      "or count.UNIT")
    if low < 0:
        raise refusal(f"count.{target}: a count is 0 or more, not {low}")
    side = _side_named(raw, target)
    if side is not None:
        current = _side_count(side)
        what = f"how many of the {target} side's figures (or models, or units) take the field"
    else:
        found = _unit_named(raw, target)
        units = [str(g.get("id")) for s in raw["sides"] for g in _groups(s)]
        if found is None:
            raise refusal(f"count.{target}: no side or unit {target!r}; sides: "
                          f"{', '.join(sides)}; units: {', '.join(units)}")
        key = _members_key(found[1])
        if key is None:
            raise refusal(f"count.{target}: the unit lists nothing to count (a preset "
                          "formation: count its side instead)")
        current = len(found[1][key])
        what = f"how many of {target}'s {key} take the field"
    if high > current:
        raise refusal(f"count.{target}: a count can only take troops away, and the file "
                      f"fields {current}; give HIGH at most {current}")
    return Knob(KnobKind.COUNT, target, low, high, current, what)


def _keep_count(raw: dict[str, Any], target: str, value: int) -> None:
    side = _side_named(raw, target)
    if side is not None:
        left = value
        for group in _groups(side):
            key = _members_key(group)
            if key is None:
                continue
            group[key] = group[key][:left]
            left -= len(group[key])
        _drop_empty(side)
        return
    found = _unit_named(raw, target)
    assert found is not None, "a knob is read before it is applied"
    owner, group = found
    key = _members_key(group)
    assert key is not None
    group[key] = group[key][:value]
    _drop_empty(owner)


def _drop_empty(side: dict[str, Any]) -> None:
    forces = side["forces"]
    for key in GROUP_KEYS:
        if isinstance(forces.get(key), list):
            forces[key] = [g for g in forces[key]
                           if not (isinstance(g, dict) and (k := _members_key(g)) is not None
                                   and not g[k])]


# -- depth ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Edge:
    """The table edge a deployment zone stands on: the axis its depth runs along (0: x,
    1: y) and the way away from the edge (+1 from the low edge, -1 from the high one)."""

    axis: int
    way: int
    at: float  # the edge's coordinate

    def depth_of(self, point: list[float]) -> float:
        return (point[self.axis] - self.at) * self.way


def _home_edge(raw: dict[str, Any], zone: list[list[float]]) -> _Edge | None:
    """The one table edge the zone touches whose opposite edge it does not."""
    size = (float(raw["map"]["width"]), float(raw["map"]["height"]))
    touching = []
    for axis in (0, 1):
        coords = [float(p[axis]) for p in zone]
        low, high = min(coords) <= 1e-9, max(coords) >= size[axis] - 1e-9
        if low and not high:
            touching.append(_Edge(axis, 1, 0.0))
        if high and not low:
            touching.append(_Edge(axis, -1, size[axis]))
    return touching[0] if len(touching) == 1 else None


def _depth(raw: dict[str, Any], target: str, low: int, high: int) -> Knob:
    sides = [str(s.get("name")) for s in raw["sides"]]
    side = _side_named(raw, target)
    if side is None:
        raise refusal(f"depth needs a side: depth.SIDE (sides: {', '.join(sides)})")
    zone = side.get("deployment")
    if not zone:
        raise refusal(f"depth.{target}: the side has no deployment zone")
    edge = _home_edge(raw, zone)
    if edge is None:
        raise refusal(f"depth.{target}: the zone does not stand on one table edge (it "
                      "touches none, or two that meet or face each other), so it has no "
                      "depth to change")
    if low < 1:
        raise refusal(f"depth.{target}: a zone is at least 1 deep, not {low}")
    current = max(edge.depth_of(p) for p in zone)
    knob = Knob(KnobKind.DEPTH, target, low, high, round(current),
                f"how deep the {target} side's deployment zone reaches")
    for value in knob.values():
        # troops in the open that the zone's front would carry into a building
        _set_depth(copy.deepcopy(raw), target, value)
    return knob


def _places(forces: Any, inside: bool = False) -> Iterator[tuple[list[Any], bool]]:
    """Every point the side's forces give (each as the list holding it), with whether
    its unit is set up inside a building."""
    if isinstance(forces, dict):
        inside = inside or "inside" in forces
        for key, value in forces.items():
            if key in PLACE_KEYS and isinstance(value, list) and value:
                if all(isinstance(v, list) for v in value):
                    yield from ((v, inside) for v in value)
                else:
                    yield value, inside
            else:
                yield from _places(value, inside)
    elif isinstance(forces, list):
        for item in forces:
            yield from _places(item, inside)


def _footprints(raw: dict[str, Any]) -> list[Polygon]:
    return [Polygon(s["footprint"]) for b in raw["map"].get("buildings", [])
            for s in b.get("sections", [])]


def _set_depth(raw: dict[str, Any], target: str, value: int) -> None:
    side = _side_named(raw, target)
    assert side is not None, "a knob is read before it is applied"
    zone = side["deployment"]
    edge = _home_edge(raw, zone)
    assert edge is not None
    shift = (value - max(edge.depth_of(p) for p in zone)) * edge.way
    # the zone keeps its back on the edge; every other corner moves with its front
    side["deployment"] = [
        [p[i] + shift if i == edge.axis and abs(edge.depth_of(p)) > 1e-9 else p[i]
         for i in (0, 1)] for p in zone]
    buildings = _footprints(raw)
    for point, inside in _places(side["forces"]):
        if inside or any(f.covers(Point(point[0], point[1])) for f in buildings):
            continue  # a unit in a building keeps its place in it
        was = list(point)
        point[edge.axis] += shift
        if any(f.covers(Point(point[0], point[1])) for f in buildings):
            raise refusal(f"depth.{target}={value} would carry troops in the open at "
                          f"({was[0]:g}, {was[1]:g}) into a building; give a range that "
                          "keeps them in the open")
