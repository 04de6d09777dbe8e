"""Reading typed lines: at a terminal with line editing, history and completion of order
kinds, unit ids and parameter names (prompt_toolkit); from a pipe, plain lines, so
scripts and tests drive a game as well as a person."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory

from fibua.session.typed import parameter_names


@dataclass
class Vocabulary:
    """What can be typed now: order kinds with their help lines, the other commands, and
    the unit ids (a callable: the units change as the game goes)."""

    syntax: Mapping[str, str]
    commands: Sequence[str]
    units: Callable[[], Iterable[str]]


class OrderCompleter(Completer):
    """Completes the first word as an order kind or command, the second as a unit id, and
    later words as the order's parameter names (`to=`)."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        text = document.text_before_cursor
        words = text.split()
        typing = "" if text.endswith(" ") or not words else words[-1]
        done = words if typing == "" else words[:-1]
        for choice in self._choices(done):
            if choice.lower().startswith(typing.lower()) and choice != typing:
                yield Completion(choice, start_position=-len(typing))

    def _choices(self, done: list[str]) -> list[str]:
        kinds = list(self.vocabulary.syntax)
        if done and done[0] == "?":
            done = done[1:]
        if not done:
            return kinds + list(self.vocabulary.commands)
        kind = done[0].lower()
        if kind in ("help", "orders"):
            return kinds if kind == "help" else sorted(self.vocabulary.units())
        if kind not in self.vocabulary.syntax:
            return []
        if len(done) == 1:
            return sorted(self.vocabulary.units())
        given = {word.partition("=")[0] for word in done[2:]}
        names = parameter_names(self.vocabulary.syntax[kind])
        return [f"{name}=" for name in names if name not in given]


def plain_reader() -> Callable[[str], str | None]:
    """Lines from standard input; None at its end (works on pipes too)."""

    def read(_prompt: str) -> str | None:
        line = sys.stdin.readline()
        return None if line == "" else line.rstrip("\r\n")

    return read


def terminal_reader(vocabulary: Vocabulary) -> Callable[[str], str | None]:
    """A prompt with line editing, history and completion; None at end of input
    (Ctrl-D)."""
    session: PromptSession[str] = PromptSession(
        history=InMemoryHistory(),
        completer=OrderCompleter(vocabulary),
        complete_while_typing=False,
    )

    def read(prompt: str) -> str | None:
        try:
            return session.prompt(prompt)
        except EOFError:
            return None

    return read


def stdin_is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()
