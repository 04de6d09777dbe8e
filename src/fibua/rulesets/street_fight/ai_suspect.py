"""The fire the computer fears from buildings it has not yet looked into: before the
defenders show themselves, any window or door of a building near the enemy's deployment
may hide a rifle or a machine gun. The ground those openings overlook is public (the map),
where the defenders stand is not; the approach under a fixed gun (ai_approach) weighs this
feared fire with the gun's on the first turns, so the attack does not run into the sight of
a weapon it has not met yet.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import hypot

import numpy as np
import numpy.typing as npt

from fibua.battlefield.model import Position, Section
from fibua.battlefield.sight import SightEngine, per_map
from fibua.rulesets.street_fight.ai_approach import MAX_STEPS, CellGraph, chances
from fibua.rulesets.street_fight.tables import WEAPONS, WeaponName

#: inches from the centre of the enemy's deployment within which a building may hide them
SUSPECT_REACH = 12.0
#: inches inside an opening where a hidden defender is taken to stand
INSET = 0.5
#: the weapon a hidden defender is feared to have: the worst the defenders commonly field
FEARED = WeaponName.LMG


def openings_inside(section: Section) -> Iterator[Position]:
    """A place just inside each opening of the section, on the opening's floor (a
    footprint runs anticlockwise, so its inside lies to the left of each wall)."""
    for opening in section.openings:
        (x0, y0), (x1, y1) = section.opening_segment(opening)
        length = hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        yield Position(cx + INSET * nx, cy + INSET * ny, section.id, opening.floor)


def suspect_sections(sight: SightEngine, enemy_zone: Position) -> tuple[str, ...]:
    """The building sections whose middle lies within reach of the enemy's deployment."""
    found = []
    for section_id in sight.battlefield.section_ids:
        points = sight.battlefield.section(section_id).footprint
        mx = sum(p[0] for p in points) / len(points)
        my = sum(p[1] for p in points) / len(points)
        if hypot(mx - enemy_zone.x, my - enemy_zone.y) <= SUSPECT_REACH:
            found.append(section_id)
    return tuple(found)


@per_map(key=lambda graph, sections: (id(graph), sections))
def feared(sight: SightEngine, graph: CellGraph, sections: tuple[str, ...]
           ) -> npt.NDArray[np.float64]:
    """For each cell, the greatest chance that a feared weapon behind one opening of the
    sections removes a figure standing there in the open in one shoot phase."""
    worst = np.zeros(len(graph.positions), dtype=np.float64)
    xy = graph.places.xy
    chance = chances(FEARED)
    for section_id in sections:
        for pos in openings_inside(sight.battlefield.section(section_id)):
            seen = sight.visible_row(pos, graph.places)
            if not seen.any():
                continue
            ranges = np.hypot(xy[:, 0] - pos.x, xy[:, 1] - pos.y)
            steps = np.minimum(np.ceil(ranges / WEAPONS[FEARED].increment), MAX_STEPS)
            here = np.where(seen, chance[steps.astype(np.int64)], 0.0)
            np.maximum(worst, here, out=worst)
    return worst
