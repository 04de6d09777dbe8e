"""One scenario, seed and assignment of seats gives the same game through every front end:
`fibua autoplay`, `fibua play --watch` (the computer in every seat), a server game whose
seats are all the computer's, and a lab row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fibua.cli import main as cli
from fibua.lab.store import read_rows
from lab_helpers import lab
from server_helpers import client_on, server, settled, wait_until

#: one scenario of each rule set (a short one where there is a choice) and a seed
GAMES = [("corner-shop", 5), ("normandy-village", 5), ("ramp-houses", 5),
         ("village-street", 5)]
runner = CliRunner()


def _end(log: Path) -> dict[str, object]:
    last: dict[str, object] = json.loads(log.read_text().splitlines()[-1])
    return last


def orders_in(log: Path) -> int:
    return sum(1 for line in log.read_text().splitlines() if '"type":"order"' in line)


def autoplayed(scenario: str, seed: int, tmp: Path) -> dict[str, object]:
    out = tmp / "autoplay.jsonl"
    result = runner.invoke(cli.app, ["autoplay", scenario, "--seed", str(seed),
                                     "--out", str(out)])
    assert result.exit_code == 0, result.output
    return _end(out)


def watched(scenario: str, seed: int, tmp: Path) -> dict[str, object]:
    out = tmp / "play.jsonl"
    result = runner.invoke(cli.app, ["play", scenario, "--seed", str(seed), "--watch",
                                     "--out", str(out), "--save", str(tmp / "play.save")],
                           input="")
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    return _end(out)


def served(scenario: str, seed: int, tmp: Path) -> str:
    with client_on(tmp / "server.sqlite") as client:
        made = client.post("/api/games", json={"scenario": scenario, "seed": seed,
                                               "seats": {}})
        assert made.status_code in (200, 201), made.text
        game_id = made.json()["id"]
        wait_until(lambda: settled(client, game_id))
        live = server(client).hub.live(game_id)
        assert live.game.over
        return live.state_hash()


@pytest.mark.parametrize(("scenario", "seed"), GAMES)
def test_every_front_end_plays_the_same_game(scenario: str, seed: int,
                                             tmp_path: Path) -> None:
    auto = autoplayed(scenario, seed, tmp_path)
    play = watched(scenario, seed, tmp_path)
    assert play["state_hash"] == auto["state_hash"]
    assert served(scenario, seed, tmp_path) == auto["state_hash"]
    result = lab("run", scenario, "--games", "1", "--seed-start", str(seed),
                 "--out", str(tmp_path / "lab"))
    assert result.exit_code == 0, result.output
    (row,) = read_rows(tmp_path / "lab")
    outcome = auto["result"]
    assert isinstance(outcome, dict)
    assert (row.seed, row.winner, row.reason, row.scores) == (
        seed, outcome["winner"], outcome["reason"], outcome["scores"])
    assert row.orders == orders_in(tmp_path / "autoplay.jsonl")
