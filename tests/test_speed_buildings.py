"""What the Buildings computer and rules keep from one order to the next to go faster
gives, along whole games, the very answers worked out afresh: a unit's orders as last
weighed (`Control._choices`), what the computer keeps to weigh them (its memos of
objectives, weapons, marks, moves out in the open and standings), the weapons that fire
at a target and the nearest aim each place sees (firing.py, kept in the rules' sight
memo), a fire's chance to pin, an order test's chance to pass."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.game import Game, play_out
from fibua.rulesets.buildings import actions, ai, firing, forecast, forecast_fire
from fibua.rulesets.buildings.ai import Choice, Control, _Decision
from fibua.rulesets.buildings.estimates import Mark, _pin_chance, pin_chance
from fibua.rulesets.buildings.morale import pass_chance
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import Quality, WeaponName
from fibua.rulesets.buildings.views import SideView
from fibua.scenario.loader import load_scenario


class _Checked(Control):
    """A computer that weighs every unit afresh as well, and counts the answers kept."""

    kept = 0
    weighed = 0

    def _choices(self, view: SideView, unit: Unit, decision: _Decision) -> list[Choice]:
        out = super()._choices(view, unit, decision)
        fresh = self._weigh(view, unit, _Decision(view))
        assert out == fresh, unit.id
        _Checked.weighed += 1
        return out


@pytest.mark.parametrize("name", ["beach-exit", "village-street"])
def test_a_units_orders_kept_are_those_weighed_afresh(name: str) -> None:
    counted: list[bool] = []
    real = Control._weigh

    def weigh(self: Control, view: SideView, unit: Unit, decision: _Decision
              ) -> list[Choice]:
        counted.append(True)
        return real(self, view, unit, decision)

    _Checked.weighed = 0
    g = Game(load_scenario(name), 1)
    players = {side: _Checked(side, 1) for side in g.scenario.side_names}
    Control._weigh = weigh  # type: ignore[method-assign]
    try:
        play_out(g, dict(players))
    finally:
        Control._weigh = real  # type: ignore[method-assign]
    # every unit weighed afresh once (by the check) and some kept: the memo was used
    assert _Checked.weighed > 50
    assert _Checked.weighed < len(counted) < 2 * _Checked.weighed


def test_the_weapons_that_fire_kept_are_those_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = firing.firers

    def firers(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
               spent: frozenset[int] = frozenset()) -> list[firing.Firer]:
        found = real(state, unit, target, advanced, spent)
        memo: dict[Any, Any] = state.sight.memo
        saved = memo.pop(firing.NEAREST, None)  # the nearest aims worked out again too
        assert found == firing._firers_now(state, unit, target, advanced, spent)
        if saved is not None:
            memo[firing.NEAREST] = saved
        asked.append(1)
        return found

    for module in (firing, actions, forecast, forecast_fire):  # each asks it by name
        monkeypatch.setattr(module, "firers", firers)
    g = Game(load_scenario("beach-exit"), 2)
    play_out(g, {side: Control(side, 2) for side in g.scenario.side_names})
    assert len(asked) > 20


def test_a_fires_chance_to_pin_kept_is_the_one_worked_out() -> None:
    arms = [WeaponName.RIFLE] * 5 + [WeaponName.LMG]
    for distance in (3.0, 11.0, 25.0):
        mark = Mark(models=4, distance=distance, inside=True)
        for _ in range(2):  # worked out, then kept
            assert pin_chance(arms, mark, Quality.VETERAN, 1) == \
                _pin_chance(arms, mark, Quality.VETERAN, 1)


# -- what the computer keeps beyond a unit's orders ------------------------------------------


class _Twice(Control):
    """A computer that weighs every unit it weighs a second time, as a computer keeping
    nothing would: a new one (no spreads, weapons, marks, moves or standings kept), its
    decision keeping no standing of earlier ones, and the module's memos of the
    objectives and of the places in a reach zone passed by."""

    compared = 0

    def _weigh(self, view: SideView, unit: Unit, decision: _Decision) -> list[Choice]:
        out = super()._weigh(view, unit, decision)
        kept = ai._aims, ai._in_zone
        ai._aims = ai._Aims.of  # type: ignore[assignment]
        ai._in_zone = lambda v, u: ai._in_zone_at(v, ai._position(u))  # type: ignore[assignment]
        try:
            fresh = Control(self.side, 0)._weigh(view, unit, _Decision(view))
        finally:
            ai._aims, ai._in_zone = kept  # type: ignore[assignment]
        assert out == fresh, unit.id
        _Twice.compared += 1
        return out


@pytest.mark.parametrize("name", ["beach-exit", "tobacco-factory", "village-street"])
def test_a_units_orders_weighed_with_all_the_computer_keeps_are_those_of_one_keeping_none(
        name: str) -> None:
    """Along whole games: the objectives read once a side (`_aims`), a unit's weapons
    (`_arms_of`), a sighting's mark from a place (`_mark`), the reach zone's gaps and
    the distances of a spread, its moves out in the open (`_open_moves`), and the
    standings of earlier decisions (`_standings_of`)."""
    _Twice.compared = 0
    g = Game(load_scenario(name), 3)
    play_out(g, {side: _Twice(side, 3) for side in g.scenario.side_names})
    assert _Twice.compared > 50


def test_the_moves_and_standings_kept_are_asked_again() -> None:
    """The computer's memos are used along a game, not only filled: some moves out in the
    open and some standings are kept from one weighing or decision to the next."""
    made: list[str] = []
    real_choices, real_standing = ai._Ways.choices, ai.standing

    def choices(self: ai._Ways) -> list[Choice]:
        made.append("moves")
        return real_choices(self)

    def standing(*args: Any) -> float:
        made.append("standing")
        return real_standing(*args)

    asked: list[str] = []
    real_open, real_of = Control._open_moves, _Decision._standing_of

    def open_moves(self: Control, ways: ai._Ways) -> list[Choice]:
        asked.append("moves")
        return real_open(self, ways)

    def standing_of(self: _Decision, key: Any) -> float:
        asked.append("standing")
        return real_of(self, key)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ai._Ways, "choices", choices)
        patch.setattr(ai, "standing", standing)
        patch.setattr(Control, "_open_moves", open_moves)
        patch.setattr(_Decision, "_standing_of", standing_of)
        g = Game(load_scenario("beach-exit"), 2)
        play_out(g, {side: Control(side, 2) for side in g.scenario.side_names})
    for what in ("moves", "standing"):
        assert made.count(what) < 0.8 * asked.count(what), what


def test_the_order_tests_chance_kept_is_the_one_worked_out() -> None:
    for need in range(-2, 15):
        for _ in range(2):
            assert pass_chance(need) == pass_chance.__wrapped__(need)


@pytest.mark.parametrize("name", ["beach-exit", "tobacco-factory"])
def test_the_standings_kept_from_earlier_decisions_are_those_worked_out_afresh(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []
    real = _Decision._standing_of

    def standing_of(self: _Decision, key: Any) -> float:
        found = real(self, key)
        assert found == ai.standing(self.view, *key), key
        asked.append(True)
        return found

    monkeypatch.setattr(_Decision, "_standing_of", standing_of)
    g = Game(load_scenario(name), 4)
    play_out(g, {side: Control(side, 4) for side in g.scenario.side_names})
    assert len(asked) > 20


def test_a_units_place_in_a_reach_zone_kept_is_the_one_worked_out_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`_in_zone` keeps each place's answer, and `_aims` each side's objectives, while the
    side's objectives are the same."""
    asked: list[bool] = []
    real_in_zone, real_aims = ai._in_zone, ai._aims

    def in_zone(view: SideView, unit: Unit) -> bool:
        found = real_in_zone(view, unit)
        assert found == ai._in_zone_at(view, ai._position(unit))
        asked.append(found)
        return found

    def aims(view: SideView) -> ai._Aims:
        found = real_aims(view)
        assert found == ai._Aims.of(view)
        return found

    monkeypatch.setattr(ai, "_in_zone", in_zone)
    monkeypatch.setattr(ai, "_aims", aims)
    for name, seed in (("beach-exit", 2), ("village-street", 6)):  # (units in zones)
        g = Game(load_scenario(name), seed)
        play_out(g, {side: Control(side, seed) for side in g.scenario.side_names})
    assert True in asked and False in asked
    # another scenario's objectives for the same side are read afresh
    view = Game(load_scenario("beach-exit"), 1).observe("americans")
    other = replace(view, objectives=view.objectives[:1])
    for v in (view, other, view):
        assert real_aims(v) == ai._Aims.of(v)


