"""How a broken scenario is reported: every problem in one run, every place on the table,
and a file that cannot be read said plainly (through `fibua validate` too)."""

from __future__ import annotations

import copy
import math
import tomllib
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fibua.cli import main as cli
from fibua.core.errors import ScenarioError
from fibua.scenario.loader import bundled_scenarios, load_scenario, scenario_from_dict

SOURCE = "broken.toml"


def raw_of(name: str) -> dict[str, Any]:
    text = bundled_scenarios()[name].read_text(encoding="utf-8")
    return copy.deepcopy(tomllib.loads(text))


def problems(raw: dict[str, Any]) -> dict[str, str]:
    """Each problem's message by its path (one problem a place in these tests)."""
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, SOURCE)
    found = caught.value.problems
    assert all(p.source == SOURCE and p.path and p.message for p in found), found
    assert len({p.path for p in found}) == len(found), found
    return {p.path: p.message for p in found}


def sf_figure(raw: dict[str, Any], side: int, unit: int, figure: int) -> dict[str, Any]:
    found: dict[str, Any] = raw["sides"][side]["forces"]["units"][unit]["figures"][figure]
    return found


# -- every problem at once ------------------------------------------------------------------


def test_one_fault_of_each_kind_is_reported_in_one_run() -> None:
    raw = raw_of("corner-shop")
    raw["scenario"]["turns"] = 0  # the common schema
    raw["map"]["obstacles"][0]["points"][0] = [60, 5]  # off the 40 x 40 table
    sf_figure(raw, 0, 0, 0)["weapon"] = "bazooka"  # a side's forces
    sf_figure(raw, 0, 0, 1)["at"] = [70, 5]  # a place, beside the bad weapon
    sf_figure(raw, 0, 1, 0)["floor"] = 1  # upstairs outside every building
    sf_figure(raw, 1, 0, 1)["floor"] = 7  # above the top floor of its section
    raw["options"]["morale"] = "often"  # the options
    found = problems(raw)
    assert set(found) == {
        "scenario.turns",
        "map.obstacles[0].points[0]",
        "sides[0].forces.units[0].figures[0].weapon",
        "sides[0].forces.units[0].figures[1].at",
        "sides[0].forces.units[1].figures[0].floor",
        "sides[1].forces.units[0].figures[1].floor",
        "options.morale",
    }
    assert "off the 40 x 40 table" in found["sides[0].forces.units[0].figures[1].at"]
    assert "floors 0..0" in found["sides[1].forces.units[0].figures[1].floor"]


