"""`fibua lab report`: one HTML page (the plots inside it) and the PNG plots of a run.

Plots are drawn with matplotlib's object interface on the Agg canvas (no window, no
global pyplot state). The map under the heatmap is the scenario's battlefield as played.
"""

from __future__ import annotations

import base64
import html
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median

from matplotlib.axes import Axes
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.patches import Polygon as PolygonPatch

from fibua.battlefield.model import Battlefield
from fibua.core.errors import InputError, Problem
from fibua.lab.balance import Balance, balance_of, disagreement, p_text, side_title, yardstick
from fibua.lab.losses import losses, losses_table
from fibua.lab.records import CONTESTED, GameRow
from fibua.lab.stats import wilson
from fibua.lab.store import RunInfo, read_info, read_rows
from fibua.scenario.loader import scenario_from_dict

SIDE_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1")
DRAW_COLOUR = "#718096"
PLOTS = ("win_rates", "balance", "game_length", "casualties", "falls_map", "objectives")
DPI = 110


@dataclass(frozen=True)
class Run:
    folder: Path
    info: RunInfo
    rows: list[GameRow]

    @property
    def sides(self) -> list[str]:
        return list(self.info.seats)


def load_run(folder: Path) -> Run:
    return Run(folder, read_info(folder), list(read_rows(folder)))


def check_alike(first: Run, second: Run) -> None:
    """Both runs are of one scenario, with the same sides, and hold games."""
    if first.info.name != second.info.name or set(first.sides) != set(second.sides):
        raise InputError([Problem(str(second.folder), "", (
            f"a run of {second.info.name} ({', '.join(second.sides)}) cannot be set beside "
            f"one of {first.info.name} ({', '.join(first.sides)})"))])
    for run in (first, second):
        if not run.rows:
            raise InputError([Problem(str(run.folder), "", "the run holds no games")])


def colour(i: int) -> str:
    return SIDE_COLOURS[i % len(SIDE_COLOURS)]


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def win_rates_plot(run: Run) -> Figure:
    figure = Figure(figsize=(6, 3.6), dpi=DPI)
    axes = figure.add_subplot()
    n = len(run.rows)
    names = [*run.sides, "draw"]
    counts = [sum(1 for r in run.rows if r.winner == side) for side in run.sides]
    counts.append(sum(1 for r in run.rows if r.winner is None))
    rates = [c / n for c in counts]
    intervals = [wilson(c, n) for c in counts]
    # rounding may put a bound a hair past the rate; matplotlib refuses negative lengths
    errors = [[max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals, strict=True)],
              [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals, strict=True)]]
    colours = [colour(i) for i in range(len(run.sides))] + [DRAW_COLOUR]
    axes.bar(names, rates, color=colours, yerr=errors, capsize=6)
    for i, rate in enumerate(rates):
        axes.annotate(percent(rate), (i, rate), textcoords="offset points",
                      xytext=(14, 3), fontsize=8)
    axes.axhline(0.5, color="#2d3748", linewidth=1, linestyle="--")
    axes.set_ylim(0, 1.1)  # room for the labels over a bar at 100%
    axes.set_ylabel("share of games won (dashed: 50%)")
    axes.set_title(f"Win rate with 95% Wilson intervals ({n} games)")
    figure.tight_layout()
    return figure


def verdicts(runs: Sequence[Run]) -> list[tuple[str, Balance]]:
    """Each run's balance, labelled by who played it (and its house rules, if any)."""
    found = []
    for run in runs:
        balance = balance_of(run.sides, run.rows)
        if balance is not None:
            rules = " ".join(run.info.overrides)
            found.append((yardstick(run.info.seats) + (f" ({rules})" if rules else ""),
                          balance))
    return found


