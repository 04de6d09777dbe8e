"""What a side knows of the enemy, in one vocabulary (core/knowledge.py): one sighting type
for every rule set, the operations on a side's knowledge, and the public facts, which
hold what the scenario briefs a side of its enemy and nothing of where it stands.

(That moving an unseen enemy leaves a side's knowledge as it was is checked for every
bundled scenario in tests/test_noninterference.py, with everything else the side has.)"""

from __future__ import annotations

import copy
import importlib
import inspect
import pkgutil
from dataclasses import fields
from typing import Any

import pytest

from fibua.core.game import Game, LegalOrders
from fibua.core.knowledge import (
    Briefed,
    FireReport,
    PublicFacts,
    SideKnowledge,
    Sighting,
    Sure,
    public_facts,
)
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.scenario.schema import Scenario
from fibua.server.messages import briefing

RULESETS = ("buildings", "house_clearing", "street_fight", "street_fighter")


def _modules(package: str) -> list[Any]:
    root = importlib.import_module(f"fibua.rulesets.{package}")
    return [importlib.import_module(f"{root.__name__}.{info.name}")
            for info in pkgutil.iter_modules(root.__path__)]


def _own_classes(module: Any) -> list[type]:
    return [c for _, c in inspect.getmembers(module, inspect.isclass)
            if c.__module__ == module.__name__]


def _record_fields(cls: type) -> set[str]:
    """The fields of a dataclass or named tuple (none for any other class)."""
    if hasattr(cls, "__dataclass_fields__"):
        return {f.name for f in fields(cls)}
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return set(cls._fields)
    return set()


@pytest.mark.parametrize("package", RULESETS)
def test_no_rule_set_defines_a_sighting_of_its_own(package: str) -> None:
    """Every rule set keeps what a side saw of the enemy in core's Sighting: none defines a
    class of its own that records a sighting (whether an enemy is in sight and in the
    fight) or a report of fire. (A computer's own digest of a sighting, its threats, is
    no record of what the side knows.)"""
    found = []
    modules = _modules(package)
    assert len(modules) > 10  # the whole rule set was looked at
    for module in modules:
        for cls in _own_classes(module):
            names = _record_fields(cls)
            if "Sighting" in cls.__name__ or cls.__name__ in ("Report", "FireReport") \
                    or {"visible", "alive"} <= names or {"direction", "hits"} <= names:
                found.append(f"{module.__name__}.{cls.__name__}")
    assert not found, f"rule sets' own sighting types: {found}"


def test_the_check_finds_a_sighting_of_a_rule_sets_own() -> None:
    """The check above is able to fail: a record with a place and `visible` is found."""
    from typing import NamedTuple

    class Spotted(NamedTuple):
        x: float
        visible: bool
        alive: bool

    assert {"visible", "alive"} <= _record_fields(Spotted)


def _midgame(name: str, orders: int = 40, seed: int = 3) -> Game:
    game = Game(load_scenario(name), seed)
    players = {s: game.ruleset.computer(s, seed + n)
               for n, s in enumerate(game.scenario.side_names)}
    for _ in range(orders):
        side = game.to_act()
        if side is None:
            break
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    return game


def _one_scenario_each() -> list[str]:
    picked: dict[str, str] = {}
    for name in sorted(bundled_scenarios()):
        picked.setdefault(load_scenario(name).ruleset, name)
    return sorted(picked.values())


@pytest.mark.parametrize("name", _one_scenario_each())
def test_every_rule_set_keeps_core_knowledge_and_views_hand_out_core_sightings(
        name: str) -> None:
    game = _midgame(name)
    seen = 0
    for side in game.scenario.side_names:
        knowledge = game.state.knowledge[side]
        assert type(knowledge) is SideKnowledge
        for unit, s in knowledge.sightings.items():
            assert type(s) is Sighting and s.unit == unit and isinstance(s.sure, Sure)
            seen += 1
        view = game.observe(side)
        assert view.enemies == knowledge.listed()
        assert all(type(s) is Sighting for _, s in view.enemies)
    assert seen, f"{name}: nobody saw anybody in 40 orders"


