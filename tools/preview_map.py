"""Render a scenario's map, deployment zones and figures to a PNG, to look at while editing.

    .venv/bin/python tools/preview_map.py corner-shop /tmp/corner-shop.png

The first argument is a scenario file or a bundled scenario name. Needs matplotlib, which
is not a dependency of fibua: `pip install matplotlib` into the venv first. Only the common
schema is used (no rule set), so it works on files whose forces are still wrong.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

from fibua.scenario.loader import bundled_scenarios
from fibua.scenario.schema import Scenario

TERRAIN_COLOURS = {
    "open": "#dfe8c8",
    "road": "#b9b4aa",
    "rough": "#a9c48a",
    "rubble": "#a08c76",
    "plot": "#e8dfc8",
}
OBSTACLE_STYLES: dict[str, dict[str, Any]] = {
    "high-wall": {"color": "#5a4a3a", "linewidth": 4},
    "low-wall": {"color": "#8a7a6a", "linewidth": 2.5, "linestyle": (0, (4, 1))},
    "hedge": {"color": "#2f6b2a", "linewidth": 5},
    "fence": {"color": "#7a5a2a", "linewidth": 1.5, "linestyle": ":"},
}
SIDE_COLOURS = ["#c0392b", "#2c3e94", "#8e44ad", "#16a085"]


def _read(name: str) -> tuple[Scenario, dict[str, Any]]:
    path = Path(name)
    if not path.exists():
        path = bundled_scenarios()[name]
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return Scenario.model_validate(raw), raw


def render(name: str, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Polygon as Patch

    scenario, raw = _read(name)
    field = scenario.battlefield
    width, height = field.table.width, field.table.height
    fig, ax = plt.subplots(figsize=(12, 12 * height / width))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.set_facecolor(TERRAIN_COLOURS["open"])
    ax.set_title(f"{scenario.scenario.title} ({width:g} x {height:g} {field.table.unit})")

    for area in field.terrain:
        colour = "#d6d2c8" if "pavement" in area.id else TERRAIN_COLOURS[area.kind]
        ax.add_patch(Patch(area.polygon, closed=True, facecolor=colour, edgecolor="none",
                           zorder=1))
        cx = sum(p[0] for p in area.polygon) / len(area.polygon)
        cy = sum(p[1] for p in area.polygon) / len(area.polygon)
        if area.kind != "road":
            ax.text(cx, cy, area.id, fontsize=6, ha="center", color="#444", zorder=2)

    for i, side in enumerate(scenario.sides):
        if side.deployment:
            ax.add_patch(Patch(side.deployment, closed=True, fill=False, hatch="//",
                               edgecolor=SIDE_COLOURS[i], linewidth=0.8, alpha=0.5, zorder=2))

    for obstacle in field.obstacles:
        xs, ys = zip(*obstacle.points, strict=True)
        ax.plot(xs, ys, zorder=4, solid_capstyle="butt", **OBSTACLE_STYLES[obstacle.kind])

    for building in field.buildings:
        for section in building.sections:
            shade = "#6d6d6d" if section.floors > 1 else "#9a9a9a"
            ax.add_patch(Patch(section.footprint, closed=True, facecolor=shade,
                               edgecolor="black", linewidth=1.5, zorder=5))
            cx = sum(p[0] for p in section.footprint) / len(section.footprint)
            cy = sum(p[1] for p in section.footprint) / len(section.footprint)
            ax.text(cx, cy, f"{section.id}\n{section.floors} fl", fontsize=6, ha="center",
                    va="center", color="white", zorder=6)
            for opening in section.openings:
                (x0, y0), (x1, y1) = section.opening_segment(opening)
                colour = "#f5d76e" if opening.kind == "door" else "#7fd3ff"
                lw = 5 if opening.floor == 0 else 2.5
                ax.plot([x0, x1], [y0, y1], color=colour, linewidth=lw, zorder=7,
                        solid_capstyle="butt")
        for a, b in building.connections:
            pa = field.section(a).footprint
            pb = field.section(b).footprint
            ca = (sum(p[0] for p in pa) / len(pa), sum(p[1] for p in pa) / len(pa))
            cb = (sum(p[0] for p in pb) / len(pb), sum(p[1] for p in pb) / len(pb))
            ax.plot([ca[0], cb[0]], [ca[1], cb[1]], color="white", linewidth=0.8,
                    linestyle="--", zorder=6)

    for i, side in enumerate(raw.get("sides", [])):
        for unit in side.get("forces", {}).get("units", []):
            # Buildings units list bare `models`, their floor given once for the unit
            inside = unit.get("inside", {})
            for k, figure in enumerate(unit.get("figures", []) or unit.get("models", [])):
                x, y = figure["at"]
                floor = figure.get("floor", inside.get("floor", 0))
                ax.plot(x, y, marker="^" if floor else "o", markersize=7,
                        color=SIDE_COLOURS[i], markeredgecolor="white", zorder=9)
                if "id" not in figure and k:
                    continue  # a unit's models: its name once
                name = figure.get("id", unit["id"])
                weapon = figure.get("weapon", unit.get("type", ""))
                label = f"{name} {weapon}" + (f" f{floor}" if floor else "")
                ax.text(x + 0.4, y + 0.3, label, fontsize=6, color=SIDE_COLOURS[i], zorder=9,
                        fontweight="bold")

    ax.set_xticks(range(0, int(width) + 1, 4))
    ax.set_yticks(range(0, int(height) + 1, 4))
    ax.grid(color="white", linewidth=0.3, alpha=0.6)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    render(argv[0], Path(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