def balance_plot(runs: Sequence[Run]) -> Figure | None:
    """Each run's first side's share of the decided games, with its Wilson interval,
    against the 50% line; None unless the scenario has two sides."""
    found = verdicts(runs)
    if not found:
        return None
    first = found[0][1].sides[0]
    figure = Figure(figsize=(7.2, 1.4 + 0.6 * len(found)), dpi=DPI)
    axes = figure.add_subplot()
    axes.axvline(0.5, color="#2d3748", linewidth=1, linestyle="--")
    for k, (_, balance) in enumerate(found):
        share = balance.share(0)
        low, high = balance.interval(0)
        colour_k = DRAW_COLOUR if balance.favoured is None else \
            colour(balance.sides.index(balance.favoured))
        axes.errorbar([share], [k], xerr=[[max(0.0, share - low)], [max(0.0, high - share)]],
                      fmt="o", color=colour_k, capsize=5)
        axes.annotate(f"{percent(share)}, {p_text(balance.p_value)}", (share, k),
                      textcoords="offset points", xytext=(0, 7), fontsize=7, ha="center")
    labels = [textwrap.fill(label, 28, max_lines=3, placeholder="...") for label, _ in found]
    axes.set_yticks(range(len(found)), labels, fontsize=8)
    axes.set_ylim(len(found) - 0.3, -0.7)  # the first run on top
    axes.set_xlim(0, 1)
    second = found[0][1].sides[1]
    for x, side, align in ((0.01, second, "left"), (0.99, first, "right")):
        axes.text(x, 0.02, f"{side_title(side)} favoured", transform=axes.transAxes,
                  ha=align, va="bottom", fontsize=7, color="#4a5568")
    axes.set_xlabel(f"{first}'s share of the decided games (95% Wilson interval; "
                    f"dashed: an even game)", fontsize=8)
    axes.set_title("Balance: who is favoured, by who plays", fontsize=10)
    figure.tight_layout()
    return figure


def balance_rows(runs: Sequence[Run]) -> list[list[str]]:
    """A row per run: who played, games, each side's share of the decided games with
    its interval, the exact test against an even game, and the verdict in words."""
    found = verdicts(runs)
    if not found:
        return []
    sides = found[0][1].sides
    table = [["players", "games (drawn)", *(f"{side_title(s)} share of decided"
                                            for s in sides), "exact binomial", "verdict"]]
    for label, balance in found:
        cells = [label, f"{balance.games} ({balance.draws})"]
        for i in range(2):
            low, high = balance.interval(i)
            cells.append(f"{percent(balance.share(i))} [{percent(low)}, {percent(high)}]")
        cells += [p_text(balance.p_value), balance.words()]
        table.append(cells)
    return table


def balance_html(runs: Sequence[Run]) -> str:
    rows = balance_rows(runs)
    if not rows:
        return "<p>A balance verdict is given for scenarios of two sides.</p>"
    found = verdicts(runs)
    label, balance = found[0]
    verdict = (f"<p><strong>{html.escape(balance.words())}</strong> "
               f"({html.escape(label)})</p>")
    warning = disagreement(found)
    warned = f'<p class="warning">Warning: {html.escape(warning)}.</p>' if warning else ""
    note = ("<p>An even game is one where each side wins half the games that are won: draws "
            "go to nobody and are left out of the test (an exact two-sided binomial test "
            "of the decided games against 1/2, at the 5% level).</p>")
    return verdict + warned + html_table(rows) + note


def game_length_plot(run: Run) -> Figure:
    figure = Figure(figsize=(8, 3.4), dpi=DPI)
    turns_axes, orders_axes = figure.subplots(1, 2)
    turns = [r.turns for r in run.rows]
    low, high = min(turns), max(turns)
    turns_axes.hist(turns, bins=[t - 0.5 for t in range(low, high + 2)], color=colour(0))
    turns_axes.set_xlabel("turns played")
    turns_axes.set_ylabel("games")
    turns_axes.set_title(f"Turns (median {median(turns):g})")
    orders = [r.orders for r in run.rows]
    orders_axes.hist(orders, bins=min(30, max(5, len(set(orders)))), color=colour(2))
    orders_axes.set_xlabel("orders given")
    orders_axes.set_title(f"Orders (median {median(orders):g})")
    figure.tight_layout()
    return figure


def casualties_plot(run: Run) -> Figure:
    figure = Figure(figsize=(6, 3.4), dpi=DPI)
    axes = figure.add_subplot()
    most = max((r.casualties.get(s, 0) for r in run.rows for s in run.sides), default=0)
    width = 0.8 / len(run.sides)
    for i, side in enumerate(run.sides):
        counts = Counter(r.casualties.get(side, 0) for r in run.rows)
        xs = [k + (i - (len(run.sides) - 1) / 2) * width for k in range(most + 1)]
        axes.bar(xs, [counts[k] for k in range(most + 1)], width=width, color=colour(i),
                 label=f"{side} (mean {mean(r.casualties.get(side, 0) for r in run.rows):.2f})")
    axes.set_xlabel("figures or units lost in a game")
    axes.set_ylabel("games")
    axes.set_title("Casualties per side")
    axes.legend(fontsize=8)
    figure.tight_layout()
    return figure


