"""Forecasts of Buildings fire: what a unit's fire at a unit does (each weapon's chance to
hit with its modifiers, a hit's chance to harm with the armour or protection it meets, the
models it may remove), HE and flame at an empty section, indirect fire, and the strikes and
barrages an observer calls.

The chances are the rules' own (shooting.py, firing.py) and the distributions odds.py's; a
unit's fire is the sum of its firers' attacks, capped at the target's models, as if each
firer's dice were rolled apart (they are: the rules roll them one after another)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import reduce

import icepool

from fibua.core.ruleset import Risk
from fibua.rulesets.buildings.blast import indirect_need
from fibua.rulesets.buildings.firing import (
    Firer,
    firers,
    fires_he,
    he_only,
    hit_for,
    models_under,
    one_crew,
    section_firers,
    shot_of,
    sides_used,
    victim_of,
)
from fibua.rulesets.buildings.forecast_words import (
    Said,
    expected,
    faces,
    in_sight,
    inches,
    known,
    may_go_down,
    mix,
    names,
    need_words,
    pct,
    place,
    some,
    terms,
)
from fibua.rulesets.buildings.geometry import centroid
from fibua.rulesets.buildings.indirect import (
    check_indirect,
    check_indirect_at,
    in_barrage,
    struck_near,
)
from fibua.rulesets.buildings.odds import (
    attack_die,
    collapse_chance,
    either,
    floor_chances,
    he_kills,
    knocked_out_chance,
)
from fibua.rulesets.buildings.shooting import (
    Hit,
    Shot,
    Target,
    damage_basis,
    damage_chance,
    damage_need,
    hit_chance,
    hit_modifiers,
)
from fibua.rulesets.buildings.state import BuildingsState, Call, Seen, Unit, models_seen
from fibua.rulesets.buildings.tables import (
    AIR_STRIKE_HE,
    BARRAGE_HE,
    BURNS,
    COLLAPSE_AT,
    COLLAPSING_DICE,
    FIRE_ON,
    HE_TEMPLATES,
    INDIRECT_FIRST,
    WEAPONS,
    BuildingKind,
    Facing,
    ObserverKind,
    OrderKind,
    WeaponName,
)

NONE = icepool.Die([0])


@dataclass(frozen=True)
class Effect:
    """One firer's fire at a unit: what it removes (or, at a vehicle, penetrates), its
    words, and the chance one of its hits brings the target's section down."""

    die: icepool.Die
    words: str
    collapse: Fraction = Fraction(0)


@dataclass(frozen=True)
class Volley:
    """A unit's fire at one target: each weapon's words, the models removed (capped at the
    target's) or the penetrating hits, the chance of a hit (which pins), the chance the
    target's section collapses."""

    words: str
    removed: icepool.Die
    hits: Fraction
    collapse: Fraction
    vehicle: bool
    models: int


# ------------------------------------------------------------------ direct fire at units


def volley(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
           spent: frozenset[int] = frozenset(), down_hit: bool | None = None,
           down_he: bool | None = None) -> Volley:
    """The unit's fire at the target as the rules roll it: `down_hit` (the target Down when
    the shots are rolled) and `down_he` (Down when an HE hit's hits are) default to
    whether it is Down now."""
    down = target.order is OrderKind.DOWN
    down_hit = down if down_hit is None else down_hit
    down_he = down if down_he is None else down_he
    groups: dict[tuple[str, str], list[float]] = {}
    dice: list[icepool.Die] = []
    miss, stands = Fraction(1), Fraction(1)
    for f in firers(state, unit, target, advanced, spent):
        shot = replace(shot_of(state, unit, target, f, advanced), target_down=down_hit)
        hit = hit_chance(shot)
        effect = _effect(state, unit, target, f, hit, down_he)
        shots = _shots(f, target)
        words = f"{_hit_words(hit, shot, shots)}, {effect.words}"
        groups.setdefault((WEAPONS[f.weapon].title, words), []).append(f.range)
        dice.append(effect.die)
        miss *= (1 - hit) ** shots
        stands *= 1 - hit * effect.collapse
    total = reduce(lambda a, b: a + b, dice, NONE)
    models = len(target.models)
    if target.vehicle is None:
        total = total.map(lambda k: min(k, models))
    lines = [f"{_count(title, len(ranges))} at {_span(ranges)}: {words}"
             for (title, words), ranges in groups.items()]
    return Volley("; ".join(lines), total, 1 - miss, 1 - stands, target.vehicle is not None,
                  models)


