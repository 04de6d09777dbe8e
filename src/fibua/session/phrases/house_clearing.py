"""The house-clearing rule set's events in plain words (see fibua.session.narration).

Figures are single men, so a sentence names them; positions are table coordinates in
inches with the room (section) and floor when the event gives them. Each sentence says
only what its event's data holds: a `fired-on` event, told to the target's side, has no
chance nor range band, and its sentence gives none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from fibua.core.values import is_number
from fibua.rulesets.house_clearing.tables import WEAPONS
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

#: a weapon or range-table row as players call it (the rows share the weapons' names)
_TITLES = {str(name): weapon.title for name, weapon in WEAPONS.items()}
_FLOORS = ("ground", "first", "second", "third", "fourth", "fifth")
_STANCES = {"standing": "standing", "crouching": "crouching", "prone": "lying prone",
            "leaning": "leaning out"}
_STANCE_CHANGES = {"standing": "stands up", "crouching": "crouches",
                   "prone": "goes prone", "leaning": "leans out"}


# -- small words -------------------------------------------------------------------------


def _num(value: Any) -> str:
    """A number as words, `?` when the event lacks it (as `Names.length` does)."""
    return number(value) if is_number(value) and not isinstance(value, bool) else "?"


def _who(names: Names, ident: Any) -> str:
    """A figure by the name the side knows it by; `someone` when the event names none."""
    return names.of(ident) if ident is not None else "someone"


def side_name(side: Any) -> str:
    """`the British` from the side's name `british`."""
    return "the " + side_noun(side) if side else "a side"


def _title(kind: Any) -> str:
    return _TITLES.get(str(kind), words(kind)) if kind is not None else "weapon"


def weapon(kind: Any) -> str:
    """`an assault rifle`, `a box-fed LMG`, `an SMG`."""
    title = _title(kind)
    article = "an" if title[:1].lower() in "aeiou" or title.startswith(("SMG", "LMG")) \
        else "a"
    return f"{article} {title}"


def floor_words(level: Any) -> str:
    """`the ground floor`, `the first floor`; beyond the fifth, `floor 7`."""
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level < len(_FLOORS):
        return f"the {_FLOORS[level]} floor"
    return f"floor {number(level)}"


def spot(x: Any, y: Any) -> str:
    """Table coordinates, in inches from the map's corner: `(26.5, 23)`."""
    if not (is_number(x) and is_number(y)):
        return "an unknown spot"
    return f"({number(x)}, {number(y)})"


def place(data: Data, names: Names, lead: str = "at") -> str:
    """`at (26.5, 23) in The corner house, b, on the first floor`: the room (by its
    building's name, as the map names it, where the names know the map) and floor only
    when the spot is in a room or above the ground."""
    text = f"{lead} {spot(data.get('x'), data.get('y'))}"
    section, level = data.get("section"), data.get("floor")
    if section:
        text += f" in {names.place(section)}"
    if section or (is_number(level) and level != 0):
        text += f", on {floor_words(level)}"
    return text


def stance(value: Any) -> str:
    return _STANCES.get(str(value), words(value)) if value is not None else ""


def points_of_initiative(count: Any) -> str:
    return (plural(count, "point") if is_number(count) else "points") + " of initiative"


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _name(data: Data, names: Names, key: str = "figure") -> str:
    """The event's own name for the figure, else the one the side knows it by."""
    return str(data.get("name") or _who(names, data.get(key)))


def _climbed(what: Any) -> str:
    """A climb as the rules record it (`wall 'yard-wall'`, `a window of corner-b`) in
    words: `over the yard wall`, `over the low wall (front)`, `through a window of
    corner b`."""
    text = str(what)
    match = re.fullmatch(r"([\w ]+) '(.+)'", text)
    if match is None:
        through = "through " if text.startswith("a window") else ""
        return through + words(text.replace("'", ""))
    kind, ident = match.group(1), words(match.group(2))
    return f"over the {ident}" if ident.endswith(kind) else f"over the {kind} ({ident})"


# -- the turn ------------------------------------------------------------------------------


def turn(data: Data, names: Names) -> str:
    return (f"Turn {_num(data.get('turn'))}: {side_name(data.get('first'))} "
            "give their orders first in every step")


def first_roll(data: Data, names: Names) -> str:
    """Each side's D6 for who goes first; equal throws are rolled again."""
    thrown = {side: float(r["value"]) for side, r in data.items()
              if isinstance(r, Mapping) and is_number(r.get("value"))}
    if not thrown:
        return "Both sides roll to go first"
    said = join([f"{side_name(s)} {number(v)}" for s, v in thrown.items()])
    if len(set(thrown.values())) < len(thrown):
        return f"Rolling to go first: {said}, a tie, so both roll again"
    best = max(thrown, key=lambda s: thrown[s])
    return f"Rolling to go first: {said}; {side_name(best)} go first"


