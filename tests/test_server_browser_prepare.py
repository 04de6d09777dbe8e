"""The lobby of a server still compiling its kernels, in a real headless Chromium: it says
"preparing the rules engine: N of M" and offers no Create until the engine is ready, then
offers it and a game is made. The warm-up plays one scenario and waits for the test, so
the page is seen both before and after. Skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua import kernels
from fibua.scenario.loader import bundled_scenarios
from fibua.server.app import create_app
from server_helpers import HOST, PATIENCE, free_port, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium


@pytest.fixture
def held_warmup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[threading.Event]:
    """A cold engine whose warm-up (corner-shop alone, marked in tmp_path) waits for the
    event before its game."""
    go = threading.Event()
    play = kernels.play_one

    def held_play(path: Path) -> None:
        assert go.wait(PATIENCE)
        play(path)

    monkeypatch.setattr(kernels, "warm_scenarios", lambda: [bundled_scenarios()["corner-shop"]])
    monkeypatch.setattr(kernels, "ready_mark", lambda: tmp_path / "cache" / "fibua-ready")
    monkeypatch.setattr(kernels, "play_one", held_play)
    yield go
    go.set()


@pytest.fixture
def base_url(tmp_path: Path, held_warmup: threading.Event) -> Iterator[str]:
    """A server in a thread of this process (so it sees the held warm-up)."""
    port = free_port()
    app = create_app(tmp_path / "games.sqlite3", prepare=True)
    server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started)
    yield f"http://{HOST}:{port}"
    server.should_exit = True
    thread.join(PATIENCE)


def test_the_lobby_says_the_engine_is_preparing_then_offers_create(
        base_url: str, held_warmup: threading.Event) -> None:
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.goto(base_url + "/")
        page.wait_for_selector("[data-scenario='corner-shop'] button.create", timeout=WAIT_MS)
        # waits are functions: an expression is evaluated with eval, which the page's
        # security policy forbids
        page.wait_for_function(
            "() => document.querySelector('#engine').textContent.includes("
            "'preparing the rules engine: 0 of 1')", timeout=WAIT_MS)
        assert page.is_visible("#engine")
        create = "[data-scenario='corner-shop'] button.create"
        assert page.is_disabled(create)
        held_warmup.set()
        page.wait_for_function(
            f"() => !document.querySelector(\"{create}\").disabled", timeout=WAIT_MS)
        assert not page.is_visible("#engine")
        page.click(create)
        page.wait_for_selector("#created .links", timeout=WAIT_MS)
        browser.close()
