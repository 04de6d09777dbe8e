"""The rules engine made ready before the first game: `fibua warmup` compiles what a game
calls under a progress report and leaves a mark, is silent once the mark is there, and a
server started before then compiles in the background while the lobby says how far it has
come. Here the warm-up plays one small scenario, with its mark in a temporary folder."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from fibua import kernels
from fibua.cli import warmup
from fibua.scenario.loader import bundled_scenarios
from fibua.server.app import create_app
from fibua.server.preparing import Preparation
from server_helpers import PATIENCE, TEST_HOSTS, TestClient, wait_until


@pytest.fixture
def small_plan(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The warm-up plays corner-shop alone and marks in tmp_path; the kernels are as the
    test run found them."""
    mark = tmp_path / "cache" / "fibua-ready-test"
    monkeypatch.setattr(kernels, "warm_scenarios", lambda: [bundled_scenarios()["corner-shop"]])
    monkeypatch.setattr(kernels, "ready_mark", lambda: mark)
    monkeypatch.setattr(kernels, "kernels_cold", lambda: False)
    return mark


def plain_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=False, width=200), out


def test_warmup_reports_each_step_then_is_silent(small_plan: Path) -> None:
    console, out = plain_console()
    assert warmup.run_warmup(console)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("preparing the rules engine")
    assert lines[1:3] == ["  0 of 1 done, next: corner-shop", "  1 of 1 done"]
    assert lines[3].startswith("the rules engine is ready (")
    assert small_plan.exists()

    console, out = plain_console()
    assert not warmup.run_warmup(console)
    assert out.getvalue() == ""
    assert warmup.run_warmup(console, force=True)  # --force: all the same


def test_a_missing_mark_or_cold_kernels_mean_not_ready(small_plan: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert not kernels.is_ready()
    kernels.prepare(lambda done, total, step: None)
    assert kernels.is_ready()
    monkeypatch.setattr(kernels, "kernels_cold", lambda: True)  # numba's cache went stale
    assert not kernels.is_ready()


def test_the_mark_is_named_by_the_sources_in_numbas_cache_folder() -> None:
    import numba

    from fibua.battlefield.geometry import PACKAGE, sources_digest

    mark = kernels.ready_mark()
    assert mark.parent == Path(numba.config.CACHE_DIR)
    assert mark.name == f"fibua-ready-{sources_digest(PACKAGE)}"


@pytest.fixture
def held(small_plan: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The warm-up waits for the event before its game, so a test sees it under way."""
    go = threading.Event()
    play = kernels.play_one

    def held_play(path: Path) -> None:
        assert go.wait(PATIENCE)
        play(path)

    monkeypatch.setattr(kernels, "play_one", held_play)
    yield go
    go.set()


def test_a_cold_server_prepares_in_the_background_and_says_how_far(
        tmp_path: Path, held: threading.Event) -> None:
    app = create_app(tmp_path / "games.sqlite3", prepare=True, hosts=TEST_HOSTS)
    with TestClient(app) as client:
        status = client.get("/api/engine").json()
        assert status == {"ready": False, "done": 0, "total": 1, "percent": 0, "message":
                          "preparing the rules engine: 0 of 1 (compiled once for this "
                          "version)"}
        # the rest of the server answers meanwhile
        assert client.get("/api/scenarios").status_code == 200
        held.set()
        wait_until(lambda: client.get("/api/engine").json()["ready"])
        assert client.get("/api/engine").json()["message"] == "the rules engine is ready"
    assert kernels.is_ready()


def test_a_ready_server_prepares_nothing(tmp_path: Path, small_plan: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    small_plan.parent.mkdir(parents=True)
    small_plan.touch()
    monkeypatch.setattr(Preparation, "run", lambda self: pytest.fail("prepared again"))
    app = create_app(tmp_path / "games.sqlite3", prepare=True, hosts=TEST_HOSTS)
    with TestClient(app) as client:
        assert client.get("/api/engine").json()["ready"] is True


def test_without_prepare_the_server_is_ready_at_once(tmp_path: Path, small_plan: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", hosts=TEST_HOSTS)) as client:
        assert client.get("/api/engine").json()["ready"] is True
    assert not small_plan.exists()


def test_make_play_prepares_before_it_serves() -> None:
    recipe = (Path(__file__).parent.parent / "Makefile").read_text().split("\nplay:")[1]
    lines = [line.strip() for line in recipe.split("\n\n")[0].splitlines()[1:]]
    assert lines == ["-$(BIN)/fibua warmup", "$(BIN)/fibua serve --open"]