def step(data: Data, names: Names) -> str:
    """Told only to the side handed the step (which steps a side acts in is its secret)."""
    phase, number_ = data.get("phase"), _num(data.get("step"))
    heading = f"{words(phase).capitalize()} phase, step {number_}" if phase else \
        f"Step {number_}"
    doing = "move" if phase == "move" else "fire with"
    return (f"{heading}: {side_name(data.get('side'))} may {doing} their figures of "
            f"initiative {number_}")


def fire_resolved(data: Data, names: Names) -> str:
    return (f"The fire declared in step {_num(data.get('step'))} goes off, "
            "and its hits all count together")


def game_over(data: Data, names: Names) -> str:
    scores = _mapping(data.get("scores"))
    reason = str(data.get("reason") or "").replace(": ", ", ")
    for side in scores:  # the reason names sides by their names, as the scores do
        reason = re.sub(rf"\b{re.escape(str(side))}\b", side_name(side), reason)
    winner = data.get("winner")
    text = f"Game over: {side_name(winner)} win" if winner else "Game over: a draw"
    if reason:
        text += f" ({reason})"
    if scores:
        text += "; points: " + join([f"{side_name(s)} {number(v)}"
                                     for s, v in scores.items()])
    return text


# -- figures -------------------------------------------------------------------------------


def deployed(data: Data, names: Names) -> str:
    figures = [f for f in data.get("figures") or () if isinstance(f, Mapping)]
    listed = [f"{_name(f, names, 'id')} ({_title(f.get('weapon'))}, initiative "
              f"{_num(f.get('initiative'))}, skill {_num(f.get('skill'))})"
              for f in figures]
    return f"{side_name(data.get('side'))} deploy" + (f": {join(listed)}" if listed else "")


def statistic(data: Data, names: Names) -> str:
    rolled = _mapping(data.get("roll"))
    what = "weapon skill" if data.get("statistic") == "skill" else words(
        data.get("statistic", "statistic"))
    return f"{_name(data, names)}'s {what} is {_num(rolled.get('total'))}"


# -- moving --------------------------------------------------------------------------------


def _pair(value: Any) -> tuple[Any, Any]:
    return (value[0], value[1]) if isinstance(value, list | tuple) and len(value) == 2 \
        else (None, None)


def _at(data: Data, xy: tuple[Any, Any]) -> dict[str, Any]:
    """The event's data with its `x` and `y` at the given spot (for `place`)."""
    return {**data, "x": xy[0], "y": xy[1]}


def moved(data: Data, names: Names) -> str:
    start, end = _pair(data.get("from")), _pair(data.get("to"))
    share = data.get("share")
    paid = f", {_share(float(share))}," if isinstance(share, int | float) and \
        is_number(share) else ""
    if start == end and start != (None, None):
        # no ground covered yet a share paid: the figure went up or down a floor
        text = (f"{_name(data, names)} changes floor{paid} "
                f"{place(_at(data, end), names, lead='to')}")
    else:
        text = (f"{_name(data, names)} moves {names.length(data.get('inches'))}{paid} from "
                f"{spot(*start)} {place(_at(data, end), names, lead='to')}")
    climbs = [_climbed(c) for c in data.get("climbed") or ()]
    if climbs:
        text += f", climbing {join(climbs)}"
    posture = stance(data.get("stance"))
    return text + (f", and ends {posture}" if posture else "")


def _share(share: float) -> str:
    """How much of a whole move a move took: `the whole move`, `0.85 of a move` (a share
    that would print as 1 is the whole move: the rules allow a hair over one)."""
    return "the whole move" if share >= 0.995 else f"{number(share)} of a move"


def stance_changed(data: Data, names: Names) -> str:
    value = str(data.get("stance"))
    change = _STANCE_CHANGES.get(value, f"is now {words(value)}" if data.get("stance")
                                 else "changes stance")
    return f"{_name(data, names)} {change}"


def ducked_back(data: Data, names: Names) -> str:
    return f"{_name(data, names)} ducks back to where the move began"


def stopped(data: Data, names: Names) -> str:
    return f"{_name(data, names)} is stopped where the shot struck"


def moved_back(data: Data, names: Names) -> str:
    return ", ".join(filter(None, [f"{_name(data, names)} ends up {place(data, names)}",
                                   stance(data.get("stance"))]))


# -- what a side sees ----------------------------------------------------------------------


def enemy_seen(data: Data, names: Names) -> str:
    return ", ".join(filter(None, [f"{_name(data, names)} is seen {place(data, names)}",
                                   stance(data.get("stance")),
                                   f"with {weapon(data.get('weapon'))}"]))


