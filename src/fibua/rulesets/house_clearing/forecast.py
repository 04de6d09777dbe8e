"""What an order will do, said before it is given (`RuleSet.forecast`): the move's cost and
where it ends, a stance's effect on what the enemy sees, each figure a firing may hit with
its chance worked out as the rules roll it, and what ending a step gives up.

Everything here reads what the ordering side knows: its own figures, the enemies it sees
(a firer fires only at those, and its cone strikes only the enemies it sees and its own
side's figures), and the map. An enemy the side does not see changes nothing in a forecast.
"""

from __future__ import annotations

from fractions import Fraction

from fibua.battlefield.model import Position, TerrainKind
from fibua.core.orders import Order
from fibua.core.ruleset import Preview, Risk
from fibua.rulesets.house_clearing import actions
from fibua.rulesets.house_clearing.estimates import mutual_sight
from fibua.rulesets.house_clearing.firing import Victim, cone_victims
from fibua.rulesets.house_clearing.movement import MovePlan, path_spots
from fibua.rulesets.house_clearing.odds import MEAN_D3
from fibua.rulesets.house_clearing.shooting import (
    at_least_one_hit,
    band_for,
    duck_back_chance,
    expected_hits,
    hit_chance,
    out_of_action_chance,
)
from fibua.rulesets.house_clearing.state import Figure, HouseClearingState, Phase, Seen
from fibua.rulesets.house_clearing.tables import (
    BAND_LABELS,
    CONE_WIDTH_SHARE,
    LEANING_SHOWS,
    PROFILES,
    Stance,
)
from fibua.rulesets.house_clearing.turn import can_act


def forecast(state: HouseClearingState, order: Order) -> Preview:
    """The forecast of an order the rules have already checked."""
    figure = state.figures.get(order.unit or "")
    if figure is None:  # `end`: every other order names a figure
        return _end(state, order.side)
    if order.kind == "move":
        return _move(state, figure, actions.check_move(state, figure, order.params))
    if order.kind == "stance":
        return _stance(state, figure, actions.check_stance_order(state, figure, order.params))
    plan = actions.check_fire(state, figure, order.params)
    if state.reaction is not None:
        return _fire_at_mover(state, figure, plan)
    return _declared_fire(state, figure, plan)


def percent(p: Fraction | float) -> str:
    """A chance in words: whole percents, tenths below 10% (a 0.4% chance is not 0%)."""
    value = float(p)
    if 0 < value < 0.1:
        return f"{value:.1%}"
    return f"{value:.0%}"


# ---------------------------------------------------------------- moving


def _move(state: HouseClearingState, figure: Figure, plan: MovePlan) -> Preview:
    parts = [f"{figure.name} moves {plan.ground:.1f}in: {plan.share:.0%} of its move"]
    if plan.climbs:
        parts.append("climbing over " + " and ".join(plan.climbs) + " on the way")
    end = plan.legs[-1]
    parts.append(_place_words(state, end))
    if plan.stance is not figure.stance:
        parts.append(f"{plan.stance} where it stops")
    parts += _watched_on_the_way(state, figure, plan)
    return Preview("; ".join(parts))


def _place_words(state: HouseClearingState, at: Position) -> str:
    if at.section is not None:
        building = state.battlefield.building_of(at.section).name
        floor = f", floor {at.floor}" if at.floor else ""
        return f"ends inside {building} ({at.section}{floor})"
    return "ends outside, " + GROUND_WORDS[state.sight.terrain_at(at.point)]


GROUND_WORDS = {
    TerrainKind.OPEN: "in the open",
    TerrainKind.ROAD: "in the open, on the road",
    TerrainKind.PLOT: "on a building plot",
    TerrainKind.ROUGH: "on rough ground",
    TerrainKind.RUBBLE: "on rubble",
}


def _known_enemies(state: HouseClearingState, side: str) -> list[Seen]:
    """The enemies the side sees now, where it sees them (its memory, not the state)."""
    return [s for _, s in state.knowledge[side].listed() if s.visible and s.alive]


