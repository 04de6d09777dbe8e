"""The street-fight rule set's events in plain words (see fibua.session.narration)."""

from __future__ import annotations

from fibua.session.narration import (
    Data,
    Names,
    Phrase,
    Phrasebook,
    join,
    number,
    plural,
    register_phrasebook,
    side_adjective,
    side_noun,
    words,
)


def _at(point: object) -> str:
    if isinstance(point, list | tuple) and len(point) == 2:
        return f"({number(point[0])}, {number(point[1])})"
    return "?"


def _place(data: Data, names: Names) -> str:
    """`in Maison Duval, floor 1` / `in the open`."""
    section, floor = data.get("section"), data.get("floor")
    where = f"in {names.place(section)}" if section else "in the open"
    if isinstance(floor, int) and floor > 0:
        where += f", floor {floor}"
    return where


def moved(d: Data, n: Names) -> str:
    how = "runs" if d.get("running") else "moves"
    return (f"{n.of(d.get('figure'))} {how} {n.length(d.get('inches'))} to "
            f"{_at(d.get('to'))}, {_place(d, n)}")


def shot(d: Data, n: Names) -> str:
    firer, target = n.of(d.get("firer")), n.of(d.get("target"))
    watch = " from overwatch" if d.get("overwatch") not in (None, "none") else ""
    outcome = "a miss" if not d.get("hit") else (
        f"a hit: {target} is down" if d.get("killed") else f"a hit, but {target} is not hurt")
    return f"{firer} fires{watch} at {target} ({n.length(d.get('range'))}): {outcome}"


def close_combat(d: Data, n: Names) -> str:
    figures = d.get("figures") or []
    winner, wounded = d.get("winner"), d.get("wounded")
    text = f"Close combat between {n.all(figures)}"
    if winner is None:
        return text + ": neither gets the better of it"
    text += f": {n.of(winner)} wins"
    return text + (f" and {n.of(wounded)} is down" if wounded else ", but nobody falls")


def deployed(d: Data, n: Names) -> str:
    figures = d.get("figures") or []
    named = [str(f.get("name", f.get("id"))) for f in figures if isinstance(f, dict)]
    return f"The {side_noun(d.get('side', 'side'))} deploy: {join(named)}"


def initiative(d: Data, n: Names) -> str:
    return f"Initiative is rolled by {join(sorted(side_noun(k) for k in d))}"


def initiative_order(d: Data, n: Names) -> str:
    order = [side_noun(s) for s in d.get("order") or []]
    return f"The {order[0]} go first this turn, then the {join(order[1:])}" if order \
        else "The order of play is settled"


def phase(d: Data, n: Names) -> str:
    return f"{words(d.get('phase', ''))} phase: the {side_noun(d.get('side'))} give their orders"


def phase_passed(d: Data, n: Names) -> str:
    """`No German figure can shoot now: the shoot phase passes.`"""
    figure = side_adjective(d.get("side"))
    doing = "move" if d.get("phase") == "move" else "shoot"
    return f"No {figure} figure can {doing} now: the {words(d.get('phase', ''))} phase passes"


def game_over(d: Data, n: Names) -> str:
    scores = d.get("scores") or {}
    points = join([f"the {side_noun(s)} {number(v)}" for s, v in scores.items()])
    winner = d.get("winner")
    head = f"Game over: the {side_noun(winner)} win" if winner else "Game over: a draw"
    return f"{head} ({d.get('reason', '')}); points: {points}" if points else head


def overwatch(d: Data, n: Names) -> str:
    area = "an area" if d.get("large") else "a point"
    return (f"{n.of(d.get('figure'))} goes on overwatch over {area} at {_at(d.get('point'))}, "
            f"{n.length(d.get('radius'))} across")


def morale(d: Data, n: Names) -> str:
    unit = words(d.get("unit", ""))
    return f"Morale test for {unit}: {'they hold' if d.get('holds') else 'they break'}"


def fell_back(d: Data, n: Names) -> str:
    text = f"{n.of(d.get('figure'))} falls back {n.length(d.get('inches'))} to {_at(d.get('to'))}"
    return text + (" and takes shelter" if d.get("sheltering") else "")


PHRASES: dict[str, Phrase] = {
    "moved": moved,
    "halted": lambda d, n: f"{n.of(d.get('figure'))} halts short: {d.get('reason', 'blocked')}",
    "overwatch-fire": lambda d, n: (f"{n.of(d.get('figure'))} fires from overwatch at "
                                    f"{n.of(d.get('target'))}"),
    "fire-cancelled": lambda d, n: f"{n.of(d.get('figure'))} holds fire",
    "full-cover-lost": lambda d, n: f"{n.of(d.get('figure'))} leaves full cover to shoot",
    "aimed": lambda d, n: (f"{n.of(d.get('figure'))} takes aim "
                           f"({plural(d.get('turns'), 'turn')} of aim)"),
    "overwatch": overwatch,
    "took-cover": lambda d, n: f"{n.of(d.get('figure'))} takes cover",
    "close-combat": close_combat,
    "rounds": lambda d, n: f"{n.of(d.get('figure'))} fires a burst",
    "shot": shot,
    "casualty": lambda d, n: f"{d.get('name') or n.of(d.get('figure'))} is down",
    "enemy-seen": lambda d, n: (f"Enemy seen: {d.get('name') or n.of(d.get('figure'))}"
                                + (f" with a {words(d['weapon'])}" if d.get("weapon") else "")
                                + f" at {_at((d.get('x'), d.get('y')))}, {_place(d, n)}"),
    "enemy-lost": lambda d, n: (f"{d.get('name') or n.of(d.get('figure'))} is out of sight, "
                                f"last seen at {_at((d.get('last_x'), d.get('last_y')))}"),
    "morale": morale,
    "fell-back": fell_back,
    "deployed": deployed,
    "weapon-drawn": lambda d, n: f"{d.get('name')} draws a {words(d.get('weapon', 'weapon'))}",
    "turn": lambda d, n: f"Turn {d.get('turn')} begins",
    "initiative": initiative,
    "initiative-order": initiative_order,
    "phase": phase,
    "phase-passed": phase_passed,
    "game-over": game_over,
}

BOOK = register_phrasebook(Phrasebook("street-fight", "in", PHRASES))
