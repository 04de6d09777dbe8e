"""Shooting in the game: who of a unit can fire at a target (models outside; two a door,
window or slit of its floor, five a side from a roof), at what range and with what cover,
and the rolls with their events: to hit, HE in the open and in buildings (collapse), damage,
pins. The chances themselves are shooting.py's, shared with the odds."""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import dist
from typing import Any

from fibua.battlefield.model import Position, SectionState, TerrainKind
from fibua.rulesets.buildings.blast import (
    fire_roll,
    flame_hits,
    flame_pins,
    he_in_building,
    he_in_open,
)
from fibua.rulesets.buildings.geometry import (
    Port,
    crosses_other_wall,
    ground_doors,
    outside_marks,
    ports,
    wall_marks,
)
from fibua.rulesets.buildings.knowledge import (
    enemy_sees,
    places,
    seen_now,
    sees,
    tell,
    watchers,
)
from fibua.rulesets.buildings.losses import add_pins, destroy, remove_models
from fibua.rulesets.buildings.morale import morale_test
from fibua.rulesets.buildings.movement import facing_of, most_firers, plunging
from fibua.rulesets.buildings.shooting import (
    Hit,
    Shot,
    Target,
    cover_inside,
    hit_basis,
    hit_of,
    hit_target,
    roll_damage,
    roll_hit_target,
)
from fibua.rulesets.buildings.state import BuildingsState, Unit
from fibua.rulesets.buildings.tables import (
    ARMOURED,
    HE_TEMPLATES,
    WEAPONS,
    BuildingKind,
    Cover,
    Facing,
    OrderKind,
    UnitKind,
    WeaponName,
    is_small_arm,
)
from fibua.rulesets.buildings.transport import vehicle_result
from fibua.rulesets.buildings.vehicles import roll_chart

SHIELD_ARC = 45.0  # degrees either side of a gun's facing that its shield covers


@dataclass(frozen=True, slots=True)
class Firer:
    """One weapon that fires: the model (or mount) and how far its target is."""

    weapon: WeaponName
    range: float
    floor: int
    #: a team's fixed weapon inside: the opening it fires through
    opening: int | None = None
    #: inside: the wall (side of the section) it fires from
    wall: int | None = None


def weapons_of(unit: Unit, advanced: bool) -> list[WeaponName]:
    """The weapons a unit fires, team and heavy weapons first; fixed weapons never on an
    Advance; one-shot weapons already fired not again."""
    if unit.kind is UnitKind.INFANTRY:
        found = [m.weapon for i, m in enumerate(unit.models)
                 if m.weapon is not None and i not in unit.spent]
    else:
        found = list(unit.mounts)
    usable = [w for w in found if WEAPONS[w].range > 0
              and not (advanced and WEAPONS[w].fixed)]
    return sorted(usable, key=lambda w: (WEAPONS[w].shots == 1 and WEAPONS[w].pen == 0,))


#: the rules' memo entry (`SightEngine.memo`) of `firers`, and its size at most
FIRERS = "buildings.firing.firers"
FIRERS_LIMIT = 50_000


def firers(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
           spent: frozenset[int] = frozenset()) -> list[Firer]:
    """The weapons that can fire at the target now (in sight and in range): small arms and
    flamethrowers need an opening of the target's floor, heavy weapons only a wall of it
    (`aims`). A unit inside fires from one side of its section, not one of the `spent`
    sides (those that fired at another target this order).

    Kept in the rules' own memo of the sight engine (as `_nearest_seen`) by all that the
    answer reads of the two units (`_firing_key`): the rules check a fire order, then
    carry it out, and the computer asks of every target in sight."""
    memo: dict[Any, Any] = state.sight.memo
    known: dict[tuple[object, ...], tuple[Firer, ...]] | None = memo.get(FIRERS)
    if known is None or len(known) >= FIRERS_LIMIT:
        known = memo[FIRERS] = {}
    key = _firing_key(unit, target, advanced, spent)
    found = known.get(key)
    if found is None:
        found = known[key] = tuple(_firers_now(state, unit, target, advanced, spent))
    return list(found)


