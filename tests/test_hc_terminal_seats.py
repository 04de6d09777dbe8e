"""House Clearing at a terminal with three seats: `done` means what the browser's Done
means. Each commander of the British at ramp-houses types `done` when asked, as a person
passing on their orders would; the side's step ends once every seat that had figures to
act has said so, a seat with no figure to act in a step is not asked, and a whole turn
passes in a bounded number of prompts."""

from __future__ import annotations

from test_play_sessions import STATUS, Terminal

SEATS = ["Lieutenant's group", "Sergeant's group", "Corporal's group"]
#: four move steps and five fire steps a turn, three seats: at most this many prompts
MOST_PROMPTS_A_TURN = 9 * len(SEATS)


def test_three_commanders_pass_a_whole_turn_with_done() -> None:
    term = Terminal("ramp-houses", SEATS)
    try:
        stages: list[tuple[str, str]] = []
        asked: list[str] = []
        for _ in range(2 * MOST_PROMPTS_A_TURN):
            asked.append(term.prompt)
            listing = term.send("orders")
            assert "No orders are possible now" not in listing, (term.prompt, listing)
            shown = term.send("done")
            assert "not allowed" not in shown and "did you mean" not in shown, shown
            stages += STATUS.findall(shown)
            if any(turn == "2" for turn, _ in stages):
                break
        assert any(turn == "2" for turn, _ in stages), (asked, stages)
        assert len(asked) <= MOST_PROMPTS_A_TURN, asked
        assert set(asked) <= set(SEATS)
        # within one stage, no seat is asked again after its done
        steps = [phase for turn, phase in stages if turn == "1"]
        assert len(set(steps)) > 1, steps  # the steps went on, not step 1 over and over
        assert "You left the game" in term.quit()
    finally:
        term.child.close(force=True)
