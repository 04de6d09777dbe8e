"""House rules: `--set` and overlay files reach the rules; bad ones are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fibua.cli import main as cli
from fibua.core.errors import InputError
from fibua.core.game import Game, play_out
from fibua.lab.engine import computers
from fibua.lab.overrides import parse_value, with_house_rules
from fibua.lab.store import read_info, read_rows
from fibua.scenario.loader import load_scenario

runner = CliRunner()
#: a corner-shop seed whose game, as the scenario stands, has morale tests
MORALE_SEED = 1


def lab(*args: str) -> Result:
    result = runner.invoke(cli.app, ["lab", *args])
    assert "Traceback" not in result.output
    return result


def kinds(scenario_overrides: list[str], seed: int) -> set[str]:
    scenario = with_house_rules(load_scenario("corner-shop"), scenario_overrides)
    game = Game(scenario, seed)
    play_out(game, computers(game, seed))
    return {event.kind for event in game.log}


def test_values_read_as_toml_else_as_text() -> None:
    assert parse_value("false") is False
    assert parse_value("6") == 6
    assert parse_value("[[0, 0], [1, 2]]") == [[0, 0], [1, 2]]
    assert parse_value("British section") == "British section"


def test_a_turn_limit_ends_the_games_at_that_turn(tmp_path: Path) -> None:
    result = lab("run", "corner-shop", "--games", "4", "--set", "turns=3",
                 "--out", str(tmp_path / "short"))
    assert result.exit_code == 0, result.output
    rows = list(read_rows(tmp_path / "short"))
    assert all(row.turns <= 3 for row in rows)
    assert any(row.turns == 3 and "turn limit" in row.reason for row in rows)
    info = read_info(tmp_path / "short")
    assert info.scenario["scenario"]["turns"] == 3 and info.overrides == ["--set turns=3"]
    # the scenario as bundled runs longer (13 turns since the lab balanced it)
    scenario = load_scenario("corner-shop")
    assert scenario.scenario.turns == 13


def test_a_rule_option_reaches_the_rules() -> None:
    assert "morale" in kinds([], MORALE_SEED)
    assert "morale" not in kinds(["morale=false"], MORALE_SEED)
    assert "morale" not in kinds(["options.morale=false"], MORALE_SEED)


def test_an_overlay_changes_options_and_fields(tmp_path: Path) -> None:
    overlay = tmp_path / "quick.toml"
    overlay.write_text("[scenario]\nturns = 2\n\n[options]\nmorale = false\n", "utf-8")
    scenario = with_house_rules(load_scenario("corner-shop"), overlays=[overlay])
    assert scenario.scenario.turns == 2 and scenario.rule_options.morale is False
    game = Game(scenario, MORALE_SEED)
    play_out(game, computers(game, MORALE_SEED))
    assert sum(1 for e in game.log if e.kind == "turn") <= 2
    assert not any(e.kind == "morale" for e in game.log)


def test_an_overlay_changes_a_side_s_forces(tmp_path: Path) -> None:
    overlay = tmp_path / "fewer.toml"
    overlay.write_text(
        '[[sides.germans.forces.units]]\nid = "mg-trupp"\nname = "MG-Trupp"\nfigures = [\n'
        '  { id = "lindner", name = "Lindner", weapon = "lmg", at = [22.3, 23.3], floor = 1 },\n'
        '  { id = "pohl", name = "Pohl", weapon = "rifle", at = [22.5, 30.5] },\n]\n', "utf-8")
    result = lab("run", "corner-shop", "--games", "3", "--overlay", str(overlay),
                 "--out", str(tmp_path / "fewer"))
    assert result.exit_code == 0, result.output
    for row in read_rows(tmp_path / "fewer"):
        assert {f.id for f in row.falls if f.side == "germans"} <= {"lindner", "pohl"}
    scenario = with_house_rules(load_scenario("corner-shop"), overlays=[overlay])
    assert {f["id"] for f in Game(scenario, 0).view("germans")["own"]} == {"lindner", "pohl"}
    # the other side and the rest of the germans' table are as they were
    assert scenario.side("germans").title == "German rifle squad"
    assert len(scenario.side("british").forces["units"]) == 2


def test_a_side_field_is_set_by_its_path() -> None:
    scenario = with_house_rules(load_scenario("corner-shop"),
                                ["sides.germans.title=Kampfgruppe"])
    assert scenario.side("germans").title == "Kampfgruppe"


@pytest.mark.parametrize(("sets", "message"), [
    (["moral=false"], "no option or scenario field 'moral'"),
    (["morale=maybe"], "options.morale"),
    (["turns=0"], "scenario.turns"),
    (["turns"], "is not NAME=VALUE"),
    (["scenario.name=other"], "cannot change it"),
    (["sides.russians.title=x"], "no side 'russians'"),
    (["weather.rain=true"], "a path begins with one of"),
])
def test_bad_settings_are_refused_with_their_place(sets: list[str], message: str) -> None:
    with pytest.raises(InputError) as caught:
        with_house_rules(load_scenario("corner-shop"), sets)
    assert message in "\n".join(str(p) for p in caught.value.problems)


@pytest.mark.parametrize(("text", "message"), [
    ("[weather]\nrain = true\n", "'weather' is not part of a scenario file"),
    ("[scenario]\nruleset = 'house-clearing'\n", "cannot change it"),
    ("[options]\nmorale = 'often'\n", "options.morale"),
    ("[sides.russians]\ntitle = 'x'\n", "no side 'russians'"),
    ("turns = = 3\n", "not TOML"),
])
def test_bad_overlays_are_refused(text: str, message: str, tmp_path: Path) -> None:
    overlay = tmp_path / "bad.toml"
    overlay.write_text(text, "utf-8")
    result = lab("run", "corner-shop", "--games", "1", "--overlay", str(overlay),
                 "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert message in result.output


def test_a_missing_overlay_is_refused(tmp_path: Path) -> None:
    result = lab("run", "corner-shop", "--overlay", str(tmp_path / "none.toml"),
                 "--out", str(tmp_path / "x"))
    assert result.exit_code == 2 and "none.toml" in result.output
