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
from fibua.scenario.schema import PROBLEMS, Loc, Scenario, field_path, reference_problems

__all__ = ["bundled_scenarios", "field_path", "load_scenario", "scenario_from_dict",
           "scenario_from_text"]

_SHOULD_BE = "Input should be "


def _problems(
    error: ValidationError, source: str, prefix: Sequence[int | str] = ()
) -> list[Problem]:
    """One problem per place: a schema check's several problems are split up, and the
    alternatives of a union (a weapon name or "random") are merged into one message."""
    problems: list[Problem] = []
    last_union: tuple[str, str] | None = None  # (path, message) of the previous plain error
    for item in error.errors():
        loc: Loc = tuple(p for p in (*prefix, *item["loc"]) if not _is_pydantic_tag(p))
        if item["type"] == PROBLEMS:
            for rel, message in item.get("ctx", {}).get("problems", []):
                problems.append(Problem(source, field_path((*loc, *rel)), message))
            last_union = None
            continue
        message = _message(item, loc)
        if message == _POINT and len(loc) > 1 and all(isinstance(p, int) for p in loc[-2:]):
            loc = loc[:-1]  # a coordinate missing: report the point
        path = field_path(loc)
        if last_union is not None and last_union[0] == path and problems:
            message = _either(last_union[1], message)
            problems[-1] = Problem(source, path, message + _got(item))
        else:
            problems.append(Problem(source, path, message + _got(item)))
        last_union = (path, message)
    return problems


_POINT_LISTS = frozenset({"footprint", "polygon", "points", "deployment", "zone"})
_POINT = "a point is written as two numbers, [x, y]"


def _message(item: Any, loc: Loc) -> str:
    """pydantic's message in the words of a TOML file (tables and lists, keys and values)."""
    kind = item["type"]
    last = loc[-1] if loc else None
    point = last == "at" or (isinstance(last, int) and any(p in _POINT_LISTS for p in loc))
    if kind == "extra_forbidden":
        return "unknown key (not part of the format)"
    if kind == "missing" and isinstance(last, int):
        kind = "too_short"  # a missing position in a fixed-length list
    if kind == "missing":
        return "required key is missing"
    if kind in ("tuple_type", "too_short", "too_long") and point:
        return _POINT
    if kind in ("tuple_type", "too_short", "too_long") and "connections" in loc:
        return 'a connection is written as two section ids, ["a", "b"]'
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return "should be a table of keys and values"
    if kind in ("tuple_type", "list_type"):
        return "should be a list [...]"
    return str(item["msg"]).removeprefix("Value error, ")


def _either(first: str, second: str) -> str:
    if first.startswith(_SHOULD_BE) and second.startswith(_SHOULD_BE):
        return f"{first}, or {second.removeprefix(_SHOULD_BE)}"
    return f"{first}; {second}"


def _got(item: Any) -> str:
    """The offending value when it is short and plain, so the reader sees what was there."""
    value = item.get("input")
    if item["type"] in ("extra_forbidden", "missing") or not isinstance(
        value, str | int | float | bool
    ):
        return ""
    shown = repr(value)
    return f" (got {shown})" if len(shown) <= 40 else f" (got {shown[:37]}...)"


def _with_references(problems: list[Problem], raw: Any, source: str) -> list[Problem]:
    """Add the cross-reference problems of a file that failed the schema, as the schema
    checks those only on an otherwise valid file; skip places already reported."""
    reported = [p.path for p in problems]
    for loc, message in reference_problems(raw):
        path = field_path(loc)
        if not any(path == r or path.startswith((f"{r}.", f"{r}[")) for r in reported):
            problems.append(Problem(source, path, message))
            reported.append(path)
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
        raise ScenarioError(_with_references(_problems(error, source), raw, source)) from None
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
            message = "no such file, and no bundled scenario of that name"
            raise ScenarioError([Problem(str(path_or_name), "", message)])
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
