"""Playing a lab run's games under a progress bar and saying what they gave (kept apart
from `fibua.cli.lab`, which only declares the commands)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

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
from rich.text import Text

from fibua.cli.common import console, error_console
from fibua.lab.cluster import ClusterError, RayCluster
from fibua.lab.records import GameRow
from fibua.lab.runner import GameFailed, play_rows
from fibua.lab.store import (
    RunInfo,
    RunWriter,
    db_path,
    missing_seeds,
)
from fibua.scenario.schema import Scenario

#: a game of the run failed, or the cluster playing it: not the input's fault
EXIT_GAME_FAILED = 1
#: as a shell reports a process stopped by Ctrl-C
EXIT_INTERRUPTED = 130
DEFAULT_FOLDER = Path("lab-runs")

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


@dataclass
class Played:
    """The winners of the games played, how long the command took (seconds of wall
    time), and the games' own CPU and wall seconds as their processes timed them."""

    wins: Counter[str | None] = field(default_factory=Counter)
    seconds: float = 0.0
    cpu: float = 0.0
    wall: float = 0.0
    timed: int = 0

    def add(self, rows: list[GameRow]) -> None:
        self.wins.update(row.winner for row in rows)
        for row in rows:
            if row.cpu is not None and row.wall is not None:
                self.cpu += row.cpu
                self.wall += row.wall
                self.timed += 1


def per_thousand(seconds: float, games: int) -> str:
    return f"{1000 * seconds / games:,.1f} s" if games else "-"


def play_into(writer: RunWriter, folder: Path, played: Scenario, info: RunInfo,
               seeds: list[int], jobs: int, cluster: RayCluster | None) -> Played:
    """Play the seeds' games into the run under a progress bar. A game that fails, or
    Ctrl-C, ends the command, saying what the run holds."""
    played_in = Played()
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

            batches = (cluster.play_rows(played, info.seats, seeds, advance, info.budget) if cluster
                       else play_rows(played, info.seats, seeds, jobs, advance,
                                      info.budget))
            for batch in batches:
                writer.add(batch)
                played_in.add(batch)
    except (GameFailed, ClusterError) as failure:
        typer.echo(f"error: {failure}; the games finished before it are in "
                   f"{db_path(folder)}", err=True)
        raise typer.Exit(EXIT_GAME_FAILED) from None
    except KeyboardInterrupt:
        held = info.games - len(missing_seeds(folder, info))
        typer.echo(f"stopped: {held} of the run's {info.games} games are in "
                   f"{db_path(folder)}; fibua lab resume {folder} plays the rest", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    played_in.seconds = time.perf_counter() - started
    return played_in


def tell_done(what: str, played_in: Played, seats: dict[str, str], where: str,
               folder: Path) -> None:
    wins, seconds = played_in.wins, played_in.seconds
    games = sum(wins.values())
    out_console = console()
    sides = ", ".join(f"{side} ({player})" for side, player in seats.items())
    out_console.print(f"{what} ({sides}) in {seconds:.1f} s "
                      f"({games / seconds:,.1f} games/s), {where}", markup=False)
    out_console.print(f"CPU {per_thousand(played_in.cpu, played_in.timed)} per 1,000 games "
                      f"beside wall {per_thousand(played_in.wall, played_in.timed)} (each "
                      "game timed in the process that played it)", markup=False)
    tally = [f"{side} won {wins[side]}" for side in seats] + [f"{wins[None]} drawn"]
    out_console.print("; ".join(tally), markup=False)
    out_console.print(f"results: {db_path(folder)}", markup=False)
