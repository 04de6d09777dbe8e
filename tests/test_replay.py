"""Game logs: byte-for-byte determinism, verification, side views and bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibua.core.dice import ForcedDice
from fibua.core.errors import InputError
from fibua.core.game import Game, play_out
from fibua.core.orders import Order
from fibua.core.replay import (
    SideViewLog,
    log_lines,
    parse_log,
    replay,
    replay_log,
    side_log_lines,
    write_log,
)
from toy_ruleset import BLUE_SECRETS, TOY, toy_scenario

SCENARIO = toy_scenario()


def played(seed: int, game: Game | None = None) -> Game:
    game = game if game is not None else Game(SCENARIO, seed)
    play_out(game, {side: TOY.random_player(side, seed + 1) for side in SCENARIO.side_names})
    return game


def test_log_layout() -> None:
    lines = log_lines(played(3))
    entries = [json.loads(line) for line in lines]
    assert entries[0]["type"] == "header" and entries[0]["view"] is None
    assert entries[0]["seed"] == 3 and entries[0]["ruleset"] == "toy"
    assert entries[0]["scenario"]["scenario"]["name"] == "toy-duel"
    assert entries[-1]["type"] == "end" and len(entries[-1]["state_hash"]) == 64
    assert entries[1]["type"] == "event" and entries[1]["seq"] == 1
    first_order = next(i for i, e in enumerate(entries) if e["type"] == "order")
    assert entries[first_order + 1]["type"] == "event"
    assert all(
        line == json.dumps(json.loads(line), sort_keys=True, separators=(",", ":"))
        for line in lines
    )


def test_same_seed_and_orders_give_the_same_bytes() -> None:
    first, second = played(8), played(8)
    assert log_lines(first) == log_lines(second)
    assert first.state_hash() == second.state_hash()
    again = Game(SCENARIO, 8)
    for order in first.orders:
        again.apply(order)
    assert log_lines(again) == log_lines(first)


def test_a_written_log_replays(tmp_path: Path) -> None:
    game = played(5)
    path = tmp_path / "game.jsonl"
    assert write_log(game, path) == len(log_lines(game))
    report = replay(path)
    assert report.ok and report.check() is report
    assert report.orders == len(game.orders)
    assert report.state_hash == game.state_hash()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_any_game_replays(seed: int) -> None:
    game = played(seed)
    assert replay_log(parse_log("\n".join(log_lines(game)))).ok


def _tampered(lines: list[str], index: int, old: str, new: str) -> str:
    assert old in lines[index]
    changed = list(lines)
    changed[index] = changed[index].replace(old, new, 1)
    return "\n".join(changed) + "\n"


def _roll_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if '"kind":"shot"' in line)


def test_a_changed_die_is_found_at_its_line() -> None:
    lines = log_lines(played(6))
    index = _roll_line(lines)
    face = json.loads(lines[index])["data"]["roll"]["faces"][0]
    text = _tampered(lines, index, f'"faces":[{face}]', f'"faces":[{face % 6 + 1}]')
    report = replay_log(parse_log(text))
    assert report.mismatch is not None
    assert report.mismatch.line == index + 1
    assert report.mismatch.actual == lines[index]
    assert report.mismatch.expected == text.splitlines()[index]


def test_a_changed_hash_is_found_on_the_end_line() -> None:
    lines = log_lines(played(7))
    digest = json.loads(lines[-1])["state_hash"]
    report = replay_log(parse_log(_tampered(lines, len(lines) - 1, digest, "0" * 64)))
    assert report.mismatch is not None and report.mismatch.line == len(lines)


def test_a_refused_order_is_reported_at_its_line() -> None:
    lines = log_lines(played(9))
    index = next(i for i, line in enumerate(lines) if '"type":"order"' in line)
    order = json.loads(lines[index])
    order.update(kind="shoot", unit="zz", params={"target": "b1"})
    changed = list(lines)
    changed[index] = json.dumps(order, sort_keys=True, separators=(",", ":"))
    report = replay_log(parse_log("\n".join(changed)))
    assert report.mismatch is not None and report.mismatch.line == index + 1
    assert "refuse" in str(report.mismatch.actual)


def test_a_missing_line_is_found() -> None:
    lines = log_lines(played(10))
    del lines[2]
    report = replay_log(parse_log("\n".join(lines)))
    assert report.mismatch is not None and report.mismatch.line == 3


def test_a_side_log_hides_what_the_side_may_not_know() -> None:
    game = played(11)
    lines = side_log_lines(game, "red")
    text = "\n".join(lines)
    for secret in BLUE_SECRETS:
        assert secret not in text
    entries = [json.loads(line) for line in lines]
    header = entries[0]
    assert header["view"] == "red" and "seed" not in header
    assert [s.get("forces") is None for s in header["scenario"]["sides"]] == [False, True]
    assert "state_hash" not in entries[-1] and entries[-1]["type"] == "end"
    assert all(e["side"] == "red" for e in entries if e["type"] == "order")
    events = [e for e in entries if e["type"] == "event"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert all(e["to"] == ["*"] or "red" in e["to"] for e in events)


def test_a_side_log_cannot_be_replayed(tmp_path: Path) -> None:
    path = tmp_path / "red.jsonl"
    write_log(played(12), path, side="red")
    with pytest.raises(SideViewLog, match="cannot be replayed"):
        replay(path)


def test_unknown_side_for_a_side_log() -> None:
    with pytest.raises(InputError, match="green"):
        side_log_lines(played(1), "green")


def test_forced_dice_games_log_their_own_rolls() -> None:
    shot = Game(SCENARIO, 0).apply(Order("red", "shoot", "r1", {"target": "b1"}))[0]
    other = shot.data["roll"]["faces"][0] % 6 + 1  # any face but the seeded one
    forced = Game(SCENARIO, 0, rng=ForcedDice(seed=0, faces=[other]))
    forced.apply(Order("red", "shoot", "r1", {"target": "b1"}))
    shots = [json.loads(line) for line in log_lines(forced) if '"kind":"shot"' in line]
    assert shots[0]["data"]["roll"]["faces"] == [other]


def _header() -> str:
    return log_lines(Game(SCENARIO, 1))[0]


END = '{"type":"end","state_hash":"x","result":null}'


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ("", "", "empty"),
        ("not json\n", "line 1", "not valid JSON"),
        ("[1,2]\n", "line 1", "JSON object"),
        ('{"type":"event"}\n' + END, "line 1", "starts with a header"),
        ("HEADER\n", "line 1", "no end line"),
        ("HEADER\n" + '{"type":"move"}\n' + END, "line 2", "unknown entry type"),
        ("HEADER\n" + '{"type":"order","side":"red"}\n' + END, "line 2", "'kind'"),
        (
            "HEADER\n" + '{"type":"order","side":"red","kind":"pass","params":[]}\n' + END,
            "line 2",
            "'params'",
        ),
        ("HEADER\n" + END + "\n" + '{"type":"event"}', "line 2", "last line"),
        ("HEADER\n\n" + END, "line 2", "empty line"),
        ("HEADER\nHEADER\n" + END, "line 2", "second header"),
        (_header().replace('"format":1', '"format":9') + "\n" + END, "line 1", "format"),
        (_header().replace('"seed":1', '"seed":"x"') + "\n" + END, "line 1", "seed"),
        # past Python's own limits: the decoder's recursion, the int-to-str digit limit
        ("[" * 100_000 + "]" * 100_000 + "\n", "line 1", "not a log line"),
        ("HEADER\n" + '{"type":"order","n":' + "7" * 5000 + "}\n", "line 2", "digits"),
    ],
)
def test_malformed_logs_name_the_line(text: str, where: str, says: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_log(text.replace("HEADER", _header()), "bad.jsonl")
    problem = caught.value.problems[0]
    assert problem.source == "bad.jsonl" and problem.path == where
    assert says in problem.message


def test_a_bad_scenario_in_the_header_is_an_input_error() -> None:
    header = json.loads(_header())
    header["scenario"]["scenario"]["turns"] = 0
    text = json.dumps(header) + "\n" + END
    with pytest.raises(InputError, match="turns"):
        replay_log(parse_log(text, "bad.jsonl"))


def test_an_unreadable_log(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        replay(tmp_path / "missing.jsonl")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="cannot read"):
        replay(binary)
