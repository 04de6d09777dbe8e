"""`fibua odds RULESET QUERY [options]`: options built from each query's pydantic model.

A rule set describes its odds questions as data (`RuleSet.odds_queries`); this module turns
a query's parameter model into command-line options, so a new question needs no CLI code:
`target_moving: bool` gives `--target-moving/--no-target-moving`, a Literal or an enum
gives a choice, numbers are typed, required fields are required options.
"""

from __future__ import annotations

import argparse
import enum
import json
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NoReturn, Union, get_args, get_origin

from pydantic import AliasChoices, BaseModel, ValidationError
from pydantic.fields import FieldInfo
from rich.console import Console
from rich.table import Table

from fibua.core.errors import FibuaError
from fibua.core.ruleset import OddsQuery, OddsReport, RuleSet, find_ruleset, ruleset_names

USAGE = "fibua odds RULESET QUERY [OPTIONS] [--json]"


class OddsUsageError(Exception):
    """Bad arguments to `fibua odds`: the message is one line for the user."""


class _HelpShown(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise OddsUsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _HelpShown()


@dataclass(frozen=True)
class OptionSpec:
    """How one model field is read from the command line."""

    name: str  # the field's name in the model
    key: str  # the key pydantic validates the input under (its alias if it has one)
    flags: tuple[str, ...]
    kwargs: dict[str, Any]


def _dashed(name: str) -> str:
    return "--" + name.strip("_").replace("_", "-")


def _input_key(name: str, info: FieldInfo) -> str:
    alias = info.validation_alias
    if isinstance(alias, str):
        return alias
    if isinstance(alias, AliasChoices) and isinstance(alias.choices[0], str):
        return alias.choices[0]
    return info.alias or name


def _unwrap_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return annotation


def _literal_kwargs(values: Sequence[Any]) -> dict[str, Any]:
    by_text = {str(v): v for v in values}
    return {"choices": list(by_text), "type": str, "_convert": by_text}


def _type_kwargs(annotation: Any) -> dict[str, Any]:
    """argparse keyword arguments for a field's type."""
    kind = _unwrap_optional(annotation)
    if kind is bool:
        return {"action": argparse.BooleanOptionalAction}
    if get_origin(kind) is Literal:
        return _literal_kwargs(get_args(kind))
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _literal_kwargs([member.value for member in kind])
    if kind in (int, float, str):
        return {"type": kind, "metavar": kind.__name__.upper()}
    if get_origin(kind) in (list, tuple, set, frozenset):
        items = [a for a in get_args(kind) if a is not Ellipsis]
        item = items[0] if len(items) >= 1 and items[0] in (int, float, str) else str
        return {"type": item, "nargs": "+", "metavar": item.__name__.upper()}
    # anything richer is typed as JSON and left to pydantic to check
    return {"type": json.loads, "metavar": "JSON"}


def option_specs(model: type[BaseModel]) -> list[OptionSpec]:
    specs: list[OptionSpec] = []
    for name, info in model.model_fields.items():
        key = _input_key(name, info)
        flags = tuple(dict.fromkeys([_dashed(key), _dashed(name)]))
        kwargs = _type_kwargs(info.annotation)
        kwargs["help"] = _help_text(info)
        kwargs["required"] = info.is_required()
        specs.append(OptionSpec(name, key, flags, kwargs))
    return specs


def _help_text(info: FieldInfo) -> str:
    text = info.description or ""
    if not info.is_required():
        text += f" (default: {info.get_default(call_default_factory=True)})"
    return text.strip()


def build_parser(ruleset: str, query: OddsQuery) -> tuple[_Parser, list[OptionSpec]]:
    parser = _Parser(
        prog=f"fibua odds {ruleset} {query.name}",
        description=query.help,
        allow_abbrev=False,
    )
    specs = option_specs(query.params)
    for spec in specs:
        kwargs = {k: v for k, v in spec.kwargs.items() if k != "_convert"}
        parser.add_argument(*spec.flags, dest=spec.name, default=argparse.SUPPRESS, **kwargs)
    parser.add_argument("--json", action="store_true", help="print the values as one JSON object")
    return parser, specs


def _model_input(namespace: argparse.Namespace, specs: list[OptionSpec]) -> dict[str, Any]:
    given = vars(namespace)
    data: dict[str, Any] = {}
    for spec in specs:
        if spec.name in given:
            value = given[spec.name]
            convert = spec.kwargs.get("_convert")
            data[spec.key] = convert[value] if convert else value
    return data


def _validation_message(error: ValidationError, specs: list[OptionSpec]) -> str:
    flags = {spec.key: spec.flags[0] for spec in specs} | {s.name: s.flags[0] for s in specs}
    parts = []
    for item in error.errors():
        where = flags.get(str(item["loc"][0]), str(item["loc"][0])) if item["loc"] else ""
        message = item["msg"].removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def find_query(ruleset_name: str, query_name: str) -> tuple[RuleSet[Any], OddsQuery]:
    ruleset = find_ruleset(ruleset_name)
    query = ruleset.odds_queries.get(query_name)
    if query is None:
        known = ", ".join(ruleset.odds_queries) or "none"
        raise OddsUsageError(
            f"rule set {ruleset.name!r} has no odds query {query_name!r}; queries: {known}"
        )
    return ruleset, query


def compute(ruleset_name: str, query_name: str, argv: list[str]) -> tuple[OddsReport, bool]:
    """Parse the options, validate them and ask the rule set; returns (report, as_json)."""
    _, query = find_query(ruleset_name, query_name)
    parser, specs = build_parser(ruleset_name, query)
    namespace = parser.parse_args(argv)
    try:
        params = query.params.model_validate(_model_input(namespace, specs))
    except ValidationError as error:
        raise OddsUsageError(_validation_message(error, specs)) from None
    try:
        report = query.compute(params)
    except (ValueError, FibuaError) as error:
        # a firing the rules forbid (out of range, no line of sight...) is the user's input
        raise OddsUsageError(str(getattr(error, "reason", error))) from None
    return report, bool(namespace.json)


def print_report(console: Console, title: str, report: OddsReport) -> None:
    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for label, value in report.breakdown:
        table.add_row(label, value)
    console.print(table)


def _overview(console: Console) -> None:
    console.print(f"usage: {USAGE}", markup=False)
    for name in ruleset_names():
        try:
            queries = find_ruleset(name).odds_queries
        except (FibuaError, ImportError):
            continue
        for query in queries.values():
            console.print(f"  {name} {query.name}: {query.help}", markup=False)


def _query_help(ruleset_name: str, query_name: str, echo: Callable[[str], None]) -> None:
    _, query = find_query(ruleset_name, query_name)
    parser, _ = build_parser(ruleset_name, query)
    # plain text: argparse wraps its own help, a second wrapping would break words
    echo(parser.format_help().rstrip("\n"))


def run_odds(argv: list[str], console: Console, echo: Callable[[str], None]) -> int:
    """The whole `fibua odds` command; returns the exit status. `echo` prints plain text."""
    words = [w for w in argv if w not in ("-h", "--help")]
    wants_help = len(words) != len(argv)
    positional = [w for w in words[:2] if not w.startswith("-")]
    if len(positional) < 2:
        if wants_help or not argv:
            _overview(console)
            return 0
        raise OddsUsageError(f"name a rule set and a query: {USAGE}")
    if wants_help:
        _query_help(positional[0], positional[1], echo)
        return 0
    try:
        report, as_json = compute(positional[0], positional[1], words[2:])
    except _HelpShown:
        return 0
    if as_json:
        echo(json.dumps(report.values, sort_keys=True))
    else:
        print_report(console, f"{positional[0]} {positional[1]}", report)
    return 0
