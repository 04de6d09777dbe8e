"""The engine through the toy rule set: apply, illegal orders, turns, game over, dice."""

from __future__ import annotations

import gc
from dataclasses import dataclass
from math import isfinite

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibua.core.dice import ForcedDice, Modifier, Rng, parse_dice, roll
from fibua.core.errors import DiceExhausted, IllegalOrder
from fibua.core.game import Game, chosen, play_out
from fibua.core.orders import Order
from fibua.core.params import point
from fibua.lab.engine import computers
from fibua.scenario.loader import load_scenario
from toy_ruleset import TOY, toy_scenario

SCENARIO = toy_scenario()


def shoot(side: str, unit: str, target: str) -> Order:
    return Order(side, "shoot", unit, {"target": target})


def test_apply_returns_the_events_and_logs_them() -> None:
    game = Game(SCENARIO, 1)
    set_up = len(game.log)
    order = shoot("red", "r1", "b1")
    events = game.apply(order)
    assert events and events[0].kind == "shot"
    assert events[0].data["roll"]["dice"] == "d6"
    assert game.log[set_up:] == events
    assert game.orders == [order]
    assert game.to_act() == "blue"


ILLEGAL = [
    Order("red", "fly", "r1"),
    Order("red", "shoot", "r1", {"target": "r2"}),
    Order("red", "shoot", "b1", {"target": "b2"}),
    Order("red", "shoot", "r1", {"target": "b1", "extra": 1}),
    Order("red", "shoot", None, {"target": "b1"}),
    Order("red", "shoot", "r1", {"target": 3}),
    Order("red", "pass", "r1"),
]


@pytest.mark.parametrize("order", ILLEGAL, ids=str)
def test_illegal_orders_change_nothing(order: Order) -> None:
    game = Game(SCENARIO, 2)
    before = (game.state_hash(), list(game.log), list(game.orders))
    with pytest.raises(IllegalOrder) as caught:
        game.apply(order)
    assert caught.value.reason
    assert (game.state_hash(), game.log, game.orders) == before


def test_only_the_side_to_act_gives_orders() -> None:
    game = Game(SCENARIO, 3)
    before = game.state_hash()
    with pytest.raises(IllegalOrder) as caught:
        game.apply(Order("blue", "pass"))
    assert caught.value.code == "not-your-turn"
    assert "red" in caught.value.reason
    assert game.state_hash() == before


def test_no_orders_once_the_game_is_over() -> None:
    game = Game(toy_scenario(turns=1), 4)
    game.apply(Order("red", "pass"))
    game.apply(Order("blue", "pass"))
    assert game.over and game.to_act() is None
    result = game.result()
    assert result is not None and result.winner is None
    with pytest.raises(IllegalOrder) as caught:
        game.apply(Order("red", "pass"))
    assert caught.value.code == "game-over"


def test_play_out_ends_with_a_result() -> None:
    game = Game(SCENARIO, 5)
    players = {side: TOY.random_player(side, 9) for side in SCENARIO.side_names}
    result = play_out(game, players)
    assert result == game.result()
    assert game.over


def test_forced_dice_decide_the_shots() -> None:
    game = Game(SCENARIO, 0, rng=ForcedDice(seed=0, faces=[6, 3]))
    hit = game.apply(shoot("red", "r1", "b1"))
    assert hit[0].data["hit"] is True and hit[0].data["roll"]["faces"] == [6]
    assert [e.kind for e in hit] == ["shot", "casualty"]
    assert hit[1].to == ("blue",)
    miss = game.apply(shoot("blue", "b2", "r1"))
    assert miss[0].data["hit"] is False
    with pytest.raises(DiceExhausted):
        game.apply(shoot("red", "r1", "b2"))


def test_forced_face_must_be_on_the_die() -> None:
    with pytest.raises(ValueError, match="not on a d6"):
        roll(ForcedDice(seed=0, faces=[7]), "d6", "test")


def test_events_about_own_tokens_are_private() -> None:
    game = Game(SCENARIO, 0)
    red = [e for e in game.log if e.seen_by("red")]
    assert {e.data["id"] for e in red} == {"r1", "r2"}


