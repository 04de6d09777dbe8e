"""What every side's view holds, whatever the rules, and the JSON keys every view promises
(`RuleSet.view`).

A rule set's `SideView` is a frozen dataclass deriving from `BaseView` (copies and immutable
values only: nothing reachable from it leads to the state), adding its own fields; its
`view_dict` calls `contract_dict` with the rows it makes of its own units and sightings and
adds its own keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field, fields
from operator import attrgetter, is_
from typing import Any, Generic, Protocol, TypeVar

from fibua.battlefield.sight import SightEngine
from fibua.core.events import Event


class Identified(Protocol):
    @property
    def id(self) -> str: ...


class Sighted(Protocol):
    """A side's memory of one enemy, as the common lookups read it."""

    @property
    def visible(self) -> bool: ...

    @property
    def alive(self) -> bool: ...


U = TypeVar("U", bound=Identified)
K = TypeVar("K", bound=Sighted)
R = TypeVar("R")


@dataclass(frozen=True)
class BaseView(Generic[U, K]):
    """The fields every side's view has: the scenario, the side and its enemy, the turn of
    `turns`, who is to act, the side's own units (copies), its sightings of the enemy by
    id, the side's own fork of the sight engine (the map is public) and the result."""

    scenario: str
    side: str
    enemy: str
    turn: int
    turns: int
    to_act: str | None
    own: tuple[U, ...]
    enemies: tuple[tuple[str, K], ...]
    sight: SightEngine
    result: dict[str, Any] | None

    def unit(self, unit_id: str) -> U:
        """One of the side's own units by id (KeyError if it has none of that id)."""
        for u in self.own:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def visible_enemies(self) -> list[tuple[str, K]]:
        """The enemies the side sees now and has not seen fall."""
        return [(i, s) for i, s in self.enemies if s.visible and s.alive]


@dataclass(slots=True)
class RecordCopies(Generic[R]):
    """A side's copies of one kind of the state's records (its own units, its sightings),
    kept from one view to the next and made again only for a record that changed: one of
    whose fields is no longer the very object its copy holds (`also` may add a check of
    what identity cannot see, such as a list changed in place). With `watch`, only those
    fields are checked, and the record must be the very object the copy was made of. A
    copy kept is exactly the copy that would be made now, so views stay the same while
    costing far less; the copies are never handed to the state, and players must not
    change them (views are read-only). Kept in the state (`BaseState.view_copies`), one
    per side and kind."""

    kind: type[R]  # a dataclass whose fields are all set by its __init__
    #: a fresh copy of a record (default: the dataclass made again from its fields)
    make: Callable[[R], R] | None = None
    also: Callable[[R, R], bool] | None = None  # (copy, record) -> the copy still holds
    #: the fields the rules may set on a record once it is made (default: all of them);
    #: a record whose other fields change must be a new object, as a sighting replaced
    watch: tuple[str, ...] | None = None
    #: key -> (the record, its watched fields, the copy)
    kept: dict[str, tuple[R, tuple[Any, ...], R]] = field(default_factory=dict)
    last: tuple[R, ...] = ()
    _values: Callable[[R], tuple[Any, ...]] = field(init=False)
    _watched: Callable[[R], tuple[Any, ...]] = field(init=False)

    def __post_init__(self) -> None:
        found = fields(self.kind)  # type: ignore[arg-type]
        if len(found) < 2 or any(not f.init for f in found):
            raise TypeError(f"{self.kind.__name__}: copies need two fields or more, all "
                            "set by __init__")
        names = [f.name for f in found]
        watch = names if self.watch is None else list(self.watch)
        if not 2 <= len(watch) <= len(set(watch)) or not set(watch) <= set(names):
            raise TypeError(f"{self.kind.__name__}: watch two of its fields or more, "
                            f"not {self.watch!r}")
        self._values = attrgetter(*names)
        self._watched = attrgetter(*watch)

    def copies(self, records: Iterable[tuple[str, R]]) -> tuple[R, ...]:
        """Copies of `records` ((key, record) pairs, in order): the tuple of the last
        call itself when nothing changed."""
        kept, watched, also = self.kept, self._watched, self.also
        every = self.watch is None  # all fields are watched: any record holding them will do
        out: list[R] = []
        fresh = False
        for key, record in records:
            values = watched(record)
            found = kept.get(key)
            if found is not None and (every or found[0] is record) \
                    and all(map(is_, values, found[1])) \
                    and (also is None or also(found[2], record)):
                out.append(found[2])
                continue
            if self.make is not None:
                copy = self.make(record)
            else:
                copy = self.kind(*(values if every else self._values(record)))
            kept[key] = (record, values, copy)
            out.append(copy)
            fresh = True
        last = self.last
        if not fresh and same_objects(out, last):
            return last
        self.last = result = tuple(out)
        return result


