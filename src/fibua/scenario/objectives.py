"""Where a scenario sends each side: public knowledge every player may plan with."""

from __future__ import annotations

from shapely.geometry import Polygon

from fibua.battlefield.navigation import Region
from fibua.scenario.schema import Scenario


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
