"""The computer's places to go, made and scored as arrays, give to the last bit what the
plain Python they replace gives: the ring of steps rounded as `round` rounds, and what
each place is worth for where it is."""

from __future__ import annotations

import random
from math import cos, pi, sin

import numpy as np
import pytest

from fibua.battlefield.model import Position
from fibua.core.game import Game
from fibua.rulesets.house_clearing.ai import (
    ALONE,
    CLEAR,
    CROWD,
    HOLD,
    PROGRESS,
    SPREAD,
    Sergeant,
    _Ground,
    ring_kernel,
)
from fibua.rulesets.house_clearing.state import Phase
from fibua.rulesets.house_clearing.views import SideView
from fibua.scenario.loader import load_scenario

MAPS = ("ramp-houses", "oosterbeek-crossroads")


def _ring_python(x0: float, y0: float, angles: list[float], dists: list[float],
                 width: float, height: float) -> list[list[float]]:
    ends = []
    for angle in angles:
        c, s = cos(angle), sin(angle)
        for dist in dists:
            x = round(x0 + dist * c, 2)
            y = round(y0 + dist * s, 2)
            if 0 <= x <= width and 0 <= y <= height:
                ends.append([x, y])
    return ends


def test_the_ring_is_rounded_as_round_rounds() -> None:
    rng = random.Random(11)
    exact = 0
    for k in range(3000):
        x0, y0 = rng.uniform(-1, 25), rng.uniform(-1, 25)
        if k % 3 == 0:  # whole and half inches, as scenarios place figures
            x0, y0 = round(x0 * 2) / 2, round(y0 * 2) / 2
        offset = rng.random() * 2 * pi / 10
        angles = [offset + 2 * pi * n / 10 for n in range(10)]
        dists = sorted({1.5, rng.choice((1.0, 2.0, 3.0)), rng.choice((3.0, 6.0, 9.0))})
        found, ok = ring_kernel(x0, y0, np.array([cos(a) for a in angles]),
                                np.array([sin(a) for a in angles]), np.array(dists),
                                24.0, 24.0)
        if ok:
            exact += 1
            assert found.tolist() == _ring_python(x0, y0, angles, dists, 24.0, 24.0)
    assert exact > 2900


def test_a_step_ending_at_a_half_hundredth_is_left_to_round() -> None:
    # 1.005 * 100 is a hair from a half: the kernel says it cannot tell
    _, ok = ring_kernel(1.005, 5.0, np.array([1.0]), np.array([0.0]), np.array([0.0]),
                        24.0, 24.0)
    assert not ok


class _Seeded:
    def random(self) -> float:
        return 0.0


def test_a_ring_near_a_half_hundredth_is_the_python_ring() -> None:
    game = Game(load_scenario("ramp-houses"), 1)
    side = game.scenario.side_names[0]
    view = game.observe(side)
    f = next(g for g in view.own if g.in_action)
    # a place whose steps at heading 0 end a hair from a half hundredth
    f.pos = Position(2.005, 3.0, None, 0)
    sergeant = Sergeant(side, 1)
    sergeant._rng = _Seeded()  # type: ignore[assignment]
    pace = view.geometry.rate_at(f.pos.x, f.pos.y)
    dists = sorted({1.5, min(pace, 3.0), pace})
    table = view.sight.battlefield.table
    expected = _ring_python(f.pos.x, f.pos.y, [2 * pi * k / 10 for k in range(10)], dists,
                            table.width, table.height)
    assert sergeant._ring(view, f).tolist() == expected


def _ground_python(view: SideView, g: _Ground, spots: list[Position]) -> list[float]:
    """`_Ground.scores` as plain Python, place by place (before the open rooms)."""
    goal = view.goal
    friends = [h.pos for h in g.friends]
    taken = {(p.section, p.floor) for p in friends}
    held = {(t.pos.section, t.pos.floor) for t in g.threats}
    out = []
    for spot in spots:
        value = 0.0
        if goal is not None:
            left = goal.distance(spot)
            value = 0.0 + PROGRESS * g.urgency * min(g.start - left, 9.0)
            if left == 0:
                value += HOLD
        near = any(p.distance(spot) < 1.0 for p in friends)
        close = any(p.distance(spot) <= 3.0 for p in friends)
        if spot.section is not None and spot.section in view.goal_sections:
            room = (spot.section, spot.floor)
            score = 0.0
            if room not in taken:
                score += SPREAD
            if room in held and not close:
                score -= ALONE
            elif room in held and not view.defending:
                score += CLEAR * (0.5 + view.turn / view.turns)
            value += score
        if near:
            value -= CROWD
        out.append(value)
    return out


@pytest.mark.parametrize("name", MAPS)
def test_what_a_place_is_worth_is_the_python_sum(name: str) -> None:
    game = Game(load_scenario(name), 3)
    players = {s: game.ruleset.computer(s, 7) for s in game.scenario.side_names}
    checked = 0
    for _ in range(400):
        side = game.to_act()
        if side is None:
            break
        view = game.observe(side)
        sergeant = Sergeant(side, 5)
        threats = sergeant._known_threats(view)
        if view.phase is Phase.MOVE and view.reaction is None:
            for f in view.own:
                if not f.in_action:
                    continue
                places = sergeant._places(view, f)
                arrays = places.arrays
                ids = view.sight.section_ids
                spots = [Position(x, y, None if s < 0 else ids[s], fl) for (x, y), s, fl in
                         zip(arrays.xy.tolist(), arrays.section.tolist(),
                             arrays.floor.tolist(), strict=True)]
                g = _Ground(view, f, threats)
                found = g.before_rooms(arrays).tolist()
                assert found == _ground_python(view, g, spots)
                checked += 1
        game.apply(players[side].choose(view, game.legal_orders(side)))
    assert checked > 50
