"""The `fibua` command: play, autoplay, replay, validate, scenarios, quick, map, odds,
rulesets.

Every command works for any registered rule set. Bad input never ends in a traceback: the
typed errors fibua raises (`FibuaError`) are printed as messages with exit status 2.

This module declares the commands only: each imports what it runs when it runs, so that
`fibua --help` (and a mistyped command) answers at once, without numba, Shapely or the lab.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from fibua.cli.common import console, error_console, fail, guarded
from fibua.cli.lab import lab_app, ray_address_spelling

EXIT_MISMATCH = 1
#: as a shell reports a process stopped by SIGINT (Ctrl-C) or SIGHUP
EXIT_INTERRUPTED = 130
EXIT_HANG_UP = 129

app = typer.Typer(
    name="fibua",
    help="Engine and computer umpire for WWII urban-combat wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain help pages: Rich's would import a tenth of a second of modules first
    rich_markup_mode=None,
)
app.add_typer(lab_app, name="lab")


@app.command()
@guarded
def play(
    scenario: Annotated[str | None, typer.Argument(help="scenario file or bundled name")] = None,
    side: Annotated[str | None, typer.Option(help="the side you play")] = None,
    seed: Annotated[int | None, typer.Option(
        min=0, help="dice seed, to play a game again; a seed you give is no secret, so "
                    "anyone who knows it knows every roll to come (default: a secret "
                    "128-bit seed drawn afresh)")] = None,
    out: Annotated[
        Path | None, typer.Option(help="write the full game log here at the end")
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(help="a seat (commander) of your side played by a person; repeat for "
                          "several; the other seats are played by the computer (default: "
                          "every seat by people)"),
    ] = None,
    watch: Annotated[
        bool, typer.Option("--watch", help="the computer plays your side too: watch the game "
                                            "as your side sees it (the same game as fibua "
                                            "autoplay with that seed)"),
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(help="keep every order in this file as it is given (default: a new file "
                          "in your data folder, or $FIBUA_SAVE_DIR)"),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="carry on the game saved in this file (its scenario and seed come "
                          "from it); it goes on being saved there unless --save names another"),
    ] = None,
    level: Annotated[
        str, typer.Option(help="how well the computer plays: easy, normal or hard (it looks "
                               "ahead; slower)")
    ] = "normal",
) -> None:
    """Play a scenario at the terminal against the computer.

    Every order is saved as it is given: --resume carries on after Ctrl-C or a crash.
    """
    from fibua.cli.games import (
        HangUp,
        computer_level,
        computer_players,
        hang_up_stops_the_game,
        human_seats,
        human_side,
        prepared_play,
    )
    from fibua.cli.saving import check_new, check_writable, new_save_path, resume_command
    from fibua.cli.terminal import PlaySession
    from fibua.core.errors import InputError, Problem
    from fibua.core.journal import Journal
    from fibua.core.replay import write_log
    from fibua.session.computers import seat_computers

    strength = computer_level(level)
    if resume is not None and (scenario is not None or seed is not None):
        raise InputError([Problem("--resume", "", "a resumed game takes its scenario and seed "
                                                  "from the save: give neither")])
    if out is not None:
        check_writable(out, "--out")
    if save is not None and save != resume:
        check_new(save, "--save")
        check_writable(save, "--save")
    game, notes = prepared_play(scenario, seed, resume)
    loaded = game.scenario
    game_seed = game.seed
    you = human_side(loaded, side)
    seats = game.ruleset.seats(loaded, you)
    people = set() if watch else human_seats(seats, seat)
    save_path = save or resume or new_save_path(loaded.name, game_seed)
    check_writable(save_path, "--save")
    journal = Journal.begin(game, save_path)
    out_console = console()
    for note in notes:
        out_console.print(note, markup=False, highlight=False)
    out_console.print(f"{loaded.scenario.title} ({loaded.ruleset}): you play {you}, seed "
                      f"{game_seed}. Type help.", markup=False)
    hint = resume_command(save_path, side, seat)
    out_console.print(f"Every order is saved to {save_path}; to carry on later: {hint}",
                      markup=False, highlight=False)
    if len(seats) > 1:
        out_console.print("Seats, in order: " + ", ".join(
            f"{s.name} ({'person' if s.name in people else 'computer'})" for s in seats),
            markup=False)
    session = PlaySession(
        game,
        you,
        computer_players(loaded, game_seed, (you,) if people else (), strength),
        out_console,
        echo=not sys.stdin.isatty(),
        seats=seats,
        seat_players={} if watch else seat_computers(game.ruleset, seats, game_seed, people,
                                                     strength),
    )
    stopped: KeyboardInterrupt | None = None
    outcome = None
    try:
        with hang_up_stops_the_game():
            outcome = session.run()
    except KeyboardInterrupt as stop:
        stopped = stop
    # the save and the log first: after a hang-up there is no terminal to print to
    journal.close()
    if out is not None:
        write_log(game, out)
    if isinstance(stopped, HangUp):
        raise typer.Exit(EXIT_HANG_UP)
    if stopped is not None:
        out_console.print()
        out_console.print(f"Interrupted: the game is saved in {save_path}.", markup=False)
    elif outcome == "eof":
        out_console.print("End of input: leaving the game unfinished.")
    elif outcome == "quit":
        out_console.print("You left the game.")
    if out is not None:
        out_console.print(f"Log written to {out} (seed {game_seed}).", markup=False)
    if stopped is not None or outcome != "over":
        out_console.print(f"To carry on: {hint}", markup=False, highlight=False)
    if stopped is not None:
        raise typer.Exit(EXIT_INTERRUPTED)


# -- autoplay and replay --------------------------------------------------------------------


@app.command()
@guarded
def autoplay(
    scenario: Annotated[str, typer.Argument(help="scenario file or bundled name")],
    seed: Annotated[int, typer.Option(
        min=0, help="dice seed (any size; the same seed plays the same game)")],
    out: Annotated[Path, typer.Option(help="where to write the log (JSON Lines)")],
    as_side: Annotated[
        str | None, typer.Option("--as", help="write only what this side may know")
    ] = None,
    max_orders: Annotated[int, typer.Option(min=1, help="stop a game that runs longer")] = 100_000,
    report: Annotated[
        bool, typer.Option("--report", help="print the after-action report after the game")
    ] = False,
    level: Annotated[
        str, typer.Option(help="how well the computer plays: easy, normal or hard (it looks "
                               "ahead; slower)")
    ] = "normal",
) -> None:
    """Let the computer play every side and write the game log."""
    from fibua.cli.games import check_side, computer_level, computer_players
    from fibua.cli.review import show_after_action
    from fibua.cli.saving import check_writable
    from fibua.cli.warmup import preparing, warm_up
    from fibua.core.game import Game, play_out
    from fibua.core.replay import write_log
    from fibua.scenario.loader import load_scenario
    from fibua.session.narration import win_text

    check_writable(out, "--out")
    with preparing(error_console()):
        loaded = load_scenario(scenario)
        if as_side is not None:
            check_side(loaded, as_side, "--as")
        game = Game(loaded, seed)
        warm_up(game)
    try:
        result = play_out(game, computer_players(loaded, seed, level=computer_level(level)),
                          max_orders=max_orders)
    except RuntimeError as error:
        raise fail(str(error), 1) from None
    lines = write_log(game, out, side=as_side)
    outcome = win_text(result) if result.winner else "draw"
    view = f" (what side {as_side} saw)" if as_side else ""
    typer.echo(
        f"{loaded.name} seed {seed}: {outcome} ({result.reason}) after {len(game.orders)} "
        f"orders; {lines} lines written to {out}{view}"
    )
    if report:
        show_after_action(game, console())


@app.command("replay")
@guarded
def replay_command(
    log: Annotated[Path, typer.Argument(help="a full game log written by fibua")],
    show: Annotated[
        bool,
        typer.Option("--show", help="then go through the game turn by turn, everything "
                                    "revealed, and show the after-action report"),
    ] = False,
) -> None:
    """Play a log's orders again and check every line and the final state hash."""
    from fibua.cli.games import ask_next_turn, print_mismatch
    from fibua.cli.review import show_review
    from fibua.cli.warmup import preparing
    from fibua.core.replay import read_log, replay_by_turn, replay_log

    parsed = read_log(log)
    with preparing(error_console()):
        report = replay_log(parsed)
    if report.mismatch is not None:
        print_mismatch(report, report.mismatch)
        raise typer.Exit(EXIT_MISMATCH)
    typer.echo(f"OK: {report.orders} orders, {report.lines} lines, state hash {report.state_hash}")
    if show:
        records, game = replay_by_turn(parsed)
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        show_review(records, game, console(), ask_next_turn if interactive else None)


