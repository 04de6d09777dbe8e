"""A whole game in a real headless Chromium (Debian's, driven by Playwright): made in the
lobby with two human seats, played by clicking in two browser contexts (a move each, with
its preview and commit, then each side ends its phases until the turn limit), the dice log
seen, the after-action report opened and its turn slider moved, the log downloaded and
verified by `fibua replay`, then watched again from the upload page. Until the end, one
side's WebSocket frames and page never name an enemy it has not seen. Skipped where
Chromium or Playwright is missing (`make test` installs both: tools/install-browser.sh)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_helpers import running_server
from test_server_browser import (
    CHROMIUM,
    FLAGS,
    SHOTS,
    WAIT_MS,
    corner_shop_for_two,
    move_by_clicking,
    pytestmark,
    rebuilt,
    sync_api,
    unseen_by,
)

__all__ = ["pytestmark"]  # the same skip as the other browser test
#: a bound on the phases a game of the corner shop can have (it has about 40)
MAX_PHASES = 200
SRC = Path(__file__).parent.parent / "src"


def public_state(client: httpx.Client, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def token_of(link: str) -> str:
    return link.split("#token=", 1)[1]


def end_phases_until_over(pages: dict[str, Any], client: httpx.Client, game_id: str,
                          spectator: str, watched: str, seen: list[str]) -> None:
    """Whichever side must act presses End phase on its page, until the game is over (the
    server's state, read by the spectators' link, says whose turn it is); the `watched`
    side's page is kept in `seen` before each phase, until the end."""
    for _ in range(MAX_PHASES):
        message = public_state(client, game_id, spectator)
        if message["status"]["over"]:
            return
        seen.append(pages[watched].inner_text("body") + pages[watched].content())
        side = message["status"]["to_act"]
        page = pages[side]
        page.wait_for_selector("#done", timeout=WAIT_MS)
        page.click("#done")
        version = message["version"]
        for _ in range(WAIT_MS // 50):
            now = public_state(client, game_id, spectator)
            if now["version"] > version or now["status"]["over"]:
                break
            page.wait_for_timeout(50)  # a polling interval, not a measure
    pytest.fail("the game did not end")


def replay_verifies(log: Path) -> str:
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run([sys.executable, "-m", "fibua.cli.main", "replay", str(log)],
                          env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def names_in(text: str, names: set[str]) -> list[str]:
    return [name for name in names
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]


def test_a_game_played_to_the_end_then_reviewed(tmp_path: Path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    db = tmp_path / "games.sqlite3"
    frames: list[str] = []
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        refused: list[str] = []
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        size = {"width": 1400, "height": 900}
        first, second = browser.new_context(viewport=size), browser.new_context(
            viewport=size, accept_downloads=True)
        lobby = first.new_page()
        links = corner_shop_for_two(lobby, base)
        game_id = links["british"].split("/play/")[1].split("#")[0]
        spectator = token_of(links["spectators"])

        british = first.new_page()
        british.on("console", lambda m: refused.append(m.text)
                   if "Content Security Policy" in m.text else None)
        british.goto(links["british"])
        germans = second.new_page()
        germans.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: frames.append(str(payload))))
        germans.goto(links["germans"])

        # the report is nobody's before the end, whatever link asks
        early = client.get(f"/api/games/{game_id}/report",
                           headers={"authorization": f"Bearer {spectator}"})
        assert early.status_code == 409 and early.json()["error"] == "game-not-over"

        british.wait_for_selector("#units div", timeout=WAIT_MS)
        move_by_clicking(british)
        # waits are functions, not expressions: Playwright evaluates an expression with
        # eval, which the pages' security policy forbids
        british.wait_for_function(
            "() => / (moves|runs) \\d/.test(document.querySelector('#dice').textContent)",
            timeout=WAIT_MS)  # the move, told in plain words
        british.click("#done")
        germans.wait_for_function(
            "() => document.querySelector('#seat').textContent.includes('your orders')",
            timeout=WAIT_MS)
        move_by_clicking(germans)
        germans.wait_for_function(
            "() => / (moves|runs) \\d/.test(document.querySelector('#dice').textContent)",
            timeout=WAIT_MS)  # the move, told in plain words
        assert "rolled" in germans.inner_text("#dice")  # the dice, faces shown
        germans_pages = [germans.inner_text("body") + germans.content()]

        end_phases_until_over({"british": british, "germans": germans}, client, game_id,
                              spectator, "germans", germans_pages)
        for page in (british, germans):
            page.wait_for_selector("#report-link", timeout=WAIT_MS)
        assert "Game over" in british.inner_text("#status")

        # the log, downloaded from the game page, verifies
        with germans.expect_download(timeout=WAIT_MS) as download:
            germans.click("#download")
        log = tmp_path / "game.jsonl"
        download.value.save_as(str(log))
        assert replay_verifies(log).startswith("OK:")

        # the after-action report: the whole game, turn by turn, from a seat's link
        british.click("#report-link")
        british.wait_for_selector("#turn-slider", timeout=WAIT_MS)
        assert british.locator("#headline").inner_text().strip()
        first_label = british.inner_text("#turn-label")
        first_events = british.inner_text("#turn-events")
        british.click("#turn-next")
        assert british.inner_text("#turn-label") != first_label
        slider = british.locator("#turn-slider")
        slider.focus()
        british.keyboard.press("End")
        last_label = british.inner_text("#turn-label")
        assert last_label not in (first_label,) and "of" in last_label
        assert british.inner_text("#turn-events") != first_events
        for side in ("british", "germans"):  # every side's troops on the map
            assert british.locator(f"#figures .figure[data-side={side}]").count() > 0
        british.screenshot(path=str(shots / "server-report.png"))
        # the sides' colour chips are coloured through the style object (the policy refuses
        # style attributes written as text)
        chip = british.locator(".swatch").first.evaluate(
            "(node) => getComputedStyle(node).backgroundColor")
        assert chip not in ("", "rgba(0, 0, 0, 0)")
        assert refused == []  # the game page and the report broke no part of the policy

        # the same log watched from the upload page; a bad one refused on the page
        watch = second.new_page()
        watch.goto(base + "/watch")
        watch.set_input_files("#log-file", str(log))
        watch.click("#upload")
        watch.wait_for_selector("#turn-slider", timeout=WAIT_MS)
        assert watch.inner_text("#headline") == british.inner_text("#headline")
        bad = tmp_path / "bad.jsonl"
        bad.write_text("this is not a log\n", encoding="utf-8")
        watch.set_input_files("#log-file", str(bad))
        watch.click("#upload")
        watch.wait_for_function(
            "() => document.querySelector('#report-error').textContent.includes('line 1')",
            timeout=WAIT_MS)
        assert not watch.locator("#turn-slider").count()
        browser.close()

    game = rebuilt(db)
    assert game.over
    assert [o.side for o in game.orders if o.kind == "move"] == ["british", "germans"]
    hidden = unseen_by(game, "germans")
    assert hidden, "the British should still be partly unseen"
    before_end = []
    for frame in frames:
        message = json.loads(frame)
        if message.get("status", {}).get("over"):
            break
        before_end.append(frame)
    assert before_end
    for text in [*germans_pages, *before_end]:
        named = names_in(text, hidden)
        assert not named, f"the German page names unseen British {named}"
