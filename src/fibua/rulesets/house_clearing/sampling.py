"""House-Clearing games as one side may believe them to be: what a search plays forward
(`RuleSet.resample`). Everything the side has not observed is drawn again from what it
knows, never read from the game. Public facts are the map, the turn, phase, step and who
acts, and the scenario's roster (each figure's name, weapon, rank, and any statistic the
scenario file fixes); the rest is the side's own figures and its memory (`state.knowledge`).

Where the enemy's figures stand:
- one the side sees now stays as it is (place and stance);
- one seen before stands where it was last seen, in the stance it was seen in, unless a
  figure of the side looks at that place now (or another figure stands there); then
  somewhere within a run (9in) a turn since it was seen, in a room of any floor, that no
  figure of the side sees;
- one never seen stands near its side's deployment zone (public: the scenario's), a
  run's reach a turn from it at most, standing, out of the side's sight;
- one seen to fall lies where it fell, out of action;
- failing a hidden place after a few batches, anywhere on the table out of sight;
  failing that, where it was last known, or anywhere (rare: a place out of sight is
  nearly always found, and tests/test_search_house_clearing.py checks that the side sees
  exactly what it saw).

What each enemy figure is like (the side never sees a statistic):
- in action unless seen to fall; initiative as the scenario fixes it, else the step it
  was last seen acting in, else rolled as at set-up (D3, +1 for leaders); weapon skill as
  fixed, else rolled (3D6x10, 4D6x10 for leaders); losses the side saw are not taken
  off (its memory keeps no count of them);
- fresh this turn: not moved, fired, reacted nor feeding a belt; ducked back as it is
  (both sides are told when a figure ducks).

What depends on where the enemy stands, worked out again from the drawn places:
- who sees whom (`refresh_all`, the rules' own);
- a window to answer the side's own move: which enemy figures saw the mover along its
  path and may fire (`glimpses`, `reaction_firers`, as the rules open it);
- a window in which the side answers an enemy move: the spots its figures were shown
  (and the mover, if any of them saw it), then the mover where the drawn world has it;
  it started at the first spot the side saw (a mover that ducks back goes there). When
  no figure of the side saw the mover, one of the hidden enemies moved, in this step;
- the enemy's fire declared in this fire step (kept secret until it is resolved): if
  the enemy has had its go, every figure of it in this step that sees a figure of the
  side in reach declared fire at the nearest, automatic where its weapon fires so (the
  worst case); the side's own declarations stay;
- the last initiative step of the turn, in the move phase (the highest initiative).

The enemy is assumed to know where every figure of the side stands and its initiative
(the worst case: what it really knows depends on where its hidden figures stand); its
log is forgotten and pending events dropped. So moving an enemy the side cannot see
changes nothing drawn (tests/test_search_house_clearing.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from math import cos, pi, sin

from fibua.battlefield.model import Position
from fibua.core.dice import Rng, parse_dice
from fibua.core.knowledge import Sure
from fibua.rulesets.house_clearing.actions import reaction_firers
from fibua.rulesets.house_clearing.estimates import mutual_sight
from fibua.rulesets.house_clearing.firing import firing_row
from fibua.rulesets.house_clearing.forces import FigureSpec, Forces
from fibua.rulesets.house_clearing.knowledge import glimpses, refresh_all
from fibua.rulesets.house_clearing.movement import FASTEST
from fibua.rulesets.house_clearing.shooting import reach
from fibua.rulesets.house_clearing.state import (
    Declaration,
    Figure,
    HouseClearingState,
    Phase,
    Reaction,
    Seen,
)
from fibua.rulesets.house_clearing.tables import (
    INITIATIVE_DIE,
    INITIATIVE_LEADER_BONUS,
    LEADERS,
    SKILL_DICE,
    SPACING,
    Stance,
)
from fibua.scenario.checks import off_table

#: candidate places drawn at once for a hidden figure (one compiled sight call a batch)
BATCH = 16
#: batches near where the figure is believed to be, then as many anywhere on the table
ROUNDS = 3
#: the nearest a hidden figure is placed to a figure of the side, in inches
STAND_OFF = 1.0

#: a way of drawing a point of the table
Draw = Callable[[random.Random], tuple[float, float]]


def resample(state: HouseClearingState, side: str,
             rng: random.Random) -> HouseClearingState:
    """A copy of the game with what `side` has not observed drawn again (module doc)."""
    world = state.clone(Rng(rng.getrandbits(63)))
    enemy = world.enemy_of(side)
    memory = world.knowledge[side].sightings
    specs = _roster(world, enemy)
    for figure in world.teams[enemy]:
        _refresh(world, figure, specs[figure.id], memory.get(figure.id), rng)
    hidden = [f for f in world.teams[enemy] if f.in_action and not _seen_now(memory, f.id)]
    mover = _enemy_mover(world, side, hidden, rng)
    _place_hidden(world, side, hidden, memory, rng)
    if world.phase is Phase.MOVE:
        world.top_step = max([world.step, 1] + [f.initiative for f in world.figures.values()])
    refresh_all(world)
    _redraw_reaction(world, side, mover)
    _redraw_declarations(world, side, enemy)
    _knows_everything(world, enemy, side)
    world.logs.forget(enemy)
    world.pending.clear()
    return world


def _roster(world: HouseClearingState, side: str) -> dict[str, FigureSpec]:
    forces: Forces = world.scenario.forces_of(side)
    return {spec.id: spec for player in forces.players for spec in player.figures}


def _seen_now(memory: Mapping[str, Seen], fid: str) -> bool:
    known = memory.get(fid)
    return known is not None and known.visible


# ---------------------------------------------------------------- what a figure is like


def _refresh(world: HouseClearingState, figure: Figure, spec: FigureSpec,
             known: Seen | None, rng: random.Random) -> None:
    """An enemy figure as the side can assume it (module doc): its statistics from the
    roster and the side's memory, fresh for the turn."""
    leader = figure.rank in LEADERS
    figure.skill = spec.skill if spec.skill is not None else _rolled(SKILL_DICE[leader], rng)
    if known is not None and not known.alive:
        figure.initiative = -1
        figure.stance = Stance.PRONE
    elif spec.initiative is not None:
        figure.initiative = spec.initiative
    elif known is not None and known.step:
        figure.initiative = known.step
    else:
        bonus = INITIATIVE_LEADER_BONUS if leader else 0
        figure.initiative = _rolled(INITIATIVE_DIE, rng) + bonus
    figure.moved = figure.fired = figure.reacted = figure.loading = False
    if known is not None and not known.alive:
        figure.pos = known.pos


