"""What every `fibua` command shares: consoles, exit statuses, and fibua's own errors
turned into messages (bad input never ends in a traceback)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import typer

from fibua.core.errors import FibuaError, InputError

if TYPE_CHECKING:
    from rich.console import Console

P = ParamSpec("P")
R = TypeVar("R")

EXIT_BAD_INPUT = 2


def console() -> Console:
    # made per call: the test runner swaps sys.stdout between invocations (and Rich is
    # imported here, not with the module: `fibua --help` needs none of it)
    from rich.console import Console

    return Console(highlight=False)


def error_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def fail(message: str, status: int = EXIT_BAD_INPUT) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(status)


def guarded(func: Callable[P, R]) -> Callable[P, R]:
    """Turn fibua's own errors (bad files, names, arguments) into a message and status 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except InputError as error:
            for problem in error.problems:
                typer.echo(f"error: {problem}", err=True)
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except FibuaError as error:
            raise fail(str(error)) from None
        except OSError as error:
            # a file that cannot be read or written: its name and the system's reason
            where = f"{error.filename}: " if error.filename else ""
            raise fail(f"{where}{error.strerror or error}") from None

    return wrapper
