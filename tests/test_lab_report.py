"""`fibua lab report`: the page and every plot, built from a small run."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fibua.cli import main as cli
from fibua.lab.report import PLOTS, head_to_head, load_run
from fibua.lab.stats import wilson

runner = CliRunner()
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def lab(*args: str) -> Result:
    result = runner.invoke(cli.app, ["lab", *args])
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("report")
    assert lab("run", "corner-shop", "--games", "5", "--out", str(root / "cc")).exit_code == 0
    assert lab("run", "corner-shop", "--games", "3", "--seat", "british=random",
               "--out", str(root / "rc")).exit_code == 0
    return root / "cc", root / "rc"


def test_the_report_holds_every_plot(runs: tuple[Path, Path]) -> None:
    main, other = runs
    result = lab("report", str(main), "--with", str(other))
    assert result.exit_code == 0, result.output
    page = (main / "report.html").read_text(encoding="utf-8")
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(embedded) == len(PLOTS)  # corner-shop has objectives to hold: all five
    for name, data in zip(PLOTS, embedded, strict=True):
        png = (main / "plots" / f"{name}.png").read_bytes()
        assert png.startswith(PNG_MAGIC)
        assert base64.b64decode(data) == png
    assert "<img" in page and "http" not in page.replace("http://www.w3.org", "")


def test_the_head_to_head_table_gives_each_seating_its_win_rates(
        runs: tuple[Path, Path]) -> None:
    main, other = runs
    table = head_to_head([load_run(main), load_run(other)])
    assert table[0] == ["players", "house rules", "games", "british wins", "germans wins",
                        "draws"]
    assert table[1][0] == "british: computer, germans: computer"
    assert table[2][0] == "british: random, germans: computer"
    other_rows = list(load_run(other).rows)
    won = sum(1 for r in other_rows if r.winner == "germans")
    low, high = wilson(won, 3)
    assert table[2][4] == f"{100 * won / 3:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]"


def test_a_folder_without_a_run_is_refused(tmp_path: Path) -> None:
    result = lab("report", str(tmp_path))
    assert result.exit_code == 2
    assert "no lab run here" in result.output


def test_the_report_of_runs_of_other_scenarios_is_refused(runs: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    assert lab("run", "farm-compound", "--games", "1", "--out",
               str(tmp_path / "farm")).exit_code == 0
    result = lab("report", str(runs[0]), "--with", str(tmp_path / "farm"))
    assert result.exit_code == 2
    assert "farm-compound" in result.output


def test_a_scenario_with_nothing_to_hold_gets_every_other_plot(tmp_path: Path) -> None:
    overlay = tmp_path / "no-victory.toml"
    overlay.write_text("victory = []\n", "utf-8")
    result = lab("run", "corner-shop", "--games", "2", "--overlay", str(overlay),
                 "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert lab("report", str(tmp_path / "run")).exit_code == 0
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == len(PLOTS) - 1
    assert "The scenario has no objective to hold." in page
    assert not (tmp_path / "run" / "plots" / "objectives.png").exists()
    assert all(not row.holders for row in load_run(tmp_path / "run").rows)


def made_run(folder: Path, seats: dict[str, str], british: int, germans: int,
             draws: int) -> Path:
    """A run of corner-shop written by hand: so many games won by each side, so many drawn."""
    from fibua.lab.records import GameRow
    from fibua.lab.store import RunInfo, RunWriter
    from fibua.scenario.loader import load_scenario

    winners = ["british"] * british + ["germans"] * germans + [None] * draws
    info = RunInfo(load_scenario("corner-shop").raw, seats, [], 0, len(winners), "made")
    writer = RunWriter.create(folder, info)
    writer.add([GameRow(seed=i, winner=w, reason="made", turns=3, orders=9, rolls=4,
                        players=seats, scores={}, casualties={"british": 1, "germans": 0})
                for i, w in enumerate(winners)])
    writer.close()
    return folder


def test_the_balance_verdicts_stand_side_by_side_with_a_warning(tmp_path: Path) -> None:
    normal = made_run(tmp_path / "normal", {"british": "normal", "germans": "normal"},
                      29, 171, 0)
    doctrine = made_run(tmp_path / "doctrine", {"british": "doctrine",
                                                 "germans": "doctrine"}, 180, 12, 8)
    result = lab("report", str(normal), "--with", str(doctrine))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "normal v normal: favours the Germans by 36 points, p < 0.001" in lines
    assert "doctrine v doctrine: favours the British by 44 points, p < 0.001" in lines
    assert any(line.startswith("warning: the verdicts disagree about who is favoured")
               for line in lines)
    page = (normal / "report.html").read_text(encoding="utf-8")
    assert "favours the Germans by 36 points, p &lt; 0.001" in page
    assert "Warning: the verdicts disagree" in page
    assert "85.5% [" in page  # the Germans' share of decided games, with its interval
    assert (normal / "plots" / "balance.png").exists()


def test_an_even_run_is_called_even_and_warns_of_nothing(tmp_path: Path) -> None:
    even = made_run(tmp_path / "even", {"british": "normal", "germans": "normal"}, 48, 52, 5)
    result = lab("report", str(even))
    assert result.exit_code == 0, result.output
    assert "normal v normal: even: no evidence either way (p = 0.76)" in result.output
    assert "warning" not in result.output