def enemy_lost(data: Data, names: Names) -> str:
    return (f"{_name(data, names)} is out of sight, last seen at "
            f"{spot(data.get('last_x'), data.get('last_y'))}")


def enemy_glimpsed(data: Data, names: Names) -> str:
    return (f"{_name(data, names)}, with {weapon(data.get('weapon'))}, is glimpsed "
            f"{place(data, names)}, and is out of sight again")


# -- fire ----------------------------------------------------------------------------------


def fire_declared(data: Data, names: Names) -> str:
    row = weapon(data.get("row"))
    how = f"a burst, as {row}" if data.get("auto") else f"single shots, as {row}"
    firer, target = _who(names, data.get("figure")), _who(names, data.get("target"))
    text = f"{firer} will fire at {target} ({how}"
    if data.get("loader"):
        text += f", {_who(names, data.get('loader'))} feeding the belt"
    return text + "); it goes off once both sides have declared"


def reaction(data: Data, names: Names) -> str:
    firers = names.all(data.get("firers") or ())
    seen = f"{_name(data, names, 'mover')} is seen moving"
    return f"{seen}: {firers} may fire at the mover" if firers else seen


def reaction_over(data: Data, names: Names) -> str:
    return f"The chance to fire at {_who(names, data.get('mover'))} passes"


def _showing(fifths: Any) -> str:
    if fifths == 5:
        return "in full view"
    return f"{_num(fifths)}/5 showing" if is_number(fifths) else "partly seen"


def _outcome(data: Data, target: str) -> str:
    """A shot's result from its counts: hits on the percentage dice, those the cover die
    confirmed, and the initiative they cost (taken off when the step's fire is over)."""
    hits, confirmed = data.get("hits") or 0, data.get("confirmed") or 0
    if not hits:
        return "a miss"
    if not confirmed:
        return f"{plural(hits, 'hit')}, but the cover saves {target}"
    found = plural(hits, "hit") if hits == confirmed else \
        f"{plural(hits, 'hit')}, {_num(confirmed)} through the cover"
    return f"{found}, and {target} loses {points_of_initiative(data.get('loss'))}"


def _chance(data: Data) -> str:
    chance = data.get("chance")
    if not is_number(chance):
        return ""
    sure = data.get("automatic_hits") or 0
    text = f"; chance {number(chance)}%"
    if sure:
        text += f", so {plural(sure, 'sure hit')}"
        extra = data.get("extra_chance")
        text += f" and {_num(extra)}% of another" if extra else ""
    return text


def shot(data: Data, names: Names) -> str:
    """A shot as either side sees it; the firer's side also reads the chance and band."""
    firer, target = _who(names, data.get("firer")), _who(names, data.get("target"))
    verb = "fires a burst at" if data.get("auto") else "fires at"
    moving = " on the move" if data.get("reaction") else ""
    around = [names.length(data.get("range"))]
    if data.get("band"):
        around.append(f"{str(data['band']).lower()} range")
    around.append(_showing(data.get("fifths")))
    return (f"{firer} {verb} {target}{moving} ({', '.join(around)}{_chance(data)}): "
            f"{_outcome(data, target)}")


def initiative_lost(data: Data, names: Names) -> str:
    left = data.get("initiative")
    text = (f"{_who(names, data.get('figure'))} loses {points_of_initiative(data.get('lost'))}, "
            f"down to {_num(left)}")
    if left == 0:
        text += ": can still fire, but not move"
    return text


def enemy_hit(data: Data, names: Names) -> str:
    text = f"{_name(data, names)} is hit and loses {points_of_initiative(data.get('lost'))}"
    return text + (", and is out of action" if data.get("out_of_action") else "")


def out_of_action(data: Data, names: Names) -> str:
    return f"{_name(data, names)} is out of action"


PHRASES: dict[str, Phrase] = {
    "turn": turn,
    "first-roll": first_roll,
    "step": step,
    "fire-resolved": fire_resolved,
    "game-over": game_over,
    "deployed": deployed,
    "statistic": statistic,
    "moved": moved,
    "stance": stance_changed,
    "ducked-back": ducked_back,
    "stopped": stopped,
    "moved-back": moved_back,
    "enemy-seen": enemy_seen,
    "enemy-lost": enemy_lost,
    "enemy-glimpsed": enemy_glimpsed,
    "fire-declared": fire_declared,
    "reaction": reaction,
    "reaction-over": reaction_over,
    "shot": shot,
    "fired-on": shot,
    "initiative-lost": initiative_lost,
    "enemy-hit": enemy_hit,
    "out-of-action": out_of_action,
}

BOOK = register_phrasebook(Phrasebook("house-clearing", "in", PHRASES))