def same_objects(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Whether two sequences hold the very same objects in the same order: what a
    player's memo of a view checks, a view handing on the very copy of a record that
    stayed the same."""
    return len(a) == len(b) and all(map(is_, a, b))


def record_copies(state_copies: dict[tuple[str, str], Any], side: str, name: str,
                  kind: type[R], make: Callable[[R], R] | None = None,
                  also: Callable[[R, R], bool] | None = None,
                  watch: tuple[str, ...] | None = None) -> RecordCopies[R]:
    """The side's `RecordCopies` of `name` kept in the state's `view_copies`."""
    found: RecordCopies[R] | None = state_copies.get((side, name))
    if found is None:
        found = state_copies[(side, name)] = RecordCopies(kind, make, also, watch)
    return found


def contract_dict(ruleset: str, view: BaseView[Any, Any], *, phase: str,
                  own: list[dict[str, Any]], enemies: list[dict[str, Any]],
                  log: Iterable[Event], **extra: Any) -> dict[str, Any]:
    """The keys every view promises (see `RuleSet.view`), then the rule set's own (`extra`).
    `log` is the side's log (`SideLogs.of(side)`): its events are copied, so nothing in the
    dict is shared with the game."""
    return {
        "ruleset": ruleset,
        "scenario": view.scenario,
        "side": view.side,
        "turn": view.turn,
        "turns": view.turns,
        "phase": phase,
        "to_act": view.to_act,
        "own": own,
        "enemies": enemies,
        "log": [copy_data(e.to_dict()) for e in log],
        "result": view.result,
        **extra,
    }


#: the plain values of JSON data, kept as they are (immutable, holding nothing)
PLAIN_VALUES = frozenset({str, int, float, bool, type(None)})


def copy_data(value: Any) -> Any:
    """`deepcopy` of event data, equal to it and sharing nothing mutable with it: plain
    dicts and lists are copied and plain strings, numbers, booleans and None kept, in one
    pass (views copy forty events each, which deepcopy's bookkeeping made cost more than
    the rest of the view); anything else goes to deepcopy. Unlike deepcopy, an object met
    twice is copied twice."""
    kind = type(value)
    if kind is dict:
        return {key: copy_data(item) for key, item in value.items()}
    if kind is list:
        return [copy_data(item) for item in value]
    if kind in PLAIN_VALUES:
        return value
    return deepcopy(value)


#: the keys every view promises (`RuleSet.view`); `contract_dict` fills them and `turns`
CONTRACT_KEYS = frozenset({"ruleset", "scenario", "side", "turn", "phase", "to_act", "own",
                           "enemies", "log", "result"})


#: the keys a view header is read from (the contract's, without the units and the log)
HEADER_KEYS = CONTRACT_KEYS - {"own", "enemies", "log"}


@dataclass(frozen=True, slots=True)
class ViewHeader:
    """The part of a view every front end reads to know where the game stands: the typed
    reading of the contract keys (and `step`, which House Clearing's views add). `of`
    refuses a view that breaks the contract rather than guessing."""

    ruleset: str
    scenario: str
    side: str
    turn: int
    turns: int | None
    phase: str | None
    step: int | None
    to_act: str | None
    over: bool

    @staticmethod
    def of(view: Mapping[str, Any]) -> ViewHeader:
        missing = HEADER_KEYS - set(view)
        if missing:
            raise ValueError(f"a view without {', '.join(sorted(missing))}")
        phase, to_act = view["phase"], view["to_act"]
        return ViewHeader(
            ruleset=_text(view, "ruleset"), scenario=_text(view, "scenario"),
            side=_text(view, "side"), turn=_whole(view, "turn") or 0,
            turns=_whole(view, "turns"), phase=None if phase is None else str(phase),
            step=_whole(view, "step"), to_act=None if to_act is None else str(to_act),
            over=view["result"] is not None)


def _text(view: Mapping[str, Any], key: str) -> str:
    value = view[key]
    if not isinstance(value, str):
        raise ValueError(f"a view's {key} is text, not {value!r}")
    return value


def _whole(view: Mapping[str, Any], key: str) -> int | None:
    """A whole number the view may leave out or hold as null."""
    value = view.get(key)  # `turns` and `step` are not promised by every rule set
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"a view's {key} is a whole number, not {value!r}")
    return value
