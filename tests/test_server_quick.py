"""Quick battles in the lobby (server/quick.py, static/quick.js): a rule set and a seed
make a scenario kept with the uploaded ones, offered in the scenario list, with its map,
and games are made from it as from any other; a bad request is refused with why; and the
lobby page makes one by clicking (headless Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.quick.battle import ARMIES, quick_battle
from server_helpers import client_on, running_server


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


def test_the_rule_sets_offered_are_the_quick_battles(client: TestClient) -> None:
    assert client.get("/api/quick").json() == {"rulesets": sorted(ARMIES)}


def test_a_quick_battle_is_listed_drawn_and_played(client: TestClient) -> None:
    made = client.post("/api/quick", json={"ruleset": "street-fight", "seed": 5})
    assert made.status_code == 201, made.text
    entry = made.json()
    name = "quick-street-fight-5"
    assert entry["name"] == name and entry["seed"] == 5 and entry["uploaded"]
    assert entry["title"] == quick_battle("street-fight", 5).scenario.scenario.title
    assert any("points" in line for line in entry["summary"])
    listed = {s["name"]: s for s in client.get("/api/scenarios").json()}
    assert listed[name]["seats"] == entry["seats"]
    drawn = client.get(f"/api/scenarios/{name}/map.svg")
    assert drawn.status_code == 200 and drawn.text.lstrip().startswith("<svg")
    game = client.post("/api/games", json={"scenario": name, "seed": 2})
    assert game.status_code == 201, game.text
    again = client.post("/api/quick", json={"ruleset": "street-fight", "seed": 5})
    assert again.json() == entry  # the same seed, the same battle, kept once
    assert sum(1 for s in client.get("/api/scenarios").json() if s["name"] == name) == 1


def test_no_seed_draws_one(client: TestClient) -> None:
    made = client.post("/api/quick", json={"ruleset": "buildings"})
    assert made.status_code == 201, made.text
    seed = made.json()["seed"]
    assert made.json()["name"] == f"quick-buildings-{seed}"


@pytest.mark.parametrize(("body", "code"), [
    ({"ruleset": "chess", "seed": 1}, "unknown-ruleset"),
    ({"ruleset": "buildings", "seed": -1}, "bad-request"),
    ({"ruleset": "buildings", "seed": "1"}, "bad-request"),
    ({"ruleset": "buildings", "colour": "red"}, "bad-request"),
])
def test_a_bad_request_is_refused_with_why(client: TestClient, body: dict[str, object],
                                          code: str) -> None:
    answer = client.post("/api/quick", json=body)
    assert answer.status_code == 422 and answer.json()["error"] == code, answer.text


@needs_chromium
def test_the_lobby_makes_a_quick_battle_by_clicking(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with running_server(tmp_path / "games.sqlite3") as (_, server), \
            sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            page.goto(str(server.base_url).rstrip("/") + "/")
            page.wait_for_selector("#quick-ruleset option[value=house-clearing]",
                                   state="attached", timeout=WAIT_MS)
            page.select_option("#quick-ruleset", "house-clearing")
            page.fill("#quick-seed", "8")
            page.click("#quick-send")
            card = page.locator(".card[data-scenario=quick-house-clearing-8]")
            card.wait_for(timeout=WAIT_MS)
            assert "seed 8" in page.inner_text("#quick-result")
            assert page.locator("#quick-summary li").count() >= 3
            assert card.locator("button.create").count() == 1
        finally:
            browser.close()