# -- scenarios ------------------------------------------------------------------------------


@app.command()
@guarded
def validate(file: Annotated[str, typer.Argument(help="scenario file (TOML)")]) -> None:
    """Check a scenario file and list every problem."""
    from fibua.scenario.loader import load_scenario

    loaded = load_scenario(file)
    typer.echo(
        f"OK: {loaded.name} - {loaded.scenario.title} ({loaded.ruleset}, "
        f"{len(loaded.sides)} sides, {loaded.scenario.turns} turns)"
    )


@app.command()
@guarded
def scenarios() -> None:
    """List the bundled scenarios."""
    from rich.table import Table

    from fibua.core.errors import ScenarioError
    from fibua.scenario.loader import bundled_scenarios, load_scenario

    table = Table(title="Bundled scenarios")
    # names and rule sets are typed back (fibua play NAME): never cut or wrapped
    for column in ("name", "rule set"):
        table.add_column(column, no_wrap=True, min_width=len(column))
    table.add_column("title", ratio=2)
    table.add_column("turns", no_wrap=True)
    table.add_column("sides", ratio=1)
    for name, path in bundled_scenarios().items():
        try:
            found = load_scenario(path)
        except ScenarioError as error:
            table.add_row(name, path.parent.name, f"(invalid: {error.problems[0].message})", "", "")
            continue
        table.add_row(
            name,
            found.ruleset,
            found.scenario.title,
            str(found.scenario.turns),
            " v ".join(found.side_names),
        )
    console().print(table)