def _watched_on_the_way(state: HouseClearingState, figure: Figure,
                        plan: MovePlan) -> list[str]:
    """The enemies the side sees that would see the mover somewhere along its path, and
    where it stops: the rules' own sampling of the path (`path_spots`) and body model."""
    known = _known_enemies(state, figure.side)
    if not known:
        return ["no enemy the side sees"]
    spots, stances = path_spots(figure.pos, plan, state)
    of_spots, _ = mutual_sight(state.geometry, state.sight, [k.pos for k in known],
                               [k.doing for k in known], spots, stances)
    rows = of_spots.tolist()
    on_way = [k.name for k, row in zip(known, rows, strict=True) if any(row[:-1])]
    at_end = [f"{k.name} ({row[-1]}/5 of it)" for k, row in zip(known, rows, strict=True)
              if row[-1]]
    out = []
    if on_way:
        fire = " (any of them of higher initiative that has not acted may fire at it)" \
            if state.options.reaction_fire else ""
        out.append("seen on the way by " + ", ".join(on_way) + fire)
    out.append("where it stops seen by " + ", ".join(at_end) if at_end
               else "where it stops out of sight of every enemy the side sees")
    return out


# ---------------------------------------------------------------- stance


def shows_words(stance: Stance) -> str:
    """What a figure in this stance shows at most, from the body model's bands."""
    bands = len(PROFILES[stance])
    if stance is Stance.LEANING:
        shown = ", ".join(BAND_LABELS[:LEANING_SHOWS])
        return (f"leans out of the door or window beside it: from outside its room it "
                f"shows at most its {shown} ({LEANING_SHOWS}/5)")
    if bands == 1:
        return "shows at most its head (1/5), at ground level"
    return f"shows at most {bands}/5 of itself ({', '.join(BAND_LABELS[:bands])})"


def _stance(state: HouseClearingState, figure: Figure, stance: Stance) -> Preview:
    parts = [f"{figure.name} goes from {figure.stance} to {stance}, its move this turn: "
             f"{shows_words(stance)}"]
    known = _known_enemies(state, figure.side)
    if known:
        # both stances in one call, so the one now and the one after read the same way
        _, of_figure = mutual_sight(state.geometry, state.sight, [figure.pos, figure.pos],
                                    [figure.stance, stance], [k.pos for k in known],
                                    [k.doing for k in known])
        now, then = of_figure.tolist()
        parts.append("to the enemies the side sees it shows " + ", ".join(
            f"{k.name} {_fifths_words(a)} now, {_fifths_words(b)} after"
            for k, a, b in zip(known, now, then, strict=True)))
    return Preview("; ".join(parts))


def _fifths_words(fifths: int) -> str:
    return f"{fifths}/5" if fifths else "nothing"


# ---------------------------------------------------------------- fire


def _declared_fire(state: HouseClearingState, figure: Figure,
                   plan: actions.FirePlan) -> Preview:
    """Fire declared in a fire step: resolved once both sides have declared, from where
    every figure stands now (nothing moves in the fire phase). Automatic fire strikes
    every figure of the cone as the rules find them (`cone_victims`): the enemies the firer
    sees, and the side's own figures under the friendly-fire option."""
    target = plan.target
    victims = cone_victims(state, figure, target, plan.row) if plan.auto else \
        [Victim(target, target.pos, state.fifths(figure.id, target.id))]
    lines = [_target_line(figure, plan, victims[0])]
    if plan.auto:
        width = figure.pos.distance(target.pos) / CONE_WIDTH_SHARE
        lines.append(f"automatic: the cone is {width:.1f}in wide at {target.name}, and each "
                     "figure in it is fired at with half the chance")
    friendly: list[Fraction] = []
    enemy_odds = [_confirmed(figure, plan, victims[0])]
    for victim in victims[1:]:
        if victim.figure.side == figure.side:
            odds = _confirmed(figure, plan, victim)
            friendly.append(odds)
            lines.append(_friend_line(figure, plan, victim))
        else:
            enemy_odds.append(_confirmed(figure, plan, victim))
            lines.append("also " + _odds_words(figure, plan, victim))
    if plan.loader is not None:
        lines.append(f"{plan.loader.name} feeds the belt and gives up its own fire")
    lines.append(f"resolved with the rest of step {state.step}'s fire once both sides "
                 "have declared")
    risks = []
    if any(p > 0 for p in friendly):
        risks.append(Risk.FRIENDLY_FIRE)
    if not any(p > 0 for p in enemy_odds):
        risks.append(Risk.HOPELESS)
    return Preview("; ".join(lines), float(enemy_odds[0]), risks=tuple(risks))


def _chance(figure: Figure, plan: actions.FirePlan, victim: Victim) -> int:
    return hit_chance(figure.skill, plan.row, figure.pos.distance(victim.at), plan.auto)