def draw_map(axes: Axes, field: Battlefield) -> None:
    """The battlefield from above: terrain, obstacles and building sections."""
    table = field.table
    axes.set_xlim(0, table.width)
    axes.set_ylim(0, table.height)
    axes.set_aspect("equal")
    axes.set_facecolor("#f4f1e8")
    for area in field.terrain:
        axes.add_patch(PolygonPatch(area.polygon, closed=True, facecolor="#c6dcb4",
                                    edgecolor="none", alpha=0.6, zorder=1))
    for obstacle in field.obstacles:
        xs, ys = zip(*obstacle.points, strict=True)
        axes.plot(xs, ys, color="#7b6a58", linewidth=1.2, zorder=2)
    for building in field.buildings:
        for section in building.sections:
            axes.add_patch(PolygonPatch(section.footprint, closed=True, facecolor="#d8cfc4",
                                        edgecolor="#4a4038", linewidth=1.0, zorder=2))
    axes.set_xlabel(str(table.unit))


def falls_map_plot(run: Run, field: Battlefield) -> Figure:
    table = field.table
    columns = len(run.sides)
    figure = Figure(figsize=(4.2 * columns, 4.2 * table.height / table.width + 0.8), dpi=DPI)
    cells = (max(4, round(table.width / 2)), max(4, round(table.height / 2)))
    for i, side in enumerate(run.sides):
        axes = figure.add_subplot(1, columns, i + 1)
        draw_map(axes, field)
        points = [(f.x, f.y) for r in run.rows for f in r.falls
                  if f.side == side and f.x is not None and f.y is not None]
        if points:
            xs, ys = zip(*points, strict=True)
            *_, image = axes.hist2d(
                xs, ys, bins=cells, range=[[0, table.width], [0, table.height]],
                cmin=1, cmap="inferno_r", alpha=0.8, zorder=3, norm=LogNorm())
            # a log scale: over many games a few killing grounds would drown the rest
            figure.colorbar(image, ax=axes, shrink=0.7, label="fell here (log scale)")
        axes.set_title(f"Where {side} fell ({len(points)})", fontsize=10)
    figure.tight_layout()
    return figure


def objectives_plot(run: Run) -> Figure | None:
    """For each hold objective, the share of games each side held it at each turn's end;
    None when the scenario has no hold objective."""
    labels = list(dict.fromkeys(h.objective for r in run.rows for h in r.holders))
    if not labels:
        return None
    figure = Figure(figsize=(6, 2.8 * len(labels)), dpi=DPI)
    holders: list[str | None] = [*run.sides, CONTESTED, None]
    palette = [colour(i) for i in range(len(run.sides))] + ["#ecc94b", "#e2e8f0"]
    for k, label in enumerate(labels):
        axes = figure.add_subplot(len(labels), 1, k + 1)
        turns = sorted({h.turn for r in run.rows for h in r.holders if h.objective == label})
        shares = []
        for holder in holders:
            row = []
            for turn in turns:
                at = [h for r in run.rows for h in r.holders
                      if h.objective == label and h.turn == turn]
                row.append(sum(1 for h in at if h.holder == holder) / len(at))
            shares.append(row)
        names = [h if h is not None else "nobody" for h in holders]
        axes.stackplot(turns, shares, labels=names, colors=palette)
        axes.set_ylim(0, 1)
        axes.set_xlim(turns[0], turns[-1])
        axes.set_ylabel("share of games")
        axes.set_xlabel("end of turn (of games still going)")
        axes.set_title(label, fontsize=10)
        axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    figure.tight_layout()
    return figure


def head_to_head(runs: Sequence[Run]) -> list[list[str]]:
    """A row per run: who played each side, games, and each side's win rate with its
    interval (the runs of one scenario, seated differently)."""
    sides = runs[0].sides
    table = [["players", "house rules", "games", *(f"{s} wins" for s in sides), "draws"]]
    for run in runs:
        n = len(run.rows)
        seating = ", ".join(f"{s}: {p}" for s, p in run.info.seats.items())
        cells = [seating, " ".join(run.info.overrides) or "none", str(n)]
        for side in [*sides, None]:
            won = sum(1 for r in run.rows if r.winner == side)
            low, high = wilson(won, n)
            cells.append(f"{percent(won / n)} [{percent(low)}, {percent(high)}]")
        table.append(cells)
    return table


