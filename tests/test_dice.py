"""The dice generator and game seeds: a keyed hash, so the faces a side sees do not give the
seed away; reproducible for a seed given; unbiased; and kept out of a side's log."""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
import struct
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fibua.cli import main as cli
from fibua.core.dice import ForcedDice, Rng, derive_seed, new_seed, parse_dice, roll
from fibua.core.game import Game, play_out
from fibua.core.replay import log_lines, side_log_lines
from fibua.lab.engine import computers
from fibua.scenario.loader import load_scenario
from toy_ruleset import TOY_SCENARIO_TOML

D6 = parse_dice("d6")
BIG = 2**200 + 987_654_321  # its decimal digits cannot turn up in a log by chance

runner = CliRunner()


# -- the construction ------------------------------------------------------------------------


def test_known_answer_seed_7() -> None:
    """Pins the construction: any change to it changes every game, so it must be on purpose."""
    rng = Rng(7)
    assert [rng.next_u64() for _ in range(9)] == [
        0x70132E56E3EEF31C, 0x1AE7EC892A69465C, 0xE89D2461AD96D5B5, 0xF699ED18D45A7766,
        0x56DC1045555F0EE8, 0xBACCA920F8159BBF, 0xCE26E05EFC152A62, 0x35903A76853308DD,
        0x9E07D44CC0E6DADD,  # the first value of the second block
    ]
    rng = Rng(7)
    assert [rng.face(D6) for _ in range(12)] == [1, 1, 4, 5, 5, 4, 1, 4, 4, 6, 2, 6]
    assert derive_seed(7, "computer", "red") == int(
        "70830b8d65444cc935bc611a3e36c766b9b2517d3a36d92afbf4ff9a22c4f01", 16)


