"""The odds questions over HTTP: every rule set's questions listed with their JSON schema,
answered from a body its model validates, and a bad body refused naming the field. The
odds are public: no token is asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from fibua.core.ruleset import find_ruleset
from server_helpers import client_on

if TYPE_CHECKING:
    from starlette.testclient import TestClient

RULESETS = ["street-fight", "street-fighter", "house-clearing"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("db") / "games.sqlite3"
    with client_on(db) as found:
        yield found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_questions_are_listed_with_their_schema(client: TestClient, ruleset: str) -> None:
    answer = client.get(f"/api/odds/{ruleset}")
    assert answer.status_code == 200, answer.text
    listed = answer.json()
    queries = find_ruleset(ruleset).odds_queries
    assert [q["name"] for q in listed["questions"]] == list(queries)
    for question in listed["questions"]:
        model = queries[question["name"]].params
        assert question["schema"] == model.model_json_schema()
        assert question["help"] == queries[question["name"]].help


def test_a_question_is_answered_as_the_rule_set_computes_it(client: TestClient) -> None:
    body = {"firer": "infantry", "range": 30, "target": "building"}
    answer = client.post("/api/odds/street-fighter/shoot", json=body)
    assert answer.status_code == 200, answer.text
    query = find_ruleset("street-fighter").odds_queries["shoot"]
    expected = query.compute(query.params.model_validate(body))
    found = answer.json()
    assert found["values"] == expected.values
    assert [tuple(row) for row in found["breakdown"]] == expected.breakdown


def test_house_clearing_shoot_is_answered(client: TestClient) -> None:
    body = {"weapon": "rifle", "skill": 90, "range": 12, "visible": "3/5"}
    answer = client.post("/api/odds/house-clearing/shoot", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["breakdown"]


@pytest.mark.parametrize(("body", "field"), [
    ({"firer": "infantry"}, "range"),  # missing
    ({"firer": "infantry", "range": -5}, "range"),  # below its minimum
    ({"firer": "catapult", "range": 10}, "firer"),  # not one of the choices
    ({"firer": "infantry", "range": 10, "colour": "red"}, "colour"),  # unknown field
])
def test_a_bad_question_is_refused_naming_the_field(
        client: TestClient, body: dict[str, object], field: str) -> None:
    answer = client.post("/api/odds/street-fighter/shoot", json=body)
    assert answer.status_code == 422, answer.text
    found = answer.json()
    assert found["error"] == "bad-question"
    assert found["fields"] == [field]
    assert field in found["message"]


def test_unknown_rule_sets_and_questions_are_not_found(client: TestClient) -> None:
    assert client.get("/api/odds/chess").status_code == 404
    missing = client.post("/api/odds/street-fighter/teleport", json={})
    assert missing.status_code == 404
    assert "shoot" in missing.json()["message"]  # it lists the questions there are


def test_a_body_that_is_not_an_object_is_refused(client: TestClient) -> None:
    sent = {"content-type": "application/json"}
    question = "/api/odds/street-fighter/shoot"
    assert client.post(question, content=b"[1, 2]", headers=sent).status_code == 422
    assert client.post(question, content=b"{oops", headers=sent).status_code == 400
    assert client.post(question, content=b"{}").status_code == 415  # not sent as JSON
