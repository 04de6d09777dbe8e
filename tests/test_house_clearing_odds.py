"""The exact odds of a House-Clearing firing: against closed forms, against enumerating
every face on paper and through the game itself, and through `fibua odds`."""

from __future__ import annotations

import json
from fractions import Fraction as F
from itertools import product
from typing import Any

import pytest
from typer.testing import CliRunner

from fibua.cli import main as cli
from fibua.core.errors import IllegalOrder
from fibua.rulesets.house_clearing.odds import ShootQuestion, shoot_odds
from hc_helpers import act, end, figure, forced_game, make_scenario, of_kind

runner = CliRunner()


def odds(**kw: Any) -> dict[str, Any]:
    return shoot_odds(ShootQuestion.model_validate(kw)).values


def closed_hit(chance: int, fifths: int) -> F:
    """No confirmed hit: every sure hit fails the cover die, and the extra one is either
    not rolled or fails it too."""
    sure, extra = divmod(chance, 100)
    keep = F(fifths, 6)
    return 1 - (1 - keep) ** sure * (1 - F(extra, 100) * keep)


def enumerate_hits(chance: int, fifths: int) -> tuple[F, F]:
    """(at least one confirmed hit, expected confirmed hits) over every d100 face and
    every cover face of every hit."""
    sure, extra = divmod(chance, 100)
    one = total = F(0)
    for face in range(1, 101):
        hits = sure + (1 if face <= extra else 0)
        for covers in product(range(1, 7), repeat=hits):
            weight = F(1, 100) * F(1, 6) ** hits
            confirmed = sum(1 for c in covers if c <= fifths)
            one += weight * (confirmed > 0)
            total += weight * confirmed
    return one, total


@pytest.mark.parametrize(
    ("question", "chance"),
    [
        ({"weapon": "rifle", "skill": 110, "range": 7, "visible": "3/5"}, 55),
        ({"weapon": "smg", "skill": 160, "range": 7, "visible": "2/5"}, 20),
        ({"weapon": "rifle", "skill": 120, "range": 13, "visible": "5/5"}, 30),
        ({"weapon": "pistol", "skill": 240, "range": 1, "visible": "5/5"}, 240),
        ({"weapon": "pistol", "skill": 200, "range": 0.5, "visible": "1/5"}, 200),
        ({"weapon": "smg", "skill": 150, "range": 4, "visible": "4/5", "auto": True}, 37),
        ({"weapon": "assault-rifle", "skill": 120, "range": 4, "visible": "5/5",
          "auto": True}, 30),
        ({"weapon": "assault-rifle", "skill": 120, "range": 4, "visible": "5/5"}, 120),
        ({"weapon": "belt-lmg", "skill": 90, "range": 14.5, "visible": "2/5"}, 22),
        ({"weapon": "belt-lmg", "skill": 90, "range": 14.5, "visible": "2/5", "crew": 1}, 11),
    ],
)
def test_odds_match_the_closed_form_and_every_face(question: dict[str, Any],
                                                  chance: int) -> None:
    values = odds(**question)
    fifths = int(question["visible"][0])
    assert values["chance_percent"] == chance
    one, expected = enumerate_hits(chance, fifths)
    assert F(values["hit"]).limit_denominator(10**9) == closed_hit(chance, fifths) == one
    assert values["expected_hits"] == pytest.approx(float(expected), abs=1e-12)
    assert values["automatic_hits"] == chance // 100
    assert sum(values["hits_distribution"].values()) == pytest.approx(1.0)


def test_the_seed_example_odds() -> None:
    doxey = odds(weapon="smg", skill=160, range=7, visible="2/5")
    assert doxey["band"] == "Eighth" and doxey["divisor"] == 8
    assert doxey["hit"] == pytest.approx(0.2 * 2 / 6)
    braun = odds(weapon="rifle", skill=110, range=7, visible="3/5")
    assert braun["band"] == "Half" and braun["chance_percent"] == 55
    assert braun["hit"] == pytest.approx(0.55 * 3 / 6)


def test_duck_back_is_a_dice_hit_that_cover_turns_away() -> None:
    values = odds(weapon="rifle", skill=110, range=7, visible="2/5")
    assert values["duck_back"] == pytest.approx(0.55 * 4 / 6)
    assert odds(weapon="pistol", skill=100, range=1, visible="5/5")["duck_back"] == \
        pytest.approx(1 / 6)


@pytest.mark.parametrize(
    "question",
    [
        {"weapon": "pistol", "skill": 100, "range": 5.5, "visible": "5/5"},
        {"weapon": "rifle", "skill": 100, "range": 25.1, "visible": "5/5"},
        {"weapon": "belt-lmg", "skill": 100, "range": 22, "visible": "5/5", "crew": 1},
        {"weapon": "rifle", "skill": 100, "range": 5, "visible": "5/5", "auto": True},
    ],
)
def test_impossible_firings_are_refused(question: dict[str, Any]) -> None:
    with pytest.raises(IllegalOrder):
        odds(**question)


def test_the_game_agrees_with_the_odds_over_every_face() -> None:
    """Skill 110 with a rifle at 7in at a target showing 2/5 (behind a window): every d100
    face and every cover face, fired in a real game."""
    scenario = make_scenario([figure("b1", "rifle", (3.1, 13), skill=110, initiative=3)],
                             [figure("r1", "rifle", (10.1, 13), initiative=1)])
    expected = F(0)
    for face in range(1, 101):
        covers = range(1, 7) if face <= 55 else [None]  # a miss rolls no cover die
        for cover in covers:
            game = forced_game(scenario, [face] if cover is None else [face, cover, 1])
            end(game, 2)
            act(game, "fire", "b1", target="r1")
            (shot,) = of_kind(game.log, "shot")
            assert shot["fifths"] == 2
            expected += F(1, 100) * F(1, len(covers)) * shot["confirmed"]
    assert expected == F(55, 100) * F(2, 6)
    assert odds(weapon="rifle", skill=110, range=7, visible="2/5")["hit"] == \
        pytest.approx(float(expected))


# ------------------------------------------------------------------------------ the CLI


def run(*args: str) -> Any:
    result = runner.invoke(cli.app, ["odds", "house-clearing", "shoot", *args])
    assert "Traceback" not in result.output
    return result


def test_cli_odds_of_the_seed_example() -> None:
    result = run("--weapon", "smg", "--skill", "160", "--range", "7", "--visible", "2/5",
                 "--json")
    assert result.exit_code == 0
    values = json.loads(result.output)
    assert values["hit"] == pytest.approx(1 / 15) and values["expected_hits"] == \
        pytest.approx(1 / 15)
    table = run("--weapon", "rifle", "--skill", "110", "--range", "7", "--visible", "3/5")
    assert table.exit_code == 0 and "Half band" in table.output and "27.50%" in table.output


def test_cli_out_of_range_says_so() -> None:
    result = run("--weapon", "pistol", "--skill", "110", "--range", "7", "--visible", "3/5")
    assert result.exit_code == 2 and "out of range" in result.output


def test_cli_automatic_fire_and_bad_choices() -> None:
    ok = run("--weapon", "assault-rifle", "--skill", "120", "--range", "4", "--visible",
             "5/5", "--auto", "--json")
    assert ok.exit_code == 0 and json.loads(ok.output)["row"] == "smg"
    assert run("--weapon", "rifle", "--skill", "1", "--range", "1", "--visible", "6/5")\
        .exit_code == 2
    assert run("--weapon", "rifle", "--skill", "100", "--range", "1").exit_code == 2