def _firing_key(unit: Unit, target: Unit, advanced: bool, spent: frozenset[int]
                ) -> tuple[object, ...]:
    """All that `firers` reads of the firer and the target: the firer's kind, place,
    models (where, and armed with what), weapons spent, mounts and opening; the target's
    place (its models' outside; off the table aboard a transport)."""
    return (unit.kind, unit.section, unit.floor, unit.opening, unit.aboard,
            tuple([(m.x, m.y, m.weapon) for m in unit.models]), tuple(unit.spent),
            unit.mounts, target.aboard is not None, target.section, target.floor,
            tuple([(m.x, m.y) for m in target.models]) if target.section is None else (),
            advanced, spent)


def _firers_now(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
                spent: frozenset[int]) -> list[Firer]:
    """`firers`, worked out."""
    aims = Aims(state, target)
    if not aims.any():
        return []
    arms = weapons_of(unit, advanced)
    if unit.section is None:
        if unit.kind is UnitKind.INFANTRY:
            return _outside(state, unit, aims, arms)
        return _from(state, unit.pos, aims, arms, len(arms), unit.floor)
    section = state.battlefield.section(unit.section)
    if target.section == unit.section:
        return []  # fights inside a section are assaults
    best: list[Firer] = []
    by_wall: dict[int | None, list[Port]] = {}
    for port in ports(section, unit.floor):
        if unit.kind is UnitKind.GUN and port.opening != unit.opening:
            continue
        if port.wall in spent:
            continue
        by_wall.setdefault(port.wall, []).append(port)
    roof = section.flat_roof and unit.floor == section.floors
    looking = [p for wall_ports in by_wall.values() for p in wall_ports]
    reach = {kind: dict(zip(looking, _nearest_seen(state, [p.pos for p in looking], at),
                            strict=True))
             for kind, at in aims.kinds(arms).items()}
    for wall_ports in by_wall.values():
        found = _from_wall(unit, wall_ports, arms, reach, aims, roof)
        if len(found) > len(best):
            best = found
    return best


def _from_wall(unit: Unit, wall_ports: list[Port], arms: list[WeaponName],
               reach: dict[str, dict[Port, float]], aims: Aims, roof: bool) -> list[Firer]:
    """The weapons a unit inside fires from the openings of one wall: two an opening that
    sees what the weapon needs (five a roof side)."""
    seeing = [p for p in wall_ports if any(r[p] != math.inf for r in reach.values())]
    if not seeing:
        return []
    room = most_firers(len(seeing), roof)
    found: list[Firer] = []
    for w in arms:
        near_of = reach[aims.kind(w)]
        sees_it = [p for p in seeing if near_of[p] != math.inf]
        if not sees_it:
            continue
        assigned = _assigned(unit, w, sees_it)
        if assigned is not None and not assigned:
            continue  # its fixed weapon's opening is elsewhere or sees nothing
        near_port = min(assigned or sees_it, key=near_of.__getitem__)
        near = near_of[near_port]
        if near <= WEAPONS[w].range and len(found) < room:
            fixed = assigned is not None or _team_fixed(unit, w)
            found.append(Firer(w, near, unit.floor, near_port.opening if fixed else None,
                               near_port.wall))
    return found


WALLS, OPENINGS = "walls", "openings"


