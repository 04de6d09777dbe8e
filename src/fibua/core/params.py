"""Reading the parameters of an order that every rule set shares: points on the table
and the way a move goes. Bad values raise IllegalOrder naming what is wrong."""

from __future__ import annotations

from math import inf, isfinite
from typing import Any

from fibua.battlefield.model import Table
from fibua.core.errors import IllegalOrder, Refusal
from fibua.core.values import is_number


def only(params: dict[str, Any], allowed: set[str] | frozenset[str]) -> None:
    """Refuse parameters the order does not take (a typo such as `tagret=` must not be
    silently ignored)."""
    extra = sorted(set(params) - allowed)
    if extra:
        takes = ", ".join(sorted(allowed)) or "no parameters"
        raise IllegalOrder(f"unknown parameter(s) {', '.join(extra)}; this order takes "
                           f"{takes}", code=Refusal.BAD_PARAMETER)


def point(value: Any, what: str) -> tuple[float, float]:
    """Two finite numbers x, y (booleans are not numbers here)."""
    if type(value) is list and len(value) == 2:
        x, y = value
        # the common case, plain floats, asks nothing more (a computer gives many orders)
        if type(x) is float and type(y) is float and isfinite(x) and isfinite(y):
            return x, y
    if (
        isinstance(value, list | tuple) and len(value) == 2
        and all(is_number(v) for v in value)
    ):
        try:
            x, y = float(value[0]), float(value[1])
        except OverflowError:  # an integer too large for a float
            x = y = inf
        if isfinite(x) and isfinite(y):
            return x, y
    raise IllegalOrder(f"{what} must be two numbers x,y, not {value!r}", code=Refusal.BAD_PARAMETER)


def waypoints(params: dict[str, Any], most: int | None = None) -> list[tuple[float, float]]:
    """The points a move goes through: `path` (a list of points, at most `most`) or `to`."""
    if "path" in params:
        path = params["path"]
        if not isinstance(path, list) or not path or (most is not None and len(path) > most):
            count = "x,y points" if most is None else f"1 to {most} x,y points"
            raise IllegalOrder(f"path must be a list of {count}", code=Refusal.BAD_PARAMETER)
        return [point(p, "each point of path") for p in path]
    if "to" in params:
        return [point(params["to"], "to")]
    raise IllegalOrder("a move needs to=x,y (or path=[[x,y],...])", code=Refusal.BAD_PARAMETER)


def require_on_table(table: Table, x: float, y: float) -> None:
    if not (0 <= x <= table.width and 0 <= y <= table.height):
        raise IllegalOrder(f"({x:g}, {y:g}) is off the table", code=Refusal.OFF_TABLE)
