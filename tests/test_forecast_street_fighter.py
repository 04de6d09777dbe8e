"""Street Fighter previews say what an order will do, as data: every kind of order in
plain words, the odds of fire, of indirect fire and of a close assault as the rules roll
them, own units under called-down fire as friendly fire, a firing no face can make as
hopeless, a fire mission as something used up, and nothing of an enemy the side does not
see."""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.dice import ForcedDice
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import Preview, Risk
from fibua.rulesets.street_fighter import turn
from fibua.rulesets.street_fighter.ground import distance_to_section
from fibua.rulesets.street_fighter.odds import bombard_chance
from fibua.scenario.loader import bundled_scenarios, load_scenario
from sfr_helpers import forced_game, make_scenario, put, unit

SEES_ALL = 9  # an observation die that spots everything the tables allow at all
KINDS = {"move", "flat-out", "move-fire", "shoot", "indirect", "assault", "mount",
         "dismount", "observe", "end"}
KEY_VALUE = re.compile(r"[A-Za-z_]+=")
SCENARIOS = sorted(name for name, path in bundled_scenarios().items()
                   if path.parent.name == "street-fighter")


def new_game(blue: list[dict[str, Any]], red: list[dict[str, Any]], faces: list[int],
             **kw: Any) -> Game:
    return forced_game(make_scenario(blue, red, **kw), faces)


def plain(preview: Preview) -> None:
    """A sentence of its own: never the order echoed back as allowed, no key=value."""
    assert not preview.text.endswith(": allowed") and preview.text.strip() != "allowed"
    assert not KEY_VALUE.search(preview.text), preview.text
    assert preview.chance is None or 0.0 <= preview.chance <= 1.0


def kind_of(order: Order) -> str:
    return "indirect" if order.kind == "shoot" and "point" in order.params else order.kind


def probes(game: Game, side: str) -> list[Order]:
    """Orders the listing may leave out: indirect fire near each unit, an assault on the
    nearest building area, which the rules then judge."""
    state = game.state
    out = []
    for u in state.side_units(side):
        x, y = u.pos.point
        out.append(Order(side, "shoot", u.id, {"point": [round(x + 12, 2), round(y, 2)]}))
        near = min(state.battlefield.section_ids,
                   key=lambda s: distance_to_section(state.sight, u.pos, s))
        out.append(Order(side, "assault", u.id, {"section": near}))
    return [o for o in out if game.ruleset.allows(state, o)]


@cache
def playout(name: str) -> Counter[str]:
    """A random playout of the scenario, forecasting (and checking) up to two orders of
    each kind open at every step; how many of each kind were forecast."""
    game = Game(load_scenario(name), 5)
    rnd = random.Random(name)
    told: Counter[str] = Counter()
    for _ in range(200):
        side = game.to_act()
        if side is None:
            break
        legal = list(game.legal_orders(side))
        by_kind: dict[str, list[Order]] = {}
        for order in legal + probes(game, side):
            by_kind.setdefault(kind_of(order), []).append(order)
        for kind, orders in by_kind.items():
            for order in rnd.sample(orders, min(2, len(orders))):
                forecast = game.forecast(order)
                plain(forecast)
                assert forecast.text == game.preview(order)
                told[kind] += 1
        game.apply(rnd.choice(legal))
    return told


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_kind_of_order_is_forecast_in_words_over_a_random_playout(name: str) -> None:
    told = playout(name)
    assert {"move", "flat-out", "observe", "end"} <= set(told), told


def test_the_playouts_forecast_every_kind_between_them() -> None:
    seen = set().union(*(playout(name) for name in SCENARIOS))
    assert seen >= KINDS, KINDS - seen


# ------------------------------------------------------------------ direct fire


def test_a_firing_no_face_can_make_is_hopeless() -> None:
    """The sniper row needs 9+ over 25 cm; having moved half, the firer is at -4: no face
    of a d10 read 0-9 reaches 9. Standing still, only the 9 does: 10%."""
    game = new_game([unit("s", "sniper", (75, 25))],
                    [unit("r1", "infantry-section", (75, 55))], [SEES_ALL, 0])
    moved = game.forecast(Order("blue", "move-fire", "s", {"to": [75, 27.5], "target": "r1"}))
    assert moved.chance == 0.0 and Risk.HOPELESS in moved.risks
    assert "needs 9+ with -4: 0% to hit" in moved.text and "no face of the die" in moved.text
    still = game.forecast(Order("blue", "shoot", "s", {"target": "r1"}))
    assert still.chance == pytest.approx(0.1) and still.risks == ()
    assert "a hit costs it one of its hit points (3 at full strength) and pins it" in still.text


