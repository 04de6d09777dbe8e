"""The buildings rule set's events in plain words (see fibua.session.narration).

Units are named from the side's view; a section of a building is known to the events only
by its id, so it is told as words from that id ("maison-huet" -> "Maison Huet"). The dice
follow each sentence (the framework tells them), so a sentence says the outcome only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from fibua.core.values import is_number
from fibua.rulesets.buildings.tables import WEAPONS, WeaponName
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

# -- words of this rule set ----------------------------------------------------------------

#: words of a place's name that stay small inside it ("Cafe du Centre")
_SMALL = frozenset({"du", "de", "des", "la", "le", "les", "of", "the", "and", "am", "an"})
_ORDINALS = ("ground", "first", "second", "third", "fourth", "fifth")
_VOWEL = re.compile(r"^[aeioAEIO]")
#: an acronym read letter by letter whose first letter sounds a vowel: an LMG, an HE shell
_ACRONYM_VOWEL = re.compile(r"^[FHLMNRSX][A-Z]")


def unit_name(names: Names, ident: Any) -> str:
    """A unit by name; an event without one says `a unit` rather than `None`."""
    return "a unit" if ident is None or ident == "" else names.of(ident)


def of(names: Names, data: Data, key: str = "unit") -> str:
    """The unit an event names under `key`."""
    return unit_name(names, data.get(key))


def section_name(ident: Any, names: Names) -> str:
    """A section as words: its name if the side's names know it, else its id spelled out
    (each word capitalised, short particles small, a vowelless word such as "mg" in
    capitals)."""
    if ident is None:
        return "a building"
    text = str(ident)
    if text in names.places:
        return names.places[text]
    if text in names.by_id:
        return names.of(text)
    parts = words(text).split()
    return " ".join(_place_word(w, i) for i, w in enumerate(parts)) or "a building"


def _place_word(word: str, index: int) -> str:
    if not re.search(r"[aeiouy]", word):
        return word.upper()
    if index and word in _SMALL:
        return word
    return word[:1].upper() + word[1:]


def floor_name(floor: Any) -> str:
    """`ground floor`, `first floor`, ... (`floor 7` past the ordinals)."""
    n = int(floor) if is_number(floor) else 0
    return f"{_ORDINALS[n]} floor" if 0 <= n < len(_ORDINALS) else f"floor {number(floor)}"


def place(section: Any, floor: Any, names: Names) -> str:
    """`the first floor of Maison Huet`."""
    return f"the {floor_name(floor)} of {section_name(section, names)}"


def weapon_name(weapon: Any) -> str:
    """A weapon's title as it reads mid-sentence: `LMG`, `rifle`, `medium gun`."""
    try:
        title = WEAPONS[WeaponName(str(weapon))].title
    except ValueError:
        return words(str(weapon))
    first = title.split()[0]
    return title if first.isupper() else title[:1].lower() + title[1:]


def a(noun: str) -> str:
    """`a rifle`, `an LMG`, `an anti-tank rifle`."""
    vowel = _VOWEL.match(noun) or _ACRONYM_VOWEL.match(noun)
    return f"{'an' if vowel else 'a'} {noun}"


def weapons_list(weapons: Sequence[Any]) -> str:
    """`an LMG, an SMG and 4 rifles`, in the order the weapons first fire."""
    counts = Counter(str(w) for w in weapons)
    return join([a(weapon_name(w)) if n == 1 else plural(n, weapon_name(w))
                 for w, n in counts.items()])


def count(n: Any, word: str, many: str | None = None) -> str:
    """`no casualties`, `1 casualty`, `3 casualties`."""
    return f"no {many or word + 's'}" if is_number(n) and n == 0 else plural(n, word, many)


def total(roll: Any) -> Any:
    """What a recorded roll came to, modifiers and all."""
    if not isinstance(roll, Mapping):
        return 0
    return roll.get("total", roll.get("value", 0))


