"""The exact odds of a Street-Fight firing against hand-worked closed forms, and against
brute-force enumeration of the dice (on paper and through the game itself)."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from fibua.core.dice import DiceExhausted, Modifier
from fibua.core.errors import IllegalOrder
from fibua.core.orders import Order
from fibua.rulesets.street_fight.odds import ShootQuestion, question_odds, shoot_odds
from fibua.rulesets.street_fight.shooting import (
    OverwatchKind,
    Situation,
    hit_basis,
    hit_terms,
    term_names,
)
from fibua.rulesets.street_fight.tables import WeaponName
from sf_helpers import figure, forced_game, make_scenario

# a hit kills on a d10 of at least: pistol 5, rifles 4, LMG 3, HMG 2
KILL_PER_HIT = {"pistol": F(6, 10), "rifle": F(7, 10), "scoped-rifle": F(7, 10),
                "assault-rifle": F(7, 10), "lmg": F(8, 10), "hmg": F(9, 10)}
# rounds per firing: one; ceil(d10/2) = 1..5 each 2 in 10; d10 = 1..10 each 1 in 10
MOST_ROUNDS = {"pistol": 1, "rifle": 1, "scoped-rifle": 1, "assault-rifle": 5, "lmg": 10,
               "hmg": 10}


def closed_kill(weapon: str, chance: int) -> F:
    """1 - mean over the rounds n of (1 - p)^n, p = hit x kill; the sum is geometric:
    sum_{n=1..N} q^n = q (1 - q^N) / (1 - q)."""
    p = F(chance, 100) * KILL_PER_HIT[weapon]
    q = 1 - p
    most = MOST_ROUNDS[weapon]
    if q == 1:
        return F(0)
    return 1 - q * (1 - q**most) / (1 - q) / most


def question(**kw: Any) -> ShootQuestion:
    return ShootQuestion.model_validate(kw)


def odds(weapon: str, **kw: Any) -> dict[str, Any]:
    return shoot_odds(question(weapon=weapon, **kw)).values


def check(values: dict[str, Any], weapon: str, chance: int) -> None:
    assert values["chance_percent"] == chance
    assert values["hit"] == float(F(chance, 100))
    assert values["kill_per_hit"] == float(KILL_PER_HIT[weapon])
    assert values["kill"] == pytest.approx(float(closed_kill(weapon, chance)), abs=1e-12)


# (weapon, question, chance to hit in percent, worked by hand)
CASES: list[tuple[str, dict[str, Any], int]] = [
    # range: 10% per increment or part of one
    ("rifle", {"range": 8}, 90),  # 100 - 20 + 10
    ("rifle", {"range": 8.1}, 80),  # 3 increments
    ("rifle", {"range": 0.1}, 100),  # 100 - 10 + 10
    ("pistol", {"range": 2}, 90),
    ("pistol", {"range": 2.1}, 80),
    ("pistol", {"range": 13}, 30),  # 7 increments
    ("scoped-rifle", {"range": 16}, 80),  # 100 - 40 + 20
    ("assault-rifle", {"range": 9}, 80),  # 100 - 30 + 10
    ("assault-rifle", {"range": 9.5}, 70),
    ("lmg", {"range": 10}, 70),
    ("hmg", {"range": 10}, 80),  # 2 increments of 5
    ("hmg", {"range": 10.5}, 70),
    # cover: 25% per quarter
    ("rifle", {"range": 8, "cover": "1/4"}, 65),
    ("rifle", {"range": 8, "cover": "1/2"}, 40),
    ("rifle", {"range": 8, "cover": "3/4"}, 15),
    # movement
    ("rifle", {"range": 8, "target_moving": True}, 70),
    ("rifle", {"range": 8, "firer_moving": True}, 70),
    ("rifle", {"range": 8, "target_moving": True, "firer_moving": True}, 50),
    # aiming: 10% a turn, three turns at most
    ("pistol", {"range": 8, "aim": 1}, 70),
    ("pistol", {"range": 8, "aim": 2}, 80),
    ("pistol", {"range": 8, "aim": 3}, 90),
    ("pistol", {"range": 8, "aim": 7}, 90),
    ("hmg", {"range": 15, "aim": 3}, 70),  # the HMG gets no aiming bonus
    # overwatch: -10 at a point, -20 over a large area, no aiming, weapon bonus kept
    ("rifle", {"range": 8, "overwatch": True}, 80),
    ("rifle", {"range": 8, "overwatch": True, "large_area": True}, 70),
    ("rifle", {"range": 8, "large_area": True}, 70),
    ("rifle", {"range": 8, "overwatch": True, "aim": 3}, 80),
    ("rifle", {"range": 8, "large_area": True, "aim": 2}, 70),
    ("scoped-rifle", {"range": 8, "overwatch": True}, 90),  # keeps its +20
    ("scoped-rifle", {"range": 12, "overwatch": True, "large_area": True, "aim": 3}, 70),
    ("lmg", {"range": 8, "overwatch": True, "target_moving": True}, 50),
    # clamped to 0..100
    ("scoped-rifle", {"range": 1}, 100),  # 110
    ("rifle", {"range": 1, "aim": 3}, 100),  # 130
    ("pistol", {"range": 22}, 0),  # -10
    ("hmg", {"range": 5, "cover": "3/4", "target_moving": True}, 0),  # -5
    # everything at once: -30 range, -25 cover, -20, -20, +20 aim, +10 rifle
    ("rifle", {"range": 9, "cover": "1/4", "target_moving": True, "firer_moving": True,
               "aim": 2}, 35),
]


@pytest.mark.parametrize(("weapon", "question", "chance"), CASES,
                         ids=[f"{w}-{q}" for w, q, _ in CASES])
def test_odds_match_the_closed_form(weapon: str, question: dict[str, Any], chance: int) -> None:
    check(odds(weapon, **question), weapon, chance)


def test_lmg_at_ten_inches() -> None:
    values = odds("lmg", range=10)
    assert values["hit"] == 0.7
    # kill = 1 - mean over r = 1..10 of (1 - 0.7 x 0.8)^r
    expected = 1 - sum((1 - F(7, 10) * F(8, 10)) ** r for r in range(1, 11)) / 10
    assert values["kill"] == pytest.approx(float(expected), abs=1e-12)
    assert values["rounds"] == 5.5
    # fire stops when the target falls: round k + 1 is fired while it stands after k
    stands = 1 - F(7, 10) * F(8, 10)
    fired = sum(sum((stands**k for k in range(r)), F(0)) for r in range(1, 11)) / 10
    assert values["expected_rounds_fired"] == pytest.approx(float(fired), abs=1e-12)
    assert values["expected_hits"] == pytest.approx(float(fired * F(7, 10)), abs=1e-12)


def test_single_shot_kill_is_hit_times_kill_roll() -> None:
    assert odds("pistol", range=4)["kill"] == pytest.approx(0.8 * 0.6)
    assert odds("rifle", range=8)["kill"] == pytest.approx(0.9 * 0.7)
    assert odds("rifle", range=8)["rounds"] == 1.0


def test_assault_rifle_rounds_are_one_to_five_evenly() -> None:
    values = odds("assault-rifle", range=9)
    p = F(8, 10) * F(7, 10)
    assert values["rounds"] == 3.0
    assert values["kill"] == pytest.approx(
        float(1 - sum((1 - p) ** r for r in range(1, 6)) / 5), abs=1e-12)


def test_modifiers_are_named_in_the_report() -> None:
    report = shoot_odds(question(weapon="scoped-rifle", range=9, cover="1/2",
                                      target_moving=True, overwatch=True, aim=2))
    assert report.values["modifiers"] == {
        "base": 100, "range 3 x 4in": -30, "cover 1/2": -50, "moving target": -20,
        "Scoped rifle bonus": 20, "overwatch": -10}
    assert ("chance to hit (each round)", "10%") in report.breakdown


def test_hmg_cannot_move_and_fire() -> None:
    with pytest.raises(IllegalOrder) as caught:
        shoot_odds(question(weapon="hmg", range=5, firer_moving=True))
    assert caught.value.code == "moved" and caught.value.reason


@pytest.mark.parametrize("weapon", ["pistol", "rifle", "scoped-rifle"])
def test_single_shot_weapons_cannot_spread(weapon: str) -> None:
    with pytest.raises(IllegalOrder) as caught:
        shoot_odds(question(weapon=weapon, range=5, targets=2, frontage=1))
    assert caught.value.code == "not-automatic"


@pytest.mark.parametrize("bad", [
    {"weapon": "flamethrower", "range": 4}, {"weapon": "rifle", "range": -1},
    {"weapon": "rifle", "range": 4, "cover": "1/3"}, {"weapon": "rifle", "range": 4, "aim": -1},
    {"weapon": "rifle", "range": 4, "smoke": True},
    {"weapon": "lmg", "range": 4, "spread": 2},  # the spread follows from the targets
    {"weapon": "lmg", "range": 4, "frontage": 2},  # a frontage needs two targets
    {"weapon": "lmg", "range": 4, "targets": 3, "at": [0, 1]},
    {"weapon": "lmg", "range": 4, "at": [0, 1], "frontage": 1},
    {"weapon": "lmg", "range": 4, "targets": 2, "covers": ["0"]},
    {"weapon": "lmg", "range": 4, "targets": 2, "ranges": [4, -1]},
    {"weapon": "lmg", "range": 4, "targets": 11},
    {"weapon": "lmg", "range": 4, "at": [0, float("nan")]},
    {"weapon": "lmg", "range": float("inf")},
])
def test_bad_questions_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        question(**bad)


# --------------------------------------------------------------- brute force on paper


def enumerate_kill(weapon: str, chance: int) -> F:
    """Walk every face: the rounds die, then per round every d100 face and, on a hit, every
    d10 face, stopping at the first kill. Round outcomes are grouped by the faces that
    give them, so the walk stays exact and small."""
    kill_at = {"pistol": 5, "rifle": 4, "scoped-rifle": 4, "assault-rifle": 4, "lmg": 3,
               "hmg": 2}[weapon]
    pairs = [(h, k) for h in range(1, 101) for k in range(1, 11)]
    killing = sum(1 for h, k in pairs if h <= chance and k >= kill_at)
    p = F(killing, len(pairs))

    def survive(rounds: int) -> F:
        return F(1) if rounds == 0 else (1 - p) * survive(rounds - 1)

    if weapon in ("assault-rifle", "lmg", "hmg"):
        faces = range(1, 11)
        counts = [-(-f // 2) if weapon == "assault-rifle" else f for f in faces]
    else:
        counts = [1]
    return 1 - sum((survive(n) for n in counts), F(0)) / len(counts)


@pytest.mark.parametrize(("weapon", "question", "chance"), [
    ("pistol", {"range": 5}, 70), ("rifle", {"range": 8.1, "cover": "1/4"}, 55),
    ("scoped-rifle", {"range": 4, "aim": 1}, 100), ("assault-rifle", {"range": 7}, 80),
    ("lmg", {"range": 10, "target_moving": True}, 50), ("hmg", {"range": 25}, 50),
])
def test_odds_match_enumerating_every_face(
    weapon: str, question: dict[str, Any], chance: int
) -> None:
    values = odds(weapon, **question)
    assert values["chance_percent"] == chance
    assert values["kill"] == pytest.approx(float(enumerate_kill(weapon, chance)), abs=1e-12)


# ------------------------------------------------------------ brute force in the game


def test_the_game_agrees_with_the_odds_over_every_face() -> None:
    """A rifle at 8.1in in the open: every d100 face and every d10 kill face, fired in a
    real game; the share that hits and kills is the odds' answer exactly."""
    scenario = make_scenario([figure("b1", "rifle", (20, 10))],
                             [figure("r1", "rifle", (20, 18.1))])
    hits = kills = 0
    for hit_face in range(1, 101):
        for kill_face in range(1, 11):
            game = forced_game(scenario, [2, 1, hit_face, kill_face])
            game.apply(Order("blue", "end"))
            game.apply(Order("red", "end"))
            events = game.apply(Order("blue", "shoot", "b1", {"target": "r1"}))
            (shot,) = [e.data for e in events if e.kind == "shot"]
            hits += shot["hit"]
            kills += shot["killed"]
    values = odds("rifle", range=8.1)
    assert F(hits, 1000) == F(values["chance_percent"], 100) == F(80, 100)
    assert F(kills, 1000) == F(80 * 7, 1000)
    assert values["kill"] == pytest.approx(kills / 1000, abs=1e-12)


