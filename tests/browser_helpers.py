"""Headless Chromium for the page tests: where it is, how it starts, how long a page may
take, and the mark that skips a browser test where Chromium is not installed; a game made
in the lobby from an uploaded variant, and the end of a game as its page and report show it;
and what a person does at the game page in the whole-game tests (read it, click it)."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sqlite3
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.scenario.loader import scenario_from_dict

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
        card.locator(f'select[data-seat="{css_string(seat)}"]').select_option(player)
    card.locator("input.seed").fill(str(seed))
    card.locator("button.create").click()
    card.locator(".links li a").first.wait_for(timeout=WAIT_MS)
    return {item.get_attribute("data-link"): item.locator("a").get_attribute("href")
            for item in card.locator(".links li").all()}


def css_string(text: str) -> str:
    """`text` inside a CSS string in double quotes (a seat may be "Lieutenant's group")."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


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


# -- a person at the game page: the whole-game tests ------------------------------------------
# What a person reads on the page and clicks; nothing here gives an order but a click.

#: how long a whole game may wait on the server for its turn (a bound, not a measure)
GAME_WAIT_MS = 180_000


def open_link(browser: Any, link: str) -> Any:
    """Open a seat's link (as the lobby gives it) in a new page, once it shows the seat's
    units."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(link)
    page.wait_for_selector("#units div[data-unit]", timeout=GAME_WAIT_MS)
    return page


def my_turn(page: Any) -> bool:
    """Wait until the seat is to give orders (True) or the game is over (False)."""
    page.wait_for_function(
        "() => state && state.status && (state.status.over"
        " || (state.seat && state.seat.may_act && !state.seat.done))", timeout=GAME_WAIT_MS)
    return not bool(page.evaluate("() => state.status.over"))


def fit_units(page: Any) -> list[str]:
    """The seat's units in the list, those out of the fight left out."""
    found: list[str] = page.eval_on_selector_all(
        "#units div[data-unit]:not(.out)", "(rows) => rows.map((r) => r.dataset.unit)")
    return found


def choose_unit(page: Any, unit: str) -> list[str]:
    """Pick a unit from the list; the names of its order buttons once its orders are in
    (none: the unit has no order now)."""
    page.click(f"#units div[data-unit='{unit}']")
    page.wait_for_function(
        "(unit) => { const row = document.querySelector('#units div.selected');"
        " const box = document.querySelector('#orders');"
        " return row && row.dataset.unit === unit && !box.textContent.includes('Fetching'); }",
        arg=unit, timeout=WAIT_MS)
    names: list[str] = page.eval_on_selector_all(
        "#orders .kinds button.kind", "(all) => all.map((b) => b.textContent)")
    return names


def open_form(page: Any, name: str) -> None:
    """Press the unit's order button of that name (the kind, then the form's name)."""
    page.locator("#orders .kinds button.kind", has_text=re.compile(
        rf"^{re.escape(name)}$")).first.click()
    page.wait_for_selector("#composer", timeout=WAIT_MS)


def preview_shown(page: Any, press: bool = True) -> dict[str, Any] | None:
    """Press Preview (or wait for the preview a sampled place's dot opened): what the page
    shows of the forecast (chance, risks, what it becomes), or None when the rules refuse
    the order."""
    if press:
        page.click("#compose-preview")
    page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
    if page.locator("#preview .error").count():
        return None
    found: dict[str, Any] = page.evaluate(
        "() => ({chance: (document.querySelector('#preview .forecast-chance') || {dataset: {}})"
        ".dataset.chance, risks: [...document.querySelectorAll('#preview .risk')]"
        ".map((r) => r.dataset.risk), becomes: !!document.querySelector("
        "'#preview .forecast-becomes'), text: document.querySelector("
        "'#preview .forecast-text').textContent})")
    found["chance"] = float(found["chance"]) if found["chance"] is not None else None
    return found


def commit_shown(page: Any) -> bool:
    """Commit the order previewed; whether the server took it (a message from the server
    follows an order taken; a refusal is said on the page)."""
    version = page.evaluate("() => state.version")
    page.click("#commit")
    page.wait_for_function(
        "(v) => state.version !== v || document.querySelector('#messages').textContent",
        arg=version, timeout=GAME_WAIT_MS)
    return bool(page.evaluate("(v) => state.version !== v", version))


