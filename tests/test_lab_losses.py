"""`fibua lab losses` and the report's table of units lost: which unit a side loses, in how
many games, how early. The figures are counted from the rows' falls; a run of real games
checks the command end to end against the rows it stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from fibua.lab.losses import losses, losses_table
from fibua.lab.records import Fall, GameRow
from fibua.lab.report import load_run
from lab_helpers import lab, six_games


def fall(side: str, ident: str, turn: int | None) -> Fall:
    return Fall(side=side, id=ident, name=ident.title(), turn=turn, x=1.0, y=2.0,
                section=None, floor=None, how="destroyed")


def row(seed: int, *falls: Fall) -> GameRow:
    return GameRow(seed=seed, winner=None, reason="turn limit", turns=5, orders=10, rolls=20,
                   players={"a": "normal", "b": "normal"}, scores={"a": 0.0, "b": 0.0},
                   casualties={}, falls=list(falls))


ROWS = [row(1, fall("a", "hq", 1), fall("b", "gun", 4)),
        row(2, fall("a", "hq", 1), fall("a", "hq", 1)),  # listed twice: counted once
        row(3, fall("a", "hq", 3)),
        row(4, fall("b", "gun", None))]


def test_each_unit_is_counted_once_a_game_with_how_early() -> None:
    found = {(loss.side, loss.id): loss for loss in losses(ROWS, by_turn=1)}
    hq, gun = found[("a", "hq")], found[("b", "gun")]
    assert (hq.games, hq.lost, hq.early, hq.turns) == (4, 3, 2, (1, 1, 3))
    assert hq.rate == pytest.approx(0.75) and hq.early_rate == pytest.approx(0.5)
    assert hq.median_turn() == 1
    # a fall no event dated counts as lost, never as early, and has no turn
    assert (gun.lost, gun.early, gun.turns) == (2, 0, (4,))
    low, high = hq.interval()
    assert low < 0.75 < high


def test_the_most_often_lost_come_first_and_by_turn_moves_the_early_count() -> None:
    assert [loss.id for loss in losses(ROWS)] == ["hq", "gun"]
    assert [loss.early for loss in losses(ROWS, by_turn=3)] == [3, 0]
    assert [loss.early for loss in losses(ROWS, by_turn=4)] == [3, 1]


def test_the_table_gives_counts_rates_and_intervals() -> None:
    table = losses_table(losses(ROWS, by_turn=2))
    assert table[0][-1] == "lost by turn 2 [95% CI]"
    assert table[1][:2] == ["a", "Hq (hq)"]
    assert table[1][2].startswith("3/4 = 75.0% [")
    assert table[1][3] == "1" and table[1][4].startswith("2/4 = 50.0% [")
    assert len(losses_table(losses(ROWS), top=1)) == 2
    assert losses_table([]) == [["side", "unit", "lost"]]


def test_the_command_reads_a_run_of_real_games(tmp_path: Path) -> None:
    folder = six_games(tmp_path / "run")
    rows = load_run(folder).rows
    lost = losses(rows)
    assert lost, "six games of corner-shop lose somebody"
    first = lost[0]
    assert first.lost == sum(1 for r in rows if any(f.id == first.id for f in r.falls))
    result = lab("losses", str(folder), "--by-turn", "2", "--top", "3")
    assert result.exit_code == 0, result.output
    assert f"({first.id})" in result.output and "lost by turn 2" in result.output
    assert "6 games" in result.output


def test_the_report_lists_the_units_lost(tmp_path: Path) -> None:
    folder = six_games(tmp_path / "run")
    assert lab("report", str(folder)).exit_code == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    first = losses(load_run(folder).rows)[0]
    assert "Units lost" in page and f"({first.id})" in page


def test_a_folder_without_a_run_is_refused_by_name(tmp_path: Path) -> None:
    result = lab("losses", str(tmp_path))
    assert result.exit_code != 0
    assert str(tmp_path) in result.output or "run" in result.output
