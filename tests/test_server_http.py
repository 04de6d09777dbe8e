"""The server's HTTP endpoints: each one good, bad and forbidden (Starlette's TestClient
over a fresh database). A refused request answers 4xx JSON naming the problem and changes
nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fibua.core.replay import parse_log, replay_log
from fibua.scenario.loader import bundled_scenarios
from server_helpers import (
    auth,
    client_on,
    create,
    first_move,
    seat_state,
    server,
    settled,
    state,
    state_hash,
    wait_until,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_on(tmp_path_factory.mktemp("db") / "games.sqlite3") as found:
        yield found


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    """Corner shop: the British seat a person's, the Germans the computer's."""
    return create(client, "corner-shop", 3, {"british": "human"})


def refused(answer: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert body["message"]
    if code is not None:
        assert body["error"] == code
    return body


# -- pages and scenarios ----------------------------------------------------------------------


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    assert "fibua" in client.get("/").text
    assert "game.js" in client.get("/play/anything").text
    for name in ("lobby.js", "game.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200
    refused(client.get("/static/nothing.js"), 404)
    refused(client.get("/api/nothing"), 404)


def test_every_bundled_scenario_is_listed_with_its_seats_and_map(client: TestClient) -> None:
    found = client.get("/api/scenarios").json()
    assert [s["name"] for s in found] == list(bundled_scenarios())
    assert {s["ruleset"] for s in found} == {"street-fight", "street-fighter", "house-clearing",
                                            "buildings"}
    for scenario in found:
        assert scenario["title"] and scenario["seats"] and scenario["objectives"] is not None
        svg = client.get(f"/api/scenarios/{scenario['name']}/map.svg")
        assert svg.status_code == 200 and svg.text.startswith("<svg")
    normandy = next(s for s in found if s["name"] == "normandy-village")
    assert "Lieutenant Price" in [seat["name"] for seat in normandy["seats"]]
    refused(client.get("/api/scenarios/nowhere/map.svg"), 404, "unknown-scenario")


# -- creating ---------------------------------------------------------------------------------


def test_creating_a_game_gives_a_link_per_human_seat(client: TestClient) -> None:
    made = create(client, "normandy-village", 5, {"Lieutenant Price": "human",
                                                  "germans": "human"})
    assert set(made["seat_tokens"]) == {"Lieutenant Price", "germans"}
    tokens = [made["creator_token"], made["spectator_token"], *made["seat_tokens"].values()]
    assert len(set(tokens)) == len(tokens)
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    entry = listed[made["id"]]
    assert entry["scenario"] == "normandy-village" and entry["result"] is None
    assert {s["name"]: s["player"] for s in entry["seats"]}["Major Hartley"] == "computer"


def test_a_game_without_a_seed_gets_a_secret_one(client: TestClient) -> None:
    made = create(client, "corner-shop", None, {"british": "human"})
    live = server(client).hub.games[made["id"]]
    assert live.secret_seed and live.game.seed.bit_length() > 64
    assert str(live.game.seed) not in client.get(f"/api/games/{made['id']}",
                                                 headers=auth(made["seat_tokens"]["british"])).text


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"scenario": "nowhere"}, 404, "unknown-scenario"),
    ({"scenario": "corner-shop", "seats": {"nobody": "human"}}, 422, "unknown-seat"),
    ({"scenario": "corner-shop", "seats": {"british": "robot"}}, 422, "bad-request"),
    ({"scenario": "corner-shop", "seed": -1}, 422, "bad-request"),
    ({"scenario": "corner-shop", "seed": "7"}, 422, "bad-request"),
    ({"scenario": "corner-shop", "colour": "red"}, 422, "bad-request"),
    ({}, 422, "bad-request"),
    ([1, 2], 422, "bad-request"),
])
def test_a_bad_new_game_is_refused_and_nothing_is_made(
        client: TestClient, body: Any, status: int, code: str) -> None:
    before = len(client.get("/api/games").json())
    refused(client.post("/api/games", json=body), status, code)
    assert len(client.get("/api/games").json()) == before


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    answer = client.post("/api/games", content=b"{not json",
                         headers={"content-type": "application/json"})
    refused(answer, 400, "bad-json")


# -- reading a game ---------------------------------------------------------------------------


def test_a_seat_reads_its_side_a_spectator_the_public_events(
        client: TestClient, game: dict[str, Any]) -> None:
    seat = seat_state(client, game, "british")
    assert seat["role"] == "seat" and seat["seat"]["side"] == "british"
    assert seat["view"]["side"] == "british" and "log" not in seat["view"]
    assert seat["seat"]["may_act"] and seat["legal"]
    assert all(o["unit"] is None or o["unit"] in {f["id"] for f in seat["view"]["own"]}
               for o in seat["legal"])
    watcher = state(client, game["id"], game["spectator_token"])
    assert watcher["role"] == "spectator" and "view" not in watcher and "legal" not in watcher
    hub = server(client).hub
    public = [e for e in hub.games[game["id"]].game.log if e.to == ("*",)]
    assert watcher["event_count"] == len(public)
    manager = state(client, game["id"], game["creator_token"])
    assert manager["type"] == "manage" and "view" not in manager
    svg = client.get(f"/api/games/{game['id']}/map.svg")
    assert svg.status_code == 200 and svg.text.startswith("<svg")


@pytest.mark.parametrize("header", [{}, auth("wrong"), {"authorization": "Basic abc"}])
def test_a_wrong_or_missing_token_reads_nothing(
        client: TestClient, game: dict[str, Any], header: dict[str, str]) -> None:
    refused(client.get(f"/api/games/{game['id']}", headers=header), 403, "bad-token")


def test_an_unknown_game_is_not_found(client: TestClient) -> None:
    refused(client.get("/api/games/nosuch", headers=auth("x")), 404, "unknown-game")
    refused(client.get("/api/games/nosuch/map.svg"), 404, "unknown-game")


# -- orders -----------------------------------------------------------------------------------


def test_an_order_is_previewed_then_given_and_stored(
        client: TestClient, game: dict[str, Any]) -> None:
    token = game["seat_tokens"]["british"]
    order = first_move(seat_state(client, game, "british"))
    before = state_hash(client, game["id"])
    shown = client.post(f"/api/games/{game['id']}/preview", headers=auth(token), json=order)
    assert shown.status_code == 200 and shown.json()["preview"]
    assert state_hash(client, game["id"]) == before
    given = client.post(f"/api/games/{game['id']}/orders", headers=auth(token), json=order)
    assert given.status_code == 200, given.text
    kinds = [e["kind"] for e in given.json()["events"]]
    assert kinds
    store = server(client).hub.store
    assert store.order_count(game["id"]) == len(server(client).hub.games[game["id"]].game.orders)
    told = state(client, game["id"], token)
    assert told["version"] > 1
    assert [e["kind"] for e in told["events"][-len(kinds):]] == kinds


@pytest.mark.parametrize(("order", "status", "code"), [
    ({"kind": "move", "unit": "lindner", "params": {"to": [1, 1]}}, 422, "not-your-unit"),
    ({"kind": "move", "unit": "nobody", "params": {"to": [1, 1]}}, 422, "not-your-unit"),
    ({"kind": "move", "unit": "dunn", "params": {"to": [1000, 1000]}}, 422, None),
    ({"kind": "fly", "unit": "dunn"}, 422, None),
    ({"kind": "move", "unit": "dunn", "params": {"to": "north"}}, 422, None),
    ({"kind": "move", "unit": 7}, 422, "bad-request"),
    ({"kind": "move", "unit": "dunn", "params": []}, 422, "bad-request"),
    ({"unit": "dunn"}, 422, "bad-request"),
    ({"kind": "move", "unit": "dunn", "side": "germans"}, 422, "bad-request"),
])
def test_a_bad_order_is_refused_and_changes_nothing(
        client: TestClient, game: dict[str, Any], order: dict[str, Any], status: int,
        code: str | None) -> None:
    token = game["seat_tokens"]["british"]
    seat_state(client, game, "british")
    before = state_hash(client, game["id"])
    for path in ("preview", "orders"):
        refused(client.post(f"/api/games/{game['id']}/{path}", headers=auth(token), json=order),
                status, code)
    assert state_hash(client, game["id"]) == before


def test_only_a_seat_gives_orders(client: TestClient, game: dict[str, Any]) -> None:
    order = first_move(seat_state(client, game, "british"))
    before = state_hash(client, game["id"])
    for token, status in ((game["spectator_token"], 403), (game["creator_token"], 403),
                          ("wrong", 403)):
        for path in ("orders", "preview", "done", "undo"):
            refused(client.post(f"/api/games/{game['id']}/{path}", headers=auth(token),
                                json=order), status)
    assert state_hash(client, game["id"]) == before


def test_a_side_orders_only_on_its_turn(client: TestClient) -> None:
    made = create(client, "corner-shop", 3, {"british": "human", "germans": "human"})
    waiting = state(client, made["id"], made["seat_tokens"]["germans"])
    assert waiting["status"]["to_act"] == "british" and not waiting["seat"]["may_act"]
    order = {"kind": "take-cover", "unit": waiting["view"]["own"][0]["id"]}
    refused(client.post(f"/api/games/{made['id']}/orders",
                        headers=auth(made["seat_tokens"]["germans"]), json=order),
            409, "not-your-turn")


def test_ending_the_phase_hands_over_to_the_computer(
        client: TestClient, game: dict[str, Any]) -> None:
    token = game["seat_tokens"]["british"]
    seat_state(client, game, "british")
    live = server(client).hub.games[game["id"]]
    count = len(live.game.orders)
    assert client.post(f"/api/games/{game['id']}/done", headers=auth(token)).status_code == 200
    wait_until(lambda: settled(client, game["id"]))
    assert len(live.game.orders) > count + 1  # the end, then the computer's orders
    assert state(client, game["id"], token)["status"]["to_act"] == live.game.to_act()


def test_undo_takes_back_an_order_that_showed_nothing_new(
        client: TestClient, game: dict[str, Any]) -> None:
    token = game["seat_tokens"]["british"]
    seat = seat_state(client, game, "british")
    before = state_hash(client, game["id"])
    quiet = [o for o in seat["legal"] if o["kind"] == "take-cover"] or \
        [o for o in seat["legal"] if o["kind"] == "move"]
    for order in quiet:
        body = {"kind": order["kind"], "unit": order["unit"], "params": order["params"]}
        client.post(f"/api/games/{game['id']}/orders", headers=auth(token), json=body)
        answer = client.post(f"/api/games/{game['id']}/undo", headers=auth(token))
        if answer.status_code == 200:
            break
        refused(answer, 409, "cannot-undo")
    else:
        pytest.fail("no order could be taken back")
    assert state_hash(client, game["id"]) == before
    store = server(client).hub.store
    assert store.order_count(game["id"]) == len(server(client).hub.games[game["id"]].game.orders)


def test_undo_with_nothing_to_take_back_is_refused(client: TestClient) -> None:
    made = create(client, "corner-shop", 3, {"british": "human", "germans": "human"})
    refused(client.post(f"/api/games/{made['id']}/undo",
                        headers=auth(made["seat_tokens"]["british"])), 409, "cannot-undo")


# -- several seats on a side ------------------------------------------------------------------


def test_a_commander_orders_only_his_units_and_passes_with_done(client: TestClient) -> None:
    made = create(client, "normandy-village", 5,
                  {"Lieutenant Price": "human", "Lieutenant Fairlie": "human"})
    price = made["seat_tokens"]["Lieutenant Price"]
    seat = seat_state(client, made, "Lieutenant Price")
    mine = set(seat["seat"]["units"])
    assert seat["seat"]["may_act"] and all(o["unit"] in mine for o in seat["legal"])
    fairlie_unit = next(u for u in state(client, made["id"], made["seat_tokens"][
        "Lieutenant Fairlie"])["seat"]["units"])
    refused(client.post(f"/api/games/{made['id']}/orders", headers=auth(price),
                        json={"kind": "observe", "unit": fairlie_unit}), 422, "not-your-unit")
    live = server(client).hub.games[made["id"]]
    count = len(live.game.orders)
    assert client.post(f"/api/games/{made['id']}/done", headers=auth(price)).status_code == 200
    after = state(client, made["id"], price)
    assert after["seat"]["done"] and not after["seat"]["may_act"]
    assert len(live.game.orders) == count  # Fairlie has still to give his
    refused(client.post(f"/api/games/{made['id']}/orders", headers=auth(price),
                        json=first_move(seat)), 409, "seat-done")
    fairlie = made["seat_tokens"]["Lieutenant Fairlie"]
    assert client.post(f"/api/games/{made['id']}/orders", headers=auth(fairlie),
                       json={"kind": "end"}).status_code == 200
    wait_until(lambda: settled(client, made["id"]))
    assert len(live.game.orders) > count
    assert state(client, made["id"], price)["version"] > after["version"]


# -- the creator ------------------------------------------------------------------------------


def test_the_creator_reissues_and_revokes_links(client: TestClient, game: dict[str, Any]) -> None:
    old = game["seat_tokens"]["british"]
    creator = auth(game["creator_token"])
    answer = client.post(f"/api/games/{game['id']}/tokens", headers=creator,
                         json={"role": "british"})
    assert answer.status_code == 200
    new = answer.json()["token"]
    refused(client.get(f"/api/games/{game['id']}", headers=auth(old)), 403, "bad-token")
    assert state(client, game["id"], new)["seat"]["name"] == "british"
    gone = client.post(f"/api/games/{game['id']}/tokens", headers=creator,
                       json={"role": "british", "revoke": True})
    assert gone.status_code == 200 and gone.json()["token"] is None
    refused(client.get(f"/api/games/{game['id']}", headers=auth(new)), 403, "bad-token")
    spectators = client.post(f"/api/games/{game['id']}/tokens", headers=creator,
                             json={"role": "spectator"})
    assert state(client, game["id"], spectators.json()["token"])["role"] == "spectator"
    refused(client.get(f"/api/games/{game['id']}", headers=auth(game["spectator_token"])), 403)


@pytest.mark.parametrize(("role", "status"), [("germans", 404), ("nobody", 404)])
def test_only_human_seats_have_links(client: TestClient, game: dict[str, Any], role: str,
                                     status: int) -> None:
    refused(client.post(f"/api/games/{game['id']}/tokens", headers=auth(game["creator_token"]),
                        json={"role": role}), status, "unknown-seat")


def test_only_the_creator_manages_the_game(client: TestClient, game: dict[str, Any]) -> None:
    for token in (game["seat_tokens"]["british"], game["spectator_token"], "wrong"):
        refused(client.post(f"/api/games/{game['id']}/tokens", headers=auth(token),
                            json={"role": "british"}), 403)
        refused(client.delete(f"/api/games/{game['id']}", headers=auth(token)), 403)
    refused(client.post(f"/api/games/{game['id']}/tokens", headers=auth(game["creator_token"]),
                        json={"role": 5}), 422, "bad-request")
    assert state(client, game["id"], game["seat_tokens"]["british"])


def test_the_creator_deletes_a_game(client: TestClient, game: dict[str, Any]) -> None:
    answer = client.delete(f"/api/games/{game['id']}", headers=auth(game["creator_token"]))
    assert answer.status_code == 200
    assert game["id"] not in {g["id"] for g in client.get("/api/games").json()}
    refused(client.get(f"/api/games/{game['id']}", headers=auth(game["creator_token"])), 404)
    assert server(client).hub.store.order_count(game["id"]) == 0


# -- logs -------------------------------------------------------------------------------------


def test_a_seat_downloads_its_side_log_a_spectator_nothing_until_the_end(
        client: TestClient, game: dict[str, Any]) -> None:
    seat_state(client, game, "british")
    mine = client.get(f"/api/games/{game['id']}/log.jsonl",
                      headers=auth(game["seat_tokens"]["british"]))
    assert mine.status_code == 200
    header = parse_log(mine.text + '{"type":"end"}\n' if '"end"' not in mine.text
                       else mine.text).header
    assert header["view"] == "british" and "seed" not in header
    refused(client.get(f"/api/games/{game['id']}/log.jsonl",
                       headers=auth(game["spectator_token"])), 403, "game-not-over")


def test_a_finished_game_gives_everyone_the_full_log_that_replays(client: TestClient) -> None:
    made = create(client, "anti-tank-screen", 11, {})
    watcher = state(client, made["id"], made["spectator_token"])
    assert watcher["status"]["over"] and watcher["ending"]["result"]
    assert isinstance(watcher["ending"]["after_action"], list)
    text = client.get(f"/api/games/{made['id']}/log.jsonl",
                      headers=auth(made["spectator_token"])).text
    report = replay_log(parse_log(text))
    assert report.ok and report.state_hash == state_hash(client, made["id"])
    entry = next(g for g in client.get("/api/games").json() if g["id"] == made["id"])
    assert entry["result"] == watcher["ending"]["result"] and entry["waiting_for"] == ""


def test_the_database_default_lives_in_the_data_folder(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    from fibua.server import store

    monkeypatch.setattr(store.platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "d"))
    assert store.default_db_path() == tmp_path / "d" / "games.sqlite3"
    assert (tmp_path / "d").is_dir()


@pytest.mark.parametrize(("scenario", "seed"), [("village-street", 6), ("beach-exit", 5)])
def test_a_buildings_game_is_played_on_the_server(client: TestClient, scenario: str,
                                                   seed: int) -> None:
    """The fourth rule set through the same door: a person's order is previewed and given,
    and the computer seats play a whole game to the end, whose log replays. (A seed whose
    first British turn is a die drawn, not a shot to answer: fire, advance and run.)"""
    made = create(client, scenario, seed, {"british" if scenario == "village-street"
                                        else "americans": "human"})
    seat = next(iter(made["seat_tokens"]))
    message = seat_state(client, made, seat)
    order = next(o for o in message["legal"] if o["kind"] in ("fire", "advance", "run"))
    body = {"kind": order["kind"], "unit": order["unit"], "params": order["params"]}
    token = auth(made["seat_tokens"][seat])
    preview = client.post(f"/api/games/{made['id']}/preview", json=body, headers=token)
    assert preview.status_code == 200, preview.text
    given = client.post(f"/api/games/{made['id']}/orders", json=body, headers=token)
    assert given.status_code == 200, given.text
    computers = create(client, scenario, 6, {})
    watcher = state(client, computers["id"], computers["spectator_token"])
    assert watcher["status"]["over"] and watcher["ending"]["result"]
    text = client.get(f"/api/games/{computers['id']}/log.jsonl",
                      headers=auth(computers["spectator_token"])).text
    assert replay_log(parse_log(text)).ok


def test_a_seat_is_told_why_a_unit_has_no_order_now(client: TestClient) -> None:
    """Beside its legal orders, a seat that may act gets the rules' reason for each of
    its units with none (the page shows it when the unit is picked); a unit with orders
    has no entry."""
    made = create(client, "ramp-houses", 3, dict.fromkeys(
        ["Lieutenant's group", "Sergeant's group"], "human"))  # every British seat
    seat = seat_state(client, made, "Lieutenant's group")
    assert seat["seat"]["may_act"]
    assert seat["idle"]["grayburn"] == "Lt. Grayburn moves in step 4; this is step 1"
    acting = {o["unit"] for o in seat["legal"]}
    assert "doxey" in acting and not acting & set(seat["idle"])


def test_a_seat_s_orders_come_on_request_with_its_message_s_version(
        client: TestClient) -> None:
    """The message says whether the seat may act; its orders are asked for apart, and
    say which version of the message they go with. Only a seat's own link gets them."""
    game = create(client, "corner-shop", 3, {"british": "human", "germans": "human"})
    path = f"/api/games/{game['id']}/orders"
    seat_state(client, game, "british")
    message = client.get(f"/api/games/{game['id']}",
                         headers=auth(game["seat_tokens"]["british"])).json()
    assert message["seat"]["may_act"] and "legal" not in message
    orders = client.get(path, headers=auth(game["seat_tokens"]["british"])).json()
    live = server(client).hub.games[game["id"]]
    assert orders["type"] == "orders" and orders["version"] == message["version"]
    assert [(o["kind"], o["unit"], o["params"]) for o in orders["legal"]] == \
        [(o.kind, o.unit, o.params) for o in live.game.legal_orders("british")]
    waiting = client.get(path, headers=auth(game["seat_tokens"]["germans"])).json()
    assert waiting["legal"] == [] and waiting["idle"] == {}
    refused(client.get(path, headers=auth(game["spectator_token"])), 403, "forbidden")
    refused(client.get(path, headers=auth("wrong")), 403, "bad-token")


