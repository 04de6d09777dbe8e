"""Counters that would cover one another are spread apart (static/spread.js), in a real
headless Chromium: on the game page of every bundled scenario at its start, for each seat,
no two counters (frame, strength tab and badges, as printed) overlap on the screen, a click
on the middle of each counter's frame picks that counter and no other, and each counter
moved off its unit's spot has a leader line from that spot (the unit's place in the view
the page was sent). The spreading's choices are checked on plain boxes too. One server and one
browser for everything."""

from __future__ import annotations

from collections.abc import Iterator
from math import hypot
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.scenario.loader import bundled_scenarios
from server_helpers import running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

STATIC = Path(__file__).parent.parent / "src" / "fibua" / "server" / "static"
SEED = 3

#: each counter as printed (its screen box), whether a click on its frame's middle lands
#: on it, and where it stands and is drawn (map units); each leader's two ends
MEASURE = """() => {
  const svg = document.querySelector('#mapbox svg');
  const counters = [...svg.querySelectorAll('#overlay g.counter')].map((g) => {
    const parts = [...g.querySelectorAll(
      ':scope > g.counter-body > .frame, :scope > g.counter-body > .strength-tab,'
      + ' :scope > g.counter-body > .badge')].map((n) => n.getBoundingClientRect());
    const x = Math.min(...parts.map((r) => r.left)), y = Math.min(...parts.map((r) => r.top));
    const frame = g.querySelector('.frame').getBoundingClientRect();
    const hit = document.elementFromPoint(frame.left + frame.width / 2,
                                          frame.top + frame.height / 2);
    const moved = (g.dataset.spread || '0 0').split(' ').map(Number);
    return {id: g.dataset.id, enemy: g.classList.contains('enemy'), x, y,
      w: Math.max(...parts.map((r) => r.right)) - x, h: Math.max(...parts.map((r) => r.bottom)) - y,
      clicked: hit !== null && hit.closest('.figure') === g,
      spot: [Number(g.dataset.cx), mapHeight - Number(g.dataset.cy)], moved};
  });
  const leaders = [...svg.querySelectorAll('g.counter-leader')].map((g) => ({
    unit: g.dataset.unit, dot: [Number(g.querySelector('circle').getAttribute('cx')),
      mapHeight - Number(g.querySelector('circle').getAttribute('cy'))]}));
  const view = state.view;
  const where = Object.fromEntries([...view.own, ...view.enemies]
    .filter((u) => typeof u.x === 'number' && typeof u.y === 'number')
    .map((u) => [u.id, [u.x, u.y]]));
  return {counters, leaders, where};
}"""

PLACED = ("() => document.querySelector('#overlay g.figure') !== null"
          " && document.querySelector('#mapbox svg g.label-extras') !== null")


def meet(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    """Whether two screen boxes overlap by more than `slack` pixels each way."""
    return (a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"]
            and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    db = tmp_path_factory.mktemp("spread") / "games.sqlite3"
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield client, browser
        finally:
            browser.close()


def seats_of(client: Any) -> list[tuple[str, str]]:
    return [(s["name"], seat["name"]) for s in client.get("/api/scenarios").json()
            if s["name"] in bundled_scenarios() for seat in s["seats"]]


def problems_of(found: dict[str, Any]) -> list[str]:
    counters, where = found["counters"], found["where"]
    out = [f"{a['id']} over {b['id']}" for i, a in enumerate(counters)
           for b in counters[i + 1:] if meet(a, b)]
    out += [f"a click on {c['id']} picks another" for c in counters if not c["clicked"]]
    dots = {d["unit"]: d["dot"] for d in found["leaders"]}
    for c in counters:
        x, y = where[c["id"]]
        if hypot(c["spot"][0] - x, c["spot"][1] - y) > 1e-6:
            out.append(f"{c['id']} is not anchored on its unit's place")
        if c["moved"] != [0, 0] and (c["id"] not in dots or hypot(
                dots[c["id"]][0] - x, dots[c["id"]][1] - y) > 1e-6):
            out.append(f"{c['id']} was moved with no leader from its place")
    return out


def test_no_counter_covers_another_in_any_scenario_for_any_seat(site: tuple[Any, Any]) -> None:
    client, browser = site
    base = str(client.base_url).rstrip("/")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems: dict[str, list[str]] = {}
    spread = 0
    for name, seat in seats_of(client):
        made = client.post("/api/games", json={"scenario": name, "seed": SEED,
                                               "seats": {seat: "human"}}).json()
        page.goto(f"{base}/play/{made['id']}#token={made['seat_tokens'][seat]}")
        page.wait_for_function(PLACED, timeout=WAIT_MS)
        found = page.evaluate(MEASURE)
        assert found["counters"], (name, seat)
        spread += sum(c["moved"] != [0, 0] for c in found["counters"])
        if clash := problems_of(found):
            problems[f"{name} ({seat})"] = clash
    assert not problems, problems
    assert spread >= 5  # the bundled scenarios do crowd counters: the check checks something
    assert not errors, errors
    page.close()


# -- the spreading's choices on plain boxes ---------------------------------------------------

SPREAD = """([items, bounds, pad]) => spreadSpots(items, bounds, pad)"""


def spread(browser: Any, items: list[dict[str, Any]],
           bounds: dict[str, float] | None = None) -> list[dict[str, float]]:
    page = browser.new_page()
    page.add_script_tag(path=str(STATIC / "spread.js"))
    found: list[dict[str, float]] = page.evaluate(SPREAD, [items, bounds, 0])
    page.close()
    return found


def counter(x: float, y: float, key: str, rank: int = 0) -> dict[str, Any]:
    """A counter 10 wide and 8 high about its centre."""
    return {"x": x, "y": y, "box": {"x": -5, "y": -4, "w": 10, "h": 8}, "rank": rank, "key": key}


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return abs(a["x"] - b["x"]) >= 10 - 1e-9 or abs(a["y"] - b["y"]) >= 8 - 1e-9


def test_a_lone_counter_stays_and_one_of_two_that_meet_moves_the_least(
        site: tuple[Any, Any]) -> None:
    _, browser = site
    lone, a, b = counter(100, 100, "lone"), counter(20, 20, "a"), counter(23, 21, "b")
    found = spread(browser, [b, lone, a])
    assert found[1] == {"x": 100, "y": 100}
    assert found[2] == {"x": 20, "y": 20}  # of two alike, the first by id keeps its place
    assert apart(found[0], found[2])
    # no nearer place clear of `a`: straight down by the box's height less the overlap
    assert hypot(found[0]["x"] - 23, found[0]["y"] - 21) <= 7 + 1.6 + 1e-9
    # the same troops drawn in another order are spread the same way
    assert spread(browser, [a, lone, b]) == [found[2], found[1], found[0]]


def test_a_rider_gives_way_to_its_vehicle_and_a_crowd_all_comes_apart(
        site: tuple[Any, Any]) -> None:
    _, browser = site
    vehicle, rider = counter(50, 50, "z-vehicle"), counter(50, 50, "a-rider", rank=1)
    found = spread(browser, [rider, vehicle])
    assert found[1] == {"x": 50, "y": 50} and apart(found[0], found[1])
    crowd = [counter(50 + i * 0.5, 50, f"u{i}") for i in range(9)]
    bounds = {"x": 0, "y": 0, "w": 100, "h": 100}
    found = spread(browser, crowd, bounds)
    assert all(apart(p, q) for i, p in enumerate(found) for q in found[i + 1:])
    assert all(5 <= p["x"] <= 95 and 4 <= p["y"] <= 96 for p in found)  # inside the bounds
