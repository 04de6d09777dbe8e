"""What the Buildings rules keep to go faster gives the answers worked out afresh: a
section's ports, units' sight (kept by where the units stand, for the sections' present
states only, and only where the rules look), the computer's estimates (kept by range
band), and the copies a side's views hand out."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import numpy as np
import pytest

from bld_helpers import game, put
from fibua.battlefield.model import Opening, OpeningKind, SectionState
from fibua.core.game import Game
from fibua.rulesets.buildings import geometry
from fibua.rulesets.buildings.estimates import (
    Mark,
    _misses,
    _weapon_losses,
    pin_chance,
    unit_losses,
    weapon_losses,
)
from fibua.rulesets.buildings.firing import collapse
from fibua.rulesets.buildings.knowledge import (
    PAIRS,
    places,
    refresh,
    seen_by,
    sees,
    sight_table,
)
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import WEAPONS, Quality, WeaponName
from fibua.rulesets.buildings.views import side_sight
from fibua.scenario.loader import load_scenario


def _state(g: Game) -> BuildingsState:
    state = g.state
    assert isinstance(state, BuildingsState)
    return state


def _sees_afresh(state: BuildingsState, a: Unit, b: Unit) -> bool:
    """`sees` as the rules define it, asking the engine of every pair of places."""
    if a.section is not None and a.section == b.section:
        return a.floor == b.floor
    return any(state.sight.visible(p, q) for p in places(state, a) for q in places(state, b))


# -- a section's ports ------------------------------------------------------------------


def test_ports_kept_are_the_ports_worked_out() -> None:
    field = load_scenario("tobacco-factory").battlefield
    for sid in field.section_ids:
        section = field.section(sid)
        for floor in range(section.levels):
            assert geometry.ports(section, floor) == geometry._ports.__wrapped__(section, floor)
            assert geometry.port_places(section, floor) == tuple(
                p.pos for p in geometry.ports(section, floor))
        assert geometry.ground_doors(section) == list(
            geometry._ground_doors.__wrapped__(section, None))


def test_a_section_with_another_opening_has_its_own_ports() -> None:
    state = _state(game())
    brick = state.battlefield.section("brick")
    before = geometry.ports(brick, 1)
    made = replace(brick, openings=(*brick.openings,
                                    Opening(OpeningKind.WINDOW, 1, 1, 3.0, 1.0)))
    assert len(geometry.ports(made, 1)) == len(before) + 1
    assert geometry.ports(brick, 1) == before
    assert len(geometry.ground_doors(made)) == len(geometry.ground_doors(brick))


# -- units' sight -----------------------------------------------------------------------


def test_the_sight_table_is_sees_of_every_pair() -> None:
    state = _state(Game(load_scenario("village-street"), 5))
    units = list(state.units.values())
    table = sight_table(state, units, units)
    for (i, a), (j, b) in product(enumerate(units), enumerate(units)):
        assert table[i][j] == _sees_afresh(state, a, b), (a.id, b.id)


def test_seen_by_is_any_observer_sees() -> None:
    for seed in (5, 6):
        state = _state(Game(load_scenario("tobacco-factory"), seed))
        sides = state.sides
        for a, b in (sides, sides[::-1]):
            mine, theirs = state.side_units(a), state.side_units(b)
            # asked afresh (its memo emptied), then from what the first asking kept
            state.sight.memo.pop(PAIRS, None)
            for _ in range(2):
                assert seen_by(state, mine, theirs) == [
                    any(_sees_afresh(state, u, t) for u in mine) for t in theirs]


def test_sight_kept_follows_a_unit_that_moves() -> None:
    g = game()
    state = _state(g)
    rifles, grenadiers = state.units["rifles"], state.units["grenadiers"]
    assert sees(state, rifles, grenadiers) == _sees_afresh(state, rifles, grenadiers)
    put(g, "rifles", [(31.0 + k % 5, 1.0 + 0.5 * (k // 5)) for k in range(10)])  # behind it
    assert not _sees_afresh(state, rifles, grenadiers)
    assert not sees(state, rifles, grenadiers)
    put(g, "rifles", [(22.0 + k % 5, 5.0 + 0.5 * (k // 5)) for k in range(10)])
    assert _sees_afresh(state, rifles, grenadiers)
    assert sees(state, rifles, grenadiers)


def _burn(state: BuildingsState, sid: str) -> None:
    """The section's state on every fork, as set_alight sets it (its units left in)."""
    for engine in (state.sight, *state.side_sight.values()):
        engine.set_section_state(sid, SectionState.BURNING)


def test_sight_kept_is_dropped_when_the_section_burns() -> None:
    g = game()
    state = _state(g)
    put(g, "rifles", section="brick", floor=0)
    put(g, "mg", [(23.0, 12.8 + 0.2 * k) for k in range(3)])  # by its east window
    rifles, mg = state.units["rifles"], state.units["mg"]
    assert sees(state, rifles, mg) and sees(state, mg, rifles)
    assert state.knowledge["axis"].sightings["rifles"].visible
    _burn(state, "brick")
    assert not _sees_afresh(state, rifles, mg)
    assert not sees(state, rifles, mg) and not sees(state, mg, rifles)
    refresh(state)
    assert not state.knowledge["axis"].sightings["rifles"].visible


