"""What the Buildings computer and rules keep from one order to the next to go faster
gives, along whole games, the very answers worked out afresh: a unit's orders as last
weighed (`Control._choices`), the weapons that fire at a target and the nearest aim
each place sees (firing.py, kept in the rules' sight memo), a fire's chance to pin."""

from __future__ import annotations

from typing import Any

import pytest

from fibua.core.game import Game, play_out
from fibua.rulesets.buildings import actions, firing, forecast, forecast_fire
from fibua.rulesets.buildings.ai import Choice, Control, _Decision
from fibua.rulesets.buildings.estimates import Mark, _pin_chance, pin_chance
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