@app.command()
@guarded
def quick(
    ruleset: Annotated[str, typer.Argument(
        help="the rule set: street-fight, street-fighter, house-clearing or buildings")],
    seed: Annotated[int | None, typer.Option(
        min=0, help="the seed the battle is made from: the same seed, the same file "
                    "(default: one drawn at random, printed)")] = None,
    out: Annotated[Path | None, typer.Option(
        help="the scenario file to write (default: quick-RULESET-SEED.toml here)")] = None,
    play_it: Annotated[bool, typer.Option(
        "--play", help="then play it at the terminal against the computer")] = False,
) -> None:
    """Make a quick battle no one has seen: a town, forces of equal points, objectives."""
    import secrets

    from fibua.cli.saving import check_writable
    from fibua.quick.battle import army_for, quick_battle

    army_for(ruleset)  # an unknown rule set is refused before anything is written
    chosen = seed if seed is not None else secrets.randbelow(1_000_000)
    path = out or Path(f"quick-{ruleset}-{chosen}.toml")
    check_writable(path, "--out")
    battle = quick_battle(ruleset, chosen)
    path.write_text(battle.text, encoding="utf-8")
    for line in battle.summary:
        typer.echo(line)
    typer.echo(f"wrote {path} (seed {chosen}); to play it: fibua play {path}")
    if play_it:
        play(scenario=str(path), side=None, seed=None, out=None, seat=None, watch=False,
             save=None, resume=None, level="normal")


