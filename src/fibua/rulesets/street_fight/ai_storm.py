"""The storm of a held building: each figure that goes in walks straight into close
combat with a defender its side has seen there. A figure locked in close combat cannot be
fired on, and the one that charges fights at +1: walking in to stand at point-blank before
the defenders' rifles costs far more than fighting them hand to hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import hypot

from fibua.battlefield.model import Position
from fibua.battlefield.sight import SightEngine
from fibua.rulesets.street_fight.actions import leg_blocked
from fibua.rulesets.street_fight.ai_approach import CLEAR, CellGraph, WalksKept, walks
from fibua.rulesets.street_fight.tables import MOVE_NORMAL

#: the longest storming move: a walk, so the figure that charges may still be ordered on
WALK = MOVE_NORMAL - 0.05
#: inches from the defender a charge ends (within the inch of contact)
GAP = 0.6
#: inches of walking a defender already fought by a friend counts against it
CROWD = 1.5


def charge_route(sight: SightEngine, graph: CellGraph, pos: Position,
                 defenders: Sequence[Position], friends: Sequence[Position],
                 kept: WalksKept | None = None) -> list[tuple[float, float]] | None:
    """A walk ending in contact with one of the defenders (on the ground floor): of those
    it reaches, the nearest, each counted dearer for friends already at it; the way as
    cell centres then the spot beside the defender. None if it reaches none."""
    walked, came = walks(graph, pos, WALK, kept)
    best: tuple[float, int, tuple[float, float]] | None = None
    for target in defenders:
        if target.floor != 0:
            continue
        crowd = CROWD * sum(hypot(f.x - target.x, f.y - target.y) <= 1.0 for f in friends)
        for k, d in walked.items():
            cell = graph.positions[k]
            if cell.section != target.section:
                continue
            gap = hypot(cell.x - target.x, cell.y - target.y)
            if gap <= GAP:
                continue
            x = target.x + (cell.x - target.x) * GAP / gap
            y = target.y + (cell.y - target.y) * GAP / gap
            total = d + gap - GAP
            if total > WALK or (best is not None and total + crowd >= best[0]):
                continue
            if any(abs(f.x - x) < CLEAR and abs(f.y - y) < CLEAR for f in friends):
                continue
            if leg_blocked(sight, cell, Position(x, y, cell.section)) is not None:
                continue
            best = (total + crowd, k, (x, y))
    if best is None:
        return None
    _, k, spot = best
    start = graph.cell(pos)
    cells = [k]
    while cells[-1] != start:
        cells.append(came[cells[-1]])
    way = [(graph.positions[c].x, graph.positions[c].y) for c in reversed(cells)]
    return [*way, spot]
