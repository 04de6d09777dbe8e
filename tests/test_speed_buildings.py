"""What the Buildings computer and rules keep from one order to the next to go faster
gives, along whole games, the very answers worked out afresh: a unit's orders as last
weighed (`Control._choices`), what the computer keeps to weigh them (its memos of
objectives, weapons, marks, moves out in the open and standings), the weapons that fire
at a target and the nearest aim each place sees (firing.py, kept in the rules' sight
memo), a fire's chance to pin, an order test's chance to pass; a move out in the open
checked (actions.py, kept in the rules' sight memo), a refresh of the sides' memories that
makes a sighting only of an enemy not as it was seen, a view's comparison of a unit's
models, the units fallen read off a view's log."""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from dataclasses import replace
from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.core.game import Game, play_out
from fibua.core.knowledge import Sure
from fibua.rulesets.buildings import (
    actions,
    ai,
    firing,
    forecast,
    forecast_fire,
    knowledge,
    reckoning,
    turn,
    views,
)
from fibua.rulesets.buildings.ai import Choice, Control, _Decision
from fibua.rulesets.buildings.estimates import Mark, _pin_chance, pin_chance
from fibua.rulesets.buildings.morale import pass_chance
from fibua.rulesets.buildings.state import BuildingsState, Model, Unit
from fibua.rulesets.buildings.tables import OrderKind, Quality, WeaponName
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


# -- what the rules keep or skip (actions.py, knowledge.py, views.py, reckoning.py) ----------


def _outside_afresh(state: BuildingsState, unit: Unit, to: tuple[float, float],
                    reach: float) -> tuple[str, object]:
    try:
        return "plan", actions._outside_now(state, unit, to, reach)
    except IllegalOrder as error:
        return "refused", (error.reason, error.code)