# ---------------------------------------------------------------- the operations


def _facts() -> PublicFacts[str]:
    return PublicFacts("red", "Red", (Briefed("rifle"), Briefed("lmg")), None)


def _seen(unit: str = "r1", turn: int = 1, x: float = 3.0, **changes: Any
          ) -> Sighting[str, None]:
    return Sighting(unit, unit.upper(), "rifle", x, 4.0, None, 0, turn, Sure.SEEN, None
                    )._replace(**changes)


def test_a_sighting_recorded_replaces_the_last_and_moves_the_news() -> None:
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    assert known.get("r1") is None and not known.sees("r1") and known.news == 0
    known.record(_seen())
    known.record(_seen(x=5.0, turn=2))
    assert known.get("r1") == _seen(x=5.0, turn=2) and known.sees("r1")
    assert known.news == 2 and known.in_sight() == ["r1"]


def test_losing_sight_keeps_where_it_was_last_seen() -> None:
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    assert known.lose("r1", 4) is None  # never seen: nothing to lose
    known.record(_seen(turn=2))
    assert known.lose("r1", 4) == _seen(turn=2)
    after = known.get("r1")
    assert after is not None and after.sure is Sure.LAST_SEEN and not after.visible
    # in sight from turn 2 until turn 4: last seen on turn 4, where it was
    assert (after.x, after.turn, after.alive) == (3.0, 4, True)
    news = known.news
    assert known.lose("r1", 5) is None and known.news == news  # already out of sight
    assert known.in_sight() == []


def test_the_age_of_a_sighting_counts_turns_out_of_sight() -> None:
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    assert known.age("r1", 5) is None
    known.record(_seen(turn=2))
    assert known.age("r1", 5) == 0  # in sight: no age
    known.lose("r1", 2)
    assert known.age("r1", 5) == 3 and known.age("r1", 1) == 0


def test_a_casualty_is_kept_out_of_the_fight_where_it_was() -> None:
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    assert not known.record_casualty("r1", 3)  # nothing known of it, nothing to keep
    assert known.get("r1") is None
    known.record(_seen())
    assert known.record_casualty("r1", 3)
    fallen = known.get("r1")
    assert fallen is not None and not fallen.alive and not fallen.visible and fallen.x == 3.0
    assert fallen.turn == 3  # seen to fall on turn 3
    # one never seen before, seen to fall where it fell
    assert known.record_casualty("r2", 3, _seen("r2", x=9.0))
    other = known.get("r2")
    assert other is not None and (other.alive, other.visible, other.x) == (False, False, 9.0)
    # a glimpse stays a glimpse: how the side knew where it was does not change
    known.record(_seen("r3", sure=Sure.GLIMPSED))
    known.record_casualty("r3", 3)
    assert known.sightings["r3"].sure is Sure.GLIMPSED


def test_fire_reported_is_kept_and_the_recent_reports_read() -> None:
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    old, new = FireReport("b1", "NE", 1, 2), FireReport("b2", "S", 3)
    known.report_fire(old)
    known.report_fire(new)
    assert known.reports == [old, new] and known.news == 2
    assert known.recent_reports(3, 2) == [new] and known.recent_reports(2, 2) == [old, new]


def test_the_listing_is_sorted_and_kept_until_the_news_moves() -> None:
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    known.record(_seen("r2"))
    known.record(_seen("r1"))
    first = known.listed()
    assert [i for i, _ in first] == ["r1", "r2"] and known.listed() is first
    known.lose("r2", 1)
    again = known.listed()
    assert again is not first and not again[1][1].visible


def test_reset_replaces_everything_the_side_knew() -> None:
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    known.record(_seen("r1"))
    known.report_fire(FireReport("b1", "N", 1))
    news = known.news
    known.reset([_seen("r9")])
    assert list(known.sightings) == ["r9"] and known.reports == [] and known.news > news


