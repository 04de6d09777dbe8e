"""Terminal play as a person meets it: typed orders (lists, case, mistakes), the briefing
and status line, the text map and SVG, event lines, and the commands of the play loop."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from rich.console import Console

from fibua.battlefield.svg import render_svg
from fibua.cli.briefing import briefing, status_line
from fibua.cli.games import computer_players
from fibua.cli.prompt import OrderCompleter, Vocabulary
from fibua.cli.terminal import PlaySession, describe_event, own_table
from fibua.cli.textmap import MapNotes, letter_figures, render_map
from fibua.core.events import Event
from fibua.core.game import Game
from fibua.core.orders import Order
from fibua.scenario.loader import bundled_scenarios, load_scenario
from fibua.session.objectives import game_over_headline, objective_marks, objectives
from fibua.session.typed import (
    OrderSyntaxError,
    format_order,
    needs_unit,
    order_hints,
    parameter_names,
    parse_order,
)

# -- typed orders ------------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "params"), [
    ("shoot jones targets=[koch,wolf]", {"targets": ["koch", "wolf"]}),
    ('shoot jones targets=["koch","wolf"]', {"targets": ["koch", "wolf"]}),
    ("assault pl7-s1 section=mairie with=[pl7-s2]", {"section": "mairie", "with": ["pl7-s2"]}),
    ("move jones to=12.5,20", {"to": [12.5, 20]}),
    ("move jones path=[[1,2],[3.5,4]]", {"path": [[1, 2], [3.5, 4]]}),
    ("shoot jones targets=[koch, 3, \"a b\"]", {"targets": ["koch", 3, "a b"]}),
    ("shoot jones targets=[]", {"targets": []}),
])
def test_lists_as_help_writes_them(typed: str, params: dict[str, object]) -> None:
    assert parse_order(typed, "red").params == params


def test_order_kinds_in_any_case_and_bad_lists() -> None:
    assert parse_order("MOVE jones to=1,2", "red").kind == "move"
    assert parse_order("Take-Cover jones", "red").kind == "take-cover"
    for bad in ("shoot a targets=[koch", "shoot a targets=[koch,,wolf]", "shoot a t=[a]]"):
        with pytest.raises(OrderSyntaxError):
            parse_order(bad, "red")


def test_format_writes_lists_as_help_shows_them() -> None:
    order = Order("red", "shoot", "jones", {"targets": ["koch", "wolf"], "with": ["pl7-s2"]})
    assert format_order(order) == "shoot jones targets=[koch,wolf] with=[pl7-s2]"
    # words that would read back as something else keep their quotes
    tricky = Order("red", "shoot", "jones", {"targets": ["true", "3", "a b", "Infinity"]})
    assert parse_order(format_order(tricky), "red") == tricky


WORDS = st.text(alphabet="abcxyz-019", min_size=1, max_size=6)
KINDS = st.text(alphabet="abcxyz-", min_size=1, max_size=6)
SCALARS = (
    st.integers(-99, 99)
    | st.floats(-100, 100, allow_nan=False)
    | st.booleans()
    | st.text(max_size=8)
    | st.from_regex(r"[a-z][a-z0-9-]{0,6}", fullmatch=True)
)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3), max_leaves=6
)


@given(kind=KINDS, unit=st.none() | WORDS, params=st.dictionaries(WORDS, VALUES, max_size=3))
def test_typed_orders_read_back(kind: str, unit: str | None, params: dict[str, object]) -> None:
    order = Order("red", kind, unit, params)
    assert parse_order(format_order(order), "red") == order


def test_what_orders_take() -> None:
    syntax = "move FIGURE to=X,Y [floor=N] | path=[[X,Y],...]: up to 5in"
    assert parameter_names(syntax) == ["to", "floor", "path"]
    assert needs_unit(syntax) and needs_unit("aim FIGURE: +10%") and not needs_unit("end: x")


def test_did_you_mean() -> None:
    syntax = {"move": "move UNIT to=X,Y", "shoot": "shoot UNIT target=ID"}
    units = ["kelly", "dunn"]
    (kind,) = order_hints(Order("red", "mvoe", "kelly"), syntax, units)
    assert "did you mean move?" in kind
    unit, param = order_hints(Order("red", "move", "kely", {"tto": [1, 2]}), syntax, units)
    assert "did you mean kelly?" in unit and "did you mean to=?" in param
    assert order_hints(Order("red", "move", "kelly", {"to": [1, 2]}), syntax, units) == []


# -- events, results, figures --------------------------------------------------------------------


def test_event_lines_round_numbers_and_leave_unset_values_out() -> None:
    event = Event("moved", {"figure": "dunn", "moved": 4.924428900898052, "section": None,
                            "to": [5.123456, 9.0], "climbed": [], "floor": 0}, ("red",), 1)
    (line,) = describe_event(event)
    assert "moved=4.92 " in line and "to=[5.12,9.0]" in line and "section" not in line
    assert "climbed" not in line and "floor=0" in line  # an empty list is unset, 0 is not


def test_who_won_reads_as_english() -> None:
    assert game_over_headline("germans") == "the germans win"
    assert game_over_headline("red") == "red wins"
    assert game_over_headline(None) == "a draw"


def test_dead_figures_are_left_off_the_map_but_kept_in_the_table() -> None:
    battlefield = load_scenario("corner-shop").battlefield
    own = [{"id": "dunn", "x": 4.0, "y": 2.0, "status": "ready"},
           {"id": "kelly", "x": 30.0, "y": 2.0, "alive": False, "status": "casualty"}]
    figures = letter_figures(own, [{"id": "koch", "x": 10.0, "y": 30.0, "alive": False}])
    text = render_map(battlefield, figures).plain
    assert "A" in text.split("\n", 2)[2] and "B" not in "".join(
        line[5:-1] for line in text.splitlines()[2:30])
    out = Console(record=True, width=80)
    out.print(own_table([f for f in figures if f.own]))
    table = out.export_text()
    assert "kelly" in table and "casualty" in table


# -- maps --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_map_fits_80_columns_with_names_and_a_ruler(name: str) -> None:
    scenario = load_scenario(name)
    sections = frozenset(s for o in objectives(scenario) for s in o.sections)
    zones = tuple((o.zone, o.description) for o in objectives(scenario) if o.zone)
    text = render_map(scenario.battlefield, [], notes=MapNotes(sections, zones)).plain
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0].split()[0] == "0" and "┬" in lines[1]  # the x ruler
    assert any(line.strip().startswith("0 ┤") for line in lines)  # the y ruler
    for building in scenario.battlefield.buildings:
        assert building.name in text  # on the map, or keyed in the legend
    if sections:
        assert "* objective" in text
    if zones:
        assert "objective zone" in text


def test_the_svg_names_buildings_and_marks_objectives() -> None:
    scenario = load_scenario("corner-shop")
    svg = render_svg(scenario.battlefield, objectives=objective_marks(scenario))
    assert "Epicerie Lemoine (the corner shop)" in svg and "Garage Renault" in svg
    assert 'class="objective section"' in svg and "british hold (3); germans hold" in svg
    zone = load_scenario("anti-tank-screen")
    assert 'class="objective zone"' in render_svg(zone.battlefield,
                                                  objectives=objective_marks(zone))


# -- briefing and status -------------------------------------------------------------------------


def test_briefing_names_every_side_s_objectives() -> None:
    scenario = load_scenario("corner-shop")
    game = Game(scenario, 1)
    out = Console(record=True, width=80)
    out.print(briefing(scenario, "british", game.view("british")))
    text = " ".join(out.export_text().split())
    assert "The Corner Shop" in text and "You play british" in text
    mine, theirs = text.index("Your objectives"), text.index("Objectives of germans")
    assert mine < text.index("The corner shop is cleared and in British hands.") < theirs
    assert "(3 points)" in text


def test_street_fighter_briefing_lists_the_units_to_destroy() -> None:
    scenario = load_scenario("anti-tank-screen")
    game = Game(scenario, 1)
    out = Console(record=True, width=80)
    out.print(briefing(scenario, "british", game.view("british")))
    assert "An anti-tank gun is knocked out" in out.export_text()


@pytest.mark.parametrize(("name", "words"), [
    ("corner-shop", ["turn 1 of 13", "move phase"]),
    ("normandy-village", ["turn 1 of 12", "orders phase", "you hold no objective"]),
    ("ramp-houses", ["turn 1 of 12", "move phase, step 1"]),
])
def test_status_line(name: str, words: list[str]) -> None:
    scenario = load_scenario(name)
    game = Game(scenario, 1)
    side = scenario.side_names[0]
    line = status_line(scenario, side, game.view(side))
    assert all(word in line for word in words), line
    assert len(line) <= 80


def test_status_line_once_over() -> None:
    scenario = load_scenario("corner-shop")
    view = {**Game(scenario, 1).view("british"), "turn": 10, "turns": 10, "phase": "end",
            "to_act": None,
            "result": {"winner": "germans", "scores": {"british": 1.0, "germans": 3.0}}}
    line = status_line(scenario, "british", view)
    assert "the germans win" in line and "germans 3" in line


# -- the play loop -----------------------------------------------------------------------------


def corner_shop(lines: list[str], width: int = 80) -> tuple[PlaySession, Console]:
    scenario = load_scenario("corner-shop")
    game = Game(scenario, 1)
    feed: Iterator[str] = iter(lines)
    out = Console(record=True, width=width)
    play = PlaySession(game, "british", computer_players(scenario, 1, ("british",)), out,
                       read_line=lambda: next(feed, None), echo=True)
    return play, out


def test_mistakes_get_clear_messages() -> None:
    play, out = corner_shop(["", "aim", "hello there", "mvoe dunn to=5,5", "move kely to=8,6",
                             "move dunn tto=5,5", "?", "help mvoe"])
    assert play.run() == "eof"
    text = " ".join(out.export_text().split())
    assert "None" not in text
    assert "aim needs a unit" in text
    assert "there is no order 'hello'" in text
    assert "did you mean move?" in text and "did you mean kelly?" in text
    assert "did you mean to=?" in text
    assert "type ? and an order" in text
    assert "no order 'mvoe': did you mean move?" in text


def test_done_at_a_lone_seat_ends_the_phase_as_the_browser_done_does() -> None:
    play, out = corner_shop(["done"])
    play.run()
    after = out.export_text().split("british> done", 1)[1]
    assert "not allowed" not in after
    assert "turn 1 of 13 | shoot phase" in after  # the move phase is over


def test_a_run_is_announced_and_each_order_shows_a_short_status() -> None:
    play, out = corner_shop(["move dunn to=5,9", "move kelly to=7,4"])
    play.run()
    text = out.export_text()
    after_first = text.split("british> move dunn to=5,9", 1)[1]
    assert "running" in after_first.split("british>")[0]
    assert "Lance Corporal Dunn runs 7.07 in" in after_first
    assert "turn 1 of 13 | move phase | your orders" in after_first
    assert "┌" not in after_first  # no map redrawn after an order
    second = after_first.split("british> move kelly to=7,4", 1)[1]
    assert "note:" not in second
    # what follows an order fits an 80x24 screen
    assert all(len(line) <= 80 for line in text.splitlines())
    assert len(second.strip().splitlines()) < 24


def test_orders_are_summarised_by_unit_and_listed_for_one() -> None:
    play, out = corner_shop(["orders", "orders kelly", "orders overwatch", "orders kely",
                             "help move", "brief", "status"])
    play.run()
    text = out.export_text()
    summary = text.split("british> orders\n", 1)[1].split("british>")[0]
    assert "orders possible; by unit:" in summary and "kelly: move x" in summary
    one = text.split("british> orders kelly\n", 1)[1].split("british>")[0]
    assert one.strip() and all(line.split()[1] == "kelly" for line in one.strip().splitlines())
    kind = text.split("british> orders overwatch\n", 1)[1].split("british>")[0]
    assert all(line.split()[0] == "overwatch" for line in kind.strip().splitlines())
    assert "did you mean kelly?" in text
    help_move = text.split("british> help move\n", 1)[1].split("british>")[0]
    assert "parameters: to=, floor=, path=" in help_move and "e.g. move " in help_move
    assert text.count("Your objectives") == 2  # at the start and on `brief`


def test_help_shows_the_syntax_unmangled() -> None:
    play, out = corner_shop(["help"])
    play.run()
    assert "[floor=N]" in out.export_text()  # brackets are not taken as markup


def test_completion_of_kinds_units_and_parameters() -> None:
    vocabulary = Vocabulary({"move": "move UNIT to=X,Y [floor=N]", "aim": "aim UNIT"},
                            ("orders", "map"), lambda: ["dunn", "kelly"])
    completer = OrderCompleter(vocabulary)

    def complete(text: str) -> list[str]:
        found = completer.get_completions(Document(text), CompleteEvent())
        return [c.text for c in found]

    assert complete("mo") == ["move"]
    assert complete("") == ["move", "aim", "orders", "map"]
    assert complete("move k") == ["kelly"]
    assert complete("move dunn ") == ["to=", "floor="]
    assert complete("move dunn to=1,2 f") == ["floor="]
    assert complete("? move d") == ["dunn"]
    assert complete("orders ") == ["dunn", "kelly"]


def test_a_long_status_line_is_said_more_briefly() -> None:
    scenario = load_scenario("factory-district")
    view = Game(scenario, 1).view("soviets")
    line = status_line(scenario, "soviets", view, "Senior Lieutenant Orlov")
    assert line == "turn 1 of 15 | orders | Senior Lieutenant Orlov | none held"


def test_a_unit_with_no_order_now_is_told_why() -> None:
    """`orders UNIT` of a figure whose step has not come says so, in the rules' words,
    and of one that has already acted, that (not the phase, true of every figure)."""
    scenario = load_scenario("ramp-houses")
    game = Game(scenario, 3)
    out = Console(record=True, width=100)
    feed = iter(["orders grayburn", "move doxey to=29.76,15.24", "orders doxey"])
    play = PlaySession(game, "british", computer_players(scenario, 3, ("british",)), out,
                       read_line=lambda: next(feed, None), echo=True)
    assert play.run() == "eof"
    text = " ".join(out.export_text().split())
    assert ("grayburn has no orders to give now: Lt. Grayburn moves in step 4; this is "
            "step 1.") in text
    assert "doxey has no orders to give now: Pte. Doxey has already moved this turn." in text


def test_a_unit_may_be_named_by_the_letter_the_map_shows() -> None:
    # the roster and the map show each of the side's figures with a letter (A, B, ...): a
    # newcomer types it, and the order goes to that figure as if named by its id
    play, out = corner_shop(["move A to=5,9"])
    play.run()
    text = out.export_text()
    lettered = next(ident for (own, ident), letter in play._letters.given.items()
                    if own and letter == "A")
    after = text.split("british> move A to=5,9", 1)[1]
    assert "not allowed" not in after and "no unit" not in after
    assert play.game.orders[-1].unit == lettered
    # a letter no figure of the side has is refused as an unknown unit
    play, out = corner_shop(["move Q to=5,9"])
    play.run()
    refused = " ".join(out.export_text().split()).split("british> move Q to=5,9", 1)[1]
    assert "not allowed" in refused and "'Q'" in refused
