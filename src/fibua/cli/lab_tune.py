"""`fibua lab tune`: the search run under a line a value, then the curve printed and
plotted and the chosen value written as a house rule (kept apart from `fibua.cli.lab`,
which only declares the commands)."""

from __future__ import annotations

from pathlib import Path

import typer

from fibua.cli.common import console, error_console
from fibua.cli.lab_play import DEFAULT_FOLDER, EXIT_GAME_FAILED, EXIT_INTERRUPTED
from fibua.core.errors import InputError, Problem
from fibua.lab.knobs import Knob, parse_knob
from fibua.lab.runner import GameFailed
from fibua.lab.seats import PLAYERS, parse_seats
from fibua.lab.store import code_digest
from fibua.lab.tune_out import curve_rows, write_house_rule, write_plot
from fibua.lab.tuner import Evidence, Plan, Search, Settings, Tell, run_tune, series_games
from fibua.scenario.schema import Scenario


def _level_seats(scenario: Scenario, level: str) -> dict[str, str]:
    if level not in PLAYERS:
        raise InputError([Problem("--level", "", f"no player {level!r}; players: "
                                                  f"{', '.join(PLAYERS)}")])
    return parse_seats(scenario, [f"{side}={level}" for side in scenario.side_names])


def _line(knob: Knob, sides: tuple[str, ...]) -> Tell:
    def tell(found: Evidence) -> None:
        low, high = found.low, found.high
        error_console().print(
            f"{knob.name}={found.value}: {found.games} games, {sides[0]} won "
            f"{100 * found.share:.1f}% of the decided [{100 * low:.1f}%, {100 * high:.1f}%]"
            f" ({found.draws} drawn): {found.state}", markup=False, highlight=False,
            soft_wrap=True)
    return tell


def tune_scenario(name: str, knob_text: str, level: str, jobs: int, out: Path | None,
                  **settings: float) -> Search:
    from fibua.cli.warmup import preparing, warm_up
    from fibua.core.game import Game
    from fibua.scenario.loader import load_scenario

    chosen = Settings(batch=int(settings["batch"]), max_games=int(settings["max_games"]),
                      tolerance=float(settings["tolerance"]),
                      seed_start=int(settings["seed_start"]))
    with preparing(error_console()):
        base = load_scenario(name)
        if len(base.side_names) != 2:
            raise InputError([Problem(name, "", "a tune is for a scenario of two sides")])
        knob = parse_knob(base, knob_text)
        seats = _level_seats(base, level)
        warm_up(Game(base, chosen.seed_start))
    folder = out if out is not None else DEFAULT_FOLDER / f"tune-{base.name}-{knob.name}"
    plan = Plan(base.raw, knob.text, seats, chosen, code_digest())
    err = error_console()
    err.print(f"tuning {base.name}: {knob.what} ({knob.current} in the file) over "
              f"{knob.low}..{knob.high}, {level} on both sides; each value plays seeds "
              f"{chosen.seed_start}, {chosen.seed_start + 1}, ... in batches of "
              f"{chosen.batch}, at most {chosen.max_games}", markup=False, highlight=False,
              soft_wrap=True)
    try:
        with series_games(seats, jobs) as games:
            search = run_tune(folder, base, knob, plan, games, tell=_line(knob, base.side_names))
    except GameFailed as failure:
        typer.echo(f"error: {failure}; the games before it are kept in {folder}", err=True)
        raise typer.Exit(EXIT_GAME_FAILED) from None
    except KeyboardInterrupt:
        typer.echo(f"stopped: the games played are kept in {folder}; the same command goes "
                   "on with the tune", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    _tell_result(base, knob, search, folder, level, chosen.tolerance)
    return search


def _tell_result(base: Scenario, knob: Knob, search: Search, folder: Path,
                 level: str, tolerance: float) -> None:
    from rich.table import Table

    out = console()
    first = base.side_names[0]
    table = Table(title=f"{base.name}: {first}'s share of decided games by {knob.name} "
                        f"({level}; 95% confidence sequence)")
    rows = curve_rows(search, first)
    for column in rows[0]:
        table.add_column(column, no_wrap=True)
    for row in rows[1:]:
        table.add_row(*row)
    out.print(table)
    best = search.best
    if not search.crossing:
        favoured = base.side_names[0] if best.share > 0.5 else base.side_names[1]
        if best.low <= 0.5 <= best.high:
            out.print(f"both ends of {knob.low}..{knob.high} lean toward the {favoured}, "
                      f"but {best.value} is as near even as its games can tell", markup=False,
                      soft_wrap=True)
        else:
            out.print(f"no value in {knob.low}..{knob.high} brings {base.name} to an even "
                      f"game: both ends favour the {favoured}; the nearest is {best.value} "
                      "(try a wider range, or another knob)", markup=False, soft_wrap=True)
    plot = write_plot(folder, base, knob, search, level, tolerance)
    overlay, scenario_file = write_house_rule(folder, base, knob, search, level)
    out.print(f"nearest an even game: {knob.name}={best.value} ({first} "
              f"{100 * best.share:.1f}% of {best.decided} decided games, {best.state}); the "
              f"file gives {knob.current}", markup=False, soft_wrap=True)
    out.print(f"curve: {plot}\nhouse rule: {overlay} (fibua lab run {base.name} --overlay "
              f"{overlay})\nscenario with it, for the lobby's upload: {scenario_file}",
              markup=False, soft_wrap=True)
