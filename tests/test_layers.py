"""Nothing imports upward: the server and the lab know nothing of the terminal, the session
layer nothing of any front end, the core no rule set."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "fibua"
#: package -> packages of fibua it must not import
FORBIDDEN = {
    "server": ("fibua.cli", "fibua.lab"),
    "lab": ("fibua.cli", "fibua.server"),
    "session": ("fibua.cli", "fibua.server", "fibua.lab"),
    "core": ("fibua.cli", "fibua.server", "fibua.lab", "fibua.session", "fibua.rulesets"),
    "rulesets": ("fibua.cli", "fibua.server", "fibua.lab", "fibua.session"),
    "quick": ("fibua.cli", "fibua.server", "fibua.lab", "fibua.session"),
}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_package_imports_a_layer_above_it(package: str) -> None:
    wrong = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in sorted((SRC / package).rglob("*.py"))
        for name in sorted(imported(path))
        if name.startswith(FORBIDDEN[package])
    ]
    assert not wrong, wrong
