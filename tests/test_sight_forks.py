"""Forks of a sight engine: each user of a map (the rules of a game, one side's players)
has its own, which answers as the engine does, shares what is a pure function of the map,
and keeps what it was asked to itself."""

from __future__ import annotations

import numpy as np

from fibua.battlefield.model import (
    Battlefield,
    Building,
    Opening,
    OpeningKind,
    Position,
    Section,
    SectionState,
    Table,
)
from fibua.battlefield.randommap import random_battlefield, random_positions
from fibua.battlefield.sight import STAMP, STATE, SightEngine, per_map, per_query

HOUSE = Section("h", ((10, 10), (20, 10), (20, 20), (10, 20)), floors=2,
                openings=(Opening(OpeningKind.DOOR, wall=1, floor=0, at=5, width=2),))
FIELD = Battlefield(table=Table(30, 30), buildings=(Building("B", "House", (HOUSE,)),))
OUTSIDE, INSIDE = Position(15, 2), Position(15, 15, "h")


def test_a_fork_answers_as_the_engine_does() -> None:
    field = random_battlefield(3, n_buildings=40, size=80.0)
    engine = SightEngine(field)
    fork = engine.fork().fork()
    a, b = random_positions(1, field, 60), random_positions(2, field, 60)
    assert np.array_equal(fork.visible_matrix(a, b), engine.visible_matrix(a, b))
    assert [fork.visible(p, q) for p, q in zip(a, b, strict=True)] == \
        [engine.visible(p, q) for p, q in zip(a, b, strict=True)]
    assert [fork.move_blocked(p, q) for p, q in zip(a, b, strict=True)] == \
        [engine.move_blocked(p, q) for p, q in zip(a, b, strict=True)]
    assert [fork.move_check(p, q) for p, q in zip(a, b, strict=True)] == \
        [engine.move_check(p, q) for p, q in zip(a, b, strict=True)]


def test_a_fork_shares_the_map_and_keeps_its_scratch_and_memo() -> None:
    """Only the section states and the scratch array are new: every other kernel table
    is the engine's own array, so a fork costs no building."""
    engine = SightEngine(FIELD)
    fork = engine.fork()
    mine, theirs = fork.kernel_tables, engine.kernel_tables
    assert [k for k in range(len(mine)) if mine[k] is not theirs[k]] == [STATE, STAMP]
    assert fork.shared is engine.shared
    fork.visible(OUTSIDE, INSIDE)
    fork.move_blocked(OUTSIDE, INSIDE)
    assert not theirs[STAMP].any()  # nothing the fork asked marks the engine's scratch


def test_answers_about_places_stay_with_the_fork_that_asked() -> None:
    asked: list[str] = []

    @per_query()
    def blocked(sight: SightEngine, a: Position, b: Position) -> bool:
        asked.append("blocked")
        return sight.move_blocked(a, b)

    @per_map()
    def sections(sight: SightEngine) -> tuple[str, ...]:
        asked.append("sections")
        return sight.section_ids

    engine = SightEngine(FIELD)
    one, two = engine.fork(), engine.fork()
    assert blocked(one, OUTSIDE, INSIDE) and blocked(one, OUTSIDE, INSIDE)
    assert not engine.memo and not two.memo and one.memo
    assert blocked(two, OUTSIDE, INSIDE)  # worked out again: `one` kept its answer
    assert sections(one) == sections(two) == sections(engine) == ("h",)
    assert asked == ["blocked", "blocked", "sections"]  # whole-map: worked out once


def test_a_fork_s_section_states_are_its_own() -> None:
    """A building that falls in one game stands in the others; whole-map answers are kept
    per set of section states, so each fork reads those of the map as it stands for it."""
    calls: list[SectionState] = []

    @per_map()
    def state_of_h(sight: SightEngine) -> SectionState:
        calls.append(sight.section_state("h"))
        return sight.section_state("h")

    engine = SightEngine(FIELD)
    fallen, standing = engine.fork(), engine.fork()
    fallen.set_section_state("h", SectionState.RUBBLE)
    assert not fallen.move_blocked(OUTSIDE, INSIDE)
    assert standing.move_blocked(OUTSIDE, INSIDE) and engine.move_blocked(OUTSIDE, INSIDE)
    assert standing.section_state("h") is SectionState.INTACT
    assert state_of_h(fallen) is SectionState.RUBBLE
    assert state_of_h(standing) is SectionState.INTACT
    assert state_of_h(fallen.fork()) is SectionState.RUBBLE  # a fork of it: the same states
    fallen.set_section_state("h", SectionState.INTACT)  # standing again: the first store
    assert fallen.shared is standing.shared
    assert state_of_h(fallen) is SectionState.INTACT
    assert calls == [SectionState.RUBBLE, SectionState.INTACT]


def test_the_umpire_s_forks_pool_their_answers_and_no_other_fork_holds_them() -> None:
    """The rules of every game of a map are one umpire: their forks share what they asked
    (per set of section states); a player's fork, even one made from an umpire's, starts
    with nothing and has no way to the umpire's memo."""
    engine = SightEngine(FIELD)
    game_one, game_two = engine.fork(umpire=True), engine.fork(umpire=True)
    player = game_one.fork()
    assert game_one.memo is game_two.memo and player.memo is not game_one.memo
    assert not any(value is game_one.memo for value in vars(player).values())
    assert not any(game_one.memo is memo for memo in player._umpire_memos.values())
    game_two.set_section_state("h", SectionState.RUBBLE)  # a store of its own for those
    assert game_two.memo is not game_one.memo
    assert engine.fork(umpire=True).memo is game_one.memo
