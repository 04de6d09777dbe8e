"""A tiny but complete rule set for testing the engine, the log and the CLI generically.

Two sides take turns. Each order is `shoot UNIT target=ID` (a d6 that removes the target on
the scenario's `need` or better) or `pass`. A side's deployment and casualty reports reach
only that side; shots are seen by everyone. The game ends when a side has no tokens left or
after the scenario's number of turns. Importing this module registers it as "toy".
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from fibua.core.dice import Rng, roll
from fibua.core.errors import IllegalOrder
from fibua.core.events import EVERYONE, Event
from fibua.core.orders import Order
from fibua.core.ruleset import OddsQuery, OddsReport, Player, Result, RuleSet, register
from fibua.scenario.loader import scenario_from_dict
from fibua.scenario.schema import Scenario


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TokenSpec(_Strict):
    id: str
    name: str
    at: tuple[float, float]


class ToyForces(_Strict):
    tokens: list[TokenSpec] = Field(min_length=1)


class ToyOptions(_Strict):
    #: the d6 score a shot needs to remove its target
    need: int = Field(default=4, ge=1, le=7)


@dataclass
class Token:
    id: str
    name: str
    side: str
    x: float
    y: float
    alive: bool = True


@dataclass
class ToyState:
    scenario: str
    sides: tuple[str, ...]
    tokens: dict[str, Token]
    rng: Rng
    need: int
    last_turn: int
    turn: int = 1
    acting: int = 0
    events: list[Event] = field(default_factory=list)


# -- the odds query ----------------------------------------------------------------------


class DuelParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    need: int = Field(ge=1, le=12, description="score needed on the die")
    rerolls: bool = Field(default=False, description="a miss may be rolled again once")
    target_moving: bool = Field(default=False, description="a moving target: need one more")
    dice: Literal["d6", "d10"] = Field(default="d6", description="the die rolled")
    range_: float = Field(default=6.0, alias="range", ge=0, description="range in inches")


def duel_odds(params: DuelParams) -> OddsReport:
    """Exact chance that one shot removes the target."""
    if params.range_ > 24:
        raise ValueError(f"a target {params.range_:g} in away is out of range (24 in at most)")
    sides = 6 if params.dice == "d6" else 10
    need = params.need + (1 if params.target_moving else 0)
    once = Fraction(max(0, sides - need + 1), sides) if need <= sides else Fraction(0)
    once = min(once, Fraction(1))
    chance = 1 - (1 - once) ** 2 if params.rerolls else once
    return OddsReport(
        values={"chance": float(chance), "exact": str(chance), "need": need},
        breakdown=[("die", params.dice), ("needed", f"{need}+"), ("chance", f"{chance}")],
    )


DUEL = OddsQuery("duel", "chance that one shot removes its target", DuelParams, duel_odds)


# -- players -------------------------------------------------------------------------------


@dataclass
class FirstShot:
    """The toy computer: the first legal shot, else pass."""

    side: str

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        shots = [o for o in legal if o.kind == "shoot"]
        return shots[0] if shots else legal[-1]


@dataclass
class RandomToyPlayer:
    side: str
    rng: Rng

    def choose(self, view: Any, legal: Sequence[Order]) -> Order:
        return legal[self.rng.below(len(legal))]


# -- the rule set --------------------------------------------------------------------------


class ToyRuleSet(RuleSet[ToyState]):
    name = "toy"
    title = "Toy duel (tests only)"
    forces_model = ToyForces
    options_model = ToyOptions
    odds_queries: ClassVar[Mapping[str, OddsQuery]] = {"duel": DUEL}
    order_syntax: ClassVar[Mapping[str, str]] = {
        "shoot": "shoot UNIT target=ID",
        "pass": "pass",
    }

    def new_state(self, scenario: Scenario, seed: int, rng: Any = None) -> ToyState:
        tokens: dict[str, Token] = {}
        for side in scenario.side_names:
            forces: ToyForces = scenario.forces_of(side)
            for spec in forces.tokens:
                tokens[spec.id] = Token(spec.id, spec.name, side, spec.at[0], spec.at[1])
        return ToyState(
            scenario=scenario.name,
            sides=scenario.side_names,
            tokens=tokens,
            rng=rng if rng is not None else Rng(seed),
            need=scenario.rule_options.need,
            last_turn=scenario.scenario.turns,
        )

    def start(self, state: ToyState) -> list[Event]:
        events = [
            Event("deployed", {"id": t.id, "name": t.name, "x": t.x, "y": t.y}, (t.side,), 1)
            for t in state.tokens.values()
        ]
        state.events.extend(events)
        return events

    def to_act(self, state: ToyState) -> str | None:
        if self._finished(state):
            return None
        return state.sides[state.acting]

    def legal_orders(self, state: ToyState, side: str) -> list[Order]:
        if self.to_act(state) != side:
            return []
        shots = [
            Order(side, "shoot", own.id, {"target": enemy.id})
            for own in self._alive(state, side)
            for enemy in state.tokens.values()
            if enemy.alive and enemy.side != side
        ]
        return [*shots, Order(side, "pass")]

    def apply(self, state: ToyState, order: Order) -> list[Event]:
        self._check(state, order)
        events = self._shoot(state, order) if order.kind == "shoot" else self._pass(state, order)
        self._advance(state)
        state.events.extend(events)
        return events

    def preview(self, state: ToyState, order: Order) -> str:
        self._check(state, order)
        if order.kind == "pass":
            return "pass: nothing happens"
        chance = Fraction(max(0, 7 - state.need), 6)
        return f"shoot: d6, needs {state.need}+, chance {chance} ({float(chance):.0%})"

    def observe(self, state: ToyState, side: str) -> dict[str, Any]:
        return self.view(state, side)

    def view(self, state: ToyState, side: str) -> dict[str, Any]:
        own = [
            {
                "id": t.id,
                "name": t.name,
                "unit": None,
                "x": t.x,
                "y": t.y,
                "floor": 0,
                "section": None,
                "status": "ok" if t.alive else "removed",
            }
            for t in state.tokens.values()
            if t.side == side
        ]
        # the toy table is open ground: every live enemy is in plain sight
        enemies = [
            {
                "id": t.id,
                "name": t.name,
                "x": t.x,
                "y": t.y,
                "floor": 0,
                "section": None,
                "seen_turn": state.turn,
                "visible_now": True,
            }
            for t in state.tokens.values()
            if t.side != side and t.alive
        ]
        result = self.result(state)
        return {
            "ruleset": self.name,
            "scenario": state.scenario,
            "side": side,
            "turn": state.turn,
            "phase": "orders",
            "to_act": self.to_act(state),
            "own": own,
            "enemies": enemies,
            "log": [e.to_dict() for e in state.events if e.seen_by(side)],
            "result": result.to_dict() if result else None,
        }

    def snapshot(self, state: ToyState) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "acting": state.acting,
            "rng": state.rng.snapshot(),
            "tokens": {t.id: [t.side, t.x, t.y, t.alive] for t in state.tokens.values()},
        }

    def result(self, state: ToyState) -> Result | None:
        if not self._finished(state):
            return None
        counts = {side: len(self._alive(state, side)) for side in state.sides}
        best = max(counts.values())
        leaders = [side for side, n in counts.items() if n == best]
        winner = leaders[0] if len(leaders) == 1 else None
        reason = "last side standing" if min(counts.values()) == 0 else "more tokens left"
        scores = {side: float(n) for side, n in counts.items()}
        return Result(winner, reason if winner else "drawn", scores)

    def computer(self, side: str, seed: int, units: frozenset[str] | None = None) -> Player:
        return FirstShot(side)

    def random_player(self, side: str, seed: int) -> Player:
        return RandomToyPlayer(side, Rng(seed))

    # -- helpers -------------------------------------------------------------------------

    def _alive(self, state: ToyState, side: str) -> list[Token]:
        return [t for t in state.tokens.values() if t.side == side and t.alive]

    def _finished(self, state: ToyState) -> bool:
        if state.turn > state.last_turn:
            return True
        return any(not self._alive(state, side) for side in state.sides)

    def _check(self, state: ToyState, order: Order) -> None:
        """Every reason to refuse, before anything changes."""
        side = self.to_act(state)
        if side is None:
            raise IllegalOrder("the game is over", order, "game-over")
        if order.side != side:
            raise IllegalOrder(f"it is {side}'s turn", order, "not-your-turn")
        if order.kind == "pass":
            if order.unit is not None or order.params:
                raise IllegalOrder("pass takes no unit and no parameters", order)
            return
        if order.kind != "shoot":
            raise IllegalOrder(f"unknown order {order.kind!r} (shoot, pass)", order, "unknown")
        self._check_shot(state, order)

    def _check_shot(self, state: ToyState, order: Order) -> None:
        shooter = state.tokens.get(order.unit) if isinstance(order.unit, str) else None
        if shooter is None or shooter.side != order.side or not shooter.alive:
            raise IllegalOrder(f"{order.unit!r} is not one of your tokens in play", order)
        if set(order.params) != {"target"}:
            raise IllegalOrder("shoot takes exactly one parameter: target=ID", order)
        name = order.params["target"]
        target = state.tokens.get(name) if isinstance(name, str) else None
        if target is None or target.side == order.side or not target.alive:
            raise IllegalOrder(f"{name!r} is not an enemy token in play", order)

    def _shoot(self, state: ToyState, order: Order) -> list[Event]:
        target = state.tokens[order.params["target"]]
        shot = roll(state.rng, "d6", "shot", need=state.need)
        hit = bool(shot.success)
        events = [
            Event(
                "shot",
                {"shooter": order.unit, "target": target.id, "hit": hit, "roll": shot.to_dict()},
                EVERYONE,
                state.turn,
            )
        ]
        if hit:
            target.alive = False
            events.append(
                Event(
                    "casualty", {"id": target.id, "name": target.name}, (target.side,), state.turn
                )
            )
        return events

    def _pass(self, state: ToyState, order: Order) -> list[Event]:
        return [Event("passed", {"side": order.side}, EVERYONE, state.turn)]

    def _advance(self, state: ToyState) -> None:
        state.acting = (state.acting + 1) % len(state.sides)
        if state.acting == 0:
            state.turn += 1


TOY = ToyRuleSet()
register(TOY)

TOY_SCENARIO_TOML = """\
[scenario]
name = "toy-duel"
title = "Toy duel"
ruleset = "toy"
turns = 4

