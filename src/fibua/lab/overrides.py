"""House rules: a scenario played with some of its options or fields changed.

`--set NAME=VALUE` changes one value. NAME is a rule option of the scenario's rule set
(`morale`), a field of the scenario's `[scenario]` table (`turns`), or a dotted path into
the scenario file (`options.morale`, `scenario.turns`, `sides.germans.deployment`; a side
is named, not numbered). VALUE is read as a TOML value (`false`, `6`, `"text"`,
`[[0, 0], [4, 0], [4, 4]]`), and as plain text if it is none. An overlay file (TOML) is
laid over the scenario file: its tables merge into the scenario's, other values replace
theirs, and `[sides.NAME]` merges into the side of that name. The changed scenario is
checked as a whole, as a scenario file is, so a bad value is reported with its place.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fibua.core.errors import InputError, Problem
from fibua.core.ruleset import find_ruleset
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Meta, Scenario

#: top-level tables of a scenario file
SECTIONS = tuple(Scenario.model_fields)
#: fields a house rule may not change: they say which scenario and rule set this is
FIXED = frozenset({("scenario", "name"), ("scenario", "ruleset")})


def _problem(option: str, message: str) -> InputError:
    return InputError([Problem(option, "", message)])


def parse_value(text: str) -> Any:
    """A TOML value, or the text itself when it reads as none."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def option_names(scenario: Scenario) -> list[str]:
    return list(find_ruleset(scenario.ruleset).options_model.model_fields)


def resolve_name(scenario: Scenario, name: str) -> list[str]:
    """The path into the scenario file a `--set` name stands for."""
    parts = name.split(".")
    if not name or any(not p for p in parts):
        raise _problem("--set", f"{name!r} is not a name (e.g. turns, or options.NAME)")
    if len(parts) > 1:
        if parts[0] not in SECTIONS:
            raise _problem("--set", f"{name!r}: a path begins with one of "
                                    f"{', '.join(SECTIONS)}")
        return parts
    options = option_names(scenario)
    if name in options:
        return ["options", name]
    if name in Meta.model_fields:
        return ["scenario", name]
    known = ", ".join([*options, *(f for f in Meta.model_fields if ("scenario", f) not in FIXED)])
    raise _problem("--set", f"no option or scenario field {name!r} in {scenario.name} "
                            f"({scenario.ruleset}); known: {known}")


def _side_index(raw: dict[str, Any], side: str, option: str) -> int:
    names = [s.get("name") for s in raw.get("sides", []) if isinstance(s, dict)]
    if side not in names:
        raise _problem(option, f"no side {side!r}; sides: {', '.join(map(str, names))}")
    return names.index(side)


def _set(raw: dict[str, Any], path: list[str], value: Any, option: str) -> None:
    if tuple(path[:2]) in FIXED:
        raise _problem(option, f"{'.'.join(path)} says which scenario this is; a house "
                               "rule cannot change it")
    at: Any = raw
    for i, key in enumerate(path[:-1]):
        if key == "sides" and i == 0 and isinstance(at.get("sides"), list):
            at = at["sides"][_side_index(raw, path[1], option)]
            rest = path[2:]
            if not rest:
                raise _problem(option, f"{'.'.join(path)}: name a field of the side")
            _set_in(at, rest, value, option, path)
            return
        at = at.setdefault(key, {})
        if not isinstance(at, dict):
            raise _problem(option, f"{'.'.join(path[: i + 1])} is not a table")
    at[path[-1]] = value


def _set_in(table: dict[str, Any], path: list[str], value: Any, option: str,
            whole: list[str]) -> None:
    at = table
    for i, key in enumerate(path[:-1]):
        at = at.setdefault(key, {})
        if not isinstance(at, dict):
            raise _problem(option, f"{'.'.join(whole[: len(whole) - len(path) + i + 1])} "
                                   "is not a table")
    at[path[-1]] = value


def _merge(into: dict[str, Any], over: dict[str, Any]) -> None:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def lay_over(raw: dict[str, Any], overlay: dict[str, Any], source: str) -> None:
    """Merge an overlay table into the scenario table, sides by name."""
    for key in overlay:
        if key not in SECTIONS:
            raise _problem(source, f"{key!r} is not part of a scenario file; the parts are "
                                   f"{', '.join(SECTIONS)}")
    meta = overlay.get("scenario", {})
    for _, field in FIXED:
        if isinstance(meta, dict) and field in meta:
            raise _problem(source, f"scenario.{field} says which scenario this is; an "
                                   "overlay cannot change it")
    sides = overlay.get("sides")
    if isinstance(sides, dict):
        for name, table in sides.items():
            side = raw["sides"][_side_index(raw, name, source)]
            if not isinstance(table, dict):
                raise _problem(source, f"sides.{name} must be a table")
            _merge(side, table)
        overlay = {k: v for k, v in overlay.items() if k != "sides"}
    _merge(raw, overlay)


def read_overlay(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise _problem(str(path), f"not TOML: {error}") from None


def with_house_rules(scenario: Scenario, sets: Iterable[str] = (),
                     overlays: Iterable[Path] = ()) -> Scenario:
    """The scenario with the overlays laid over it in turn, then each `NAME=VALUE` set;
    the scenario itself if there is nothing to change."""
    sets, overlays = list(sets), list(overlays)
    if not sets and not overlays:
        return scenario
    raw = copy.deepcopy(scenario.raw)
    for path in overlays:
        lay_over(raw, read_overlay(path), str(path))
    for text in sets:
        name, sep, value = text.partition("=")
        if not sep:
            raise _problem("--set", f"{text!r} is not NAME=VALUE (e.g. turns=6)")
        name = name.strip()
        _set(raw, resolve_name(scenario, name), parse_value(value.strip()), f"--set {name}")
    return scenario_from_dict(raw, f"{scenario.name} with house rules")


def overlay_between(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The overlay that `lay_over` turns `before` into `after` with: the values that
    differ, tables as far down as they differ, sides by name, lists whole (an overlay
    replaces a list). Both must have the same sides, in the same order."""
    out = _table_difference({k: v for k, v in before.items() if k != "sides"},
                            {k: v for k, v in after.items() if k != "sides"})
    sides: dict[str, Any] = {}
    for old, new in zip(before.get("sides", []), after.get("sides", []), strict=True):
        changed = _table_difference(old, new)
        if changed:
            sides[str(new["name"])] = changed
    if sides:
        out["sides"] = sides
    return out


def _table_difference(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    gone = [key for key in before if key not in after]
    if gone:
        # an overlay cannot take a key away
        raise ValueError(f"no overlay removes {', '.join(gone)}")
    out: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if old == value:
            continue
        if isinstance(value, dict) and isinstance(old, dict):
            out[key] = _table_difference(old, value)
        else:
            out[key] = value
    return out