def test_sight_kept_is_dropped_when_a_section_between_falls() -> None:
    g = game()
    state = _state(g)
    # across the brick house, west of it to east of it
    put(g, "rifles", [(12.0, 12.0 + 0.2 * k) for k in range(10)])
    put(g, "mg", [(22.0, 12.5 + 0.2 * k) for k in range(3)])
    rifles, mg = state.units["rifles"], state.units["mg"]
    assert not sees(state, rifles, mg)
    collapse(state, "brick")
    assert state.sight.section_state("brick") is SectionState.RUBBLE
    assert sees(state, rifles, mg) == _sees_afresh(state, rifles, mg)
    assert sees(state, rifles, mg)


def test_sight_is_kept_where_only_the_rules_look() -> None:
    g = game()
    state = _state(g)
    refresh(state)
    assert PAIRS in state.sight.memo
    for side in state.sides:
        assert PAIRS not in side_sight(state, side).memo


# -- the computer's estimates -----------------------------------------------------------


@pytest.mark.parametrize("weapon", [WeaponName.RIFLE, WeaponName.SMG, WeaponName.LMG,
                                    WeaponName.PANZERFAUST, WeaponName.FLAMETHROWER])
def test_estimates_kept_by_range_band_are_the_estimates_worked_out(weapon: WeaponName
                                                                     ) -> None:
    reach = WEAPONS[weapon].range
    distances = [d for d in (0.5, 6.0, 6.01, reach / 2, reach / 2 + 0.01, reach - 0.3, reach)
                 if d <= reach]
    for distance, inside, vehicle, pins in product(distances, (False, True),
                                                  (False, True), (0, 2)):
        mark = Mark(models=4, distance=distance, inside=inside, vehicle=vehicle)
        for advanced in (False, True):
            kept = weapon_losses(weapon, mark, Quality.VETERAN, pins, advanced)
            arms = WEAPONS[weapon]
            afresh = 0.0 if advanced and arms.fixed else _weapon_losses(
                weapon, mark, Quality.VETERAN, pins, advanced)
            assert kept == afresh, (distance, inside, vehicle, pins, advanced)
        assert pin_chance([weapon, weapon], mark, Quality.VETERAN, pins) == \
            1.0 - _misses(weapon, mark, Quality.VETERAN, pins) ** 2
    beyond = Mark(models=4, distance=reach + 0.01)
    assert weapon_losses(weapon, beyond) == 0.0
    assert pin_chance([weapon], beyond) == 0.0


def test_a_unit_s_losses_add_its_weapons_best_first() -> None:
    arms = [WeaponName.RIFLE] * 5 + [WeaponName.LMG, WeaponName.SMG]
    mark = Mark(models=8, distance=10.0)
    each = sorted((_weapon_losses(w, mark, Quality.REGULAR, 0, False) for w in arms),
                  reverse=True)
    for _ in range(2):  # worked out, then kept
        assert unit_losses(arms, mark) == min(8.0, sum(each))
        assert unit_losses(arms, mark, inside=True) == min(8.0, sum(each[:4]))
    nearer = Mark(models=8, distance=3.0)
    assert unit_losses(arms, nearer) == min(8.0, sum(sorted(
        (_weapon_losses(w, nearer, Quality.REGULAR, 0, False) for w in arms), reverse=True)))


# -- the views' copies ------------------------------------------------------------------


def test_a_view_s_copy_of_a_unit_follows_its_models_moved_in_place() -> None:
    g = game()
    state = _state(g)
    first = g.observe("allies").unit("rifles")
    assert g.observe("allies").unit("rifles") is first  # nothing changed: kept
    state.units["rifles"].models[3].x += 1.0
    moved = g.observe("allies").unit("rifles")
    assert moved is not first
    assert moved.models == state.units["rifles"].models
    assert moved.models is not state.units["rifles"].models
    state.units["rifles"].spent.append(0)
    assert g.observe("allies").unit("rifles").spent == [0]


def test_a_view_s_copy_of_a_sighting_follows_it() -> None:
    g = game()
    state = _state(g)
    put(g, "rifles", section="brick", floor=0)
    put(g, "mg", [(23.0, 12.8 + 0.2 * k) for k in range(3)])
    seen = dict(g.observe("axis").enemies)["rifles"]
    assert seen.visible
    _burn(state, "brick")
    refresh(state)
    assert not dict(g.observe("axis").enemies)["rifles"].visible
    assert seen.visible  # a view handed out before does not change


# -- the computer's batches and per-decision memo -----------------------------------------