def test_one_unit_s_orders_come_alone(client: TestClient) -> None:
    """`?unit=` gives the orders of one of the seat's units (the page asks for the unit
    picked), or why it has none; an enemy's or a made-up name gets the same empty answer."""
    game = create(client, "ramp-houses", 3, dict.fromkeys(
        ["Lieutenant's group", "Sergeant's group"], "human"))  # every British seat
    token = game["seat_tokens"]["Lieutenant's group"]
    whole = seat_state(client, game, "Lieutenant's group")
    path = f"/api/games/{game['id']}/orders"
    doxey = client.get(path, params={"unit": "doxey"}, headers=auth(token)).json()
    assert doxey["legal"] == [o for o in whole["legal"] if o["unit"] == "doxey"]
    assert doxey["legal"] and doxey["idle"] == {} and doxey["version"] == whole["version"]
    grayburn = client.get(path, params={"unit": "grayburn"}, headers=auth(token)).json()
    assert grayburn["legal"] == [] and grayburn["idle"] == {"grayburn": whole["idle"]["grayburn"]}
    live = server(client).hub.games[game["id"]]
    enemy = next(str(u["id"]) for u in live.game.view("germans")["own"])
    answers = [client.get(path, params={"unit": name}, headers=auth(token)).json()
               for name in (enemy, "nobody-at-all")]
    assert answers[0] == answers[1] == {**answers[0], "legal": [], "idle": {}}
