"""`fibua lab tune`: the value of one knob that brings a scenario nearest an even game.

What is measured at a value is the first side's share of the decided games (a draw goes
to nobody, as in the balance verdict). Each value plays the same seeds, S, S+1, ..., so
the values are compared on the same dice. Games are played a batch at a time, and after
each batch a confidence sequence (`stats.confidence_sequence`: valid however often it is
looked at) decides whether the value has said enough:
- `above` / `below`: the interval lies wholly above or below 50%: the first side is
  favoured, or its enemy;
- `even`: the interval lies within `tolerance` of 50% on both sides: good enough;
- `open`: the most games a value may play were played without either; its point
  estimate is all there is.
The search assumes the share moves one way as the knob turns (more turns help the side
that must get somewhere; fewer of a side's figures help its enemy). It judges both ends
of the range; if they fall on the same side of 50%, no value between does better than the
nearer end. Otherwise it bisects: the middle value is judged and replaces the end on its
side of 50%, until the two ends are neighbours or a value is even. The value chosen is
the one whose share is nearest 50%.

A tune is kept in its folder: `tune.json` (what is tuned, how, and the search so far)
and a lab run a value (`value-V/games.sqlite`, which `fibua lab report` reads), so a
tune that was stopped goes on when the same command is given again, and makes the same
choices it would have made (each value's games are judged batch by batch again).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from fibua.core.errors import InputError, Problem
from fibua.lab.knobs import Knob
from fibua.lab.records import GameRow
from fibua.lab.runner import GameSeries, play_all
from fibua.lab.stats import confidence_sequence
from fibua.lab.store import RunInfo, RunWriter, db_path, read_info, read_rows
from fibua.scenario.schema import Scenario

State = Literal["above", "below", "even", "open"]
PLAN_FILE = "tune.json"


@dataclass(frozen=True)
class Settings:
    """How a tune judges each value."""

    batch: int = 50
    max_games: int = 600
    tolerance: float = 0.05
    alpha: float = 0.05
    seed_start: int = 0


@dataclass(frozen=True)
class Evidence:
    """What the games at one value said: the first side's wins, the second's, draws, the
    confidence sequence for the first side's share of decided games, and the verdict.
    `cpu` and `wall` are the games' own seconds (None for games timed by no one)."""

    value: int
    wins: tuple[int, int]
    draws: int
    low: float
    high: float
    state: State
    cpu: float | None = None
    wall: float | None = None

    @property
    def games(self) -> int:
        return self.wins[0] + self.wins[1] + self.draws

    @property
    def decided(self) -> int:
        return self.wins[0] + self.wins[1]

    @property
    def share(self) -> float:
        return self.wins[0] / self.decided if self.decided else 0.5

    @property
    def leaning(self) -> int:
        """+1 when the first side is favoured, -1 its enemy, 0 neither (an even share)."""
        if self.state == "above":
            return 1
        if self.state == "below":
            return -1
        return (self.share > 0.5) - (self.share < 0.5)


def judge(wins: int, decided: int, games: int, settings: Settings,
          last: bool) -> tuple[State | None, float, float]:
    """The verdict on a value after some games (None: play on), and the interval."""
    low, high = confidence_sequence(wins, decided, settings.alpha)
    if low > 0.5:
        return "above", low, high
    if high < 0.5:
        return "below", low, high
    if low >= 0.5 - settings.tolerance and high <= 0.5 + settings.tolerance:
        return "even", low, high
    if last or games >= settings.max_games:
        return "open", low, high
    return None, low, high


#: the games of these seeds at this value, in seed order
PlayGames = Callable[[int, Sequence[int]], Sequence[GameRow]]


def first_side_wins(sides: tuple[str, str], rows: Sequence[GameRow]) -> tuple[int, int, int]:
    """(first side's wins, second side's, draws)."""
    first = sum(1 for r in rows if r.winner == sides[0])
    second = sum(1 for r in rows if r.winner == sides[1])
    return first, second, len(rows) - first - second