def test_the_computer_s_batch_of_open_ground_distances_is_its_one_at_a_time() -> None:
    from math import inf

    from fibua.battlefield.model import Position
    from fibua.rulesets.buildings.ai import _distance, _Spread

    g = Game(load_scenario("beach-exit"), 3)
    view = g.observe(g.scenario.side_names[0])
    points = [(round(0.37 * k, 2), round(0.53 * k + 1.1, 2)) for k in range(120)]
    one_by_one = [_distance(view, Position(x, y)) for x, y in points]
    spread = _Spread(points[0], np.array(points, dtype=np.float64), points)
    for _ in range(2):  # read off the field, then kept
        assert spread.distances(view) == one_by_one  # to the last bit
    assert _Spread((0.0, 0.0), np.zeros((0, 2)), []).distances(view) == []
    blind = replace(view, goal=None)  # no field: straight to the nearest enemy known
    assert spread.distances(blind) == [_distance(blind, Position(x, y)) for x, y in points]
    assert spread.distances(view) == one_by_one  # the field asked of again
    assert inf not in one_by_one


def test_the_computer_s_move_ends_and_what_it_keeps_of_them_are_worked_out_afresh() -> None:
    """A unit waiting for its die is weighed again from where it stands: the ends of its
    moves, their gaps to the reach zone, to targets and the enemies that would see them
    are kept, and equal the answers worked out afresh."""
    from fibua.battlefield.geometry import hundredths
    from fibua.battlefield.model import Position
    from fibua.rulesets.buildings.ai import (
        _COSINES,
        _SINES,
        Control,
        _gap,
        _in_the_open,
        _reach_zones,
        _zone_gap,
    )

    g = Game(load_scenario("beach-exit"), 3)
    view = g.observe("americans")
    control = Control("americans", 1)
    x, y, lengths = 23.17, 30.4, (12.0, 7.2, 6.0)
    spread = control._spread(x, y, lengths)
    assert control._spread(x, y, lengths) is spread
    steps = np.array(lengths)
    assert spread.ends == list(zip(hundredths(x + np.outer(steps, _COSINES)).reshape(-1).tolist(),
                                   hundredths(y + np.outer(steps, _SINES)).reshape(-1).tolist(),
                                   strict=True))
    fresh = [_zone_gap(view, p) for p in spread.ends]
    assert len(_reach_zones(view)) == 1 and min(fresh) < 2.0
    for _ in range(2):
        assert control._zone_gaps_at(view, spread.ends) == fresh
    # other zones (the other side's: none) are measured afresh
    other = g.observe("germans")
    assert control._zone_gaps_at(other, spread.ends[:3]) == [_zone_gap(other, p)
                                                             for p in spread.ends[:3]]
    assert control._zone_gaps_at(view, spread.ends) == fresh

    field = view.sight.battlefield
    for targets in ([field.section("gun-casemate")], [field.section("command-post")],
                    _reach_zones(view)):
        for _ in range(2):
            assert spread.gaps_to(targets) == [_gap(targets, e) for e in spread.ends]

    sight = view.sight
    assert spread.sections(view) == [sight.section_at((x + (ex - x), y + (ey - y)))
                                     for ex, ey in spread.ends]
    places = _in_the_open(np.concatenate([np.array([(x, y)]), spread.xy]))
    for watch in (((30.0, 40.0, None, 0), (12.5, 44.0, None, 0)), ((30.0, 40.0, None, 0),),
                  ((30.0, 41.0, None, 0),)):
        seen = sight.visible_matrix_arrays(
            sight.position_arrays([Position(*w) for w in watch]), places).sum(axis=0)
        for _ in range(2):
            assert spread.hidden_from(view, watch).tolist() == \
                (seen[0] - seen[1:]).tolist()


def test_the_computer_s_decision_keeps_the_standing_worked_out_afresh() -> None:
    from fibua.battlefield.model import Position
    from fibua.rulesets.buildings.ai import _Decision, _in_zone
    from fibua.rulesets.buildings.reckoning import standing

    g = game()
    put(g, "rifles", section="brick", floor=0)
    view = g.observe("allies")
    decision = _Decision(view)
    moved = ("rifles", Position(23.0, 13.0))
    for _ in range(2):  # worked out, then kept
        assert decision.standing() == standing(view)
        assert decision.standing(frozenset({"rifles"})) == standing(view,
                                                                    frozenset({"rifles"}))
        assert decision.standing(frozenset(), moved) == standing(view, frozenset(), moved)
        assert decision.zone_held() == any(_in_zone(view, u) for u in view.own if u.alive)


def test_the_moves_the_computer_does_not_ask_of_the_rules_are_refused_by_them() -> None:
    """A move whose first model would end in a standing building is not asked of the
    rules: along computer games, every such choice is one the rules refuse."""
    from fibua.core.game import play_out
    from fibua.rulesets.buildings.ai import Control

    told = []

    class Checked(Control):
        def _choices(self, view, unit, decision):  # type: ignore[no-untyped-def]
            out = super()._choices(view, unit, decision)
            for c in out:
                if c.refused:
                    told.append(not g.ruleset.allows(g.state, c.order))
            return out

    for seed in (1, 2):
        g = Game(load_scenario("beach-exit"), seed)
        play_out(g, {side: Checked(side, seed) for side in g.scenario.side_names})
    assert len(told) > 20 and all(told)