def test_places_are_checked_against_the_buildings_that_read() -> None:
    """A building that does not read hides what stands in it; the others still tell."""
    raw = raw_of("corner-shop")
    buildings = raw["map"]["buildings"]
    broken = buildings[0]["sections"][0]
    broken["floors"] = "two"
    xs = [x for x, _ in broken["footprint"]]
    ys = [y for _, y in broken["footprint"]]
    inside = [(min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2]
    sf_figure(raw, 0, 0, 0).update(at=inside, floor=1)  # may be right: not reported
    sf_figure(raw, 0, 0, 1)["floor"] = 1  # in the open, upstairs: reported
    found = problems(raw)
    assert set(found) == {"map.buildings[0].sections[0].floors",
                          "sides[0].forces.units[0].figures[1].floor"}


def test_ids_and_places_are_still_checked_when_the_map_does_not_read() -> None:
    raw = raw_of("corner-shop")
    del raw["map"]["width"]
    sf_figure(raw, 1, 0, 0)["id"] = sf_figure(raw, 0, 0, 0)["id"]
    sf_figure(raw, 1, 0, 1)["at"] = [math.nan, 3.0]
    found = problems(raw)
    assert set(found) == {"map.width", "sides[1].forces.units[0].figures[0].id",
                          "sides[1].forces.units[0].figures[1].at"}
    assert "finite" in found["sides[1].forces.units[0].figures[1].at"]


def test_street_fighter_checks_the_rest_of_a_formation() -> None:
    raw = raw_of("normandy-village")
    units = raw["sides"][1]["forces"]["formations"][0]["units"]
    units[1]["kind"] = "battleship"
    units[2]["at"] = [500, 64]
    found = problems(raw)
    assert set(found) == {"sides[1].forces.formations[0].units[1].kind",
                          "sides[1].forces.formations[0].units[2]"}
    assert "off the 120 x 100 table" in found["sides[1].forces.formations[0].units[2]"]


def test_a_reference_to_what_did_not_read_waits_for_it() -> None:
    """A passenger of a vehicle whose own entry is broken is not called homeless."""
    raw = raw_of("normandy-village")
    units = raw["sides"][1]["forces"]["formations"][0]["units"]
    units.append({"id": "wagen", "name": "Wagen", "kind": "flying-carpet", "at": [60, 90]})
    units[1] = {"id": units[1]["id"], "name": units[1]["name"], "kind": units[1]["kind"],
                "rides": "wagen"}
    assert set(problems(raw)) == {f"sides[1].forces.formations[0].units[{len(units) - 1}].kind"}


def test_house_clearing_reports_forces_and_places_together() -> None:
    raw = raw_of("ramp-houses")
    figures = raw["sides"][0]["forces"]["players"][0]["figures"]
    figures[0]["weapon"] = "trebuchet"
    figures[2]["at"] = [-1e308, 5]
    raw["map"]["terrain"][0]["polygon"][0] = [1e20, 0]
    found = problems(raw)
    assert set(found) == {"sides[0].forces.players[0].figures[0].weapon",
                          "sides[0].forces.players[0].figures[2].at",
                          "map.terrain[0].polygon[0]"}


# -- every place on the table, every size sane -----------------------------------------------

HUGE = (1e20, -1e308, math.nan, math.inf, -math.inf, 60.0)


def _first(raw: dict[str, Any], key: str) -> dict[str, Any]:
    item: dict[str, Any] = raw["map"][key][0]
    return item


PLACES = {
    "terrain": (lambda raw, v: _first(raw, "terrain")["polygon"].__setitem__(0, [v, 0]),
                "map.terrain[0].polygon[0]"),
    "obstacle": (lambda raw, v: _first(raw, "obstacles")["points"].__setitem__(0, [v, 5]),
                 "map.obstacles[0].points[0]"),
    "footprint": (lambda raw, v: _first(raw, "buildings")["sections"][0]["footprint"]
                  .__setitem__(0, [v, 5]),
                  "map.buildings[0].sections[0].footprint[0]"),
    "opening": (lambda raw, v: _first(raw, "buildings")["sections"][0]["openings"][0]
                .__setitem__("at", v),
                "map.buildings[0].sections[0].openings[0].at"),
    "deployment": (lambda raw, v: raw["sides"][0]["deployment"].__setitem__(0, [v, 0]),
                   "sides[0].deployment[0]"),
    "objective": (lambda raw, v: raw["victory"].append(
        {"side": raw["sides"][0]["name"], "kind": "reach", "zone": [[0, 0], [v, 0], [5, 5]]}),
        None),
    "figure": (lambda raw, v: sf_figure(raw, 0, 0, 0).__setitem__("at", [5, v]),
               "sides[0].forces.units[0].figures[0].at"),
    "width": (lambda raw, v: raw["map"].__setitem__("width", v * 1e6), "map.width"),
}


@pytest.mark.parametrize("value", HUGE, ids=repr)
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_point_off_the_table_or_not_finite_is_refused(place: str, value: float) -> None:
    raw = raw_of("corner-shop")
    edit, path = PLACES[place]
    edit(raw, value)
    if path is None:
        path = f"victory[{len(raw['victory']) - 1}].zone[1]"
    tracemalloc.start()
    try:
        found = problems(raw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20  # nothing sized by the huge value
    reported = [p for p in found if p == path or p.startswith((f"{path}.", f"{path}["))]
    assert reported, found
    message = found[reported[0]]
    assert any(word in message for word in ("off the", "finite", "longer than",
                                            "does not fit", "greater than")), message


def test_a_table_of_the_largest_size_loads() -> None:
    raw = raw_of("corner-shop")
    raw["map"].update(width=120, height=120)
    assert scenario_from_dict(raw, SOURCE).battlefield.table.width == 120
    raw["map"]["width"] = 121
    assert "longer than the format allows (120 inch)" in problems(raw)["map.width"]


@pytest.mark.parametrize(
    ("edit", "path", "says"),
    [
        (lambda m: _first(m, "obstacles").__setitem__("height", 50), "map.obstacles[0].height",
         "higher than the format allows"),
        (lambda m: _first(m, "obstacles")["points"].insert(1, _first(m, "obstacles")["points"][0]),
         "map.obstacles[0].points[1]", "repeats the point before it"),
        (lambda m: _first(m, "buildings")["sections"][0].__setitem__(
            "footprint", _first(m, "buildings")["sections"][0]["footprint"][::-1]),
         "map.buildings[0].sections[0].footprint", "anticlockwise"),
        (lambda m: _first(m, "terrain").__setitem__(
            "polygon", [[0, 0], [10, 10], [10, 0], [0, 10]]),
         "map.terrain[0].polygon", "crosses itself"),
        (lambda m: _first(m, "terrain").__setitem__("polygon", [[0, 0], [5, 5], [10, 10]]),
         "map.terrain[0].polygon", "no area"),
        (lambda m: _first(m, "terrain")["polygon"].append(_first(m, "terrain")["polygon"][0]),
         None, "closes by itself"),
    ],
)
def test_malformed_shapes_are_refused(edit: Any, path: str | None, says: str) -> None:
    raw = raw_of("corner-shop")
    edit(raw)
    found = problems(raw)
    if path is None:
        path = f"map.terrain[0].polygon[{len(raw['map']['terrain'][0]['polygon']) - 1}]"
    assert path in found and says in found[path]
    # the footprint turned round also moves its doors, so a connection may lose its door
    assert set(found) <= {path, "map.buildings[0].connections[0]"}


# -- files that cannot be read ---------------------------------------------------------------

runner = CliRunner()

FILES: dict[str, tuple[bytes | None, str]] = {
    "missing": (None, "no such file"),
    "directory": (b"", "is a directory"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
    "empty": (b"", "the file is empty"),
    "blank": (b"  \n\n\t\n", "the file is empty"),
    "latin-1": ('[scenario]\nname = "café"\n'.encode("latin-1"), "not UTF-8 text"),
    "unclosed list": (b"[scenario]\nname = [1, 2\n", "not valid TOML"),
    "no value": (b"[scenario]\nturns =\n", "not valid TOML"),
    "key twice": (b"[scenario]\nturns = 1\nturns = 2\n", "not valid TOML"),
    "table twice": (b"[map]\n[map]\n", "not valid TOML"),
}


@pytest.mark.parametrize("case", sorted(FILES))
def test_validate_says_why_a_file_cannot_be_read(tmp_path: Path, case: str) -> None:
    data, says = FILES[case]
    path = tmp_path / "scenario.toml"
    if case == "directory":
        path.mkdir()
    elif data is not None:
        path.write_bytes(data)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    (problem,) = caught.value.problems
    assert problem.source == str(path) and says in problem.message
    result = runner.invoke(cli.app, ["validate", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}") and says in lines[0]


def test_validate_lists_problems_of_every_kind(tmp_path: Path) -> None:
    raw_text = bundled_scenarios()["corner-shop"].read_text(encoding="utf-8")
    text = raw_text.replace("\nturns = ", "\nturns = -", 1).replace('weapon = "rifle"',
                                                                  'weapon = "sling"', 1)
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(cli.app, ["validate", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert any("scenario.turns" in line for line in lines)
    assert any(".weapon" in line and "'sling'" in line for line in lines)
