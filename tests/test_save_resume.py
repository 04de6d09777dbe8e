"""Save files: every order on disk as it is given; a game carried on from one has the same
state; a last line cut short is dropped; a save that does not replay is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fibua.core.errors import InputError, ReplayMismatch
from fibua.core.game import Game, play_out
from fibua.core.journal import Journal, resume_game
from fibua.core.orders import Order
from fibua.core.replay import log_lines, replay
from toy_ruleset import TOY, toy_scenario
from toy_steps import scenario_of

SCENARIO = toy_scenario(turns=6)


def players(seed: int) -> dict[str, object]:
    return {side: TOY.random_player(side, seed + i) for i, side in enumerate(SCENARIO.side_names)}


def test_each_order_is_on_disk_as_soon_as_it_is_given(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    game = Game(SCENARIO, 4)
    Journal.begin(game, save)
    assert save.read_text().splitlines() == log_lines(game)[:-1]  # header and set-up
    game.apply(Order("red", "pass"))
    game.apply(Order("blue", "shoot", "b1", {"target": "r1"}))
    # no end line yet: exactly what a crash would leave
    assert save.read_text().splitlines() == log_lines(game)[:-1]


def test_a_resumed_game_has_the_same_state(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    game = Game(SCENARIO, 4)
    Journal.begin(game, save)
    for order in [Order("red", "pass"), Order("blue", "shoot", "b1", {"target": "r2"})]:
        game.apply(order)
    resumed = resume_game(save)  # as after kill -9: no end line
    assert not resumed.closed and resumed.notes == []
    assert resumed.game.state_hash() == game.state_hash()
    assert resumed.game.orders == game.orders


def test_closing_makes_a_complete_log_that_replays(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    game = Game(SCENARIO, 7)
    journal = Journal.begin(game, save)
    play_out(game, players(7))  # type: ignore[arg-type]
    journal.close()
    assert save.read_text().splitlines() == log_lines(game)
    assert replay(save).ok
    resumed = resume_game(save)
    assert resumed.closed and resumed.game.state_hash() == game.state_hash()
    assert resumed.game.over


def test_a_game_goes_on_being_saved_after_a_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    game = Game(SCENARIO, 2)
    journal = Journal.begin(game, save)
    game.apply(Order("red", "pass"))
    journal.close()  # a Ctrl-C: the end line is written
    resumed = resume_game(save).game
    journal = Journal.begin(resumed, save)
    play_out(resumed, players(2))  # type: ignore[arg-type]
    journal.close()
    whole = Game(SCENARIO, 2)
    for order in resumed.orders:
        whole.apply(order)
    assert save.read_text().splitlines() == log_lines(whole)


def test_a_torn_last_line_is_dropped_with_a_message(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    game = Game(SCENARIO, 4)
    Journal.begin(game, save)
    game.apply(Order("red", "pass"))
    at_one = game.state_hash()
    game.apply(Order("blue", "pass"))
    text = save.read_bytes()
    last_order = text.rindex(b'{"kind":"pass","side":"blue"')
    for cut in (last_order + 5, last_order + 20):  # the second order's line cut short
        save.write_bytes(text[:cut])
        resumed = resume_game(save)
        assert resumed.game.state_hash() == at_one and len(resumed.game.orders) == 1
        assert len(resumed.notes) == 1 and "cut short" in resumed.notes[0]
    # an order whose events were cut off is whole: its events are played again
    save.write_bytes(text[: text.index(b"\n", last_order) + 1])
    resumed = resume_game(save)
    assert resumed.notes == [] and resumed.game.state_hash() == game.state_hash()


def test_a_save_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    game = Game(SCENARIO, 4)
    Journal.begin(game, save)
    game.apply(Order("red", "shoot", "r1", {"target": "b1"}))
    lines = save.read_text().splitlines()
    shot = next(i for i, line in enumerate(lines) if '"kind":"shot"' in line)
    entry = json.loads(lines[shot])
    entry["data"]["hit"] = not entry["data"]["hit"]
    lines[shot] = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    save.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayMismatch) as caught:
        resume_game(save)
    assert caught.value.line == shot + 1


def test_bad_saves_are_refused_with_the_line(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    save.write_text("")
    with pytest.raises(InputError, match="empty"):
        resume_game(save)
    save.write_text('{"type":"event"}\n')
    with pytest.raises(InputError, match="header"):
        resume_game(save)
    with pytest.raises(InputError, match="cannot read"):
        resume_game(tmp_path / "missing.jsonl")


def test_undo_rewrites_the_save(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    game = Game(scenario_of("toy-steps"), 1)
    Journal.begin(game, save)
    game.apply(Order("red", "step", "r1", {"dx": 2}))
    game.apply(Order("red", "step", "r2", {"dx": 1}))
    game.undo("red")
    assert save.read_text().splitlines() == log_lines(game)[:-1]
    assert resume_game(save).game.state_hash() == game.state_hash()