class Aims:
    """What a firer must see of a target: its places (models; inside, the openings of its
    floor); for a heavy weapon other than a flamethrower at a unit inside a building that
    is no bunker, any wall of the section (the seed: big shells go through most walls;
    a bunker is fired into only through its slits, heavy weapons too)."""

    def __init__(self, state: BuildingsState, target: Unit) -> None:
        self.openings = places(state, target)
        section = None if target.section is None or target.aboard is not None else \
            state.battlefield.section(target.section)
        self.walls = self.openings if section is None or \
            section.construction is BuildingKind.BUNKER else list(wall_marks(section))
        self.through_walls = self.walls is not self.openings

    def any(self) -> bool:
        return bool(self.openings) or bool(self.walls)

    def kind(self, weapon: WeaponName) -> str:
        heavy = not is_small_arm(weapon) and not WEAPONS[weapon].flame
        return WALLS if heavy and self.through_walls else OPENINGS

    def of(self, kind: str) -> list[Position]:
        return self.walls if kind == WALLS else self.openings

    def kinds(self, arms: list[WeaponName]) -> dict[str, list[Position]]:
        """The aims the weapons need, by kind (only those some weapon needs)."""
        return {k: self.of(k) for k in sorted({self.kind(w) for w in arms})}


def knows_of(state: BuildingsState, unit: Unit, target: Unit) -> bool:
    """Whether the unit may pick the target: it sees it, or the target is inside a building
    and the unit's side sees it now (a heavy weapon then fires at the walls of its floor
    regardless of the openings the firer sees)."""
    if sees(state, unit, target):
        return True
    return target.section is not None and seen_now(state, unit.side, target.id)


def _team_fixed(unit: Unit, weapon: WeaponName) -> bool:
    """A team's fixed weapon (MMG, HMG) inside: it fires through one opening."""
    return unit.kind is UnitKind.INFANTRY and WEAPONS[weapon].fixed


def _assigned(unit: Unit, weapon: WeaponName, seeing: list[Port]) -> list[Port] | None:
    """The seeing ports a team's assigned fixed weapon may fire from (None: no limit, the
    weapon is not fixed, not yet assigned, or on a roof)."""
    if not _team_fixed(unit, weapon) or unit.opening is None:
        return None
    if all(p.opening is None for p in seeing):
        return None  # a roof has no openings to assign
    return [p for p in seeing if p.opening == unit.opening]


def assign_opening(state: BuildingsState, unit: Unit, found: list[Firer]) -> None:
    """A team inside that fires its fixed weapon before it has an opening takes the one it
    fired through."""
    if unit.section is None or unit.opening is not None:
        return
    for f in found:
        if f.opening is not None and _team_fixed(unit, f.weapon):
            unit.opening = f.opening
            state.emit("assigned", {"unit": unit.id, "opening": f.opening},
                       watchers(state, unit))
            return


def _outside(state: BuildingsState, unit: Unit, aims: Aims,
             arms: list[WeaponName]) -> list[Firer]:
    found: list[Firer] = []
    models = [m for m in unit.models if m.weapon is not None and m.weapon in arms]
    heres = [Position(m.x, m.y) for m in models]
    nearest = {k: _nearest_seen(state, heres, at) for k, at in aims.kinds(
        [m.weapon for m in models if m.weapon is not None]).items()}
    for i, model in enumerate(models):
        w = model.weapon
        assert w is not None
        if nearest[aims.kind(w)][i] <= WEAPONS[w].range:
            found.append(Firer(w, nearest[aims.kind(w)][i], 0))
    return found


def _from(state: BuildingsState, here: Position, aims: Aims,
          arms: list[WeaponName], room: int, floor: int) -> list[Firer]:
    near = {k: _nearest_seen(state, [here], at)[0] for k, at in aims.kinds(arms).items()}
    return [Firer(w, near[aims.kind(w)], floor) for w in arms
            if near[aims.kind(w)] <= WEAPONS[w].range][:room]


#: the rules' memo entry (`SightEngine.memo`) of `_nearest_seen`, and its size at most
NEAREST = "buildings.firing.nearest"
NEAREST_LIMIT = 50_000


