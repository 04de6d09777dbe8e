"""`tools/same_games.py`: a game's line is its seed and the hash of the game the lab plays
for that seed (the computer on every side, or a hard one at the lab budget on one side),
so two trees that print the same lines played the same games."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fibua.core.game import Game, play_out
from fibua.lab.ladder import LADDER_BUDGET
from fibua.lab.seats import Seats
from fibua.scenario.loader import load_scenario

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
import same_games


def _lab_hash(players: dict[str, str], seed: int, hard: bool) -> str:
    scenario = load_scenario("corner-shop")
    seats = Seats(players, budget=LADDER_BUDGET if hard else None)
    game = Game(scenario, seed)
    play_out(game, seats(game, seed))
    return game.state_hash()


@pytest.mark.parametrize(("extra", "players", "hard"), [
    ([], {"british": "computer", "germans": "computer"}, False),
    (["--hard", "1"], {"british": "computer", "germans": "hard"}, True),
])
def test_a_line_is_the_hash_of_the_labs_game(extra: list[str], players: dict[str, str],
                                            hard: bool, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["same_games.py", "corner-shop", "7", "1", *extra])
    same_games.main()
    out, err = capsys.readouterr()
    assert out.split() == ["7", _lab_hash(players, 7, hard)]
    assert "CPU-s per 1,000" in err