@pytest.mark.parametrize("riders", [0, 1])
def test_small_arms_at_an_armoured_vehicle_may_do_nothing(riders: int) -> None:
    """Small-arms hits on a halftrack fall on whoever rides inside: with nobody inside the
    fire does nothing, which blue cannot know; the forecast is the same either way."""
    red = [unit("r1", "m3-halftrack", (75, 40))]
    red += [unit("r2", "infantry-section", rides="r1")] * riders
    game = new_game([unit("b1", "infantry-section", (75, 25))], red, [SEES_ALL, 0])
    forecast = game.forecast(Order("blue", "shoot", "b1", {"target": "r1"}))
    assert forecast.risks == (Risk.WASTED,)
    assert forecast.chance == pytest.approx(0.3)  # 5+ with -2: faces 7, 8, 9
    assert "with nobody inside, the fire does nothing" in forecast.text


# ------------------------------------------------------------------ indirect fire


def mortar_game() -> Game:
    """Blue's mortar calls fire on (75, 45), where red's r1 stands in sight; blue's own b2
    stands 3 cm north of the mark."""
    return new_game([unit("m", "mortar-section", (75, 25)),
                     unit("b2", "infantry-section", (75, 48))],
                    [unit("r1", "infantry-section", (75, 45))], [SEES_ALL, 0])


MARK = {"point": [75, 45]}


def test_indirect_fire_near_own_troops_is_friendly_fire_with_its_chance() -> None:
    """Our landing roll, a d10 read 0-9: below 2 the fire is lost, 2-4 it drifts 5 cm in
    the direction of a d8, 5-9 it falls on the mark; then the seed's every unit within
    5 cm, tanks apart, is hit on 5+. b2, 3 cm north, is within 5 cm of the mark and of the
    drifts north, north-east and north-west (2 cm, 3.6 cm, 3.6 cm away), not of the
    other five: by hand (5/10 + 3/10 * 3/8) * 5/10."""
    game = mortar_game()
    forecast = game.forecast(Order("blue", "shoot", "m", MARK))
    by_hand = (Fraction(5, 10) + Fraction(3, 10) * Fraction(3, 8)) * Fraction(5, 10)
    assert bombard_chance(75, 45, Position(75, 48)) == by_hand
    assert Risk.FRIENDLY_FIRE in forecast.risks and Risk.WASTED not in forecast.risks
    assert f"own units within reach as they stand now: B2 {float(by_hand):.0%}" in forecast.text
    # r1 on the mark: within reach of the mark and of every drift, 8/10 * 5/10
    assert forecast.chance == pytest.approx(0.4) and "R1 40%" in forecast.text


def test_the_landing_and_the_hit_dice_counted_face_by_face() -> None:
    """Every landing face and drift direction, played by the rules with forced dice: the
    share of them that brings b2 under fire, times the 5+ of the hit roll, is the chance
    the forecast gives."""
    game = mortar_game()
    game.apply(Order("blue", "shoot", "m", MARK))
    state = game.state
    (marker,) = state.markers
    under = Fraction(0)
    for face in range(10):
        ways = range(1, 9) if 2 <= face < 5 else [None]
        for way in ways:
            weight = Fraction(1, 10) * (Fraction(1, 8) if way else 1)
            state.rng = ForcedDice(seed=0, faces=[face, *([way] if way else []), 4, 4, 4])
            state.pending.clear()
            turn.land(state, marker)
            rolls = [e.data for e in state.pending if e.kind == "bombarded"]
            assert all(r["roll"]["need"] == 5 and not r["roll"]["success"] for r in rolls)
            if any(r["unit"] == "b2" for r in rolls):
                under += weight
    state.pending.clear()
    hit = Fraction(sum(1 for f in range(10) if f >= 5), 10)
    assert under * hit == bombard_chance(75, 45, Position(75, 48))


def test_an_artillery_call_uses_up_a_mission() -> None:
    game = new_game([unit("hq", "hq-section", (72, 25))],
                    [unit("r1", "infantry-section", (75, 60))], [SEES_ALL, 0],
                    blue_artillery=1)
    forecast = game.forecast(Order("blue", "shoot", "hq", {"point": [75, 50]}))
    assert Risk.WASTED in forecast.risks and Risk.FRIENDLY_FIRE not in forecast.risks
    assert "calls artillery" in forecast.text and "one of the 1 fire mission" in forecast.text


# ------------------------------------------------------------------ close assault