def _shots(f: Firer, target: Unit) -> int:
    """The to-hit rolls a firer makes: one for HE and flame, else its weapon's shots."""
    arms = WEAPONS[f.weapon]
    return 1 if fires_he(f.weapon, target) or arms.flame else arms.shots


def _effect(state: BuildingsState, unit: Unit, target: Unit, f: Firer, hit: Fraction,
            down_he: bool) -> Effect:
    arms = WEAPONS[f.weapon]
    if arms.flame:
        return _flame(state, unit, target, f, hit)
    if fires_he(f.weapon, target) and target.vehicle is None:
        return _he_at_troops(state, target, f, hit, down_he)
    made, victim = hit_for(unit, target, f), victim_of(target, unit)
    harm = damage_chance(made, victim)
    return Effect(attack_die(f.weapon, hit, harm), _harm_words(made, victim, harm))


def _harm_words(made: Hit, victim: Target, harm: Fraction) -> str:
    basis = damage_basis(made, victim)
    need = damage_need(made, victim)
    if victim.vehicle is None:
        return f"a hit removes a model {pct(harm)} (needs {need}+: {need_words(basis)})"
    if need is None:
        total = sum(m.value for m in basis)
        return (f"no hit can penetrate its armour ({need_words(basis)}: {total} needed on "
                "a D6)")
    return f"a hit penetrates {pct(harm)} (needs {need}+: {need_words(basis)})"


def _flame(state: BuildingsState, unit: Unit, target: Unit, f: Firer,
           hit: Fraction) -> Effect:
    made, victim = hit_for(unit, target, f), victim_of(target, unit)
    harm = damage_chance(made, victim)
    extra = "+1" if f.weapon is WeaponName.VEHICLE_FLAMETHROWER else ""
    if target.vehicle is not None:
        words = f"a hit is D6{extra} hits on its top armour, each penetrating {pct(harm)}"
        after = []
    else:
        words = f"a hit is D6{extra} hits, each removing a model {pct(harm)}, and D3+1 pins"
        after = ["it takes a morale test"]
    if target.section is not None and \
            state.battlefield.section(target.section).construction in BURNS:
        after.append(f"the building catches fire on a {FIRE_ON}+")
    if after:
        words += "; hit or miss, " + " and ".join(after)
    return Effect(attack_die(f.weapon, hit, harm), words)


def _he_at_troops(state: BuildingsState, target: Unit, f: Firer, hit: Fraction,
                  down: bool) -> Effect:
    size = WEAPONS[f.weapon].he
    assert size is not None
    halved = ", halved for Down" if down else ""
    if target.section is None:
        under = models_under(target, float(size))
        he = he_kills(size, None, target.quality, down, under)
        words = (f"a hit puts its {size}in HE template over {under} of its models{halved}, "
                 f"each removed {pct(he.damage)}")
        return Effect(either(hit, he.kills), words)
    building = state.battlefield.section(target.section).construction
    he = he_kills(size, building, target.quality, down, on_collapse=len(target.models))
    dice = HE_TEMPLATES[size].in_buildings
    words = f"a hit is {dice.upper()} HE hits in the building{halved}, each removing a " \
            f"model {pct(he.damage)}"
    if building is BuildingKind.BUNKER:
        words += " (none in a bunker)"
    if dice in COLLAPSING_DICE:
        words += f", and {COLLAPSE_AT[building]} or more bring the section down " \
                 f"({pct(he.collapse)} a hit)"
    return Effect(either(hit, he.kills), words, he.collapse)