def cancel_shown(page: Any) -> None:
    """Cancel the preview shown, if any, and clear the form."""
    for button in ("#cancel", "#compose-clear"):
        if page.locator(button).is_visible():
            page.click(button)


def screen_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where a place of the table is on the screen."""
    found = page.evaluate(
        "([x, y]) => { const svg = document.querySelector('#mapbox svg');"
        " const p = svg.createSVGPoint(); p.x = x; p.y = mapHeight - y;"
        " const s = p.matrixTransform(svg.getScreenCTM()); return [s.x, s.y]; }", [x, y])
    return found[0], found[1]


def sampled_places(page: Any) -> list[tuple[float, float]]:
    """The rules' sampled places the open form shows as dots, where they are on screen."""
    found = page.eval_on_selector_all(
        "#mapbox circle.destination", "(dots) => dots.map((d) => {"
        " const b = d.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })")
    return [(x, y) for x, y in found]


def say_done(page: Any) -> None:
    """Press Done (or End phase, or Let the mover go) and wait until the server has it."""
    version = page.evaluate("() => state.version")
    page.click("#done")
    page.wait_for_function(
        "(v) => state.version !== v || (state.seat && state.seat.done)"
        " || document.querySelector('#messages').textContent", arg=version,
        timeout=GAME_WAIT_MS)


def in_sight(page: Any) -> list[str]:
    """The enemies the list says are in sight now."""
    found: list[str] = page.eval_on_selector_all(
        "#enemies div", "(rows) => rows.filter((r) => r.textContent.includes('in sight'))"
        ".map((r) => r.textContent.split(':')[0])")
    return found


def still_mine(page: Any) -> bool:
    """Whether the seat is still to give orders (an order given may end its part)."""
    return bool(page.evaluate("() => !state.status.over && state.seat.may_act"
                              " && !state.seat.done"))


def listed_place(page: Any, unit: str) -> tuple[float, float]:
    """Where the unit list says the unit stands."""
    row = page.inner_text(f"#units div[data-unit='{unit}']")
    found = re.search(r"@ (-?[\d.]+),(-?[\d.]+)", row)
    assert found, row
    return float(found.group(1)), float(found.group(2))


def best_shot(page: Any, form: str, least: float, most: int) -> bool:
    """Open the unit's fire form, preview the order at each enemy in sight (at most `most`,
    chosen from the form's list) and commit the best chance with no risk shown, if it is
    at least `least`; whether an order was given."""
    open_form(page, form)
    targets = [value for value, text in page.eval_on_selector_all(
        "#param-target option", "(all) => all.map((o) => [o.value, o.textContent])")
        if value and "in sight" in text][:most]
    best: tuple[float, str] | None = None
    for target in targets:
        page.select_option("#param-target", target)
        shown = preview_shown(page)
        page.click("#cancel")
        if shown is None or shown["chance"] is None or shown["risks"]:
            continue
        if shown["chance"] > (best[0] if best else 0.0):
            best = (shown["chance"], target)
    if best is None or best[0] < least or best[0] <= 0:
        cancel_shown(page)
        return False
    page.select_option("#param-target", best[1])
    preview_shown(page)
    return commit_shown(page)


def nearer_move(page: Any, unit: str, goals: Sequence[tuple[float, float]], most: int,
                walk: bool = False) -> bool:
    """Open the unit's move form and click its dots (the rules' sampled places), the one
    nearest a goal first, among those nearer than the unit is now, until the rules allow
    one (at most `most` tried; with `walk`, only a move the preview says stays a move, not
    a run); commit it. Whether an order was given."""
    x, y = listed_place(page, unit)
    goal = min(goals, key=lambda g: math.dist(g, (x, y)))
    open_form(page, "move to")
    for tried in range(most):
        # where the map is on the screen now (a preview shown may have scrolled the page)
        aim, here = screen_point(page, *goal), screen_point(page, x, y)
        dots = sorted((d for d in sampled_places(page)
                       if math.dist(d, aim) < math.dist(here, aim)),
                      key=lambda d: math.dist(d, aim))
        if tried >= len(dots):
            break
        page.mouse.click(*dots[tried])  # a dot previews its order at once
        shown = preview_shown(page, press=False)
        if shown is not None and not (walk and shown["becomes"]):
            return commit_shown(page)
        page.click("#cancel")
    cancel_shown(page)
    return False


