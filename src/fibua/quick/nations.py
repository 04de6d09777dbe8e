"""The armies a quick battle may pit against each other: a side's name and title, a code
for its ids, the word for its small units and the surnames its troops are named by.

The surnames of the nations differ, so that a figure's id (its surname) is never the same
on both sides."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Nation:
    name: str  # the side's name in the scenario
    title: str
    code: str  # prefix of its units' ids
    squad: str  # its word for a section or squad
    ranks: tuple[str, str, str]  # an officer, an NCO and a soldier
    surnames: tuple[str, ...]


BRITISH = Nation(
    "british", "British infantry", "gb", "Section", ("Lt.", "Cpl.", "Pte."),
    ("Adams", "Barker", "Collins", "Dawson", "Ellis", "Fletcher", "Gibbs", "Hughes",
     "Irwin", "Jenkins", "Kerr", "Lawson", "Marsh", "Nolan", "Oakes", "Parry", "Quayle",
     "Rowe", "Shaw", "Tate", "Usher", "Vance", "Walsh", "Yates"))
AMERICANS = Nation(
    "americans", "American infantry", "us", "Squad", ("Lt.", "Sgt.", "Pvt."),
    ("Abbott", "Brennan", "Carter", "Doyle", "Evans", "Foster", "Garcia", "Harper",
     "Kowalski", "Lopez", "Miller", "Nelson", "O'Brien", "Price", "Reilly", "Russo",
     "Stone", "Turner", "Vega", "Walker", "Young", "Zimmer", "Bishop", "Duncan"))
SOVIETS = Nation(
    "soviets", "Soviet rifle troops", "su", "Otdelenie", ("Lt.", "Sgt.", "Pvt."),
    ("Antonov", "Belov", "Chernov", "Demidov", "Egorov", "Fomin", "Gromov", "Ivanov",
     "Kozlov", "Lebedev", "Morozov", "Novikov", "Orlov", "Petrov", "Rybakov", "Sokolov",
     "Titov", "Ustinov", "Volkov", "Zaitsev", "Komarov", "Popov", "Sidorov", "Yakovlev"))
GERMANS = Nation(
    "germans", "German infantry", "de", "Gruppe", ("Lt.", "Uffz.", "Gren."),
    ("Albers", "Brandt", "Claussen", "Dietz", "Eckert", "Fuchs", "Gerlach", "Haas",
     "Jung", "Kessler", "Lang", "Maurer", "Neumann", "Otto", "Pohl", "Richter", "Sommer",
     "Thiel", "Ulrich", "Vogt", "Weber", "Ziegler", "Krause", "Lorenz"))

#: the Allies; each quick battle sets one of them against the Germans
ALLIES = (BRITISH, AMERICANS, SOVIETS)


def match(rng: random.Random) -> tuple[Nation, Nation]:
    """The two nations, the south side's first."""
    pair = [rng.choice(ALLIES), GERMANS]
    rng.shuffle(pair)
    return pair[0], pair[1]


@dataclass
class Roll:
    """Names dealt out to one side's troops: each surname once (then with a number)."""

    nation: Nation
    rng: random.Random
    used: int = 0

    def __post_init__(self) -> None:
        self.names = list(self.nation.surnames)
        self.rng.shuffle(self.names)

    def surname(self) -> str:
        base = self.names[self.used % len(self.names)]
        lap = self.used // len(self.names)
        self.used += 1
        return base if lap == 0 else f"{base} {lap + 1}"


def ident(text: str) -> str:
    """An id from a name: lower case, words joined by hyphens."""
    out = "".join(c if c.isalnum() else "-" for c in text.lower())
    return "-".join(part for part in out.split("-") if part)
