"""`fibua lab ladder`: every ordered pair of players on every side of a scenario, stored a
lab run a pairing (so a stopped ladder goes on), then ratings as a table, JSON and a
plot; bad input is one line and status 2."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from fibua.lab.store import db_path, read_info, read_rows
from lab_helpers import lab

PNG = b"\x89PNG\r\n\x1a\n"


def ladder(out: Path, *more: str) -> tuple[int, str]:
    result = lab("ladder", "corner-shop", "--players", "random,normal", "--games", "2",
                 "--bootstrap", "50", "--out", str(out), *more)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("ladder") / "whole"
    code, output = ladder(out)
    assert code == 0, output
    return out, output


def pairing(out: Path, first: str, second: str) -> Path:
    return out / "runs" / "corner-shop" / f"{first}-vs-{second}"


def test_each_player_plays_each_side_against_the_other_on_seeds_from_100000(
        whole: tuple[Path, str]) -> None:
    out, _ = whole
    for first, second in (("random", "normal"), ("normal", "random")):
        info = read_info(pairing(out, first, second))
        assert list(info.seats.values()) == [first, second]
        assert list(info.seeds) == [100_000, 100_001]
        assert [r.seed for r in read_rows(pairing(out, first, second))] == [100_000, 100_001]
    assert not pairing(out, "random", "random").exists()


def test_the_ladder_writes_its_table_json_and_plot(whole: tuple[Path, str]) -> None:
    out, output = whole
    assert "Overall (random = 0" in output and "normal" in output
    assert "corner-shop by side" in output and "NOT identified" in output  # two players
    assert "deviance" in output  # (two players: as many parameters as pairings, no test)
    rated = json.loads((out / "ratings.json").read_text())
    assert rated["games"] == 4
    assert rated["plan"]["players"] == ["random", "normal"]
    assert rated["plan"]["seed_start"] == 100_000
    names = [r["name"] for r in rated["overall"]["ratings"]]
    assert names == ["random", "normal", "corner-shop: first side's advantage"]
    random_rating = rated["overall"]["ratings"][0]
    assert random_rating["elo"] == 0.0 and random_rating["games"] == 4
    assert len(rated["overall"]["cells"]) == 2
    assert rated["by_side"][0]["identified"] is False
    assert (out / "ratings.png").read_bytes()[:8] == PNG


def test_a_stopped_ladder_goes_on_where_it_stopped(whole: tuple[Path, str],
                                                   tmp_path: Path) -> None:
    out, _ = whole
    import shutil

    stopped = tmp_path / "stopped"
    shutil.copytree(out, stopped)
    (stopped / "ratings.json").unlink()
    # stopped before the second game of one pairing and before any of the other
    with sqlite3.connect(db_path(pairing(stopped, "random", "normal"))) as connection:
        connection.execute("DELETE FROM games WHERE seed = 100001")
    with sqlite3.connect(db_path(pairing(stopped, "normal", "random"))) as connection:
        connection.execute("DELETE FROM games")
    code, output = ladder(stopped)
    assert code == 0, output
    assert "played 3 games" in output
    for first, second in (("random", "normal"), ("normal", "random")):
        assert (list(read_rows(pairing(stopped, first, second)))
                == list(read_rows(pairing(out, first, second))))
    again, output = ladder(stopped)
    assert again == 0 and "played 0 games" in output
    assert json.loads((stopped / "ratings.json").read_text()) == json.loads(
        (out / "ratings.json").read_text())


def test_a_ladder_folder_holding_other_games_is_refused(whole: tuple[Path, str],
                                                        tmp_path: Path) -> None:
    out, _ = whole
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    result = lab("ladder", "corner-shop", "--players", "random,normal", "--games", "3",
                 "--out", str(copy))
    assert result.exit_code == 2
    assert "played other games" in result.output


def one_line_refusal(*args: str) -> str:
    result = lab("ladder", *args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def test_an_unknown_player_is_refused(tmp_path: Path) -> None:
    line = one_line_refusal("corner-shop", "--players", "random,grandmaster",
                            "--out", str(tmp_path / "x"))
    assert "no player 'grandmaster'" in line and "hard" in line
    assert not (tmp_path / "x").exists()


def test_one_player_alone_is_refused(tmp_path: Path) -> None:
    line = one_line_refusal("corner-shop", "--players", "normal", "--out", str(tmp_path / "x"))
    assert "at least two players" in line


def test_a_player_named_twice_is_refused(tmp_path: Path) -> None:
    line = one_line_refusal("corner-shop", "--players", "normal,random,normal",
                            "--out", str(tmp_path / "x"))
    assert "normal named twice" in line


def test_an_unknown_scenario_is_refused(tmp_path: Path) -> None:
    line = one_line_refusal("no-such-scenario", "--players", "random,normal",
                            "--out", str(tmp_path / "x"))
    assert "no-such-scenario" in line
    assert not (tmp_path / "x").exists()


def test_a_bad_budget_is_refused(tmp_path: Path) -> None:
    line = one_line_refusal("corner-shop", "--players", "random,hard", "--budget",
                            "worlds=0", "--out", str(tmp_path / "x"))
    assert "candidates, worlds, horizon" in line


def test_the_budget_is_kept_with_the_pairings_where_hard_plays() -> None:
    from fibua.lab.ladder import LADDER_BUDGET, Plan, expected_info, pairings, parse_budget
    from fibua.scenario.loader import load_scenario

    budget = parse_budget("worlds=1")  # the ladder's default, one world
    assert (budget.candidates, budget.worlds, budget.horizon) == (
        LADDER_BUDGET.candidates, 1, LADDER_BUDGET.horizon)
    plan = Plan(["corner-shop"], ["random", "hard"], 2, 100_000, budget, "random")
    for pairing in pairings([load_scenario("corner-shop")], plan.players):
        assert expected_info(pairing, plan).budget == budget
    calm = Plan(["corner-shop"], ["random", "normal"], 2, 100_000, budget, "random")
    for pairing in pairings([load_scenario("corner-shop")], calm.players):
        assert expected_info(pairing, calm).budget is None