def _hit_words(hit: Fraction, shot: Shot, shots: int) -> str:
    mods = terms(hit_modifiers(shot))
    why = f" ({mods})" if mods else ""
    if hit == 0:
        return f"cannot hit{why}: 10 or more needed"
    return (f"{shots} shots, each hits" if shots > 1 else "hits") + f" {pct(hit)}{why}"


def _count(title: str, n: int) -> str:
    return title if n == 1 else f"{n} {title}s"


def _span(ranges: list[float]) -> str:
    lo, hi = min(ranges), max(ranges)
    return inches(lo) if round(lo, 1) == round(hi, 1) else f"{lo:.1f}-{hi:.1f}in"


def summary(state: BuildingsState, v: Volley) -> str:
    """The volley's outcome in words: expected losses, the chance of any, and why none."""
    if v.vehicle:
        ko = knocked_out_chance(v.removed, state.options)
        out = (f"expected penetrating hits {expected(v.removed):.2f}, at least one "
               f"{pct(some(v.removed))}, knocked out {pct(ko)}")
    else:
        out = (f"expected models removed {expected(v.removed):.2f} of {v.models}, at least "
               f"one {pct(some(v.removed))}")
        if v.collapse:
            out += f"; the section collapses {pct(v.collapse)}, everyone inside destroyed"
    if some(v.removed) == 0:
        out += "; no shot can hit it" if v.hits == 0 else \
            f"; nothing it fires can harm it: a hit ({pct(v.hits)}) only pins it"
    elif v.hits:
        out += f"; a hit pins it ({pct(v.hits)})"
    return out


def fire_at_units(state: BuildingsState, unit: Unit, ids: list[str]) -> Said:
    """Direct fire at a unit, or divided between units from the sides of a section."""
    lines: list[str] = []
    none, missed, risks = 1.0, 1.0, set()
    spent: frozenset[int] = frozenset()
    for tid in ids:
        target = state.units[tid]
        v = volley(state, unit, target, False, spent)
        line = f"at {target.name}: {v.words}; {summary(state, v)}"
        if some(v.removed):
            line += _down_answer(state, unit, target, spent)
        friends = _buried_friends(state, unit, target, v)
        if friends:
            line += friends
            risks.add(Risk.FRIENDLY_FIRE)
        lines.append(line)
        none *= 1 - some(v.removed)
        missed *= 1 - float(v.hits)
        if unit.section is not None:
            spent = sides_used(state, unit, target, False, spent)
    risks.update(futile(1.0 - missed, 1.0 - none))
    text = f"{unit.name} fires " + "; then ".join(lines)
    return Said(text, 1.0 - none, tuple(sorted(risks)))


def _down_answer(state: BuildingsState, unit: Unit, target: Unit,
                 spent: frozenset[int]) -> str:
    """What going Down in answer would spare the target: small arms then roll at -2, HE
    that hit halves its hits."""
    if not may_go_down(state, unit.side, target):
        return ""
    he_first = he_only(state, unit, target, False, spent)
    v = volley(state, unit, target, False, spent, down_hit=not he_first, down_he=True)
    what = "penetrating hits" if v.vehicle else "models removed"
    seen = known(state, unit.side, target.id)
    why = "it is on Ambush" if seen is not None and seen.doing else "it has no order yet"
    return (f"; if it goes Down in answer ({why}), expected {what} "
            f"{expected(v.removed):.2f}, at least one {pct(some(v.removed))}")


