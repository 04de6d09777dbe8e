"""Turn flow in a real headless Chromium (Playwright): the game page's title says when the
seat's turn comes, a box sums up in plain words what its side was told since its last
orders (counted as the test counts the side's own log), the slider shows its side's view
at an earlier position (a unit where it stood before it moved) and "back to now" returns;
once a game is over the report's turn slider and view switch draw each side's view or
Control's. Skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from server_helpers import running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

YOUR_ORDERS = "▶ Your orders · fibua"
#: turns the seat waits for the Germans to fire at it (at seed 3 they do in the second)
MAX_CYCLES = 6
#: kinds that tell a troop was hit or lost (the field naming it), as the page counts them
LOSS_KINDS = {"casualty": "figure", "out-of-action": "figure", "casualties": "unit",
              "unit-lost": "unit", "destroyed": "unit"}
ENEMY_LOSS_KINDS = {"enemy-hit": "figure", "enemy-out": "unit"}


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def created(client: httpx.Client, scenario: str, seed: int,
            seats: dict[str, str]) -> dict[str, Any]:
    answer = client.post("/api/games", json={"scenario": scenario, "seed": seed,
                                             "seats": seats})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def counted(events: list[dict[str, Any]], own: set[str]) -> dict[str, int]:
    """What the summary should say of these events (read from their data, where the page
    reads the details line it is sent)."""
    fire, hit, enemy_hit, sighted = 0, set(), set(), set()
    for event in events:
        kind, data = event["kind"], event["data"]
        firer = data.get("firer", data.get("unit") if kind == "fire" else None)
        if kind == "fired-on" or (kind in ("shot", "fire") and data.get("target") in own
                                  and firer not in own) or (
                kind == "shot-at" and data.get("unit") in own):
            fire += 1
        lost = data.get(LOSS_KINDS.get(kind, ""))
        if lost is not None:
            (hit if lost in own else enemy_hit).add(lost)
        if kind in ENEMY_LOSS_KINDS:
            enemy_hit.add(data[ENEMY_LOSS_KINDS[kind]])
        if kind in ("enemy-seen", "enemy-glimpsed"):
            seen = data.get("figure", data.get("unit"))
            if seen is not None:
                sighted.add(seen)
    return {"fire": fire, "hit": len(hit), "enemyHit": len(enemy_hit),
            "sighted": len(sighted)}


def own_places(page: Any) -> dict[str, tuple[str, str]]:
    """Where the page draws each of the seat's troops (its counter's place on the table)."""
    found: dict[str, tuple[str, str]] = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#mapbox g.figure.own')].map((g) =>
          [g.dataset.id, g.dataset.at.split(',')]))""")
    return {k: (v[0], v[1]) for k, v in found.items()}


def move_one(page: Any) -> None:
    """Select the first unit with a move, put it on one of its marked places, commit."""
    for row in page.locator("#units div").all():
        row.click()
        kind = page.locator("#orders button.kind[data-kind=move][data-form=to]")
        if kind.count():
            kind.click()
            page.locator("circle.destination").nth(2).dispatch_event("click")
            page.wait_for_selector("#commit", timeout=WAIT_MS)
            page.click("#commit")
            return
    pytest.fail("no unit of the seat could move")


def title_is(page: Any, text: str) -> None:
    page.wait_for_function("(t) => document.title === t", arg=text, timeout=WAIT_MS)


def mark_of(page: Any, game_id: str) -> str | None:
    """The event count the page keeps for when the seat's last turn ended."""
    found: str | None = page.evaluate(
        "(key) => localStorage.getItem(key)", f"fibua-last-orders-{game_id}-british")
    return found


def next_turn(page: Any, client: httpx.Client, game_id: str, token: str) -> dict[str, int]:
    """Press Done, wait until the seat's turn comes again, and check the box counts what
    the side's own log holds since the turn ended; returns those counts."""
    before = mark_of(page, game_id)
    page.click("#done")
    page.wait_for_function(
        """([key, before, title]) => localStorage.getItem(key) !== before
             && !document.querySelector('#since').hidden && document.title === title""",
        arg=[f"fibua-last-orders-{game_id}-british", before, YOUR_ORDERS], timeout=WAIT_MS)
    mark = int(mark_of(page, game_id) or "")
    side_log = [json.loads(line) for line in client.get(
        f"/api/games/{game_id}/log.jsonl", headers=auth(token)).text.splitlines()]
    events = [e for e in side_log if e["type"] == "event"]
    message = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    assert message["event_count"] == len(events) > mark
    own = {str(u["id"]): u["name"] for u in message["view"]["own"]}
    expected = counted(events[mark:], set(own))
    shown = page.evaluate("() => ({...document.querySelector('#since').dataset})")
    assert {k: int(v) for k, v in shown.items()} == expected
    return expected