def _nearest_seen(state: BuildingsState, heres: list[Position], aims: list[Position]
                  ) -> tuple[float, ...]:
    """How far each place is from the nearest aim it sees (infinity: it sees none), the
    sight of every pair asked in one call; fire into or out of a bunker only through the
    slit it is aimed from or at (`_by_slit`).

    Kept in the rules' own memo of the sight engine by the places asked: the answer
    depends on nothing else but the map and the sections' present states, and the engine
    starts another memo when one of those changes (see knowledge.py). A unit's fire is
    weighed by the rules' check and again when carried out, and most shooters and their
    targets stand still from one order to the next."""
    memo: dict[Any, Any] = state.sight.memo
    known: dict[tuple[tuple[Position, ...], tuple[Position, ...]], tuple[float, ...]] | None \
        = memo.get(NEAREST)
    if known is None or len(known) >= NEAREST_LIMIT:
        known = memo[NEAREST] = {}
    key = (tuple(heres), tuple(aims))
    found = known.get(key)
    if found is None:
        found = known[key] = tuple(_nearest_seen_now(state, heres, aims))
    return found


def _nearest_seen_now(state: BuildingsState, heres: list[Position], aims: list[Position]
                      ) -> list[float]:
    """`_nearest_seen`, worked out."""
    if not heres:
        return []
    seen = state.sight.visible_matrix(heres, aims).tolist()
    if any(_in_bunker(state, p) for p in (*heres, *aims)):
        seen = [[s and _by_slit(state, here, a) for a, s in zip(aims, row, strict=True)]
                for here, row in zip(heres, seen, strict=True)]
    return [min((dist(here.point, a.point) for a, s in zip(aims, row, strict=True) if s),
                default=math.inf) for here, row in zip(heres, seen, strict=True)]


def _in_bunker(state: BuildingsState, p: Position) -> bool:
    return p.section is not None and \
        state.battlefield.section(p.section).construction is BuildingKind.BUNKER


def _by_slit(state: BuildingsState, a: Position, b: Position) -> bool:
    """Whether a line of fire between two places leaves each bunker it starts or ends in
    through the slit of the port it starts or ends at, not by its door (the sight engine
    sees through doors and across the bunker's inside)."""
    for inner, outer in ((a, b), (b, a)):
        if _in_bunker(state, inner) and inner.section != outer.section and crosses_other_wall(
                state.battlefield.section(str(inner.section)), inner.point, outer.point):
            return False
    return True


def cover_of(state: BuildingsState, target: Unit) -> Cover:
    if target.section is not None:
        return cover_inside(state.battlefield.section(target.section).construction)
    if not target.models:
        return Cover.NONE
    terrain = state.sight.terrain_at((target.lead.x, target.lead.y))
    if terrain is TerrainKind.RUBBLE:
        return Cover.HARD
    if terrain is TerrainKind.ROUGH:
        return Cover.SOFT
    return Cover.NONE


def one_crew(unit: Unit) -> bool:
    """Whether the unit's team weapons are down to their last crew: a vehicle's weapons
    are served from inside the hull, never by a team that can thin out."""
    return unit.vehicle is None and len(unit.models) <= 1


def shot_of(state: BuildingsState, unit: Unit, target: Unit, firer: Firer,
            advanced: bool) -> Shot:
    he = WEAPONS[firer.weapon].pen is None or (
        WEAPONS[firer.weapon].he is not None and target.vehicle is None)
    return Shot(firer.weapon, firer.range, unit.quality, unit.pins, advanced,
                one_crew=one_crew(unit),
                target_models=None if target.vehicle is not None else len(target.models),
                cover=cover_of(state, target), target_down=target.order is OrderKind.DOWN,
                he_at_building=he and target.section is not None)


def fires_he(weapon: WeaponName, target: Unit) -> bool:
    arms = WEAPONS[weapon]
    return arms.pen is None or (arms.he is not None and target.vehicle is None)


