"""What a side knows, built by allow-list from its own figures and what they observed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fibua.battlefield.model import Position
from fibua.battlefield.navigation import DistanceField
from fibua.battlefield.sight import SightEngine
from fibua.core.views import BaseView, contract_dict, record_copies
from fibua.rulesets.house_clearing.forces import Options
from fibua.rulesets.house_clearing.geometry import MapGeometry
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState, Phase, Seen
from fibua.rulesets.house_clearing.tables import CHEST_LINE, CLIMB_LIMIT, Stance
from fibua.scenario.objectives import goal_field as objective_field

#: what the rules set on a figure once it is placed (its name, weapon, skill and the like
#: stay): the fields a view's copy of one is checked by
FIGURE_CHANGES = ("initiative", "pos", "stance", "moved", "fired", "reacted", "ducked",
                  "loading")


@dataclass(frozen=True)
class ReactionView:
    """A move the side may answer: the mover (None when no figure of the side saw it),
    and for each figure that may fire, the places along the path where it saw the mover
    (with the mover's stance there). With no firers the side can only let it go."""

    mover: str | None
    firers: dict[str, tuple[tuple[Position, Stance], ...]]


@dataclass(frozen=True)
class SideView(BaseView[Figure, Seen]):
    """Everything a player (human or computer) of one side may know. It holds copies and
    no reference to the game state: nothing unobserved can be reached from it."""

    phase: Phase
    step: int
    order: tuple[str, ...]
    #: (own figure, enemy) -> (fifths of the enemy it sees, fifths of itself it shows)
    exposure: dict[tuple[str, str], tuple[int, int]]
    reaction: ReactionView | None
    geometry: MapGeometry  # reading `sight`
    goal: DistanceField | None  # walking distance to where the scenario sends this side
    goal_sections: tuple[str, ...]  # building sections the side must hold (public)
    enemy_goal_sections: tuple[str, ...]  # and those the enemy must hold (public)
    defending: bool  # the side starts in its objective
    options: Options

    def figure(self, figure_id: str) -> Figure:
        return self.unit(figure_id)


def observe(state: HouseClearingState, side: str) -> SideView:
    # made for every order: built without the generated __init__ of the frozen dataclass,
    # which sets its twenty-odd fields one object.__setattr__ at a time
    view: SideView = object.__new__(SideView)
    fields = view.__dict__
    fields.update(_fixed_fields(state, side))
    known = state.knowledge[side]
    # copies made again only of figures that changed since the last view
    fields["own"] = record_copies(state.view_copies, side, "own", Figure,
                                  watch=FIGURE_CHANGES).copies(
        (f.id, f) for f in state.teams[side])
    # sightings are immutable: views share them with the state
    fields["enemies"] = known.listed()
    visible = set(known.in_sight())
    # as state.sees and state.fifths read it: the pairs in sight are far fewer than the
    # side's figures times the enemies it sees (players only look pairs up). A pair holds
    # enemies, so one whose second is an enemy the side sees has one of its figures first
    exposure = state.exposure
    fields["exposure"] = {(a, b): (n, exposure.get((b, a), 0))
                          for (a, b), n in exposure.items() if b in visible}
    fields["turn"] = state.turn
    fields["phase"] = state.phase
    fields["step"] = state.step
    fields["to_act"] = state.acting_side
    fields["order"] = tuple(state.order)
    fields["reaction"] = _reaction_view(state, side)
    fields["result"] = state.result.to_dict() if state.result else None
    return view


def _fixed_fields(state: HouseClearingState, side: str) -> dict[str, Any]:
    """The fields of the side's views that stay the same all game: the scenario's, the
    options and the side's own map. Kept in the state: reaching the scenario's memo
    costs more than most of a view."""
    kept: dict[str, Any] | None = state.view_copies.get((side, "fixed"))
    if kept is None:
        geometry = side_geometry(state, side)
        kept = state.view_copies[(side, "fixed")] = {
            "scenario": state.scenario.name, "side": side, "enemy": state.enemy_of(side),
            "turns": state.scenario.scenario.turns, "sight": geometry.sight,
            "geometry": geometry, "goal": goal_field(state, side),
            "goal_sections": _goal_sections(state, side),
            "enemy_goal_sections": _goal_sections(state, state.enemy_of(side)),
            "defending": _defending(state, side), "options": state.options,
        }
    return kept


def side_geometry(state: HouseClearingState, side: str) -> MapGeometry:
    """The side's geometry for this game, reading its own fork of the sight engine: what
    the rules and the other side ask of the map stays in their own forks."""
    found = state.side_geometry.get(side)
    if found is None:
        found = state.side_geometry[side] = state.geometry.bind(state.sight.fork())
    return found


def _reaction_view(state: HouseClearingState, side: str) -> ReactionView | None:
    r = state.reaction
    if r is None or r.side != side:
        return None
    return ReactionView(r.mover if r.shown else None, {
        fid: tuple((r.spots[k], r.stances[k]) for k in found)
        for fid, found in sorted(r.firers.items())
    })


def _goal_sections(state: HouseClearingState, side: str) -> tuple[str, ...]:
    return tuple(sorted({s for v in state.scenario.victory if v.side == side
                         and v.kind == "hold" for s in v.sections}))


def _defending(state: HouseClearingState, side: str) -> bool:
    """A side most of whose figures start inside its objective is defending it."""
    memo = state.scenario.memo.setdefault("house-clearing-defending", {})
    if side not in memo:
        goal = goal_field(state, side)
        figures = [f for f in state.figures.values() if f.side == side]
        inside = sum(1 for f in figures if goal is not None and goal.distance(f.pos) == 0)
        memo[side] = inside * 2 > len(figures)
    found: bool = memo[side]
    return found


def passable(state_sight: SightEngine, figure_height: float, a: Position, b: Position) -> bool:
    """Whether a figure can go straight from a to b: by doors and windows, over walls it
    can climb."""
    check = state_sight.move_check(a, b, through_windows=True)
    if check.crosses_wall:
        return False
    return all(o.height <= CLIMB_LIMIT * figure_height for o, _ in check.obstacles)


def easy_step(state_sight: SightEngine, figure_height: float, a: Position, b: Position) -> bool:
    """Passable without a whole-move climb."""
    check = state_sight.move_check(a, b, through_windows=True)
    if check.crosses_wall:
        return False
    return all(o.height <= CHEST_LINE * figure_height for o, _ in check.obstacles)


def goal_field(state: HouseClearingState, side: str) -> DistanceField | None:
    """Walking distances to the side's hold or reach objectives (else toward the enemy's
    deployment zone), worked out once per scenario: the scenario is public."""
    height = state.options.figure_height
    return objective_field(state.scenario, side, state.enemy_of(side), state.sight,
                           lambda sight, a, b: easy_step(sight, height, a, b),
                           "house-clearing-goals")




# ---------------------------------------------------------------- JSON


def view_dict(state: HouseClearingState, view: SideView) -> dict[str, Any]:
    # the side's own log: the last LOG_LENGTH events it saw (see core.events.SideLogs)
    return contract_dict(
        "house-clearing", view, phase=str(view.phase), own=own_dicts(view),
        enemies=[_enemy(i, s) for i, s in view.enemies], log=state.logs.of(view.side),
        step=view.step, order=list(view.order),
        reaction=None if view.reaction is None else {
            "mover": view.reaction.mover, "firers": sorted(view.reaction.firers)})


def own_dicts(view: SideView) -> list[dict[str, Any]]:
    """The view's `own` list (see `RuleSet.own_view`)."""
    return [_own(f) for f in view.own]


def _own(f: Figure) -> dict[str, Any]:
    out = f.snapshot()
    out["status"] = status(f)
    return out


def status(f: Figure) -> str:
    if not f.in_action:
        return "out of action"
    parts = [f"initiative {f.initiative}", str(f.stance)]
    if f.initiative == 0:
        parts.append("cannot move")
    if f.ducked:
        parts.append("ducked back")
    if f.moved:
        parts.append("moved")
    if f.loading:
        parts.append("feeding the belt")
    elif f.fired:
        parts.append("fired")
    return ", ".join(parts)


def _enemy(figure_id: str, s: Seen) -> dict[str, Any]:
    return {"id": figure_id, "name": s.name, "weapon": str(s.kind), "x": s.x, "y": s.y,
            "floor": s.floor, "section": s.section, "stance": str(s.doing),
            "seen_turn": s.turn, "visible_now": s.visible, "alive": s.alive,
            "step_seen": s.step}
