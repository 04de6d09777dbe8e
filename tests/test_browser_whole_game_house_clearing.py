"""A whole game of House Clearing in the browser, played by a person who only clicks, to
its end and the after-action report.

The game is The Houses by the Ramp with its turn limit lowered from 12 to 3, so that the
whole game fits in a test: the lowered copy is uploaded in the lobby as a scenario file
of its own (`ramp-houses-short`), the one change. The game is made from its card in the
lobby (the seed typed, the Lieutenant's group a person's, the other British group and
both German groups the computer's), and the seat's link opened from it. Then, each time
the page says it is the seat's turn, the person goes down the seat's list of figures:

- a figure that may fire: each enemy in sight is chosen in turn from the form's list and
  previewed, and the best chance whose preview shows no risk (a friend in the cone, a
  hopeless shot) is committed (in a window opened by an enemy's move, only a chance of
  10% or more: otherwise the mover is let go);
- a figure that may move: the move form's dots (the rules' sampled places) are clicked,
  the one nearest the corner house first, and the first the rules allow is committed;

then Done. Nothing else gives an order. The game must end (the turn limit, or a side with
nobody left in action); the page must say so (no phase after the end), with the winner or
a draw, the reason and the points the server's stored game gives; and the report must be
reachable from the page, with the typed seed, the sides' views and no turn past the last.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import fibua
from browser_helpers import (
    WholeGame,
    best_shot,
    choose_unit,
    edited,
    fit_units,
    nearer_move,
    needs_chromium,
    play_whole_game,
    say_done,
    still_mine,
)

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

NAME = "ramp-houses-short"
TURNS = 3
SEED = 11
ME = "Lieutenant's group"
#: every seat of the scenario, and who plays it
SEATS = {ME: "human", "Sergeant's group": "computer",
         "Unterscharfuehrer's group (corner house)": "computer",
         "Rottenfuehrer's group (Van Kooten house)": "computer"}
#: the corner house's two rooms: where the British go
GOALS = ((23.0, 26.0), (27.0, 26.0))
#: the least chance worth firing at a mover for (a figure that fires in a window cannot
#: fire again in its own step)
AT_A_MOVER = 0.1
#: the most enemies previewed for one figure's fire, and dots tried for one move
MOST_TRIED = 4
#: the report's view switch
VIEWS = ["Control (everything)", "british's view", "germans' view"]


def variant() -> str:
    """The bundled scenario with the turn limit lowered (and its own name and title)."""
    text = (Path(fibua.__file__).parent / "scenarios/house-clearing/ramp-houses.toml").read_text()
    return edited(text, [('name = "ramp-houses"', f'name = "{NAME}"'),
                         ('title = "The Houses by the Ramp"',
                          'title = "The Houses by the Ramp (three turns)"'),
                         ("turns = 12", f"turns = {TURNS}")])


# ---------------------------------------------------------------- the person


def play_my_turn(page: Any) -> Counter[str]:
    """The seat's figures, one after another, then Done; what was given."""
    given: Counter[str] = Counter()
    window = bool(page.evaluate("() => Boolean(state.view && state.view.reaction)"))
    for unit in fit_units(page):
        if not still_mine(page):
            return given
        kinds = choose_unit(page, unit)
        if "fire" in kinds and best_shot(page, "fire", AT_A_MOVER if window else 0.0,
                                         MOST_TRIED):
            given["fire at a mover" if window else "fire"] += 1
        elif "move to" in kinds and not window and nearer_move(page, unit, GOALS, MOST_TRIED):
            given["move"] += 1
    if still_mine(page):
        say_done(page)
        given["let the mover go" if window else "done"] += 1
    return given


def test_a_whole_game_of_house_clearing_by_clicking(tmp_path: Path) -> None:
    given = play_whole_game(tmp_path, WholeGame(NAME, variant(), SEATS, SEED, ME, VIEWS),
                            play_my_turn)
    assert given["move"] and given["fire"] and given["done"], given