def resolve(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
            spent: frozenset[int] = frozenset()) -> None:
    """One unit's shooting at one target: every firer's shots, then the hits' damage and
    the pin (or the HE template's pins)."""
    found = firers(state, unit, target, advanced, spent)
    seen = enemy_sees(state, unit)
    tell(state, unit, seen, "fire", {"unit": unit.id, "target": target.id,
                                     "advanced": advanced,
                                     "weapons": [str(f.weapon) for f in found]})
    assign_opening(state, unit, found)
    hits = 0
    he_pins = False
    for f in found:
        if target.destroyed:
            break
        shot = shot_of(state, unit, target, f, advanced)
        he = fires_he(f.weapon, target)
        shots = 1 if he else WEAPONS[f.weapon].shots
        for _ in range(shots):
            made = roll_hit_target(state.rng, hit_target(shot), hit_basis(shot))
            tell(state, unit, seen, "to-hit", {
                "unit": unit.id, "target": target.id, "weapon": str(f.weapon),
                "range": round(f.range, 2), "rolls": [r.to_dict() for r in made.rolls],
                "hit": made.hit})
            if WEAPONS[f.weapon].flame:
                flame(state, unit, target, f, made.hit)
                continue
            if not made.hit:
                continue
            if he and target.vehicle is None:
                he_hit(state, target, f.weapon)
                he_pins = True
            else:
                hits += 1
                damage(state, unit, target, f)
        if WEAPONS[f.weapon].one_shot:
            _spend(unit, f.weapon)
    if hits and not he_pins:
        add_pins(state, target, 1, f"hit by {unit.name}")


def flame(state: BuildingsState, unit: Unit, target: Unit, f: Firer, hit: bool) -> None:
    """A flamethrower's attack: a hit is D6 hits (D6+1 from a vehicle's) at the top armour
    of a vehicle, and D3+1 pins; hit or miss, troops take a morale test and a building the
    target is in may catch fire."""
    section = target.section
    if hit:
        from_vehicle = f.weapon is WeaponName.VEHICLE_FLAMETHROWER
        hits = flame_hits(state.rng, from_vehicle)
        state.emit("flame-hits", {"unit": target.id, "roll": hits.to_dict()}, state.sides)
        for _ in range(hits.total):
            damage(state, unit, target, f)
        pins = flame_pins(state.rng)
        add_pins(state, target, pins.total, f"flamethrower of {unit.name}")
    if target.alive and target.vehicle is None:
        test = morale_test(state.rng, target.quality, target.pins)
        state.emit("morale-test", {"unit": target.id, "roll": test.roll.to_dict(),
                                   "passed": test.passed, "why": "flamethrower"}, state.sides)
        if not test.passed:
            destroy(state, target, "failed its morale test under a flamethrower")
    if section is not None and state.sight.section_state(section) is SectionState.INTACT:
        made = fire_roll(state.rng, state.battlefield.section(section).construction)
        if made is not None:
            state.emit("fire-roll", {"section": section, "roll": made.to_dict()},
                       state.sides)
            if made.success:
                set_alight(state, section)


def set_alight(state: BuildingsState, sid: str) -> None:
    """A burning section: impassable and blocking sight; its units get out at once by a
    ground-floor opening, within 3in of it and over 1in from enemies, each with a pin and
    Down (artillery inside, or a unit with no room, is destroyed)."""
    state.sight.set_section_state(sid, SectionState.BURNING)
    for fork in state.side_sight.values():
        fork.set_section_state(sid, SectionState.BURNING)
    state.emit("burning", {"section": sid}, state.sides)
    section = state.battlefield.section(sid)
    doors = ground_doors(section)
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if not unit.alive or unit.section != sid:
            continue
        unit.section, unit.floor = None, 0
        spots = _escape(state, unit, doors)
        if unit.kind is UnitKind.GUN or spots is None:
            destroy(state, unit, f"caught in the fire in {sid}")
            continue
        for m, (x, y) in zip(unit.models, spots, strict=False):
            m.x, m.y = x, y
        unit.order = OrderKind.DOWN
        state.emit("abandons", {"unit": unit.id, "section": sid}, watchers(state, unit))
        add_pins(state, unit, 1, f"fled the fire in {sid}")