def _buried_friends(state: BuildingsState, unit: Unit, target: Unit, v: Volley) -> str:
    """The side's own units in the target's section, which a collapse would bury and a fire
    drive out."""
    if target.section is None:
        return ""
    own = [u for u in state.side_units(unit.side) if u.section == target.section]
    burns = any(WEAPONS[f.weapon].flame for f in firers(state, unit, target, False)) and \
        state.battlefield.section(target.section).construction in BURNS
    if not own or not (v.collapse or burns):
        return ""
    what = "buried if it collapses" if v.collapse else "driven out if it burns"
    return f"; your {names(own)} in {target.section} would be {what}"


# ------------------------------------------------------------------ HE and flame at a section


def fire_at_section(state: BuildingsState, unit: Unit, sid: str, floor: int) -> Said:
    """HE or a flamethrower at a section the side sees no unit in: 3+ with the firer's own
    modifiers; an HE hit's hits may bring it down, a flamethrower may set it alight."""
    building = state.battlefield.section(sid).construction
    groups: dict[tuple[str, str], list[float]] = {}
    stands = Fraction(1)
    for f in section_firers(state, unit, sid):
        shot = Shot(f.weapon, f.range, unit.quality, unit.pins, one_crew=one_crew(unit),
                    he_at_building=True)
        hit = hit_chance(shot)
        words, done = _at_building(f, hit, shot, building, floor)
        stands *= 1 - done
        groups.setdefault((WEAPONS[f.weapon].title, words), []).append(f.range)
    lines = [f"{_count(title, len(ranges))} at {_span(ranges)}: {words}"
             for (title, words), ranges in groups.items()]
    chance = float(1 - stands)
    text = (f"{unit.name} fires at {sid} ({building}), floor {floor}, where your side sees "
            "no unit: " + "; ".join(lines)
            + f"; the section collapses or catches fire {pct(chance)}")
    if chance == 0:
        text += ": it can harm only a unit your side has not seen in there"
        return Said(text, 0.0, (Risk.WASTED,))
    return Said(text, chance)


def _at_building(f: Firer, hit: Fraction, shot: Shot, building: BuildingKind,
                 floor: int) -> tuple[str, Fraction]:
    """One firer's words at an empty section, and its chance to bring it down or set it
    alight."""
    if WEAPONS[f.weapon].flame:
        if building not in BURNS:
            return f"{_hit_words(hit, shot, 1)}; a bunker never burns", Fraction(0)
        fire = Fraction(7 - FIRE_ON, 6)
        return (f"{_hit_words(hit, shot, 1)}; hit or miss, the building catches fire on a "
                f"{FIRE_ON}+ ({pct(fire)})"), fire
    size = WEAPONS[f.weapon].he
    assert size is not None
    dice = HE_TEMPLATES[size].in_buildings
    words = f"{_hit_words(hit, shot, 1)}; a hit is {dice.upper()} hits on floor {floor}"
    if dice not in COLLAPSING_DICE:
        return words + ", too few ever to bring a section down", Fraction(0)
    down = collapse_chance(size, building)
    return words + f", {COLLAPSE_AT[building]} or more bring it down ({pct(down)})", \
        hit * down


# ------------------------------------------------------------------ indirect fire


def _ranging(state: BuildingsState, unit: Unit, key: str,
             at: tuple[str | None, int] | None) -> tuple[int, str]:
    """The D6 an indirect shot needs and why: a first try 6, each later try from the same
    place one better, 2+ once it has hit; `at` (the target's section and floor as the
    side knows them): the tries count only at the same one."""
    r = state.ranging.get(key)
    if r is None or r.place != (unit.lead.x, unit.lead.y) or (
            at is not None and (r.section, r.floor) != at):
        return INDIRECT_FIRST, "a first try from here needs a 6"
    need = indirect_need(r.tries, r.ranged_in)
    if r.ranged_in:
        return need, "ranged in: it has hit from here"
    return need, f"{r.tries} earlier tries from here, one better each"