# -- dice notation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "low", "high"),
    [
        ("d6", 1, 6),
        ("d10", 1, 10),
        ("d10[0-9]", 0, 9),
        ("d100", 1, 100),
        ("d3", 1, 3),
        ("2d6", 2, 12),
        ("3d6", 3, 18),
        ("4d6x10", 40, 240),
        ("d10/2", 1, 5),
        ("D6", 1, 6),
    ],
)
def test_notation_ranges(notation: str, low: int, high: int) -> None:
    dice = parse_dice(notation)
    assert (dice.minimum, dice.maximum) == (low, high)
    rng = Rng(11)
    values = {dice.value_of([rng.face(dice) for _ in range(dice.count)]) for _ in range(3000)}
    assert min(values) == low and max(values) == high


@pytest.mark.parametrize(
    ("notation", "faces", "value"),
    [
        ("d3", [1], 1),
        ("d3", [2], 1),
        ("d3", [3], 2),
        ("d3", [6], 3),
        ("d10/2", [7], 4),
        ("4d6x10", [1, 2, 3, 4], 100),
        ("d10[0-9]", [0], 0),
        ("d100", [100], 100),
    ],
)
def test_value_of(notation: str, faces: list[int], value: int) -> None:
    assert parse_dice(notation).value_of(faces) == value


def test_a_roll_read_from_its_faces_shows_the_value_it_counts_as() -> None:
    d3 = roll(ForcedDice(seed=0, faces=[5]), "d3", "deployment")
    assert d3.describe() == "deployment: d3 rolled 5, read as 3"
    # the value before the modifiers: never "rolled 4 +1 leader = 3"
    led = roll(ForcedDice(seed=0, faces=[4]), "d3", "initiative", (Modifier("leader", 1),))
    assert led.describe() == "initiative: d3 rolled 4, read as 2, +1 leader = 3"
    skill = roll(ForcedDice(seed=0, faces=[6, 3, 4]), "3d6x10", "skill")
    assert skill.describe() == "skill: 3d6x10 rolled 6+3+4, read as 130"
    plain = roll(ForcedDice(seed=0, faces=[5]), "d6", "spot", need=4)
    assert plain.describe() == "spot: d6 rolled 5, needed 4+ - success"


@pytest.mark.parametrize("notation", ["", "d", "6", "d1", "0d6", "2d", "d6[0-9]", "xyz", "d6x"])
def test_bad_notation(notation: str) -> None:
    with pytest.raises(ValueError, match=r"dice|d10"):
        parse_dice(notation)


def test_every_face_of_a_d10_read_from_zero() -> None:
    rng, dice = Rng(3), parse_dice("d10[0-9]")
    assert {rng.face(dice) for _ in range(500)} == set(range(10))


def test_roll_records_modifiers_and_need() -> None:
    got = roll(
        ForcedDice(seed=0, faces=[3, 4]),
        "2d6",
        "to hit",
        (Modifier("cover", -1), Modifier("nothing", 0)),
        need=7,
    )
    assert got.total == 6 and got.success is False
    assert got.modifiers == (Modifier("cover", -1),)
    record = got.to_dict()
    assert record["faces"] == [3, 4] and record["modifiers"] == [["cover", -1]]
    percentile = roll(ForcedDice(seed=0, faces=[40]), "d100", "morale", need=45, at_most=True)
    assert percentile.success is True


def test_rng_is_deterministic_and_serialises() -> None:
    a, b = Rng(42), Rng(42)
    first = [a.next_u64() for _ in range(20)]
    assert first == [b.next_u64() for _ in range(20)]
    assert first != [Rng(43).next_u64() for _ in range(20)]
    resumed = Rng(**a.snapshot())
    assert [resumed.below(6) for _ in range(50)] == [a.below(6) for _ in range(50)]
    assert 0.0 <= a.random() < 1.0


# -- random order sequences -------------------------------------------------------------


@dataclass(frozen=True)
class PickLegal:
    """Stands for 'one of the legal orders now', chosen when the step runs."""

    index: int


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["r1", "r2", "b1", "b2"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
GARBAGE = st.builds(
    Order,
    side=st.sampled_from(["red", "blue", "green", ""]),
    kind=st.sampled_from(["shoot", "pass", "move"]) | st.text(max_size=4),
    unit=st.none() | st.sampled_from(["r1", "r2", "b1", "b2", "zz"]) | st.text(max_size=3),
    params=st.dictionaries(
        st.sampled_from(["target", "to"]) | st.text(max_size=3), JSON_VALUES, max_size=3
    ),
)
STEPS = st.lists(st.builds(PickLegal, st.integers(0, 40)) | GARBAGE, max_size=25)


def _order_for(game: Game, step: PickLegal | Order) -> Order | None:
    if isinstance(step, Order):
        return step
    side = game.to_act()
    if side is None:
        return None
    legal = game.legal_orders(side)
    return legal[step.index % len(legal)]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), steps=STEPS)
