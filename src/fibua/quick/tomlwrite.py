"""Scenario tables written as TOML, the same way every time (the same table, the same
bytes): keys in the order given, tables after the values of their parent, and the lists
that scenario files write on one line a member (openings, figures, models) inline."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

#: lists of tables (and tables) written inline under these keys
INLINE = frozenset({"openings", "figures", "models", "inside"})


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # its escapes are TOML's too
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_scalar(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _value_line(key: str, value: Any) -> str:
    if key in INLINE and _is_table_list(value):
        rows = "".join(f"    {_scalar(item)},\n" for item in value)
        return f"{key} = [\n{rows}]"
    return f"{key} = {_scalar(value)}"


def _nested(key: str, value: Any) -> bool:
    """Whether the value is written as a table or list of tables of its own."""
    if key in INLINE:
        return False
    return isinstance(value, Mapping) or _is_table_list(value)


def _body(table: Mapping[str, Any], path: str, out: list[str]) -> None:
    for key, value in table.items():
        if not _nested(key, value):
            out.append(_value_line(key, value))
    for key, value in table.items():
        if not _nested(key, value):
            continue
        where = f"{path}.{key}" if path else key
        if isinstance(value, Mapping):
            if any(not _nested(k, v) for k, v in value.items()):
                out += ["", f"[{where}]"]
            _body(value, where, out)
            continue
        for item in value:
            out += ["", f"[[{where}]]"]
            _body(item, where, out)


def dumps(table: Mapping[str, Any], header: Sequence[str] = ()) -> str:
    """The table as TOML text, after `header` lines written as comments."""
    out = [f"# {line}" if line else "#" for line in header]
    _body(table, "", out)
    text = "\n".join(out).lstrip("\n")
    return text + "\n"
