"""What happens to a unit that is hit: models removed, pins, rout, the half-strength
morale test, and a unit destroyed (its die leaves the bag with it)."""

from __future__ import annotations

from fibua.rulesets.buildings.knowledge import watchers
from fibua.rulesets.buildings.morale import half_strength, morale_test, routs
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import WeaponName

#: weapons whose models the owner keeps to the last (the computer's pick for every side)
_PLAIN = frozenset({WeaponName.RIFLE, WeaponName.SMG, WeaponName.ASSAULT_RIFLE, None})


def everyone(state: BuildingsState) -> tuple[str, ...]:
    return state.sides


def destroy(state: BuildingsState, unit: Unit, why: str) -> None:
    if unit.destroyed:
        return
    unit.destroyed = True
    enemy = state.enemy_of(unit.side)
    state.destroyed_by[enemy] = state.destroyed_by.get(enemy, 0) + 1
    state.emit("destroyed", {"unit": unit.id, "name": unit.name, "why": why}, state.sides)


def remove_models(state: BuildingsState, unit: Unit, n: int, why: str) -> None:
    """Take off n models, plain riflemen first and the leader (the first model) last;
    then the unit's test the first time it falls to half strength."""
    if n <= 0 or unit.destroyed:
        return
    # more damaging hits than models (an assault's strikes, a burst of HE) take off no
    # more than there are, and the event says what was taken
    lost = min(n, len(unit.models))
    for _ in range(lost):
        order = sorted(range(len(unit.models)),
                       key=lambda i: (i == 0, unit.models[i].weapon not in _PLAIN, -i))
        unit.models.pop(order[0])
    state.emit("casualties", {"unit": unit.id, "lost": lost, "left": len(unit.models),
                              "why": why}, watchers(state, unit))
    if not unit.models:
        destroy(state, unit, why)
        return
    if not unit.half_tested and half_strength(unit.start, len(unit.models)):
        unit.half_tested = True
        test = morale_test(state.rng, unit.quality, unit.pins)
        state.emit("morale-test", {"unit": unit.id, "roll": test.roll.to_dict(),
                                   "passed": test.passed}, watchers(state, unit))
        if not test.passed:
            destroy(state, unit, "failed its morale test at half strength")


def add_pins(state: BuildingsState, unit: Unit, n: int, why: str) -> None:
    if n <= 0 or unit.destroyed:
        return
    unit.pins += n
    state.emit("pins", {"unit": unit.id, "added": n, "pins": unit.pins, "why": why},
               watchers(state, unit))
    if routs(unit.quality, unit.pins):
        state.emit("rout", {"unit": unit.id, "pins": unit.pins}, watchers(state, unit))
        destroy(state, unit, "routed: pins reached its morale")
