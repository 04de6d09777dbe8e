"""`fibua lab compare`: paired on common seeds, independent otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fibua.cli import main as cli
from fibua.lab.compare import compare_runs
from fibua.lab.report import load_run
from fibua.lab.stats import (
    games_needed_paired,
    games_needed_unpaired,
    mcnemar_exact,
    newcombe_unpaired,
    two_proportion_z,
)

runner = CliRunner()


def lab(*args: str) -> Result:
    result = runner.invoke(cli.app, ["lab", *args])
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("compare")
    for name, extra in (("a", []), ("b", ["--seat", "british=random"]),
                        ("later", ["--seed-start", "100"])):
        result = lab("run", "corner-shop", "--games", "6", *extra, "--out", str(root / name))
        assert result.exit_code == 0, result.output
    return root


def test_runs_on_the_same_seeds_are_paired_game_by_game(root: Path) -> None:
    a, b = load_run(root / "a"), load_run(root / "b")
    found = compare_runs(a, b, 0.1)
    assert found.paired and found.seeds_in_common == 6
    for side in found.sides:
        won_a = [r.winner == side.side for r in a.rows]
        won_b = [r.winner == side.side for r in b.rows]
        only_a = sum(1 for x, y in zip(won_a, won_b, strict=True) if x and not y)
        only_b = sum(1 for x, y in zip(won_a, won_b, strict=True) if y and not x)
        d = side.difference
        assert (d.first, d.second) == (sum(won_a) / 6, sum(won_b) / 6)
        assert d.p_value == mcnemar_exact(only_a, only_b)
        assert d.low <= d.difference <= d.high
        assert side.games_needed == games_needed_paired(0.1, (only_a + only_b) / 6)
        assert "McNemar" in d.test


def test_runs_on_other_seeds_are_independent_samples(root: Path) -> None:
    a, later = load_run(root / "a"), load_run(root / "later")
    found = compare_runs(a, later)
    assert not found.paired
    side = found.sides[1]
    won_a = sum(1 for r in a.rows if r.winner == side.side)
    won_later = sum(1 for r in later.rows if r.winner == side.side)
    assert side.difference.p_value == two_proportion_z(won_a, 6, won_later, 6)
    assert (side.difference.low, side.difference.high) == newcombe_unpaired(
        won_a, 6, won_later, 6)
    base = won_a / 6
    assert side.games_needed == games_needed_unpaired(
        base, base + 0.05 if base + 0.05 <= 1 else base - 0.05)


def test_the_command_says_which_test_it_used(root: Path) -> None:
    result = lab("compare", str(root / "a"), str(root / "b"), "--difference", "0.1")
    assert result.exit_code == 0, result.output
    assert "paired on the 6 seeds" in result.output and "McNemar" in result.output
    assert "british" in result.output and "difference of 10 points" in result.output
    result = lab("compare", str(root / "a"), str(root / "later"))
    assert result.exit_code == 0, result.output
    assert "two-proportion z-test" in result.output


def test_runs_of_other_scenarios_or_a_bad_difference_are_refused(root: Path,
                                                                 tmp_path: Path) -> None:
    assert lab("run", "farm-compound", "--games", "1", "--out",
               str(tmp_path / "farm")).exit_code == 0
    result = lab("compare", str(root / "a"), str(tmp_path / "farm"))
    assert result.exit_code == 2 and "farm-compound" in result.output
    result = lab("compare", str(root / "a"), str(root / "b"), "--difference", "2")
    assert result.exit_code == 2 and "--difference" in result.output