@pytest.mark.parametrize("name", ["beach-exit", "village-street"])
def test_a_move_in_the_open_kept_is_the_one_checked_afresh(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Along whole games: each move out in the open checked (its plan, or its refusal's
    reason and code) is the one worked out afresh, and some were kept (asked before with
    the models where they stand and the same point)."""
    kept: list[bool] = []
    real = actions._check_outside

    def check_outside(state: BuildingsState, unit: Unit, to: tuple[float, float],
                      reach: float) -> actions.Move:
        memo = state.sight.memo.get(actions.OUTSIDE) or {}
        kept.append(any(k[2] == tuple((m.x, m.y) for m in unit.models) and k[3] == to
                        for k in memo))
        fresh = _outside_afresh(state, unit, to, reach)
        try:
            found = real(state, unit, to, reach)
        except IllegalOrder as error:
            assert fresh == ("refused", (error.reason, error.code))
            raise
        assert fresh == ("plan", found)
        return found

    monkeypatch.setattr(actions, "_check_outside", check_outside)
    for seed in (5, 6):  # (the games of a map share the rules' memo: some moves kept
        g = Game(load_scenario(name), seed)  # are the first game's)
        play_out(g, {side: Control(side, seed) for side in g.scenario.side_names})
    assert True in kept and False in kept


def test_a_move_kept_follows_where_the_models_stand_and_the_point() -> None:
    """By hand: a move kept is handed out again, the same plan; moved by a hand, the unit's
    models ask afresh; a refusal kept is raised again with its reason and code."""
    g = Game(load_scenario("beach-exit"), 1)
    state = g.state
    unit = next(u for u in state.units.values() if u.section is None and u.aboard is None
                and len(u.models) > 1)
    to = (unit.lead.x + 0.5, unit.lead.y + 0.25)
    first = actions._check_outside(state, unit, to, 6.0)
    assert actions._check_outside(state, unit, to, 6.0) is first
    assert ("plan", first) == _outside_afresh(state, unit, to, 6.0)
    unit.models[1].x += 0.5  # (the lead where it was: the step is the same)
    moved = actions._check_outside(state, unit, to, 6.0)
    assert ("plan", moved) == _outside_afresh(state, unit, to, 6.0)
    assert moved.points != first.points
    far = (unit.lead.x + 30.0, unit.lead.y)
    for _ in range(2):  # worked out, then kept
        with pytest.raises(IllegalOrder) as refused:
            actions._check_outside(state, unit, far, 6.0)
        assert ("refused", (refused.value.reason, refused.value.code)) == \
            _outside_afresh(state, unit, far, 6.0)
        assert refused.value.code == "too-far"


def _refresh_afresh(state: BuildingsState) -> None:
    """`knowledge.refresh` as it was: every enemy in sight made a sighting, and recorded
    when it differs from the one known."""
    for side in state.sides:
        memory = state.knowledge[side]
        foes = [u for u in state.units.values() if u.side != side and u.alive]
        in_sight = dict(zip((f.id for f in foes),
                            knowledge.seen_by(state, state.side_units(side), foes),
                            strict=True))
        for enemy in state.units.values():
            if enemy.side == side:
                continue
            known = memory.get(enemy.id)
            if not enemy.alive:
                if known is not None and (known.alive or known.visible):
                    memory.record_casualty(enemy.id, state.turn)
                continue
            if in_sight[enemy.id]:
                now = knowledge.sighting(state, enemy)
                if now != known:
                    memory.record(now)
            elif known is not None:
                memory.lose(enemy.id, state.turn)


def _memories(state: BuildingsState) -> list[tuple[object, ...]]:
    return [(list(state.knowledge[s].sightings.items()), state.knowledge[s].news)
            for s in state.sides]


@pytest.mark.parametrize("name", ["beach-exit", "tobacco-factory"])
def test_a_refresh_leaves_the_memories_a_refresh_making_every_sighting_leaves(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Along whole games: refresh (which makes a sighting only of an enemy not standing as
    it was seen, `_as_seen`) leaves each side's memory as the refresh making them all:
    the same sightings, in the same order, the same news."""
    refreshed: list[int] = []
    real = knowledge.refresh

    def refresh(state: BuildingsState) -> None:
        twin = deepcopy(state.knowledge)
        real(state)
        found = _memories(state)
        kept, state.knowledge = state.knowledge, twin
        try:
            _refresh_afresh(state)
            assert _memories(state) == found
        finally:
            state.knowledge = kept
        refreshed.append(1)

    for module in (knowledge, actions, turn):  # each asks it by name
        monkeypatch.setattr(module, "refresh", refresh)
    g = Game(load_scenario(name), 6)
    play_out(g, {side: Control(side, 6) for side in g.scenario.side_names})
    assert len(refreshed) > 50


def test_an_enemy_as_seen_is_one_whose_sighting_would_be_the_same() -> None:
    """By hand: `_as_seen` holds of a sighting made now, and of none once a field the
    sighting reads changed."""
    g = Game(load_scenario("beach-exit"), 1)
    state = g.state
    enemy = next(iter(state.units.values()))
    seen = knowledge.sighting(state, enemy)
    assert knowledge._as_seen(seen, enemy, state.turn)
    for changed in (seen._replace(x=seen.x + 1), seen._replace(floor=seen.floor + 1),
                    seen._replace(turn=seen.turn + 1), seen._replace(doing=OrderKind.FIRE),
                    seen._replace(strength=0), seen._replace(sure=Sure.LAST_SEEN),
                    seen._replace(alive=False), seen._replace(name="other"),
                    seen._replace(section="s"), seen._replace(step=1)):
        assert changed != seen
        assert not knowledge._as_seen(changed, enemy, state.turn)


def test_a_units_lists_are_the_same_as_the_models_compare_them() -> None:
    """`views._same_lists` compares the models field by field as Model's == does."""
    g = Game(load_scenario("beach-exit"), 1)
    unit = next(u for u in g.state.units.values() if len(u.models) > 1)
    copy = views._copy(unit)
    assert views._same_lists(copy, unit)
    changes: list[Callable[[Unit], None]] = [
        lambda u: setattr(u.models[1], "x", u.models[1].x + 1),
        lambda u: setattr(u.models[0], "y", u.models[0].y - 1),
        lambda u: setattr(u.models[1], "weapon", WeaponName.PISTOL),
        lambda u: u.models.pop(),
        lambda u: u.models.append(Model(1.0, 2.0, None)),
        lambda u: u.spent.append(0),
    ]
    for change in changes:
        other = views._copy(unit)
        change(other)
        same = other.models == unit.models and other.spent == unit.spent
        assert views._same_lists(other, unit) == same
        assert not same


def test_the_units_fallen_are_read_off_the_log_as_each_event_tells(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Along whole games, every view's log read by the computer's standings (till one
    names a unit destroyed)."""
    fell: list[bool] = []
    real = reckoning._fallen

    def fallen(log: Any) -> list[Any]:
        found = real(log)
        assert found == [e.data.get("unit") for e in log if e.kind == "destroyed"]
        fell.append(bool(found))
        return found

    monkeypatch.setattr(reckoning, "_fallen", fallen)
    for seed in range(1, 6):
        g = Game(load_scenario("tobacco-factory"), seed)
        play_out(g, {side: Control(side, seed) for side in g.scenario.side_names})
        if True in fell:
            break
    assert True in fell and False in fell