def test_random_orders_never_crash_and_refusals_change_nothing(
    seed: int, steps: list[PickLegal | Order]
) -> None:
    game = Game(SCENARIO, seed)
    for step in steps:
        order = _order_for(game, step)
        if order is None:
            continue
        before = (game.state_hash(), len(game.log), len(game.orders))
        try:
            game.apply(order)
        except IllegalOrder as error:
            assert isinstance(step, Order), f"a legal order was refused: {error.reason}"
            assert error.reason
            assert (game.state_hash(), len(game.log), len(game.orders)) == before


def _plain_point(items: list[object]) -> tuple[float, float] | None:
    if len(items) != 2 or any(isinstance(v, bool) or not isinstance(v, int | float)
                              for v in items):
        return None
    try:
        x, y = (float(v) for v in items)  # type: ignore[arg-type]
    except OverflowError:
        return None
    return (x, y) if isfinite(x) and isfinite(y) else None


@settings(max_examples=300)
@given(items=st.lists(st.one_of(st.floats(), st.integers(), st.booleans(), st.text(max_size=1),
                                st.integers(min_value=10**400, max_value=10**401)),
                      max_size=3),
       as_tuple=st.booleans())
def test_a_point_is_two_finite_numbers(items: list[object], as_tuple: bool) -> None:
    value = tuple(items) if as_tuple else items
    expected = _plain_point(items)
    if expected is None:
        with pytest.raises(IllegalOrder, match="two numbers"):
            point(value, "to")
    else:
        assert point(value, "to") == expected


def test_an_idle_unit_is_told_of_its_own_phase_not_another() -> None:
    """Whenever a figure of the acting side has no order in House Clearing's fire phase,
    the reason is about the figure or its shot (`fires in step 1; this is step 3`),
    never that moving is a move phase order."""
    scenario = load_scenario("ramp-houses")
    game = Game(scenario, 1)
    players = computers(game, 1)
    told = []
    for _ in range(400):
        side = game.to_act()
        if side is None:
            break
        if game.view(side)["phase"] == "fire":
            busy = {o.unit for o in game.legal_orders(side)}
            for figure in game.own_view(side):
                if figure.get("alive", True) and figure["id"] not in busy:
                    told.append(game.why_idle(side, str(figure["id"])))
        game.apply(chosen(game, side, players[side]))
    assert told
    assert not [r for r in told if r is None or "move phase" in r], told


def test_why_idle_gives_the_rules_reason_and_leaves_no_garbage() -> None:
    """The reason is a refusal of a bare order of the unit; working it out changes nothing
    and leaves no reference cycle behind (a server asks it after every order: cycles
    mean collector pauses)."""
    game = Game(load_scenario("ramp-houses"), 3)
    before = game.state_hash()
    gc.collect()
    gc.disable()
    try:
        reasons = [game.why_idle("british", unit) for unit in ("grayburn", "cottle")]
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert reasons == ["Lt. Grayburn moves in step 4; this is step 1",
                       "Pte. Cottle moves in step 3; this is step 1"]
    assert game.state_hash() == before


def test_an_idle_unit_with_no_enemy_to_fire_at_is_told_so() -> None:
    """A figure whose fire step has come but that sees no enemy in its weapon's reach is
    told that there is no enemy it can fire at (the page read "no fire order is open to
    it now", which says nothing of why). A move with nowhere to go keeps the plain words."""
    game = Game(load_scenario("ramp-houses"), 1)
    players = computers(game, 1)
    told = set()
    for _ in range(400):
        side = game.to_act()
        if side is None:
            break
        if game.view(side)["phase"] == "fire":
            busy = {o.unit for o in game.legal_orders(side)}
            told |= {game.why_idle(side, str(f["id"])) for f in game.own_view(side)
                     if f.get("alive", True) and f["id"] not in busy}
        game.apply(chosen(game, side, players[side]))
    assert "no enemy it can fire at now" in told, told
    assert not [r for r in told if r and "order is open" in r], told
