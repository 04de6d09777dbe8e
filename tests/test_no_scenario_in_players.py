"""No computer player knows a bundled scenario: no scenario's file name, and no id or name
of its units, buildings, sections or areas, is written in a computer player's source (the
rule sets' ai*.py and estimates.py, the lab's doctrine, the searching computer). A player
must play a table it has never seen as well as the bundled ones."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).resolve().parents[1] / "src" / "fibua"
PLAYERS = [*SOURCE.glob("rulesets/*/ai*.py"), *SOURCE.glob("rulesets/*/estimates.py"),
           SOURCE / "lab" / "doctrine.py", SOURCE / "core" / "search.py"]
#: words too common to mark a scenario (a unit called "hq", a side)
COMMON = {"british", "germans", "americans", "hq", "road", "street"}


def _names(value: Any, found: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("id", "name", "title") and isinstance(item, str):
                found.add(item.lower())
            _names(item, found)
    elif isinstance(value, list):
        for item in value:
            _names(item, found)


def scenario_words() -> set[str]:
    found: set[str] = set()
    for path in (SOURCE / "scenarios").rglob("*.toml"):
        found.add(path.stem.lower())
        _names(tomllib.loads(path.read_text()), found)
    return {word for word in found if len(word) > 3 and word not in COMMON}


def test_the_names_are_read() -> None:
    words = scenario_words()
    assert {"corner-shop", "village-street"} <= words and len(words) > 100


def test_no_computer_player_names_a_bundled_scenario_or_its_pieces() -> None:
    words = scenario_words()
    found: dict[str, set[str]] = {}
    assert len(PLAYERS) >= 6
    for path in PLAYERS:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.lower() in words):
                found.setdefault(path.name, set()).add(node.value)
    assert not found, f"scenario names in computer players: {found}"
