"""What a side must do: the scenario's briefing and objectives, and the one-line status a
player reads on every screen (turn, phase or step, who acts, objectives held, score).

Everything comes from the scenario file (public knowledge) and the side's view.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.text import Text

from fibua.core.views import ViewHeader
from fibua.scenario.schema import Scenario
from fibua.session.objectives import game_over_headline, objective_sections, objectives


def extra_goals(scenario: Scenario, view: Mapping[str, object]) -> list[str]:
    """Objectives the rule set adds in its view beyond the victory conditions (Street
    Fighter's units to destroy)."""
    listed = view.get("objectives")
    if not isinstance(listed, list):
        return []
    known = {o.description for o in objectives(scenario)}
    return [str(goal) for goal in listed if str(goal) not in known]


def _points(points: int) -> str:
    return f"{points} point" + ("" if points == 1 else "s")


def briefing(scenario: Scenario, side: str, view: Mapping[str, object]) -> RenderableType:
    """The scenario's story, the sides, and every side's objectives (yours first)."""
    meta = scenario.scenario
    parts: list[RenderableType] = [Text(meta.title, style="bold")]
    if meta.history:
        parts.append(Text(meta.history, style="italic"))
    if meta.description:
        parts.append(Text(" ".join(meta.description.split())))
    titles = ", ".join(f"{s.name} ({s.title})" for s in scenario.sides)
    parts.append(Text(f"Sides: {titles}. You play {side}. {meta.turns} turns."))
    every = objectives(scenario)
    order = [side] + [s for s in scenario.side_names if s != side]
    for who in order:
        mine = [o for o in every if o.side == who]
        if not mine:
            continue
        head = "Your objectives" if who == side else f"Objectives of {who}"
        parts.append(Text(head + ":", style="bold"))
        for objective in mine:
            parts.append(Text(f"  - {objective.description} ({_points(objective.points)})"))
    goals = extra_goals(scenario, view)
    if goals:
        parts.append(Text("Also scored:", style="bold"))
        parts += [Text(f"  - {goal}") for goal in goals]
    return Group(*parts)


def _held(scenario: Scenario, side: str, view: Mapping[str, object]) -> str:
    """Objective sections the view says the side holds (Street Fighter reports them)."""
    held = view.get("held_sections")
    if not isinstance(held, list):
        return ""
    wanted = objective_sections(scenario)
    mine = [str(s) for s in held if s in wanted]
    if not wanted:
        return ""
    return f"you hold {', '.join(mine)}" if mine else "you hold no objective"


#: the widest status line: it stays on one line of an 80-column terminal
STATUS_WIDTH = 78


def status_line(scenario: Scenario, side: str, view: Mapping[str, object],
                seat: str | None = None) -> str:
    """`turn 3 of 10 | move phase | Lt Price's orders | you hold mairie`, in shorter words
    when that would not fit on a line."""
    line = " | ".join(_status_parts(scenario, side, view, seat, short=False))
    if len(line) <= STATUS_WIDTH:
        return line
    return " | ".join(_status_parts(scenario, side, view, seat, short=True))


def _status_parts(scenario: Scenario, side: str, view: Mapping[str, object],
                  seat: str | None, short: bool) -> list[str]:
    parts = []
    head = ViewHeader.of(view)
    parts.append(f"turn {head.turn} of {head.turns or scenario.scenario.turns}")
    if head.phase:
        parts.append(f"{head.phase}{'' if short else ' phase'}"
                     + (f", step {head.step}" if head.step is not None else ""))
    result = view["result"]
    if isinstance(result, Mapping):
        parts.append(game_over_headline(result.get("winner")))
        scores = result.get("scores")
        if isinstance(scores, Mapping) and scores:
            parts.append(", ".join(f"{k} {v:g}" for k, v in scores.items()))
    else:
        acting = head.to_act
        if acting == side:
            parts.append(seat if seat and short else f"{seat}'s orders" if seat
                         else "your orders")
        elif acting:
            parts.append(f"{acting} to act")
    held = _held(scenario, side, view)
    if held:
        parts.append(held.replace("you hold no objective", "none held") if short else held)
    return parts
