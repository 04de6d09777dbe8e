"""The browser is told events in the same plain words as the terminal, in the names its own
side knows, with the raw data only behind the details switch."""

from __future__ import annotations

import re
from pathlib import Path

from server_helpers import auth, client_on, create, state

MACHINE = re.compile(r"\w=|[{}\[\]\"]|\bNone\b|\bTrue\b|\bFalse\b")


def test_a_seat_reads_plain_sentences_and_can_ask_for_the_details(tmp_path: Path) -> None:
    with client_on(tmp_path / "games.sqlite") as client:
        made = create(client, "corner-shop", 3, {"british": "human"})
        token = made["seat_tokens"]["british"]
        ended = client.post(f"/api/games/{made['id']}/done", headers=auth(token))
        assert ended.status_code == 200, ended.text
        seen = state(client, made["id"], token)
    events = seen["events"]
    assert events
    for event in events:
        for line in [event["text"], *event["rolls"]]:
            assert not MACHINE.search(line), line
        assert event["details"] and event["details"][0].startswith("turn ")
    texts = " ".join(e["text"] for e in events)
    assert "The British deploy" in texts and "Move phase" in texts


def test_each_side_is_told_in_its_own_names(tmp_path: Path) -> None:
    """An event told to both sides is worked out for each reader: a name one side has not
    seen does not reach it through the other's words."""
    with client_on(tmp_path / "games.sqlite") as client:
        made = create(client, "corner-shop", 3, {"british": "human", "germans": "human"})
        british = state(client, made["id"], made["seat_tokens"]["british"])
        germans = state(client, made["id"], made["seat_tokens"]["germans"])
    british_text = " ".join(e["text"] for e in british["events"])
    german_text = " ".join(e["text"] for e in germans["events"])
    assert "The British deploy" in british_text and "The British deploy" not in german_text
    assert "Private Barnes" not in german_text
