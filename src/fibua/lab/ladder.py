"""A ladder: players rated against each other over scenarios (docs/strength.md).

Every ordered pair of different players meets in every scenario, the first of the pair on
the scenario's first side and the second on the other, so each player plays each side
against each other player. A pairing is an ordinary lab run (`fibua.lab.store`) in
`DIR/runs/SCENARIO/FIRST-vs-SECOND`, on the same seeds as every other pairing, so a
ladder stopped at any moment goes on where it stopped when run again, and any pairing
can be reported on as a lab run is. The ratings (`fibua.lab.ratings`) are fitted from
every pairing's games.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from fibua.core.errors import InputError, Problem
from fibua.core.search import Budget
from fibua.lab.ratings import (
    BOOTSTRAP,
    Cell,
    Fit,
    by_side_design,
    connected,
    fit,
    overall_design,
)
from fibua.lab.records import GameRow
from fibua.lab.seats import PLAYERS, searches
from fibua.lab.store import (
    RunInfo,
    RunWriter,
    code_digest,
    db_path,
    missing_seeds,
    read_info,
    read_rows,
)
from fibua.scenario.schema import Scenario

#: the first seed of a ladder unless told: seeds nothing was ever tuned on
LADDER_SEEDS = 100_000
#: what a hard computer's decision weighs in a ladder unless told: a game of hard against
#: another player costs about 1-5 s of CPU on the bundled scenarios (docs/strength.md)
LADDER_BUDGET = Budget(candidates=2, worlds=2, horizon=16)
#: the anchor players, the first of them among the ladder's rated 0
ANCHORS = ("doctrine", "random")
PLAN_NAME = "plan.json"
RUNS = "runs"


def _problem(where: str, message: str) -> InputError:
    return InputError([Problem(where, "", message)])


def parse_players(text: str) -> list[str]:
    """The players of `--players P1,P2,...`: known, different, at least two."""
    players = [p.strip() for p in text.split(",") if p.strip()]
    for player in players:
        if player not in PLAYERS:
            raise _problem("--players", f"no player {player!r}; players: {', '.join(PLAYERS)}")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise _problem("--players", f"{', '.join(twice)} named twice")
    if len(players) < 2:
        raise _problem("--players", "a ladder needs at least two players (e.g. "
                                    "random,normal)")
    return players


BUDGET_FIELDS = tuple(Budget.__dataclass_fields__)


def parse_budget(text: str | None) -> Budget:
    """`--budget candidates=3,worlds=2,horizon=8` (fields left out keep the ladder's)."""
    if not text:
        return LADDER_BUDGET
    given: dict[str, int] = {}
    for part in text.split(","):
        name, sep, value = (s.strip() for s in part.partition("="))
        if not sep or name not in BUDGET_FIELDS or not value.isdigit() or int(value) < 1:
            raise _problem("--budget", (f"{part.strip()!r} is not NAME=COUNT with NAME one of "
                                        f"{', '.join(BUDGET_FIELDS)} and COUNT at least 1"))
        given[name] = int(value)
    return replace(LADDER_BUDGET, **given)


def pick_anchor(players: Sequence[str], anchor: str | None) -> str:
    if anchor is None:
        return next((a for a in ANCHORS if a in players), players[0])
    if anchor not in players:
        raise _problem("--anchor", f"{anchor!r} is not among the players ({', '.join(players)})")
    return anchor


def check_two_sides(scenario: Scenario) -> tuple[str, str]:
    sides = scenario.side_names
    if len(sides) != 2:
        raise _problem(scenario.name, (f"a ladder plays scenarios of two sides; "
                                       f"{scenario.name} has {len(sides)}"))
    return sides[0], sides[1]


def load_scenarios(given: Sequence[str]) -> list[Scenario]:
    """The ladder's scenarios (files or bundled names): each of two sides, none twice."""
    from fibua.scenario.loader import load_scenario

    loaded = [load_scenario(s) for s in given]
    for scenario in loaded:
        check_two_sides(scenario)
    names = [s.name for s in loaded]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise _problem("SCENARIO", f"{', '.join(twice)} named twice")
    return loaded


@dataclass(frozen=True)
class Pairing:
    """One scenario's games between `first` (on its first side) and `second`."""

    scenario: Scenario
    first: str
    second: str

    @property
    def seats(self) -> dict[str, str]:
        one, two = check_two_sides(self.scenario)
        return {one: self.first, two: self.second}

    @property
    def searching(self) -> bool:
        return searches(self.first) or searches(self.second)

    def folder(self, root: Path) -> Path:
        return root / RUNS / self.scenario.name / f"{self.first}-vs-{self.second}"


@dataclass(frozen=True)
class Plan:
    """What a ladder plays: scenarios, players, games a pairing, the first seed, what a
    hard computer's decision weighs, and the player rated 0."""

    scenarios: list[str]
    players: list[str]
    games: int
    seed_start: int
    budget: Budget
    anchor: str


def pairings(scenarios: Sequence[Scenario], players: Sequence[str]) -> list[Pairing]:
    """Every ordered pair of different players in every scenario."""
    return [Pairing(s, a, b) for s in scenarios for a in players for b in players if a != b]


def expected_info(pairing: Pairing, plan: Plan) -> RunInfo:
    """The lab run a pairing is: the budget kept only where a player searches (so a
    pairing without one is the same run whatever the budget)."""
    return RunInfo(pairing.scenario.raw, pairing.seats, [], plan.seed_start, plan.games,
                   code_digest(), plan.budget if pairing.searching else None)


def _same_run(held: RunInfo, wanted: RunInfo) -> bool:
    def key(info: RunInfo) -> str:
        raw = asdict(info)
        raw.pop("code")
        return json.dumps(raw, sort_keys=True, default=str)

    return key(held) == key(wanted)


@dataclass(frozen=True)
class Work:
    """A pairing's run and the seeds it still lacks."""

    pairing: Pairing
    folder: Path
    info: RunInfo
    missing: list[int]


def prepare(root: Path, plan: Plan, every: Sequence[Pairing]) -> list[Work]:
    """Each pairing's run in the ladder's folder (made where missing) and what it lacks.
    A run there that played something else, or by other code with games still to play,
    is refused before anything is made or played."""
    held = [(pairing, _held(pairing, plan, root)) for pairing in every]
    root.mkdir(parents=True, exist_ok=True)
    work = []
    for pairing, found in held:
        if found is None:
            wanted = expected_info(pairing, plan)
            RunWriter.create(pairing.folder(root), wanted).close()
            found = Work(pairing, pairing.folder(root), wanted, list(wanted.seeds))
        work.append(found)
    (root / PLAN_NAME).write_text(json.dumps(asdict(plan), indent=2) + "\n")
    return work


def _held(pairing: Pairing, plan: Plan, root: Path) -> Work | None:
    """The pairing's run already in the ladder's folder, if it may go on; None if none."""
    folder = pairing.folder(root)
    if not db_path(folder).exists():
        return None
    wanted = expected_info(pairing, plan)
    info = read_info(folder)
    if not _same_run(info, wanted):
        raise _problem(str(folder), (
            "this pairing's run played other games (another scenario file, number of "
            "games, first seed or budget); name another --out for this ladder"))
    missing = missing_seeds(folder, info)
    if missing and info.code != wanted.code:
        raise _problem(str(folder), (
            "this pairing was begun by another version of fibua and cannot be finished "
            "as it would have been; name another --out for this ladder"))
    return Work(pairing, folder, info, missing)


def score_of(row: GameRow, first_side: str) -> float:
    """The first side's player's score: 1 a win, 1/2 a draw, 0 a loss."""
    if row.winner is None:
        return 0.5
    return 1.0 if row.winner == first_side else 0.0


def cells(root: Path, every: Sequence[Pairing]) -> list[Cell]:
    """Each pairing's games, as the ratings read them."""
    out = []
    for pairing in every:
        first_side = check_two_sides(pairing.scenario)[0]
        scores = tuple(score_of(r, first_side) for r in read_rows(pairing.folder(root)))
        out.append(Cell(pairing.scenario.name, pairing.first, pairing.second, scores))
    return out


@dataclass(frozen=True)
class ScenarioFit:
    name: str
    sides: tuple[str, str]
    fit: Fit
    identified: bool


@dataclass(frozen=True)
class Ladder:
    """The fitted ladder: one rating a player over all (`overall`) and a rating a player
    as each side of each scenario (`by_side`)."""

    plan: Plan
    overall: Fit
    by_side: list[ScenarioFit]
    games: int


def rate(plan: Plan, scenarios: Sequence[Scenario], found: Sequence[Cell],
         resamples: int = BOOTSTRAP) -> Ladder:
    """Fit both models; a pairing without games yet (a stopped ladder) is left out."""
    played = [c for c in found if c.games]
    if not played:
        raise _problem("--out", "the ladder holds no games yet")
    names = [s.name for s in scenarios]
    overall = fit(overall_design(played, plan.players, names, plan.anchor), played, resamples)
    per_scenario = []
    for scenario in scenarios:
        mine = [c for c in played if c.scenario == scenario.name]
        sides = check_two_sides(scenario)
        if not mine:
            continue
        design = by_side_design(mine, plan.players, sides, plan.anchor)
        per_scenario.append(ScenarioFit(scenario.name, sides, fit(design, mine, resamples),
                                        connected(mine, plan.players)))
    return Ladder(plan, overall, per_scenario, sum(c.games for c in played))


def to_json(ladder: Ladder) -> dict[str, Any]:
    return {"plan": asdict(ladder.plan), "games": ladder.games,
            "overall": asdict(ladder.overall),
            "by_side": [asdict(s) for s in ladder.by_side]}
