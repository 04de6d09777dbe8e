"""The House-Clearing computer's compiled place scoring reads the body model exactly as
the geometry does: the screen between any two places and whether a figure may lean out,
to the last bit, on the bundled maps; and a field's walks for several lengths at once are
its walks one length at a time."""

from __future__ import annotations

import pytest

from fibua.core.game import Game
from fibua.rulesets.house_clearing.estimates import (
    _screen_of,
    body_arrays,
    can_lean_kernel,
)
from fibua.rulesets.house_clearing.views import goal_field
from fibua.scenario.loader import load_scenario
from hc_helpers import map_geometry, random_places

MAPS = ("ramp-houses", "oosterbeek-crossroads")


@pytest.mark.parametrize("name", MAPS)
def test_the_compiled_screen_is_the_geometrys(name: str) -> None:
    geometry = map_geometry(name)
    body = body_arrays(geometry)
    index = geometry.sight.section_index
    places = random_places(geometry, 240, 7)
    for a, b in zip(places, places[1:] + places[:1], strict=True):
        for viewer, target in ((a, b), (b, a)):
            found = _screen_of(viewer.x, viewer.y, index(viewer.section), viewer.floor,
                               target.x, target.y, index(target.section), target.floor,
                               body.obstacle_segs, body.obstacle_heights, body.open_segs,
                               body.open_sill, body.open_section, body.group)
            assert found == geometry.screen(viewer, target), (viewer, target)


@pytest.mark.parametrize("name", MAPS)
def test_leaning_as_the_geometry_allows_it(name: str) -> None:
    geometry = map_geometry(name)
    body = body_arrays(geometry)
    places = random_places(geometry, 400, 11)
    arrays = geometry.sight.position_arrays(places)
    found = can_lean_kernel(arrays.xy, arrays.section, arrays.floor, body.open_segs,
                            body.open_section, body.open_lean, body.group)
    expected = [geometry.can_lean(p) for p in places]
    assert found.tolist() == expected
    assert any(expected) and not all(expected)  # both answers are tried


def test_walks_for_several_lengths_are_each_walk() -> None:
    game = Game(load_scenario("ramp-houses"), 1)
    state = game.state
    lengths = (9.0, 6.0, 4.0, 3.0, 2.0, 1.0)
    fields = [goal_field(state, side) for side in game.scenario.side_names]
    assert any(fields)
    for field in fields:
        if field is None:
            continue
        for place in random_places(state.geometry, 60, 3):
            assert field.descend_many(place, lengths) == \
                [field.descend(place, length) for length in lengths]