def successes(rolls: Any) -> int:
    return sum(1 for r in rolls or () if isinstance(r, Mapping) and r.get("success"))


def _lists(data: Data, key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


_WHY_SECTION = re.compile(r"^(buried when |fled the fire in )(\S+)( collapsed)?$")


def reason(why: Any, names: Names) -> str:
    """A reason the engine wrote, with a section id in it told as the section's name."""
    # the engine's "routed: pins reached ..." reads better after our own colon as a clause
    text = str(why).replace(": ", ", ")
    found = _WHY_SECTION.match(text)
    if found is None:
        return text
    head, sid, tail = found.groups()
    return f"{head}{section_name(sid, names)}{tail or ''}"


def refusal(why: Any, names: Names) -> str:
    """A refusal's reason as written for the order line, with the unit ids it may hold
    ("cannot see gruppe-stein") told by name."""
    text = str(why)
    if not names.by_id:
        return text
    idents = "|".join(re.escape(i) for i in sorted(names.by_id, key=len, reverse=True))
    # one pass, so a name put in is never read again as an id
    return re.sub(rf"(?<![\w-])(?:{idents})(?![\w-])", lambda m: names.of(m[0]), text)


# -- the turn and the bag -------------------------------------------------------------------


def deployed(data: Data, names: Names) -> str:
    units = [u for u in _lists(data, "units") if isinstance(u, Mapping)]
    told = [_deployed_unit(u, names) for u in units]
    head = f"{side_adjective(data.get('side', ''))} forces deploy"
    return f"{head}: " + "; ".join(told) if told else head


def _deployed_unit(unit: Mapping[str, Any], names: Names) -> str:
    name = str(unit.get("name") or names.of(unit.get("id")))
    text = f"{name}, {plural(unit.get('models', 0), 'model')}"
    if unit.get("section"):
        text += f" on {place(unit['section'], unit.get('floor', 0), names)}"
    return text


def _bag(bag: Any) -> str:
    """`7 British and 5 German`."""
    if not isinstance(bag, Mapping):
        return ""
    return join([f"{number(n)} {side_adjective(s)}" for s, n in bag.items()])


def turn(data: Data, names: Names) -> str:
    bag = _bag(data.get("bag"))
    text = f"Turn {number(data.get('turn', '?'))} begins"
    return f"{text}: {bag} order dice go into the bag" if bag else text


def order_die(data: Data, names: Names) -> str:
    left = data.get("left")
    text = f"Order die drawn: {side_adjective(data.get('side'))}"
    if isinstance(left, Mapping) and not any(left.values()):
        return f"{text}. The bag is now empty"
    return f"{text}. Left in the bag: {_bag(left)}" if left else text


def extra_turn(data: Data, names: Names) -> str:
    if data.get("played"):
        return "The roll for one more turn is made: the game goes on for another turn"
    return "The roll for one more turn fails: no extra turn is played"


def kept_down(data: Data, names: Names) -> str:
    return (f"{of(names, data)} stayed Down all turn and shakes off pins: "
            f"{count(data.get('pins', 0), 'pin')} left")


def turn_end(data: Data, names: Names) -> str:
    return f"End of turn {number(data.get('turn', '?'))}"


def game_over(data: Data, names: Names) -> str:
    winner = data.get("winner")
    scores = data.get("scores")
    text = f"Game over: the {side_noun(winner)} win" if winner else "Game over: a draw"
    why = data.get("reason")
    if why:
        text += f" ({_sides_named(str(why), scores)})"
    if isinstance(scores, Mapping) and scores:
        text += ". Objective points: " + join(
            [f"{side_noun(s)} {number(v)}" for s, v in scores.items()])
    return text


def _sides_named(text: str, scores: Any) -> str:
    """The engine's reason with the sides' ids as their names."""
    for side in scores if isinstance(scores, Mapping) else ():
        text = re.sub(rf"\b{re.escape(str(side))}\b", side_noun(side), text)
    return text


# -- orders ----------------------------------------------------------------------------------


def order(data: Data, names: Names) -> str:
    who = str(data.get("name") or of(names, data))
    kind = side_noun(data.get("order", "?"))
    return f"{who} is given {a(kind)} order"


_DOWN_WHY = {"failed its order test": "it failed its order test",
             "crew shaken": "its crew is shaken"}


def down_instead(data: Data, names: Names) -> str:
    why = data.get("why")
    text = f"{of(names, data)} goes Down instead"
    return f"{text}: {_DOWN_WHY.get(str(why), str(why))}" if why else text


def order_test(data: Data, names: Names) -> str:
    who = of(names, data)
    if data.get("blunder"):
        return f"{who} blunders its order test with a double six"
    return f"{who} {'passes' if data.get('passed') else 'fails'} its order test"


def rally(data: Data, names: Names) -> str:
    return (f"{of(names, data)} rallies: "
            f"{count(data.get('pins', 0), 'pin')} left")


def holds(data: Data, names: Names) -> str:
    return f"{of(names, data)} holds where it is"


def reaction_down(data: Data, names: Names) -> str:
    return f"{of(names, data)} goes Down as the shot comes in"


# -- movement --------------------------------------------------------------------------------


def moved(data: Data, names: Names) -> str:
    text = f"{of(names, data)} moves"
    length = data.get("length", 0)
    # a move between floors or sections is measured as no length on the table
    if length:
        text += f" {names.length(length)}"
    if not data.get("section"):
        return f"{text} in the open"
    where = place(data["section"], data.get("floor", 0), names)
    return f"{text}, to {where}" if length else f"{text} to {where}"


def bumped(data: Data, names: Names) -> str:
    return (f"{of(names, data)} finds "
            f"{place(data.get('section'), data.get('floor', 0), names)} held and stays put")


def assigned(data: Data, names: Names) -> str:
    return (f"{of(names, data)} sets its weapon in opening "
            f"{number(data.get('opening', '?'))} of its floor")


def bail_out(data: Data, names: Names) -> str:
    return f"{of(names, data)} bails out of {of(names, data, 'from')}"


def regrouped(data: Data, names: Names) -> str:
    return f"{of(names, data)} regroups after the fight"


def no_regroup(data: Data, names: Names) -> str:
    why = data.get("why")
    text = f"{of(names, data)} cannot regroup there and stays"
    return f"{text}: {refusal(why, names)}" if why else text


def takes_floor(data: Data, names: Names) -> str:
    return (f"{of(names, data)} takes "
            f"{place(data.get('section'), data.get('floor', 0), names)}")


# -- shooting --------------------------------------------------------------------------------


def shot_at(data: Data, names: Names) -> str:
    who, by = of(names, data), of(names, data, 'by')
    if data.get("hit"):
        return f"Fire from {by} lands on {who}"
    return f"{by} opens fire on {who}"


def fire(data: Data, names: Names) -> str:
    arms = weapons_list(_lists(data, "weapons"))
    moving = " on the move" if data.get("advanced") else ""
    text = f"{of(names, data)} fires{moving} at {of(names, data, 'target')}"
    return f"{text} with {arms}" if arms else f"{text}, but no weapon of it can reach"


def fire_at_building(data: Data, names: Names) -> str:
    arms = weapons_list(_lists(data, "weapons"))
    where = place(data.get("section"), data.get("floor", 0), names)
    text = f"{of(names, data)} fires at {where}"
    return f"{text} with {arms}" if arms else f"{text}, but no weapon of it can reach"


def to_hit(data: Data, names: Names) -> str:
    target = (names.of(data["target"]) if data.get("target") is not None
              else section_name(data.get("section"), names))
    arm = a(weapon_name(data.get("weapon", "?")))
    # no roll at all: the number needed was past what two dice can make
    outcome = ("no chance of a hit" if not _lists(data, "rolls")
               else "a hit" if data.get("hit") else "a miss")
    return (f"{of(names, data)} fires {arm} at {target} from "
            f"{names.length(data.get('range'))}: {outcome}")


def damage(data: Data, names: Names) -> str:
    roll = data.get("roll")
    made = isinstance(roll, Mapping) and roll.get("success")
    return f"The hit on {of(names, data)} {'does damage' if made else 'does no harm'}"


_VEHICLE = {"knocked-out": "is knocked out", "immobilised": "is immobilised",
            "crew-shaken": "is hit and its crew is shaken", "none": "is hit but fights on"}


def vehicle_damage(data: Data, names: Names) -> str:
    result = str(data.get("result", "none"))
    return f"{of(names, data)} {_VEHICLE.get(result, words(result))}"


def no_shot(data: Data, names: Names) -> str:
    text = f"{of(names, data)} has no shot at {of(names, data, 'target')}"
    return f"{text}: {refusal(data['why'], names)}" if data.get("why") else text


def leaps_out(data: Data, names: Names) -> str:
    """`Gruppe Falk leaps out of its building at (34, 15), in the open as it charges.`"""
    at = data.get("at")
    where = (f" at ({number(at[0])}, {number(at[1])})"
             if isinstance(at, list) and len(at) == 2 else "")
    return f"{of(names, data)} leaps out of its building{where}, in the open as it charges"


def ambush(data: Data, names: Names) -> str:
    return (f"{of(names, data)} springs its ambush on "
            f"{of(names, data, 'target')}")


def reaction_fire(data: Data, names: Names) -> str:
    return (f"{of(names, data)} fires first at "
            f"{of(names, data, 'target')} as it comes on")


# -- flame and fire --------------------------------------------------------------------------


def flame_hits(data: Data, names: Names) -> str:
    return (f"The flames engulf {of(names, data)}: "
            f"{plural(total(data.get('roll')), 'hit')}")


def fire_roll(data: Data, names: Names) -> str:
    roll = data.get("roll")
    caught = isinstance(roll, Mapping) and roll.get("success")
    where = section_name(data.get("section"), names)
    return f"{where} catches fire" if caught else f"{where} does not catch fire"


def burning(data: Data, names: Names) -> str:
    return f"{section_name(data.get('section'), names)} is ablaze"


def abandons(data: Data, names: Names) -> str:
    return (f"{of(names, data)} escapes the fire in "
            f"{section_name(data.get('section'), names)} and goes Down outside")


# -- losses and morale -----------------------------------------------------------------------


def casualties(data: Data, names: Names) -> str:
    why = f" ({reason(data['why'], names)})" if data.get("why") else ""
    return (f"{of(names, data)} loses {plural(data.get('lost', 0), 'model')}"
            f"{why}: {number(data.get('left', 0))} left")


def destroyed(data: Data, names: Names) -> str:
    who = str(data.get("name") or of(names, data))
    why = data.get("why")
    return f"{who} is destroyed: {reason(why, names)}" if why else f"{who} is destroyed"


def pins(data: Data, names: Names) -> str:
    why = f" ({reason(data['why'], names)})" if data.get("why") else ""
    return (f"{of(names, data)} takes {plural(data.get('added', 0), 'pin')}{why}: "
            f"{number(data.get('pins', 0))} in all")


def rout(data: Data, names: Names) -> str:
    return (f"{of(names, data)} routs with "
            f"{plural(data.get('pins', 0), 'pin')} on it")


def morale_test(data: Data, names: Names) -> str:
    who = of(names, data)
    when = " under the flamethrower" if data.get("why") == "flamethrower" else \
        " at half strength" if not data.get("why") else f" ({data['why']})"
    outcome = "passes and fights on" if data.get("passed") else "fails"
    return f"{who} takes a morale test{when}: it {outcome}"


# -- HE, collapse, indirect fire -------------------------------------------------------------


def he(data: Data, names: Names) -> str:
    killed = successes(_lists(data, "damage"))
    return (f"A {names.length(data.get('template'))} HE template falls on "
            f"{of(names, data)}, over "
            f"{plural(data.get('under', 0), 'model')}: "
            f"{count(killed, 'casualty', 'casualties')} and "
            f"{count(total(data.get('pins')), 'pin')}")


def he_in_building(data: Data, names: Names) -> str:
    where = place(data.get("section"), data.get("floor", 0), names)
    hits = count(total(data.get("hits")), "hit")
    text = f"HE bursts on {where}: {hits}"
    if data.get("collapsed"):
        return f"{text}, and the building collapses"
    if data.get("unit") is None:
        return f"{text}, with no unit there"
    killed = successes(_lists(data, "damage"))
    return (f"{text} on {names.of(data['unit'])}, "
            f"{count(killed, 'casualty', 'casualties')} and "
            f"{count(total(data.get('pins')), 'pin')}")


def collapse(data: Data, names: Names) -> str:
    return f"{section_name(data.get('section'), names)} collapses into rubble"


def indirect_fire(data: Data, names: Names) -> str:
    roll = data.get("roll")
    made = isinstance(roll, Mapping) and roll.get("success")
    return (f"{of(names, data)} drops {a(weapon_name(data.get('weapon', '?')))} "
            f"round on {of(names, data, 'target')}: "
            f"{'on target' if made else 'off target'}")


def burst(data: Data, names: Names) -> str:
    return f"The shell bursts on {place(data.get('section'), data.get('floor', 0), names)}"


def called(data: Data, names: Names) -> str:
    what = "an air strike" if data.get("kind") == "air" else "a barrage"
    if data.get("target"):
        on = names.of(data["target"])
    elif data.get("section"):
        on = section_name(data["section"], names)
    else:
        on = "a point on the table"
    return (f"{of(names, data, 'by')} calls {what} on {on}, "
            f"to arrive at the start of next turn")


_STRIKE = {"strikes": "comes in on its target",
           "strikes-friends": "hits friendly troops instead",
           "does-not-come": "does not come"}


def air_strike(data: Data, names: Names) -> str:
    result = str(data.get("result", ""))
    return (f"The air strike called by {of(names, data, 'by')} "
            f"{_STRIKE.get(result, words(result) or 'comes in')}")


def barrage(data: Data, names: Names) -> str:
    return f"The barrage called by {of(names, data, 'by')} comes down"


_BARRAGE = {"nothing": "falls harmlessly around {}", "pins": "pins {}",
            "heavy-hit": "lands a heavy shell on {}"}


def barrage_roll(data: Data, names: Names) -> str:
    result = str(data.get("result", ""))
    told = _BARRAGE.get(result, "falls on {}")
    return "The barrage " + told.format(of(names, data))


def barrage_on_building(data: Data, names: Names) -> str:
    where = section_name(data.get("section"), names)
    hits = data.get("hits")
    if not isinstance(hits, Mapping):
        return f"The barrage falls on {where} without harm"
    return f"A heavy shell of the barrage hits {where}: {plural(total(hits), 'hit')}"


# -- assaults --------------------------------------------------------------------------------


def assault(data: Data, names: Names) -> str:
    return (f"{of(names, data)} assaults {of(names, data, 'target')} "
            f"from {names.length(data.get('distance'))}")


def assault_round(data: Data, names: Names) -> str:
    unit, target = of(names, data), of(names, data, 'target')
    first = successes(_lists(data, "attacks"))
    back = successes(_lists(data, "back"))
    return (f"Assault, round {number(data.get('round', 1))}: {unit} causes "
            f"{count(first, 'casualty', 'casualties')}, {target} "
            f"{count(back, 'casualty', 'casualties')} back")


def passengers_fight(data: Data, names: Names) -> str:
    return (f"{of(names, data)}, out of {of(names, data, 'from')}, "
            f"fights {of(names, data, 'assaulter')}")


def close_assault(data: Data, names: Names) -> str:
    who = of(names, data)
    hit, harm = data.get("hit"), data.get("damage")
    if not (isinstance(hit, Mapping) and hit.get("success")):
        return f"An attack on {who} misses"
    if isinstance(harm, Mapping) and harm.get("success"):
        return f"An attack on {who} hits and knocks it out"
    return f"An attack on {who} hits but does no harm"


def tank_assault(data: Data, names: Names) -> str:
    return (f"{of(names, data)} drives into "
            f"{section_name(data.get('section'), names)}")


_TANK = {"tank-wins": "the building comes down and the tank is unharmed",
         "both": "the building comes down and the tank is shaken up",
         "building-holds": "the building holds"}


def tank_assault_roll(data: Data, names: Names) -> str:
    tank, where = of(names, data), section_name(data.get("section"), names)
    outcome = str(data.get("outcome", ""))
    result = _TANK.get(outcome, words(outcome) or "no result")
    text = (f"{tank} against {where}: {number(total(data.get('tank')))} to "
            f"{number(total(data.get('building')))}, {result}")
    harm = data.get("damage")
    return text + _tank_harm(harm) if isinstance(harm, Mapping) else text


def _tank_harm(harm: Mapping[str, Any]) -> str:
    """The tank's damage: its die is nested in the event, where the dice lines do not
    reach, so the sentence says it."""
    roll = harm.get("roll")
    faces = roll.get("faces", []) if isinstance(roll, Mapping) else []
    die = f" (a {number(faces[0])} on the damage die)" if faces else ""
    result = str(harm.get("result", "none"))
    return f"; the tank takes damage{die} and {_VEHICLE.get(result, words(result))}"


def _opening(phrase: Phrase) -> Phrase:
    """A sentence that would open on a figure ("3rd Squad fires ...") opens on "The": a
    line a player reads starts with a capital."""

    def told(data: Data, names: Names) -> str:
        text = phrase(data, names)
        return f"The {text}" if text[:1].isdigit() else text

    return told


PHRASES: dict[str, Phrase] = {k: _opening(p) for k, p in {
    "abandons": abandons, "air-strike": air_strike, "ambush": ambush, "leaps-out": leaps_out,
    "assault": assault, "assault-round": assault_round, "assigned": assigned,
    "bail-out": bail_out, "barrage": barrage, "barrage-on-building": barrage_on_building,
    "barrage-roll": barrage_roll, "bumped": bumped, "burning": burning, "burst": burst,
    "called": called, "casualties": casualties, "close-assault": close_assault,
    "collapse": collapse, "damage": damage, "deployed": deployed, "destroyed": destroyed,
    "down-instead": down_instead, "extra-turn": extra_turn, "fire": fire,
    "fire-at-building": fire_at_building, "fire-roll": fire_roll, "flame-hits": flame_hits,
    "game-over": game_over, "he": he, "he-in-building": he_in_building, "holds": holds,
    "indirect-fire": indirect_fire, "kept-down": kept_down, "morale-test": morale_test,
    "moved": moved, "no-regroup": no_regroup, "no-shot": no_shot, "order": order,
    "order-die": order_die, "order-test": order_test,
    "passengers-fight": passengers_fight, "pins": pins, "rally": rally,
    "reaction-down": reaction_down, "reaction-fire": reaction_fire, "regrouped": regrouped,
    "rout": rout, "shot-at": shot_at, "takes-floor": takes_floor,
    "tank-assault": tank_assault, "tank-assault-roll": tank_assault_roll,
    "to-hit": to_hit, "turn": turn, "turn-end": turn_end, "vehicle-damage": vehicle_damage,
}.items()}

BOOK = register_phrasebook(Phrasebook("buildings", "in", PHRASES, frozenset({"order-die"})))
