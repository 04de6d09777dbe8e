"""`fibua lab`: playtests of many games (run), their report (report), and two runs set
side by side (compare)."""

from __future__ import annotations

import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from fibua.cli.common import console, error_console, guarded
from fibua.cli.warmup import preparing, warm_up
from fibua.core.errors import InputError, Problem
from fibua.core.game import Game
from fibua.lab.cluster import ClusterError, RayCluster, import_ray
from fibua.lab.overrides import with_house_rules
from fibua.lab.runner import GameFailed, play_rows
from fibua.lab.seats import parse_seats
from fibua.lab.store import (
    RunInfo,
    RunWriter,
    code_digest,
    db_path,
    missing_seeds,
    read_info,
)
from fibua.scenario.loader import load_scenario, scenario_from_dict
from fibua.scenario.schema import Scenario

#: a game of the run failed, or the cluster playing it: not the input's fault
EXIT_GAME_FAILED = 1
#: as a shell reports a process stopped by Ctrl-C
EXIT_INTERRUPTED = 130
DEFAULT_GAMES = 1_000
DEFAULT_FOLDER = Path("lab-runs")

lab_app = typer.Typer(
    help="Playtests: many games of a scenario, their report, two variants compared.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class GamesPerSecond(ProgressColumn):
    """Games a second since the run began."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.1f} games/s")


def free_folder(name: str) -> Path:
    """lab-runs/NAME, or NAME-2, NAME-3... if taken."""
    folder = DEFAULT_FOLDER / name
    n = 2
    while db_path(folder).exists():
        folder = DEFAULT_FOLDER / f"{name}-{n}"
        n += 1
    return folder


@lab_app.command()
@guarded
def run(
    scenario: Annotated[str, typer.Argument(help="scenario file or bundled name")],
    games: Annotated[int, typer.Option(min=1, help="how many games")] = DEFAULT_GAMES,
    seed_start: Annotated[int, typer.Option(
        min=0, help="the first seed; the games play seeds S, S+1, ...")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="processes playing at once")] = 1,
    seat: Annotated[list[str] | None, typer.Option(
        help="SIDE=PLAYER (computer, random, doctrine); repeat for each side; unnamed "
             "sides are played by the computer")] = None,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="house rule NAME=VALUE: a rule option (morale=false), a scenario "
                      "field (turns=6) or a dotted path (sides.germans.title=...)")] = None,
    overlay: Annotated[list[Path] | None, typer.Option(
        # (the help page reads Rich markup: the bracket is escaped to be shown)
        help="a TOML file laid over the scenario file (tables merge; \\[sides.NAME] merges "
             "into that side)")] = None,
    out: Annotated[Path | None, typer.Option(
        help="the folder for the results (default: lab-runs/SCENARIO, numbered if taken)")
    ] = None,
    ray: Annotated[bool, typer.Option(
        "--ray", help="play on a Ray cluster: the one in RAY_ADDRESS or started here by "
                      "`ray start`, else a new one on this machine (needs the ray extra)")
    ] = False,
    ray_address: Annotated[str | None, typer.Option(
        help="play on the Ray cluster at this address (HOST:PORT); implies --ray")] = None,
) -> None:
    """Play many games of a scenario and store one row a game (games.sqlite in --out)."""
    on_ray = ray or ray_address is not None
    if on_ray:
        import_ray()  # refused before anything is written if Ray is missing
    with preparing(error_console()):
        base = load_scenario(scenario)
        played = with_house_rules(base, set_ or [], overlay or [])
        seats = parse_seats(played, seat or [])
        warm_up(Game(played, seed_start))
    folder = out if out is not None else free_folder(played.name)
    overrides = [*(f"--overlay {p}" for p in overlay or []), *(f"--set {s}" for s in set_ or [])]
    info = RunInfo(played.raw, seats, overrides, seed_start, games, code_digest())
    with ExitStack() as stack:
        # the cluster is reached before anything is written, and let go after
        cluster = stack.enter_context(RayCluster(ray_address)) if on_ray else None
        writer = RunWriter.create(folder, info)
        stack.callback(writer.close)
        played_in = _play_into(writer, folder, played, info, list(info.seeds), jobs, cluster)
    where = "on Ray" if on_ray else f"{jobs} job(s)"
    _tell_done(f"{games} games of {played.name}", played_in, seats, where, folder)


@lab_app.command()
@guarded
def resume(
    folder: Annotated[Path, typer.Argument(help="a run's folder (from fibua lab run)")],
    jobs: Annotated[int, typer.Option(min=1, help="processes playing at once")] = 1,
) -> None:
    """Go on with a run that was stopped: play the games it lacks, as it would have."""
    info = read_info(folder)
    missing = missing_seeds(folder, info)
    if not missing:
        typer.echo(f"{folder} holds all {info.games} games of its run; nothing to play")
        return
    if info.code != code_digest():
        # its games would be played by other rules and players than those it holds
        raise InputError([Problem(str(folder), "", (
            "the run was played by another version of fibua than this one, so the games "
            "it lacks cannot be played as it would have played them; start a new run "
            "(its report can still be made)"))])
    with preparing(error_console()):
        played = scenario_from_dict(info.scenario, f"{info.name} as played")
        warm_up(Game(played, missing[0]))
    with ExitStack() as stack:
        writer = RunWriter.reopen(folder)
        stack.callback(writer.close)
        played_in = _play_into(writer, folder, played, info, missing, jobs, None)
    _tell_done(f"the {len(missing)} games {folder} lacked", played_in, info.seats,
               f"{jobs} job(s)", folder)


#: the winners of the games played, and how long they took (seconds)
Played = tuple[Counter[str | None], float]


def _play_into(writer: RunWriter, folder: Path, played: Scenario, info: RunInfo,
               seeds: list[int], jobs: int, cluster: RayCluster | None) -> Played:
    """Play the seeds' games into the run under a progress bar. A game that fails, or
    Ctrl-C, ends the command, saying what the run holds."""
    wins: Counter[str | None] = Counter()
    started = time.perf_counter()
    try:
        # refreshed by hand, with no thread of its own: worker processes are forked
        # from this one, and a fork should not happen while another thread holds a lock
        with Progress(TextColumn("{task.description}"), BarColumn(),
                      MofNCompleteColumn(), GamesPerSecond(), TimeRemainingColumn(),
                      console=error_console(), auto_refresh=False) as progress:
            task = progress.add_task(played.name, total=len(seeds))

            def advance(n: int) -> None:
                progress.advance(task, n)
                progress.refresh()

            batches = (cluster.play_rows(played, info.seats, seeds, advance) if cluster
                       else play_rows(played, info.seats, seeds, jobs, advance))
            for batch in batches:
                writer.add(batch)
                wins.update(row.winner for row in batch)
    except (GameFailed, ClusterError) as failure:
        typer.echo(f"error: {failure}; the games finished before it are in "
                   f"{db_path(folder)}", err=True)
        raise typer.Exit(EXIT_GAME_FAILED) from None
    except KeyboardInterrupt:
        held = info.games - len(missing_seeds(folder, info))
        typer.echo(f"stopped: {held} of the run's {info.games} games are in "
                   f"{db_path(folder)}; fibua lab resume {folder} plays the rest", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    return wins, time.perf_counter() - started


def _tell_done(what: str, played_in: Played, seats: dict[str, str], where: str,
               folder: Path) -> None:
    wins, seconds = played_in
    games = sum(wins.values())
    out_console = console()
    sides = ", ".join(f"{side} ({player})" for side, player in seats.items())
    out_console.print(f"{what} ({sides}) in {seconds:.1f} s "
                      f"({games / seconds:,.1f} games/s), {where}", markup=False)
    tally = [f"{side} won {wins[side]}" for side in seats] + [f"{wins[None]} drawn"]
    out_console.print("; ".join(tally), markup=False)
    out_console.print(f"results: {db_path(folder)}", markup=False)


@lab_app.command()
@guarded
def report(
    folder: Annotated[Path, typer.Argument(help="a run's folder (from fibua lab run)")],
    with_: Annotated[list[Path] | None, typer.Option(
        "--with", help="another run of the scenario, seated otherwise, for the head-to-head "
                       "table; repeat for several")] = None,
) -> None:
    """Write the run's report: report.html (self-contained) and plots/*.png."""
    from fibua.lab.report import write_report  # matplotlib only when a report is asked for

    written = write_report(folder, with_ or [])
    typer.echo(f"wrote {written[0]} and {len(written) - 1} plots in {written[0].parent / 'plots'}")


@lab_app.command()
@guarded
def compare(
    first: Annotated[Path, typer.Argument(help="a run's folder")],
    second: Annotated[Path, typer.Argument(help="another run of the same scenario")],
    difference: Annotated[float, typer.Option(
        help="the difference in win rate to size the sample for (0.05: 5 points)")] = 0.05,
) -> None:
    """Two runs side by side: each side's win rate, the difference with its 95% interval
    and p-value, and how many games a difference of --difference needs."""
    from fibua.lab.compare import compare_runs
    from fibua.lab.report import load_run

    found = compare_runs(load_run(first), load_run(second), difference)
    out = console()
    if found.paired:
        out.print(f"paired on the {found.seeds_in_common} seeds both runs played: exact "
                  "McNemar test, Newcombe's paired interval", markup=False)
    else:
        out.print("no seed in common: independent samples, two-proportion z-test, "
                  "Newcombe's interval", markup=False)
    out.print(f"A: {first}\nB: {second}", markup=False)
    table = Table()
    for column in ("side", "A wins", "B wins", "A - B [95% CI]", "p", "games needed"):
        table.add_column(column, no_wrap=True)
    for side in found.sides:
        d = side.difference
        table.add_row(side.side, f"{100 * d.first:.1f}%", f"{100 * d.second:.1f}%",
                      f"{100 * d.difference:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]",
                      f"{d.p_value:.3g}", f"{side.games_needed:,}")
    out.print(table)
    unit = "seeds played by both" if found.paired else "games in each run"
    out.print(f"games needed: {unit} to find a difference of {100 * difference:g} points "
              "in win rate at the 5% level with 80% power", markup=False)
    turns = found.sides[0].mean_turns
    out.print(f"mean turns: A {turns[0]:.2f}, B {turns[1]:.2f}", markup=False)
    for side in found.sides:
        out.print(f"mean {side.side} losses: A {side.mean_losses[0]:.2f}, "
                  f"B {side.mean_losses[1]:.2f}", markup=False)


def ray_address_spelling(args: list[str]) -> list[str]:
    """`--ray HOST:PORT` as `--ray-address HOST:PORT`: Typer options cannot take an optional
    value, and the documented spelling is `--ray [ADDRESS]`."""
    spelled = list(args)
    for i, arg in enumerate(spelled[:-1]):
        following = spelled[i + 1]
        if arg == "--ray" and not following.startswith("-") and ":" in following:
            spelled[i] = "--ray-address"
    return spelled

