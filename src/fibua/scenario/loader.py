"""Reading scenario files: TOML, validated, every problem reported with its field path."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from math import inf
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from fibua.battlefield.model import LengthUnit
from fibua.core.errors import Problem, ScenarioError, UnknownRuleset
from fibua.core.ruleset import RuleSet, find_ruleset
from fibua.scenario.schema import (
    MAX_TABLE,
    PROBLEMS,
    BuildingSpec,
    Loc,
    MapGaps,
    MapSpec,
    Meta,
    ObstacleSpec,
    Scenario,
    SideSpec,
    TableSize,
    TerrainSpec,
    field_path,
    map_problems,
    read_points,
    reference_problems,
    table_size,
)

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
        if not _under(path, reported):
            problems.append(Problem(source, path, message))
            reported.append(path)
    return problems


def _under(path: str, reported: Sequence[str]) -> bool:
    """Whether a place was reported already, itself or a table or list holding it."""
    return any(path == r or path.startswith((f"{r}.", f"{r}[")) or not r for r in reported)


def _is_pydantic_tag(part: int | str) -> bool:
    # pydantic inserts validator names such as "function-after[...]" into locations
    return isinstance(part, str) and ("[" in part or part.startswith("function-"))


# -- a part that partly reads -----------------------------------------------------------------
# A side's forces with one bad figure still say where the others stand. The tables in lists
# that fail are left out (and then the tables holding a list left empty, and so on) until
# the rest reads; the rule set checks what is left, and its problems are named by their
# places in the file as written.


@dataclass
class _Pruned:
    """What was left out of a part: the places of the tables dropped, in the file's own
    numbering, and the ids they carried (a problem naming one waits for it to read)."""

    dropped: set[Loc] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)

    def original(self, loc: Loc) -> Loc:
        """A place in the part as read (tables dropped) as a place in the file."""
        out: list[int | str] = []
        for part in loc:
            if isinstance(part, int):
                gone = sorted(d[-1] for d in self.dropped
                              if len(d) == len(out) + 1 and d[:-1] == tuple(out)
                              and isinstance(d[-1], int))
                for index in gone:
                    part += 1 if index <= part else 0
            out.append(part)
        return tuple(out)

    def without(self, raw: Any, loc: Loc = ()) -> Any:
        """The part with the dropped tables left out (a copy)."""
        if isinstance(raw, dict):
            return {key: self.without(value, (*loc, key)) for key, value in raw.items()}
        if isinstance(raw, list):
            return [self.without(value, (*loc, i)) for i, value in enumerate(raw)
                    if (*loc, i) not in self.dropped]
        return raw


def _at(value: Any, loc: Loc) -> Any:
    for part in loc:
        if isinstance(value, dict) and isinstance(part, str):
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return None
    return value


def _table_in_list(raw: Any, loc: Loc) -> Loc | None:
    """The innermost table in a list on the way to a place, or None."""
    found: Loc | None = None
    value = raw
    for k, part in enumerate(loc):
        if isinstance(value, dict) and isinstance(part, str):
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
            if isinstance(value, dict):
                found = loc[: k + 1]
        else:
            break
    return found


#: rounds of leaving tables out before giving a part up (each round drops at least one)
_PRUNE_ROUNDS = 64


def _validate_part(
    model: type[BaseModel], raw: Any, source: str, prefix: Sequence[int | str]
) -> tuple[Any, list[Problem], _Pruned]:
    """The part as the model (None if nothing reads), its problems, and what was left out
    to read the rest."""
    try:
        return model.model_validate(raw), [], _Pruned()
    except ValidationError as error:
        problems = _problems(error, source, prefix)
        first = error
    pruned = _Pruned()
    for _ in range(_PRUNE_ROUNDS):
        drops = set()
        for item in first.errors():
            loc = pruned.original(tuple(p for p in item["loc"] if not _is_pydantic_tag(p)))
            table = _table_in_list(raw, loc)
            if table is None:
                return None, problems, pruned
            drops.add(table)
        for loc in drops - pruned.dropped:
            ident = _at(raw, (*loc, "id"))
            if isinstance(ident, str):
                pruned.ids.add(ident)
        if drops <= pruned.dropped:
            return None, problems, pruned
        pruned.dropped |= drops
        try:
            return model.model_validate(pruned.without(raw)), problems, pruned
        except ValidationError as error:
            first = error
    return None, problems, pruned


# -- a sketch of a file that failed the schema -----------------------------------------------


def _item_reads(spec: type[BaseModel], item: Any, table: TableSize, key: str) -> Any:
    """An item of the map that reads and lies on the table, else None."""
    try:
        read = spec.model_validate(item)
    except ValidationError:
        return None
    lone = {"width": table.width, "height": table.height, "unit": table.unit, key: [item]}
    return None if map_problems(lone) else read


def _building_box(raw: Any) -> tuple[float, float, float, float]:
    """A box around a building's footprints; unbounded unless every one of them reads."""
    sections = raw.get("sections") if isinstance(raw, dict) else None
    footprints = [read_points(s.get("footprint")) if isinstance(s, dict) else None
                  for s in sections or [None]] if isinstance(sections, list) else [None]
    points = [p for footprint in footprints for p in footprint or []]
    if not points or any(footprint is None for footprint in footprints):
        return (-inf, -inf, inf, inf)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _map_sketch(raw_map: Any) -> tuple[MapSpec, MapGaps]:
    """The parts of a map that read: the table, and the terrain, obstacles and buildings
    that read and lie on it (the first of each id); boxes where buildings did not read."""
    table = table_size(raw_map)
    if table is None or not isinstance(raw_map, dict):
        largest = MAX_TABLE[LengthUnit.INCH]
        return (MapSpec.model_construct(width=largest, height=largest),
                MapGaps(table_known=False))
    seen: set[str] = set()
    parts: dict[str, list[Any]] = {}
    boxes: list[tuple[float, float, float, float]] = []
    for key, spec in (("terrain", TerrainSpec), ("obstacles", ObstacleSpec),
                      ("buildings", BuildingSpec)):
        parts[key] = []
        items = raw_map.get(key)
        for item in items if isinstance(items, list) else []:
            read = _item_reads(spec, item, table, key)
            ids = [read.id, *(s.id for s in getattr(read, "sections", []))] if read else []
            if read is None or seen.intersection(ids):
                if key == "buildings":
                    boxes.append(_building_box(item))
                continue
            seen.update(ids)
            parts[key].append(read)
    sketch = MapSpec.model_construct(width=table.width, height=table.height, unit=table.unit,
                                     terrain=parts["terrain"], obstacles=parts["obstacles"],
                                     buildings=parts["buildings"])
    return sketch, MapGaps(table_known=True, boxes=tuple(boxes))