@app.command("map")
@guarded
def map_command(
    scenario: Annotated[str, typer.Argument(help="scenario file or bundled name")],
    svg: Annotated[Path, typer.Option("--svg", help="the SVG file to write")],
    side: Annotated[str | None, typer.Option(help="show only this side's figures")] = None,
) -> None:
    """Draw a scenario's battlefield and starting figures as SVG."""
    from fibua.battlefield.model import Battlefield
    from fibua.battlefield.svg import render_svg
    from fibua.cli.games import check_side, side_markers
    from fibua.core.ruleset import find_ruleset
    from fibua.scenario.loader import load_scenario
    from fibua.session.objectives import objective_marks

    loaded = load_scenario(scenario)
    sides = (check_side(loaded, side),) if side else loaded.side_names
    # the map as the forces leave it at set-up (Buildings: the openings units made)
    state = find_ruleset(loaded.ruleset).new_state(loaded, 0)
    battlefield: Battlefield = getattr(state, "battlefield", loaded.battlefield)
    text = render_svg(battlefield, markers=side_markers(loaded, sides),
                      objectives=objective_marks(loaded))
    svg.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {svg}")


# -- rule sets and odds ---------------------------------------------------------------------


@app.command()
def rulesets() -> None:
    """List the rule sets fibua knows."""
    from rich.table import Table

    from fibua.core.errors import FibuaError
    from fibua.core.ruleset import find_ruleset, ruleset_names

    table = Table(title="Rule sets")
    for column in ("name", "title", "orders", "odds queries"):
        table.add_column(column)
    for name in ruleset_names():
        try:
            ruleset = find_ruleset(name)
        except (FibuaError, ImportError) as error:
            table.add_row(name, f"(not available: {error})", "", "")
            continue
        table.add_row(
            name,
            ruleset.title,
            ", ".join(ruleset.order_syntax),
            ", ".join(ruleset.odds_queries),
        )
    console().print(table)


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,
)
@guarded
def odds(
    args: Annotated[
        list[str] | None, typer.Argument(help="RULESET QUERY [options] [--json] [--help]")
    ] = None,
) -> None:
    """Exact odds of an action (see fibua odds street-fight shoot --help)."""
    from fibua.cli.odds import OddsUsageError, run_odds

    try:
        status = run_odds(list(args or []), console(), typer.echo)
    except OddsUsageError as error:
        raise fail(str(error)) from None
    raise typer.Exit(status)


@app.command()
@guarded
def warmup(
    force: Annotated[bool, typer.Option("--force", help="compile them again even if they "
                                                       "are ready")] = False,
) -> None:
    """Compile the rules engine's kernels now (make play runs it), so that the first game
    starts at once; prints nothing when they are ready."""
    from fibua.cli.warmup import run_warmup

    run_warmup(error_console(), force)


@app.command()
@guarded
def serve(
    db: Annotated[Path | None, typer.Option(help="the games database (default: in your data "
                                                 "folder)")] = None,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="port to listen on")] = 8000,
    open_page: Annotated[bool, typer.Option("--open/--no-open", help="open the lobby in "
                                            "your browser once the server listens")] = False,
    prepare: Annotated[bool, typer.Option(
        "--prepare/--no-prepare", help="compile the rules engine's kernels in the background "
                                       "if they are not (the lobby says how far it has come "
                                       "and games made meanwhile open once it is)")] = True,
    allow_host: Annotated[list[str] | None, typer.Option(
        metavar="NAME", help="another name the server is reached by (a proxy's, the "
                             "machine's), on any port; repeat for several")] = None,
) -> None:
    """Play in the browser: a game server with a link for each seat (prints its URL)."""
    from fibua.server import serve as run_server

    run_server(db, host, port, open_page=open_page, prepare=prepare,
               allow_hosts=allow_host or ())


def main() -> None:
    try:
        app(args=ray_address_spelling(sys.argv[1:]))
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


#: what moved to fibua.cli.games, still found here (imported on first use)
MOVED = ("check_side", "computer_players", "default_scenario", "human_seats", "human_side",
         "side_markers")


def __getattr__(name: str) -> Any:
    if name in MOVED:
        from fibua.cli import games

        return getattr(games, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
