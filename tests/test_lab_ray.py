"""`fibua lab run --ray`: the games played on a Ray cluster give the rows a local run gives
on the same seeds; without Ray, `--ray` is refused with a message and status 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fibua.cli import main as cli
from fibua.core.orders import Order
from fibua.lab.cluster import _Failure, _Job, play_chunk
from fibua.lab.records import GameRow
from fibua.lab.seats import PLAYERS
from fibua.lab.store import read_rows
from fibua.scenario.loader import load_scenario
from lab_helpers import lab

SEEDS = ("--games", "20", "--seed-start", "300")


class Faulty:
    def choose(self, view: object, legal: object) -> Order:
        raise ZeroDivisionError("a player's own fault")


@pytest.fixture(scope="module")
def local_rows(tmp_path_factory: pytest.TempPathFactory) -> list[GameRow]:
    out = tmp_path_factory.mktemp("lab") / "local"
    result = lab("run", "corner-shop", *SEEDS, "--out", str(out))
    assert result.exit_code == 0, result.output
    return list(read_rows(out))


@pytest.fixture
def no_ray_running() -> Iterator[None]:
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    yield
    if ray.is_initialized():  # a failed test must not leave its cluster to the next one
        ray.shutdown()


@pytest.mark.usefixtures("no_ray_running")
def test_a_cluster_of_its_own_plays_the_rows_of_a_local_run(local_rows: list[GameRow],
                                                            tmp_path: Path) -> None:
    import ray

    result = lab("run", "corner-shop", *SEEDS, "--ray", "--out", str(tmp_path / "ray"))
    assert result.exit_code == 0, result.output
    assert "on Ray" in result.output
    assert [row.seed for row in local_rows] == list(range(300, 320))
    assert list(read_rows(tmp_path / "ray")) == local_rows
    assert not ray.is_initialized()  # the cluster the command started is gone


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def head_node() -> Iterator[str]:
    """A Ray cluster of one node started by `ray start --head --block` (stopped by ending
    that process alone), and its address."""
    pytest.importorskip("ray")
    port = free_port()
    # a short folder: Ray's sockets live in it and their paths have a length limit
    with pytest.MonkeyPatch.context() as env, \
            tempfile.TemporaryDirectory(prefix="ray") as folder:
        # the same setting here and on the node, which only listens on this machine
        env.setenv("RAY_AUTH_MODE", "disabled")
        log = Path(folder) / "head.log"
        with log.open("w") as sink:
            head = subprocess.Popen(
                [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
                 f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
                 "--disable-usage-stats", f"--temp-dir={folder}"],
                stdout=sink, stderr=subprocess.STDOUT, env={**os.environ})
        try:
            deadline = time.monotonic() + 120  # a guard against a hang, not a measure
            while "block forever" not in log.read_text() and head.poll() is None:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.5)
            assert head.poll() is None, log.read_text()
            yield f"127.0.0.1:{port}"
        finally:
            head.terminate()  # the node drains and stops the processes it started
            head.wait(timeout=120)


@pytest.mark.usefixtures("no_ray_running")
def test_a_cluster_started_by_ray_start_plays_the_rows_of_a_local_run(
        head_node: str, local_rows: list[GameRow], tmp_path: Path) -> None:
    import ray

    result = lab("run", "corner-shop", *SEEDS, "--ray-address", head_node,
                 "--out", str(tmp_path / "ray"))
    assert result.exit_code == 0, result.output
    assert list(read_rows(tmp_path / "ray")) == local_rows
    assert not ray.is_initialized()


SITE = """
from fibua.lab.seats import PLAYERS

class Faulty:
    def choose(self, view, legal):
        raise ZeroDivisionError("a player's own fault")

PLAYERS["faulty"] = lambda rules, side, seed, notes: Faulty()
"""


@pytest.mark.usefixtures("no_ray_running")
def test_a_failing_game_on_the_cluster_names_the_first_seed_that_failed(
        head_node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the workers find the faulty player on the path this process gives them
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SITE)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(tmp_path / "site"), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]))
    monkeypatch.setitem(PLAYERS, "faulty", lambda rules, side, seed, notes: Faulty())
    result = lab("run", "corner-shop", "--games", "6", "--seed-start", "5",
                 "--seat", "germans=faulty", "--ray-address", head_node,
                 "--out", str(tmp_path / "f"))
    assert result.exit_code == 1
    assert "the game of seed 5 failed: ZeroDivisionError: a player's own fault" in result.output
    assert list(read_rows(tmp_path / "f")) == []


@pytest.mark.usefixtures("no_ray_running")
def test_a_cluster_this_process_is_connected_to_is_used_and_left_connected(
        head_node: str, local_rows: list[GameRow], tmp_path: Path) -> None:
    import ray

    ray.init(address=head_node, log_to_driver=False)
    result = lab("run", "corner-shop", "--games", "5", "--seed-start", "310", "--ray",
                 "--out", str(tmp_path / "ray"))
    assert result.exit_code == 0, result.output
    assert ray.is_initialized()
    ray.shutdown()
    assert list(read_rows(tmp_path / "ray")) == local_rows[10:15]


def test_an_address_where_nothing_listens_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{free_port()}"
    result = lab("run", "corner-shop", "--games", "2", "--ray-address", address,
                 "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert f"no Ray cluster answers at {address}" in result.output
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("option", [["--ray"], ["--ray-address", "127.0.0.1:6379"]])
def test_without_ray_the_option_is_refused(option: list[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    result = lab("run", "corner-shop", "--games", "2", *option, "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert "--ray needs Ray, which is not installed: pip install 'fibua[ray]'" in result.output
    assert not (tmp_path / "x").exists()


def test_a_failing_game_comes_back_from_its_worker_with_its_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYERS, "faulty", lambda rules, side, seed, notes: Faulty())
    scenario = load_scenario("corner-shop")
    job = _Job("run-1", scenario.raw, scenario.name,
               {"british": "computer", "germans": "faulty"})
    assert play_chunk(job, [7, 8]) == _Failure(7, "ZeroDivisionError: a player's own fault")


def test_ray_takes_its_address_as_the_issue_spells_it(tmp_path: Path) -> None:
    """`fibua lab run S --ray HOST:PORT` is read as `--ray-address HOST:PORT`; a bare
    `--ray` and a scenario after it stay as they are."""
    pytest.importorskip("ray")
    address = f"127.0.0.1:{free_port()}"
    run = subprocess.run(
        [sys.executable, "-m", "fibua.cli.main", "lab", "run", "corner-shop", "--games", "2",
         "--ray", address, "--out", str(tmp_path / "x")],
        capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 2
    assert f"no Ray cluster answers at {address}" in run.stdout + run.stderr
    assert not (tmp_path / "x").exists()
    assert cli.ray_address_spelling(["lab", "run", "s", "--ray", "--games", "2"]) == [
        "lab", "run", "s", "--ray", "--games", "2"]
