"""A readable map in a real headless Chromium: on the game page of every bundled scenario at
its start, no two labels shown (building names, section states, unit labels) overlap on the
screen and none covers a figure, the objectives are listed beside the map (who holds each,
as the seat's side knows it) and marked on it by a numbered symbol, not written over it,
and coordinate rulers run along the map's edges and follow a zoom. The placer's choice of
spots is checked on plain boxes too. One server and one browser for everything."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, FLAGS, WAIT_MS, needs_chromium
from fibua.scenario.loader import bundled_scenarios
from server_helpers import running_server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium

STATIC = Path(__file__).parent.parent / "src" / "fibua" / "server" / "static"
SEED = 3

#: every label shown and every figure's body, as screen boxes, and the labels dropped
MEASURE = """() => {
  const svg = document.querySelector('#mapbox svg');
  const box = (n) => { const r = n.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height}; };
  const shown = (n) => getComputedStyle(n).display !== 'none'
    && getComputedStyle(n).visibility !== 'hidden' && n.getBoundingClientRect().width > 0;
  const labels = [...svg.querySelectorAll('text.label')].filter(shown).map((n) =>
    ({...box(n), text: n.textContent, building: n.classList.contains('building-name')}));
  const figures = [];
  for (const g of svg.querySelectorAll('#overlay g.figure')) {
    for (const part of g.children) {
      if (part.classList.contains('label') || part.tagName === 'title') continue;
      figures.push({...box(part), text: g.dataset.id});
    }
  }
  for (const spot of svg.querySelectorAll('#overlay g.model-spots circle')) {
    figures.push({...box(spot), text: spot.parentNode.dataset.unit});
  }
  const dropped = [...svg.querySelectorAll('text.label.label-dropped')].map((n) =>
    ({text: n.textContent, building: n.classList.contains('building-name')}));
  return {labels, figures, dropped};
}"""

#: one run of the page's placing done, over the drawn troops
PLACED = ("() => document.querySelector('#overlay g.figure') !== null"
          " && document.querySelector('#mapbox svg g.label-extras') !== null")


def meet(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    """Whether two screen boxes overlap by more than `slack` pixels each way."""
    return (a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"]
            and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"])


def clashes(found: dict[str, Any]) -> list[str]:
    labels, figures = found["labels"], found["figures"]
    out = [f"{a['text']!r} over {b['text']!r}" for i, a in enumerate(labels)
           for b in labels[i + 1:] if meet(a, b)]
    out += [f"{a['text']!r} over figure {f['text']!r}" for a in labels for f in figures
            if meet(a, f)]
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    db = tmp_path_factory.mktemp("labels") / "games.sqlite3"
    with running_server(db) as (_, client), sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield client, browser
        finally:
            browser.close()


def first_seat(client: Any, name: str) -> str:
    scenario = next(s for s in client.get("/api/scenarios").json() if s["name"] == name)
    seat: str = scenario["seats"][0]["name"]
    return seat


def open_game(client: Any, page: Any, name: str) -> dict[str, Any]:
    seat = first_seat(client, name)
    answer = client.post("/api/games", json={"scenario": name, "seed": SEED,
                                             "seats": {seat: "human"}})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    base = str(client.base_url).rstrip("/")
    page.goto(f"{base}/play/{made['id']}#token={made['seat_tokens'][seat]}")
    page.wait_for_function(PLACED, timeout=WAIT_MS)
    return made


def test_no_label_covers_another_or_a_figure_in_any_scenario(site: tuple[Any, Any]) -> None:
    client, browser = site
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems: dict[str, list[str]] = {}
    for name in sorted(bundled_scenarios()):
        open_game(client, page, name)
        found = page.evaluate(MEASURE)
        assert found["labels"] and found["figures"], name
        if clash := clashes(found):
            problems[name] = clash
        # every building keeps its name in view (only a unit's label may have to give way)
        assert not [d for d in found["dropped"] if d["building"]], (name, found["dropped"])
    assert not problems, problems
    assert not errors, errors
    page.close()


def test_objectives_are_listed_beside_the_map_and_marked_on_it(site: tuple[Any, Any]) -> None:
    """The corner shop: the British see Lindner upstairs in the shop, so the German side
    holds it as far as they know; the map carries only a numbered symbol."""
    client, browser = site
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_game(client, page, "corner-shop")
    first = page.locator("#objectives .objective").first
    assert first.get_attribute("data-key") == "1"
    assert "Epicerie Lemoine" in first.inner_text()
    assert "held by germans (in sight)" in first.inner_text()
    assert "british hold: 3 pts" in first.inner_text()
    texts = page.eval_on_selector_all("#mapbox svg text", "ns => ns.map(n => n.textContent)")
    assert not [t for t in texts if "hold (" in t]  # no objective words over the map
    # a symbol on each of the objective's two sections, the shop and its store
    marks = page.locator("#mapbox svg g.objective-mark[data-key='1'] title")
    assert marks.all_text_contents() == ["british hold (3); germans hold (3)"] * 2
    page.close()


def test_rulers_tell_the_table_s_coordinates_and_follow_a_zoom(site: tuple[Any, Any]) -> None:
    client, browser = site
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_game(client, page, "corner-shop")  # a table 40 by 40 inches
    across = page.locator("#ruler-x .tick").all_inner_texts()
    assert across[0] == "0" and across[-1] == "40"
    assert page.locator("#ruler-y .tick").all_inner_texts()[-1] == "40"
    assert page.inner_text("#ruler-unit") == "inch"
    box = page.locator("#mapbox svg").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(8):
        page.mouse.wheel(0, -100)  # zoom in on the middle
    page.wait_for_function(
        "() => !document.querySelector('#ruler-x').textContent.startsWith('0')",
        timeout=WAIT_MS)
    ticks = [float(t) for t in page.locator("#ruler-x .tick").all_inner_texts()]
    assert ticks[0] > 0 and ticks[-1] < 40 and len(ticks) >= 2
    page.close()


# -- the placer's choices on plain boxes -----------------------------------------------------

CHOOSE = """([items, obstacles, bounds]) => {
  const made = items.map((it) => ({priority: it.priority,
                                   candidates: candidateBoxes(it.drawn, it.anchor)}));
  const chosen = chooseSpots(made, obstacles, bounds, 0);
  return chosen.map((c, i) => c < 0 ? null : made[i].candidates[c]);
}"""


def choose(browser: Any, items: list[dict[str, Any]], obstacles: list[dict[str, float]],
           bounds: dict[str, float]) -> list[dict[str, float] | None]:
    """Each label's box where the placer puts it (None: dropped)."""
    page = browser.new_page()
    page.add_script_tag(path=str(STATIC / "labels.js"))
    chosen: list[dict[str, float] | None] = page.evaluate(CHOOSE, [items, obstacles, bounds])
    page.close()
    return chosen


