"""House-Clearing previews say what an order will do, as data: every kind of order in plain
words, the chance of a firing worked out as the rules roll it, automatic fire's own
figures in the cone as friendly fire, a shot no roll can make as hopeless, and nothing of
an enemy the side does not see."""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import Preview, Risk
from fibua.rulesets.house_clearing.knowledge import refresh_sight
from fibua.rulesets.house_clearing.shooting import loss_distribution, out_of_action_chance
from fibua.rulesets.house_clearing.state import Phase
from fibua.scenario.loader import bundled_scenarios, load_scenario
from hc_helpers import act, end, figure, forced_game, make_scenario, new_game, of_kind, put

KINDS = {"move", "stance", "fire", "end"}
KEY_VALUE = re.compile(r"[A-Za-z_]+=")
SCENARIOS = sorted(name for name, path in bundled_scenarios().items()
                   if path.parent.name == "house-clearing")


def plain(preview: Preview) -> None:
    """A sentence of its own: never the order echoed back as allowed, no key=value."""
    assert not preview.text.endswith(": allowed") and preview.text.strip() != "allowed"
    assert not KEY_VALUE.search(preview.text), preview.text
    assert preview.chance is None or 0.0 <= preview.chance <= 1.0


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_kind_of_order_is_forecast_in_words_over_a_random_playout(name: str) -> None:
    game = Game(load_scenario(name), 7)
    rnd = random.Random(name)
    told: Counter[str] = Counter()
    for _ in range(160):
        side = game.to_act()
        if side is None:
            break
        legal = list(game.legal_orders(side))
        by_kind: dict[str, list[Order]] = {}
        for order in legal:
            by_kind.setdefault(order.kind, []).append(order)
        for kind, orders in by_kind.items():
            for order in rnd.sample(orders, min(2, len(orders))):
                forecast = game.forecast(order)
                plain(forecast)
                assert forecast.text == game.preview(order)
                told[kind] += 1
        if set(told) >= KINDS and told["fire"] >= 3:
            break
        game.apply(rnd.choice(legal))
    assert set(told) >= KINDS, told


# ------------------------------------------------------------------ automatic fire's cone


def cone_game(faces: list[int] | None = None) -> Game:
    """b1, an SMG at (21, 9), fires automatic at r1 10in north; its own Pte. Cottle stands
    3.5in up the line of fire, inside the cone (a quarter of the range wide at its end).
    Everyone has skill 100; blue initiative 2, red 1, so blue fires alone in step 2."""
    blue = [figure("b1", "smg", (21, 9)),
            figure("cottle", "rifle", (21.2, 12.5), name="Pte. Cottle")]
    red = [figure("r1", "rifle", (21, 19), initiative=1)]
    game = new_game(blue, red, faces)
    while game.state.phase is Phase.MOVE:
        end(game)
    assert (game.state.step, game.to_act()) == (2, "blue")
    return game


AUTO = {"target": "r1", "auto": True}


def test_automatic_fire_with_an_own_figure_in_the_cone_warns_of_friendly_fire() -> None:
    """The seed: automatic fire has a cone a quarter of the range wide at its far end and
    halves the chance. Every figure in the cone is fired at, friends too: Cottle, 3.5in
    off, is in the SMG's Half band (skill 100 / 2 = 50), halved on automatic: 25%. Each hit
    must pass the cover die, a D6 of at most the fifths that show (all 5 here): 5/6. A
    confirmed hit costs D3 initiative, and below 0 a figure is out: Cottle has 2, so only a
    3 (a D6 of 5 or 6) puts it out. By hand: 25/100 * 5/6 to be hit, and 25/100 * 5/6 *
    2/6 to be put out of action."""
    game = cone_game()
    forecast = game.forecast(Order("blue", "fire", "b1", AUTO))
    assert Risk.FRIENDLY_FIRE in forecast.risks and Risk.HOPELESS not in forecast.risks
    hit = Fraction(25, 100) * Fraction(5, 6)
    out = hit * Fraction(2, 6)
    assert out_of_action_chance(25, 5, 2) == out
    assert "own Pte. Cottle is in the cone, 3.5in away, chance 25%, 5/5 visible" in forecast.text
    assert f"{float(hit):.0%} to be hit, {float(out):.1%} to be put out of action" in \
        forecast.text
    # the target's own chance is the forecast's: 10in is the SMG's Sixteenth band, 100 /
    # 16 = 6, halved 3; one D100 of 3 or less, then the cover die for all 5 fifths
    assert forecast.chance == pytest.approx(float(Fraction(3, 100) * Fraction(5, 6)))
    assert "chance 3%" in forecast.text and "10.0in" in forecast.text
    # "a cone of fire that at its wide end is a quarter of the range": 10in / 4
    assert "the cone is 2.5in wide at R1" in forecast.text, forecast.text
    # single shots have no cone: no friend is in danger
    single = game.forecast(Order("blue", "fire", "b1", {"target": "r1"}))
    assert single.risks == () and "Cottle" not in single.text


