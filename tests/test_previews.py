"""Previews as data: what an order becomes and what may go wrong are read from the
forecast, never from its sentence; the sentence is the preview's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.core.ruleset import Risk
from fibua.rulesets.street_fight.actions import plan_move
from fibua.rulesets.street_fight.tables import MOVE_NORMAL
from fibua.scenario.loader import bundled_scenarios, load_scenario
from server_helpers import server as server_of


def test_a_street_fight_move_longer_than_a_normal_move_becomes_a_run() -> None:
    game = Game(load_scenario("corner-shop"), 1)
    side = game.to_act()
    assert side is not None
    moves = [o for o in game.legal_orders(side) if o.kind == "move"]
    kinds = {game.forecast(o).becomes for o in moves}
    assert kinds == {None, "run"}
    for order in moves[:30]:
        figure = game.state.figures[order.unit]
        length = plan_move(game.state, figure, order.params).length
        assert (game.forecast(order).becomes == "run") == (length > MOVE_NORMAL), order


def test_a_shot_that_cannot_hit_says_so_as_data() -> None:
    game = Game(load_scenario("corner-shop"), 1)
    hopeless = []
    for _ in range(60):  # play on until a shot is open: the first ones are long
        side = game.to_act()
        assert side is not None
        shots = [o for o in game.legal_orders(side) if o.kind == "shoot"]
        hopeless += [o for o in shots if Risk.HOPELESS in game.forecast(o).risks]
        if hopeless:
            break
        game.apply(Order(side, "end"))
    assert hopeless
    forecast = game.forecast(hopeless[0])
    assert forecast.chance == 0.0 and "no round can hit" in forecast.text


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_forecast_carries_the_preview_sentence(name: str) -> None:
    game = Game(load_scenario(name), 3)
    side = game.to_act()
    assert side is not None
    for order in game.legal_orders(side)[:15]:
        assert game.forecast(order).text == game.preview(order)


def test_the_server_sends_the_forecast_as_data(tmp_path: Path) -> None:
    from server_helpers import auth, client_on, create

    with client_on(tmp_path / "games.sqlite") as client:
        made = create(client, "corner-shop", 1, {"british": "human", "germans": "human"})
        live = server_of(client).hub.live(made["id"])
        side = live.game.to_act()
        assert side is not None
        runs = [o for o in live.game.legal_orders(side)
                if o.kind == "move" and live.game.forecast(o).becomes == "run"]
        order = runs[0]
        shown = client.post(f"/api/games/{made['id']}/preview",
                            headers=auth(made["seat_tokens"][side]),
                            json={"kind": order.kind, "unit": order.unit,
                                  "params": order.params})
    assert shown.status_code == 200, shown.text
    answer = shown.json()
    assert answer["forecast"]["becomes"] == "run"
    assert answer["forecast"]["text"] == answer["preview"]