def _rolled(notation: str, rng: random.Random) -> int:
    dice = parse_dice(notation)
    return dice.value_of([rng.randint(dice.low, dice.low + dice.sides - 1)
                          for _ in range(dice.count)])


def _enemy_mover(world: HouseClearingState, side: str, hidden: list[Figure],
                 rng: random.Random) -> Figure | None:
    """In a window where the side answers an enemy move, the mover: the one it was shown,
    else one of the hidden enemies, drawn. It moved in this step: that is its initiative."""
    reaction = world.reaction
    if reaction is None or reaction.side != side:
        return None
    if reaction.shown:
        mover = world.figures[reaction.mover]
    elif hidden:
        mover = hidden[rng.randrange(len(hidden))]
    else:  # no hidden enemy left to have moved unseen: any in action (none can be fired at)
        mover = world.side_figures(world.enemy_of(side))[0]
    mover.initiative, mover.moved, mover.ducked = max(world.step, 1), True, False
    return mover


# ---------------------------------------------------------------- where a figure stands


def _place_hidden(world: HouseClearingState, side: str, hidden: list[Figure],
                  memory: Mapping[str, Seen], rng: random.Random) -> None:
    watchers = world.side_figures(side)
    hidden_ids = {f.id for f in hidden}
    taken = [f.pos for f in world.figures.values() if f.in_action and f.id not in hidden_ids]
    for figure in hidden:
        known = memory.get(figure.id)
        figure.pos, figure.stance = _place(world, known, _believed(world, figure, known),
                                           watchers, taken, rng)
        taken.append(figure.pos)