def stored_game(db: Path) -> Game:
    """The server's one game, rebuilt from its stored seed and orders."""
    with sqlite3.connect(db) as connection:
        scenario, seed = connection.execute("SELECT scenario, seed FROM games").fetchone()
        bodies = [json.loads(b) for (b,) in connection.execute(
            "SELECT body FROM orders ORDER BY n")]
    game = Game(scenario_from_dict(json.loads(scenario)), int(seed))
    for body in bodies:
        game.apply(Order.from_dict(body))
    return game


def end_shown(page: Any, game: Game) -> None:
    """The seat's page says the game is over (no phase or step after the end), with the
    stored game's winner or a draw, its reason and its points."""
    result = game.result()
    assert game.over and result is not None
    assert page.inner_text("#status") == "Game over"
    assert page.inner_text("#orders") == "The game is over."
    ending = page.inner_text("#ending")
    headline = f"{result.winner} win" if result.winner else "A draw"
    assert ending.startswith(headline), ending
    assert result.reason in ending
    # the page writes the points as JavaScript writes numbers (1, not 1.0)
    assert " · ".join(f"{s}: {v:g}" for s, v in result.scores.items()) in ending, ending


def report_shown(page: Any, game: Game, seed: int, views: list[str]) -> None:
    """The after-action report from the page's link: the typed seed, the result, the
    view switch (`views`), and a last position no later than the last turn."""
    page.click("#report-link")
    page.wait_for_selector("#turn-slider", timeout=WAIT_MS)
    assert f"seed {seed} ·" in page.inner_text(".facts")
    result = game.result()
    assert result is not None and result.reason in page.inner_text("#reason")
    assert page.eval_on_selector_all(
        "#view-switch button", "(all) => all.map((b) => b.textContent)") == views
    page.locator("#turn-slider").focus()
    page.keyboard.press("End")
    last = page.inner_text("#turn-label")
    numbered = re.match(r"Turn (\d+) ", last)
    turns = game.scenario.scenario.turns
    assert last.startswith("The end") or (numbered and int(numbered.group(1)) <= turns), last
    assert "Game over" in page.inner_text("#turn-events")


@dataclass(frozen=True)
class WholeGame:
    """A game a person plays to its end by clicking: a scenario file uploaded in the lobby
    under `name`, made there with `seats` and the seed typed, played from seat `me`'s
    link; `views` are the report's view switch."""

    name: str
    text: str
    seats: dict[str, str]
    seed: int
    me: str
    views: list[str]


def play_whole_game(tmp_path: Path, whole: WholeGame,
                    play_turn: Callable[[Any], Counter[str]]) -> Counter[str]:
    """Make the game in the lobby, play each of the seat's turns with `play_turn` until the
    game is over, then read the end box and follow the report to its last turn; what was
    given, by kind. Prints the wall and CPU time it took (the test's, the server's)."""
    import time

    from playwright import sync_api

    from server_helpers import running_server

    started, cpu = time.monotonic(), time.process_time()
    db = tmp_path / "games.sqlite3"
    given: Counter[str] = Counter()
    with running_server(db) as (server, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            lobby = browser.new_page(viewport={"width": 1400, "height": 900})
            lobby.goto(str(client.base_url).rstrip("/") + "/")
            links = lobby_game_links(lobby, whole.name, whole.text, whole.seats, whole.seed)
            lobby.close()
            print(f"game made: {time.monotonic() - started:.1f} s")
            page = open_link(browser, links[whole.me])
            playing, acting = time.monotonic(), 0.0
            while my_turn(page):
                turn = time.monotonic()
                given += play_turn(page)
                acting += time.monotonic() - turn
            waited = time.monotonic() - playing - acting
            game = stored_game(db)
            end_shown(page, game)
            report_shown(page, game, whole.seed, whole.views)
            served = cpu_seconds(server.pid)
        finally:
            browser.close()
    print(f"whole game: {time.monotonic() - started:.1f} s wall ({waited:.1f} s on the "
          f"server's turn), {time.process_time() - cpu:.1f} s CPU of the test, "
          f"{served:.1f} s of the server's; {dict(given)}")
    return given
