"""Where a scenario sends each side (public knowledge every player may plan with), and how
its victory conditions score: `victory_points` and `decide`, the rule set adding its own
tie-break."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField, Region
from fibua.battlefield.sight import SightEngine
from fibua.core.ruleset import Result
from fibua.scenario.schema import Scenario, VictorySpec


def objective_region(scenario: Scenario, side: str, enemy: str) -> Region | None:
    """The sections and areas of the side's hold and reach objectives; with none, the
    enemy's deployment zone; None if the scenario names neither."""
    sections: set[str] = set()
    areas = []
    for spec in scenario.victory:
        if spec.side == side and spec.kind in ("hold", "reach"):
            sections.update(spec.sections)
            if spec.zone:
                areas.append(Polygon(spec.zone))
    deployment = scenario.side(enemy).deployment
    if not sections and not areas and deployment:
        areas.append(Polygon(deployment))
    if not sections and not areas:
        return None
    return Region(frozenset(sections), tuple(areas))


def goal_field(scenario: Scenario, side: str, enemy: str, sight: SightEngine,
               passable: Callable[[SightEngine, Position, Position], bool],
               key: str) -> DistanceField | None:
    """Walking distances to the side's `objective_region`, worked out once per scenario
    (the scenario is public) and kept in its memo under `key` (one per rule set: each has
    its own `passable`, whether a unit goes straight from a to b on a given engine). A
    fork of `sight` of its own builds it, not the game's engine."""
    memo = scenario.memo.setdefault(key, {})
    if side not in memo:
        region = objective_region(scenario, side, enemy)
        if region is None:
            memo[side] = None
        else:
            fork = sight.fork()
            memo[side] = DistanceField(fork, region, lambda a, b: passable(fork, a, b))
    found: DistanceField | None = memo[side]
    return found


class Placed(Protocol):
    """A unit (figure, team, vehicle) as scoring reads it: where it stands."""

    @property
    def pos(self) -> Position: ...


def in_objective(unit: Placed, spec: VictorySpec) -> bool:
    """Whether the unit stands in the objective: in one of its sections, or in its zone
    (edges counting as in)."""
    pos = unit.pos
    if pos.section is not None and pos.section in spec.sections:
        return True
    if spec.zone is None:
        return False
    zone, (left, bottom, right, top) = _zone(tuple(spec.zone))
    # most units stand far from a zone: its bounds settle them without Shapely's test
    return (left <= pos.x <= right and bottom <= pos.y <= top
            and zone.covers(ShapelyPoint(pos.point)))


_ZONES: dict[tuple[tuple[float, float], ...],
             tuple[Polygon, tuple[float, float, float, float]]] = {}


def _zone(points: tuple[tuple[float, float], ...]
          ) -> tuple[Polygon, tuple[float, float, float, float]]:
    """An objective's zone as a polygon and its bounds, made once: games score it turn
    after turn."""
    found = _ZONES.get(points)
    if found is None:
        polygon = Polygon(points)
        found = _ZONES[points] = (polygon, polygon.bounds)
    return found


def condition_met(spec: VictorySpec, alive: Mapping[str, Sequence[Placed]]) -> bool:
    """Whether the side of `spec` meets it, given each side's units still able to fight
    (two sides): see `VictorySpec` for each kind."""
    enemy = next(side for side in alive if side != spec.side)
    if spec.kind == "eliminate":
        return not alive[enemy]
    if spec.kind == "survive":
        return bool(alive[spec.side])
    mine = any(in_objective(u, spec) for u in alive[spec.side])
    if spec.kind == "reach":
        return mine
    return mine and not any(in_objective(u, spec) for u in alive[enemy])


def victory_points(victory: Iterable[VictorySpec],
                   alive: Mapping[str, Sequence[Placed]]) -> dict[str, float]:
    """Each side's points from the scenario's conditions it meets."""
    points = {side: 0.0 for side in alive}
    for spec in victory:
        if condition_met(spec, alive):
            points[spec.side] += spec.points
    return points


def decide(reason: str, points: Mapping[str, float], won_on: str,
           tiebreak: Mapping[str, float], tie_won_on: str) -> Result:
    """The result of two sides' points: more points win (`reason: won_on`); equal points
    go to the side ahead on the rule set's tie-break (`reason: tie_won_on`); else a draw.
    The result carries the points."""
    a, b = points
    scores = dict(points)
    if points[a] != points[b]:
        return Result(a if points[a] > points[b] else b, f"{reason}: {won_on}", scores)
    if tiebreak[a] != tiebreak[b]:
        return Result(a if tiebreak[a] > tiebreak[b] else b, f"{reason}: {tie_won_on}",
                      scores)
    return Result(None, f"{reason}: draw", scores)