def test_the_seat_is_told_its_turn_what_it_missed_and_can_look_back(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        made = created(client, "corner-shop", 3, {"british": "human", "germans": "computer"})
        token = made["seat_tokens"]["british"]
        base = str(client.base_url).rstrip("/")
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base}/play/{made['id']}#token={token}")
        title_is(page, YOUR_ORDERS)
        page.wait_for_selector("#units div", timeout=WAIT_MS)
        assert not page.is_checked("#turn-sound")  # off unless asked
        page.check("#turn-sound")
        assert page.evaluate("() => localStorage.getItem('fibua-turn-sound')") == "on"
        before = own_places(page)
        move_one(page)
        page.wait_for_function(
            "() => / (moves|runs) \\d/.test(document.querySelector('#dice').textContent)",
            timeout=WAIT_MS)
        after = own_places(page)
        moved = [uid for uid in before if before[uid] != after[uid]]
        assert len(moved) == 1
        cycles, expected = 0, {"fire": 0, "sighted": 0}
        while not expected["fire"] and cycles < MAX_CYCLES:
            expected = next_turn(page, client, made["id"], token)
            cycles += 1
        assert expected["fire"], "the Germans never fired at the British"
        assert page.evaluate("() => document.body.dataset.beeps") == str(cycles)
        text = page.inner_text("#since-text")
        assert text.startswith("Since your last orders: the Germans fired ")

        # looking back to the set-up: the unit stands where it stood, and no orders
        page.locator("#history-slider").fill("0")
        unit = moved[0]
        page.wait_for_function(
            """([id, x]) => { const g = document.querySelector(
                 `#mapbox g.figure.own[data-id="${id}"]`);
               return g !== null && g.dataset.at.split(',')[0] === x; }""",
            arg=[unit, before[unit][0]], timeout=WAIT_MS)
        assert page.locator("#mapbox.past").count() == 1
        assert page.locator("#done").count() == 0
        assert "no orders" in page.inner_text("#orders")
        assert "Looking back" in page.inner_text("#history-label")
        page.click("#history-now")
        page.wait_for_function(
            """([id, x]) => { const g = document.querySelector(
                 `#mapbox g.figure.own[data-id="${id}"]`);
               return g !== null && g.dataset.at.split(',')[0] === x; }""",
            arg=[unit, after[unit][0]], timeout=WAIT_MS)
        page.wait_for_selector("#done", timeout=WAIT_MS)
        assert page.locator("#mapbox.past").count() == 0
        title_is(page, YOUR_ORDERS)
        browser.close()
    assert not errors


def drawn(page: Any) -> list[tuple[str, str]]:
    """The figures the report's map draws: (id, side)."""
    found: list[list[str]] = page.evaluate("""() => [...document.querySelectorAll(
        '#figures g')].map((g) => [g.dataset.id, g.dataset.side])""")
    return sorted((a, b) for a, b in found)


def test_the_report_shows_each_turn_as_each_side_or_control_saw_it(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        made = created(client, "normandy-village", 5, {})
        token = made["spectator_token"]
        for _ in range(WAIT_MS // 100):
            entry = next(g for g in client.get("/api/games").json() if g["id"] == made["id"])
            if entry["result"] is not None:
                break
            driver_wait(0.1)
        report = client.get(f"/api/games/{made['id']}/report", headers=auth(token)).json()
        base = str(client.base_url).rstrip("/")
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{base}/report/{made['id']}#token={token}")
        page.wait_for_selector("#view-switch button", timeout=WAIT_MS)
        views = page.evaluate("() => [...document.querySelectorAll('#view-switch button')]"
                              ".map((b) => b.dataset.view)")
        assert views == ["control", "british", "germans"]
        index = len(report["turns"]) // 2
        turn = report["turns"][index]
        page.locator("#turn-slider").fill(str(index))
        page.wait_for_function("(t) => document.querySelector('#turn-label').textContent"
                               ".startsWith(`Turn ${t} `)", arg=turn["turn"], timeout=WAIT_MS)
        placed = [(f["id"], side) for side, figures in turn["standing"].items()
                  for f in figures if f["x"] is not None]
        assert drawn(page) == sorted(placed)
        fewer = False
        for side in ("british", "germans"):
            page.click(f"#view-switch button[data-view={side}]")
            enemy = "germans" if side == "british" else "british"
            own = [(f["id"], side) for f in turn["standing"][side] if f["x"] is not None]
            seen = [(f["id"], enemy) for f in turn["seen"][side] if f["x"] is not None]
            assert drawn(page) == sorted(own + seen)
            fewer |= len(seen) < len([f for f in turn["standing"][enemy] if f["x"] is not None])
            told = [e for e in turn["events"] if side in e["sides"]]
            assert page.locator("#turn-events .event").count() == len(told)
        page.click("#view-switch button[data-view=control]")
        assert drawn(page) == sorted(placed)
        assert page.locator("#turn-events .event").count() == len(turn["events"])
        browser.close()
    assert fewer, "each side saw every enemy: the switch shows nothing Control does not"


def driver_wait(seconds: float) -> None:
    import time
    time.sleep(seconds)  # a polling interval, not a measure