[map]
width = 12
height = 8

[[map.terrain]]
id = "lane"
kind = "road"
polygon = [[0, 3], [12, 3], [12, 5], [0, 5]]

[[map.obstacles]]
id = "garden-wall"
kind = "high-wall"
points = [[6, 0], [6, 2]]

[[map.buildings]]
id = "barn"
name = "Barn"

[[map.buildings.sections]]
id = "barn-1"
footprint = [[8, 5.5], [11, 5.5], [11, 7.5], [8, 7.5]]

[[sides]]
name = "red"
title = "Red team"
player = "human"
forces = { tokens = [
    { id = "r1", name = "Corporal Rouge", at = [1, 1] },
    { id = "r2", name = "Private Scarlet", at = [2, 1] },
] }

[[sides]]
name = "blue"
title = "Blue team"
forces = { tokens = [
    { id = "b1", name = "Gefreiter Blau", at = [10, 6] },
    { id = "b2", name = "Schuetze Azur", at = [11, 7] },
] }
"""

#: names and coordinates that only the blue side's own records may contain
BLUE_SECRETS = ("Gefreiter Blau", "Schuetze Azur", "[10,6]", "[11,7]")


def toy_scenario_dict() -> dict[str, Any]:
    return tomllib.loads(TOY_SCENARIO_TOML)


def toy_scenario(turns: int | None = None, need: int | None = None) -> Scenario:
    raw = toy_scenario_dict()
    if turns is not None:
        raw["scenario"]["turns"] = turns
    if need is not None:
        raw["options"] = {"need": need}
    return scenario_from_dict(raw, "toy")
