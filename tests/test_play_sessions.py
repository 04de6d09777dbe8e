"""A person at a terminal plays every bundled scenario: `fibua play` runs in a real pty (80x24,
line editing on), and for each seat of the played side the script asks `orders KIND` for every
order kind the help lists, gives the first order listed, and checks it is accepted and shown
and that the game goes on. Fixed seeds and a handful of orders keep each session short."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from fibua.core.game import Game
from fibua.core.ruleset import Seat, find_ruleset
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario

SRC = Path(__file__).resolve().parents[1] / "src"
#: colour codes, cursor moves and carriage returns, which a person's terminal interprets
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>]|\r")
STATUS = re.compile(r"turn (\d+) of \d+ \| ([^|\n]+)")
SEED = 5
TIMEOUT = 120


def plain(text: str) -> str:
    return ESCAPES.sub("", text)


class Terminal:
    """`fibua play` in a pty; `send` types a line and returns what was shown up to the next
    prompt, whose owner (side or seat) is then `prompt`."""

    def __init__(self, scenario: str, prompts: list[str]) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])]),
            NO_COLOR="1", TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="80", LINES="24")
        self.child = pexpect.spawn(
            sys.executable, ["-m", "fibua.cli.main", "play", scenario, "--seed", str(SEED)],
            env=env, dimensions=(24, 80), encoding="utf-8", timeout=TIMEOUT,
        )
        names = "|".join(re.escape(p) for p in prompts)
        # a prompt session starts by turning bracketed paste on; redraws while typing do not
        self.pattern = re.compile(rf"\x1b\[\?2004h.*?({names})>", re.DOTALL)
        self.prompt = ""
        self.shown = self._wait()

    def _wait(self) -> str:
        self.child.expect(self.pattern)
        self.prompt = self.child.match.group(1)
        return plain(self.child.before)

    def send(self, line: str) -> str:
        self.child.sendline(line)
        return self._wait()

    def quit(self) -> str:
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF)
        return plain(self.child.before)


def played_side(scenario: Scenario) -> str:
    humans = [s.name for s in scenario.sides if s.player == "human"]
    return (humans or list(scenario.side_names))[0]


def seats_name_units(scenario: Scenario, side: str, seats: list[Seat]) -> bool:
    """Whether the seats list the ids orders name (not group ids)."""
    own = {str(f["id"]) for f in Game(scenario, SEED).view(side)["own"]}
    return all(seat.units is None or seat.units & own for seat in seats)


def listed(shown: str, kind: str) -> list[str]:
    return [line.strip() for line in shown.splitlines()
            if line.strip().startswith(kind + " ")]


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_a_person_plays_every_seat(name: str) -> None:
    scenario = load_scenario(name)
    side = played_side(scenario)
    ruleset = find_ruleset(scenario.ruleset)
    seats = ruleset.seats(scenario, side)
    assert seats_name_units(scenario, side, seats)
    prompts = [s.name for s in seats] if len(seats) > 1 else [side]
    kinds = [kind for kind in ruleset.order_syntax if kind != "end"]
    term = Terminal(name, prompts)
    try:
        start = term.shown
        assert "Briefing" in start and scenario.scenario.title in start
        if scenario.victory:
            assert "Your objectives" in start
        assert STATUS.search(start) and "┌" in start  # status line and map
        help_text = term.send("help")
        assert all(kind in help_text for kind in kinds)

        seen_seats: set[str] = set()
        statuses: set[tuple[str, str]] = set()
        given: list[str] = []
        for _ in range(3 * len(prompts) + 3):
            if seen_seats == set(prompts) and len(statuses) >= 2 and given:
                break
            seat = term.prompt
            seen_seats.add(seat)
            for kind in kinds:
                orders = listed(term.send(f"orders {kind}"), kind)
                if not orders or term.prompt != seat:
                    continue
                shown = term.send(orders[0])
                assert "not allowed" not in shown, (orders[0], shown)
                assert "What happened" in shown or STATUS.search(shown), shown
                statuses.update(STATUS.findall(shown))
                given.append(orders[0])
                if term.prompt != seat:
                    break
            if term.prompt == seat:
                shown = term.send("done" if len(prompts) > 1 else "end")
                assert "not allowed" not in shown, shown
                statuses.update(STATUS.findall(shown))
        assert seen_seats == set(prompts)
        assert given, "no order was given"
        assert len(statuses) >= 2, statuses  # the game went on (a new phase, step or turn)
        assert "You left the game" in term.quit()
    finally:
        term.child.close(force=True)
