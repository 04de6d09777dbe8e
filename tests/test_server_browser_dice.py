"""The game page's dice and events list, drawn anew only where it changed (dicelog.js):
after orders given, phases ended and the details switch turned, it shows exactly the
events of the seat's latest message, as drawing it whole would; past the events a message
carries, the oldest go from the top. In a real headless Chromium; skipped where Chromium
or Playwright is missing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from server_helpers import auth, running_server, state, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

#: the list as drawing the latest message whole gives it, beside the list shown
SHOWN_AND_WHOLE = """() => {
  const details = document.getElementById("details").checked;
  const whole = [];
  for (const e of state.events) {
    whole.push(e.text, ...e.rolls.map((r) => r.trim()));
    if (details) whole.push(...(e.details || []));
  }
  const shown = Array.from(document.getElementById("dice").children).map((n) => n.textContent);
  return [shown, whole];
}"""

#: messages made up in the page, drawn one after another into a list of its own, each
#: compared with that message drawn whole: the list grows past the 300 a message
#: carries, then an undo shrinks it
SLIDING = """() => {
  const box = document.createElement("div");
  const event = (n) => ({ text: `event ${n}`, turn: 1, rolls: n % 3 ? [] : [`roll ${n}`],
                          details: [] });
  const message = (count) => ({ event_count: count,
    events: Array.from({ length: Math.min(count, 300) },
                       (_, i) => event(count - Math.min(count, 300) + i)) });
  const bad = [];
  for (const count of [5, 9, 9, 120, 299, 300, 301, 350, 351, 500, 480, 481]) {
    const m = message(count);
    drawDiceLog(box, m, false);
    const whole = m.events.flatMap((e) => [e.text, ...e.rolls]);
    const shown = Array.from(box.children).map((n) => n.textContent);
    if (JSON.stringify(shown) !== JSON.stringify(whole)) bad.push(count);
  }
  return bad;
}"""


def same_list(page: Any) -> bool:
    shown, whole = page.evaluate(SHOWN_AND_WHOLE)
    return bool(shown == whole)


def test_the_dice_list_shows_the_latest_messages_events(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as (_, client), \
            sync_api.sync_playwright() as driver:
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/games", json={"scenario": "corner-shop", "seed": 3,
                                                "seats": {"british": "human"}}).json()
        token = made["seat_tokens"]["british"]
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.goto(f"{base}/play/{made['id']}#token={token}")
        page.wait_for_selector("#dice .event", timeout=WAIT_MS)
        chooser = random.Random(4)
        for step in range(12):
            message = wait_until(lambda: (m := state(client, made["id"], token))["seat"]
                                 ["may_act"] and m)
            legal = [o for o in message["legal"] if o["kind"] != "end"]
            if legal and step % 4 != 3:
                order = chooser.choice(legal)
                client.post(f"/api/games/{made['id']}/orders", headers=auth(token), json={
                    "kind": order["kind"], "unit": order["unit"], "params": order["params"]})
            else:
                client.post(f"/api/games/{made['id']}/done", headers=auth(token))
            current = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
            page.wait_for_function("(v) => state && state.version >= v", arg=current["version"],
                                   timeout=WAIT_MS)
            if step == 5:
                page.click("#units div")  # a unit picked: the same message drawn again
                page.check("#details")
            assert same_list(page), f"after step {step}"
        page.uncheck("#details")
        assert same_list(page)
        assert page.evaluate(SLIDING) == []
        browser.close()
