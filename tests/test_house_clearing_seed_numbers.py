"""House-Clearing rules the other tests left loose, pinned with the seed's own numbers:
the climbing limits (chest height: half a move; up to one and a half times the figure's
height: a whole move; higher: not at all), the whole range-band table, the automatic cone
(an SMG at 4in beats a zone 1in wide) and the leaders' statistics."""

from __future__ import annotations

from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.rulesets.house_clearing.firing import in_cone
from fibua.rulesets.house_clearing.shooting import OutOfRange, band_for
from fibua.rulesets.house_clearing.tables import Row
from hc_helpers import act, all_dice_used, figure, new_game, of_kind, order

# ------------------------------------------------------------------------------ climbing
# The test table's obstacles: a low wall 0.5in high (y = 6, x 2..8), a hedge 1in (x = 20,
# y 14..20), a high wall 1.5in (x = 18, y 2..8), a factory wall 2in (x = 22, y 2..8).
# Changing the figures' height (option figure_height) moves the limits onto the walls.

HEDGE = ((19.5, 17), (20.5, 17))  # 1in of open ground over the 1in hedge
LOW = ((5, 5.5), (5, 6.5))  # over the 0.5in low wall
HIGH = ((17.5, 5), (18.5, 5))  # over the 1.5in wall
FACTORY = ((21.5, 5), (22.5, 5))  # over the 2in wall


def climb(height: float, crossing: tuple[tuple[float, float], tuple[float, float]],
          **extra: Any) -> dict[str, Any]:
    start, to = crossing
    game = new_game([figure("b1", "rifle", start, initiative=1)],
                    [figure("r1", "rifle", (2, 23))], options={"figure_height": height})
    act(game, "move", "b1", to=list(to), **extra)
    (moved,) = of_kind(game.log, "moved")
    assert all_dice_used(game)  # moving rolls nothing
    return moved


def refused(height: float, crossing: tuple[tuple[float, float], tuple[float, float]]) -> str:
    start, to = crossing
    game = new_game([figure("b1", "rifle", start, initiative=1)],
                    [figure("r1", "rifle", (2, 23))], options={"figure_height": height})
    with pytest.raises(IllegalOrder) as caught:
        game.apply(order(game, "move", "b1", to=list(to)))
    return caught.value.code


@pytest.mark.parametrize(
    ("height", "crossing", "share"),
    [
        (1.25, HEDGE, 1 / 9 + 0.5),  # 1in is exactly chest height (0.8 x 1.25): half
        (1.2, HEDGE, 1.0),  # just over chest height (0.96): a whole move
        (1.0, LOW, 1 / 9 + 0.5),  # 0.5in, well under the chest: half
        (0.62, LOW, 1.0),  # over the chest of a 0.62in figure (0.496): whole
        (1.0, HIGH, 1.0),  # exactly 1.5 times the figure: still a whole move
        (1.34, FACTORY, 1.0),  # 2in under 1.5 x 1.34 = 2.01: a whole move
    ],
)
def test_climbing_costs_by_the_figure_s_height(
        height: float, crossing: tuple[tuple[float, float], tuple[float, float]],
        share: float) -> None:
    moved = climb(height, crossing)
    assert moved["share"] == pytest.approx(share, abs=1e-4)
    assert len(moved["climbed"]) == 1


@pytest.mark.parametrize(
    ("height", "crossing"),
    [(0.99, HIGH),  # 1.5in over 1.5 x 0.99 = 1.485
     (1.3, FACTORY),  # 2in over 1.95
     (1.0, FACTORY)],
)
def test_a_wall_over_one_and_a_half_times_the_figure_cannot_be_climbed(
        height: float, crossing: tuple[tuple[float, float], tuple[float, float]]) -> None:
    assert refused(height, crossing) == "too-high"


def test_a_whole_move_climb_allows_two_inches_of_ground_in_all() -> None:
    assert climb(1.0, ((19, 17), (21, 17)))["share"] == 1.0
    assert refused(1.0, ((19, 17), (21.05, 17))) == "too-far"


def test_a_half_move_climb_leaves_half_a_move_of_ground() -> None:
    # half a move left after the low wall: 4.5in of open ground (9 x 0.5)
    assert climb(1.0, ((5, 3), (5, 7.5)))["share"] == pytest.approx(1.0)
    assert refused(1.0, ((5, 3), (5, 7.6))) == "too-far"


# ---------------------------------------------------------------------- range bands

SEED_BANDS = {
    Row.PISTOL: (1, 2, 3, 4, 5),
    Row.SMG: (2, 4, 6, 8, 10),
    Row.CARBINE: (4, 8, 12, 16, 20),
    Row.RIFLE: (5, 10, 15, 20, 25),
    Row.BOX_LMG: (4, 8, 12, 16, 20),
    Row.BELT_LMG: (5, 10, 15, 20, 25),
}


@pytest.mark.parametrize("row", list(SEED_BANDS))
def test_every_row_of_the_range_band_table(row: Row) -> None:
    names = ["Full", "Half", "Quarter", "Eighth", "Sixteenth"]
    for index, limit in enumerate(SEED_BANDS[row]):
        band = band_for(row, limit)  # a range on a limit belongs to that band
        assert (band.name, band.divisor, band.limit) == (names[index], 2**index, limit)
        if index < 4:
            assert band_for(row, limit + 0.01).name == names[index + 1]
    with pytest.raises(OutOfRange):
        band_for(row, SEED_BANDS[row][-1] + 0.01)  # beyond the Sixteenth: no fire


# ------------------------------------------------------------------- automatic cone


def test_an_smg_on_automatic_at_4in_beats_a_zone_1in_wide() -> None:
    firer, target = Position(0, 0), Position(0, 4)
    assert in_cone(firer, target, Position(0.5, 4))  # half of 1in to either side
    assert in_cone(firer, target, Position(-0.5, 4))
    assert not in_cone(firer, target, Position(0.52, 4))
    assert in_cone(firer, target, Position(0.25, 2))  # half as wide halfway
    assert not in_cone(firer, target, Position(0.27, 2))
    assert not in_cone(firer, target, Position(0, 4.05))  # it ends at the target
    assert not in_cone(firer, target, Position(0, -1))  # and starts at the firer


# ------------------------------------------------------------------------- leaders


@pytest.mark.parametrize("rank", ["officer", "nco", "hero"])
def test_officers_ncos_and_heroes_roll_d3_plus_1_and_4d6x10(rank: str) -> None:
    leader = figure("lead", "smg", (21, 10), initiative=None, skill=None, rank=rank)
    game = new_game([leader], [figure("r1", "rifle", (21, 20))], [1, 1, 1, 1, 1])
    lead = game.state.figures["lead"]
    assert (lead.initiative, lead.skill) == (1 + 1, 4 * 10)  # the lowest rolls: 2 and 40
    assert all_dice_used(game)