def _sketch(raw: dict[str, Any], ruleset: str) -> Scenario | None:
    """What of a file that failed the schema the rule set's checks can look at: the map's
    parts that read, and each side by its name (or a stand-in when that does not read);
    None when the sides do not read as a list."""
    sides = raw.get("sides")
    if not isinstance(sides, list):
        return None
    names: list[str] = []
    specs = []
    for i, side in enumerate(sides):
        name = side.get("name") if isinstance(side, dict) else None
        if not isinstance(name, str) or name in names:
            name = f"sides[{i}]"  # a stand-in no side may be called (names have no brackets)
        names.append(name)
        specs.append(SideSpec.model_construct(name=name, title=name, forces={}))
    sketch_map, gaps = _map_sketch(raw.get("map"))
    meta = Meta.model_construct(name="sketch", title="", ruleset=ruleset, turns=1)
    scenario = Scenario.model_construct(scenario=meta, map=sketch_map, sides=specs)
    scenario._gaps = gaps
    return scenario


# -- loading ----------------------------------------------------------------------------------


def _ruleset_named(raw: dict[str, Any], source: str) -> tuple[RuleSet[Any] | None,
                                                               list[Problem]]:
    name = _at(raw, ("scenario", "ruleset"))
    if not isinstance(name, str):
        return None, []  # the schema reports it
    try:
        return find_ruleset(name), []
    except UnknownRuleset as error:
        return None, [Problem(source, "scenario.ruleset", str(error))]


