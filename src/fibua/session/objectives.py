"""A scenario's objectives as a person reads them, and a game's outcome in words: the same
at the terminal, in the browser and in the reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fibua.battlefield.model import Point
from fibua.battlefield.svg import ObjectiveMark
from fibua.scenario.schema import Scenario

#: what each kind of victory condition asks, in a few words, when a file gives no description
KIND_WORDS = {
    "hold": "hold",
    "reach": "reach",
    "eliminate": "leave no enemy able to fight",
    "survive": "keep troops able to fight",
}


@dataclass(frozen=True)
class Objective:
    """One victory condition of the scenario, as a person reads it."""

    side: str
    kind: str
    points: int
    description: str
    sections: tuple[str, ...] = ()
    zone: tuple[Point, ...] = ()


def _describe(kind: str, sections: Sequence[str], zone: Sequence[Point]) -> str:
    where = ", ".join(sections)
    if zone:
        xs, ys = [p[0] for p in zone], [p[1] for p in zone]
        area = f"the area x {min(xs):g}-{max(xs):g}, y {min(ys):g}-{max(ys):g}"
        where = f"{where} and {area}" if where else area
    words = KIND_WORDS.get(kind, kind)
    return f"{words} {where}".strip()


def objectives(scenario: Scenario) -> list[Objective]:
    """The scenario's victory conditions, in file order."""
    return [
        Objective(
            spec.side, spec.kind, spec.points,
            spec.description or _describe(spec.kind, spec.sections, spec.zone or ()),
            tuple(spec.sections), tuple(spec.zone or ()),
        )
        for spec in scenario.victory
    ]


def objective_sections(scenario: Scenario) -> dict[str, list[Objective]]:
    """The sections some objective names, with those objectives."""
    out: dict[str, list[Objective]] = {}
    for objective in objectives(scenario):
        for section in objective.sections:
            out.setdefault(section, []).append(objective)
    return out


def objective_zones(scenario: Scenario) -> list[Objective]:
    return [o for o in objectives(scenario) if o.zone]


@dataclass(frozen=True)
class Place:
    """Sections or a zone some objectives name, with every side's aims there; `key` is the
    symbol the map marks it with and the objectives panel lists it under (1, 2, ...)."""

    key: str
    sections: tuple[str, ...]
    zone: tuple[Point, ...]
    aims: tuple[Objective, ...]


def objective_places(scenario: Scenario) -> list[Place]:
    """The places objectives name, in the order the file first names each."""
    places: dict[tuple[tuple[str, ...], tuple[Point, ...]], list[Objective]] = {}
    for objective in objectives(scenario):
        if objective.sections or objective.zone:
            places.setdefault((objective.sections, objective.zone), []).append(objective)
    return [Place(str(i + 1), sections, zone, tuple(aims))
            for i, ((sections, zone), aims) in enumerate(places.items())]


def aims_text(aims: Sequence[Objective]) -> str:
    """Every side's aim at a place: `british hold (2); germans hold (2)`."""
    return "; ".join(f"{o.side} {o.kind} ({o.points})" for o in aims)


def objective_marks(scenario: Scenario) -> list[ObjectiveMark]:
    """The objectives with a place, for the SVG map: one mark for each set of sections or
    zone, keyed as the objectives panel lists it, its title every side's aim there."""
    return [ObjectiveMark(aims_text(p.aims), p.sections, p.zone, p.key)
            for p in objective_places(scenario)]


def game_over_headline(winner: object) -> str:
    """`the germans win` / `a draw`."""
    if not winner:
        return "a draw"
    name = str(winner)
    # side names are plural nouns (germans, british) or a single name (red)
    return f"the {name} win" if name.endswith("s") or name == "british" else f"{name} wins"