def test_the_stream_is_keyed_blake2b_over_the_block_number() -> None:
    """The construction as the module describes it, computed here with hashlib alone."""
    seed = 2**70 + 5
    seed_bytes = seed.to_bytes(seed.bit_length() // 8 + 1, "big", signed=True)
    key = hashlib.blake2b(seed_bytes, digest_size=64, person=b"fibua/seed-key").digest()
    expected = []
    for block in range(3):
        digest = hashlib.blake2b(block.to_bytes(16, "little"), digest_size=64, key=key,
                                 person=b"fibua/dice").digest()
        expected += struct.unpack("<8Q", digest)
    rng = Rng(seed)
    assert [rng.next_u64() for _ in range(24)] == expected


# -- seeds -------------------------------------------------------------------------------------


def test_a_seed_gives_the_same_stream_and_resumes_from_its_snapshot() -> None:
    a, b = Rng(42), Rng(42)
    first = [a.next_u64() for _ in range(21)]
    assert first == [b.next_u64() for _ in range(21)]
    resumed = Rng(**a.snapshot())  # mid-block: the counter alone says where
    assert a.snapshot() == {"seed": 42, "counter": 21}
    assert [resumed.below(6) for _ in range(50)] == [a.below(6) for _ in range(50)]


def test_different_seeds_give_different_streams() -> None:
    streams = {tuple(Rng(seed).next_u64() for _ in range(4)) for seed in range(200)}
    assert len(streams) == 200
    # no seed is cut to 64 bits: seeds equal modulo 2**64 differ
    assert Rng(2**64).next_u64() != Rng(0).next_u64()


def test_drawn_seeds_have_128_random_bits() -> None:
    seeds = [new_seed() for _ in range(64)]
    assert len(set(seeds)) == 64
    # each has 128 bits: all 64 falling below 2**127 would happen once in 2**64 runs
    assert max(seed.bit_length() for seed in seeds) == 128
    assert all(seed >= 0 for seed in seeds)


def test_huge_seeds_are_accepted_and_reproducible() -> None:
    a, b = Rng(2**200), Rng(2**200)
    assert [a.face(D6) for _ in range(40)] == [b.face(D6) for _ in range(40)]
    assert Rng(2**200).next_u64() != Rng(2**200 + 1).next_u64()
    assert Rng(2**10_000).snapshot() == {"seed": 2**10_000, "counter": 0}


def test_a_generator_copies_and_pickles_as_its_numbers() -> None:
    rng = Rng(BIG)
    rng.next_u64()
    copied, pickled = copy.deepcopy(rng), pickle.loads(pickle.dumps(rng))
    ahead = [rng.next_u64() for _ in range(10)]
    assert [copied.next_u64() for _ in range(10)] == ahead
    assert [pickled.next_u64() for _ in range(10)] == ahead


# -- fairness ----------------------------------------------------------------------------------


class _Scripted(Rng):
    """Hands out the given u64 values, to drive `below` down its rejection path."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = values

    def next_u64(self) -> int:
        self.counter += 1
        return self.values.pop(0)


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 10, 100])
def test_below_accepts_an_equal_share_of_values_for_each_result(n: int) -> None:
    """`below` keeps [0, limit) and maps x to x % n: limit must be a multiple of n, so
    every result has exactly limit // n values behind it, and the largest such multiple, so
    fewer than n values are ever thrown away."""
    top = 2**64 - 1
    accepted: list[int] = []
    for value in range(top, top - 2 * n - 1, -1):
        source = _Scripted([value, 5])
        result = source.below(n)
        if source.counter == 1:
            accepted.append(value)
            assert result == value % n
        else:
            assert result == 5 % n  # rejected: the next value was drawn
    limit = max(accepted) + 1
    assert limit % n == 0 and 2**64 - limit < n
    assert [v for v in range(top, top - 2 * n - 1, -1) if v not in accepted] == list(
        range(top, limit - 1, -1))


def test_below_draws_again_until_a_value_is_kept() -> None:
    # 2**64 % 6 == 4: the four values from 2**64 - 4 up would favour 0..3
    source = _Scripted([2**64 - 1, 2**64 - 2, 2**64 - 4, 13])
    assert source.below(6) == 1 and source.counter == 4
    assert _Scripted([2**64 - 3, 2**64 - 5]).below(6) == 5


def test_faces_are_uniform() -> None:
    """A sanity check at one seed: chi-square of 60,000 d6 against 20.5 (5 degrees of
    freedom, p = 0.001)."""
    rng = Rng(2024)
    counts = Counter(rng.face(D6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi2 = sum((count - 10_000) ** 2 / 10_000 for count in counts.values())
    assert chi2 < 20.5


def test_forced_dice_still_hand_out_their_faces() -> None:
    forced = ForcedDice(seed=0, faces=[6, 1])
    assert roll(forced, "2d6", "test").faces == (6, 1) and forced.counter == 2


# -- derived seeds -----------------------------------------------------------------------------


def test_derived_seeds_differ_by_label_and_by_game_seed() -> None:
    labels = [("computer", "red"), ("computer", "blue"), ("seat", "red", 0),
              ("seat", "red", 1), ("random", "red"), ("ab",), ("a", "b"), ("1",), (1,), ()]
    derived = {derive_seed(11, *label) for label in labels}
    assert len(derived) == len(labels)
    assert derive_seed(11, "computer", "red") == derive_seed(11, "computer", "red")
    assert derive_seed(12, "computer", "red") != derive_seed(11, "computer", "red")
    assert derive_seed(BIG, "computer", "red") != derive_seed(BIG + 1, "computer", "red")
    assert derive_seed(11, "computer", "red") not in {11, 12}


# -- games and logs ----------------------------------------------------------------------------


def test_the_lab_seats_computers_on_derived_seeds() -> None:
    scenario = load_scenario("farm-compound")
    results = []
    for _ in range(2):
        game = Game(scenario, BIG)
        results.append((play_out(game, computers(game, BIG)).to_dict(), game.state_hash()))
    assert results[0] == results[1]


def _autoplay(tmp_path: Path, name: str, *extra: str) -> str:
    toy = tmp_path / "toy.toml"
    toy.write_text(TOY_SCENARIO_TOML, encoding="utf-8")
    out = tmp_path / name
    result = runner.invoke(cli.app, ["autoplay", str(toy), "--seed", str(BIG), "--out",
                                     str(out), *extra])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_a_huge_seed_plays_the_same_game_again(tmp_path: Path) -> None:
    first = _autoplay(tmp_path, "a.jsonl")
    assert first == _autoplay(tmp_path, "b.jsonl")
    assert json.loads(first.splitlines()[0])["seed"] == BIG  # a full log keeps it, to replay
    replayed = runner.invoke(cli.app, ["replay", str(tmp_path / "a.jsonl")])
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize("side", ["red", "blue"])
def test_a_side_s_log_holds_neither_seed_nor_generator(tmp_path: Path, side: str) -> None:
    text = _autoplay(tmp_path, f"{side}.jsonl", "--as", side)
    assert "roll" in text  # it did see dice
    assert str(BIG) not in text and '"rng"' not in text and '"counter"' not in text
    assert all("seed" not in json.loads(line) for line in text.splitlines())


def test_a_side_s_log_of_a_real_scenario_holds_no_seed() -> None:
    scenario = load_scenario("farm-compound")
    game = Game(scenario, BIG)
    play_out(game, computers(game, BIG))
    assert str(BIG) in "\n".join(log_lines(game))
    for side in scenario.side_names:
        text = "\n".join(side_log_lines(game, side))
        assert str(BIG) not in text and '"rng"' not in text


def test_play_draws_a_secret_seed_when_none_is_given(tmp_path: Path) -> None:
    toy = tmp_path / "toy.toml"
    toy.write_text(TOY_SCENARIO_TOML, encoding="utf-8")
    seeds = []
    for n in range(2):
        out = tmp_path / f"{n}.jsonl"
        result = runner.invoke(cli.app, ["play", str(toy), "--out", str(out)], input="quit\n")
        assert result.exit_code == 0, result.output
        seeds.append(json.loads(out.read_text(encoding="utf-8").splitlines()[0])["seed"])
    assert seeds[0] != seeds[1] and max(seeds) >= 2**64  # once in 2**63 runs both fall short
