"""A whole game of Street-Fight in the browser, played by a person who only clicks, to its
end and the after-action report.

The game is The Corner Shop with its turn limit lowered from 10 to 5, so that the whole
game fits in a test: the lowered copy is uploaded in the lobby as a scenario file of its
own (`corner-shop-short`), the one change. The game is made from its card in the lobby
(the seed typed, the Germans holding the shop a person's, the British attacking it the
computer's) and the German link opened from it. The defenders are played because they
are the ones with shots worth taking in five turns: the British, played the same way,
walked up the street for five turns and never had a shot better than hopeless. Each time
the page says it is the German turn, the person goes down the list of figures still in
the fight:

- a figure that may shoot: each Briton in sight is chosen in turn from the form's list
  and previewed, and the best chance whose preview shows no risk (a hopeless shot) is
  committed;
- else a figure that may move: the move form's dots (the rules' sampled places) are
  clicked, the one nearest the shop's rooms first (only dots nearer than the figure is
  now), and the first the rules allow is committed (with a Briton in sight, only a walk:
  a runner cannot shoot);
- else a figure that may aim: Aim, unless its preview shows it wasted;

then End phase. Nothing else gives an order. The game must end (the turn limit, or a side
with nobody left); the page must say so (no phase after the end), with the winner or a
draw, the reason and the points the server's stored game gives; and the report must be
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
    cancel_shown,
    choose_unit,
    commit_shown,
    edited,
    fit_units,
    in_sight,
    nearer_move,
    needs_chromium,
    open_form,
    play_whole_game,
    preview_shown,
    say_done,
    still_mine,
)

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_chromium, pytest.mark.usefixtures("warm_kernels")]

NAME = "corner-shop-short"
TURNS = 5
SEED = 3
ME = "germans"
SEATS = {ME: "human", "british": "computer"}
#: the corner shop's two rooms, the shop and its store: where the Germans stay
GOALS = ((23.5, 25.0), (23.5, 30.0))
#: the most Britons previewed for one figure's shot, and dots tried for one move
MOST_TRIED = 4
#: the report's view switch
VIEWS = ["Control (everything)", "british's view", "germans' view"]


def variant() -> str:
    """The bundled scenario with the turn limit lowered (and its own name and title)."""
    text = (Path(fibua.__file__).parent / "scenarios/street-fight/corner-shop.toml").read_text()
    return edited(text, [('name = "corner-shop"', f'name = "{NAME}"'),
                         ('title = "The Corner Shop"', 'title = "The Corner Shop (five turns)"'),
                         ("\nturns = 13\n", f"\nturns = {TURNS}\n")])


def aim(page: Any) -> bool:
    """Aim, unless the preview says it is wasted (past the most aiming counts)."""
    open_form(page, "aim")
    shown = preview_shown(page)
    if shown is None or shown["risks"]:
        cancel_shown(page)
        return False
    return commit_shown(page)


def play_my_phase(page: Any) -> Counter[str]:
    """The side's figures, one after another, then End phase; what was given."""
    given: Counter[str] = Counter()
    for unit in fit_units(page):
        if not still_mine(page):
            return given
        kinds = choose_unit(page, unit)
        if "shoot target" in kinds and best_shot(page, "shoot target", 0.0, MOST_TRIED):
            given["shoot"] += 1
        elif "move to" in kinds and nearer_move(page, unit, GOALS, MOST_TRIED,
                                                walk=bool(in_sight(page))):
            given["move"] += 1
        elif "aim" in kinds and aim(page):
            given["aim"] += 1
    if still_mine(page):
        say_done(page)
        given["end phase"] += 1
    return given


def test_a_whole_game_of_street_fight_by_clicking(tmp_path: Path) -> None:
    given = play_whole_game(tmp_path, WholeGame(NAME, variant(), SEATS, SEED, ME, VIEWS),
                            play_my_phase)
    assert given["shoot"] and given["move"] and given["end phase"], given