def _confirmed(figure: Figure, plan: actions.FirePlan, victim: Victim) -> Fraction:
    return at_least_one_hit(_chance(figure, plan, victim), victim.fifths)


def _odds_words(figure: Figure, plan: actions.FirePlan, victim: Victim) -> str:
    """Range, band, chance, cover and what comes of it, for one figure fired at."""
    distance = figure.pos.distance(victim.at)
    chance = _chance(figure, plan, victim)
    band = band_for(plan.row, distance)
    lost = expected_hits(chance, victim.fifths) * MEAN_D3
    return (f"{victim.figure.name}: {distance:.1f}in, {band.name} band ({plan.row}), chance "
            f"{chance}%, {victim.fifths}/5 visible: {percent(_confirmed(figure, plan, victim))}"
            f" for a confirmed hit, {float(lost):.2f} initiative lost on average")


def _target_line(figure: Figure, plan: actions.FirePlan, victim: Victim) -> str:
    line = f"{figure.name} at {_odds_words(figure, plan, victim)}"
    if _chance(figure, plan, victim) == 0:
        line += " (no roll can hit at this range)"
    return line


def _friend_line(figure: Figure, plan: actions.FirePlan, victim: Victim) -> str:
    """An own figure in the cone: its own initiative is the side's to know, so the chance
    it is put out of action is told too."""
    friend = victim.figure
    chance = _chance(figure, plan, victim)
    out = out_of_action_chance(chance, victim.fifths, friend.initiative)
    return (f"friendly fire: own {friend.name} is in the cone, "
            f"{figure.pos.distance(victim.at):.1f}in away, chance {chance}%, "
            f"{victim.fifths}/5 visible: {percent(_confirmed(figure, plan, victim))} to be "
            f"hit, {percent(out)} to be put out of action")


def _fire_at_mover(state: HouseClearingState, figure: Figure,
                   plan: actions.FirePlan) -> Preview:
    """Fire at a mover is measured where the shot would be taken: the place along the path
    the firer saw it at (never where the mover stopped out of its sight)."""
    reaction = state.reaction
    assert reaction is not None
    k = actions.best_spot(state, figure, plan.row)
    spot = reaction.spots[k]
    victim = Victim(plan.target, spot, state.geometry.fifths(figure.pos, spot,
                                                              reaction.stances[k]))
    chance = _chance(figure, plan, victim)
    odds = _confirmed(figure, plan, victim)
    duck = duck_back_chance(chance, victim.fifths)
    text = (f"{figure.name} at {_odds_words(figure, plan, victim)}, where it saw it at "
            f"({spot.x:.1f}, {spot.y:.1f}); single shots at a mover; {percent(duck)} it "
            "ducks back to where it started (hit on the dice, saved by its cover)")
    if plan.loader is not None:
        text += f"; {plan.loader.name} feeds the belt and gives up its own fire"
    return Preview(text, float(odds), risks=(Risk.HOPELESS,) if odds == 0 else ())


# ---------------------------------------------------------------- ending a step


def _end(state: HouseClearingState, side: str) -> Preview:
    reaction = state.reaction
    if reaction is not None:
        return Preview(_let_go_words(state, reaction.firers, reaction.mover, reaction.shown))
    idle = [f.name for f in state.side_figures(side) if can_act(state, f)]
    if state.phase is Phase.MOVE:
        what, lost = "move", "do not move this turn"
    else:
        what, lost = "fire", "do not fire this turn"
    text = f"ends step {state.step} of the {what} phase for the side: "
    text += ", ".join(idle) + f" {lost}" if idle else "no figure of the side is left to act in it"
    if state.phase is Phase.FIRE:
        mine = [d for d in state.declared if state.figures[d.firer].side == side]
        if mine:
            text += f"; its {len(mine)} declared firing(s) are resolved once both sides " \
                    "have declared"
    return Preview(text)


def _let_go_words(state: HouseClearingState, firers: dict[str, list[int]], mover: str,
                  shown: bool) -> str:
    if not shown:
        return "no figure of the side saw the enemy's move: it carries on"
    name = state.figures[mover].name
    if not firers:
        return f"lets {name} go on its way: no figure of the side can fire at it"
    names = ", ".join(state.figures[f].name for f in sorted(firers))
    return f"lets {name} go on its way: {names} could still fire at it and will not"
