"""Terminal play: readable events and dice, figure tables, and the play loop.

Everything here works from `Game.view(side)` (the keys every rule set fills), the events a
side may see, the scenario file and the battlefield geometry, so any registered rule set can
be played. Typed orders are read in `typed`, the map drawn in `textmap`, the briefing and
status line made in `briefing`, lines read in `prompt` (line editing at a terminal, plain
lines from a pipe).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rich import box
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from fibua.cli.briefing import briefing, status_line
from fibua.cli.prompt import Vocabulary, plain_reader, stdin_is_terminal, terminal_reader
from fibua.cli.textmap import (
    Figure,
    Grid,
    Letters,
    MapNotes,
    figure_style,
    letter_figures,
    render_map,
    section_states,
)
from fibua.core.dice import describe_roll
from fibua.core.errors import FibuaError, IllegalOrder, Refusal
from fibua.core.game import Game, Refusals, attempt, chosen, give_or_end
from fibua.core.orders import Order
from fibua.core.ruleset import Player, Seat, commands, seat_allows
from fibua.session.figures import out_of_action, where
from fibua.session.narration import describe_event, names_for, narrate, short_value
from fibua.session.objectives import game_over_headline, objective_sections, objective_zones
from fibua.session.seats import (
    COMPUTER,
    HUMAN,
    ComputerSeat,
    ComputerSide,
    EndSide,
    Forced,
    PersonSeat,
    SeatPlan,
    SeatRound,
    Stage,
)
from fibua.session.typed import (
    OrderSyntaxError,
    did_you_mean,
    format_order,
    format_value,
    needs_unit,
    order_hints,
    parameter_names,
    parse_order,
    parse_value,
)

__all__ = [
    "Figure", "Grid", "Letters", "OrderSyntaxError", "PlaySession", "describe_event",
    "describe_roll", "format_order", "format_value", "letter_figures", "parse_order",
    "parse_value", "render_map",
]

# -- events and dice --------------------------------------------------------------------------


# -- tables -----------------------------------------------------------------------------------

OWN_KEYS = ("id", "name", "unit", "x", "y", "floor", "section", "status", "alive")
ENEMY_KEYS = ("id", "name", "x", "y", "floor", "section", "seen_turn", "visible_now", "alive")


def _extras(info: Mapping[str, Any], known: Sequence[str]) -> str:
    """The rule set's own keys, briefly: a true flag by its name, unset ones left out."""
    words = []
    for key, value in info.items():
        if key in known or key == "side" or value in (None, False, 0, "", [], {}):
            continue
        words.append(key if value is True else f"{key}={short_value(value)}")
    return " ".join(words)


def _status(info: Mapping[str, Any]) -> Text:
    status = str(info.get("status", ""))
    if out_of_action(info):
        return Text(status if status and status != "ready" else "dead", style="dim")
    return Text(status)


#: widths that keep a compact table on one line a figure within 80 columns
COMPACT_WIDTHS: dict[str, tuple[int, int | None]] = {
    "": (1, 1), "id": (6, 14), "name": (6, 18), "where": (9, 18), "status": (8, 30),
    "seen": (3, 20),
}


def _columns(table: Table, names: Sequence[str], compact: bool) -> None:
    for name in names:
        if compact:
            least, most = COMPACT_WIDTHS[name]
            table.add_column(name, no_wrap=True, overflow="ellipsis", min_width=least,
                             max_width=most)
        else:
            table.add_column(name)


def own_table(figures: Sequence[Figure], compact: bool = False) -> Table:
    """Your figures: all they report (`compact`: one line each, the rule set's extras
    left out)."""
    table = Table(title="Your figures", title_justify="left", expand=False,
                  box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD)
    columns = ("", "id", "name", "where", "status") if compact else \
        ("", "id", "name", "unit", "where", "status", "more")
    _columns(table, columns, compact)
    for figure in figures:
        info = figure.info
        letter = Text(figure.letter, style=figure_style(figure))
        if compact:
            table.add_row(letter, str(info.get("id", "")), str(info.get("name", "")),
                          where(info), _status(info))
            continue
        table.add_row(
            letter,
            str(info.get("id", "")),
            str(info.get("name", "")),
            str(info.get("unit") or ""),
            where(info),
            _status(info),
            _extras(info, OWN_KEYS),
        )
    return table