def test_a_spreads_distances_and_zone_gaps_kept_follow_the_goal_and_the_zones() -> None:
    """A spread keeps its ends' distances by the goal field and their gaps to the reach
    zones by the zones: another side's view (another field, no zone) is read afresh."""
    g = Game(load_scenario("beach-exit"), 3)
    us, them = g.observe("americans"), g.observe("germans")
    control = Control("americans", 1)
    spread = control._spread(23.17, 30.4, (12.0, 7.2, 6.0))
    answers = []
    for view in (us, them, us, them):
        for _ in range(2):  # worked out, then kept
            found = spread.distances(view)
            assert found == [ai._distance(view, Position(x, y)) for x, y in spread.ends]
            here, ends = control._spread_gaps(view, spread)
            assert [here, *ends] == [ai._zone_gap(view, p)
                                     for p in [spread.here, *spread.ends]]
        answers.append((found, here))
    assert answers[0] != answers[1]


def test_the_standing_sections_a_spreads_ends_fall_in_follow_the_sections_states() -> None:
    """`_Spread.standing` keeps which sections the ends fall in, not their states: a
    section brought down is no longer one a move is refused in."""
    from fibua.battlefield.model import SectionState

    g = Game(load_scenario("beach-exit"), 3)
    view = g.observe("americans")
    sight = view.sight
    sid = sight.battlefield.section_ids[0]
    x, y = ai.centroid(sight.battlefield.section(sid))
    spread = Control("americans", 1)._spread(x, y, (1.0, 0.6))

    def afresh() -> frozenset[str]:
        return frozenset(s for s in spread.sections(view) if s is not None
                         and sight.section_state(s) is not SectionState.RUBBLE)

    assert sid in spread.standing(view)
    assert spread.standing(view) == afresh()
    sight.set_section_state(sid, SectionState.RUBBLE)
    assert sid not in spread.standing(view)
    assert spread.standing(view) == afresh()
