"""The after-action report seen through each side's eyes: every turn carries, for each side,
the enemies as its own view held them at the turn's end, and every event the sides it was
told to, so the report page can show the game as Control saw it or as either side did."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from fibua.core.game import Game
from fibua.server.hub import LiveGame
from server_helpers import auth, client_on, create, server

SEED = 5


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


@pytest.fixture(scope="module")
def ended(client: TestClient) -> tuple[LiveGame, dict[str, Any]]:
    """A Street Fighter game the computer played to the end, and its report."""
    made = create(client, "normandy-village", SEED)
    live = server(client).hub.games[made["id"]]
    assert live.game.over
    answer = client.get(f"/api/games/{made['id']}/report", headers=auth(made["spectator_token"]))
    assert answer.status_code == 200, answer.text
    report: dict[str, Any] = answer.json()
    return live, report


def placed(figures: list[dict[str, Any]]) -> list[tuple[str, Any, Any]]:
    return [(str(f["id"]), f["x"], f["y"]) for f in figures]


def test_the_last_turn_shows_each_side_the_enemies_as_its_view_holds_them(
        ended: tuple[LiveGame, dict[str, Any]]) -> None:
    live, report = ended
    game: Game = live.game
    last = report["turns"][-1]
    for side in game.scenario.side_names:
        enemies = game.view(side)["enemies"]
        assert placed(last["seen"][side]) == placed(enemies)
        assert [f["visible"] for f in last["seen"][side]] == [
            e.get("visible_now") is True for e in enemies]


def test_a_side_sees_no_more_than_the_enemy_it_had_in_view(
        ended: tuple[LiveGame, dict[str, Any]]) -> None:
    """Each side's sightings name only enemy troops, and at some turn fewer than Control's
    (the fog: the switch would otherwise show nothing Control does not)."""
    live, report = ended
    sides = live.game.scenario.side_names
    fewer = False
    for turn in report["turns"]:
        for side in sides:
            enemies = {f["id"] for other in sides if other != side
                       for f in turn["standing"][other]}
            seen = {f["id"] for f in turn["seen"][side]}
            assert seen <= enemies, (turn["turn"], side)
            fewer |= len(seen) < len(enemies)
    assert fewer


def test_each_event_names_the_sides_it_was_told_to(
        ended: tuple[LiveGame, dict[str, Any]]) -> None:
    live, report = ended
    sides = live.game.scenario.side_names
    events = [e for turn in report["turns"] for e in turn["events"]]
    assert len(events) == len(live.game.log)
    for entry, event in zip(events, live.game.log, strict=True):
        assert entry["sides"] == [s for s in sides if event.seen_by(s)]
    told = {tuple(e["sides"]) for e in events}
    assert {(), tuple(sides), (sides[0],), (sides[1],)} <= told
