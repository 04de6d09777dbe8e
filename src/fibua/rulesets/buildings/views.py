"""What a side knows, built by allow-list from its own units and what they observed: its
units, the enemies as last seen, the sections' states (public: a collapse or a fire is
plain to all), the dice left in the bag, its log. Nothing unobserved is reachable."""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from fibua.battlefield.model import Position, SectionState
from fibua.battlefield.navigation import DistanceField
from fibua.battlefield.sight import SightEngine
from fibua.core.events import Event
from fibua.core.views import BaseView, contract_dict, record_copies
from fibua.rulesets.buildings.state import BuildingsState, Model, Seen, Unit
from fibua.scenario.objectives import goal_field
from fibua.scenario.schema import VictorySpec


@dataclass(frozen=True)
class SideView(BaseView[Unit, Seen]):
    drawn: str | None
    #: the unit of this side shot at that may answer with Down, if any
    shot_at: str | None
    sections: tuple[tuple[str, str], ...]  # (section, state): public, plain to all
    bag: tuple[tuple[str, int], ...]
    log: tuple[Event, ...]
    objectives: tuple[VictorySpec, ...]
    #: walking distances to the side's objectives (public: worked out from the scenario)
    goal: DistanceField | None = None


#: a unit's fields in the order its class takes them (all set by __init__), and where
#: its lists are among them: `_copy` makes `replace`'s copy without its reading of the
#: class's fields each time (a view copies every unit that changed since the last)
_FIELDS = tuple(f.name for f in fields(Unit))
_VALUES = attrgetter(*_FIELDS)
_MODELS, _SPENT = _FIELDS.index("models"), _FIELDS.index("spent")


def _copy(u: Unit) -> Unit:
    values = list(_VALUES(u))
    values[_MODELS] = [Model(m.x, m.y, m.weapon) for m in u.models]
    values[_SPENT] = list(u.spent)
    return Unit(*values)


#: a model's fields, as its dataclass's == compares them
_MODEL = attrgetter("x", "y", "weapon")


def _same_lists(copy: Unit, unit: Unit) -> bool:
    """The models (moved, armed) and spent weapons are changed in place, which the
    copies' check by identity cannot see. The models are compared as their == would,
    field by field (`_MODEL`), without a call of Model.__eq__ for each one."""
    a, b = copy.models, unit.models
    return len(a) == len(b) and list(map(_MODEL, a)) == list(map(_MODEL, b)) \
        and copy.spent == unit.spent


def observe(state: BuildingsState, side: str) -> SideView:
    waiting = state.waiting
    # copies made again only of records that changed since the side's last view
    copies = state.view_copies
    own = record_copies(copies, side, "own", Unit, _copy, _same_lists).copies(
        (u.id, u) for u in state.units.values() if u.side == side)
    return SideView(
        scenario=state.scenario.name, side=side, enemy=state.enemy_of(side),
        turn=state.turn, turns=state.limit, to_act=state.acting_side, drawn=state.drawn,
        shot_at=waiting.target if waiting is not None
        and state.units[waiting.target].side == side else None,
        own=own,
        # sightings are immutable: views share them with the state
        enemies=state.knowledge[side].listed(),
        sections=_sections(state),
        bag=state.bag().dice,
        log=tuple(state.logs.of(side)),
        objectives=tuple(state.scenario.victory),
        sight=side_sight(state, side),
        result=state.result.to_dict() if state.result else None,
        goal=goal_field(state.scenario, side, state.enemy_of(side), state.sight, _passable,
                        "buildings-goals"),
    )


#: the rules' memo entry (`SightEngine.memo`) of the sections' states as views hold them
SECTIONS = "buildings.views.sections"


def _sections(state: BuildingsState) -> tuple[tuple[str, str], ...]:
    """(section, state) pairs in order of id, made once for each set of the sections'
    states: the rules' memo of the sight engine is one per set (it starts another when a
    section's state changes), and every view of every order holds them."""
    memo: dict[Any, Any] = state.sight.memo
    found: tuple[tuple[str, str], ...] | None = memo.get(SECTIONS)
    if found is None:
        found = memo[SECTIONS] = tuple((sid, str(st)) for sid, st in sorted(
            state.sight.section_states.items()))
    return found


def _passable(sight: SightEngine, a: Position, b: Position) -> bool:
    return not sight.move_blocked(a, b)


def side_sight(state: BuildingsState, side: str) -> SightEngine:
    """The side's own fork of the engine (section states follow the rules' own)."""
    found = state.side_sight.get(side)
    if found is None:
        found = state.side_sight[side] = state.sight.fork()
    return found


def view_dict(view: SideView) -> dict[str, Any]:
    return contract_dict(
        "buildings", view, phase="reaction" if view.shot_at else "orders",
        own=own_dicts(view), enemies=[_enemy(i, s) for i, s in view.enemies],
        log=view.log, drawn=view.drawn, shot_at=view.shot_at, bag=dict(view.bag),
        sections=dict(view.sections),
        section_states={sid: st for sid, st in view.sections if st != SectionState.INTACT},
        objectives=[v.description or f"{v.side}: {v.kind}" for v in view.objectives])


def own_dicts(view: SideView) -> list[dict[str, Any]]:
    """The view's `own` list (see `RuleSet.own_view`)."""
    return [_own(u) for u in view.own]


def _own(u: Unit) -> dict[str, Any]:
    out = u.snapshot()
    out["unit"] = u.id
    out["x"], out["y"] = (u.lead.x, u.lead.y) if u.models else (0.0, 0.0)
    out["status"] = status(u)
    return out


def status(u: Unit) -> str:
    if not u.alive:
        return "destroyed"
    parts = [f"{len(u.models)}/{u.start} models"]
    if u.pins:
        parts.append(f"{u.pins} pins")
    if u.section is not None:
        parts.append(f"in {u.section} floor {u.floor}")
    parts.append(f"order {u.order}" + (" (kept)" if u.kept else "") if u.order else "no order")
    return ", ".join(parts)


def _enemy(unit_id: str, s: Seen) -> dict[str, Any]:
    return {"id": unit_id, "name": s.name, "kind": str(s.kind), "x": s.x, "y": s.y,
            "floor": s.floor, "section": s.section, "models": s.strength,
            "seen_turn": s.turn, "visible_now": s.visible, "alive": s.alive,
            "order": None if s.doing is None else str(s.doing)}