def enemy_table(figures: Sequence[Figure], compact: bool = False) -> Table:
    table = Table(title="Enemies seen", title_justify="left", expand=False,
                  box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD)
    columns = ("", "id", "name", "where", "seen") if compact else \
        ("", "id", "name", "where", "seen", "more")
    _columns(table, columns, compact)
    for figure in figures:
        info = figure.info
        seen = "now" if figure.now else f"turn {info.get('seen_turn', '?')}"
        if out_of_action(info):
            seen += " (out of action)"
        letter = Text(figure.letter, style=figure_style(figure))
        if compact:
            table.add_row(letter, str(info.get("id", "")), str(info.get("name", "")),
                          where(info), seen)
            continue
        table.add_row(
            letter,
            str(info.get("id", "")),
            str(info.get("name", "")),
            where(info),
            seen,
            _extras(info, ENEMY_KEYS),
        )
    return table


# -- the play loop ----------------------------------------------------------------------------

Outcome = Literal["over", "quit", "eof"]
Step = Literal["again", "done", "quit"]
META_COMMANDS = {
    "? ORDER": "show what an order would cost and its odds, without giving it",
    "orders [UNIT|KIND]": "list orders you may give now (of one unit or kind)",
    "map": "show the map and your figures again",
    "undo": "take back your last order (same phase, no dice rolled, nothing new seen)",
    "details": "show (or hide) each event's raw data under its sentence",
    "status": "where the game stands",
    "brief": "the briefing and objectives again",
    "help [ORDER]": "this list, or one order's parameters",
    "done": "you have finished your orders: the next commander, or the side's end",
    "quit": "leave the game",
}
COMMAND_WORDS = ("orders", "map", "undo", "details", "status", "brief", "help", "done",
                 "quit")
#: orders listed one per line before `orders` summarises by unit and kind instead
SUMMARY_AFTER = 30


def read_stdin_line() -> str | None:
    """One line from standard input, None at its end (works on pipes too)."""
    return plain_reader()("")