def _believed(world: HouseClearingState, figure: Figure, known: Seen | None) -> Draw:
    """Where the figure may have got to: within a run a turn of where it was last seen,
    else of its side's deployment zone."""
    if known is not None:
        return _around(_disc(known.x, known.y), FASTEST * max(1, world.turn - known.turn + 1))
    return _around(_in_zone(world, figure.side), FASTEST * max(1, world.turn))


def _place(world: HouseClearingState, known: Seen | None, draw: Draw,
           watchers: list[Figure], taken: list[Position],
           rng: random.Random) -> tuple[Position, Stance]:
    """Where a hidden figure stands, and how: out of every watcher's sight (module doc)."""
    stance = known.doing if known is not None else Stance.STANDING
    if known is not None:
        last = known.pos
        if _clear(last, taken) and _unseen(world, [last], [stance], watchers)[0]:
            return last, stance
    for n in range(2 * ROUNDS):
        found = _first_unseen(world, draw if n < ROUNDS else _anywhere(world), stance,
                              watchers, taken, rng)
        if found is not None:
            return found
    if known is not None:
        return known.pos, stance
    return _standing(world, _anywhere(world)(rng), rng) or Position(0.0, 0.0), stance


def _first_unseen(world: HouseClearingState, draw: Draw, stance: Stance,
                  watchers: list[Figure], taken: list[Position],
                  rng: random.Random) -> tuple[Position, Stance] | None:
    """The first of a batch of drawn places that is free and out of sight, if any."""
    points = [draw(rng) for _ in range(BATCH)]
    places = [p for p in (_standing(world, at, rng) for at in points)
              if p is not None and _clear(p, taken)]
    stances = [_stance_at(world, p, stance) for p in places]
    for place, how, unseen in zip(places, stances, _unseen(world, places, stances, watchers),
                                  strict=True):
        if unseen:
            return place, how
    return None


def _anywhere(world: HouseClearingState) -> Draw:
    table = world.battlefield.table
    return lambda rng: (rng.uniform(0, table.width), rng.uniform(0, table.height))


def _disc(x: float, y: float) -> Draw:
    return lambda rng: (x, y)


def _around(centre: Draw, radius: float) -> Draw:
    """A point drawn from `centre`, then moved up to `radius` in any direction (nearer
    more likely: most figures do not run every turn)."""
    def draw(rng: random.Random) -> tuple[float, float]:
        x, y = centre(rng)
        angle, distance = rng.uniform(0, 2 * pi), radius * rng.random()
        return x + distance * cos(angle), y + distance * sin(angle)
    return draw


def _in_zone(world: HouseClearingState, side: str) -> Draw:
    zone = world.scenario.side(side).deployment
    table = world.battlefield.table
    points = zone if zone else [(0.0, 0.0), (table.width, 0.0), (table.width, table.height),
                                (0.0, table.height)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]

    def draw(rng: random.Random) -> tuple[float, float]:
        at = (rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys)))
        for _ in range(8):  # a few tries inside the polygon, else its bounding box
            if _inside(points, at):
                break
            at = (rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys)))
        return at
    return draw


def _inside(ring: list[tuple[float, float]], at: tuple[float, float]) -> bool:
    """Whether `at` is inside the polygon `ring` (even-odd rule)."""
    x, y = at
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _standing(world: HouseClearingState, at: tuple[float, float],
              rng: random.Random) -> Position | None:
    """A place a figure may stand at `at`, on any floor of its section, if any."""
    if off_table(world.scenario, at) is not None:
        return None
    section = world.sight.section_at(at)
    if section is None:
        return Position(at[0], at[1], None, 0)
    levels = world.battlefield.section(section).levels
    return Position(at[0], at[1], section, rng.randrange(levels) if levels > 1 else 0)


def _stance_at(world: HouseClearingState, place: Position, stance: Stance) -> Stance:
    if stance is Stance.LEANING and not world.geometry.can_lean(place):
        return Stance.STANDING
    return stance


def _clear(place: Position, taken: list[Position]) -> bool:
    """No other figure stands there (the rules' spacing)."""
    return all(p.floor != place.floor or p.distance(place) >= SPACING for p in taken)


