"""The ladder's plot: the ratings with their intervals, overall and by side in each
scenario, and each pairing's observed score against the model's (matplotlib's object
interface on the Agg canvas, as the lab's report draws)."""

from __future__ import annotations

from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from fibua.lab.ladder import Ladder
from fibua.lab.ratings import Fit, Rating
from fibua.lab.report import DPI, colour


def _interval_plot(axes: Axes, ratings: list[Rating], labels: list[str],
                   colours: list[str], title: str, markers: list[str] | None = None) -> None:
    ys = range(len(ratings))
    shapes = markers or ["o"] * len(ratings)
    for y, r, c, m in zip(ys, ratings, colours, shapes, strict=True):
        axes.errorbar(r.elo, y, xerr=[[max(0.0, r.elo - r.low)], [max(0.0, r.high - r.elo)]],
                      fmt=m, color=c, capsize=3)
    axes.set_yticks(list(ys), labels)
    axes.invert_yaxis()
    axes.axvline(0, color="#a0aec0", linewidth=0.8)
    axes.set_xlabel("Elo (95% bootstrap interval)")
    axes.set_title(title, fontsize=10)


def _overall(axes: Axes, ladder: Ladder) -> None:
    n = len(ladder.plan.players)
    ratings = ladder.overall.ratings[:n]
    _interval_plot(axes, ratings, [r.name for r in ratings], [colour(i) for i in range(n)],
                   f"overall, {ladder.plan.anchor} = 0 ({ladder.games} games)")


def _by_side(axes: Axes, fit: Fit, name: str, sides: tuple[str, str], anchor: str,
             identified: bool) -> None:
    n = len(fit.ratings) // 2
    order = [i for j in range(n) for i in (j, n + j)]  # a player's two sides together
    ratings = [fit.ratings[i] for i in order]
    colours = [colour(i // 2) for i in range(2 * n)]
    note = "" if identified else " (not identified: too few players)"
    _interval_plot(axes, ratings, [r.name for r in ratings], colours,
                   f"{name}: by side, mean of {anchor}'s = 0{note}", ["o", "s"] * n)


def _calibration(axes: Axes, fit: Fit) -> None:
    for cell in fit.cells:
        axes.scatter(cell.predicted, cell.observed, s=12 + 4 * cell.games, alpha=0.6,
                     color=colour(0))
    axes.plot([0, 1], [0, 1], color="#a0aec0", linewidth=0.8)
    axes.set_xlim(-0.02, 1.02)
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlabel("predicted score of the first side's player")
    axes.set_ylabel("observed")
    p = "n/a" if fit.p_value is None else f"{fit.p_value:.3g}"
    axes.set_title(f"pairings (overall model): deviance {fit.deviance:.1f} on {fit.df} df, "
                   f"p = {p}", fontsize=10)


def ladder_figure(ladder: Ladder) -> Figure:
    panels = 2 + len(ladder.by_side)
    players = len(ladder.plan.players)
    heights = [players, 4, *(2 * players for _ in ladder.by_side)]
    figure = Figure(figsize=(7, 1.0 + 0.32 * sum(heights) + 0.6 * panels), dpi=DPI,
                    layout="constrained")
    grid = figure.add_gridspec(panels, 1, height_ratios=heights)
    _overall(figure.add_subplot(grid[0]), ladder)
    _calibration(figure.add_subplot(grid[1]), ladder.overall)
    for i, s in enumerate(ladder.by_side):
        _by_side(figure.add_subplot(grid[2 + i]), s.fit, s.name, s.sides, ladder.plan.anchor,
                 s.identified)
    return figure


def write_plot(ladder: Ladder, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    ladder_figure(ladder).savefig(path)
    return path
