"""A simple computer for Buildings, from its side's view alone: among the legal orders it
fires at an enemy it sees (the nearest), else moves toward its objective (or the nearest
enemy it knows of), entering a building there when it can; pinned units rally; a shot at
unit goes Down when it has no order. Not a tactician: a legal-order chooser (a stronger
computer comes later)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import dist

from fibua.core.game import allowed
from fibua.core.orders import Order
from fibua.core.ruleset import commands
from fibua.rulesets.buildings.geometry import centroid
from fibua.rulesets.buildings.views import SideView


class SimpleChooser:
    def __init__(self, side: str, seed: int, units: frozenset[str] | None = None) -> None:
        self.side = side
        self.units = units
        self._rng = random.Random(seed)

    def choose(self, view: SideView, legal: Sequence[Order]) -> Order:
        mine = [o for o in legal if commands(self.units, o.unit)]
        if view.shot_at is not None:
            down = [o for o in mine if o.kind == "down"]
            return down[0] if down else Order(self.side, "end")
        units = [o for o in mine if o.unit is not None]
        if not units:
            return Order(self.side, "end")
        for pick in (self._rally, self._fire, self._enter, self._move):
            found = pick(view, units)
            if found is not None and allowed(legal, found):
                return found
        return self._rng.choice(units)

    def _rally(self, view: SideView, orders: list[Order]) -> Order | None:
        rally = [o for o in orders if o.kind == "rally" and view.unit(o.unit or "").pins >= 3]
        return rally[0] if rally else None

    def _fire(self, view: SideView, orders: list[Order]) -> Order | None:
        seen = dict(view.visible_enemies())
        fire = [o for o in orders if o.kind == "fire" and o.params.get("target") in seen]
        if not fire:
            return None

        def gap(o: Order) -> float:
            u, s = view.unit(o.unit or ""), seen[str(o.params["target"])]
            return dist((u.lead.x, u.lead.y), (s.x, s.y))

        return min(fire, key=gap)

    def _goal(self, view: SideView) -> tuple[float, float] | None:
        field = view.sight.battlefield
        for spec in view.objectives:
            if spec.side == view.side and spec.kind in ("hold", "reach"):
                if spec.sections:
                    return centroid(field.section(spec.sections[0]))
                if spec.zone:
                    xs = [p[0] for p in spec.zone]
                    ys = [p[1] for p in spec.zone]
                    return (sum(xs) / len(xs), sum(ys) / len(ys))
        known = [(s.x, s.y) for _, s in view.enemies if s.alive]
        return known[0] if known else None

    def _enter(self, view: SideView, orders: list[Order]) -> Order | None:
        wanted = {s for spec in view.objectives if spec.side == view.side
                  for s in spec.sections}
        enter = [o for o in orders if o.kind == "run" and o.params.get("enter") in wanted]
        return enter[0] if enter else None

    def _held(self, view: SideView) -> set[str]:
        return {s for spec in view.objectives if spec.side == view.side
                and spec.kind == "hold" for s in spec.sections}

    def _move(self, view: SideView, orders: list[Order]) -> Order | None:
        """The move that brings a unit nearest its goal; a unit already holding one of its
        side's sections stays and watches (Ambush)."""
        held = self._held(view)
        staying = {u.id for u in view.own if u.section is not None and u.section in held}
        for o in orders:
            if o.kind == "ambush" and o.unit in staying:
                return o
        goal = self._goal(view)
        moves = [o for o in orders if o.kind in ("advance", "run") and "to" in o.params
                 and o.unit not in staying]
        if goal is None or not moves:
            return None

        def after(o: Order) -> float:
            to = o.params["to"]
            return dist((float(to[0]), float(to[1])), goal)

        return min(moves, key=after)