@pytest.mark.parametrize(("cover", "effect", "hit", "out"), [
    (5, 5, True, True),  # D6 5: confirmed; effect D6 5 reads 3: 2 - 3 is below 0
    (5, 4, True, False),  # effect D6 4 reads 2: Cottle at 0, still in action
    (6, 5, False, False),  # cover D6 6 is more than the 5 fifths: no hit
])
def test_the_burst_strikes_the_friend_as_forecast(cover: int, effect: int, hit: bool,
                                                  out: bool) -> None:
    # r1 first (D100 99 misses its 3%), then Cottle: D100 25 makes its 25%
    game = cone_game([99, 25, cover, *([effect] if hit else [])])
    act(game, "fire", "b1", **AUTO)
    end(game)  # red has nobody to fire in step 2: the step's fire is resolved
    shots = {s["target"]: s for s in of_kind(game.log, "shot")}
    assert shots["cottle"]["chance"] == 25 and shots["cottle"]["fifths"] == 5
    assert shots["cottle"]["confirmed"] == int(hit)
    assert game.state.figures["cottle"].in_action is not out
    assert game.state.rng.faces == []


def test_the_chance_one_more_hundredth_misses_the_friend() -> None:
    game = cone_game([99, 26])
    act(game, "fire", "b1", **AUTO)
    end(game)
    shots = {s["target"]: s for s in of_kind(game.log, "shot")}
    assert shots["cottle"]["hits"] == 0 and game.state.rng.faces == []


def test_loss_of_confirmed_hits_is_a_d3_each() -> None:
    """D3 per confirmed hit, added: two hits lose 2..6, 4 the likeliest (3 ways in 9)."""
    two = dict(loss_distribution(2))
    assert two == {2: Fraction(1, 9), 3: Fraction(2, 9), 4: Fraction(3, 9),
                   5: Fraction(2, 9), 6: Fraction(1, 9)}


def test_a_shot_no_roll_can_make_is_hopeless() -> None:
    """The chance is skill divided by the band, rounded down, then halved on automatic:
    skill 10 at 9in is the SMG's Sixteenth band, 10 / 16 = 0."""
    blue = [figure("b1", "smg", (21, 10), skill=10)]
    red = [figure("r1", "rifle", (21, 19), initiative=1)]
    game = new_game(blue, red)
    while game.state.phase is Phase.MOVE:
        end(game)
    for params in ({"target": "r1"}, AUTO):
        forecast = game.forecast(Order("blue", "fire", "b1", params))
        assert forecast.chance == 0.0 and Risk.HOPELESS in forecast.risks
        assert "chance 0%" in forecast.text


# ------------------------------------------------------------------ nothing unseen leaks


def hidden_in_the_cone(r2_at: tuple[float, float]) -> Game:
    """b1 (SMG, (5, 0.5)) fires automatic at r1 10in north; r2 lies prone just behind the
    low wall (y 6, 0.5in high), inside the cone, and shows b1 nothing."""
    blue = [figure("b1", "smg", (5, 0.5)), figure("b2", "rifle", (7.5, 0.5))]
    red = [figure("r1", "rifle", (5, 10.5), initiative=1),
           figure("r2", "rifle", r2_at, initiative=1, stance="prone")]
    game = forced_game(make_scenario(blue, red), [])
    while game.state.phase is Phase.MOVE:
        end(game)
    state = game.state
    assert state.sees("b1", "r1") and not any(state.sees(b, "r2") for b in ("b1", "b2"))
    return game


def test_an_unseen_enemy_in_the_line_of_fire_changes_no_forecast() -> None:
    games = [hidden_in_the_cone(at) for at in ((5.5, 6.8), (4.6, 6.9))]
    far = hidden_in_the_cone((5.5, 6.8))
    put(far, "r2", 14.5, 15.5, stance="prone")  # in the house, out of the cone
    assert not any(far.state.sees(b, "r2") for b in ("b1", "b2"))
    games.append(far)
    orders = [Order("blue", "fire", "b1", AUTO), Order("blue", "fire", "b1", {"target": "r1"}),
              Order("blue", "fire", "b2", {"target": "r1"}), Order("blue", "end")]
    for order in orders:
        told = {g.forecast(order) for g in games}
        assert len(told) == 1, told
    # and the unseen figure is fired at by the burst all the same: the rules strike only
    # what the firer sees, so the preview's figures are the burst's
    game = hidden_in_the_cone((5.5, 6.8))
    game.state.rng.faces = [99]
    act(game, "fire", "b1", **AUTO)
    end(game)
    assert [s["target"] for s in of_kind(game.log, "shot")] == ["r1"]


def test_a_move_and_a_stance_are_forecast_from_the_enemies_the_side_sees() -> None:
    game = hidden_in_the_cone((5.5, 6.8))
    # back to the move phase of the next turn: blue moves in step 2
    while game.state.phase is Phase.FIRE:
        end(game)
    assert game.state.phase is Phase.MOVE
    while game.to_act() != "blue" or game.state.step != 2:
        end(game)
    move = Order("blue", "move", "b2", {"to": [7.5, 4.5]})
    stance = Order("blue", "stance", "b2", {"stance": "prone"})
    before = [game.forecast(o) for o in (move, stance)]
    r2 = game.state.figures["r2"]
    r2.pos = type(r2.pos)(4.6, 6.9, None, 0)
    refresh_sight(game.state, [r2])
    assert not any(game.state.sees(b, "r2") for b in ("b1", "b2"))
    assert [game.forecast(o) for o in (move, stance)] == before
    text = before[0].text
    assert "moves 4.0in: 44% of its move" in text and "ends outside, in the open" in text
    assert "R1" in text  # r1, seen, would see it
    assert "prone" in before[1].text and "its head (1/5)" in before[1].text


def test_ending_a_step_names_the_figures_that_give_up_acting() -> None:
    game = cone_game()
    forecast = game.forecast(Order("blue", "end"))
    assert forecast.text.startswith("ends step 2 of the fire phase")
    assert "B1" in forecast.text and "do not fire this turn" in forecast.text
