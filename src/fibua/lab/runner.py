"""Playing a lab run: the seeds in chunks, in this process or in several, the rows in seed
order whatever the number of processes (a game is a function of its seed alone)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fibua.core.errors import FibuaError
from fibua.core.search import Budget
from fibua.lab.engine import watch_games
from fibua.lab.records import GameRow, RowWatcher, hold_objectives
from fibua.lab.seats import Seats
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario


class GameFailed(FibuaError):
    """A game of the run failed (the rules or a player): which seed, and how."""

    def __init__(self, seed: int, reason: str) -> None:
        super().__init__(seed, reason)  # both in args, so it crosses from a worker process
        self.seed = seed
        self.reason = reason

    def __str__(self) -> str:
        return f"the game of seed {self.seed} failed: {self.reason}"


#: told how many more games are done
Advance = Callable[[int], None]
#: the most games a chunk of seeds holds (small enough for a smooth progress bar)
MAX_CHUNK = 25


class GameSeries:
    """Plays games of one scenario, seat by seat as given, one seed at a time, in one
    long series (the heap set aside once, for every chunk this process plays); a hard
    computer weighs its decisions by `budget` where given."""

    def __init__(self, scenario: Scenario, seats: Mapping[str, str],
                 budget: Budget | None = None) -> None:
        seating = Seats(dict(seats), budget=budget)
        objectives = hold_objectives(scenario)
        self._queue: deque[int] = deque()
        self._games = watch_games(
            scenario, self._seeds(), seating,
            lambda game, seed: RowWatcher(game, seed, seating.players, objectives))

    def _seeds(self) -> Iterator[int]:
        while self._queue:
            yield self._queue.popleft()

    def play(self, seed: int) -> GameRow:
        """The game's row, with the seconds it took (CPU and wall, in this process)."""
        self._queue.append(seed)
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            row = next(self._games)
        except Exception as error:
            # the series cannot go on after a failure inside its generator: say which seed
            raise GameFailed(seed, f"{type(error).__name__}: {error}") from error
        return dataclasses.replace(row, cpu=time.process_time() - cpu,
                                   wall=time.perf_counter() - wall)

    def close(self) -> None:
        self._games.close()


@dataclass(frozen=True)
class _Job:
    #: the scenario table, for a worker that does not share this process's memory
    scenario: dict[str, Any] | None
    source: str
    seats: dict[str, str]
    budget: Budget | None = None


_series: GameSeries | None = None
#: the scenario a forked worker finds already loaded, its map caches made (a fresh copy
#: spends most of a first game making them again)
_forked_scenario: Scenario | None = None


def _start_worker(job: _Job) -> None:
    global _series
    # Ctrl-C reaches the whole process group: the parent stops the run and its workers,
    # which have nothing of their own to say about it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if job.scenario is not None:
        scenario = scenario_from_dict(job.scenario, job.source)
    else:
        assert _forked_scenario is not None, "a forked worker without its scenario"
        scenario = _forked_scenario
    _series = GameSeries(scenario, job.seats, job.budget)


def _play_chunk(seeds: Sequence[int]) -> list[GameRow]:
    assert _series is not None, "the worker was started without its job"
    return [_series.play(seed) for seed in seeds]


def chunks(seeds: Sequence[int], jobs: int) -> list[Sequence[int]]:
    """The seeds cut into runs of consecutive seeds, several a process: each an eighth of
    a process's share of the seeds still to come (at most `MAX_CHUNK`), so the runs get
    shorter toward the end and the processes finish together (one left alone with a long
    run idles the other cores), and the progress bar moves evenly."""
    out: list[Sequence[int]] = []
    start, n = 0, len(seeds)
    while start < n:
        size = max(1, min(MAX_CHUNK, (n - start) // (jobs * 8)))
        out.append(seeds[start:start + size])
        start += size
    return out


def _context() -> multiprocessing.context.BaseContext:
    # fork shares the parent's imported libraries and loaded kernels with the workers
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def play_rows(scenario: Scenario, seats: Mapping[str, str], seeds: Sequence[int],
              jobs: int = 1, advance: Advance | None = None,
              budget: Budget | None = None) -> Iterator[list[GameRow]]:
    """The rows of the games of these seeds, a batch at a time, in the order they are
    done (their seeds are their order); `advance` is told of each batch."""
    tell = advance or (lambda n: None)
    if jobs <= 1:
        series = GameSeries(scenario, seats, budget)
        try:
            for part in chunks(seeds, 1):
                batch = []
                for seed in part:
                    batch.append(series.play(seed))
                    tell(1)
                yield batch
        finally:
            series.close()
        return
    global _forked_scenario
    context = _context()
    forked = context.get_start_method() == "fork"
    job = _Job(None if forked else scenario.raw, scenario.name, dict(seats), budget)
    _forked_scenario = scenario if forked else None
    try:
        pool = context.Pool(jobs, _start_worker, (job,))  # the workers start here
    finally:
        _forked_scenario = None
    with pool:
        for batch in pool.imap_unordered(_play_chunk, chunks(seeds, jobs)):
            tell(len(batch))
            yield batch


def play_all(scenario: Scenario, seats: Mapping[str, str], seeds: Sequence[int],
             jobs: int = 1, budget: Budget | None = None) -> list[GameRow]:
    """Every row, in seed order."""
    rows = [row for batch in play_rows(scenario, seats, seeds, jobs, budget=budget)
            for row in batch]
    return sorted(rows, key=lambda row: row.seed)
