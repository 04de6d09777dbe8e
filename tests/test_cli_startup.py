"""`fibua --help` answers at once: the command line declares its commands without importing
the engine, the lab, the server or their libraries (each command imports what it runs)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: what a help page must not import (each costs from tens to hundreds of milliseconds);
#: not pydantic, which Typer itself imports to read some options' types
HEAVY = ("numba", "numpy", "shapely", "matplotlib", "ray", "rich", "uvicorn",
         "starlette", "fibua.battlefield", "fibua.core.game", "fibua.lab", "fibua.server",
         "fibua.rulesets", "fibua.scenario")

PROBE = """
import json, sys
sys.argv = ["fibua", *json.loads(sys.argv[1])]
from fibua.cli.main import main
try:
    main()
except SystemExit as stop:
    code = stop.code
heavy = {heavy}
print(json.dumps({{"code": code, "loaded": sorted(m for m in heavy if m in sys.modules)}}))
"""


def imported_by(*args: str) -> dict[str, object]:
    probe = PROBE.format(heavy=list(HEAVY))
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(list(args))],
                          capture_output=True, text=True, timeout=120, check=True)
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize("args", [["--help"], ["lab", "--help"], ["serve", "--help"],
                                  ["play", "--help"], ["no-such-command"]], ids=" ".join)
def test_help_imports_nothing_heavy(args: list[str]) -> None:
    found = imported_by(*args)
    assert found["loaded"] == []
    assert found["code"] in (0, 2)


def test_a_command_still_imports_what_it_runs() -> None:
    found = imported_by("validate", "no-such-file.toml")
    assert found["code"] == 2
    assert "fibua.scenario" in found["loaded"]
