"""A person plays the Germans of Village Street at a terminal: `fibua play village-street`
in a real pty (80x24). The script answers shots at its units with `end`, and on its order
dice gives each unit in turn the first order the help lists for it (a shot if it has one,
else an advance); each is accepted, and the British computer gives orders in between."""

from __future__ import annotations

import re

from test_play_sessions import STATUS, Terminal

SCENARIO = "village-street"
UNITS = ("tiger", "gruppe-stein", "gruppe-falk", "granatwerfer", "kompanietrupp")
BRITISH = ("six-pounder", "platoon-hq", "seven-section", "foo", "piat", "eight-section")
#: an order event's raw line, shown under its sentence by the `details` switch
ORDER_EVENT = re.compile(r"\border: [^\n]*?\bunit=([a-z0-9-]+)")


def first_order(listing: str, unit: str) -> str | None:
    """The first shot the listing offers the unit, else its first advance."""
    lines = [line.strip() for line in listing.splitlines()]
    for kind in ("fire", "advance"):
        found = [line for line in lines if line.startswith(f"{kind} {unit} ")]
        if found:
            return found[0]
    return None


def test_a_person_gives_the_germans_orders_and_the_computer_answers() -> None:
    term = Terminal(SCENARIO, ["germans"])
    try:
        start = term.shown
        assert "Tiger in the Village Street" in start and "Your objectives" in start
        assert "┌" in start and STATUS.search(start)
        assert all(len(line) <= 80 for line in start.splitlines()
                   if "loading the game" not in line)  # a spinner redraws one line
        assert "raw data is shown" in term.send("details")
        mistake = term.send("advance tigre to=40,23")
        assert "did you mean tiger?" in " ".join(mistake.split())

        given: list[str] = []
        ours: list[str] = []  # orders the log shows our units carrying out
        theirs: list[str] = []  # and the British computer's, seen after our first order
        units = list(UNITS)
        for _ in range(30):
            if len(given) >= 3 and theirs:
                break
            status = STATUS.findall(term.shown)
            phase = status[-1][1] if status else ""
            if "reaction" in phase:
                shown = term.send("end")
            else:
                order = None
                while units and order is None:
                    order = first_order(term.send(f"orders {units[0]}"), units.pop(0))
                assert order is not None, "no unit had an order to give"
                shown = term.send(order)
                assert "not allowed" not in shown and "refused" not in shown, (order, shown)
                given.append(order)
            term.shown = shown
            # (the typed line shows twice in the pty's record: the prompt redraws it)
            assert all(len(line) <= 80 for line in shown.splitlines()
                       if not line.startswith("germans>"))
            for unit in ORDER_EVENT.findall(shown):
                if unit in UNITS:
                    ours.append(unit)
                elif unit in BRITISH and given:
                    theirs.append(unit)
        assert len(given) >= 3, given
        assert {o.split()[1] for o in given} <= set(ours), (given, ours)
        assert theirs, "the computer gave no order the Germans saw"
        assert "You left the game" in term.quit()
    finally:
        term.child.close(force=True)
