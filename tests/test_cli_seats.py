"""Several commanders on one side take turns at the keyboard; seats no person took are
played by the computer, limited to their own units."""

from __future__ import annotations

from collections.abc import Iterator

from rich.console import Console

from fibua.cli.games import computer_players
from fibua.cli.terminal import PlaySession
from fibua.core.game import Game
from fibua.core.ruleset import Seat
from fibua.scenario.loader import load_scenario
from first_written import first_written

BREN = frozenset({"dunn", "ashworth", "kelly"})
RIFLES = frozenset({"hollis", "morgan", "whitcombe", "barnes", "fenwick"})


def session(lines: list[str], people: set[str]) -> tuple[PlaySession, Console]:
    scenario = load_scenario("corner-shop")
    game = Game(scenario, 3)
    while game.to_act() != "british":  # let the Germans move first if they won initiative
        player = computer_players(scenario, 3, ("british",))["germans"]
        game.apply(player.choose(game.observe("germans"), game.legal_orders("germans")))
    seats = [Seat("bren", "british", BREN), Seat("rifles", "british", RIFLES)]
    feed: Iterator[str] = iter(lines)
    out = Console(record=True, width=100)
    play = PlaySession(
        game, "british", computer_players(scenario, 3, ("british",)), out,
        read_line=lambda: next(feed, None), echo=True, seats=seats,
        seat_players={s.name: game.ruleset.computer("british", 9, s.units)
                      for s in seats if s.name not in people},
    )
    return play, out


def test_each_seat_orders_only_its_own_units_then_the_computer_seat_plays() -> None:
    play, out = session(["move hollis to=16,4", "move dunn to=4,4", "done"], {"bren"})
    assert play.run() == "eof"
    text = out.export_text()
    assert "hollis is not under bren's command" in text
    orders = play.game.orders
    mine = [o for o in orders if o.side == "british" and o.kind != "end"]
    assert mine[0].unit == "dunn"
    assert {o.unit for o in mine[1:]} <= RIFLES  # the computer seat moved only its own
    assert any(o.side == "british" and o.kind == "end" for o in orders)


def test_two_people_pass_the_keyboard() -> None:
    play, out = session(["move dunn to=4,4", "done", "move hollis to=16,4", "done"],
                        {"bren", "rifles"})
    play.run()
    text = out.export_text()
    assert "bren> " in text and "rifles> " in text
    british = [o.unit for o in play.game.orders if o.side == "british" and o.unit]
    assert british[:2] == ["dunn", "hollis"]


def test_a_seat_previews_and_lists_only_its_own_units() -> None:
    play, out = session(["? move hollis to=16,4", "? move dunn to=4,4", "orders",
                         "orders dunn", "orders hollis"], {"bren"})
    play.max_orders_listed = 1000  # one line per order
    play.run()
    text = out.export_text()
    refused = text.split("bren> ? move hollis to=16,4\n", 1)[1].split("bren>")[0]
    assert "not allowed: hollis is not under bren's command" in refused
    allowed = text.split("bren> ? move dunn to=4,4\n", 1)[1].split("bren>")[0]
    assert "not allowed" not in allowed and "moves" in allowed
    listing = text.split("bren> orders\n", 1)[1].split("bren>")[0]
    units = {line.split()[1] for line in listing.strip().splitlines()
             if len(line.split()) > 1 and not line.startswith("  end")}
    assert units and units <= BREN
    one = text.split("bren> orders dunn\n", 1)[1].split("bren>")[0]
    assert one.strip() and all(line.split()[1] == "dunn" for line in one.strip().splitlines())
    other = text.split("bren> orders hollis\n", 1)[1].split("bren>")[0]
    assert "no unit or order 'hollis' of yours" in other


def test_many_orders_are_summarised_not_cut() -> None:
    play, out = session(["orders"], {"bren", "rifles"})
    play.max_orders_listed = 5
    play.run()
    listing = out.export_text().split("bren> orders\n", 1)[1].split("bren>")[0]
    assert "orders possible; by unit:" in listing
    assert {"dunn:", "ashworth:", "kelly:"} <= set(listing.split())
    assert "hollis" not in listing


def test_the_keyboard_comes_back_to_the_seat_the_enemy_interrupted() -> None:
    scenario = first_written("ramp-houses")  # three British groups, the corporal's too
    # a seed where Milne and Ryder, of the third seat, both move in step 1, and the
    # Germans may fire at Milne as he moves
    game = Game(scenario, 13)
    seats = [Seat(p.name, "british", frozenset(f.id for f in p.figures))
             for p in scenario.forces_of("british").players]
    feed: Iterator[str] = iter(["done", "done", "move milne to=35,2", "done"])
    out = Console(record=True, width=100)
    play = PlaySession(game, "british", computer_players(scenario, 13, ("british",)), out,
                       read_line=lambda: next(feed, None), echo=True, seats=seats)
    play.run()
    text = out.export_text()
    after = text.split("Corporal's group> move milne to=35,2\n", 1)[1]
    assert "germans to act" in after.split("group> ")[0]  # the enemy may fire at the mover
    assert after.split("group> ")[0].rstrip().endswith("Corporal's")  # its prompt again
    assert "step 2" in after.split("Corporal's group> done")[1]
    # the second seat of a step is not shown the same map again
    assert text.count("┌") == 2  # step 1 and step 2 only


def test_a_seat_with_nothing_to_do_is_not_asked() -> None:
    """Ryder is the third seat's only figure to move in step 1 (seed 9): once he has
    moved, the step passes on without asking anyone again, as in the browser."""
    scenario = first_written("ramp-houses")  # three British groups, the corporal's too
    game = Game(scenario, 9)
    seats = [Seat(p.name, "british", frozenset(f.id for f in p.figures))
             for p in scenario.forces_of("british").players]
    feed: Iterator[str] = iter(["done", "done", "move ryder to=32.5,5.5"])
    out = Console(record=True, width=100)
    play = PlaySession(game, "british", computer_players(scenario, 9, ("british",)), out,
                       read_line=lambda: next(feed, None), echo=True, seats=seats)
    play.run()
    after = out.export_text().split("Corporal's group> move ryder to=32.5,5.5\n", 1)[1]
    assert "step 2" in after.split("group> ")[0]