def evaluate(value: int, sides: tuple[str, str], settings: Settings, play: PlayGames,
             held: Sequence[GameRow] = (), settle: bool = False) -> Evidence:
    """Judge one value batch by batch, from the games already held (seeds from the first
    on) and then those `play` plays, until the confidence sequence says enough; with
    `settle`, play on to the most games a value may play whatever it says (the values a
    search chooses between are compared on as many games, none cut short by chance)."""
    by_seed = {row.seed: row for row in held}
    rows: list[GameRow] = []
    checkpoint = 0
    while True:
        checkpoint = min(checkpoint + settings.batch, settings.max_games)
        seeds = range(settings.seed_start + len(rows), settings.seed_start + checkpoint)
        wanted = [s for s in seeds if s not in by_seed]
        if wanted:
            for row in play(value, wanted):
                by_seed[row.seed] = row
        rows.extend(by_seed[s] for s in seeds)
        first, second, draws = first_side_wins(sides, rows)
        last = checkpoint >= settings.max_games
        state, low, high = judge(first, first + second, len(rows), settings, last)
        if state is not None and (last or not settle):
            return Evidence(value, (first, second), draws, low, high, state,
                            *_timing(rows))


def _timing(rows: Sequence[GameRow]) -> tuple[float | None, float | None]:
    cpu = [r.cpu for r in rows if r.cpu is not None]
    wall = [r.wall for r in rows if r.wall is not None]
    return (sum(cpu) if cpu else None), (sum(wall) if wall else None)


@dataclass(frozen=True)
class Search:
    """The values judged, in the order they were, and the one chosen."""

    tried: list[Evidence] = field(default_factory=list)
    crossing: bool = True  # False: both ends on one side of 50%

    @property
    def best(self) -> Evidence:
        """The value whose share of decided games is nearest 50% (more games break a
        tie, then the value tried first)."""
        return min(self.tried, key=lambda e: (abs(e.share - 0.5), -e.games))

    def curve(self) -> list[Evidence]:
        return sorted(self.tried, key=lambda e: e.value)


def bisect(values: Sequence[int], judge_value: Callable[[int, bool], Evidence]) -> Search:
    """Search an ordered range for the value nearest even, on the assumption that the
    first side's share moves one way along it (see the module's words). The values it
    ends between are then played to the most games a value may play (`settle`): a value
    stopped early is stopped where its share looked furthest from even, so its share
    cannot be set beside another's."""
    tried: dict[int, Evidence] = {}

    def at(i: int, settle: bool = False) -> Evidence:
        found = tried[values[i]] = judge_value(values[i], settle)
        return found

    def settled(*ends: int) -> Search:
        for i in ends:
            if tried[values[i]].state != "even":
                at(i, settle=True)
        return Search(list(tried.values()))

    low, high = 0, len(values) - 1
    first = at(low)
    if first.state == "even" or first.leaning == 0:
        return settled(low)
    last = at(high)
    if last.state == "even" or last.leaning == 0:
        return settled(high)
    if first.leaning == last.leaning:
        # no value between does better than the nearer end
        nearer = low if abs(first.share - 0.5) < abs(last.share - 0.5) else high
        at(nearer, settle=True)
        return Search(list(tried.values()), crossing=False)
    while high - low > 1:
        middle = (low + high) // 2
        found = at(middle)
        if found.state == "even" or found.leaning == 0:
            return settled(middle)
        if found.leaning == first.leaning:
            low = middle
        else:
            high = middle
    return settled(low, high)


