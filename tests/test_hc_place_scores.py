"""The computer's place scoring in one compiled call (sight, leaning, the body model and
the sums together) gives, to the last bit, what plain Python gives pair by pair from the
sight engine and the geometry, on the bundled maps and random places, threats and
watched points."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fibua.battlefield.model import Position
from fibua.rulesets.house_clearing.ai import _odds_table, _threat_tables
from fibua.rulesets.house_clearing.estimates import (
    ROUNDING,
    STANCE_INDEX,
    STANCES,
    band_limits,
    body_arrays,
    place_scores_kernel,
)
from fibua.rulesets.house_clearing.geometry import MapGeometry
from fibua.rulesets.house_clearing.shooting import fire_row
from fibua.rulesets.house_clearing.tables import Stance, WeaponName
from hc_helpers import map_geometry, random_places

MAPS = ("ramp-houses", "oosterbeek-crossroads")
HARM, RISK, FIRST, AFTER, WATCHES, WATCHED = 0.9, 1.0, 2.0, 0.7, 0.06, -0.05


def _band(gap: float, limits: list[float]) -> int:
    return next((k for k, limit in enumerate(limits) if gap <= limit + ROUNDING), len(limits))


def _python_scores(geometry: MapGeometry, base: list[float], places: list[Position],
                   threats: list[tuple[Position, Stance, float, int, WeaponName]],
                   step: int, skill: int, weapon: WeaponName, out_after: float,
                   points: list[Position], defending: bool) -> list[tuple[float, int]]:
    sight = geometry.sight
    mine = fire_row(weapon, False, 1)
    my_limits, my_odds = band_limits(mine).tolist(), _odds_table(skill, mine)
    out = []
    for i, p in enumerate(places):
        seen = [sight.visible(p, t[0]) for t in threats]
        looks = {}
        for k, q in enumerate(points):
            if sight.visible(p, q):
                outside = q.section is not None and p.section != q.section
                if geometry.fifths_behind(geometry.screen(p, q), Stance.STANDING, outside):
                    looks[k] = geometry.screen(q, p)
        chosen, top = -1, 0.0
        stances = [Stance.STANDING, Stance.CROUCHING]
        if geometry.can_lean(p):
            stances.append(Stance.LEANING)
        for stance in stances:
            best = risk = 0.0
            survive = 1.0
            for j, (pos, t_stance, weight, t_step, t_weapon) in enumerate(threats):
                if not seen[j]:
                    continue
                shown = geometry.fifths_behind(
                    geometry.screen(p, pos), t_stance,
                    pos.section is not None and p.section != pos.section)
                theirs = geometry.fifths_behind(
                    geometry.screen(pos, p), stance,
                    p.section is not None and pos.section != p.section)
                if shown == 0 or theirs == 0:
                    continue
                gap = float(np.hypot(p.x - pos.x, p.y - pos.y))
                best = max(best, weight * my_odds[_band(gap, my_limits), shown])
                row = fire_row(t_weapon, False, 1)
                limits, odds = _threat_tables((row,))
                danger = weight * odds[0, _band(gap, limits[0].tolist()), theirs]
                if t_step > step:
                    risk += danger * FIRST
                    survive *= 1 - danger * out_after
                else:
                    risk += danger * (1.0 if t_step == step else AFTER)
            score = base[i] + (HARM * best * survive - RISK * risk)
            if points:
                count = sum(1 for k, back in looks.items() if geometry.fifths_behind(
                    back, stance, p.section is not None and points[k].section != p.section))
                score += WATCHES * min(count, 5) if defending else WATCHED * min(count, 6)
            if chosen < 0 or score > top + 1e-9:
                chosen, top = STANCE_INDEX[stance], score
        out.append((top, chosen))
    return out


@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("watch", [False, True])
def test_place_scores_are_the_python_sums(name: str, watch: bool) -> None:
    geometry = map_geometry(name)
    body = body_arrays(geometry)
    sight = geometry.sight
    rng = random.Random(21 + watch)
    weapons = [WeaponName.RIFLE, WeaponName.SMG, WeaponName.BOX_LMG, WeaponName.PISTOL]
    moved = 0  # places whose score is not the ground's alone: fights and watches are tried
    for trial in range(12):
        places = random_places(geometry, 30, trial)
        threats = [(pos, rng.choice(list(Stance)), rng.choice((1.0, 0.5)), rng.randint(0, 3),
                    rng.choice(weapons)) for pos in random_places(geometry, 6, 100 + trial)]
        points = random_places(geometry, 12, 200 + trial) if watch else []
        base = [rng.uniform(-1, 1) for _ in places]
        step, skill, weapon = rng.randint(1, 2), rng.choice((80, 105, 130)), rng.choice(weapons)
        defending = rng.random() < 0.5
        pa, ta = sight.position_arrays(places), sight.position_arrays([t[0] for t in threats])
        wa = sight.position_arrays(points)
        limits, odds = _threat_tables(tuple(fire_row(t[4], False, 1) for t in threats))
        mine = fire_row(weapon, False, 1)
        scores, chosen = place_scores_kernel(
            np.array(base), pa.xy, pa.section, pa.floor, ta.xy, ta.section, ta.floor,
            np.array([STANCE_INDEX[t[1]] for t in threats], dtype=np.int64),
            np.array([t[2] for t in threats]), np.array([t[3] for t in threats]), step, AFTER,
            limits, odds, band_limits(mine), _odds_table(skill, mine), HARM, RISK, FIRST,
            0.5, wa.xy, wa.section, wa.floor, watch, defending, WATCHES, WATCHED,
            body.obstacle_segs, body.obstacle_heights, body.open_segs, body.open_sill,
            body.open_section, body.open_lean, body.group, body.mids, body.n_mids,
            sight.kernel_tables)
        expected = _python_scores(geometry, base, places, threats, step, skill, weapon, 0.5,
                                  points, defending)
        assert list(zip(scores.tolist(), chosen.tolist(), strict=True)) == expected
        assert {STANCES[k] for k in chosen.tolist()} >= {Stance.STANDING}
        moved += sum(1 for s, b in zip(scores.tolist(), base, strict=True) if s != b)
    assert moved > 20