def test_a_copy_of_the_knowledge_shares_its_sightings_and_changes_apart() -> None:
    """A search's copy of the game copies what a side knows: the immutable sightings and
    facts are shared, and changing the copy leaves the original as it was."""
    known: SideKnowledge[str, None] = SideKnowledge(_facts())
    known.record(_seen())
    twin = copy.deepcopy(known)
    assert twin.get("r1") is known.get("r1") and twin.facts is known.facts
    twin.lose("r1", 1)
    twin.report_fire(FireReport("b1", "N", 1))
    assert known.sees("r1") and known.reports == []


def test_a_sighting_is_immutable() -> None:
    s = _seen()
    with pytest.raises(AttributeError):
        s.x = 4.0  # type: ignore[misc]
    assert s.pos.point == (3.0, 4.0)


# ---------------------------------------------------------------- the public facts


def _enemy_entry(raw: dict[str, Any], side: str) -> dict[str, Any]:
    (entry,) = [s for s in raw["sides"] if s["name"] != side]
    return entry


def _roster(scenario: Scenario, side: str) -> list[tuple[str, str, Any]]:
    """(id, name, what the scenario file says it is) of each unit the side's entry in
    the file lists, read from the file as written (not through the rule set)."""
    forces = scenario.side(side).forces
    ruleset = scenario.ruleset
    if ruleset == "house-clearing":
        return [(f["id"], f["name"], f["weapon"]) for p in forces["players"]
                for f in p["figures"]]
    if ruleset == "street-fight":
        return [(f["id"], f["name"], None if f["weapon"] == "random" else f["weapon"])
                for u in forces["units"] for f in u["figures"]]
    if ruleset == "buildings":
        return [(u["id"], u["name"], len(u["models"])) for u in forces["units"]]
    return []  # Street Fighter's presets expand into units: counted by the rule set


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_the_public_facts_are_what_the_scenario_briefs_of_the_enemy(name: str) -> None:
    """A side is told its enemy's name and title (the briefing every front end shows),
    its deployment zone and its order of battle: what each unit is, as far as the file
    says before the dice are rolled, and never an id, a name or a place."""
    scenario = load_scenario(name)
    game = Game(scenario, 0)
    told = {s["name"]: s["title"] for s in briefing(scenario)["sides"]}
    for side in scenario.side_names:
        enemy = next(s for s in scenario.side_names if s != side)
        facts = game.state.knowledge[side].facts
        assert (facts.enemy, facts.title) == (enemy, told[enemy])
        spec = scenario.side(enemy)
        assert facts.zone == (None if spec.deployment is None
                              else tuple((float(x), float(y)) for x, y in spec.deployment))
        roster = _roster(scenario, enemy)
        if roster:
            assert len(facts.forces) == len(roster)
            for briefed, (_, _, what) in zip(facts.forces, roster, strict=True):
                if scenario.ruleset == "buildings":
                    assert briefed.strength == what
                else:
                    assert briefed.kind == what
        else:
            enemies = [u for u in game.state.units.values() if u.side == enemy]
            assert sorted(b.kind for b in facts.forces) == sorted(u.kind for u in enemies)
        text = repr(facts)
        for unit, unit_name, _ in roster:
            assert f"'{unit}'" not in text and f"'{unit_name}'" not in text
    assert {f.name for f in fields(PublicFacts)} == {"enemy", "title", "forces", "zone"}
    assert {f.name for f in fields(Briefed)} == {"kind", "strength"}


def test_the_public_facts_are_the_same_wherever_the_enemy_stands() -> None:
    """Nothing of the enemy's set-up is in them: the facts of a game are those of the
    scenario, whatever the dice or the orders."""
    name = _one_scenario_each()[0]
    games = [Game(load_scenario(name), seed) for seed in (0, 1)]
    for side in games[0].scenario.side_names:
        assert games[0].state.knowledge[side].facts == games[1].state.knowledge[side].facts


def test_public_facts_read_the_enemys_entry() -> None:
    scenario = load_scenario(_one_scenario_each()[0])
    a, b = scenario.side_names
    facts = public_facts(scenario, a, [Briefed("x", 3)])
    assert facts.enemy == b and facts.forces == (Briefed("x", 3),)
    assert public_facts(scenario, b, []).enemy == a