@dataclass
class PlaySession:
    """People play `side` at the terminal, one seat after another (the side's commanders
    take turns at the keyboard); the computer plays the other sides (`computers`) and the
    seats of `side` that no person took (`seat_players`)."""

    game: Game
    side: str
    computers: Mapping[str, Player]
    console: Console
    #: where typed lines come from; None: a prompt with line editing and completion at a
    #: terminal, plain lines from a pipe
    read_line: Callable[[], str | None] | None = None
    #: repeat what was read after the prompt, so a piped transcript reads like a session
    echo: bool = False
    max_orders_listed: int = SUMMARY_AFTER
    #: the side's seats in order; empty means one seat with every unit
    seats: Sequence[Seat] = ()
    #: computer players for seats of `side` that no person took, by seat name
    seat_players: Mapping[str, Player] = field(default_factory=dict)
    #: orders of the computers that the rules refused (each gave up its phase)
    refusals: Refusals = field(default_factory=Refusals)
    #: each event's raw data under its sentence (the `details` switch)
    details: bool = False
    _shown: int = field(default=0, init=False)
    _letters: Letters = field(default_factory=Letters, init=False)
    _seat: Seat | None = field(default=None, init=False)
    _prompt: Callable[[str], str | None] | None = field(default=None, init=False)
    _briefed: bool = field(default=False, init=False)
    #: the seat round (whose seat gives orders next; who has finished), made on first use
    _round: SeatRound | None = field(default=None, init=False)
    #: the stage whose map was last drawn: the next seat of the same stage gets its
    #: figures and the news without the map again
    _mapped: Stage | None = field(default=None, init=False)

    def run(self) -> Outcome:
        self.show_briefing()
        while (acting := self.game.to_act()) is not None:
            stop = self._next(acting)
            if stop is not None:
                return stop
        self.show_new_events()
        self.show_result()
        return "over"

    def seat_round(self) -> SeatRound:
        """Every seat of the game: the side's as the person chose them, every other side
        the computer's (and the side's too when the computer plays it: `--watch`)."""
        if self._round is None:
            plans: list[SeatPlan] = []
            for side in self.game.scenario.side_names:
                if side != self.side or side in self.computers:
                    plans.append(SeatPlan(side, side, None, COMPUTER))
                    continue
                for seat in self.seats or [Seat(side, side)]:
                    who = COMPUTER if seat.name in self.seat_players else HUMAN
                    plans.append(SeatPlan(seat.name, side, seat.units, who))
            self._round = SeatRound(self.game, plans)
        return self._round

    def _next(self, side: str) -> Outcome | None:
        """Whatever the seat round says comes next for the acting side."""
        seats = self.seat_round()
        first = len(self.game.orders)
        stop: Outcome | None = None
        match seats.next(side):
            case ComputerSide():
                self._computer_order(side)
            case EndSide():
                self.game.apply(Order(side, "end"))
            case Forced(order=order, quiet=quiet):
                if side == self.side and not quiet and not seats.computer_side(side):
                    self._say_passed()
                self.game.apply(order)
            case ComputerSeat(seat=seat):
                self._computer_seat(seat)
            case PersonSeat(seat=seat):
                stop = self._person(seat)
        seats.ended(self.game.orders[first:])
        return stop

    def _computer_order(self, side: str) -> None:
        give_or_end(self.game, chosen(self.game, side, self.computers[side]), self.refusals)
        if side == self.side:
            self.show_new_events()

    def _say_passed(self) -> None:
        """The side has nothing to order in this stage: say so, and why where every unit
        has the same reason (the rules' refusal the side would get, nothing more)."""
        reasons = {self.game.why_idle(self.side, unit) for unit in self.unit_ids()}
        why = reasons.pop() if len(reasons) == 1 else None
        stage = self.seat_round().stage(self.side)
        when = f"the {stage.phase} phase" if stage.phase else "this turn"
        self.console.print(Text(f"Nothing to order in {when}"
                                + (f": {why}" if why else ": none of your units can act now")
                                + "; it passes on.", style="dim"), highlight=False)

    def _computer_seat(self, seat: SeatPlan) -> None:
        """One order of a computer seat; its `end`, or an order refused, finishes it."""
        order = chosen(self.game, seat.side, self.seat_players[seat.name])
        if order.kind == "end" or attempt(self.game, order, self.refusals) is None:
            self.seat_round().finish(seat)

    def _person(self, plan: SeatPlan) -> Outcome | None:
        """A person gives the seat's orders until they say done, or until the seat no
        longer owes any (the phase passed on, or the enemy answers a move)."""
        seats = self.seat_round()
        self._seat = plan.seat if len(self.seats) > 1 else None
        try:
            if self._seat is not None:
                self.console.print(Rule(Text(f"{plan.name}: your orders (type done when "
                                             f"finished)")))
            self.show_screen(full=False)
            while True:
                line = self._ask()
                if line is None:
                    return "eof"
                step = self.command(line.strip())
                if step == "quit":
                    return "quit"
                if step == "done":
                    seats.finish(plan)
                    return None
                if self.game.to_act() != plan.side or seats.next(plan.side) != PersonSeat(plan):
                    return None
        finally:
            self._seat = None

    # -- input ---------------------------------------------------------------------------

    def _ask(self) -> str | None:
        who = self._seat.name if self._seat is not None else self.side
        prompt = f"{who}> "
        if self.read_line is None and stdin_is_terminal():
            if self._prompt is None:
                self._prompt = terminal_reader(self.vocabulary())
            return self._prompt(prompt)
        self.console.print(prompt, end="", markup=False, highlight=False)
        line = self.read_line() if self.read_line is not None else read_stdin_line()
        if line is None:
            self.console.print()
        elif self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line

    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.game.ruleset.order_syntax, COMMAND_WORDS, self.unit_ids)

    def unit_ids(self) -> list[str]:
        """Ids of the units the person at the keyboard may order (the seat's, if one)."""
        own = self.game.own_view(self.side)
        ids = [str(f["id"]) for f in own if isinstance(f, Mapping) and "id" in f]
        seat = self._seat
        if seat is not None:
            ids = [i for i in ids if commands(seat.units, i)]
        return ids

    def command(self, text: str) -> Step:
        """Carry out one typed line."""
        words = text.split()
        word = words[0].lower() if words else ""
        if not word:
            return "again"
        if word in ("quit", "q", "exit"):
            return "quit"
        if text.startswith("?"):
            self.preview(text[1:].strip())
            return "again"
        simple: dict[str, Callable[[], None]] = {
            "map": self.show_screen,
            "look": self.show_screen,
            "undo": self.undo,
            "details": self.toggle_details,
            "status": self.show_status,
            "brief": self.show_briefing_again,
            "briefing": self.show_briefing_again,
        }
        if word in simple and len(words) == 1:
            simple[word]()
            return "again"
        if word in ("help", "h") and len(words) <= 2:
            self.show_help(words[1] if len(words) == 2 else None)
            return "again"
        if word == "orders" and len(words) <= 2:
            self.show_orders(words[1] if len(words) == 2 else None)
            return "again"
        return self.give(text)

    def give(self, text: str) -> Step:
        word = text.split()[0].lower()
        if self._seat is not None and word in ("done", "end"):
            return "done"  # this seat has finished; the next one takes the keyboard
        if word == "done":
            text = "end"  # one seat has the whole side: its done ends the side's phase
        order = self._read(text)
        if order is None:
            return "again"
        running = self._run_note(order)
        try:
            self._check_seat(order)
            self.game.apply(order)
        except IllegalOrder as error:
            self._refused(order, error)
            return "again"
        except FibuaError as error:  # the rules failed (RulesFault): the game is as it was
            self._warn(str(error))
            return "again"
        if running:
            self._warn(running)
        self.show_new_events()
        self.show_status()
        return "again"  # whether the seat still owes orders is the seat round's to say

    def _read(self, text: str) -> Order | None:
        """The typed order, or None after saying what is wrong with the typing."""
        try:
            order = parse_order(text, self.side)
        except OrderSyntaxError as error:
            self._warn(f"{error} (type help for the syntax)")
            return None
        order = self._by_letter(order)
        syntax = self.game.ruleset.order_syntax
        if syntax and order.kind not in syntax:
            self._warn(" ".join(order_hints(order, syntax, self.unit_ids())) + " (type help)")
            return None
        if order.unit is None and syntax and needs_unit(syntax[order.kind]):
            ids = ", ".join(self.unit_ids()[:8])
            self._warn(f"{order.kind} needs a unit: {syntax[order.kind]} (yours: {ids}...)")
            return None
        return order

    def _by_letter(self, order: Order) -> Order:
        """The order with its unit named by the letter the map and the roster show for it
        (A, B, ...) named by its id instead: a newcomer types what the screen shows. A
        unit whose id is that letter keeps it."""
        unit, ids = order.unit, self.unit_ids()
        if unit is None or len(unit) != 1 or unit in ids:
            return order
        named = [ident for (own, ident), letter in self._letters.given.items()
                 if own and letter == unit and ident in ids]
        return replace(order, unit=named[0]) if named else order

    def _run_note(self, order: Order) -> str | None:
        """What the rule set says when an order becomes another (a move that is a run),
        said as it is given."""
        try:
            forecast = self.game.forecast(order)
        except FibuaError:
            return None
        return f"note: {forecast.text}" if forecast.becomes is not None else None

    def _refused(self, order: Order, error: IllegalOrder) -> None:
        message = f"not allowed: {error.reason}"
        hints = order_hints(order, self.game.ruleset.order_syntax, self.unit_ids())
        if hints:
            message += " (" + "; ".join(hints) + ")"
        self._warn(message)

    def undo(self) -> None:
        """Take back the side's last order (the game says when it cannot); a commander
        takes back only an order of their own units."""
        seat, orders = self._seat, self.game.orders
        # an order naming no unit (the side's end) is no commander's own either
        if seat is not None and seat.units is not None and orders \
                and orders[-1].unit not in seat.units:
            self._warn("cannot take the order back: the last order was another commander's")
            return
        try:
            order = self.game.undo(self.side)
        except IllegalOrder as error:
            self._warn(error.reason)
            return
        self._shown = min(self._shown, len(self.game.log))
        self.console.print(f"Taken back: {format_order(order)}", markup=False, highlight=False)

    def _check_seat(self, order: Order) -> None:
        seat = self._seat
        if seat is not None and not seat_allows(seat, order):
            raise IllegalOrder(f"{order.unit} is not under {seat.name}'s command", order,
                               Refusal.SEAT)

    def preview(self, text: str) -> None:
        if not text:
            self._warn("type ? and an order to see its cost and odds, e.g. ? "
                       + self._example())
            return
        order = self._read(text)
        if order is None:
            return
        try:
            self._check_seat(order)
            report = self.game.preview(order)
        except IllegalOrder as error:
            self._refused(order, error)
            return
        except FibuaError as error:  # the rules failed (RulesFault): the game is as it was
            self._warn(str(error))
            return
        self.console.print(report, markup=False, highlight=False)

    def _example(self) -> str:
        legal = self._legal()
        with_unit = [o for o in legal if o.unit is not None]
        return format_order((with_unit or legal)[0]) if legal else "move UNIT to=X,Y"

    def _warn(self, message: str) -> None:
        self.console.print(Text(message, style="bold yellow"))

    # -- showing -------------------------------------------------------------------------

    def _notes(self) -> MapNotes:
        scenario = self.game.scenario
        zones = tuple((o.zone, o.description) for o in objective_zones(scenario))
        return MapNotes(frozenset(objective_sections(scenario)), zones)

    def show_briefing(self) -> None:
        if self._briefed:
            return
        self._briefed = True
        self.show_briefing_again()

    def show_briefing_again(self) -> None:
        view = self.game.view(self.side)
        self.console.print(Rule("Briefing"))
        self.console.print(briefing(self.game.scenario, self.side, view))

    def status(self) -> str:
        view = self.game.view(self.side)
        seat = self._seat.name if self._seat is not None and len(self.seats) > 1 else None
        return status_line(self.game.scenario, self.side, view, seat)

    def show_status(self) -> None:
        self.console.print(Text(self.status(), style="bold cyan"))

    def show_screen(self, full: bool = True) -> None:
        """The map, the figures and what happened (`full`: every detail of the figures;
        else one line each, the seat's own figures only)."""
        view = self.game.view(self.side)
        own = [f for f in view.get("own", []) if isinstance(f, Mapping)]
        enemies = [f for f in view.get("enemies", []) if isinstance(f, Mapping)]
        figures = letter_figures(own, enemies, self._letters)
        self.console.print(Rule(Text(self.status())))
        key = self.seat_round().stage(self.side)
        if full or key != self._mapped:
            # the game's map: Buildings adds the openings its units made at set-up, holes
            # in walls plain to both sides
            field = getattr(self.game.state, "battlefield", self.game.scenario.battlefield)
            self.console.print(render_map(field, figures,
                                          notes=self._notes(),
                                          states=section_states(view)))
            self._mapped = key
        else:
            self.console.print("(the map is as above; type map to draw it again)")
        mine = [f for f in figures if f.own]
        if not full and self._seat is not None:
            units = self._seat.units
            mine = [f for f in mine if commands(units, str(f.info.get("id")))] or mine
        self.console.print(own_table(mine, compact=not full))
        seen = [f for f in figures if not f.own]
        if seen:
            self.console.print(enemy_table(seen, compact=not full))
        else:
            self.console.print("No enemies seen.")
        self.show_new_events()
        self.show_status()

    def show_new_events(self) -> None:
        log = self.game.log
        fresh = [e for e in log[self._shown :] if e.seen_by(self.side)]
        self._shown = len(log)
        if not fresh:
            return
        self.console.print(Text("What happened:", style="bold"))
        ruleset = self.game.scenario.ruleset
        field = getattr(self.game.state, "battlefield", self.game.scenario.battlefield)
        names = names_for(ruleset, self.game.view(self.side), field)
        for event in fresh:
            head, *rolls = narrate(event, ruleset, names)
            self.console.print(Text("  " + head), highlight=False)
            for line in rolls:
                self.console.print(Text("    " + line), highlight=False)
            if self.details:
                for line in describe_event(event):
                    self.console.print(Text("      " + line, style="dim"), highlight=False)

    def toggle_details(self) -> None:
        self.details = not self.details
        self.console.print("Each event's raw data is " + ("shown under its sentence."
                           if self.details else "hidden (type details to show it)."))

    def show_help(self, topic: str | None = None) -> None:
        syntax = self.game.ruleset.order_syntax
        if topic is not None:
            self._help_on(topic.lower())
            return
        table = Table(title="Orders", title_justify="left", show_header=False)
        table.add_column("order")
        table.add_column("meaning")
        for kind, line in syntax.items():
            table.add_row(Text(kind), Text(line))
        for name, meaning in META_COMMANDS.items():
            table.add_row(Text(name), Text(meaning))
        self.console.print(table)
        self.console.print(
            Text("Values: numbers, words, x,y pairs, lists such as [koch,wolf] or "
                 "[[1,2],[3,4]]. e.g. " + self._example() + "\nOrder kinds, unit ids and "
                 "parameters complete with Tab; a unit may be named by its letter on the "
                 "map (A, B, ...); help ORDER explains one order.")
        )

    def _help_on(self, topic: str) -> None:
        syntax = self.game.ruleset.order_syntax
        if topic not in syntax:
            guess = did_you_mean(topic, syntax)
            hint = f"did you mean {guess}? " if guess else ""
            self._warn(f"no order {topic!r}: {hint}the orders are {', '.join(syntax)}")
            return
        self.console.print(Text(syntax[topic], style="bold"))
        names = parameter_names(syntax[topic])
        if names:
            self.console.print(Text("parameters: " + ", ".join(f"{n}=" for n in names)))
        examples = [o for o in self._legal() if o.kind == topic][:3]
        for order in examples:
            self.console.print(Text("  e.g. " + format_order(order)))

    def _legal(self) -> list[Order]:
        """The legal orders of the units at the keyboard (the seat's, if one)."""
        legal = self.game.legal_orders(self.side) if self.game.to_act() == self.side else []
        return [o for o in legal if seat_allows(self._seat, o)]

    def show_orders(self, which: str | None = None) -> None:
        legal: list[Order] | None = self._legal()
        if which is not None and legal is not None:
            legal = self._orders_of(legal, which)
        if legal is None:
            return
        if not legal:
            self.console.print("No orders are possible now.")
            return
        if which is not None or len(legal) <= self.max_orders_listed:
            for order in legal:
                self.console.print("  " + format_order(order), markup=False, highlight=False)
            return
        self._summarise(legal)

    def _orders_of(self, legal: list[Order], which: str) -> list[Order] | None:
        """The orders of one unit or of one kind; None after saying there is no such."""
        units = {o.unit for o in legal if o.unit is not None}
        kinds = {o.kind for o in legal}
        if which in units:
            return [o for o in legal if o.unit == which]
        if which.lower() in kinds or which.lower() in self.game.ruleset.order_syntax:
            return [o for o in legal if o.kind == which.lower()]
        mine = self.unit_ids()
        if which in mine:
            why = self.game.why_idle(self.side, which)
            self.console.print(f"{which} has no orders to give now"
                               f"{f': {why}' if why else ''}.", markup=False)
            return None
        guess = did_you_mean(which, [*mine, *self.game.ruleset.order_syntax])
        hint = f": did you mean {guess}?" if guess else ""
        self._warn(f"no unit or order {which!r} of yours{hint}")
        return None

    def _summarise(self, legal: list[Order]) -> None:
        """Many orders: by unit, how many of each kind (`orders UNIT` lists them)."""
        by_unit: dict[str | None, Counter[str]] = {}
        for order in legal:
            by_unit.setdefault(order.unit, Counter())[order.kind] += 1
        self.console.print(f"{len(legal)} orders possible; by unit:", markup=False)
        for unit, kinds in by_unit.items():
            counts = ", ".join(f"{kind} x{n}" if n > 1 else kind for kind, n in kinds.items())
            self.console.print(f"  {unit or '(no unit)'}: {counts}", markup=False,
                               highlight=False)
        self.console.print("Type orders UNIT (or orders KIND) to list them.")

    def show_result(self) -> None:
        result = self.game.result()
        if result is None:
            return
        self.console.print(Rule(Text(f"Game over: {game_over_headline(result.winner)}")))
        self.console.print(f"{result.reason}", markup=False)
        for side, score in result.scores.items():
            self.console.print(f"  {side}: {score:g}", markup=False)
        report = self.game.ruleset.after_action(self.game.state)
        if report:
            self.console.print(Rule("After-action report"))
            for line in report:
                self.console.print(line, markup=False, highlight=False)
