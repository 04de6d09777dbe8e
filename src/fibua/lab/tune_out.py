"""What a tune leaves: its curve as a table and a plot, and the value chosen written as
a house rule (an overlay the lab lays over the scenario with `--overlay`) and as a whole
scenario file with it laid over, under a name of its own (the lobby takes an upload by its
`[scenario] name`, and keeps the bundled names for the bundled files)."""

from __future__ import annotations

import copy
from pathlib import Path

from matplotlib.figure import Figure

from fibua.lab.knobs import Knob
from fibua.lab.overrides import lay_over, overlay_between
from fibua.lab.tuner import Search
from fibua.quick.tomlwrite import dumps
from fibua.scenario.schema import Scenario

DPI = 110
STATE_COLOURS = {"above": "#2b6cb0", "below": "#c53030", "even": "#2f855a",
                 "open": "#718096"}
OVERLAY_FILE = "overlay.toml"


def curve_rows(search: Search, first: str) -> list[list[str]]:
    """The values tried, in order of value: games, the first side's share of decided
    games with its interval, draws, the verdict, the games' CPU seconds."""
    rows = [["value", "games", f"{first} share", "95% sequence", "draws", "verdict",
             "CPU s"]]
    best = search.best.value
    for found in search.curve():
        mark = " *" if found.value == best else ""
        rows.append([f"{found.value}{mark}", str(found.games), f"{100 * found.share:.1f}%",
                     f"[{100 * found.low:.1f}%, {100 * found.high:.1f}%]", str(found.draws),
                     found.state, "-" if found.cpu is None else f"{found.cpu:.1f}"])
    return rows


def tune_plot(base: Scenario, knob: Knob, search: Search, level: str,
              tolerance: float) -> Figure:
    figure = Figure(figsize=(6.4, 3.8), dpi=DPI)
    axes = figure.add_subplot()
    first = base.side_names[0]
    axes.axhspan(0.5 - tolerance, 0.5 + tolerance, color="#c6f6d5", alpha=0.6, zorder=0,
                 label=f"within {100 * tolerance:g} points")
    axes.axhline(0.5, color="#2d3748", linewidth=1, linestyle="--", zorder=1)
    for found in search.curve():
        # rounding may put a bound a hair past the share; matplotlib refuses negatives
        below, above = max(0.0, found.share - found.low), max(0.0, found.high - found.share)
        axes.errorbar([found.value], [found.share], yerr=[[below], [above]], fmt="o",
                      color=STATE_COLOURS[found.state], capsize=4, zorder=3)
        axes.annotate(f"{found.games}", (found.value, found.share), textcoords="offset points",
                      xytext=(6, -3), fontsize=7)
    best = search.best
    axes.axvline(best.value, color=STATE_COLOURS["even"], linewidth=1, zorder=2,
                 label=f"chosen: {best.value}")
    axes.axvline(knob.current, color="#a0aec0", linewidth=1, linestyle=":", zorder=2,
                 label=f"the file: {knob.current}")
    axes.set_xlim(knob.low - 0.5, knob.high + 0.5)
    axes.set_ylim(0, 1)
    axes.set_xlabel(f"{knob.name} ({knob.what})", fontsize=8)
    axes.set_ylabel(f"{first}'s share of decided games")
    axes.set_title(f"{base.name}, {level} on both sides (games played at each value)",
                   fontsize=9)
    axes.legend(fontsize=7, loc="best")
    figure.tight_layout()
    return figure


def write_plot(folder: Path, base: Scenario, knob: Knob, search: Search, level: str,
               tolerance: float = 0.05) -> Path:
    path = folder / "tune.png"
    tune_plot(base, knob, search, level, tolerance).savefig(path)
    return path


def house_rule_header(base: Scenario, knob: Knob, search: Search, level: str) -> list[str]:
    best = search.best
    return [f"{base.name} tuned: {knob.name} = {best.value} (the file gives {knob.current})",
            f"by fibua lab tune {base.name} --knob {knob.text} --level {level}:",
            f"{base.side_names[0]} won {100 * best.share:.1f}% of {best.decided} decided "
            f"games at it ({best.state})"]


def write_house_rule(folder: Path, base: Scenario, knob: Knob, search: Search,
                     level: str) -> tuple[Path, Path]:
    """The overlay of the value chosen, and the whole scenario with it laid over,
    named NAME-tuned. Returns both paths."""
    header = house_rule_header(base, knob, search, level)
    tuned = knob.apply(base.raw, search.best.value)
    overlay = overlay_between(base.raw, tuned)
    overlay_path = folder / OVERLAY_FILE
    overlay_path.write_text(dumps(overlay, header), encoding="utf-8")
    whole = copy.deepcopy(base.raw)
    lay_over(whole, overlay, str(overlay_path))
    whole["scenario"]["name"] = f"{base.name}-tuned"
    scenario_path = folder / f"{base.name}-tuned.toml"
    scenario_path.write_text(dumps(whole, header), encoding="utf-8")
    return overlay_path, scenario_path
