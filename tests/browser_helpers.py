"""Headless Chromium for the page tests: where it is, how it starts, how long a page may
take, and the mark that skips a browser test where Chromium is not installed; a game made
in the lobby from an uploaded variant, and the end of a game as its page and report show it."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
#: how long the page may take (a bound, not a measure)
WAIT_MS = 60_000

#: CI installs Chromium (tools/install-browser.sh): there a missing one is a failure
needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None and not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason="Chromium is not installed (tools/install-browser.sh)")


# -- a game made in the lobby, played to its end ----------------------------------------------

def lobby_game_links(page: Any, name: str, text: str, seats: dict[str, str],
                     seed: int) -> dict[str, str]:
    """On the lobby page: upload a scenario (a variant of a bundled one), make a game of
    it from its card with each seat as given ("human" or "computer") and the seed typed,
    and return each link the lobby shows, by seat (and "spectators")."""
    page.locator(".card").first.wait_for(timeout=WAIT_MS)
    page.set_input_files("#upload-file", files=[{
        "name": f"{name}.toml", "mimeType": "text/plain", "buffer": text.encode()}])
    page.click("#upload-send")
    card = page.locator(f".card[data-scenario='{name}']")
    card.wait_for(timeout=WAIT_MS)
    for seat, player in seats.items():
        card.locator(f"select[data-seat='{seat}']").select_option(player)
    card.locator("input.seed").fill(str(seed))
    card.locator("button.create").click()
    card.locator(".links li a").first.wait_for(timeout=WAIT_MS)
    return {item.get_attribute("data-link"): item.locator("a").get_attribute("href")
            for item in card.locator(".links li").all()}


def edited(text: str, edits: list[tuple[str, str]]) -> str:
    """A bundled scenario's text with each edit made (each old text found once)."""
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


@dataclass
class Ending:
    """What the page shows once the game is over, and the report it links to."""

    status: str  # the status line ("Game over")
    headline: str  # "british win", "A draw"
    reason: str
    scores: str
    after_action: str
    report_headline: str
    report_turns: int  # the turns the report's slider steps over
    report_after_action: str
    report_clashes: list[str]  # labels over one another on the report's map, last turn


def ending_shown(page: Any) -> Ending:
    """Wait for the end on a seat's page, read the end box, then follow its link to the
    after-action report and step its replay to the last turn."""
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".startsWith('Game over') && !document.querySelector('#ending')"
                           ".hidden", timeout=WAIT_MS)
    box = page.locator("#ending")
    parts = box.locator("div").all_inner_texts()
    shown = Ending(page.inner_text("#status"), box.locator("h2").first.inner_text(),
                   parts[0], parts[1],
                   box.locator("pre").inner_text(), "", 0, "", [])
    page.click("#report-link")
    page.wait_for_selector("#turn-slider", timeout=WAIT_MS)
    last = int(page.get_attribute("#turn-slider", "max") or 0)
    for _ in range(last):
        page.click("#turn-next")
    page.wait_for_function("(n) => document.querySelector('#turn-slider').value === String(n)",
                           arg=last, timeout=WAIT_MS)
    shown.report_headline = page.inner_text("#headline")
    shown.report_turns = last
    shown.report_after_action = page.inner_text("#after-action")
    shown.report_clashes = label_clashes(page, "#replay-map svg")
    return shown


def label_clashes(page: Any, svg: str) -> list[str]:
    """The words of every two labels shown on a map (building names, unit labels) whose
    boxes on the screen overlap by more than half a pixel each way."""
    found: list[str] = page.evaluate("""(svg) => {
      const shown = [...document.querySelectorAll(`${svg} text`)].filter((n) =>
        getComputedStyle(n).display !== 'none' && n.closest('[display=none]') === null
        && n.getBoundingClientRect().width > 0);
      const boxes = shown.map((n) => [n.textContent, n.getBoundingClientRect()]);
      const out = [];
      boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
        if (p.left + 0.5 < q.right && q.left + 0.5 < p.right && p.top + 0.5 < q.bottom
            && q.top + 0.5 < p.bottom) out.push(`${a} over ${b}`);
      }));
      return out;
    }""", svg)
    return found


def cpu_seconds(pid: int) -> float:
    """The CPU time a running process (a test's server) has used, user and system, from
    /proc (0 where there is none): what a test reports beside its wall time."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return 0.0
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
