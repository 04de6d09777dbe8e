"""The after-action report: once the game is over everything is revealed, where every
figure ended and in what state, the losses of each side, and what each side never saw."""

from __future__ import annotations

from fibua.rulesets.street_fight.contact import opponents
from fibua.rulesets.street_fight.state import Figure, StreetFightState
from fibua.rulesets.street_fight.views import status


def after_action_report(state: StreetFightState) -> list[str]:
    lines = ["AFTER-ACTION REPORT"]
    if state.result is not None:
        winner = state.result.winner or "nobody (a draw)"
        lines.append(f"Result: {winner} - {state.result.reason}")
    lines.append("Casualties: " + ", ".join(
        f"{side} lost {_lost(state, side)} of {len(state.roster(side))}"
        for side in state.sides))
    for side in state.sides:
        lines.append(f"{side}:")
        lines += [f"  {figure_line(state, f)}" for f in state.roster(side)]
    for side in state.sides:
        lines += _unseen_lines(state, side)
    return lines


def figure_line(state: StreetFightState, f: Figure) -> str:
    locked = [e.name for e in opponents(state, f)] if f.alive else []
    said = status(f, locked)
    # "ready" is for orders to come; once the game is over a standing figure is unhurt
    return f"{f.name} ({f.arms.title}, {f.unit}) {where(f)}: " \
        f"{'unhurt' if said == 'ready' else said}"


def where(f: Figure) -> str:
    text = f"at ({f.pos.x:.2f}, {f.pos.y:.2f})"
    if f.pos.section is not None:
        text += f" in {f.pos.section} floor {f.pos.floor}"
    return text


def _lost(state: StreetFightState, side: str) -> int:
    return sum(1 for f in state.roster(side) if not f.alive)


def _unseen_lines(state: StreetFightState, side: str) -> list[str]:
    """The enemy figures the side never saw, and those it had lost sight of when the game
    ended (with where they really were)."""
    memory = state.knowledge[side].sightings
    enemies = state.roster(state.enemy_of(side))
    never = [f for f in enemies if f.id not in memory]
    lost = [f for f in enemies if f.alive and f.id in memory and not memory[f.id].visible]
    if not never and not lost:
        return [f"{side} saw every enemy figure, and saw the survivors at the end"]
    lines = []
    if never:
        lines.append(f"{side} never saw:")
        lines += [f"  {figure_line(state, f)}" for f in never]
    if lost:
        lines.append(f"{side} had lost sight of:")
        lines += [f"  {f.name}, last seen at ({memory[f.id].x:.2f}, {memory[f.id].y:.2f}), "
                  f"ended {where(f)}" for f in lost]
    return lines