def _unseen(world: HouseClearingState, places: list[Position], stances: list[Stance],
            watchers: list[Figure]) -> list[bool]:
    """For each place, whether a figure standing there so is out of every watcher's
    sight, and not next to one (one compiled call for all of them)."""
    if not places or not watchers:
        return [True] * len(places)
    seen, _ = mutual_sight(world.geometry, world.sight, places, stances,
                           [w.pos for w in watchers], [w.stance for w in watchers])
    rows = seen.tolist()
    return [not any(row) and all(p.distance(w.pos) >= STAND_OFF for w in watchers)
            for p, row in zip(places, rows, strict=True)]


# ---------------------------------------------------------------- what depends on it


def _redraw_reaction(world: HouseClearingState, side: str, mover: Figure | None) -> None:
    reaction = world.reaction
    if reaction is None:
        return
    if reaction.side == side:
        assert mover is not None
        world.reaction = _answering(reaction, mover)
    else:
        world.reaction = _answered(world, reaction)


def _answering(told: Reaction, mover: Figure) -> Reaction:
    """The side answers an enemy move: the spots its figures were shown, then the mover
    where the world has it (module doc)."""
    shown = sorted({k for found in told.firers.values() for k in found}) if told.shown \
        else []
    index = {k: n for n, k in enumerate(shown)}
    spots = [told.spots[k] for k in shown]
    stances = [told.stances[k] for k in shown]
    if not spots or spots[-1] != mover.pos:
        spots.append(mover.pos)
        stances.append(mover.stance)
    firers = {fid: [index[k] for k in found] for fid, found in told.firers.items()} \
        if told.shown else {}
    return Reaction(mover.id, told.side, told.shown, spots[0], stances[0], spots, stances,
                    firers)


def _answered(world: HouseClearingState, own: Reaction) -> Reaction:
    """The enemy answers the side's own move (known to the side): who saw it and may
    fire, from where the enemy's figures are drawn."""
    mover = world.figures[own.mover]
    seen_at, _ = glimpses(world, mover, own.spots, own.stances)
    firers = reaction_firers(world, mover, own.spots, seen_at)
    return Reaction(own.mover, own.side, bool(seen_at), own.start, own.start_stance,
                    list(own.spots), list(own.stances), firers)


def _redraw_declarations(world: HouseClearingState, side: str, enemy: str) -> None:
    """The side's own declared fire stays; the enemy's is drawn (module doc)."""
    world.declared = [d for d in world.declared if world.figures[d.firer].side == side]
    had_its_go = world.order.index(enemy) < world.acting
    if world.phase is not Phase.FIRE or world.reaction is not None or not had_its_go:
        return
    targets = world.side_figures(side)
    for firer in world.side_figures(enemy):
        if firer.step != world.step or firer.fired:
            continue
        found = _target(world, firer, targets)
        if found is not None:
            world.declared.append(Declaration(firer.id, found[0].id, found[1], None))
            firer.fired = True


def _target(world: HouseClearingState, firer: Figure,
            targets: list[Figure]) -> tuple[Figure, bool] | None:
    """The nearest figure the firer sees within reach, and whether it fires on automatic."""
    seen = sorted((firer.pos.distance(t.pos), t.id, t) for t in targets
                  if world.sees(firer.id, t.id))
    for distance, _, target in seen:
        if firer.arms.auto is not None and distance <= reach(firing_row(firer, True, None)):
            return target, True
        if distance <= reach(firing_row(firer, False, None)):
            return target, False
    return None


def _knows_everything(world: HouseClearingState, enemy: str, side: str) -> None:
    """The enemy's memory: every figure of the side where it stands now, its initiative
    known, in sight where some enemy figure sees it."""
    watchers = world.side_figures(enemy)
    world.knowledge[enemy].reset(
        Seen(f.id, f.name, f.weapon, f.pos.x, f.pos.y, f.pos.section, f.pos.floor, world.turn,
             Sure.SEEN if f.in_action and any(world.sees(w.id, f.id) for w in watchers)
             else Sure.LAST_SEEN, f.stance, f.in_action, step=f.step if f.in_action else None)
        for f in world.teams[side])



def strength(state: HouseClearingState, side: str) -> float:
    """What is left of a side: a point for each figure in action and one for each point of
    initiative it has (a hit costs initiative, and a figure below 0 is out of action), so
    wounding counts as well as killing."""
    return float(sum(1 + f.initiative for f in state.side_figures(side)))
