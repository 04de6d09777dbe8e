"""The street-fighter rule set's events in plain words (see fibua.session.narration).

Each sentence says only what the event's own data holds: units by the name the listening
side knows them by, building areas by their id in words (the event names no area), sides
and formations as the data spells them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fibua.core.values import is_number
from fibua.session.narration import (
    Data,
    Names,
    Phrase,
    Phrasebook,
    join,
    number,
    plural,
    register_phrasebook,
    side_noun,
    words,
)

# -- words for the rule set's values -------------------------------------------------------

WEAPON = {
    "tank": "main gun",
    "infantry": "small arms",
    "mmg": "machine gun",
    "direct-mortar": "mortar",
    "sniper": "rifle",
    "rocket": "anti-tank rocket",
}
COVER = {
    "open": "in the open",
    "building": "in a building",
    "strong-building": "in a strong building",
    "armoured-halftrack": "in an armoured halftrack",
    "lorry": "in a lorry",
}
KIND = {
    "infantry-section": "an infantry section",
    "hq-section": "an HQ section",
    "mmg-section": "an MMG section",
    "mortar-section": "a mortar section",
    "sniper": "a sniper",
    "sherman": "a Sherman",
    "sherman-firefly": "a Sherman Firefly",
    "t34": "a T34",
    "assault-gun": "an assault gun",
    "at-gun": "an anti-tank gun",
    "m3-halftrack": "an M3 halftrack",
    "bren-carrier": "a Bren carrier",
    "lorry": "a lorry",
}
DOING = {
    "moved": "moving",
    "moved-and-fired": "moving and firing",
    "fired": "firing",
    "assaulted": "assaulting",
    "mounted-or-dismounted": "getting in or out of a vehicle",
    "observing": "watching",
    "flat-out": "moving flat out",
}
COMPASS = {
    "N": "the north", "NE": "the north-east", "E": "the east", "SE": "the south-east",
    "S": "the south", "SW": "the south-west", "W": "the west", "NW": "the north-west",
}
DRIFT_WAY = ("north", "north-east", "east", "south-east", "south", "south-west", "west",
             "north-west")  # the drift d8: 1 is north, then clockwise
LOST_HOW = {"destroyed": "is destroyed", "knocked out": "is knocked out",
            "surrendered": "surrenders"}


def side(value: Any) -> str:
    """`the British`, from the side's id."""
    return f"the {side_noun(value)}" if value else "a side"


def area(value: Any) -> str:
    """A building area, from its id: `hall-west` -> `Hall West`."""
    return words(value).title() if value else "a building area"


def lead(name: str) -> str:
    """A name to open a sentence with: `the 2nd Tank Platoon` rather than a sentence that
    starts with a figure."""
    return name if name[:1].isalpha() else f"the {name}"


def unit_name(data: Data, names: Names) -> str:
    """The event's own name for its unit when it gives one, else the side's."""
    given = data.get("name")
    return str(given) if given else names.of(data.get("unit", "a unit"))


def tenths(value: Any) -> Any:
    """A length to the tenth of a centimetre: what a tape measure at the table reads."""
    return round(value, 1) if isinstance(value, float) else value


def spot(value: Any) -> str:
    """`45, 60.5` from a point `[x, y]`."""
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        return f"{number(tenths(value[0]))}, {number(tenths(value[1]))}"
    return "an unknown point"


def length(names: Names, value: Any) -> str:
    return names.length(tenths(value))


def formation(data: Data, names: Names, prefix: str) -> str:
    """A formation's name. The data gives its id only, but its die roll's purpose (written
    `<prefix><name>` by the rule set) holds the name the table uses."""
    ident = data.get("formation", "a formation")
    if str(ident) in names.by_id:
        return names.of(ident)
    roll = data.get("roll")
    purpose = str(roll.get("purpose", "")) if isinstance(roll, Mapping) else ""
    if purpose.startswith(prefix) and len(purpose) > len(prefix):
        return purpose[len(prefix):]
    return words(ident)


def succeeded(data: Data) -> bool | None:
    roll = data.get("roll")
    return roll.get("success") if isinstance(roll, Mapping) else None


# -- the turn ------------------------------------------------------------------------------


def turn(data: Data, names: Names) -> str:
    return f"Turn {number(data.get('turn', '?'))} begins"


def orders(data: Data, names: Names) -> str:
    return f"{side(data.get('side'))} give their orders"


def observation_die(data: Data, names: Names) -> str:
    return (f"Control rolls the observation die of {formation(data, names, 'observation: ')} "
            "for this turn, and keeps it secret")