# -- a tune on disk -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What a tune is: the scenario (before the knob), the knob, who plays, how values
    are judged, and the code that plays the games."""

    scenario: dict[str, Any]
    knob: str
    seats: dict[str, str]
    settings: Settings
    code: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Plan:
        return Plan(raw["scenario"], raw["knob"], dict(raw["seats"]),
                    Settings(**raw["settings"]), raw["code"])


def value_folder(folder: Path, value: int) -> Path:
    return folder / f"value-{value}"


def _refuse(folder: Path, message: str) -> InputError:
    return InputError([Problem(str(folder), "", message)])


def open_tune(folder: Path, plan: Plan) -> None:
    """Start a tune in `folder`, or go on with the one there if it is the same tune."""
    path = folder / PLAN_FILE
    if path.exists():
        try:
            kept = Plan.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError) as error:
            raise _refuse(folder, f"{PLAN_FILE} is not a tune's ({error})") from None
        if kept.code != plan.code:
            raise _refuse(folder, "the tune was played by another version of fibua, so its "
                                  "games cannot be gone on with; give another --out")
        if kept != plan:
            raise _refuse(folder, "the folder holds a tune of another scenario, knob, level "
                                  "or settings; give another --out")
        return
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plan.to_json(), indent=1), encoding="utf-8")


class Games(Protocol):
    def __call__(self, scenario: Scenario, seeds: Sequence[int]) -> list[GameRow]: ...


@contextmanager
def series_games(seats: dict[str, str], jobs: int) -> Iterator[Games]:
    """Plays a value's games: in this process, one series a scenario so that its maps'
    caches and the computers' notes last from batch to batch; or in `jobs` processes."""
    series: dict[int, tuple[Scenario, GameSeries]] = {}

    def games(scenario: Scenario, seeds: Sequence[int]) -> list[GameRow]:
        if jobs > 1:
            return play_all(scenario, seats, seeds, jobs)
        kept = series.get(id(scenario))
        if kept is None:
            for _, old in series.values():
                old.close()
            series.clear()
            kept = series[id(scenario)] = (scenario, GameSeries(scenario, seats))
        return [kept[1].play(seed) for seed in seeds]

    try:
        yield games
    finally:
        for _, old in series.values():
            old.close()


#: told of each value as it is judged
Tell = Callable[[Evidence], None]


def run_tune(folder: Path, base: Scenario, knob: Knob, plan: Plan, games: Games,
             tell: Tell | None = None, advance: Callable[[int], None] | None = None
             ) -> Search:
    """Search the knob's range, the games of each value kept in its lab run."""
    open_tune(folder, plan)
    sides = base.side_names
    assert len(sides) == 2, "a tune is of a two-sided scenario"
    pair = (sides[0], sides[1])
    settings = plan.settings

    def judge_value(value: int, settle: bool) -> Evidence:
        scenario = knob.scenario(base, value)
        where = value_folder(folder, value)
        held: list[GameRow] = []
        if db_path(where).exists():
            read_info(where)  # refused by name if it is not a lab run
            held = list(read_rows(where))
            writer = RunWriter.reopen(where)
        else:
            info = RunInfo(scenario.raw, plan.seats, [f"--knob {knob.name}={value}"],
                           settings.seed_start, settings.max_games, plan.code)
            writer = RunWriter.create(where, info)
        try:
            def play(_: int, seeds: Sequence[int]) -> Sequence[GameRow]:
                rows = games(scenario, seeds)
                writer.add(rows)
                if advance is not None:
                    advance(len(rows))
                return rows

            found = evaluate(value, pair, settings, play, held, settle)
            # the run holds what the value played, not a stopped run of max_games
            writer.plan_games(max(found.games, len(held)))
        finally:
            writer.close()
        if tell is not None:
            tell(found)
        return found

    search = bisect(knob.values(), judge_value)
    write_result(folder, knob, plan, search)
    return search


RESULT_FILE = "result.json"


def write_result(folder: Path, knob: Knob, plan: Plan, search: Search) -> Path:
    best = search.best
    out = {"knob": knob.text, "name": knob.name, "what": knob.what,
           "file_value": knob.current, "seats": plan.seats,
           "sides": [s["name"] for s in plan.scenario["sides"]],
           "settings": asdict(plan.settings), "crossing": search.crossing,
           "best": asdict(best), "tried": [asdict(e) for e in search.tried]}
    path = folder / RESULT_FILE
    path.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return path

