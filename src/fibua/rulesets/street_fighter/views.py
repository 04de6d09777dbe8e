"""What a side knows, built by allow-list from its own units and what they observed; the
copy a player (person or computer) decides from. Nothing unobserved can be reached from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fibua.battlefield.sight import SightEngine
from fibua.core.events import Event
from fibua.core.knowledge import FireReport
from fibua.core.views import BaseView, contract_dict, record_copies
from fibua.rulesets.street_fighter.actions import held_sections
from fibua.rulesets.street_fighter.knowledge import recent_reports
from fibua.rulesets.street_fighter.state import (
    Marker,
    Seen,
    StreetFighterState,
    Unit,
)
from fibua.scenario.schema import VictorySpec


@dataclass(frozen=True, slots=True)
class OwnFormation:
    id: str
    name: str
    commander: str | None
    units: tuple[str, ...]
    demoralised: bool


@dataclass(frozen=True)
class SideView(BaseView[Unit, Seen]):
    doctrine: str
    formations: tuple[OwnFormation, ...]
    reports: tuple[FireReport, ...]
    log: tuple[Event, ...]  # the side's latest events (state.remember), addressed to it
    markers: tuple[Marker, ...]
    artillery: int
    held: frozenset[str]
    objectives: tuple[VictorySpec, ...]  # the scenario's, public
    goals: tuple[str, ...]  # descriptions of the side's destroy objectives


def observe(state: StreetFighterState, side: str) -> SideView:
    # made for every order: built without the generated __init__ of the frozen dataclass,
    # which sets its twenty-odd fields one object.__setattr__ at a time
    view: SideView = object.__new__(SideView)
    fields = view.__dict__
    fields.update(_fixed_fields(state, side))
    # copies made again only of records that changed since the side's last view
    copies = state.view_copies
    fields["own"] = record_copies(copies, side, "own", Unit, _copy_unit,
                                  _same_passengers, UNIT_CHANGES).copies(
        (u.id, u) for u in state.units.values() if u.side == side)
    # sightings and reports are immutable: views share them with the state
    fields["enemies"] = state.knowledge[side].listed()
    fields["reports"] = tuple(recent_reports(state, side))
    fields["markers"] = record_copies(copies, side, "markers", Marker).copies(
        (str(k), m) for k, m in enumerate(m for m in state.markers if m.side == side))
    fields["turn"] = state.turn
    fields["to_act"] = state.acting_side
    fields["formations"] = _formations(state, side)
    # the filter again is a second lock against showing a side what it did not see
    fields["log"] = tuple(state.logs.of(side))
    fields["artillery"] = state.artillery.get(side, 0)
    fields["held"] = held_sections(state, side)
    fields["result"] = state.result.to_dict() if state.result else None
    return view


def _fixed_fields(state: StreetFighterState, side: str) -> dict[str, Any]:
    """The fields of the side's views that stay the same all game: the scenario's, the
    options and the side's own map."""
    kept: dict[str, Any] | None = state.view_copies.get((side, "fixed"))
    if kept is None:
        kept = state.view_copies[(side, "fixed")] = {
            "scenario": state.scenario.name, "side": side, "enemy": state.enemy_of(side),
            "doctrine": state.scenario.forces_of(side).doctrine,
            "turns": state.scenario.scenario.turns,
            "objectives": tuple(state.scenario.victory),
            "goals": tuple(g.description or "destroy the named enemy units"
                           for g in state.options.destroy if g.side == side),
            "sight": side_sight(state, side),
        }
    return kept


#: the fields of a unit the rules set once it is made (its id, name, side, formation,
#: kind and starting hit points never change): only these are compared to tell whether a
#: view's copy still holds, a third fewer than all of them
UNIT_CHANGES = ("pos", "hp", "activity", "acted", "pinned", "pinned_turn", "rides",
                "passengers", "surrendered", "last_fired_turn")


def _formations(state: StreetFighterState, side: str) -> tuple[OwnFormation, ...]:
    """The side's formations as its views show them, made again only when one is
    demoralised: their id, name, commander and units are set up once, and the tuple is
    immutable (views share it)."""
    mine = [f for f in state.formations.values() if f.side == side]
    flags = [f.demoralised for f in mine]
    kept: tuple[list[bool], tuple[OwnFormation, ...]] | None = \
        state.view_copies.get((side, "formations"))
    if kept is None or kept[0] != flags:
        kept = state.view_copies[(side, "formations")] = (flags, tuple(
            OwnFormation(f.id, f.name, f.commander, tuple(f.units), f.demoralised)
            for f in mine))
    return kept[1]


def _copy_unit(u: Unit) -> Unit:
    # every field by hand, as `replace` would set them, at a fraction of its cost (it
    # reads the fields' list for every copy); tests/test_speed_street_fighter.py checks
    # the copy has every field
    return Unit(u.id, u.name, u.side, u.formation, u.kind, u.pos, u.hp, u.start_hp,
                u.activity, u.acted, u.pinned, u.pinned_turn, u.rides, list(u.passengers),
                u.surrendered, u.last_fired_turn)


def _same_passengers(copy: Unit, unit: Unit) -> bool:
    """The list is changed in place, which the copies' check by identity cannot see."""
    return copy.passengers == unit.passengers


def side_sight(state: StreetFighterState, side: str) -> SightEngine:
    """The side's own fork of the sight engine for this game: what the rules and the other
    side ask of the map stays in their own forks."""
    found = state.side_sight.get(side)
    if found is None:
        found = state.side_sight[side] = state.sight.fork()
    return found


def view_dict(view: SideView) -> dict[str, Any]:
    return contract_dict(
        "street-fighter", view, phase="orders", own=own_dicts(view),
        enemies=[_enemy(i, s) for i, s in view.enemies], log=view.log,
        formations=[{"id": f.id, "name": f.name, "commander": f.commander,
                        "units": list(f.units), "demoralised": f.demoralised}
                    for f in view.formations],
        fired_on=[{"unit": r.unit, "direction": r.direction, "turn": r.turn, "hits": r.hits}
                  for r in view.reports],
        fire_markers=[{"by": m.by, "x": m.x, "y": m.y, "turn": m.turn} for m in view.markers],
        artillery_missions=view.artillery,
        held_sections=sorted(view.held),
        objectives=[v.description or f"{v.side}: {v.kind}" for v in view.objectives]
        + list(view.goals),
    )


def own_dicts(view: SideView) -> list[dict[str, Any]]:
    """The view's `own` list (see `RuleSet.own_view`)."""
    return [_own(u) for u in view.own]


def _own(u: Unit) -> dict[str, Any]:
    out = u.snapshot()
    out["unit"] = u.formation
    out["floor"] = 0
    out["status"] = status(u)
    return out


def status(u: Unit) -> str:
    if not u.alive:
        return "surrendered" if u.surrendered else "destroyed"
    parts = [f"{u.hp}/{u.start_hp} hp"]
    if u.pinned:
        parts.append("pinned")
    if u.rides:
        parts.append(f"in {u.rides}")
    if u.passengers:
        parts.append("carrying " + ", ".join(u.passengers))
    parts.append(str(u.activity) if u.acted else "ready")
    return ", ".join(parts)


def _enemy(unit_id: str, s: Seen) -> dict[str, Any]:
    return {"id": unit_id, "name": s.name, "kind": str(s.kind), "x": s.x, "y": s.y,
            "floor": 0, "section": s.section, "seen_turn": s.turn, "visible_now": s.visible,
            "flat_out": s.doing, "alive": s.alive}
