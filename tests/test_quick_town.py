"""The town of a quick battle (fibua.quick.town): no building in the deployment rows, a
building in every row between them, every section with a ground-floor door to the
outside, openings that do not overlap, and no wall, hedge or footprint on a half unit
(where the computers' walking grids have a cell's middle)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from shapely.geometry import Polygon, box

from fibua.battlefield.model import OpeningKind, Section
from fibua.battlefield.randommap import shared_walls
from fibua.quick.battle import ARMIES
from fibua.quick.town import make_town

PLANS = {name: maker().plan for name, maker in ARMIES.items()}


def outside_walls(section: Section, others: list[Section]) -> set[int]:
    inner = set().union(*(shared_walls(section.footprint, o.footprint) for o in others))
    return set(range(len(section.footprint))) - inner


@pytest.mark.parametrize("ruleset", sorted(PLANS))
def test_town_rows_doors_and_lines(ruleset: str) -> None:
    plan = PLANS[ruleset]
    for seed in range(15):
        town = make_town(seed, plan)
        field = town.battlefield
        rows = {town.lot_of[b.id][1] for b in field.buildings}
        assert rows == set(range(1, plan.lots - 1))
        zones = [Polygon(z) for z in town.zones]
        for building in field.buildings:
            sections = list(building.sections)
            for section in sections:
                shape = Polygon(section.footprint)
                assert not any(shape.intersects(z) for z in zones)
                others = [s for s in sections if s is not section]
                doors = [o for o in section.openings if o.kind is OpeningKind.DOOR
                         and o.floor == 0 and o.wall in outside_walls(section, others)]
                assert doors, (seed, section.id)
                spans = sorted((o.wall, o.floor, o.at - o.width / 2, o.at + o.width / 2)
                               for o in section.openings)
                for a, b in pairwise(spans):
                    assert a[:2] != b[:2] or a[3] <= b[2], (seed, section.id)
                for x, y in section.footprint:
                    assert round(x * 10) % 10 != 5 and round(y * 10) % 10 != 5
        for obstacle in field.obstacles:
            assert all(round(v * 10) % 10 != 5 for p in obstacle.points for v in p)


def test_buildings_stay_inside_their_lots() -> None:
    plan = PLANS["buildings"]
    town = make_town(3, plan)
    for building in town.battlefield.buildings:
        lot = box(*town.lot_rect(town.lot_of[building.id]))
        for section in building.sections:
            assert lot.contains(Polygon(section.footprint))
