"""House-Clearing tells a side nothing about enemy figures it cannot see (non-interference).

From mid-game positions (several seeds, both scenarios, each side in turn), every enemy
figure the side cannot see is moved to another place it cannot see. Everything the side
receives must then be the same in both games: its view (JSON), its legal orders, whose turn
it is, the refusals and previews of a set of orders (fire at every enemy id, moves onto
the hidden enemies' places in either game, stances), and the events addressed to it as
the game goes on with the same orders (the side's own chosen from its view, the enemy
firing at its movers with figures that stand alike in both games, else letting everything
pass) until one of the moved figures comes into its sight.

Windows to fire at a mover get twins of their own: the same game, but the enemy figures
that may fire at the mover unseen by its side stand where they cannot see it; the moving
side must receive the same after the move, after every shot at it and after the enemy
lets it go.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from fibua.battlefield.model import Position
from fibua.core.errors import IllegalOrder
from fibua.core.events import Event
from fibua.core.game import Game, LegalOrders
from fibua.core.orders import Order
from fibua.players.random_player import RandomPlayer
from fibua.rulesets.house_clearing.actions import check_move
from fibua.rulesets.house_clearing.knowledge import refresh_sight
from fibua.rulesets.house_clearing.movement import path_spots
from fibua.rulesets.house_clearing.state import Figure, Phase
from fibua.rulesets.house_clearing.tables import Stance
from fibua.rulesets.house_clearing.turn import can_act
from fibua.scenario.loader import load_scenario
from hc_helpers import act, end, figure, new_game, of_kind

# ------------------------------------------------------------------------------ helpers


def unseen_enemies(game: Game, side: str) -> list[str]:
    state = game.state
    watchers = state.side_figures(side)
    return [e.id for e in state.side_figures(state.enemy_of(side))
            if not any(state.sees(w.id, e.id) for w in watchers)]


def in_sight(game: Game, a: Position, a_stance: Stance, b: Position, b_stance: Stance) -> bool:
    """The rule of sight, asked without touching the game: a line of sight, and each
    figure showing at least a fifth to the other."""
    state = game.state
    if not state.sight.visible_matrix([a], [b])[0][0]:
        return False
    return bool(state.geometry.mutual_in_sight(a, a_stance, b, b_stance)[0])


def relocate(game: Game, side: str, rnd: random.Random) -> list[str]:
    """Move every enemy figure in action that `side` cannot see to another place it
    cannot see: on the table, on the ground floor, clear of every other figure, in a
    stance it may take there. Returns the ids moved."""
    state = game.state
    watchers = state.side_figures(side)
    lookers = [(w.pos, w.stance) for w in watchers]
    moved = []
    for fid in unseen_enemies(game, side):
        enemy = state.figures[fid]
        spot = hidden_spot(game, enemy, lookers, rnd)
        if spot is not None:
            enemy.pos = spot
            moved.append(fid)
    refresh_sight(state, [state.figures[m] for m in moved])
    assert all(not any(state.sees(w.id, m) for w in watchers) for m in moved)
    # moving figures it cannot see tells the side nothing; the enemy, seeing nothing
    # from there either, learns nothing new
    assert [e for e in state.pending if e.seen_by(side)] == []
    state.pending.clear()
    return moved


def hidden_spot(game: Game, enemy: Figure, lookers: list[tuple[Position, Stance]],
                rnd: random.Random) -> Position | None:
    """A place for `enemy` that none of `lookers` (places and stances) sees: on the table,
    on the ground floor, clear of every other figure, in a stance it may take there."""
    state = game.state
    table = state.battlefield.table
    for _ in range(400):
        x = round(rnd.uniform(0.3, table.width - 0.3), 2)
        y = round(rnd.uniform(0.3, table.height - 0.3), 2)
        spot = Position(x, y, state.sight.section_at((x, y)), 0)
        if enemy.stance is Stance.LEANING and not state.geometry.can_lean(spot):
            continue
        if spot.distance(enemy.pos) < 1 or any(
                o is not enemy and o.pos.floor == 0 and o.pos.distance(spot) < 0.6
                for o in state.figures.values()):
            continue
        if not any(in_sight(game, at, stance, spot, enemy.stance) for at, stance in lookers):
            return spot
    return None


def answer(game: Game, order: Order) -> str:
    try:
        return "preview: " + game.ruleset.preview(game.state, order)
    except IllegalOrder as refused:
        return f"refused ({refused.code}): {refused.reason}"


def probes(games: tuple[Game, Game], side: str, moved: list[str]) -> list[Order]:
    """Orders to try: for the figures of `side` that can act now, fire at every enemy id
    (and one that does not exist), moves onto the moved figures' places in either game
    and next to them, every stance."""
    state = games[0].state
    enemies = [*sorted(f.id for f in state.figures.values() if f.side != side), "nobody"]
    spots = sorted({(round(g.state.figures[m].pos.x + dx, 2),
                     round(g.state.figures[m].pos.y + dy, 2))
                    for g in games for m in moved for dx, dy in ((0, 0), (0.3, 0))})
    out = [Order(side, "end")]
    reaction = state.reaction
    for f in state.side_figures(side):
        if reaction is not None:
            if f.id not in reaction.firers:
                continue
        elif not can_act(state, f):
            continue
        for target in enemies:
            out.append(Order(side, "fire", f.id, {"target": target}))
            if f.arms.auto is not None:
                out.append(Order(side, "fire", f.id, {"target": target, "auto": True}))
        out += [Order(side, "move", f.id, {"to": [x, y]}) for x, y in spots]
        out += [Order(side, "move", f.id, {"to": [round(f.pos.x + dx, 2),
                                                  round(f.pos.y + dy, 2)]})
                for dx, dy in ((2, 0), (0, 2), (-2, 0), (0, -2))]
        out += [Order(side, "stance", f.id, {"stance": str(s)}) for s in Stance]
    return out


def waiting_probes(game: Game, side: str) -> list[Order]:
    """Orders the side might try while the enemy acts (its refusals must not differ): its
    figures firing at every enemy id and at one that does not exist, moving, crouching."""
    state = game.state
    enemies = [*sorted(f.id for f in state.figures.values() if f.side != side), "nobody"]
    out = [Order(side, "end")]
    for f in state.side_figures(side)[:3]:
        out += [Order(side, "fire", f.id, {"target": target}) for target in enemies]
        out.append(Order(side, "move", f.id, {"to": [round(f.pos.x + 2, 2), f.pos.y]}))
        out.append(Order(side, "stance", f.id, {"stance": "crouching"}))
    return out


def received(game: Game, side: str, tried: list[Order]) -> dict[str, Any]:
    """Everything `side` can learn now."""
    return {
        "view": json.dumps(game.view(side), sort_keys=True),
        "to_act": game.to_act(),
        "legal": sorted(str(o) for o in game.legal_orders(side)),
        "answers": [(str(o), answer(game, o)) for o in tried],
    }


def addressed(events: list[Event], side: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if e.seen_by(side)]


def knows_moved(game: Game, side: str, moved: list[str]) -> bool:
    """Whether a moved figure is in the side's sight now (from then on the games may
    rightly differ)."""
    memory = game.state.knowledge[side].sightings
    return any(m in memory and memory[m].visible for m in moved) or any(
        game.state.sees(w.id, m) for w in game.state.side_figures(side) for m in moved)


def compare_going_on(a: Game, b: Game, side: str, moved: list[str], chooser: Any,
                     most: int) -> int:
    """Play on in both games with the same orders and compare what `side` receives after
    each; returns how many orders were compared."""
    compared = 0
    for _ in range(most):
        acting = a.to_act()
        if acting is None:
            break
        if acting == side:
            chosen = chooser.choose(a.observe(side), LegalOrders(a, side))
        else:
            chosen = enemy_answer(a, b, acting, moved)
        events_a, events_b = a.apply(chosen), b.apply(chosen)
        if knows_moved(a, side, moved) or knows_moved(b, side, moved):
            break
        assert addressed(events_a, side) == addressed(events_b, side), chosen
        tried = probes((a, b), side, moved) if a.to_act() == side else \
            waiting_probes(a, side)
        assert received(a, side, tried) == received(b, side, tried), chosen
        compared += 1
    return compared


def enemy_answer(a: Game, b: Game, enemy: str, moved: list[str]) -> Order:
    """The enemy's order, the same in both games: in a window to fire at a mover, a shot by
    the first figure that may fire in both and stands alike in both (one not moved);
    otherwise it lets everything pass."""
    ra, rb = a.state.reaction, b.state.reaction
    if ra is not None and rb is not None:
        for fid in sorted((set(ra.firers) & set(rb.firers)) - set(moved)):
            shot = Order(enemy, "fire", fid, {"target": ra.mover})
            if a.ruleset.allows(a.state, shot) and b.ruleset.allows(b.state, shot):
                return shot
    return Order(enemy, "end")


def played(name: str, seed: int, orders: int, computers: int | None = None) -> Game:
    """A game between two computer players (seeded `computers` and the next, by default
    the game's seed), stopped after `orders` orders."""
    scenario = load_scenario(name)
    game = Game(scenario, seed)
    first = seed if computers is None else computers
    players = {s: game.ruleset.computer(s, first + i)
               for i, s in enumerate(scenario.side_names)}
    while not game.over and len(game.orders) < orders:
        side = game.to_act()
        assert side is not None
        game.apply(players[side].choose(game.observe(side), LegalOrders(game, side)))
    return game


def replayed(game: Game) -> Game:
    again = Game(game.scenario, game.seed)
    for placed in game.orders:
        again.apply(placed)
    return again


# ------------------------------------------------------------------ non-interference


@pytest.mark.parametrize(("name", "seed", "orders"), [
    ("ramp-houses", 1, 25), ("ramp-houses", 2, 60), ("ramp-houses", 3, 100),
    ("oosterbeek-crossroads", 1, 25), ("oosterbeek-crossroads", 4, 60),
    ("oosterbeek-crossroads", 5, 100),
])
def test_moving_unseen_enemies_changes_nothing_a_side_receives(name: str, seed: int,
                                                               orders: int) -> None:
    game = played(name, seed, orders)
    assert not game.over
    compared = moved_count = 0
    for k, side in enumerate(game.scenario.side_names):
        a, b = replayed(game), replayed(game)
        assert a.state_hash() == b.state_hash()
        moved = relocate(b, side, random.Random(seed * 10 + k))
        moved_count += len(moved)
        if not moved:
            continue
        assert received(a, side, probes((a, b), side, moved)) == \
            received(b, side, probes((a, b), side, moved))
        chooser = (a.ruleset.computer(side, seed) if k == 0 else RandomPlayer(seed))
        compared += compare_going_on(a, b, side, moved, chooser, most=30)
    assert moved_count > 0 and compared > 0


def test_a_hidden_enemy_that_may_fire_at_a_mover_is_not_given_away() -> None:
    """b1 (initiative 1) walks from behind the high wall in through the house's door. In
    one game r1 (initiative 3), unseen by blue before and after, glimpses it through the
    doorway and may fire; in the other r1 stands behind the factory wall and sees
    nothing. Blue cannot tell the games apart: red is asked in both."""
    blue = [figure("b1", "rifle", (13, 7), initiative=1)]
    a = new_game(blue, [figure("r1", "rifle", (21.5, 7.5), initiative=3)])
    b = new_game(blue, [figure("r1", "rifle", (23, 5), initiative=3)])
    for game in (a, b):
        assert unseen_enemies(game, "blue") == ["r1"]
    move = Order("blue", "move", "b1", {"to": [13, 11]})
    events_a, events_b = a.apply(move), b.apply(move)
    assert a.state.reaction is not None and a.state.reaction.firers
    assert b.state.reaction is not None and not b.state.reaction.firers
    assert unseen_enemies(a, "blue") == unseen_enemies(b, "blue") == ["r1"]
    assert addressed(events_a, "blue") == addressed(events_b, "blue")
    assert a.to_act() == b.to_act() == "red"
    assert received(a, "blue", [move]) == received(b, "blue", [move])
    end(a)
    end(b)
    assert a.to_act() == b.to_act()
    assert received(a, "blue", [move]) == received(b, "blue", [move])


def test_after_a_shot_at_the_mover_a_hidden_firer_is_not_given_away() -> None:
    """As above, and r2, whom blue sees, may fire at b1 in both games. r2 misses; in one
    game r1 could still fire, in the other nobody could. Blue cannot tell: red is asked
    again in both and lets b1 go with `end`."""
    blue = [figure("b1", "rifle", (13, 7), initiative=1)]
    r2 = figure("r2", "rifle", (13, 2), initiative=3)
    a = new_game(blue, [figure("r1", "rifle", (21.5, 7.5), initiative=3), r2], [99])
    b = new_game(blue, [figure("r1", "rifle", (23, 5), initiative=3), r2], [99])
    move = Order("blue", "move", "b1", {"to": [13, 11]})
    a.apply(move)
    b.apply(move)
    assert firers(a) == {"r1", "r2"} and firers(b) == {"r2"}
    shot = Order("red", "fire", "r2", {"target": "b1"})
    events = a.apply(shot), b.apply(shot)
    assert of_kind(events[0], "fired-on")[0]["hits"] == 0
    assert unseen_enemies(a, "blue") == unseen_enemies(b, "blue") == ["r1"]
    assert a.to_act() == b.to_act() == "red"
    same_for(a, b, "blue", events, "after r2's shot")
    assert b.forced("red") == Order("red", "end") and a.forced("red") is None
    events = end(a), end(b)
    same_for(a, b, "blue", events, "after red let b1 go")
    assert a.state.reaction is None and b.state.reaction is None


# ------------------------------------------------ hidden firers in a window at a mover


@dataclass(frozen=True)
class Window:
    """A move that opened a window to fire at the mover with firers its side cannot see:
    the orders before the move, the move, and those hidden firers."""

    before: list[Order]
    move: Order
    hidden: list[str]


def hidden_firer_windows(name: str, seed: int, computers: int, most: int) -> list[Window]:
    """The first `most` such windows of a game between two computer players."""
    scenario = load_scenario(name)
    game = Game(scenario, seed)
    players = {s: game.ruleset.computer(s, computers + i)
               for i, s in enumerate(scenario.side_names)}
    found: list[Window] = []
    while len(found) < most and (side := game.to_act()) is not None:
        order = players[side].choose(game.observe(side), LegalOrders(game, side))
        unseen_before = set(unseen_enemies(game, side))
        before = list(game.orders)
        game.apply(order)
        reaction = game.state.reaction
        if order.kind == "move" and reaction is not None:
            hidden = sorted(set(reaction.firers) & unseen_before
                            & set(unseen_enemies(game, side)))
            if hidden:
                found.append(Window(before, order, hidden))
    return found


def path_lookers(game: Game, move: Order) -> list[tuple[Position, Stance]]:
    """The places and stances the mover will be seen in along its path, as the rules look
    (`path_spots`), asked before the move."""
    state = game.state
    mover = state.figures[move.unit or ""]
    plan = check_move(state, mover, move.params)
    spots, stances = path_spots(mover.pos, plan, state)
    return list(zip(spots, stances, strict=True))


def out_of_reach(game: Game, side: str, ids: list[str], move: Order,
                 rnd: random.Random) -> None:
    """Before the move: put the enemy figures `ids` where neither the side's figures nor
    the mover along its path can see them."""
    state = game.state
    lookers = [(w.pos, w.stance) for w in state.side_figures(side)] + path_lookers(game, move)
    for fid in ids:
        spot = hidden_spot(game, state.figures[fid], lookers, rnd)
        assert spot is not None, fid
        state.figures[fid].pos = spot
    refresh_sight(state, [state.figures[fid] for fid in ids])
    assert [e for e in state.pending if e.seen_by(side)] == []
    state.pending.clear()


def firers(game: Game) -> set[str]:
    reaction = game.state.reaction
    return set() if reaction is None else set(reaction.firers)


def same_for(a: Game, b: Game, side: str, events: tuple[list[Event], list[Event]],
             step: str) -> None:
    tried = waiting_probes(a, side) if a.to_act() != side else probes((a, b), side, [])
    assert addressed(events[0], side) == addressed(events[1], side), step
    assert received(a, side, tried) == received(b, side, tried), step


def twin_windows(name: str, seed: int, window: Window, computers: int) -> tuple[Game, Game]:
    """The game before the move twice, the second with the hidden firers out of reach; the
    move given in both. Checks what the moving side receives before and after it."""
    a = Game(load_scenario(name), seed)
    for placed in window.before:
        a.apply(placed)
    b = replayed(a)
    side = window.move.side
    out_of_reach(b, side, window.hidden, window.move, random.Random(seed))
    same_for(a, b, side, ([], []), "before the move")
    events = a.apply(window.move), b.apply(window.move)
    assert set(window.hidden) <= firers(a) and not set(window.hidden) & firers(b)
    same_for(a, b, side, events, "after the move")
    return a, b


def shots_at_the_mover(a: Game, b: Game, side: str, hidden: list[str]) -> int:
    """The enemy fires with each figure that may in both games (not a hidden one), then
    lets the mover go; what the moving side receives is compared after each order.
    Returns the shots fired."""
    shots = 0
    while a.state.reaction is not None:
        enemy = a.to_act()
        assert enemy is not None and enemy != side and b.to_act() == enemy
        assert (firers(a) == firers(b)) == (not set(hidden) & firers(a)), "test set-up"
        chosen = enemy_answer(a, b, enemy, hidden)
        events = a.apply(chosen), b.apply(chosen)
        if knows_moved(a, side, hidden) or knows_moved(b, side, hidden):
            return shots  # a shot stopped the mover where it sees them: the games differ
        shots += chosen.kind == "fire"
        same_for(a, b, side, events, f"after {chosen}")
    assert b.state.reaction is None
    return shots


def test_the_repro_a_shot_at_braun_does_not_tell_who_else_watched() -> None:
    """ramp-houses, seed 7, computers seeded 8 and 9: after 165 orders the British may fire
    at braun with cottle, ryder and webb; the Germans see only cottle. After cottle's shot
    the Germans must be told the same as where ryder and webb could not fire."""
    (window, *_) = hidden_firer_windows("ramp-houses", 7, 8, most=1)
    assert len(window.before) + 1 == 165 and window.move.unit == "braun"
    assert window.hidden == ["ryder", "webb"]
    a, b = twin_windows("ramp-houses", 7, window, 8)
    assert firers(a) == {"cottle", "ryder", "webb"} and firers(b) == {"cottle"}
    shot = Order("british", "fire", "cottle", {"target": "braun"})
    events = a.apply(shot), b.apply(shot)
    assert a.state.reaction is not None, "the dice stopped braun: no window left to test"
    assert a.to_act() == b.to_act() == "british"
    assert a.view("germans")["to_act"] == b.view("germans")["to_act"] == "british"
    same_for(a, b, "germans", events, "after cottle's shot")
    assert b.legal_orders("british") == [Order("british", "end")]
    assert b.forced("british") == Order("british", "end") and a.forced("british") is None
    events = a.apply(Order("british", "end")), b.apply(Order("british", "end"))
    same_for(a, b, "germans", events, "after the British let braun go")


@pytest.mark.parametrize(("name", "seed", "computers"), [
    ("ramp-houses", 1, 1), ("ramp-houses", 6, 6), ("ramp-houses", 7, 8),
    ("oosterbeek-crossroads", 1, 1), ("oosterbeek-crossroads", 2, 2),
    ("oosterbeek-crossroads", 5, 5),
])
def test_hidden_firers_change_nothing_the_mover_receives_at_any_shot(
        name: str, seed: int, computers: int) -> None:
    windows = hidden_firer_windows(name, seed, computers, most=3)
    assert windows, f"{name} seed {seed}: no window with a hidden firer"
    shots = 0
    for window in windows:
        side = window.move.side
        a, b = twin_windows(name, seed, window, computers)
        shots += shots_at_the_mover(a, b, side, window.hidden)
        chooser = a.ruleset.computer(side, computers)
        compare_going_on(a, b, side, window.hidden, chooser, most=10)
    assert shots > 0, f"{name} seed {seed}: no shot fired in a window with hidden firers"


# ---------------------------------------------------------- the enemy is always asked


def test_a_move_nobody_saw_still_asks_the_enemy_who_can_only_let_it_go() -> None:
    game = new_game([figure("b1", "rifle", (21, 2), initiative=1)],
                    [figure("r1", "rifle", (2, 23), initiative=3)])
    events = act(game, "move", "b1", to=[21, 6])
    assert game.to_act() == "red"
    assert game.legal_orders("red") == [Order("red", "end")]
    view = game.view("red")
    assert view["reaction"] == {"mover": None, "firers": []}
    assert "b1" not in json.dumps(view) and "B1" not in json.dumps(view)
    assert [e for e in events if e.seen_by("red")] == []
    red = game.ruleset.computer("red", 1)
    assert red.choose(game.observe("red"), LegalOrders(game, "red")) == Order("red", "end")
    told = [e for e in end(game) if e.seen_by("red")]
    assert game.state.reaction is None
    assert [e.kind for e in told] == ["step"]  # on to red's own move step, and no more
    assert "b1" not in json.dumps([e.to_dict() for e in told])


def test_a_mover_seen_by_figures_that_may_not_fire_is_named_but_not_fired_at() -> None:
    # r1 (initiative 1, lower than b1's 2) sees b1 walk: red knows who moved, cannot fire
    game = new_game([figure("b1", "rifle", (21, 2), initiative=2)],
                    [figure("r1", "rifle", (21, 20), initiative=1)])
    while game.to_act() != "blue":  # r1 stays put in step 1
        end(game)
    act(game, "move", "b1", to=[21, 6])
    assert game.to_act() == "red"
    assert game.view("red")["reaction"] == {"mover": "b1", "firers": []}
    assert game.legal_orders("red") == [Order("red", "end")]


# ---------------------------------------------------------------- fire at a mover


def pistol_watch(faces: list[int] | None = None) -> Game:
    """r1 (initiative 3, a pistol: 5in at most) at (21.5, 13) watches b1 walk north from
    (17, 9) to (17, 17); the hedge hides b1 where it stops, 6in off."""
    game = new_game([figure("b1", "rifle", (17, 9), initiative=1)],
                    [figure("r1", "pistol", (21.5, 13), initiative=3)], faces)
    act(game, "move", "b1", to=[17, 17])
    assert game.to_act() == "red" and game.state.reaction is not None
    assert not game.state.sees("r1", "b1")
    return game


def test_the_preview_of_fire_at_a_mover_measures_where_the_firer_saw_it() -> None:
    game = pistol_watch()
    fire = Order("red", "fire", "r1", {"target": "b1"})
    text = game.ruleset.preview(game.state, fire)
    # the first place r1 saw b1 at in the pistol's reach (all in its Sixteenth band, so
    # all as good), showing all of it; not where b1 stopped, hidden and 6in off
    assert "where it saw it at (17.0, 11.0)" in text and "4.9in" in text
    assert "5/5 visible" in text and "Sixteenth band" in text
    # the same whatever b1's hidden place
    other = pistol_watch()
    b1 = other.state.figures["b1"]
    b1.pos = Position(16.5, 18.5, None, 0)
    refresh_sight(other.state, [b1])
    assert not other.state.sees("r1", "b1")
    assert other.ruleset.preview(other.state, fire) == text


def test_fire_at_a_mover_is_taken_where_the_preview_said() -> None:
    # skill 100 / 16 = 6 in the pistol's Sixteenth band: 06 hits, the cover die 1 holds
    game = pistol_watch([6, 1, 1])
    act(game, "fire", "r1", target="b1")
    (shot,) = of_kind(game.log, "shot")
    assert shot["range"] == 4.92 and shot["chance"] == 6 and shot["fifths"] == 5
    assert shot["band"] == "Sixteenth"


# ------------------------------------------------------------------------ events


def test_a_step_is_told_only_to_the_side_that_acts_in_it() -> None:
    game = played("ramp-houses", 1, 40)
    steps = [e for e in game.log if e.kind == "step"]
    assert steps and all(e.to == (e.data["side"],) for e in steps)


def test_the_target_sees_the_dice_of_a_shot_but_not_the_firer_s_skill() -> None:
    game = new_game([figure("b1", "rifle", (21, 10), initiative=3, skill=130)],
                    [figure("r1", "rifle", (21, 20), initiative=1)], [10, 6])
    while game.state.phase is Phase.MOVE:
        end(game)
    act(game, "fire", "b1", target="r1")
    (shot,) = [e for e in game.log if e.kind == "shot"]
    (seen,) = [e for e in game.log if e.kind == "fired-on"]
    assert shot.to == ("blue",) and seen.to == ("red",)
    assert shot.data["chance"] == 65 and shot.data["roll"]["need"] == 65
    assert seen.data["firer"] == "b1" and seen.data["roll"]["faces"] == [10]
    assert seen.data["roll"]["success"] is True and seen.data["hits"] == 1
    assert seen.data["cover"] == shot.data["cover"]
    assert "chance" not in seen.data and "need" not in seen.data["roll"]
    red = json.dumps([e.to_dict() for e in game.log_for("red")])
    assert "weapon skill" not in red and "130" not in red


def test_event_positions_are_to_a_hundredth() -> None:
    game = new_game([figure("b1", "rifle", (17, 9), initiative=1)],
                    [figure("r1", "rifle", (23.5, 16), initiative=3)])
    act(game, "move", "b1", path=[[17.123456, 10.987654], [17.33333, 12.77777]])
    (moved,) = of_kind(game.log, "moved")
    assert moved["to"] == [17.33, 12.78] and moved["inches"] == round(moved["inches"], 2)

    def numbers(value: Any) -> list[float]:
        if isinstance(value, float):
            return [value]
        if isinstance(value, dict):
            return [n for v in value.values() for n in numbers(v)]
        if isinstance(value, list):
            return [n for v in value for n in numbers(v)]
        return []

    for event in game.log:
        if event.kind in ("moved", "moved-back", "enemy-seen", "enemy-lost",
                          "enemy-glimpsed", "shot", "fired-on"):
            inches = {k: v for k, v in event.data.items() if k != "share"}  # a fraction
            assert all(n == round(n, 2) for n in numbers(inches)), event


@pytest.mark.parametrize("name", ["ramp-houses", "oosterbeek-crossroads"])
def test_a_views_exposure_is_its_figures_against_the_enemies_it_sees_now(name: str) -> None:
    """Each pair of the side's figure and an enemy it sees now and has not seen fall, as
    the rules hold them (fifths either way), and no other pair: in a game played out."""
    game = Game(load_scenario(name), 5)
    players = {s: game.ruleset.computer(s, 5) for s in game.scenario.side_names}
    checked = 0
    while (side := game.to_act()) is not None and checked < 150:
        state, view = game.state, game.observe(side)
        memory = state.knowledge[side].sightings
        seen = [e for e, s in memory.items() if s.visible and s.alive]
        expected = {(f.id, e): (state.fifths(f.id, e), state.fifths(e, f.id))
                    for f in state.figures.values() if f.side == side for e in seen
                    if state.sees(f.id, e)}
        assert view.exposure == expected
        checked += bool(expected)
        game.apply(players[side].choose(view, LegalOrders(game, side)))
    assert checked > 20
