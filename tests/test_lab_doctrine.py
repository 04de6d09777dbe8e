"""The doctrine player: its drill on made-up views, and whole games in every rule set."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from fibua.battlefield.model import Position, TerrainKind
from fibua.cli import main as cli
from fibua.core.orders import Order
from fibua.lab.doctrine import DoctrinePlayer
from fibua.lab.store import read_rows

runner = CliRunner()


def unit(ident: str, x: float, y: float, section: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(id=ident, pos=Position(x, y, section), alive=True)


def sighting(x: float, y: float, visible: bool = True) -> SimpleNamespace:
    return SimpleNamespace(x=x, y=y, section=None, visible=visible, alive=True)


class Straight:
    """A goal field: straight distance to x = 20."""

    def distance(self, pos: Position) -> float:
        return max(0.0, 20 - pos.x)


def view(own: list[SimpleNamespace], enemies: dict[str, SimpleNamespace], turn: int = 1,
         sections: tuple[str, ...] = ()) -> SimpleNamespace:
    return SimpleNamespace(side="blue", turn=turn, own=tuple(own),
                           enemies=tuple(enemies.items()), goal=Straight(),
                           goal_sections=sections)


END = Order("blue", "end")


def test_it_fires_at_the_nearest_enemy_it_sees() -> None:
    own = [unit("a", 0, 0), unit("b", 10, 0)]
    enemies = {"far": sighting(30, 0), "near": sighting(12, 1), "hidden": sighting(10, 1,
                                                                                  False)}
    legal = [END, Order("blue", "shoot", "a", {"target": "near"}),
             Order("blue", "shoot", "b", {"target": "far"}),
             Order("blue", "shoot", "b", {"target": "near"}),
             Order("blue", "shoot", "b", {"target": "hidden"})]
    assert DoctrinePlayer("blue", 0).choose(view(own, enemies), legal) == legal[3]


def test_it_advances_the_half_whose_turn_it_is_toward_the_objective() -> None:
    own = [unit("a", 0, 0), unit("b", 0, 5)]
    legal = [END, Order("blue", "move", "a", {"to": [3, 0]}),
             Order("blue", "move", "a", {"to": [5, 0]}),
             Order("blue", "move", "b", {"to": [5, 5]})]
    # turn 2: "a" (first of the sorted ids) bounds, "b" covers; turn 1 the other way round
    assert DoctrinePlayer("blue", 0).choose(view(own, {}, turn=2), legal) == legal[2]
    assert DoctrinePlayer("blue", 0).choose(view(own, {}, turn=1), legal) == legal[3]


def test_it_holds_the_objective_and_does_not_back_away() -> None:
    own = [unit("a", 20, 0), unit("b", 0, 5, section="shop")]
    legal = [END, Order("blue", "move", "a", {"to": [25, 0]}),
             Order("blue", "move", "b", {"to": [4, 5]})]
    assert DoctrinePlayer("blue", 0).choose(view(own, {}, turn=2, sections=("shop",)),
                                            legal) == END
    assert DoctrinePlayer("blue", 0).choose(view(own, {}, turn=1, sections=("shop",)),
                                            legal) == END


def test_with_no_goal_it_closes_on_the_enemy_it_has_seen() -> None:
    own = [unit("a", 0, 0)]
    seen = SimpleNamespace(side="blue", turn=2, own=tuple(own),
                           enemies=(("x", sighting(0, 20, visible=False)),), objectives=())
    legal = [END, Order("blue", "move", "a", {"to": [4, 0]}),
             Order("blue", "move", "a", {"to": [0, 4]})]
    assert DoctrinePlayer("blue", 0).choose(seen, legal) == legal[2]


@pytest.mark.parametrize("scenario", ["corner-shop", "ramp-houses", "anti-tank-screen"])
def test_it_plays_whole_games_in_every_rule_set(scenario: str, tmp_path: Path) -> None:
    result = runner.invoke(cli.app, ["lab", "run", scenario, "--games", "1", "--seat",
                                     "germans=doctrine", "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    row = next(iter(read_rows(tmp_path / "d")))
    assert row.players["germans"] == "doctrine"
    assert row.orders > 0 and row.reason


class Map:
    """A public map with a house over x in [3.5, 4.5] and a wall just north of (6, 0)."""

    def section_at(self, point: tuple[float, float]) -> str | None:
        return "house" if 3.5 <= point[0] <= 4.5 else None

    def terrain_at(self, point: tuple[float, float]) -> TerrainKind:
        return TerrainKind.OPEN

    def obstacles_crossed(self, a: tuple[float, float],
                          b: tuple[float, float]) -> list[tuple[object, float]]:
        return [(object(), 1.0)] if a == (6.0, 0.0) and b[1] > 0 else []


def test_it_bounds_into_cover_when_that_keeps_half_the_progress() -> None:
    own = [unit("a", 0, 0)]
    legal = [END, Order("blue", "move", "a", {"to": [5, 0]}),
             Order("blue", "move", "a", {"to": [4, 0]}),
             Order("blue", "move", "a", {"to": [1, 0]})]
    seen = view(own, {}, turn=2)
    seen.sight = Map()
    assert DoctrinePlayer("blue", 0).choose(seen, legal) == legal[2]  # into the house
    seen = view(own, {}, turn=2)
    assert DoctrinePlayer("blue", 0).choose(seen, legal) == legal[1]  # no map: farthest


def test_it_shelters_behind_a_wall_from_the_enemy_it_knows_of() -> None:
    own = [unit("a", 0, 0)]
    legal = [END, Order("blue", "move", "a", {"to": [7, 0]}),
             Order("blue", "move", "a", {"to": [6, 0]})]
    seen = view(own, {"x": sighting(6, 30, visible=False)}, turn=2)
    seen.sight = Map()
    assert DoctrinePlayer("blue", 0).choose(seen, legal) == legal[2]


class Sections:
    """A public map with one section, the shop, whose footprint is centred on (20, 0)."""

    def __init__(self) -> None:
        shop = SimpleNamespace(footprint=[(19, -1), (21, -1), (21, 1), (19, 1)])
        self.battlefield = SimpleNamespace(section=lambda ident: shop)

    def section_at(self, point: tuple[float, float]) -> str | None:
        return "shop" if 19 <= point[0] <= 21 and -1 <= point[1] <= 1 else None

    def terrain_at(self, point: tuple[float, float]) -> TerrainKind:
        return TerrainKind.OPEN

    def obstacles_crossed(self, a: tuple[float, float],
                          b: tuple[float, float]) -> list[tuple[object, float]]:
        return []


def test_every_rule_sets_words_for_a_move_count_and_entering_the_objective_is_reaching_it(
        ) -> None:
    own = [unit("a", 10, 0)]
    legal = [END, Order("blue", "advance", "a", {"to": [15, 0]}),
             Order("blue", "run", "a", {"enter": "shop"}),
             Order("blue", "run", "a", {"to": [18, 0]})]
    seen = view(own, {}, turn=2)
    seen.sight = Sections()
    seen.goal_sections = ()
    seen.objectives = (SimpleNamespace(side="blue", kind="hold", sections=["shop"],
                                       zone=None),)
    assert DoctrinePlayer("blue", 0).choose(seen, legal) == legal[2]


def test_it_closes_in_on_the_objective_before_anything_else() -> None:
    own = [unit("a", 10, 0)]
    enemies = {"x": SimpleNamespace(x=20, y=0, section="shop", visible=True, alive=True),
               "y": SimpleNamespace(x=12, y=0, section=None, visible=True, alive=True)}
    legal = [END, Order("blue", "shoot", "a", {"target": "y"}),
             Order("blue", "run", "a", {"assault": "y"}),
             Order("blue", "run", "a", {"assault": "x"}),
             Order("blue", "assault", "a", {"section": "shop"})]
    seen = view(own, enemies, turn=2, sections=("shop",))
    assert DoctrinePlayer("blue", 0).choose(seen, legal) == legal[3]
    del legal[3]
    assert DoctrinePlayer("blue", 0).choose(seen, legal) == legal[3]  # the section's


def test_the_bounding_half_moves_while_the_covering_half_fires() -> None:
    own = [unit("a", 0, 0), unit("b", 0, 5)]
    enemies = {"x": sighting(12, 1)}
    legal = [END, Order("blue", "shoot", "a", {"target": "x"}),
             Order("blue", "shoot", "b", {"target": "x"}),
             Order("blue", "move", "a", {"to": [5, 0]}),
             Order("blue", "move", "b", {"to": [5, 5]})]
    # turn 2: "a" bounds while "b" covers; turn 1 the other way round
    assert DoctrinePlayer("blue", 0).choose(view(own, enemies, turn=2), legal) == legal[3]
    assert DoctrinePlayer("blue", 0).choose(view(own, enemies, turn=1), legal) == legal[4]
    covering = [o for o in legal if o.kind != "move"]
    assert DoctrinePlayer("blue", 0).choose(view(own, enemies, turn=1),
                                            covering) in covering[1:]
