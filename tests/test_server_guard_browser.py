"""In a real headless Chromium: a page served from another origin (a second small HTTP
server on another loopback port) tries to act on a fibua server the way the outside attack
did (a text/plain fetch, a form posted into a hidden frame, a JSON fetch) and is refused,
nothing made; the server's own pages break no part of their security policy; and the lobby
says that a typed seed is no secret, and sends a long one exactly."""

from __future__ import annotations

import functools
import http.server
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from server_helpers import HOST, free_port, running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

#: the other site's page: three ways a page elsewhere can send a POST without asking the
#: server first, and one that asks (a JSON fetch, preflighted); the title says when all
#: have been tried
ATTACK = """<!doctype html><html><head><title>trying</title></head><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="TARGET/api/games" enctype="text/plain" target="sink">
<input name='{"scenario": "corner-shop", "seats": {}, "x": "' value='"}'></form>
<script>
const target = "TARGET";
const plain = { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" } };
const tries = [
  fetch(target + "/api/games", { ...plain, body: JSON.stringify({ scenario: "corner-shop" }) }),
  fetch(target + "/api/scenarios?filename=mine.toml", { ...plain, body: "SCENARIO" }),
  fetch(target + "/api/games", { method: "POST", headers: { "content-type": "application/json" },
                                 body: JSON.stringify({ scenario: "corner-shop" }) }),
].map((p) => p.catch(() => null));
document.getElementById("form").submit();
Promise.all(tries).then(() => { document.title = "tried"; });
</script></body></html>"""


@contextmanager
def other_site(folder: Path) -> Iterator[str]:
    """A plain HTTP server of the folder on another loopback port: another origin."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    site = http.server.ThreadingHTTPServer((HOST, free_port()), handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{site.server_address[1]}"
    finally:
        site.shutdown()
        site.server_close()


def a_scenario_file() -> str:
    from fibua.scenario.loader import bundled_scenarios

    text = bundled_scenarios()["corner-shop"].read_text()
    return text.replace('name = "corner-shop"', 'name = "planted"', 1)


def test_a_page_on_another_origin_can_make_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    site_files = tmp_path / "site"
    site_files.mkdir()
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        target = str(client.base_url).rstrip("/")
        page_text = ATTACK.replace("TARGET", target).replace(
            '"SCENARIO"', json.dumps(a_scenario_file()))
        (site_files / "attack.html").write_text(page_text)
        asked: dict[str, tuple[str, str]] = {}
        status: dict[str, int] = {}

        def answered() -> list[tuple[str, str, int]]:
            """(method, url, status) of each request to the server answered so far."""
            return [(*asked[key], code) for key, code in list(status.items())
                    if key in asked and asked[key][1].startswith(target)]

        def refused_posts() -> list[tuple[str, int]]:
            return [(url, code) for method, url, code in answered() if method == "POST"]

        with other_site(site_files) as site:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page()
            # Chromium's own network log: it has the status of every answer, also those the
            # page may not read (the answers carry Cross-Origin-Resource-Policy: same-origin);
            # a request's two events may come in either order, so they are joined at the end
            network = page.context.new_cdp_session(page)
            network.send("Network.enable")
            network.on("Network.requestWillBeSent", lambda e: asked.setdefault(
                e["requestId"], (e["request"]["method"], e["request"]["url"])))
            network.on("Network.responseReceivedExtraInfo", lambda e: status.setdefault(
                e["requestId"], e["statusCode"]))
            page.goto(f"{site}/attack.html")
            page.wait_for_function("document.title === 'tried'", timeout=WAIT_MS)
            for _ in range(WAIT_MS // 100):  # the form's frame may load after the fetches
                if len(refused_posts()) >= 3:
                    break
                page.wait_for_timeout(100)
            browser.close()
        games = client.get("/api/games").json()
        names = [s["name"] for s in client.get("/api/scenarios").json()]
    assert games == []
    assert "planted" not in names
    # the two fetches and the form reached the server and were refused there...
    posts = refused_posts()
    assert len(posts) == 3 and all(code == 403 for _, code in posts), answered()
    # ...and the JSON fetch never left the browser: its preflight found no CORS
    assert ("OPTIONS", f"{target}/api/games", 405) in answered()
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (0,)


def test_the_pages_keep_their_policy_and_the_lobby_warns_of_a_typed_seed(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    refusals: list[str] = []
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.on("console", lambda m: refusals.append(m.text)
                if "Content Security Policy" in m.text else None)
        page.goto(base + "/")
        card = page.locator(".card[data-scenario=corner-shop]")
        card.wait_for(timeout=WAIT_MS)
        warning = card.locator(".seed-warning")
        assert not warning.is_visible()  # no seed typed: a secret one is drawn
        assert "a typed seed is no secret" in page.inner_text("main")
        seed = str(2**70 + 1)  # past what a JavaScript number holds exactly
        card.locator("input.seed").fill(seed)
        assert warning.is_visible() and "no secret" in warning.inner_text()
        card.locator("select[data-seat=british]").select_option("human")
        card.locator("button.create").click()
        page.wait_for_selector(".links li a", timeout=WAIT_MS)
        page.goto(page.locator(".links li a").first.get_attribute("href") or "")
        page.wait_for_selector("#units div", timeout=WAIT_MS)
        page.goto(base + "/watch")
        page.wait_for_selector("input[type=file]", timeout=WAIT_MS)
        browser.close()
    assert refusals == []
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT seed FROM games").fetchone() == (seed,)