def _escape(state: BuildingsState, unit: Unit,
            doors: list[tuple[float, float]]) -> list[tuple[float, float]] | None:
    from math import cos, pi, sin

    enemies = [(m.x, m.y) for e in state.side_units(state.enemy_of(unit.side))
               if e.section is None and e.aboard is None for m in e.models]
    table = state.battlefield.table
    for door in doors:
        found: list[tuple[float, float]] = []
        for ring in (0.5, 1.5, 2.5):
            for k in range(16):
                a = 2 * pi * k / 16
                p = (door[0] + ring * cos(a), door[1] + ring * sin(a))
                sid = state.sight.section_at(p)
                if sid is not None and state.sight.section_state(sid) is not \
                        SectionState.RUBBLE:
                    continue
                if not (0 <= p[0] <= table.width and 0 <= p[1] <= table.height):
                    continue
                if any(dist(p, q) <= 1.0 for q in enemies):
                    continue
                found.append(p)
                if len(found) == len(unit.models):
                    return found
    return None


def sides_used(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
               spent: frozenset[int]) -> frozenset[int]:
    """The sides spent once the unit has fired at the target: those given and the one it
    fires from (the seed: all fire from each side must be aimed at the same target)."""
    return spent | {f.wall for f in firers(state, unit, target, advanced, spent)
                    if f.wall is not None}


def he_only(state: BuildingsState, unit: Unit, target: Unit, advanced: bool,
            spent: frozenset[int] = frozenset()) -> bool:
    """Whether every weapon firing at the target fires HE at it (a target may then go Down
    after the hit, before the hits are rolled)."""
    found = firers(state, unit, target, advanced, spent)
    return bool(found) and target.vehicle is None and all(
        fires_he(f.weapon, target) for f in found)


def roll_he(state: BuildingsState, unit: Unit, target: Unit,
            advanced: bool, spent: frozenset[int] = frozenset()) -> list[WeaponName]:
    """The to-hit rolls of HE shots at troops: the weapons that hit."""
    found = firers(state, unit, target, advanced, spent)
    seen = enemy_sees(state, unit)
    tell(state, unit, seen, "fire", {"unit": unit.id, "target": target.id,
                                     "advanced": advanced,
                                     "weapons": [str(f.weapon) for f in found]})
    assign_opening(state, unit, found)
    hit: list[WeaponName] = []
    for f in found:
        shot = shot_of(state, unit, target, f, advanced)
        made = roll_hit_target(state.rng, hit_target(shot), hit_basis(shot))
        tell(state, unit, seen, "to-hit", {
            "unit": unit.id, "target": target.id, "weapon": str(f.weapon),
            "range": round(f.range, 2), "rolls": [r.to_dict() for r in made.rolls],
            "hit": made.hit})
        if made.hit:
            hit.append(f.weapon)
    return hit


def land_he(state: BuildingsState, target: Unit, weapons: list[WeaponName]) -> None:
    for weapon in weapons:
        if target.alive:
            he_hit(state, target, weapon)


def _spend(unit: Unit, weapon: WeaponName) -> None:
    for i, m in enumerate(unit.models):
        if m.weapon is weapon and i not in unit.spent:
            unit.spent.append(i)
            return


def damage(state: BuildingsState, unit: Unit, target: Unit, f: Firer) -> None:
    if target.destroyed:
        return
    hit, victim = hit_for(unit, target, f), victim_of(target, unit)
    made = roll_damage(state.rng, hit, victim)
    state.emit("damage", {"unit": target.id, "roll": made.to_dict()}, state.sides)
    if not made.success:
        return
    if target.vehicle is None:
        remove_models(state, target, 1, f"shot by {unit.name}")
        return
    chart, result = roll_chart(state.rng, state.options)
    state.emit("vehicle-damage", {"unit": target.id, "roll": chart.to_dict(),
                                  "result": str(result)}, state.sides)
    vehicle_result(state, target, result, superficial=False)


