"""Print what one side reads of a computer-against-computer game, in plain words.

    python tools/narrate.py corner-shop --seed 1 --side british [--details]
"""

from __future__ import annotations

import argparse
import json

from fibua.core.dice import derive_seed
from fibua.core.events import Event
from fibua.core.game import Game, play_out
from fibua.scenario.loader import load_scenario
from fibua.session.narration import names_for, narrate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--side", default=None, help="a side (default: Control, every event)")
    parser.add_argument("--details", action="store_true", help="the raw data too")
    args = parser.parse_args()
    scenario = load_scenario(args.scenario)
    game = Game(scenario, args.seed)
    rules = game.ruleset
    side = args.side

    def hear(events: list[Event]) -> None:
        names = names_for(scenario.ruleset, game.view(side or scenario.side_names[0]),
                          scenario.battlefield)
        for event in events:
            if side is not None and not event.seen_by(side):
                continue
            for i, line in enumerate(narrate(event, scenario.ruleset, names)):
                print(("  " if i else f"[{event.turn}] ") + line)
            if args.details:
                print("      " + event.kind + " " + json.dumps(event.data)[:300])

    hear(list(game.log))
    play_out(game, {s: rules.computer(s, derive_seed(args.seed, "computer", s))
                    for s in scenario.side_names}, on_events=hear)


if __name__ == "__main__":
    main()
