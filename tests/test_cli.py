"""The `fibua` command line, driven in-process with the toy rule set registered."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from fibua.cli import games
from fibua.cli import main as cli
from fibua.cli.terminal import (
    Grid,
    OrderSyntaxError,
    describe_roll,
    format_order,
    letter_figures,
    parse_order,
    render_map,
)
from fibua.core.errors import InputError
from fibua.core.orders import Order
from toy_ruleset import TOY_SCENARIO_TOML, toy_scenario

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> Result:
    result = runner.invoke(cli.app, list(args), input=stdin)
    assert "Traceback" not in result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def toy_file(tmp_path: Path) -> Path:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_SCENARIO_TOML, encoding="utf-8")
    return path


@pytest.fixture
def full_log(tmp_path: Path, toy_file: Path) -> Path:
    out = tmp_path / "game.jsonl"
    assert run("autoplay", str(toy_file), "--seed", "4", "--out", str(out)).exit_code == 0
    return out


# -- validate, scenarios, rulesets ------------------------------------------------------


def test_validate_ok(toy_file: Path) -> None:
    result = run("validate", str(toy_file))
    assert result.exit_code == 0 and result.stdout.startswith("OK: toy-duel")


def test_validate_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    text = TOY_SCENARIO_TOML.replace("turns = 4", "turns = 0\ncolour = 'red'")
    bad.write_text(text.replace("at = [1, 1]", 'at = "here"'), encoding="utf-8")
    result = run("validate", str(bad))
    assert result.exit_code == 2
    problems = result.stderr.strip().splitlines()
    assert len(problems) == 3  # the schema's and the forces' problems, in one run
    assert any("scenario.turns" in line for line in problems)
    assert any("scenario.colour" in line and "unknown key" in line for line in problems)
    assert any("sides[0].forces.tokens[0].at" in line for line in problems)


@pytest.mark.parametrize("text", ["not = [toml", ""])
def test_validate_bad_toml_or_missing_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "broken.toml"
    if text:
        path.write_text(text, encoding="utf-8")
    result = run("validate", str(path))
    assert result.exit_code == 2 and "broken.toml" in result.stderr


def test_rulesets_and_scenarios_list() -> None:
    result = run("rulesets")
    assert result.exit_code == 0 and "toy" in result.stdout and "duel" in result.stdout
    assert run("scenarios").exit_code == 0


# -- autoplay and replay ----------------------------------------------------------------


def test_autoplay_writes_a_log_that_replays(full_log: Path) -> None:
    assert full_log.read_text(encoding="utf-8").count("\n") > 3
    result = run("replay", str(full_log))
    assert result.exit_code == 0
    assert result.stdout.startswith("OK: ") and "state hash" in result.stdout


def test_autoplay_summary_is_one_line(tmp_path: Path, toy_file: Path) -> None:
    result = run("autoplay", str(toy_file), "--seed", "1", "--out", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 0 and len(result.stdout.strip().splitlines()) == 1


def test_autoplay_as_a_side(tmp_path: Path, toy_file: Path) -> None:
    out = tmp_path / "red.jsonl"
    result = run("autoplay", str(toy_file), "--seed", "4", "--out", str(out), "--as", "red")
    assert result.exit_code == 0
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert header["view"] == "red" and "seed" not in header
    replayed = run("replay", str(out))
    assert replayed.exit_code == 2 and "cannot be replayed" in replayed.stderr


def test_autoplay_bad_input(tmp_path: Path, toy_file: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    assert (
        run("autoplay", str(toy_file), "--seed", "1", "--out", out, "--as", "green").exit_code == 2
    )
    assert run("autoplay", "no-such-scenario", "--seed", "1", "--out", out).exit_code == 2
    assert run("autoplay", str(toy_file), "--seed", "x", "--out", out).exit_code == 2
    missing_dir = str(tmp_path / "nope" / "x.jsonl")
    result = run("autoplay", str(toy_file), "--seed", "1", "--out", missing_dir)
    assert result.exit_code == 2 and "error:" in result.stderr


def test_replay_reports_the_first_difference(full_log: Path) -> None:
    lines = full_log.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if '"hit":' in line)
    lines[index] = lines[index].replace('"hit":', '"hit":0,"x":', 1)
    full_log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("replay", str(full_log))
    assert result.exit_code == 1
    assert f"line {index + 1}" in result.stdout


def test_replay_of_a_malformed_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "header"\n', encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert "line 1" in result.stderr and "not valid JSON" in result.stderr
    assert run("replay", str(tmp_path / "missing.jsonl")).exit_code == 2


# -- odds -------------------------------------------------------------------------------


def test_odds_table() -> None:
    result = run("odds", "toy", "duel", "--need", "4")
    assert result.exit_code == 0 and "1/2" in result.stdout and "needed" in result.stdout


def test_odds_json_is_one_object() -> None:
    result = run(
        "odds",
        "toy",
        "duel",
        "--need=4",
        "--target-moving",
        "--rerolls",
        "--dice",
        "d10",
        "--range",
        "3",
        "--json",
    )
    assert result.exit_code == 0
    assert len(result.stdout.strip().splitlines()) == 1
    assert json.loads(result.stdout) == {"chance": 0.84, "exact": "21/25", "need": 5}


def test_odds_help_lists_the_model_fields() -> None:
    result = run("odds", "toy", "duel", "--help")
    assert result.exit_code == 0
    for flag in ("--need", "--target-moving", "--no-rerolls", "{d6,d10}", "--range"):
        assert flag in result.stdout
    overview = run("odds")
    assert overview.exit_code == 0 and "toy duel" in overview.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["toy", "duel"], "--need"),
        (["toy", "duel", "--need", "x"], "--need"),
        (["toy", "duel", "--need", "4", "--dice", "d8"], "d8"),
        (["toy", "duel", "--need", "40"], "--need"),
        (["toy", "duel", "--need", "4", "--range", "30"], "out of range"),
        (["toy", "duel", "--need", "4", "--bogus"], "--bogus"),
        (["toy", "nope"], "nope"),
        (["nope", "duel"], "nope"),
        (["toy"], "rule set and a query"),
    ],
)
def test_odds_bad_arguments(args: list[str], says: str) -> None:
    result = run("odds", *args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0]


# -- map --------------------------------------------------------------------------------


def test_map_svg_shows_the_figures(tmp_path: Path, toy_file: Path) -> None:
    out = tmp_path / "map.svg"
    assert run("map", str(toy_file), "--svg", str(out)).exit_code == 0
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "r1" in svg and "b2" in svg
    assert run("map", str(toy_file), "--svg", str(out), "--side", "blue").exit_code == 0
    svg = out.read_text(encoding="utf-8")
    assert "b1" in svg and ">r1<" not in svg
    assert run("map", str(toy_file), "--svg", str(out), "--side", "green").exit_code == 2


# -- play -------------------------------------------------------------------------------


def test_play_with_piped_input(toy_file: Path) -> None:
    commands = [
        "help",
        "orders",
        "? shoot r1 target=b1",
        "shoot r1 target=r2",
        "shoot r1 x",
        "pass",
    ]
    result = run("play", str(toy_file), "--seed", "2", stdin="\n".join(commands) + "\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "shoot UNIT target=ID" in out  # help
    assert "shoot r2 target=b2" in out  # orders
    assert "chance 1/2" in out  # preview
    assert "not allowed: 'r2' is not an enemy token" in out
    assert "parameters are written key=value" in out
    assert "Corporal Rouge" in out and "Gefreiter Blau" in out
    assert "End of input" in out
    assert out.count("turn 2 of 4 | orders phase") == 2  # the turn's screen, then its status


def test_play_shows_the_rolls(toy_file: Path) -> None:
    result = run("play", str(toy_file), "--seed", "2", stdin="shoot r1 target=b1\n")
    # in plain words: the die, its face and the number it needed
    assert "Shot, a d6: rolled" in result.stdout and "needed 4 or more" in result.stdout


def test_play_to_the_end_and_log(tmp_path: Path, toy_file: Path) -> None:
    out = tmp_path / "played.jsonl"
    result = run("play", str(toy_file), "--seed", "3", "--out", str(out), stdin="pass\n" * 10)
    assert result.exit_code == 0 and "Game over" in result.stdout
    assert run("replay", str(out)).exit_code == 0


def test_play_as_the_other_side_and_quit(toy_file: Path) -> None:
    result = run("play", str(toy_file), "--side", "blue", "--seed", "1", stdin="quit\n")
    assert result.exit_code == 0 and "you play blue" in result.stdout
    assert "You left the game" in result.stdout


def test_play_bad_input(toy_file: Path) -> None:
    assert run("play", str(toy_file), "--side", "green").exit_code == 2
    assert run("play", "no-such-scenario").exit_code == 2


def test_default_scenario(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def bundled(*names: str) -> dict[str, Path]:
        return {Path(name).name: tmp_path / f"{name}.toml" for name in names}

    cases = [
        (("other/zz", "street-fight/alley", "street-fight/corner-shop"), "corner-shop"),
        (("other/zz", "street-fight/alley"), "alley"),
        (("other/zz",), "zz"),
    ]
    for names, expected in cases:
        monkeypatch.setattr(games, "bundled_scenarios", lambda names=names: bundled(*names))
        assert games.default_scenario() == expected
    monkeypatch.setattr(games, "bundled_scenarios", dict)
    with pytest.raises(InputError):
        games.default_scenario()


def test_the_entry_point_in_a_subprocess(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fibua.cli.main", "validate", str(tmp_path / "missing.toml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "missing.toml" in done.stderr and "Traceback" not in done.stderr


# -- terminal helpers -------------------------------------------------------------------


def test_parse_order() -> None:
    order = parse_order('move cpl-smith to=12.5,20 note="a b" n=3 fast=true', "red")
    assert order == Order(
        "red", "move", "cpl-smith", {"to": [12.5, 20], "note": "a b", "n": 3, "fast": True}
    )
    assert parse_order("pass", "red") == Order("red", "pass")
    assert parse_order("shoot pte-jones target=gefr-braun", "red").params == {
        "target": "gefr-braun"
    }
    for bad in ("", "shoot a b", "shoot a =3", "shoot 'open", "move a x=1 x=2"):
        with pytest.raises(OrderSyntaxError):
            parse_order(bad, "red")


WORDS = st.text(alphabet="abcxyz-019", min_size=1, max_size=6)
VALUES = (
    st.integers(-99, 99)
    | st.floats(-100, 100, allow_nan=False)
    | st.booleans()
    | st.text(max_size=8)
    | st.lists(st.integers(0, 50) | st.floats(0, 50), min_size=1, max_size=3)
    | st.lists(st.text(max_size=3), max_size=2)
)


@given(
    kind=WORDS.filter(lambda w: not w.startswith("?")),
    unit=st.none() | WORDS,
    params=st.dictionaries(WORDS, VALUES, max_size=3),
)
def test_format_order_reads_back(kind: str, unit: str | None, params: dict[str, object]) -> None:
    order = Order("red", kind, unit, params)
    assert parse_order(format_order(order), "red") == order


def test_describe_roll() -> None:
    text = describe_roll(
        {
            "purpose": "to hit",
            "dice": "2d6",
            "faces": [3, 5],
            "value": 8,
            "modifiers": [["cover", -1]],
            "total": 7,
            "need": 7,
            "at_most": False,
            "success": True,
            "basis": [],
        }
    )
    assert text == "to hit: 2d6 rolled 3+5 -1 cover = 7, needed 7+ - success"
    percentile = describe_roll(
        {
            "purpose": "morale",
            "dice": "d100",
            "faces": [55],
            "value": 55,
            "need": 40,
            "at_most": True,
            "success": False,
            "basis": [["base", 50], ["wounded", -10]],
        }
    )
    assert (
        percentile == "morale: d100 rolled 55, needed 40 or less (base +50, wounded -10) - failure"
    )


def test_map_fits_80_columns() -> None:
    scenario = toy_scenario()
    figures = letter_figures(
        [{"id": "r1", "x": 1.0, "y": 1.0}],
        [{"id": "b1", "x": 10.0, "y": 6.0, "visible_now": False}],
    )
    text = render_map(scenario.battlefield, figures).plain
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "A" in text and "a" in text and "▓" in text and "#" in text
    tall = Grid.fit(10, 200)
    assert tall.rows <= 34 and tall.cols >= 1
    wide = Grid.fit(200, 10)
    assert wide.cols == 72  # the y ruler takes 4 of the 80 columns


def test_a_list_of_figures_in_an_event_reads_as_their_names() -> None:
    from fibua.cli.terminal import describe_event
    from fibua.core.events import Event

    event = Event("deployed", {"side": "red", "figures": [
        {"id": "r1", "name": "Corporal Rouge", "weapon": "rifle"},
        {"id": "r2", "name": "Private Scarlet", "weapon": "smg"}]}, ("red",), 0)
    (line,) = describe_event(event)
    assert "figures=2: Corporal Rouge, Private Scarlet" in line
    assert "weapon" not in line


def _commands(group: Any, path: list[str]) -> list[tuple[list[str], Any]]:
    """Every command under a group, with the words that call it (typer carries its own
    click, so the types are left open)."""
    found: list[tuple[list[str], Any]] = []
    for name, command in group.commands.items():
        found.append(([*path, name], command))
        if hasattr(command, "commands"):
            found += _commands(command, [*path, name])
    return found


def _words(text: str) -> str:
    """The words of a help page, its frame and line breaks left out (a plain page may
    break a line after a word's hyphen)."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", re.sub(r"-\n\s*", "-", text)).split())


# `odds` writes its own help page (each query's fields) rather than click's
@pytest.mark.parametrize("path", [p for p, c in _commands(typer.main.get_group(cli.app), [])
                                  if c.add_help_option], ids=" ".join)
def test_every_help_text_is_shown_whole(path: list[str]) -> None:
    """A command's help, and each of its options' and arguments', reads in `--help` as
    written: brackets in it are text, not markup that the help page swallows."""
    group = typer.main.get_group(cli.app)
    command = dict((tuple(p), c) for p, c in _commands(group, []))[tuple(path)]
    shown = _words(run(*path, "--help").output)
    texts = {"(command)": command.help or ""}
    texts |= {p.name: getattr(p, "help", None) or "" for p in command.params if p.name != "help"}
    for name, text in texts.items():
        assert _words(text.replace("\\[", "[")) in shown, (path, name)
