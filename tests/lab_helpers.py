"""`fibua lab` driven in-process, as the lab tests call it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from fibua.cli import main as cli

runner = CliRunner()


def lab(*args: str) -> Result:
    """`fibua lab ARGS`: never a traceback, and any exception only the exit's."""
    result = runner.invoke(cli.app, ["lab", *args])
    assert "Traceback" not in result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), result.exception
    return result


def six_games(out: Path) -> Path:
    """A run of corner-shop, seeds 40-45, one job, in `out`."""
    result = lab("run", "corner-shop", "--games", "6", "--seed-start", "40", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out
