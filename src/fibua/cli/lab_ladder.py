"""`fibua lab ladder`: playing a ladder's pairings under one progress bar, then its
ratings as Rich tables (kept apart from `fibua.cli.lab`, which only declares commands)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from fibua.cli.common import console, error_console
from fibua.cli.lab_play import EXIT_GAME_FAILED, EXIT_INTERRUPTED, GamesPerSecond
from fibua.lab.ladder import Ladder, Plan, Work, to_json
from fibua.lab.ratings import Fit, Rating, Record
from fibua.lab.runner import GameFailed, play_rows
from fibua.lab.store import RunWriter


def play_ladder(work: Sequence[Work], plan: Plan, jobs: int, root: Path) -> int:
    """Play what each pairing lacks, pairing by pairing, each batch committed. A failed
    game or Ctrl-C ends the command, saying how to go on. The games played."""
    total = sum(len(w.missing) for w in work)
    done = 0
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      GamesPerSecond(), TimeRemainingColumn(), console=error_console(),
                      auto_refresh=False) as progress:
            task = progress.add_task("ladder", total=total)

            def advance(n: int) -> None:
                progress.advance(task, n)
                progress.refresh()

            for item in work:
                if not item.missing:
                    continue
                pairing = item.pairing
                progress.update(task, description=(
                    f"{pairing.scenario.name}: {pairing.first} v {pairing.second}"))
                writer = RunWriter.reopen(item.folder)
                try:
                    for batch in play_rows(pairing.scenario, item.info.seats, item.missing,
                                           jobs, advance, item.info.budget):
                        writer.add(batch)
                        done += len(batch)
                finally:
                    writer.close()
    except GameFailed as failure:
        typer.echo(f"error: {failure} ({item.folder}); the games finished before it are "
                   "kept", err=True)
        raise typer.Exit(EXIT_GAME_FAILED) from None
    except KeyboardInterrupt:
        typer.echo(f"stopped after {done} of the {total} games to play; the same command "
                   f"with --out {root} goes on from there", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    return done


def _elo(r: Rating) -> str:
    mark = {Record.ALL_WON: " (won all)", Record.ALL_LOST: " (lost all)"}.get(r.record, "")
    return f"{r.elo:+.0f}{mark}"


def _interval(r: Rating) -> str:
    return f"[{r.low:+.0f}, {r.high:+.0f}]"


def _score(r: Rating) -> str:
    return f"{r.score:g}/{r.games}" if r.games else "-"


def _fit_line(fit: Fit) -> str:
    if fit.p_value is None:
        return f"deviance {fit.deviance:.2f} on 0 degrees of freedom (no test)"
    return (f"goodness of fit: deviance {fit.deviance:.2f} on {fit.df} df against a free "
            f"chance per pairing, p = {fit.p_value:.3g}")


def overall_table(ladder: Ladder) -> Table:
    n = len(ladder.plan.players)
    table = Table(title=f"Overall ({ladder.plan.anchor} = 0; Elo, 95% bootstrap interval)")
    for column in ("player", "Elo", "95% interval", "score"):
        table.add_column(column, no_wrap=True)
    for r in sorted(ladder.overall.ratings[:n], key=lambda r: -r.elo):
        table.add_row(r.name, _elo(r), _interval(r), _score(r))
    for r in ladder.overall.ratings[n:]:
        table.add_row(r.name, _elo(r), _interval(r), _score(r), style="dim")
    return table


def side_table(ladder: Ladder, index: int) -> Table:
    found = ladder.by_side[index]
    one, two = found.sides
    n = len(found.fit.ratings) // 2
    title = f"{found.name} by side (mean of {ladder.plan.anchor}'s two = 0)"
    if not found.identified:
        title += ": NOT identified (too few players; read the overall table)"
    table = Table(title=title)
    for column in ("player", f"as {one}", "95% interval", "score", f"as {two}",
                   "95% interval", "score"):
        table.add_column(column, no_wrap=True)
    rows = sorted(range(n), key=lambda j: -(found.fit.ratings[j].elo
                                            + found.fit.ratings[n + j].elo))
    for j in rows:
        a, b = found.fit.ratings[j], found.fit.ratings[n + j]
        table.add_row(ladder.plan.players[j], _elo(a), _interval(a), _score(a), _elo(b),
                      _interval(b), _score(b))
    return table


def show(ladder: Ladder, out: Console) -> None:
    out.print(overall_table(ladder))
    out.print(_fit_line(ladder.overall), markup=False)
    for i, found in enumerate(ladder.by_side):
        out.print(side_table(ladder, i))
        out.print(_fit_line(found.fit), markup=False)


def write_outputs(ladder: Ladder, json_path: Path, plot_path: Path) -> None:
    from fibua.lab.ladder_plot import write_plot  # matplotlib only once games are in

    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(to_json(ladder), indent=2) + "\n")
    write_plot(ladder, plot_path)
    out = console()
    show(ladder, out)
    out.print(f"{ladder.games} games; ratings: {json_path}; plot: {plot_path}", markup=False)
