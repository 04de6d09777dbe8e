"""`fibua lab run`: a row a game, the same rows whatever the number of processes, and
bad input refused with a message and status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from fibua.core.dice import derive_seed
from fibua.core.game import Game, play_out
from fibua.core.orders import Order
from fibua.core.search import Budget
from fibua.lab.engine import computers
from fibua.lab.ladder import LADDER_BUDGET
from fibua.lab.records import count_rolls
from fibua.lab.seats import PLAYERS, Seats
from fibua.lab.store import read_info, read_rows
from fibua.scenario.loader import load_scenario
from lab_helpers import lab, six_games


@pytest.fixture(scope="module")
def one_job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return six_games(tmp_path_factory.mktemp("lab") / "one")


def test_rows_are_the_same_with_one_job_or_two(one_job: Path, tmp_path: Path) -> None:
    result = lab("run", "corner-shop", "--games", "6", "--seed-start", "40", "--jobs", "2",
                 "--out", str(tmp_path / "two"))
    assert result.exit_code == 0, result.output
    one, two = list(read_rows(one_job)), list(read_rows(tmp_path / "two"))
    assert [r.seed for r in one] == list(range(40, 46))
    assert one == two


def test_a_row_is_the_game_that_seed_plays(one_job: Path) -> None:
    row = next(iter(read_rows(one_job)))
    scenario = load_scenario("corner-shop")
    game = Game(scenario, row.seed)
    result = play_out(game, computers(game, row.seed))
    assert (row.winner, row.reason, row.scores) == (result.winner, result.reason,
                                                    result.scores)
    assert row.orders == len(game.orders)
    assert row.rolls == sum(count_rolls(e.data) for e in game.log) > 0
    assert row.turns == sum(1 for e in game.log if e.kind == "turn")
    lost = {e.data["figure"]: e.turn for e in game.log if e.kind == "casualty"}
    assert {f.id: f.turn for f in row.falls} == lost
    for side in scenario.side_names:
        assert row.casualties[side] == sum(1 for f in row.falls if f.side == side)
        where = {f["id"]: (f["x"], f["y"]) for f in game.view(side)["own"]}
        for fall in (f for f in row.falls if f.side == side):
            assert (fall.x, fall.y) == pytest.approx(where[fall.id], abs=0.01)


def test_the_shop_is_held_turn_by_turn(one_job: Path) -> None:
    rows = list(read_rows(one_job))
    for row in rows:
        turns = [h.turn for h in row.holders]
        assert turns == sorted(turns) and set(turns) == set(range(1, row.turns + 1))
        assert {h.holder for h in row.holders} <= {"british", "germans", "contested", None}
    # the Germans start in the shop, so it is theirs at the end of the first turn somewhere
    assert any(h.turn == 1 and h.holder == "germans" for r in rows for h in r.holders)


def test_the_run_says_what_was_played(one_job: Path) -> None:
    info = read_info(one_job)
    assert info.name == "corner-shop"
    assert info.seats == {"british": "computer", "germans": "computer"}
    assert (info.seed_start, info.games, info.overrides) == (40, 6, [])
    assert info.budget is None  # a hard computer would weigh the play budget


def test_a_budget_is_what_the_hard_seats_weigh(tmp_path: Path) -> None:
    """`--budget` sets what a hard computer's decision weighs, kept with the run (so a
    resumed run weighs it too); the fields left out keep the lab budget's."""
    result = lab("run", "corner-shop", "--games", "1", "--seed-start", "3",
                 "--seat", "british=hard", "--budget", "worlds=1,horizon=4",
                 "--out", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    weighed = Budget(candidates=LADDER_BUDGET.candidates, worlds=1, horizon=4)
    assert read_info(tmp_path / "r").budget == weighed
    row = next(iter(read_rows(tmp_path / "r")))
    game = Game(load_scenario("corner-shop"), 3)
    seats = Seats({"british": "hard", "germans": "computer"}, budget=weighed)
    played = play_out(game, seats(game, 3))
    assert (row.winner, row.reason, row.orders) == (played.winner, played.reason,
                                                    len(game.orders))


def test_seats_choose_the_players(tmp_path: Path) -> None:
    result = lab("run", "corner-shop", "--games", "2", "--seat", "british=random",
                 "--out", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    row = next(iter(read_rows(tmp_path / "r")))
    assert row.players == {"british": "random", "germans": "computer"}
    scenario = load_scenario("corner-shop")
    game = Game(scenario, 0)
    rules = game.ruleset
    played = play_out(game, {
        "british": rules.random_player("british", derive_seed(0, "random", "british")),
        "germans": rules.computer("germans", derive_seed(0, "computer", "germans"))})
    assert (row.winner, row.reason, row.orders) == (played.winner, played.reason,
                                                    len(game.orders))


@pytest.mark.parametrize(("args", "message"), [
    (["no-such-scenario"], "no bundled scenario"),
    (["corner-shop", "--seat", "russians=computer"], "no side 'russians'"),
    (["corner-shop", "--seat", "british=genius"], "no player 'genius'"),
    (["corner-shop", "--seat", "british"], "is not SIDE=PLAYER"),
    (["corner-shop", "--set", "moral=false"], "no option or scenario field 'moral'"),
    (["corner-shop", "--set", "turns=0"], "scenario.turns"),
    (["corner-shop", "--games", "0"], "--games"),
    (["corner-shop", "--jobs", "0"], "--jobs"),
    (["corner-shop", "--frobnicate"], "--frobnicate"),
    (["corner-shop", "--budget", "worlds=0"], "is not NAME=COUNT"),
    (["corner-shop", "--budget", "depth=3"], "is not NAME=COUNT"),
])
def test_bad_input_is_refused_with_a_message(args: list[str], message: str,
                                             tmp_path: Path) -> None:
    result = lab("run", *args, "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "x" / "games.sqlite").exists()


def test_a_folder_holding_a_run_is_not_overwritten(one_job: Path) -> None:
    result = lab("run", "corner-shop", "--games", "1", "--out", str(one_job))
    assert result.exit_code == 2
    assert "already holds a run" in result.output
    assert len(list(read_rows(one_job))) == 6


class Faulty:
    def choose(self, view: object, legal: object) -> Order:
        raise ZeroDivisionError("a player's own fault")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_game_names_its_seed(jobs: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYERS, "faulty", lambda rules, side, seed, notes: Faulty())
    result = lab("run", "corner-shop", "--games", "1", "--seed-start", "7", "--jobs", jobs,
                 "--seat", "germans=faulty", "--out", str(tmp_path / "f"))
    assert result.exit_code == 1
    assert "the game of seed 7 failed: ZeroDivisionError: a player's own fault" in result.output


@pytest.mark.parametrize(("games", "jobs"), [(1000, 2), (1000, 1), (37, 2), (5, 4), (0, 2)])
def test_the_seeds_are_cut_into_runs_that_shorten_toward_the_end(games: int,
                                                                   jobs: int) -> None:
    """Every seed once, in order; no run longer than MAX_CHUNK; runs never lengthen, and
    the last ones hold a seed each, so no process is left alone with a long run."""
    from fibua.lab.runner import MAX_CHUNK, chunks

    seeds = list(range(100, 100 + games))
    parts = chunks(seeds, jobs)
    assert [s for part in parts for s in part] == seeds
    sizes = [len(part) for part in parts]
    assert all(1 <= n <= MAX_CHUNK for n in sizes)
    assert sizes == sorted(sizes, reverse=True)
    if games:
        assert sizes[-jobs:] == [1] * min(jobs, len(sizes))
    if games == 1000:
        assert sizes[0] == MAX_CHUNK and len(parts) < 150