def indirect_at_unit(state: BuildingsState, unit: Unit, target: Unit) -> Said:
    weapon = check_indirect(state, unit, target)
    size = WEAPONS[weapon].he
    assert size is not None
    seen = known(state, unit.side, target.id)
    at = None if seen is None else (seen.section, seen.floor)
    need, why = _ranging(state, unit, f"{unit.id}>{target.id}", at)
    hit = Fraction(7 - need, 6)
    head = (f"{unit.name} fires its {WEAPONS[weapon].title} indirect at {target.name}: "
            f"needs {need}+ ({why}), {pct(hit)}; no cover counts")
    if seen is None:
        return Said(head + f"; your side has not seen {target.name}: what a hit does "
                    "cannot be told", float(hit))
    landing = he_landing(state, unit.side, target, seen, size, hit)
    return Said(f"{head}; {landing.text}", landing.chance, landing.risks)


def he_landing(state: BuildingsState, side: str, target: Unit, seen: Seen, size: int,
               hit: Fraction) -> Said:
    """What an HE shell or bomb that hits (chance `hit`) does to a unit as the side knows
    it: the template on its models in the open, one hit on a vehicle's top armour, or in a
    building a burst on some floor from the top down. Its chance: of a loss."""
    if seen.section is not None:
        return _burst_on_unit(state, side, target, seen, size, hit)
    if target.vehicle is not None:
        made = Hit(HE_TEMPLATES[size].pen, he=True, facing=Facing.TOP)
        harm = damage_chance(made, Target(None, target.vehicle))
        ko = knocked_out_chance(either(hit * harm, icepool.Die([1])), state.options)
        text = (f"a hit strikes its top armour at +{HE_TEMPLATES[size].pen}, penetrating "
                f"{pct(harm)} ({need_words(damage_basis(made, Target(None, target.vehicle)))}"
                f"), knocked out {pct(ko)}; a hit pins it")
        return Said(text, float(hit * harm), futile(hit, hit * harm))
    # out of sight, how its models stand is not known: all of them, at the most
    under = models_under(target, float(size)) if in_sight(state, side, target.id) else \
        models_seen(seen)
    he = he_kills(size, None, target.quality, False, under)
    die = either(hit, he.kills)
    text = (f"a hit puts the {size}in HE template over {under} of its models, each removed "
            f"{pct(he.damage)}: expected models removed {expected(die):.2f}, at least one "
            f"{pct(some(die))}; a hit pins it (the template's pins)")
    if may_go_down(state, side, target):
        low = either(hit, he_kills(size, None, target.quality, True, under).kills)
        text += f"; if it goes Down in answer, hits halved: expected {expected(low):.2f}"
    return Said(text, some(die), futile(hit, some(die)))


def _burst_on_unit(state: BuildingsState, side: str, target: Unit, seen: Seen, size: int,
                   hit: Fraction) -> Said:
    assert seen.section is not None
    section = state.battlefield.section(seen.section)
    floors = floor_chances(section.levels)
    there = floors.get(seen.floor, Fraction(0))
    he = he_kills(size, section.construction, target.quality, False,
                  on_collapse=models_seen(seen))
    elsewhere = either(he.collapse, icepool.Die([models_seen(seen)]))
    die = either(hit, mix(there, he.kills, elsewhere)).map(lambda k: min(k, models_seen(seen)))
    when = "" if in_sight(state, side, target.id) else f", as last seen on turn {seen.turn}"
    text = (f"{_falls(floors)}; on the target's floor (floor {seen.floor}{when}) "
            f"{pct(there)}: there {HE_TEMPLATES[size].in_buildings.upper()} hits, each "
            f"removing a model {pct(he.damage)}")
    if he.collapse:
        text += f"; the section collapses {pct(hit * he.collapse)}, everyone inside destroyed"
    text += f": expected models removed {expected(die):.2f}, at least one {pct(some(die))}"
    own = [u for u in state.side_units(side) if u.section == seen.section]
    risks: set[Risk] = set(futile(hit, some(die)))
    if own:
        risks.add(Risk.FRIENDLY_FIRE)
        text += "; whatever unit is on the floor it bursts on is hit, yours too: " + ", ".join(
            f"{u.name} on floor {u.floor} ({pct(hit * floors.get(u.floor, Fraction(0)))})"
            for u in own)
    return Said(text, some(die), tuple(sorted(risks)))


