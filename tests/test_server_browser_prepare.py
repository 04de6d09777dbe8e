"""A server still compiling its kernels, in a real headless Chromium: the lobby says
"preparing the rules engine: N of M" and offers Create all the same; the game is made at
once and its links appear where the person is (in view, beside the button), each with a
Copy button that puts it in the clipboard (or, where the browser will not, selects it). A
seat's page shows how far the preparation has come (never a blank page), then its map
with its troops. The warm-up plays one scenario and waits for the test, so the pages are
seen both before and after. Skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


CREATE = "[data-scenario='corner-shop'] button.create"
LINKS = ".links"
#: a short window: the card is far below the fold and the lobby must scroll to it
VIEWPORT = {"width": 1000, "height": 600}


def in_view(page: Any, selector: str) -> bool:
    box = page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect();"
                        " return [r.top, r.bottom, innerHeight]; }", selector)
    return bool(box[0] >= 0 and box[1] <= box[2])


def create_on_cold_engine(page: Any, base_url: str) -> dict[str, str]:
    """Create corner-shop (British a person's) while the engine prepares; its links."""
    page.goto(base_url + "/")
    page.wait_for_selector(CREATE, timeout=WAIT_MS)
    # waits are functions: an expression is evaluated with eval, which the page's
    # security policy forbids
    page.wait_for_function(
        "() => document.querySelector('#engine').textContent.includes("
        "'preparing the rules engine: 0 of 1')", timeout=WAIT_MS)
    assert page.is_visible("#engine") and not page.is_disabled(CREATE)
    page.locator(CREATE).scroll_into_view_if_needed()
    page.click(CREATE)
    page.wait_for_selector(LINKS + " li", timeout=WAIT_MS)
    assert in_view(page, LINKS)
    return {item.get_attribute("data-link") or "": item.locator("a").get_attribute("href") or ""
            for item in page.locator(LINKS + " li").all()}


def test_a_game_made_on_a_cold_engine_gives_its_links_in_view_and_its_page_progress(
        base_url: str, held_warmup: threading.Event) -> None:
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport=VIEWPORT,
                                      permissions=["clipboard-read", "clipboard-write"])
        page = context.new_page()
        links = create_on_cold_engine(page, base_url)
        assert set(links) == {"british", "spectators"}
        item = page.locator(LINKS + " li[data-link=british]")
        assert item.inner_text().startswith("british: ")
        item.locator("button.copy").click()
        page.wait_for_function(
            "() => document.querySelector(\"" + LINKS + " li[data-link=british] button.copy\")"
            ".textContent === 'Copied'", timeout=WAIT_MS)
        assert page.evaluate("() => navigator.clipboard.readText()") == links["british"]

        page.goto(links["british"])
        page.wait_for_function(
            "() => document.querySelector('#progress-text').textContent.includes("
            "'preparing the rules engine')", timeout=WAIT_MS)
        assert page.is_visible("#progress")
        page.wait_for_selector("#mapbox svg", timeout=WAIT_MS)  # the public map, at once
        assert page.locator("#overlay g.figure").count() == 0
        held_warmup.set()
        page.wait_for_selector("#overlay g.figure.own", timeout=WAIT_MS)
        page.wait_for_function("() => document.querySelector('#progress').hidden",
                               timeout=WAIT_MS)
        assert page.inner_text("#title").startswith("The Corner Shop")
        browser.close()


def test_without_the_clipboard_the_copy_button_selects_the_link(
        base_url: str, held_warmup: threading.Event) -> None:
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport=VIEWPORT)
        # a browser with no clipboard API (a page not served securely has none)
        context.add_init_script(
            "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });")
        page = context.new_page()
        links = create_on_cold_engine(page, base_url)
        page.locator(LINKS + " li[data-link=british] button.copy").click()
        assert page.evaluate("() => window.getSelection().toString()") == links["british"]
        assert page.inner_text(LINKS + " li[data-link=british] button.copy") in (
            "Copied", "Selected: press Ctrl+C")
        browser.close()