def behind_shield(target: Unit, firer: Unit) -> bool:
    """A gun's crew in the open is behind its shield from the gun's front 90 degrees."""
    if not target.shield or target.section is not None or not target.models:
        return False
    bearing = math.degrees(math.atan2(firer.lead.y - target.lead.y,
                                      firer.lead.x - target.lead.x))
    return abs((bearing - target.facing + 180.0) % 360.0 - 180.0) <= SHIELD_ARC + 1e-9


def he_hit(state: BuildingsState, target: Unit, weapon: WeaponName) -> None:
    """An HE hit on troops: inside a building the damage dice of the template (and
    collapse); in the open the models under the template. (On a vehicle it is one hit at
    the template's penetration: `damage`.)"""
    size = WEAPONS[weapon].he
    assert size is not None
    down = target.order is OrderKind.DOWN
    if target.section is not None:
        he_at_section(state, target.section, target.floor, size, down)
        return
    under = models_under(target, float(size))
    pins, rolls = he_in_open(state.rng, size, under, Target(target.quality), down)
    state.emit("he", {"unit": target.id, "template": size, "under": under,
                      "pins": pins.to_dict(), "damage": [r.to_dict() for r in rolls]},
               state.sides)
    remove_models(state, target, sum(1 for r in rolls if r.success), "HE")
    add_pins(state, target, pins.value, "HE")


def he_on_vehicle(state: BuildingsState, target: Unit, size: int, why: str) -> None:
    """HE from above (indirect fire, a strike, a barrage) on a vehicle: one hit at the
    template's penetration on its top armour, and a pin (the core: HE that hits an armoured
    vehicle is one hit at its penetration; indirect fire strikes the top armour)."""
    assert target.vehicle is not None
    hit = Hit(HE_TEMPLATES[size].pen, he=True, facing=Facing.TOP)
    made = roll_damage(state.rng, hit, Target(None, target.vehicle))
    state.emit("damage", {"unit": target.id, "roll": made.to_dict()}, state.sides)
    if made.success:
        chart, result = roll_chart(state.rng, state.options)
        state.emit("vehicle-damage", {"unit": target.id, "roll": chart.to_dict(),
                                      "result": str(result)}, state.sides)
        vehicle_result(state, target, result, superficial=False)
    if target.alive:
        add_pins(state, target, 1, why)


def models_under(target: Unit, radius: float) -> int:
    """The most models of the unit a template of this radius covers, centred on a model."""
    pts = [(m.x, m.y) for m in target.models]
    return max((sum(1 for q in pts if dist(p, q) <= radius + 1e-9) for p in pts), default=0)


def he_at_section(state: BuildingsState, section_id: str, floor: int, size: int,
                  down: bool) -> int:
    """One HE hit on a floor of a section; the hits rolled (before halving)."""
    section = state.battlefield.section(section_id)
    occupant = state.occupant(section_id, floor)
    victim = None if occupant is None else Target(occupant.quality, inside=True)
    done = he_in_building(state.rng, size, section.construction, victim, down)
    state.emit("he-in-building", {
        "section": section_id, "floor": floor, "template": size,
        "unit": None if occupant is None else occupant.id,
        "hits": done.hits_roll.to_dict(), "collapsed": done.collapsed,
        "pins": None if done.pins is None else done.pins.to_dict(),
        "damage": [r.to_dict() for r in done.damage]}, state.sides)
    if done.collapsed:
        collapse(state, section_id)
        return done.hits_roll.value
    if occupant is not None:
        remove_models(state, occupant, done.casualties, "HE in the building")
        if done.pins is not None:
            add_pins(state, occupant, done.pins.value, "HE in the building")
    return done.hits_roll.value


