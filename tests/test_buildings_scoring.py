"""The victory conditions the bundled Buildings scenarios use, scored by the rules: `hold`
over several sections (a unit in any, no enemy in any), `reach` a zone, `survive`."""

from __future__ import annotations

from fibua.core.game import Game
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.turn import score
from fibua.scenario.loader import load_scenario


def state_of(name: str) -> BuildingsState:
    found: BuildingsState = Game(load_scenario(name), 0).state
    return found


def move(unit: Unit, x: float, y: float, section: str | None = None, floor: int = 0) -> None:
    dx, dy = x - unit.lead.x, y - unit.lead.y
    for model in unit.models:
        model.x, model.y = model.x + dx, model.y + dy
    unit.section, unit.floor = section, floor


def test_village_street_at_the_start_the_british_hold_everything() -> None:
    state = state_of("village-street")
    assert score(state, "end").scores == {"germans": 0.0, "british": 4.0}


def test_one_enemy_in_one_of_the_sections_breaks_the_hold_of_both() -> None:
    state = state_of("village-street")
    state.units["eight-section"].destroyed = True
    state.units["piat"].destroyed = True
    move(state.units["gruppe-falk"], 16.5, 15.5, "epicerie", 0)
    # the British still hold the cafe but not the epicerie: the cafe-and-epicerie point
    # is nobody's while both sides stand in one of them
    assert score(state, "end").scores == {"germans": 0.0, "british": 1.0}
    for uid in ("seven-section", "foo"):
        state.units[uid].destroyed = True
    assert score(state, "end").scores == {"germans": 3.0, "british": 1.0}


def test_reaching_the_crossroads() -> None:
    state = state_of("village-street")
    move(state.units["tiger"], 9, 23)
    assert score(state, "end").scores["germans"] == 2.0


def test_beach_exit_the_garrison_holds_and_survives() -> None:
    state = state_of("beach-exit")
    assert score(state, "end").scores == {"americans": 0.0, "germans": 4.0}
    move(state.units["easy-first"], 23, 46)
    assert score(state, "end").scores["americans"] == 2.0