def _falls(floors: dict[int, Fraction]) -> str:
    """Where a shell that hit a building bursts, in words."""
    if len(floors) == 1:
        return "a hit bursts on the ground floor"
    where = ", ".join(f"floor {k} {pct(p)}" for k, p in sorted(floors.items(), reverse=True))
    return f"a hit bursts on the top floor on a 4+, else a floor lower ({where})"


def futile(hit: Fraction | float, harm: Fraction | float) -> tuple[Risk, ...]:
    """The risk of an attack that hits with chance `hit` and harms with chance `harm`:
    hopeless when nothing can hit, harmless when a hit can only pin (every hit pins)."""
    if hit == 0:
        return (Risk.HOPELESS,)
    return (Risk.HARMLESS,) if harm == 0 else ()


def indirect_at_section(state: BuildingsState, unit: Unit, sid: str) -> Said:
    weapon = check_indirect_at(state, unit, sid)
    size = WEAPONS[weapon].he
    assert size is not None
    need, why = _ranging(state, unit, f"{unit.id}>{sid}", None)
    hit = Fraction(7 - need, 6)
    text = (f"{unit.name} fires its {WEAPONS[weapon].title} indirect at {sid}, where your "
            f"side sees no unit: needs {need}+ ({why}), {pct(hit)}; "
            + _burst_on_section(state, sid, size, hit))
    down = hit * collapse_chance(size, state.battlefield.section(sid).construction)
    if down == 0:
        return Said(text + ": it can harm only a unit your side has not seen in there",
                    0.0, (Risk.WASTED,))
    return Said(text, float(down))


def _burst_on_section(state: BuildingsState, sid: str, size: int, hit: Fraction) -> str:
    section = state.battlefield.section(sid)
    dice = HE_TEMPLATES[size].in_buildings
    words = f"{_falls(floor_chances(section.levels))}, {dice.upper()} hits there"
    if dice not in COLLAPSING_DICE:
        return words + ", too few ever to bring the section down"
    down = collapse_chance(size, section.construction)
    return words + (f"; {COLLAPSE_AT[section.construction]} or more bring the section down: "
                    f"{pct(hit * down)}")


# ------------------------------------------------------------------ observers' calls


def call(state: BuildingsState, unit: Unit, made: Call) -> Said:
    if made.kind is ObserverKind.AIR:
        return _strike(state, unit, made)
    return _barrage(state, unit, made)


def _strike(state: BuildingsState, unit: Unit, made: Call) -> Said:
    o = state.options
    friendly = Fraction(o.strike_friendly_up_to, 6)
    away = Fraction(o.strike_no_show_up_to - o.strike_friendly_up_to, 6)
    comes = 1 - friendly - away
    target = state.units.get(made.target or "")
    seen = None if target is None else known(state, unit.side, target.id)
    section = made.section if target is None else (None if seen is None else seen.section)
    point = (seen.x, seen.y) if seen is not None else made.point
    if seen is None and section is not None:
        point = centroid(state.battlefield.section(section))
    rolls = [f"{faces(o.strike_no_show_up_to + 1, 6)} it strikes {pct(comes)}"]
    if away:
        rolls.insert(0, f"{faces(o.strike_friendly_up_to + 1, o.strike_no_show_up_to)} "
                        f"it does not come {pct(away)}")
    risks: set[Risk] = set()
    if friendly:
        nearest = min(state.side_units(unit.side),
                      key=lambda u: (u.lead.x - point[0]) ** 2 + (u.lead.y - point[1]) ** 2)
        rolls.insert(0, f"{faces(1, o.strike_friendly_up_to)} it strikes your unit nearest "
                        f"the target instead ({nearest.name} now) {pct(friendly)}")
        risks.add(Risk.FRIENDLY_FIRE)
    aim = target.name if target is not None else str(section)
    lands = _strike_lands(state, unit, target, seen, section)
    risks.update(lands.risks)
    text = (f"{unit.name} calls an air strike on {aim}; it comes at the start of the next "
            f"turn, on a D6: " + ", ".join(rolls) + f". A strike is one {AIR_STRIKE_HE}in HE "
            "hit: " + lands.text)
    near = [u for u in state.side_units(unit.side) if u.aboard is None
            and struck_near(state, u, point, section, o.strike_pin_radius)]
    text += f"; every other unit within {o.strike_pin_radius:g}in takes a pin"
    if near:
        text += f", yours too: {names(near)}"
        risks.add(Risk.FRIENDLY_FIRE)
    return Said(text, float(comes), tuple(sorted(risks)))