def box(x: float, y: float, w: float, h: float) -> dict[str, float]:
    return {"x": x, "y": y, "w": w, "h": h}


BOUNDS = box(0, 0, 100, 100)


def test_the_higher_priority_keeps_its_place_and_the_other_moves(site: tuple[Any, Any]) -> None:
    _, browser = site
    unit = {"priority": 30, "drawn": box(50, 50, 10, 2), "anchor": box(47, 50, 2, 2)}
    building = {"priority": 10, "drawn": box(48, 50, 14, 2), "anchor": box(55, 51, 0, 0)}
    for given in ([building, unit], [unit, building]):
        placed = choose(browser, given, [], BOUNDS)
        at = dict(zip(("building", "unit") if given[0] is building else ("unit", "building"),
                      placed, strict=True))
        assert at["unit"] == unit["drawn"]  # as drawn
        moved = at["building"]
        assert moved is not None and moved != building["drawn"]
        # round a point (a building's middle) the name goes up first, and stays centred
        assert moved["y"] + moved["h"] <= 50 and moved["x"] == 48


def test_a_label_avoids_figures_and_the_table_edge_or_is_dropped(site: tuple[Any, Any]) -> None:
    _, browser = site
    label = {"priority": 25, "drawn": box(92, 50, 10, 2), "anchor": box(89, 50, 2, 2)}
    # off the right edge as drawn: it goes to the left of its figure, level with it
    [placed] = choose(browser, [label], [], BOUNDS)
    assert placed is not None and placed["x"] + placed["w"] <= 89 and placed["y"] == 50
    # with figures all round it, nothing fits: the label is dropped
    wall = [box(0, 0, 100, 49), box(0, 53, 100, 47), box(0, 49, 88, 4)]
    assert choose(browser, [label], wall, BOUNDS) == [None]
    # two labels of one spot: the second goes elsewhere, and neither overlaps the other
    twin = {**label, "drawn": box(20, 50, 10, 2), "anchor": box(17, 50, 2, 2)}
    a, b = choose(browser, [twin, twin], [], BOUNDS)
    assert a == twin["drawn"] and b is not None and b != a
    assert not (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
                and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])
