"""What a side knows, built by allow-list from its own figures and what they observed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField
from fibua.battlefield.sight import SightEngine
from fibua.core.values import copier
from fibua.core.views import BaseView, contract_dict
from fibua.rulesets.street_fight.actions import leg_blocked
from fibua.rulesets.street_fight.contact import opponents
from fibua.rulesets.street_fight.forces import Options
from fibua.rulesets.street_fight.state import Figure, Phase, Seen, StreetFightState
from fibua.scenario.objectives import goal_field as objective_field


@dataclass(frozen=True)
class SideView(BaseView[Figure, Seen]):
    """Everything a player (human or computer) of one side may know. It holds copies and
    immutable values, and no reference to the game state: nothing unobserved can be
    reached from it, and nothing in it can change the game."""

    phase: Phase
    initiative: tuple[str, ...]
    goal: DistanceField | None  # walking distance to where the scenario sends this side
    enemy_zone: Position | None  # centre of the enemy's deployment zone (public)
    goal_sections: tuple[str, ...]  # building sections the side must hold (public)
    options: Options
    #: how many times the side's memory of the enemy has changed: what a player works out
    #: from `enemies` holds until this moves
    news: int = 0

    def figure(self, figure_id: str) -> Figure:
        return self.unit(figure_id)


@dataclass(frozen=True)
class Briefing:
    """What a side is told by the scenario itself, the same all game long."""

    goal: DistanceField | None
    enemy_zone: Position | None
    goal_sections: tuple[str, ...]


def fixed_fields(state: StreetFightState, side: str) -> dict[str, Any]:
    """The fields of the side's views that stay the same all game: the map, the options
    and its briefing. The state keeps them: reaching the scenario's memo through the
    scenario model costs more than the rest of a view. The map comes as a fork of the
    sight engine for this side and game alone: what the rules and the other side ask of
    the map stays in their own forks."""
    kept: dict[str, Any] | None = state.briefings.get(side)
    if kept is None:
        brief = _scenario_briefing(state, side)
        kept = state.briefings[side] = {
            "scenario": state.scenario.name, "side": side, "enemy": state.enemy_of(side),
            "turns": state.scenario.scenario.turns, "sight": state.sight.fork(),
            "goal": brief.goal,
            "enemy_zone": brief.enemy_zone, "goal_sections": brief.goal_sections,
            "options": state.options,
        }
    return kept


def _scenario_briefing(state: StreetFightState, side: str) -> Briefing:
    memo = state.scenario.memo.setdefault("street-fight-briefings", {})
    if side not in memo:
        memo[side] = Briefing(
            goal=goal_field(state, side),
            enemy_zone=_zone_centre(state, state.enemy_of(side)),
            goal_sections=tuple(sorted({s for v in state.scenario.victory if v.side == side
                                        and v.kind == "hold" for s in v.sections})),
        )
    found: Briefing = memo[side]
    return found


def observe(state: StreetFightState, side: str) -> SideView:
    # made for every order: built without the generated __init__ of the frozen dataclass,
    # which sets its eighteen fields one object.__setattr__ at a time
    view: SideView = object.__new__(SideView)
    fields = view.__dict__
    fields.update(fixed_fields(state, side))
    result = state.result
    fields["turn"] = state.turn
    fields["phase"] = state.phase
    fields["to_act"] = None if result is not None else state.initiative[state.acting]
    fields["initiative"] = tuple(state.initiative)
    fields["own"] = tuple(map(_copy_figure, state.roster(side)))
    known = state.knowledge[side]
    fields["news"] = known.news
    # sightings are immutable: views share them with the state and with each other
    fields["enemies"] = known.listed()
    fields["result"] = result.to_dict() if result else None
    return view


# every field of a figure is immutable, so a shallow copy shares nothing the game can change
_copy_figure = copier(Figure)


def goal_field(state: StreetFightState, side: str) -> DistanceField | None:
    """Walking distances to the side's hold or reach objectives (else to the enemy's
    deployment zone), worked out once per scenario: the scenario is public."""
    return objective_field(state.scenario, side, state.enemy_of(side), state.sight,
                           _passable, "street-fight-goals")


def _zone_centre(state: StreetFightState, side: str) -> Position | None:
    zone = state.scenario.side(side).deployment
    if not zone:
        return None
    centre = Polygon(zone).centroid
    return Position(centre.x, centre.y)


def _passable(sight: SightEngine, a: Position, b: Position) -> bool:
    return leg_blocked(sight, a, b) is None


def view_dict(state: StreetFightState, view: SideView) -> dict[str, Any]:
    # the side's own log: the last LOG_LENGTH events it saw (see core.events.SideLogs)
    return contract_dict(
        "street-fight", view, phase=str(view.phase),
        own=own_dicts(state, view),
        enemies=[_enemy(i, s) for i, s in view.enemies], log=state.logs.of(view.side),
        initiative=list(view.initiative))


def own_dicts(state: StreetFightState, view: SideView) -> list[dict[str, Any]]:
    """The view's `own` list (see `RuleSet.own_view`)."""
    return [_own(f, _locked_with(state, f)) for f in view.own]


def _locked_with(state: StreetFightState, f: Figure) -> list[str]:
    """The names of the enemies the figure is locked in close combat with: they are within
    an inch of it and in its sight, so its side sees them."""
    if not f.alive:
        return []
    return [e.name for e in opponents(state, state.figures[f.id])]


def _own(f: Figure, locked_with: list[str]) -> dict[str, Any]:
    out = f.snapshot()
    # the state keeps exact distances; a player reads them to a hundredth of an inch
    out["moved"] = round(f.moved, 2)
    if f.fleeing_from is not None:
        out["fleeing_from"] = [round(v, 2) for v in f.fleeing_from]
    if f.overwatch is not None:
        ow = f.overwatch
        out["overwatch"] = {"x": round(ow.x, 2), "y": round(ow.y, 2),
                            "radius": round(ow.radius, 2), "large": ow.large}
    out["status"] = status(f, locked_with)
    return out


def status(f: Figure, locked_with: list[str] | None = None) -> str:
    """The figure's state in a few words: what it may do, and what it has done this turn."""
    if not f.alive:
        return "casualty"
    if f.fleeing_from is not None:
        return "falling back"
    if f.sheltering:
        return "sheltering"
    parts = []
    if locked_with:
        parts.append(f"locked with {', '.join(locked_with)}")
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


def _enemy(figure_id: str, s: Seen) -> dict[str, Any]:
    return {"id": figure_id, "name": s.name, "x": s.x, "y": s.y, "floor": s.floor,
            "section": s.section, "seen_turn": s.turn, "visible_now": s.visible,
            "moving": s.doing, "alive": s.alive,
            "weapon": str(s.kind) if s.kind else None}