def test_the_game_fires_the_mean_number_of_rounds_the_odds_give() -> None:
    scenario = make_scenario([figure("b1", "assault-rifle", (20, 10))],
                             [figure("r1", "rifle", (20, 22))])
    fired = 0
    for face in range(1, 11):
        rounds = -(-face // 2)
        game = forced_game(scenario, [2, 1, face] + [100] * rounds)
        game.apply(Order("blue", "end"))
        game.apply(Order("red", "end"))
        events = game.apply(Order("blue", "shoot", "b1", {"target": "r1"}))
        fired += sum(1 for e in events if e.kind == "shot")
    assert F(fired, 10) == F(3) == odds("assault-rifle", range=12)["rounds"]


@settings(max_examples=300, deadline=None)
@given(
    weapon=st.sampled_from(list(WeaponName)),
    overwatch=st.sampled_from(list(OverwatchKind)),
    ranges=st.tuples(st.floats(0, 60), st.floats(0, 60)),
    aims=st.tuples(st.integers(0, 5), st.integers(0, 5)),
    spreads=st.tuples(st.floats(0, 10), st.floats(0, 10)),
    cover=st.integers(0, 3),
    moving=st.tuples(st.booleans(), st.booleans()),
)
def test_a_remembered_basis_names_every_term_as_worked_out_afresh(
    weapon: WeaponName, overwatch: OverwatchKind, ranges: tuple[float, float],
    aims: tuple[int, int], spreads: tuple[float, float], cover: int,
    moving: tuple[bool, bool],
) -> None:
    # two situations asked in turn: the second may be answered from the first's memo
    for r, aim, spread in zip(ranges, aims, spreads, strict=True):
        s = Situation(weapon, r, cover, moving[0], moving[1], aim, overwatch, spread)
        fresh = tuple(Modifier(name, value) for i, (name, value)
                      in enumerate(zip(term_names(s), hit_terms(s), strict=True))
                      if value or i == 0)
        assert hit_basis(s) == fresh


# ------------------------------------------------------- fire spread over several targets


def test_spread_odds_on_paper_two_targets_two_inches_apart() -> None:
    """An LMG at 8in, two targets 2in apart in the open: one round goes to the first target
    alone at 80%; two or more cover both at -20% spread (60%), shared in turn, the first
    target taking the odd round. Kill 3+: 8 in 10."""
    values = odds("lmg", range=8, targets=2, frontage=2)
    alone, spread = 1 - F(8, 10) * F(8, 10), 1 - F(6, 10) * F(8, 10)  # a round misses its kill
    first = (1 - alone + sum((1 - spread ** -(-r // 2) for r in range(2, 11)), F(0))) / 10
    second = sum((1 - spread ** (r // 2) for r in range(2, 11)), F(0)) / 10
    assert values["targets"][0]["removed"] == pytest.approx(float(first), abs=1e-12)
    assert values["targets"][1]["removed"] == pytest.approx(float(second), abs=1e-12)
    both = sum(((1 - spread ** -(-r // 2)) * (1 - spread ** (r // 2)) for r in range(2, 11)),
               F(0)) / 10
    assert values["removed"]["2"] == pytest.approx(float(both), abs=1e-12)
    assert values["kill"] == pytest.approx(float(first + second - both), abs=1e-12)
    assert values["expected_removed"] == pytest.approx(float(first + second), abs=1e-12)
    assert [b["chance_percent"] for b in values["bursts"]] == [[80]] + [[60, 60]] * 9
    assert [b["rounds_each"] for b in values["bursts"]][:4] == [[1], [1, 1], [2, 1], [2, 2]]
    assert "hit" not in values  # with several targets a round's chance depends on the rounds


def test_the_seed_example_six_rounds_over_six_inches() -> None:
    """The seed's LMG: 6 rounds over a 6in frontage, each at -60%. Targets 6in apart are
    covered together only by 6 rounds or more."""
    values = odds("lmg", range=4, targets=2, frontage=6)
    covering = [b for b in values["bursts"] if b["targets"] == [1, 2]]
    assert [b["rounds"] for b in covering] == [6, 7, 8, 9, 10]
    assert all(b["spread"] == 6 and b["chance_percent"] == [30, 30] for b in covering)
    assert all(b["chance_percent"] == [90] for b in values["bursts"] if b["rounds"] < 6)


def test_a_single_target_is_never_spread_on() -> None:
    one = odds("hmg", range=10)
    assert all(b["spread"] == 0 and b["targets"] == [1] for b in one["bursts"])
    assert one["kill"] == pytest.approx(one["targets"][0]["removed"])
    assert one["removed"]["1"] == pytest.approx(one["kill"])


def test_targets_too_wide_for_the_weapon_are_refused_as_the_game_does() -> None:
    with pytest.raises(IllegalOrder) as caught:
        shoot_odds(question(weapon="assault-rifle", range=4, at=[0, 5.01]))
    assert caught.value.code == "too-wide"
    with pytest.raises(IllegalOrder) as caught:
        shoot_odds(question(weapon="lmg", range=4, targets=2, frontage=2, overwatch=True))
    assert caught.value.code == "overwatch"
    assert odds("assault-rifle", range=4, at=[0, 5])["bursts"][-1]["targets"] == [1, 2]


def test_the_odds_report_says_how_the_rounds_spread() -> None:
    report = shoot_odds(question(weapon="lmg", range=8, targets=3, frontage=4))
    assert report.breakdown[:3] == [
        ("1 round: target 1 alone", "80% per round"),
        ("2-3 rounds: targets 1, 2 over 2in", "60%, 60% per round"),
        ("4-10 rounds: targets 1, 2, 3 over 4in", "40%, 40%, 40% per round"),
    ]


# the game's layout for spread fire: b1 (assault rifle) south of the low wall at (5, 1);
# three red figures on the line y = 6.5 at x 7, 8.5 and 10. The first is within 1in behind
# the wall (1/2 cover), the line of fire to the others passes east of its end. Ranges
# 5.85, 6.52 and 7.43in: 2, 3 and 3 increments of 3in (an LMG: 2, 2 and 2 of 4in).
SPREAD_AT = [7.0, 8.5, 10.0]
SPREAD_QUESTION = {"weapon": "assault-rifle", "range": 9, "ranges": [5.86, 6.52, 7.44],
                   "covers": ["1/2", "0", "0"], "at": SPREAD_AT}


def spread_scenario(weapon: str = "assault-rifle") -> Any:
    return make_scenario([figure("b1", weapon, (5, 1))],
                         [figure(f"r{i}", "rifle", (x, 6.5)) for i, x in enumerate(SPREAD_AT, 1)])


def fire_in_game(scenario: Any, faces: list[int]) -> list[Any]:
    game = forced_game(scenario, [2, 1, *faces])
    game.apply(Order("blue", "end"))
    game.apply(Order("red", "end"))
    return game.apply(Order("blue", "shoot", "b1", {"targets": ["r1", "r2", "r3"]}))


@pytest.mark.parametrize("weapon", ["assault-rifle", "lmg"])
def test_the_game_spreads_the_rounds_as_the_odds_say(weapon: str) -> None:
    """For every face of the rounds die, with every round missing: the targets each round
    goes to and its chance to hit are those of the odds' bursts."""
    found = question_odds(question(**(SPREAD_QUESTION | {"weapon": weapon})))
    for face in range(1, 11):
        rounds = -(-face // 2) if weapon == "assault-rifle" else face
        events = fire_in_game(spread_scenario(weapon), [face] + [100] * rounds)
        shots = [(e.data["target"], e.data["roll"]["need"]) for e in events if e.kind == "shot"]
        (burst,) = [b for b in found.bursts if b.rounds == rounds]
        expected = []
        for k in range(rounds):
            n = k % len(burst.covered)
            expected.append((f"r{burst.covered[n] + 1}", burst.hit[n]))
        assert shots == expected


def test_the_game_agrees_with_the_spread_odds_over_every_outcome() -> None:
    """Every way the dice can fall, played in the game: the rounds die face by face, and
    for each round a hitting and a missing d100 face and a killing and a sparing d10 face,
    each weighted by how many faces it stands for (read from the need the game recorded).
    The chances of each target falling, the number that fall, and the expected hits and
    rounds are the odds' fractions exactly."""
    scenario = spread_scenario()
    removed = [F(0)] * 3
    hits = [F(0)] * 3
    fired = [F(0)] * 3
    exactly = [F(0)] * 4
    leaves = 0

    def walk(prefix: list[int]) -> None:
        nonlocal leaves
        try:
            events = fire_in_game(scenario, prefix)
        except DiceExhausted:
            for face in _next_faces(prefix):
                walk([*prefix, face])
            return
        leaves += 1
        weight = F(1, 10)  # the rounds die's face
        dead = set()
        for e in events:
            if e.kind == "casualty":
                dead.add(int(e.data["figure"][1:]) - 1)
            if e.kind != "shot":
                continue
            need = e.data["roll"]["need"]
            weight *= F(need if e.data["roll"]["faces"] == [1] else 100 - need, 100)
            if "kill_roll" in e.data:
                kill_need = e.data["kill_roll"]["need"]
                weight *= F(11 - kill_need if e.data["killed"] else kill_need - 1, 10)
        for e in events:
            if e.kind == "shot":
                n = int(e.data["target"][1:]) - 1
                fired[n] += weight
                hits[n] += weight * e.data["hit"]
        for n in dead:
            removed[n] += weight
        exactly[len(dead)] += weight

    walk([])
    found = question_odds(question(**SPREAD_QUESTION))
    assert sum(exactly) == 1 and leaves > 100
    assert [t.removed for t in found.targets] == removed
    assert [t.hits for t in found.targets] == hits
    assert [t.rounds for t in found.targets] == fired
    assert list(found.removed) == exactly


def _next_faces(prefix: list[int]) -> list[int]:
    """The faces to try for the roll after `prefix`: every face of the rounds die first;
    after a d100 of 1 (a hit: every chance here is 1..99) a kill roll, 10 killing and 1
    sparing; otherwise the next round's d100, 1 hitting and 100 missing."""
    if not prefix:
        return list(range(1, 11))
    kill_roll_next = False
    for face in prefix[1:]:
        kill_roll_next = not kill_roll_next and face == 1
    return [10, 1] if kill_roll_next else [1, 100]


@settings(max_examples=150, deadline=None)
@given(
    weapon=st.sampled_from(["assault-rifle", "lmg", "hmg"]),
    places=st.lists(st.floats(0, 5), min_size=1, max_size=4),
    ranges=st.lists(st.floats(0, 40), min_size=4, max_size=4),
    covers=st.lists(st.sampled_from(["0", "1/4", "1/2", "3/4"]), min_size=4, max_size=4),
)
def test_the_spread_odds_add_up(weapon: str, places: list[float], ranges: list[float],
                                covers: list[str]) -> None:
    n = len(places)
    found = question_odds(question(weapon=weapon, range=1, at=places, ranges=ranges[:n],
                                   covers=covers[:n]))
    assert sum(found.removed) == 1
    assert found.expected_removed == sum(t.removed for t in found.targets)
    assert sum(b.chance for b in found.bursts) == 1
    assert found.rounds == sum(b.chance * b.rounds for b in found.bursts)
    for b in found.bursts:
        assert sum(b.shares) == b.rounds and b.covered[0] == 0
        assert len(b.covered) <= b.rounds
    for t in found.targets:
        assert 0 <= t.hits <= t.rounds and 0 <= t.removed <= 1


def test_targets_named_by_number_stand_evenly_over_the_frontage() -> None:
    # the seed spreads a burst's shots over a frontage in inches: three targets over 3in
    # stand at 0, 1.5 and 3in along it
    assert question(weapon="lmg", range=8, targets=3, frontage=3).places == [0.0, 1.5, 3.0]
    assert question(weapon="lmg", range=8, targets=4, frontage=1).places == pytest.approx(
        [0.0, 1 / 3, 2 / 3, 1.0])


def test_the_odds_report_of_several_targets_gives_each_its_chance() -> None:
    # spread fire over several targets: each has its own chance to be removed, and the
    # firing's is that of removing at least one, not one target's
    rows = dict(shoot_odds(question(weapon="lmg", range=8, targets=2, frontage=2)).breakdown)
    assert "chance this firing removes the target" not in rows
    assert {"target 1: removed", "target 2: removed", "target 1: expected hits",
            "chance at least one target is removed", "expected targets removed"} <= set(rows)
    one = dict(shoot_odds(question(weapon="lmg", range=8)).breakdown)
    assert "chance this firing removes the target" in one and "target 1: removed" not in one
