"""Each rule set's order forms over HTTP (server/orderforms.py), for the game page's order
controls: public like the odds questions (no token), the registry as typed data, an
unknown rule set a 404."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from fibua.core.ruleset import find_ruleset
from server_helpers import client_on

if TYPE_CHECKING:
    from starlette.testclient import TestClient

RULESETS = ["street-fighter", "street-fight", "house-clearing", "buildings"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("db") / "games.sqlite3"
    with client_on(db) as found:
        yield found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_kind_is_sent_with_its_typed_forms(client: TestClient, ruleset: str) -> None:
    answer = client.get(f"/api/rulesets/{ruleset}/orders")
    assert answer.status_code == 200, answer.text
    sent = answer.json()
    kinds = find_ruleset(ruleset).order_kinds
    assert sent["ruleset"] == ruleset
    assert [k["kind"] for k in sent["kinds"]] == list(kinds)
    for entry in sent["kinds"]:
        forms = kinds[entry["kind"]]
        assert entry["unit"] == forms.unit and entry["help"] == forms.help
        assert [f["name"] for f in entry["forms"]] == [f.name for f in forms.forms]
        for form, declared in zip(entry["forms"], forms.forms, strict=True):
            assert [(p["name"], p["type"], p["required"]) for p in form["params"]] == [
                (p.name, str(p.type), p.required) for p in declared.params]


def test_buildings_run_can_enter_a_section(client: TestClient) -> None:
    sent = client.get("/api/rulesets/buildings/orders").json()
    run = next(k for k in sent["kinds"] if k["kind"] == "run")
    enter = next(f for f in run["forms"] if f["name"] == "enter")
    assert enter["params"][0]["name"] == "enter" and enter["params"][0]["type"] == "section"


def test_an_unknown_rule_set_is_not_found(client: TestClient) -> None:
    answer = client.get("/api/rulesets/chess/orders")
    assert answer.status_code == 404 and answer.json()["error"] == "unknown-ruleset"