def scenario_from_dict(raw: dict[str, Any], source: str = "<scenario>") -> Scenario:
    """Validate a parsed scenario table; raise ScenarioError listing every problem.

    Every part is checked, whatever else is wrong: the common schema and what refers
    across parts, each side's forces and the options by the rule set, and the rule set's
    own checks on whatever of those read (a sketch of the file, when it failed the
    schema). So one run reports every problem that can be told."""
    if not isinstance(raw, dict):
        raise ScenarioError([Problem(source, "", "a scenario is a table of keys and values")])
    scenario: Scenario | None
    try:
        scenario = Scenario.model_validate(raw)
        problems: list[Problem] = []
    except ValidationError as error:
        scenario = None
        problems = _with_references(_problems(error, source), raw, source)
    ruleset, found = _ruleset_named(raw, source)
    problems += [p for p in found if not _under(p.path, [q.path for q in problems])]
    if ruleset is None:
        raise ScenarioError(problems)
    if scenario is None:
        scenario = _sketch(raw, ruleset.name)
    pruned: dict[str, _Pruned] = {}
    forces: dict[str, Any] = {}
    for i, side in enumerate(_tables_of(raw.get("sides"))):
        if side is None or not isinstance(side.get("forces"), dict):
            continue  # the schema reports it
        model, found, pruned[f"sides[{i}].forces"] = _validate_part(
            ruleset.forces_model, side["forces"], source, ("sides", i, "forces"))
        problems += found
        if model is not None and scenario is not None:
            forces[scenario.sides[i].name] = model
    options = None
    if isinstance(raw.get("options", {}), dict):
        options, found, pruned["options"] = _validate_part(
            ruleset.options_model, raw.get("options", {}), source, ("options",))
        problems += found
    if scenario is None:
        raise ScenarioError(problems)
    scenario._forces = forces
    scenario._options = options
    scenario._raw = raw
    reported = [p.path for p in problems]
    for problem in ruleset.check_scenario(scenario):
        path = _in_file(problem, pruned)
        if path is not None and not _under(path, reported):
            problems.append(Problem(source, path, problem.message))
    if problems:
        raise ScenarioError(problems)
    return scenario


def _tables_of(value: Any) -> list[dict[str, Any] | None]:
    """The items of a list, None for those that are not tables; [] if it is no list."""
    return [v if isinstance(v, dict) else None for v in value] if isinstance(value, list) \
        else []


_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def _in_file(problem: Problem, pruned: dict[str, _Pruned]) -> str | None:
    """A rule-set problem's place as written in the file, or None when it is about
    something left out of a part that did not fully read (it is told once that reads)."""
    path = problem.path
    for prefix, left_out in pruned.items():
        if any(repr(ident) in problem.message for ident in left_out.ids):
            return None
        if not left_out.dropped or not path.startswith((f"{prefix}.", f"{prefix}[")):
            continue
        rest = path[len(prefix):]
        loc: Loc = tuple(int(i) if i else name for i, name in _PATH_PART.findall(rest))
        return prefix + field_path_tail(left_out.original(loc))
    return path


def field_path_tail(loc: Loc) -> str:
    """A location continuing a path: .units[2].weapon"""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


def scenario_from_text(text: str, source: str = "<scenario>") -> Scenario:
    if not text.strip():
        raise ScenarioError([Problem(source, "", "the file is empty: a scenario needs a "
                                                 "[scenario] table, a [map] and [[sides]]")])
    try:
        raw = tomllib.loads(text)
    except ValueError as error:
        # TOMLDecodeError, or an integer past Python's int-to-str digit limit
        raise ScenarioError([Problem(source, "", f"not valid TOML: {error}")]) from None
    return scenario_from_dict(raw, source)


#: No scenario comes near this; a larger file is surely something else.
MAX_FILE_BYTES = 16 * 2**20


def read_scenario_text(path: Path) -> str:
    """A scenario file's text, or ScenarioError saying plainly why it cannot be had."""
    def refuse(message: str) -> ScenarioError:
        return ScenarioError([Problem(str(path), "", message)])

    if path.is_dir():
        raise refuse("is a directory, not a scenario file")
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise refuse(f"is larger than any scenario file ({MAX_FILE_BYTES // 2**20} MiB)")
        data = path.read_bytes()
    except OSError as error:
        raise refuse(f"cannot read: {error.strerror or error}") from None
    if b"\0" in data:
        raise refuse("is not a text file (it holds binary data): a scenario is TOML text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise refuse(f"is not UTF-8 text: byte 0x{data[error.start]:02x} at offset "
                     f"{error.start} does not decode (save the file as UTF-8)") from None


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
    return scenario_from_text(read_scenario_text(path), str(path))


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
