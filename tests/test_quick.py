"""Quick battles (`fibua quick`): a scenario no one has seen, for every rule set. It
validates and loads, its two sides have the same points (priced again from the forces the
rule set read), everybody starts in their own deployment zone, a game between the rule
set's computers plays to the end, the same seed writes the same bytes and another seed
another battle."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon
from typer.testing import CliRunner

from fibua.cli.main import app
from fibua.core.game import Game, play_out
from fibua.quick.battle import ARMIES, army_for, quick_battle, side_points
from fibua.scenario.loader import load_scenario, scenario_from_text
from fibua.scenario.schema import Scenario

RULESETS = sorted(ARMIES)
VALIDATED = range(20)
PLAYED = range(3)
SRC = Path(__file__).resolve().parents[1] / "src"


def starting_points(raw_forces: dict[str, Any]) -> list[tuple[float, float]]:
    """Every place a side's figures, models or units start at (riders ride)."""
    if "formations" in raw_forces:
        return [tuple(u["at"]) for f in raw_forces["formations"] for u in f["units"]
                if "at" in u]
    groups = raw_forces.get("players") or raw_forces["units"]
    members = [m for g in groups for m in g.get("figures") or g.get("models")]
    return [tuple(m["at"]) for m in members]


def in_zone(scenario: Scenario, side: int) -> bool:
    spec = scenario.sides[side]
    assert spec.deployment is not None
    zone = Polygon(spec.deployment)
    raw = scenario.raw["sides"][side]["forces"]
    return all(zone.covers(ShapelyPoint(p)) for p in starting_points(raw))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_twenty_seeds_load_with_equal_points_in_their_zones(ruleset: str) -> None:
    army = army_for(ruleset)
    for seed in VALIDATED:
        battle = quick_battle(ruleset, seed)
        loaded = scenario_from_text(battle.text, f"{ruleset}-{seed}")  # raises on a problem
        assert loaded.ruleset == ruleset
        first, second = side_points(army, loaded)
        assert first == second == battle.points[0] == battle.points[1], (seed, first, second)
        assert army.budget * 0.8 <= first <= army.budget
        assert in_zone(loaded, 0) and in_zone(loaded, 1), seed
        kinds = {v.kind for v in loaded.victory}
        assert "hold" in kinds and loaded.scenario.turns >= 6


@pytest.mark.parametrize("ruleset", RULESETS)
def test_games_between_the_computers_play_to_the_end(ruleset: str) -> None:
    for seed in PLAYED:
        scenario = quick_battle(ruleset, seed).scenario
        game = Game(scenario, seed)
        players = {side: game.ruleset.computer(side, seed + n)
                   for n, side in enumerate(scenario.side_names)}
        result = play_out(game, players, max_orders=20_000)
        assert game.over and result.winner in (*scenario.side_names, None)


def test_same_seed_same_bytes_in_another_process() -> None:
    """The file is the seed's alone: not the process, its hash seed or what ran before."""
    here = {r: hashlib.sha256(quick_battle(r, 11).text.encode()).hexdigest() for r in RULESETS}
    assert here == {r: hashlib.sha256(quick_battle(r, 11).text.encode()).hexdigest()
                    for r in RULESETS}
    script = ("import hashlib; from fibua.quick.battle import quick_battle\n"
              f"for r in {RULESETS!r}:\n"
              "    print(r, hashlib.sha256(quick_battle(r, 11).text.encode()).hexdigest())\n")
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert dict(line.split() for line in out.splitlines()) == here


@pytest.mark.parametrize("ruleset", RULESETS)
def test_different_seeds_make_different_towns_and_forces(ruleset: str) -> None:
    battles = [quick_battle(ruleset, seed).scenario.raw for seed in range(5)]
    maps = {repr(raw["map"]) for raw in battles}
    forces = {repr([side["forces"] for side in raw["sides"]]) for raw in battles}
    assert len(maps) == 5 and len(forces) == 5


def test_the_command_writes_the_seeds_file_and_it_validates(tmp_path: Path) -> None:
    out = tmp_path / "battle.toml"
    runner = CliRunner()
    made = runner.invoke(app, ["quick", "street-fighter", "--seed", "4", "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert out.read_text(encoding="utf-8") == quick_battle("street-fighter", 4).text
    assert "points" in made.output and str(out) in made.output
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0 and checked.output.startswith("OK:")
    assert load_scenario(out).name == "quick-street-fighter-4"


def test_the_command_refuses_an_unknown_rule_set(tmp_path: Path) -> None:
    out = tmp_path / "battle.toml"
    made = CliRunner().invoke(app, ["quick", "chess", "--seed", "1", "--out", str(out)])
    assert made.exit_code == 2 and "street-fight" in made.output
    assert not out.exists()
