"""`fibua lab`: playtests of many games (run), their report (report), the units each
side lost (losses), two runs set side by side (compare), players rated against each other
(ladder), and a scenario tuned toward an even game (tune).

The commands import what they run when they run (`fibua --help` imports none of it)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated

import typer

from fibua.cli.common import console, error_console, guarded

DEFAULT_GAMES = 1_000

lab_app = typer.Typer(
    help="Playtests: many games of a scenario, their report, two variants compared.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain help pages: Rich's would import a tenth of a second of modules first
    rich_markup_mode=None,
)


@lab_app.command()
@guarded
def run(
    scenario: Annotated[str, typer.Argument(help="scenario file or bundled name")],
    games: Annotated[int, typer.Option(min=1, help="how many games")] = DEFAULT_GAMES,
    seed_start: Annotated[int, typer.Option(
        min=0, help="the first seed; the games play seeds S, S+1, ...")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="processes playing at once")] = 1,
    seat: Annotated[list[str] | None, typer.Option(
        help="SIDE=PLAYER (computer, random, doctrine, easy, normal, hard); repeat for "
             "each side; unnamed sides are played by the computer")] = None,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="house rule NAME=VALUE: a rule option (morale=false), a scenario "
                      "field (turns=6) or a dotted path (sides.germans.title=...)")] = None,
    overlay: Annotated[list[Path] | None, typer.Option(
        help="a TOML file laid over the scenario file (tables merge; [sides.NAME] merges "
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
    budget: Annotated[str | None, typer.Option(
        help="what a hard computer's decision weighs: candidates=C,worlds=W,horizon=H "
             "(those left out keep the lab budget's 2, 2, 16; without it, the play "
             "budget)")] = None,
) -> None:
    """Play many games of a scenario and store one row a game (games.sqlite in --out)."""
    from fibua.cli.lab_play import free_folder, play_into, tell_done
    from fibua.cli.warmup import preparing, warm_up
    from fibua.core.game import Game
    from fibua.lab.cluster import RayCluster, import_ray
    from fibua.lab.ladder import parse_budget
    from fibua.lab.overrides import with_house_rules
    from fibua.lab.seats import parse_seats
    from fibua.lab.store import RunInfo, RunWriter, code_digest
    from fibua.scenario.loader import load_scenario

    on_ray = ray or ray_address is not None
    if on_ray:
        import_ray()  # refused before anything is written if Ray is missing
    with preparing(error_console()):
        base = load_scenario(scenario)
        played = with_house_rules(base, set_ or [], overlay or [])
        seats = parse_seats(played, seat or [])
        weighed = parse_budget(budget) if budget is not None else None
        warm_up(Game(played, seed_start))
    folder = out if out is not None else free_folder(played.name)
    overrides = [*(f"--overlay {p}" for p in overlay or []), *(f"--set {s}" for s in set_ or [])]
    info = RunInfo(played.raw, seats, overrides, seed_start, games, code_digest(), weighed)
    with contextlib.ExitStack() as stack:
        # the cluster is reached before anything is written, and let go after
        cluster = stack.enter_context(RayCluster(ray_address)) if on_ray else None
        writer = RunWriter.create(folder, info)
        stack.callback(writer.close)
        played_in = play_into(writer, folder, played, info, list(info.seeds), jobs, cluster)
    where = "on Ray" if on_ray else f"{jobs} job(s)"
    tell_done(f"{games} games of {played.name}", played_in, seats, where, folder)


@lab_app.command()
@guarded
def resume(
    folder: Annotated[Path, typer.Argument(help="a run's folder (from fibua lab run)")],
    jobs: Annotated[int, typer.Option(min=1, help="processes playing at once")] = 1,
) -> None:
    """Go on with a run that was stopped: play the games it lacks, as it would have."""
    from fibua.cli.lab_play import play_into, tell_done
    from fibua.cli.warmup import preparing, warm_up
    from fibua.core.errors import InputError, Problem
    from fibua.core.game import Game
    from fibua.lab.store import RunWriter, code_digest, missing_seeds, read_info
    from fibua.scenario.loader import scenario_from_dict

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
    with contextlib.ExitStack() as stack:
        writer = RunWriter.reopen(folder)
        stack.callback(writer.close)
        played_in = play_into(writer, folder, played, info, missing, jobs, None)
    tell_done(f"the {len(missing)} games {folder} lacked", played_in, info.seats,
               f"{jobs} job(s)", folder)


@lab_app.command()
@guarded
def report(
    folder: Annotated[Path, typer.Argument(help="a run's folder (from fibua lab run)")],
    with_: Annotated[list[Path] | None, typer.Option(
        "--with", help="another run of the scenario, seated otherwise, for the head-to-head "
                       "table; repeat for several")] = None,
) -> None:
    """Write the run's report: report.html (self-contained) and plots/*.png."""
    from fibua.lab.balance import disagreement
    from fibua.lab.report import load_run, verdicts, write_report  # matplotlib: only here

    written = write_report(folder, with_ or [])
    found = verdicts([load_run(path) for path in [folder, *(with_ or [])]])
    for label, balance in found:
        typer.echo(f"{label}: {balance.words()}")
    warning = disagreement(found)
    if warning:
        typer.echo(f"warning: {warning}")
    typer.echo(f"wrote {written[0]} and {len(written) - 1} plots in {written[0].parent / 'plots'}")


