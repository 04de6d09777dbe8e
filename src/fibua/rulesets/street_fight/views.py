"""What a side knows, built by allow-list from its own figures and what they observed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from shapely.geometry import Polygon

from fibua.battlefield.model import Position
from fibua.battlefield.sight import SightEngine
from fibua.rulesets.street_fight.forces import Options
from fibua.rulesets.street_fight.state import Figure, Phase, Sighting, StreetFightState
from fibua.scenario.schema import Scenario


@dataclass(frozen=True)
class SideView:
    """Everything a player (human or computer) of one side may know. It holds copies, and
    no reference to the game state: nothing unobserved can be reached from it."""

    scenario: str
    side: str
    enemy: str
    turn: int
    turns: int
    phase: Phase
    to_act: str | None
    initiative: tuple[str, ...]
    own: tuple[Figure, ...]
    enemies: tuple[tuple[str, Sighting], ...]
    sight: SightEngine  # the map is public
    objectives: tuple[Position, ...]  # where the scenario sends this side (public)
    options: Options
    result: dict[str, Any] | None

    def figure(self, figure_id: str) -> Figure:
        for f in self.own:
            if f.id == figure_id:
                return f
        raise KeyError(figure_id)

    def visible_enemies(self) -> list[tuple[str, Sighting]]:
        return [(i, s) for i, s in self.enemies if s.visible and s.alive]


def observe(state: StreetFightState, side: str) -> SideView:
    memory = state.seen.get(side, {})
    return SideView(
        scenario=state.scenario.name,
        side=side,
        enemy=state.enemy_of(side),
        turn=state.turn,
        turns=state.scenario.scenario.turns,
        phase=state.phase,
        to_act=state.acting_side,
        initiative=tuple(state.initiative),
        own=tuple(replace(f) for f in state.figures.values() if f.side == side),
        enemies=tuple((i, replace(s)) for i, s in sorted(memory.items())),
        sight=state.sight,
        objectives=objectives(state, side),
        options=state.options,
        result=state.result.to_dict() if state.result else None,
    )


def objectives(state: StreetFightState, side: str) -> tuple[Position, ...]:
    """Centres of the side's hold or reach objectives, else of the enemy's deployment."""
    memo = state.scenario.memo.setdefault("street-fight-objectives", {})
    if side not in memo:
        memo[side] = _objective_points(state.scenario, side, state.enemy_of(side))
    found: tuple[Position, ...] = memo[side]
    return found


def _objective_points(scenario: Scenario, side: str, enemy: str) -> tuple[Position, ...]:
    points = []
    for spec in scenario.victory:
        if spec.side != side or spec.kind not in ("hold", "reach"):
            continue
        shapes = [Polygon(spec.zone)] if spec.zone else []
        shapes += [Polygon(scenario.battlefield.section(s).footprint) for s in spec.sections]
        for shape in shapes:
            points.append(Position(shape.centroid.x, shape.centroid.y))
    deployment = scenario.side(enemy).deployment
    if not points and deployment:
        centre = Polygon(deployment).centroid
        points.append(Position(centre.x, centre.y))
    return tuple(points)


def view_dict(view: SideView) -> dict[str, Any]:
    return {
        "ruleset": "street-fight",
        "scenario": view.scenario,
        "side": view.side,
        "turn": view.turn,
        "turns": view.turns,
        "phase": str(view.phase),
        "to_act": view.to_act,
        "initiative": list(view.initiative),
        "own": [_own(f) for f in view.own],
        "enemies": [_enemy(i, s) for i, s in view.enemies],
        "result": view.result,
    }


def _own(f: Figure) -> dict[str, Any]:
    out = f.snapshot()
    out["status"] = status(f)
    return out


def status(f: Figure) -> str:
    if not f.alive:
        return "casualty"
    if f.fleeing_from is not None:
        return "falling back"
    if f.sheltering:
        return "sheltering"
    parts = []
    if f.overwatch is not None:
        parts.append("overwatch")
    if f.full_cover:
        parts.append("full cover")
    if f.aim:
        parts.append(f"aiming {f.aim}")
    if f.moved:
        parts.append(f"moved {f.moved:.1f}in")
    elif f.ran_last_turn:
        parts.append("still moving")
    return ", ".join(parts) or "ready"


def _enemy(figure_id: str, s: Sighting) -> dict[str, Any]:
    return {"id": figure_id, "name": s.name, "x": s.x, "y": s.y, "floor": s.floor,
            "section": s.section, "seen_turn": s.turn, "visible_now": s.visible,
            "alive": s.alive}