def deployed(data: Data, names: Names) -> str:
    units = [u for u in data.get("units", ()) or () if isinstance(u, Mapping)]
    called = {str(u.get("unit")): str(u.get("name") or names.of(u.get("unit"))) for u in units}

    def told(u: Mapping[str, Any]) -> str:
        rides = u.get("rides")
        riding = f" riding in {called.get(str(rides), names.of(rides))}" if rides else ""
        return called[str(u.get("unit"))] + riding

    listed = join([told(u) for u in units])
    return f"{side(data.get('side'))} deploy {plural(len(units), 'unit')}: {listed}"


def deployment_picked(data: Data, names: Names) -> str:
    return (f"Control places {names.of(data.get('unit'))} at {spot(data.get('at'))}, "
            f"choice {number(data.get('choice', '?'))} of its "
            f"{number(data.get('of', '?'))} possible places")


def game_over(data: Data, names: Names) -> str:
    winner = data.get("winner")
    outcome = f"{side(winner)} win" if winner else "a draw"
    reason = str(data.get("reason") or "").replace(":", ",")
    scores = data.get("scores")
    told = ""
    if isinstance(scores, Mapping) and scores:
        told = "; " + join([f"{words(s).title()} {plural(p, 'point')}"
                            for s, p in scores.items()])
    return f"Game over{', ' + reason if reason else ''}: {outcome}{told}"


# -- orders carried out --------------------------------------------------------------------


def moved(data: Data, names: Names) -> str:
    activity = data.get("activity")
    how = {"flat-out": " flat out", "moved-and-fired": ", half a move, to fire"}.get(
        str(activity), "")
    into = f" into {area(data['section'])}" if data.get("section") else ""
    return f"{lead(names.of(data.get('unit')))} moves {length(names, data.get('cm'))}{how}{into}"


def observing(data: Data, names: Names) -> str:
    return f"{lead(names.of(data.get('unit')))} stays put and watches until its next action"


def mounted(data: Data, names: Names) -> str:
    return f"{lead(names.of(data.get('unit')))} climbs into {names.of(data.get('vehicle'))}"


def dismounted(data: Data, names: Names) -> str:
    return f"{lead(names.of(data.get('unit')))} gets out of its vehicle at {spot(data.get('at'))}"


def fire_called(data: Data, names: Names) -> str:
    what = "calls down artillery" if data.get("artillery") else "fires its mortar"
    return f"{lead(names.of(data.get('unit')))} {what} on the point {spot(data.get('point'))}"


# -- fire ----------------------------------------------------------------------------------


def weapon(data: Data) -> str:
    row = str(data.get("row"))
    return WEAPON.get(row, words(row))


def shot(data: Data, names: Names) -> str:
    where = [length(names, data["range"])] if is_number(data.get("range")) else []
    if data.get("cover") in COVER:
        where.append(COVER[str(data["cover"])])
    told = f" ({', '.join(where)})" if where else ""
    outcome = "a hit" if data.get("hit") else "a miss"
    return (f"{lead(names.of(data.get('firer')))} fires its {weapon(data)} at "
            f"{names.of(data.get('target'))}{told}: {outcome}")


def no_effect(data: Data, names: Names) -> str:
    return (f"{lead(names.of(data.get('firer')))} fires its {weapon(data)} at "
            f"{names.of(data.get('target'))}, to no effect")


def fired_on(data: Data, names: Names) -> str:
    hits = data.get("hits")
    took = plural(hits, "hit") if is_number(hits) and hits else "no hits"
    whence = COMPASS.get(str(data.get("direction")), "somewhere unseen")
    return f"{lead(names.of(data.get('unit')))} is fired on from {whence}: {took}"


def fire_lost(data: Data, names: Names) -> str:
    return f"The fire called by {names.of(data.get('by'))} goes astray and is lost"


def fire_lands(data: Data, names: Names) -> str:
    drift = data.get("drift")
    way = drift.get("total") if isinstance(drift, Mapping) else None
    if isinstance(way, int) and 1 <= way <= len(DRIFT_WAY):
        how = f"drifts {DRIFT_WAY[way - 1]} and lands"
    else:
        how = "drifts and lands" if drift else "lands on target"
    return f"The fire called by {names.of(data.get('by'))} {how} at {spot(data.get('point'))}"


def bombarded(data: Data, names: Names) -> str:
    outcome = "a hit" if succeeded(data) else "a miss"
    return f"Indirect fire falls on {names.of(data.get('unit'))}: {outcome}"


def bombard_result(data: Data, names: Names) -> str:
    verb = "hits" if data.get("hit") else "misses"
    return f"The bombardment {verb} {names.of(data.get('unit'))}"


# -- what hits do --------------------------------------------------------------------------


def pinned(data: Data, names: Names) -> str:
    return f"{lead(names.of(data.get('unit')))} is pinned{' again' if data.get('again') else ''}"


