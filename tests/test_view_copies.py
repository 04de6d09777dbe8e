"""The copies a side's views hand out (core.views.RecordCopies), kept from view to view: a
copy kept is exactly the copy that would be made now, and a record that changed in any
field, even to an equal value of another sign or in a list changed in place, is copied
again. And the views of a played game are the same as views made afresh."""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from fibua.core.dice import derive_seed
from fibua.core.game import Game, LegalOrders
from fibua.core.views import RecordCopies
from fibua.scenario.loader import bundled_scenarios, load_scenario


@dataclass(slots=True)
class Record:
    name: str
    x: float
    tags: list[str] = field(default_factory=list)


def _copy(r: Record) -> Record:
    return replace(r, tags=list(r.tags))


def _same_tags(copy: Record, record: Record) -> bool:
    return copy.tags == record.tags


def test_copies_are_kept_until_a_field_changes() -> None:
    a, b = Record("a", 1.0), Record("b", 0.0)
    copies = RecordCopies(Record, _copy, _same_tags)
    first = copies.copies([("a", a), ("b", b)])
    assert first == (a, b) and first[0] is not a and first[1] is not b
    assert copies.copies([("a", a), ("b", b)]) is first  # nothing changed: the same tuple
    a.x = 2.0
    second = copies.copies([("a", a), ("b", b)])
    assert second[0] == a and second[0] is not first[0] and second[1] is first[1]
    b.x = -0.0  # equal to 0.0, but not the same number
    third = copies.copies([("a", a), ("b", b)])
    assert third[1] is not second[1] and str(third[1].x) == "-0.0"
    a.tags.append("moved")  # changed in place: identity cannot see it, `also` does
    fourth = copies.copies([("a", a), ("b", b)])
    assert fourth[0].tags == ["moved"] and fourth[0].tags is not a.tags
    assert copies.copies([("b", b)]) == (b,)  # fewer records: a new tuple


def test_copies_watching_some_fields_see_them_and_a_record_replaced() -> None:
    a = Record("a", 1.0)
    copies = RecordCopies(Record, _copy, watch=("x", "tags"))
    first = copies.copies([("a", a)])
    a.x = -0.0
    second = copies.copies([("a", a)])
    assert second[0] is not first[0] and str(second[0].x) == "-0.0"
    renamed = Record("b", a.x, a.tags)  # the same watched values, in a new record
    third = copies.copies([("a", renamed)])
    assert third[0] is not second[0] and third[0].name == "b"
    assert copies.copies([("a", renamed)]) is third
    for watch in (("x",), ("x", "x"), ("x", "size")):
        with pytest.raises(TypeError):
            RecordCopies(Record, watch=watch)


def _unwatched(record: object, watch: tuple[str, ...]) -> tuple[object, ...]:
    return tuple(getattr(record, f.name) for f in dataclasses.fields(record)  # type: ignore[arg-type]
                 if f.name not in watch)


@pytest.mark.parametrize("name", sorted(n for n in bundled_scenarios()
                                        if load_scenario(n).scenario.ruleset
                                        == "house-clearing"))
def test_house_clearing_sets_no_field_its_views_do_not_watch(name: str) -> None:
    """The fields a House Clearing view's copies are not checked by stay the very objects
    they were, on every figure, while a game is played (sightings are immutable: views
    share them)."""
    from fibua.rulesets.house_clearing.views import FIGURE_CHANGES

    game = Game(load_scenario(name), 3)
    state: Any = game.state
    rules = game.ruleset
    players = {s: rules.computer(s, derive_seed(3, "computer", s))
               for s in game.scenario.side_names}
    figures = {f.id: (f, _unwatched(f, FIGURE_CHANGES)) for f in state.figures.values()}
    moves = 0
    for _ in range(300):
        side = game.to_act()
        if side is None:
            break
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
        for f, before in figures.values():
            assert all(map(operator.is_, _unwatched(f, FIGURE_CHANGES), before)), f.id
        moves += 1
    assert moves > 5


def test_copies_need_fields_set_by_init() -> None:
    @dataclass
    class Derived:
        a: int
        b: int = field(init=False, default=0)

    with pytest.raises(TypeError):
        RecordCopies(Derived)


def _content(view: object) -> dict[str, object]:
    return {f.name: getattr(view, f.name) for f in dataclasses.fields(view)  # type: ignore[arg-type]
            if f.name not in {"sight", "geometry", "goal", "options"}}


@pytest.mark.parametrize("name", sorted(n for n in bundled_scenarios()
                                        if load_scenario(n).scenario.ruleset
                                        in {"house-clearing", "street-fighter"}))
def test_views_kept_from_order_to_order_equal_views_made_afresh(name: str) -> None:
    game = Game(load_scenario(name), 2)
    rules = game.ruleset
    players = {s: rules.computer(s, derive_seed(2, "computer", s))
               for s in game.scenario.side_names}
    for _ in range(80):
        side = game.to_act()
        if side is None:
            break
        for s in game.scenario.side_names:
            kept = game.observe(s)
            game.state.view_copies.clear()  # type: ignore[attr-defined]
            fresh = game.observe(s)
            assert _content(kept) == _content(fresh)
            assert all(a is not b for a, b in zip(kept.own, fresh.own, strict=True))
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))


def test_same_objects_asks_for_the_very_objects_in_order() -> None:
    from fibua.core.views import same_objects

    a, b = [1.5], [1.5]  # equal, not the same
    assert same_objects((a, b), [a, b])
    assert not same_objects((a, b), (a, [1.5]))
    assert not same_objects((a, b), (b, a))
    assert not same_objects((a,), (a, b)) and not same_objects((a, b), (a,))
    assert same_objects((), [])
