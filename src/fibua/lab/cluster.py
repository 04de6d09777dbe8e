"""Playing a lab run on a Ray cluster: the seeds in chunks, each chunk a Ray task, the rows
handed on in seed order. Ray is an optional extra (`pip install fibua[ray]`); without it
`--ray` is refused with a message.

A worker keeps one game series for the run it is playing (the scenario loaded, its map
caches made, once), so a chunk costs only its games. The workers must import the same
fibua as this process: a cluster this command starts runs its workers from this Python
with this process's environment, and the folder fibua is imported from is put first on
their path so a source checkout works as an installed package does.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import fibua
from fibua.core.errors import FibuaError
from fibua.core.search import Budget
from fibua.lab.records import GameRow
from fibua.lab.runner import Advance, GameFailed, GameSeries, chunks
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario

INSTALL_HINT = "pip install 'fibua[ray]'"
AUTH_HINT = ("a cluster with token authentication wants RAY_AUTH_MODE=token and its token "
             "here, as on its nodes")


class ClusterError(FibuaError):
    """Ray is missing, the cluster cannot be reached, or it failed during the run."""


def import_ray() -> ModuleType:
    """The ray module, or a ClusterError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--ray needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


@dataclass(frozen=True)
class _Job:
    #: told apart from the runs a worker played before (workers outlive a run)
    run: str
    scenario: dict[str, Any]
    source: str
    seats: dict[str, str]
    #: what a hard computer's decision weighs (None: the default `Budget`)
    budget: Budget | None = None


@dataclass(frozen=True)
class _Failure:
    """A game failed on a worker: returned, not raised, so it arrives as it was."""

    seed: int
    reason: str


_worker_run: str | None = None
_worker_series: GameSeries | None = None


def _series_for(job: _Job) -> GameSeries:
    global _worker_run, _worker_series
    if _worker_series is None or _worker_run != job.run:
        if _worker_series is not None:
            _worker_series.close()
        scenario = scenario_from_dict(job.scenario, job.source)
        _worker_series = GameSeries(scenario, job.seats, job.budget)
        _worker_run = job.run
    return _worker_series


def play_chunk(job: _Job, seeds: Sequence[int]) -> list[GameRow] | _Failure:
    """The rows of a chunk of seeds, played on a worker."""
    global _worker_series
    series = _series_for(job)
    try:
        return [series.play(seed) for seed in seeds]
    except GameFailed as failure:
        _worker_series = None  # a series cannot go on after a failure
        return _Failure(failure.seed, failure.reason)


def _worker_path() -> str:
    """PYTHONPATH for the workers: the folder this fibua comes from, then this process's
    (made absolute: a worker does not start in this process's folder), then the node's
    own (Ray expands the variable on the node)."""
    home = Path(fibua.__file__).resolve().parent.parent
    inherited = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return os.pathsep.join([str(home), *(os.path.abspath(part) for part in inherited if part),
                            "${PYTHONPATH}"])


class RayCluster:
    """A Ray cluster for one run: reached (or started here) before anything is written,
    let go after; a cluster this command started is shut down with it."""

    def __init__(self, address: str | None = None) -> None:
        self._ray = import_ray()
        #: this command started Ray or connected to a cluster (rather than finding this
        #: process connected already), so it lets go after
        self._owned = not self._ray.is_initialized()
        if self._owned:
            _init(self._ray, address)

    def __enter__(self) -> RayCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()

    def cpus(self) -> int:
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def play_rows(self, scenario: Scenario, seats: Mapping[str, str], seeds: Sequence[int],
                  advance: Advance | None = None,
                  budget: Budget | None = None) -> Iterator[list[GameRow]]:
        """The rows of the games of these seeds, a batch at a time, in seed order;
        `advance` is told of each chunk as it is done, in whatever order they finish."""
        tell = advance or (lambda n: None)
        ray = self._ray
        remote = ray.remote(num_cpus=1)(play_chunk)
        job = ray.put(_Job(uuid.uuid4().hex, scenario.raw, scenario.name, dict(seats), budget))
        parts = chunks(seeds, self.cpus())
        pending: list[Any] = [remote.remote(job, list(part)) for part in parts]
        order = {ref: index for index, ref in enumerate(pending)}
        done: dict[int, list[GameRow] | _Failure] = {}
        next_index = 0
        try:
            while next_index < len(parts):
                finished, pending = ray.wait(pending, num_returns=1)
                for ref in finished:
                    result = _result(ray, ref)
                    if not isinstance(result, _Failure):
                        tell(len(result))
                    done[order[ref]] = result
                while next_index in done:
                    # a failure is told in seed order, after the games before it, as a
                    # run in one process tells it
                    result = done.pop(next_index)
                    if isinstance(result, _Failure):
                        raise GameFailed(result.seed, result.reason)
                    yield result
                    next_index += 1
        finally:
            for ref in pending:  # a failed run's other chunks are not wanted
                ray.cancel(ref)


#: how long a cluster's address may take to answer at all
REACH_SECONDS = 10.0


def _check_reachable(address: str) -> None:
    """Refuse a HOST:PORT where nothing listens: Ray would try it for many minutes."""
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit():
        return  # "auto", "local" and other forms are Ray's to resolve
    try:
        socket.create_connection((host.strip("[]"), int(port)), REACH_SECONDS).close()
    except OSError as error:
        raise ClusterError(f"no Ray cluster answers at {address}: "
                           f"{error.strerror or error}") from None


def _init(ray: ModuleType, address: str | None) -> None:
    if address is not None:
        _check_reachable(address)
    # usage reports would try to reach the network from every node: off unless asked
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False,
                 include_dashboard=False,
                 runtime_env={"env_vars": {"PYTHONPATH": _worker_path()}})
    except Exception as error:  # Ray raises many kinds (ConnectionError, ValueError, ...)
        # a refused token reads as a failure to connect
        hint = f" ({AUTH_HINT})" if "connect" in str(error).lower() else ""
        raise ClusterError(f"cannot start or reach the Ray cluster: {error}{hint}") from None


def _result(ray: ModuleType, ref: Any) -> list[GameRow] | _Failure:
    try:
        result: list[GameRow] | _Failure = ray.get(ref)
    except ray.exceptions.RayError as error:
        raise ClusterError(f"the Ray cluster failed: {error}") from None
    return result
