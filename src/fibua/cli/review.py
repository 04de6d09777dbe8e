"""Looking back on a game: the after-action view, turn by turn, with everything revealed.

Control's view: every event, whoever it was addressed to (its audience shown), and where
each side's figures stood at the end of each turn; then the result and the rule set's
after-action report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from fibua.core.game import Game
from fibua.core.replay import TurnRecord
from fibua.session.figures import where
from fibua.session.narration import audience, describe_event, win_text


def standing_table(side: str, figures: Sequence[Mapping[str, Any]]) -> Table:
    table = Table(title=f"{side}: where each stood", title_justify="left", expand=False)
    for column in ("id", "name", "where", "status"):
        table.add_column(column)
    for info in figures:
        table.add_row(
            str(info.get("id", "")),
            str(info.get("name", "")),
            where(info),
            str(info.get("status", "")),
        )
    return table


def show_turn(record: TurnRecord, console: Console) -> None:
    console.print(Rule(f"Turn {record.turn}"))
    for event in record.events:
        lines = describe_event(event)
        console.print(Text(f"  [{audience(event)}] {lines[0]}"), highlight=False)
        for line in lines[1:]:
            console.print(Text("  " + line), highlight=False)
    for side, figures in record.standing.items():
        console.print(standing_table(side, figures))


def show_after_action(game: Game, console: Console) -> None:
    """The result and the rule set's after-action report (whatever rule set it is)."""
    result = game.result()
    if result is None:
        console.print(Rule("The game was not finished"))
    else:
        console.print(Rule(f"Game over: {win_text(result)}"))
        console.print(result.reason, markup=False, highlight=False)
        for side, score in result.scores.items():
            console.print(f"  {side}: {score:g}", markup=False, highlight=False)
    report = game.ruleset.after_action(game.state)
    if report:
        console.print(Rule("After-action report"))
        for line in report:
            console.print(line, markup=False, highlight=False)


def show_review(
    records: Sequence[TurnRecord],
    game: Game,
    console: Console,
    next_turn: Callable[[], bool] | None = None,
) -> None:
    """Every turn, then the after-action report. `next_turn`, if given, is asked between
    turns and stops the review when it answers False (a person stepping through)."""
    for n, record in enumerate(records):
        show_turn(record, console)
        if next_turn is not None and n + 1 < len(records) and not next_turn():
            return
    show_after_action(game, console)