def html_table(rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                   for row in rows[1:])
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def summary_rows(run: Run) -> list[list[str]]:
    info = run.info
    reasons = Counter(r.reason for r in run.rows).most_common()
    rows = [["", "this run"],
            ["scenario", f"{info.name} ({info.scenario['scenario'].get('ruleset', '')})"],
            ["seeds", _seeds_played(run)],
            ["games", _games_played(run)],
            ["house rules", " ".join(info.overrides) or "none"],
            ["mean turns", f"{mean(r.turns for r in run.rows):.2f}"],
            ["mean orders", f"{mean(r.orders for r in run.rows):.1f}"],
            ["mean rolls", f"{mean(r.rolls for r in run.rows):.1f}"],
            ["time per 1,000 games", time_per_thousand(run.rows)]]
    rows += [[f"ended: {reason}", str(count)] for reason, count in reasons]
    return rows


def time_per_thousand(rows: Sequence[GameRow]) -> str:
    """CPU seconds per 1,000 games beside wall seconds, from the games' own timings (the
    CPU time is what a busy machine hardly moves)."""
    timed = [r for r in rows if r.cpu is not None and r.wall is not None]
    if not timed:
        return "not timed (a run made before games were timed)"
    cpu = 1000 * sum(r.cpu or 0.0 for r in timed) / len(timed)
    wall = 1000 * sum(r.wall or 0.0 for r in timed) / len(timed)
    return (f"{cpu:,.1f} CPU-s beside {wall:,.1f} wall-s (each game timed in the process "
            f"that played it; {len(timed)} games)")


def _seeds_played(run: Run) -> str:
    seeds = [r.seed for r in run.rows]
    return f"{min(seeds)} to {max(seeds)}" if seeds else "none"


def _games_played(run: Run) -> str:
    held, planned = len(run.rows), run.info.games
    if held >= planned:
        return str(held)
    return (f"{held} of {planned}: the run was stopped, and fibua lab resume {run.folder} "
            "plays the rest")


STYLE = """body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#1a202c}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #cbd5e0;padding:.3em .6em;
text-align:left}img{max-width:100%}h2{margin-top:1.5em}.warning{color:#9b2c2c;
font-weight:bold}"""

CAPTIONS = {
    "win_rates": "Win rate per side",
    "balance": "Balance against an even game",
    "game_length": "Game length",
    "casualties": "Casualties per side",
    "falls_map": "Where figures and units fell",
    "objectives": "Objective holder by turn",
}


#: how many units the report's table of losses lists
LOSSES_SHOWN = 20

#: what the page says where a plot has nothing to show
MISSING = {"objectives": "<p>The scenario has no objective to hold.</p>",
           "balance": "<p>A balance verdict is given for scenarios of two sides.</p>"}


def write_report(folder: Path, others: Sequence[Path] = ()) -> list[Path]:
    """Write FOLDER/report.html and FOLDER/plots/*.png; the runs in `others` join the
    head-to-head table. Returns the files written."""
    run = load_run(folder)
    extra = [load_run(path) for path in others]
    for other in [run, *extra]:
        check_alike(run, other)
    scenario = scenario_from_dict(run.info.scenario, f"{run.info.name} as played")
    figures: dict[str, Figure | None] = {
        "win_rates": win_rates_plot(run),
        "balance": balance_plot([run, *extra]),
        "game_length": game_length_plot(run),
        "casualties": casualties_plot(run),
        "falls_map": falls_map_plot(run, scenario.battlefield),
        "objectives": objectives_plot(run),
    }
    plots = folder / "plots"
    plots.mkdir(exist_ok=True)
    written: list[Path] = []
    sections = []
    for name, figure in figures.items():
        sections.append(f"<h2>{CAPTIONS[name]}</h2>")
        if figure is None:
            sections.append(MISSING[name])
            continue
        path = plots / f"{name}.png"
        figure.savefig(path)
        written.append(path)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        sections.append(f'<img alt="{CAPTIONS[name]}" src="data:image/png;base64,{data}">')
    title = f"Playtest of {scenario.scenario.title}"
    page = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(title)}"
            f"</title><style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>"
            f"{html_table(summary_rows(run))}<h2>Balance</h2>{balance_html([run, *extra])}"
            f"<h2>Head to head</h2>"
            f"{html_table(head_to_head([run, *extra]))}"
            f"<h2>Units lost (the {LOSSES_SHOWN} most often)</h2>"
            f"{html_table(losses_table(losses(run.rows), top=LOSSES_SHOWN))}"
            f"{''.join(sections)}</body></html>")
    page_path = folder / "report.html"
    page_path.write_text(page, encoding="utf-8")
    return [page_path, *written]