@lab_app.command()
@guarded
def losses(
    folder: Annotated[Path, typer.Argument(help="a run's folder (from fibua lab run)")],
    by_turn: Annotated[int, typer.Option(
        "--by-turn", min=1, help="also count the games each unit was lost in by this turn")] = 1,
    top: Annotated[int, typer.Option(min=1, help="list this many units at most")] = 20,
) -> None:
    """Which units each side lost, in how many games (95% interval), at which median turn,
    and how often by --by-turn: the moves that lose games, game after game."""
    from rich.markup import escape
    from rich.table import Table

    from fibua.lab.losses import losses as units_lost
    from fibua.lab.losses import losses_table
    from fibua.lab.report import load_run

    run = load_run(folder)
    rows = losses_table(units_lost(run.rows, by_turn), top)
    table = Table(title=escape(f"{run.info.name}: {len(run.rows)} games, "
                               f"{_seating(run.info.seats)}"))
    for column in rows[0]:
        table.add_column(column)
    for row in rows[1:]:
        table.add_row(*(escape(cell) for cell in row))
    console().print(table)


def _seating(seats: dict[str, str]) -> str:
    return ", ".join(f"{side} {player}" for side, player in seats.items())


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
    from rich.table import Table

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


@lab_app.command()
@guarded
def ladder(
    scenarios: Annotated[list[str], typer.Argument(help="scenario files or bundled names")],
    players: Annotated[str, typer.Option(
        help="the players rated, comma-separated (random, doctrine, easy, normal, hard, "
             "computer)")] = "random,doctrine,easy,normal,hard",
    games: Annotated[int, typer.Option(min=1, help="games a pairing (a scenario, an "
                                                   "ordered pair of players)")] = 10,
    seeds_from: Annotated[int, typer.Option(
        min=0, help="the first seed; every pairing plays seeds S, S+1, ...")] = 100_000,
    budget: Annotated[str | None, typer.Option(
        help="what a hard computer's decision weighs: candidates=C,worlds=W,horizon=H "
             "(those left out keep the ladder's 2, 2, 16)")] = None,
    anchor: Annotated[str | None, typer.Option(
        help="the player rated 0 (default doctrine, else random, else the first)")] = None,
    bootstrap: Annotated[int, typer.Option(
        min=0, help="bootstrap resamples for the intervals")] = 1000,
    jobs: Annotated[int, typer.Option(min=1, help="processes playing at once")] = 1,
    out: Annotated[Path, typer.Option(
        help="the ladder's folder: a lab run a pairing, the ratings, the plot; the same "
             "command again goes on with a ladder that was stopped")] = Path("lab-runs/ladder"),
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="where the ratings go as JSON (default OUT/ratings.json)")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="where the plot goes, PNG (default OUT/ratings.png)")] = None,
) -> None:
    """Rate players against each other: every ordered pair in every scenario, each player
    on each side, then a Bradley-Terry (Elo) fit with bootstrap intervals."""
    from fibua.cli.lab_ladder import play_ladder, write_outputs
    from fibua.cli.warmup import preparing, warm_up
    from fibua.core.game import Game
    from fibua.lab.ladder import (
        Plan,
        cells,
        load_scenarios,
        pairings,
        parse_budget,
        parse_players,
        pick_anchor,
        prepare,
        rate,
    )

    rated = parse_players(players)
    chosen_anchor, weighed = pick_anchor(rated, anchor), parse_budget(budget)
    with preparing(error_console()):
        loaded = load_scenarios(scenarios)
        for scenario in loaded:
            warm_up(Game(scenario, seeds_from))
    plan = Plan([s.name for s in loaded], rated, games, seeds_from, weighed, chosen_anchor)
    every = pairings(loaded, rated)
    work = prepare(out, plan, every)
    played = play_ladder(work, plan, jobs, out)
    typer.echo(f"played {played} games; {len(every)} pairings of {games} games in {out}",
               err=True)
    ladder = rate(plan, loaded, cells(out, every), bootstrap)
    write_outputs(ladder, json_out or out / "ratings.json", plot or out / "ratings.png")


@lab_app.command()
@guarded
def tune(
    scenario: Annotated[str, typer.Argument(help="scenario file or bundled name")],
    knob: Annotated[str, typer.Option(
        help="the knob and its range, NAME=LOW..HIGH: turns, points.N (the Nth "
             "[[victory]]), count.SIDE or count.UNIT (figures fielded), depth.SIDE (the "
             "deployment zone's depth)")],
    level: Annotated[str, typer.Option(
        help="who plays both sides: normal, easy, hard, doctrine, random, computer")
    ] = "normal",
    max_games: Annotated[int, typer.Option(
        min=1, help="the most games one value plays before its verdict is left open")] = 600,
    batch: Annotated[int, typer.Option(
        min=1, help="games between two looks at a value's evidence")] = 50,
    tolerance: Annotated[float, typer.Option(
        min=0.0, max=0.5, help="a value is even once its interval lies within this of 50%")
    ] = 0.05,
    seed_start: Annotated[int, typer.Option(
        min=0, help="the first seed; every value plays seeds S, S+1, ...")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="processes playing at once")] = 1,
    out: Annotated[Path | None, typer.Option(
        help="the tune's folder (default lab-runs/tune-SCENARIO-KNOB); the same command "
             "again goes on with a tune that was stopped")] = None,
) -> None:
    """Search one knob for the value nearest an even game, judging each value with a
    sequential test; print and plot the curve, and write the value as a house rule."""
    from fibua.cli.lab_tune import tune_scenario

    tune_scenario(scenario, knob, level, jobs, out,
                  batch=batch, max_games=max_games, tolerance=tolerance,
                  seed_start=seed_start)


def ray_address_spelling(args: list[str]) -> list[str]:
    """`--ray HOST:PORT` as `--ray-address HOST:PORT`: Typer options cannot take an optional
    value, and the documented spelling is `--ray [ADDRESS]`."""
    spelled = list(args)
    for i, arg in enumerate(spelled[:-1]):
        following = spelled[i + 1]
        if arg == "--ray" and not following.startswith("-") and ":" in following:
            spelled[i] = "--ray-address"
    return spelled