def _strike_lands(state: BuildingsState, unit: Unit, target: Unit | None,
                  seen: Seen | None, section: str | None) -> Said:
    if target is not None and seen is not None:
        return he_landing(state, unit.side, target, seen, AIR_STRIKE_HE, Fraction(1))
    if target is not None:
        return Said(f"your side has not seen {target.name}: what it does cannot be told")
    assert section is not None
    text = _burst_on_section(state, section, AIR_STRIKE_HE, Fraction(1))
    own = [u for u in state.side_units(unit.side) if u.section == section]
    if not own:
        return Said(text)
    return Said(text + f"; your {names(own)} inside would be hit if it bursts on that "
                "floor, and buried if the section collapses", None, (Risk.FRIENDLY_FIRE,))


def _barrage(state: BuildingsState, unit: Unit, made: Call) -> Said:
    o = state.options
    nothing = Fraction(o.barrage_nothing_up_to, 6)
    pinned = Fraction(o.barrage_pins_up_to - o.barrage_nothing_up_to, 6)
    heavy = 1 - nothing - pinned
    rolls = [f"{faces(1, o.barrage_nothing_up_to)} nothing {pct(nothing)}",
             f"{faces(o.barrage_nothing_up_to + 1, o.barrage_pins_up_to)} D3 pins "
             f"{pct(pinned)}",
             f"{faces(o.barrage_pins_up_to + 1, 6)} a heavy howitzer hit {pct(heavy)}"]
    rolls = [r for r, p in zip(rolls, (nothing, pinned, heavy), strict=True) if p]
    brick = collapse_chance(BARRAGE_HE, BuildingKind.BRICK)
    text = (f"{unit.name} calls a barrage at {place(made.point)}; it falls at the start of "
            f"the next turn on every unit within {o.barrage_radius:g}in, each rolling a D6: "
            + ", ".join(rolls) + f" ({BARRAGE_HE}in HE; in a building 3D6 hits, which bring "
            f"a section down on {COLLAPSE_AT[BuildingKind.BRICK]} or more, {pct(brick)})")
    foes = [s.name for uid, s in state.knowledge[unit.side].listed()
            if s.alive and in_barrage(state, made.point, s.section, (s.x, s.y))]
    text += ("; enemy units your side knows of in reach, as last seen: " + ", ".join(foes)
             if foes else "; no enemy unit your side knows of is in reach")
    own = [u for u in state.side_units(unit.side) if u.aboard is None
           and in_barrage(state, made.point, u.section, (u.lead.x, u.lead.y))]
    left = o.barrages - state.barrages_called.get(unit.id, 0) - 1
    text += f"; {unit.name} has {left} barrage{'s' if left != 1 else ''} left after this"
    if own:
        return Said(text + f"; yours in reach now: {names(own)}", float(1 - nothing),
                    (Risk.FRIENDLY_FIRE,))
    return Said(text, float(1 - nothing))

