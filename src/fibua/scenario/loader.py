"""Reading scenario files: TOML, validated, every problem reported with its field path."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from fibua.core.errors import Problem, ScenarioError, UnknownRuleset
from fibua.core.ruleset import find_ruleset
from fibua.scenario.schema import Scenario


def field_path(loc: Sequence[int | str]) -> str:
    """pydantic's location tuple as a path a person reads: sides[0].forces.units[2].weapon"""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _problems(error: ValidationError, source: str, prefix: Sequence[int | str] = ()) -> list[Problem]:
    problems = []
    for item in error.errors():
        loc = [p for p in (*prefix, *item["loc"]) if not _is_pydantic_tag(p)]
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown key (not part of the format)"
        problems.append(Problem(source, field_path(loc), message))
    return problems


def _is_pydantic_tag(part: int | str) -> bool:
    # pydantic inserts validator names such as "function-after[...]" into locations
    return isinstance(part, str) and ("[" in part or part.startswith("function-"))


def _validate_part(
    model: type[BaseModel], raw: Any, source: str, prefix: Sequence[int | str]
) -> tuple[Any, list[Problem]]:
    try:
        return model.model_validate(raw), []
    except ValidationError as error:
        return None, _problems(error, source, prefix)


def scenario_from_dict(raw: dict[str, Any], source: str = "<scenario>") -> Scenario:
    """Validate a parsed scenario table; raise ScenarioError listing every problem."""
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as error:
        raise ScenarioError(_problems(error, source)) from None
    try:
        ruleset = find_ruleset(scenario.ruleset)
    except UnknownRuleset as error:
        raise ScenarioError([Problem(source, "scenario.ruleset", str(error))]) from None
    problems: list[Problem] = []
    forces: dict[str, Any] = {}
    for i, side in enumerate(scenario.sides):
        model, found = _validate_part(
            ruleset.forces_model, side.forces, source, ("sides", i, "forces")
        )
        forces[side.name] = model
        problems += found
    options, found = _validate_part(ruleset.options_model, scenario.options, source, ("options",))
    problems += found
    if problems:
        raise ScenarioError(problems)
    scenario._forces = forces
    scenario._options = options
    scenario._raw = raw
    problems = [Problem(source, p.path, p.message) for p in ruleset.check_scenario(scenario)]
    if problems:
        raise ScenarioError(problems)
    return scenario


def scenario_from_text(text: str, source: str = "<scenario>") -> Scenario:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([Problem(source, "", f"not valid TOML: {error}")]) from None
    return scenario_from_dict(raw, source)


def load_scenario(path_or_name: str | Path) -> Scenario:
    """Load a scenario file, or a bundled scenario by name."""
    path = Path(path_or_name)
    if not path.exists():
        bundled = bundled_scenarios()
        if str(path_or_name) in bundled:
            path = bundled[str(path_or_name)]
        else:
            raise ScenarioError(
                [Problem(str(path_or_name), "", "no such file, and no bundled scenario of that name")]
            )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError([Problem(str(path), "", f"cannot read: {error}")]) from None
    return scenario_from_text(text, str(path))


def bundled_scenarios() -> dict[str, Path]:
    """Bundled scenario files by name (file stem), all rule sets."""
    root = resources.files("fibua") / "scenarios"
    found: dict[str, Path] = {}
    for folder in sorted(root.iterdir(), key=lambda p: p.name):
        if folder.is_dir():
            for item in sorted(folder.iterdir(), key=lambda p: p.name):
                if item.name.endswith(".toml"):
                    found[item.name.removesuffix(".toml")] = Path(str(item))
    return found
