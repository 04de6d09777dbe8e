"""What the lab keeps of a game: one row, read from the events and the sides' views.

Casualties are read from each side's own view at the end (a figure or unit whose status
says it is out: a casualty, out of action, destroyed, surrendered): where it lies is where
it fell, since nothing out of the fight moves. When it fell is the turn of the first event
that names it among those that tell of a loss. Who holds each `hold` objective is judged
at the end of every turn from the sides' own views, by the scenario's zones and sections:
a side holds it when it has troops still in the fight there and the enemy has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from shapely.geometry import Point, Polygon
from shapely.prepared import PreparedGeometry, prep

from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.ruleset import Result
from fibua.core.views import PLAIN_VALUES
from fibua.scenario.schema import Scenario

#: statuses a rule set's view gives a figure or unit out of the fight
OUT_STATUSES = frozenset({"casualty", "out of action", "destroyed", "surrendered"})
#: events that tell of a figure or unit lost (the rule sets' words for it)
LOSS_KINDS = frozenset({"casualty", "out-of-action", "unit-lost", "destroyed"})
#: the event that opens a turn
TURN_KIND = "turn"
CONTESTED = "contested"


@dataclass(frozen=True)
class Fall:
    """A figure or unit out of the fight: whose, which, in which turn (None if no event
    said), where, and its status."""

    side: str
    id: str
    name: str
    turn: int | None
    x: float | None
    y: float | None
    section: str | None
    floor: int | None
    how: str


@dataclass(frozen=True)
class Holding:
    """Who held an objective at the end of a turn: a side, `contested` or None (nobody)."""

    turn: int
    objective: str
    holder: str | None


@dataclass(frozen=True)
class GameRow:
    seed: int
    winner: str | None
    reason: str
    turns: int
    orders: int
    rolls: int
    players: dict[str, str]
    scores: dict[str, float]
    casualties: dict[str, int]
    falls: list[Fall] = field(default_factory=list)
    holders: list[Holding] = field(default_factory=list)
    #: the game's own seconds of CPU (`time.process_time`) and of wall time, in the
    #: process that played it; None in rows of runs made before they were kept. Not part
    #: of what the game was: rows of one seed are equal whatever their timing
    cpu: float | None = field(default=None, compare=False)
    wall: float | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(raw: Mapping[str, Any]) -> GameRow:
        return GameRow(
            seed=int(raw["seed"]), winner=raw["winner"], reason=str(raw["reason"]),
            turns=int(raw["turns"]), orders=int(raw["orders"]), rolls=int(raw["rolls"]),
            players=dict(raw["players"]), scores=dict(raw["scores"]),
            casualties=dict(raw["casualties"]),
            falls=[Fall(**f) for f in raw["falls"]],
            holders=[Holding(**h) for h in raw["holders"]],
            cpu=_seconds(raw.get("cpu")), wall=_seconds(raw.get("wall")),
        )


def count_rolls(value: Any) -> int:
    """The die rolls inside an event's data (a roll is a mapping with dice and faces)."""
    kind = type(value)
    if kind in PLAIN_VALUES:
        return 0
    if kind is dict or isinstance(value, Mapping):
        if "dice" in value and "faces" in value:
            return 1
        items = value.values()
    elif kind is list or isinstance(value, list | tuple):
        items = value
    else:
        return 0
    # every event of every game is walked: plain values, most of what is met, are passed
    # over without a call
    return sum(count_rolls(item) for item in items if type(item) not in PLAIN_VALUES)


@dataclass(frozen=True)
class Objective:
    label: str
    sections: frozenset[str]
    zone: PreparedGeometry | None

    def covers(self, figure: Mapping[str, Any]) -> bool:
        if figure.get("section") in self.sections:
            return True
        x, y = figure.get("x"), figure.get("y")
        return (self.zone is not None and isinstance(x, int | float)
                and isinstance(y, int | float) and self.zone.covers(Point(x, y)))


def hold_objectives(scenario: Scenario) -> list[Objective]:
    """The scenario's `hold` objectives, each labelled by its description or its side."""
    found = []
    for i, spec in enumerate(scenario.victory):
        if spec.kind != "hold":
            continue
        label = spec.description or f"{spec.side} holds #{i + 1}"
        zone = prep(Polygon(spec.zone)) if spec.zone else None
        found.append(Objective(label, frozenset(spec.sections), zone))
    return found


def in_the_fight(figure: Mapping[str, Any]) -> bool:
    return str(figure.get("status", "")) not in OUT_STATUSES


class RowWatcher:
    """Follows a game for its row: objective holders at each turn's end, then the rest
    from the log and the final views."""

    def __init__(self, game: Game, seed: int, players: Mapping[str, str],
                 objectives: list[Objective]) -> None:
        self.game = game
        self.seed = seed
        self.players = dict(players)
        self.objectives = objectives
        self.turn = 0
        self.holders: list[Holding] = []
        self.on_events(game.log)  # the set-up may already have opened the first turn

    def on_events(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == TURN_KIND:
                if self.turn > 0:
                    self._note_holders(self.turn)
                self.turn = int(event.data.get("turn", self.turn + 1))

    def _note_holders(self, turn: int) -> None:
        if not self.objectives:
            return
        sides = self.game.scenario.side_names
        own = {side: [f for f in self.game.own_view(side) if in_the_fight(f)]
               for side in sides}
        for objective in self.objectives:
            there = [side for side in sides if any(objective.covers(f) for f in own[side])]
            holder = there[0] if len(there) == 1 else CONTESTED if there else None
            self.holders.append(Holding(turn, objective.label, holder))

    def finish(self, result: Result) -> GameRow:
        game = self.game
        if self.turn > 0:
            self._note_holders(self.turn)
        falls = self._falls()
        sides = game.scenario.side_names
        return GameRow(
            seed=self.seed, winner=result.winner, reason=result.reason,
            turns=sum(1 for e in game.log if e.kind == TURN_KIND),
            orders=len(game.orders),
            rolls=sum(count_rolls(e.data) for e in game.log),
            players=self.players,
            scores={side: float(v) for side, v in result.scores.items()},
            casualties={side: sum(1 for f in falls if f.side == side) for side in sides},
            falls=falls, holders=self.holders,
        )

    def _falls(self) -> list[Fall]:
        when: dict[str, int] = {}
        for event in self.game.log:
            if event.kind in LOSS_KINDS:
                name = event.data.get("figure", event.data.get("unit"))
                if isinstance(name, str):
                    when.setdefault(name, event.turn)
        falls = []
        for side in self.game.scenario.side_names:
            for f in self.game.own_view(side):
                if in_the_fight(f):
                    continue
                ident = str(f.get("id"))
                falls.append(Fall(
                    side=side, id=ident, name=str(f.get("name", ident)),
                    turn=when.get(ident), x=_number(f.get("x")), y=_number(f.get("y")),
                    section=f.get("section"), floor=_int(f.get("floor")),
                    how=str(f.get("status"))))
        return falls


def _number(value: Any) -> float | None:
    return round(float(value), 2) if isinstance(value, int | float) else None


def _seconds(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int) else None
