"""Sections burning or brought down reach every map: the Buildings view names them in
`section_states` (public: a fire or a collapse is told to both sides at once), the terminal
draws them, and `fibua map` shows the buildings' floors, openings, slits and flat roofs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from fibua.battlefield.model import SectionState
from fibua.battlefield.svg import render_svg, storeys
from fibua.cli import main as cli
from fibua.cli.games import computer_players
from fibua.cli.terminal import PlaySession
from fibua.cli.textmap import BURNING_CHAR, RUINED_CHAR, section_states
from fibua.core.game import Game
from fibua.rulesets.buildings.firing import collapse, set_alight
from fibua.scenario.loader import load_scenario

SVG = "{http://www.w3.org/2000/svg}"


def village() -> Game:
    return Game(load_scenario("village-street"), 3)


def test_the_view_names_burning_and_fallen_sections_to_both_sides() -> None:
    game = village()
    for side in game.scenario.side_names:
        assert game.view(side)["section_states"] == {}
    set_alight(game.state, "grange-bazin")
    collapse(game.state, "maison-ferrand")
    for side in game.scenario.side_names:
        view = game.view(side)
        assert view["section_states"] == {"grange-bazin": "burning",
                                          "maison-ferrand": "rubble"}
        assert section_states(view) == {"grange-bazin": SectionState.BURNING,
                                        "maison-ferrand": SectionState.RUBBLE}
    # and the side's own sight follows: nothing is seen through the fire
    assert game.state.side_sight["germans"].section_state("grange-bazin") \
        is SectionState.BURNING


def test_a_view_s_states_are_read_with_care() -> None:
    assert section_states({}) == {}
    assert section_states({"section_states": ["cafe"]}) == {}
    assert section_states({"section_states": {"cafe": "molten", "forge": "intact",
                                              "eglise": "rubble"}}) == {
        "eglise": SectionState.RUBBLE}


def _screen(game: Game) -> str:
    out = Console(record=True, width=80)
    play = PlaySession(game, "germans", computer_players(game.scenario, 1, ("germans",)), out,
                       read_line=lambda: None, echo=True)
    play.show_screen()
    text = out.export_text()
    return "".join(line for line in text.splitlines() if "│" in line)


def test_the_terminal_map_draws_what_the_view_says() -> None:
    game = village()
    before = _screen(game)
    assert BURNING_CHAR not in before and before.count(RUINED_CHAR) > 0  # old ruins
    set_alight(game.state, "grange-bazin")
    collapse(game.state, "maison-ferrand")
    after = _screen(game)
    assert BURNING_CHAR in after
    assert after.count(RUINED_CHAR) > before.count(RUINED_CHAR)


def test_storeys_of_a_building() -> None:
    scenario = load_scenario("tobacco-factory")
    shown = {b.id: storeys(b.sections) for b in scenario.battlefield.buildings}
    assert any("flat roof" in text for text in shown.values())
    houses = {b.id: b for b in load_scenario("village-street").battlefield.buildings}
    assert storeys(houses["cafe"].sections) == "2 floors"
    assert storeys(houses["bazin"].sections) == "1 floor"


def _map(name: str, tmp_path: Path) -> ET.Element:
    out = tmp_path / f"{name}.svg"
    result = CliRunner().invoke(cli.app, ["map", name, "--svg", str(out)])
    assert result.exit_code == 0, result.output
    return ET.fromstring(out.read_text(encoding="utf-8"))


def test_fibua_map_shows_floors_openings_slits_and_roofs(tmp_path: Path) -> None:
    village_svg = _map("village-street", tmp_path)
    # each building's height is the second line of its name's label
    floors = [t.text for t in village_svg.iter(f"{SVG}tspan")
              if t.get("class") == "building-floors"]
    assert floors.count("2 floors") == 4 and "1 floor" in floors
    upstairs = [e for e in village_svg.iter(f"{SVG}line") if e.get("data-floor") == "1"]
    assert upstairs  # the upper floors' windows
    beach = _map("beach-exit", tmp_path)
    assert any(e.get("class") == "slit-frame" for e in beach.iter(f"{SVG}line"))
    factory = _map("tobacco-factory", tmp_path)
    assert any(e.get("class") == "roof flat" for e in factory.iter(f"{SVG}polygon"))


def test_fibua_map_shows_the_openings_units_made(tmp_path: Path) -> None:
    """Village Street's 7 Section knocks a loophole in the cafe's blank east wall upstairs."""
    def upstairs_east(root: ET.Element) -> int:
        return sum(1 for e in root.iter(f"{SVG}line") if e.get("data-floor") == "1"
                   and float(e.get("x1", 0)) == 21 and float(e.get("x2", 0)) == 21
                   and 27 <= float(e.get("y1", 0)) <= 34)

    scenario = load_scenario("village-street")
    assert upstairs_east(ET.fromstring(render_svg(scenario.battlefield))) == 0
    assert upstairs_east(_map("village-street", tmp_path)) == 1