def collapse(state: BuildingsState, section_id: str) -> None:
    """The section becomes rubble on every fork of the game; everyone inside is destroyed."""
    state.sight.set_section_state(section_id, SectionState.RUBBLE)
    for fork in state.side_sight.values():
        fork.set_section_state(section_id, SectionState.RUBBLE)
    state.emit("collapse", {"section": section_id}, state.sides)
    for unit in list(state.units.values()):
        if unit.alive and unit.section == section_id:
            destroy(state, unit, f"buried when {section_id} collapsed")
            unit.section, unit.floor = None, 0


def hit_for(unit: Unit, target: Unit, f: Firer) -> Hit:
    """The hit a firer's shot makes on the target, as far as damage goes: its facing (a
    flamethrower strikes the top) and plunging fire."""
    armoured = target.vehicle in ARMOURED
    facing = Facing.TOP if WEAPONS[f.weapon].flame else facing_of(
        (target.lead.x, target.lead.y), target.facing, (unit.lead.x, unit.lead.y))
    return hit_of(f.weapon, f.range, facing, plunging(f.weapon, f.floor, f.range, armoured))


def victim_of(target: Unit, firer: Unit) -> Target:
    """What the firer's hits strike: the vehicle, or troops (inside, behind a shield)."""
    if target.vehicle is not None:
        return Target(None, target.vehicle)
    return Target(target.quality, inside=target.section is not None,
                  behind_shield=behind_shield(target, firer))


def section_firers(state: BuildingsState, unit: Unit, sid: str) -> list[Firer]:
    """The HE and flame weapons of the unit that reach a wall of the section it sees."""
    marks = outside_marks(state.battlefield.section(sid))
    # guns and vehicles fire from their first model, as at units
    mine = places(state, unit) if unit.kind is UnitKind.INFANTRY or unit.section else [
        unit.pos]
    seen = [(dist(p.point, m.point), p) for p in mine for m in marks
            if state.sight.visible(p, m)]
    if not seen:
        return []
    near = min(d for d, _ in seen)
    arms = [w for w in weapons_of(unit, advanced=False)
            if WEAPONS[w].he is not None or WEAPONS[w].flame]
    return [Firer(w, near, unit.floor) for w in arms if near <= WEAPONS[w].range]


def resolve_section(state: BuildingsState, unit: Unit, sid: str, floor: int) -> None:
    """HE or a flamethrower at a section the firer sees no unit in: 3+ with the firer's own
    modifiers; an HE hit rolls its hits on the floor (toward collapse, and on any unit
    there after all); a flamethrower takes its fire roll, hit or miss."""
    found = section_firers(state, unit, sid)
    seen = enemy_sees(state, unit)
    tell(state, unit, seen, "fire-at-building", {
        "unit": unit.id, "section": sid, "floor": floor,
        "weapons": [str(f.weapon) for f in found]})
    section = state.battlefield.section(sid)
    for f in found:
        if state.sight.section_state(sid) is not SectionState.INTACT:
            break
        shot = Shot(f.weapon, f.range, unit.quality, unit.pins,
                    one_crew=one_crew(unit), he_at_building=True)
        made = roll_hit_target(state.rng, hit_target(shot), hit_basis(shot))
        tell(state, unit, seen, "to-hit", {
            "unit": unit.id, "section": sid, "weapon": str(f.weapon),
            "range": round(f.range, 2), "rolls": [r.to_dict() for r in made.rolls],
            "hit": made.hit})
        arms = WEAPONS[f.weapon]
        if arms.flame:
            fired = fire_roll(state.rng, section.construction)
            if fired is not None:
                state.emit("fire-roll", {"section": sid, "roll": fired.to_dict()},
                           state.sides)
                if fired.success:
                    set_alight(state, sid)
        elif made.hit and arms.he is not None:
            there = state.occupant(sid, floor)
            he_at_section(state, sid, floor, arms.he,
                          down=there is not None and there.order is OrderKind.DOWN)