def bailed_out(data: Data, names: Names) -> str:
    hits = data.get("hits")
    took = f", taking {plural(hits, 'hit')}" if is_number(hits) and hits else ""
    return f"{lead(names.of(data.get('unit')))} bails out of its knocked-out vehicle{took}"


def unit_lost(data: Data, names: Names) -> str:
    how = LOST_HOW.get(str(data.get("how")), "is out of the fight")
    return f"{lead(unit_name(data, names))} {how}"


def enemy_out(data: Data, names: Names) -> str:
    how = LOST_HOW.get(str(data.get("how")), "is out of the fight")
    return f"The enemy's {unit_name(data, names)} {how}"


# -- what a side sees ----------------------------------------------------------------------


def enemy_seen(data: Data, names: Names) -> str:
    kind = KIND.get(str(data.get("kind")))
    what = f", {kind}," if kind else ""
    where = (f" in {area(data['section'])}" if data.get("section")
             else f" at {spot([data['x'], data['y']])}" if "x" in data and "y" in data else "")
    doing = DOING.get(str(data.get("activity")))
    return f"Enemy seen: {unit_name(data, names)}{what}{where}{', ' + doing if doing else ''}"


def enemy_lost(data: Data, names: Names) -> str:
    last = (f"; last seen at {spot([data['last_x'], data['last_y']])}"
            if "last_x" in data and "last_y" in data else "")
    return f"{lead(unit_name(data, names))} is lost from sight{last}"


# -- morale --------------------------------------------------------------------------------


def morale(data: Data, names: Names) -> str:
    left, start = data.get("hit_points"), data.get("start")
    down = (f", down to {number(left)} of its {number(start)} hit points,"
            if is_number(left) and is_number(start) else "")
    outcome = "it is demoralised" if data.get("demoralised") else "it holds"
    return f"{lead(formation(data, names, 'morale of '))}{down} tests its morale: {outcome}"


def retreated(data: Data, names: Names) -> str:
    cm = data.get("cm")
    who = lead(names.of(data.get("unit")))
    if isinstance(cm, int | float) and cm > 0:
        return f"{who}, demoralised, falls back {length(names, cm)} to {spot(data.get('to'))}"
    return f"{who} is demoralised but finds no way to fall back"


def unpin(data: Data, names: Names) -> str:
    who = lead(names.of(data.get("unit")))
    return f"{who} rallies: no longer pinned" if data.get("unpinned") else f"{who} stays pinned"


# -- close assault -------------------------------------------------------------------------


def assault(data: Data, names: Names) -> str:
    held = "it is defended" if data.get("defended") else "nobody is inside"
    return (f"{side(data.get('side'))} close assault {area(data.get('section'))} with "
            f"{names.all(data.get('units', ()) or ())}: {held}")


def assault_roll(data: Data, names: Names) -> str:
    points = data.get("points")
    strength = f" with {plural(points, 'assault point')}" if is_number(points) else ""
    outcome = "they score a hit" if succeeded(data) else "no hit"
    return f"{side(data.get('side'))} fight hand to hand{strength}: {outcome}"


def assault_stopped(data: Data, names: Names) -> str:
    return f"The assault on {area(data.get('section'))} is stopped before it goes in"


def cleared(data: Data, names: Names) -> str:
    units = data.get("units", ()) or ()
    verb = "occupies" if len(units) == 1 else "occupy"
    held = f"; {names.all(units)} {verb} it" if units else "; nobody is left to occupy it"
    return f"{lead(area(data.get('section')))} is cleared{held}"


PHRASES: dict[str, Phrase] = {
    "turn": turn,
    "orders": orders,
    "observation-die": observation_die,
    "deployed": deployed,
    "deployment-picked": deployment_picked,
    "game-over": game_over,
    "moved": moved,
    "observing": observing,
    "mounted": mounted,
    "dismounted": dismounted,
    "fire-called": fire_called,
    "shot": shot,
    "no-effect": no_effect,
    "fired-on": fired_on,
    "fire-lost": fire_lost,
    "fire-lands": fire_lands,
    "bombarded": bombarded,
    "bombard-result": bombard_result,
    "pinned": pinned,
    "bailed-out": bailed_out,
    "unit-lost": unit_lost,
    "enemy-out": enemy_out,
    "enemy-seen": enemy_seen,
    "enemy-lost": enemy_lost,
    "morale": morale,
    "retreated": retreated,
    "unpin": unpin,
    "assault": assault,
    "assault-roll": assault_roll,
    "assault-stopped": assault_stopped,
    "cleared": cleared,
}

BOOK = register_phrasebook(Phrasebook("street-fighter", "cm", PHRASES))