def test_a_close_assault_gives_its_odds() -> None:
    """d10 + 1 for each full 10 points, 7+ inflicts a hit: two sections (16 points) roll at
    +1, so faces 6-9: 40%."""
    game = new_game([unit("b1", "infantry-section", (26, 17)),
                     unit("b2", "infantry-section", (28, 17))],
                    [unit("r1", "sniper", (75, 75))], [SEES_ALL, 0])
    forecast = game.forecast(Order("blue", "assault", "b1", {"section": "house",
                                                             "with": ["b2"]}))
    assert forecast.chance == pytest.approx(0.4)
    assert "16 point(s), +1" in forecast.text and "40%" in forecast.text
    assert "no defender seen there" in forecast.text


# ------------------------------------------------------------------ nothing unseen leaks


def hidden_game(r2_at: tuple[float, float]) -> Game:
    """Red's r2 sits unseen in a building area (troops in cover that do not fire are
    never picked out); blue's b1 stands 3 cm south of the house, its mortar far off."""
    game = new_game([unit("b1", "infantry-section", (26, 17)),
                     unit("m", "mortar-section", (75, 5))],
                    [unit("r1", "sniper", (75, 75)), unit("r2", "infantry-section", r2_at)],
                    [SEES_ALL, 0])
    known = game.state.knowledge["blue"].get("r2")
    assert known is None or not known.visible
    return game


def test_an_unseen_enemy_changes_no_forecast() -> None:
    games = [hidden_game(at) for at in ((26, 25), (23, 43))]
    moved = hidden_game((26, 25))
    put(moved, "r2", 24, 27)
    games.append(moved)
    orders = [Order("blue", "assault", "b1", {"section": "house"}),
              Order("blue", "shoot", "m", {"point": [26, 25]}),
              Order("blue", "shoot", "m", {"point": [23, 43]}),
              Order("blue", "move", "b1", {"to": [26, 12]}),
              Order("blue", "observe", "b1"), Order("blue", "end")]
    for order in orders:
        told = {g.forecast(order) for g in games}
        assert len(told) == 1, told


def test_mount_dismount_observe_and_end_say_what_they_do() -> None:
    game = new_game([unit("lorry", "lorry", (75, 25)), unit("s", "infantry-section", (75, 28)),
                     unit("hq", "hq-section", rides="lorry")],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0])
    mount = game.forecast(Order("blue", "mount", "s", {"vehicle": "lorry"}))
    assert "climbs into Lorry" in mount.text and "(0 place(s) left)" in mount.text
    assert "any hit on it knocks it out" in mount.text
    off = game.forecast(Order("blue", "dismount", "hq", {"to": [75, 21]}))
    assert "gets out of Lorry at (75, 21)" in off.text and "ends in the open" in off.text
    look = game.forecast(Order("blue", "observe", "s"))
    assert "always up to 25 cm" in look.text and "instead of always up to 10 cm" in look.text
    done = game.forecast(Order("blue", "end"))
    assert "Lorry, S, Hq have not acted" in done.text


def test_a_move_forecast_reads_both_observation_tables() -> None:
    """Observing or not, the enemy's chance to pick a unit out is read off two tables: for
    infantry in the open the observing table sees it within 25 cm (5+ beyond), the other
    only within 10 cm (7+ beyond); a moving vehicle is always seen by observers, and by
    the others within 25 cm (2+ beyond). Where both tables say the same (a firing
    vehicle: always visible) the forecast says it once."""
    game = new_game([unit("s", "infantry-section", (75, 25)), unit("t", "sherman", (10, 70))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0])
    walk = game.forecast(Order("blue", "move", "s", {"to": [75, 28]})).text
    assert ("picks it out (troops in the open) always up to 25 cm, on 5+ beyond if "
            "observing, else always up to 10 cm, on 7+ beyond") in walk
    fire = game.forecast(Order("blue", "move-fire", "t", {"to": [10, 66], "target": "r1"}))
    assert "picks it out (a firing vehicle) always" in fire.text
    assert "if observing" not in fire.text


def test_a_flat_out_move_no_longer_than_a_move_says_so() -> None:
    """Flat out doubles the distance but gives up firing and observing: a flat-out move
    that a normal move (5 cm for infantry on foot) would have covered is pointed out,
    up to and including exactly 5 cm."""
    game = new_game([unit("s", "infantry-section", (75, 25))],
                    [unit("r1", "sniper", (5, 75))], [SEES_ALL, 0])
    said = "a normal move (5 cm) would reach as far"
    assert said in game.forecast(Order("blue", "flat-out", "s", {"to": [75, 30]})).text
    assert said not in game.forecast(Order("blue", "flat-out", "s", {"to": [75, 31]})).text
