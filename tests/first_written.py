"""The bundled scenarios as first written, before the lab balanced them (each file's
comment says what was tuned: docs/lab.md). A test that replays one particular game of a
scenario (a seed found to show a rule or a page at work, with the figures it names) plays
it here, on the map and forces it was found on; what the balancing took away is put back,
the rest is the bundled file as it is."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from fibua.quick.tomlwrite import dumps
from fibua.scenario.loader import load_scenario, scenario_from_dict
from fibua.scenario.schema import Scenario

Raw = dict[str, Any]


def _side(raw: Raw, name: str) -> Raw:
    found: Raw = next(side for side in raw["sides"] if side["name"] == name)
    return found


def _corner_shop(raw: Raw) -> None:
    germans = _side(raw, "germans")
    kessler = next(u for u in germans["forces"]["units"] if u["id"] == "gruppe-kessler")
    kessler["figures"] += [
        {"id": "hartmann", "name": "Grenadier Hartmann", "weapon": "scoped-rifle",
         "at": [38, 24], "floor": 1},
        {"id": "vogt", "name": "Grenadier Vogt", "weapon": "random", "at": [28, 34.5]}]


def _ramp_houses(raw: Raw) -> None:
    meta = raw["scenario"]
    meta["description"] = meta["description"].replace("ramp. Two British", "ramp. Three British")
    _side(raw, "british")["forces"]["players"].append({
        "id": "cpl-ashworth", "name": "Corporal's group", "figures": [
            {"id": "ashworth", "name": "Cpl. Ashworth", "weapon": "smg", "at": [32.5, 3],
             "rank": "nco"},
            {"id": "milne", "name": "Pte. Milne", "weapon": "rifle", "at": [34, 2]},
            {"id": "dunn", "name": "Pte. Dunn", "weapon": "rifle", "at": [35, 4.5],
             "rank": "hero"},
            {"id": "ryder", "name": "Pte. Ryder", "weapon": "carbine", "at": [31.5, 5.5]}]})


def _farm_compound(raw: Raw) -> None:
    germans = _side(raw, "germans")
    reinhardt = next(u for u in germans["forces"]["units"] if u["id"] == "gruppe-reinhardt")
    reinhardt["figures"] += [
        {"id": "maurer", "name": "Gefreiter Maurer", "weapon": "rifle", "at": [14.5, 24.5]},
        {"id": "kraemer", "name": "Jaeger Kraemer", "weapon": "rifle", "at": [31, 37],
         "floor": 1}]


def _factory_district(raw: Raw) -> None:
    raw["scenario"]["description"] = (
        "A platoon of T34s and a rifle platoon must clear Workshop 4 (its two halls) and the "
        "works office before the Germans can bring up more men. The Germans hold the workshop "
        "halls, solid brick and steel, and have an assault gun and an anti-tank gun somewhere "
        "in the rubble. Clear both halls and the office and hold them at the end of turn 15.")
    germans = _side(raw, "germans")["forces"]["formations"]
    seydel = next(f for f in germans if f["id"] == "kompanie-trupp")
    seydel["units"] += [
        {"id": "gruppe-jung", "name": "Gruppe Jung", "kind": "infantry-section",
         "candidates": [[60, 62], [61, 29], [61, 81]]},
        {"id": "mg-koch", "name": "MG 34 Trupp Koch", "kind": "mmg-section",
         "candidates": [[40, 82], [61, 29], [92, 10]]},
        {"id": "scharfschuetze-lang", "name": "Scharfschuetze Lang", "kind": "sniper",
         "candidates": [[92, 84], [37, 27], [61, 81]]},
        {"id": "granatwerfer", "name": "Granatwerfer Trupp Mahler", "kind": "mortar-section",
         "at": [20, 60]},
        {"id": "pak-38", "name": "Pak 38 Neumann", "kind": "at-gun",
         "candidates": [[72, 40], [80, 56], [52, 40]]}]
    germans.append({"id": "sturmgeschuetz", "name": "Sturmgeschuetz Otto",
                    "commander": "Oberleutnant Seydel", "units": [
                        {"id": "stug-otto", "name": "StuG III Otto", "kind": "assault-gun",
                         "candidates": [[20, 48], [40, 96], [70, 94]]}]})


def _units_of(raw: Raw, side: str) -> list[Raw]:
    units: list[Raw] = _side(raw, side)["forces"]["units"]
    return units


def _beach_exit(raw: Raw) -> None:
    meta = raw["scenario"]
    meta["description"] = meta["description"].replace(
        "command bunker higher up and a stone villa at the head of the draw. An engineer",
        "command bunker higher up, a stone villa at the head of the draw and an 8 cm mortar "
        "dug in on the plateau. An engineer").replace(
        "two rifle squads (the second five men strong), their", "two rifle squads, their")
    second = next(u for u in _units_of(raw, "americans") if u["id"] == "easy-second")
    second["models"] += [{"at": [x, 5]} for x in (37, 38.5, 40, 41.5, 43)]
    _units_of(raw, "germans").extend([
        {"id": "stuetzpunkt-hq", "name": "Strongpoint commander (Lt Vogler)", "type": "hq",
         "inside": {"section": "villa-les-mouettes", "floor": 0},
         "models": [{"at": [15, 40.5]}, {"at": [16.5, 40.5]}]},
        {"id": "mortar-pit", "name": "8 cm mortar (Ogefr Lenz)",
         "type": "medium-mortar-team",
         "models": [{"at": [40, 42]}, {"at": [41.5, 42]}, {"at": [40.7, 43.3]}]}])


def _village_street(raw: Raw) -> None:
    meta = raw["scenario"]
    meta["description"] = meta["description"].replace(
        "a PIAT and seven men of another section in the timber Epicerie, and a gunner officer "
        "who can call the field regiment once.",
        "a PIAT and a section in the timber Epicerie, a section in the gardens and a gunner "
        "officer who can call the field regiment once.")
    british = _units_of(raw, "british")
    eight = next(u for u in british if u["id"] == "eight-section")
    eight["models"] += [{"at": [17, 16]}, {"at": [18.5, 16]}, {"at": [19.5, 17.5]}]
    british.append({"id": "nine-section", "name": "9 Section (Sgt Cooke)",
                    "type": "rifle-squad", "models": [
                        {"at": [x, y]} for y in (37, 38.5)
                        for x in (14.5, 16, 17.5, 19, 20.5)]})


def _oosterbeek_crossroads(raw: Raw) -> None:
    players = _side(raw, "germans")["forces"]["players"]
    maier = next(p for p in players if p["id"] == "rttf-maier")
    maier["figures"] += [
        {"id": "franke", "name": "Schtz. Franke", "weapon": "rifle", "at": [4, 2]},
        {"id": "jung", "name": "Schtz. Jung", "weapon": "rifle", "at": [8.5, 2]},
        {"id": "keller", "name": "Schtz. Keller", "weapon": "assault-rifle", "at": [10, 3.5]},
        {"id": "stein", "name": "Schtz. Stein", "weapon": "rifle", "at": [12, 2],
         "rank": "hero"}]


def _tobacco_factory(raw: Raw) -> None:
    meta = raw["scenario"]
    meta["description"] = meta["description"].replace(
        "west hall's loading door and a light mortar sits on the east hall's flat roof; the "
        "office block has no garrison of its own. An American",
        "west hall's loading door, a light mortar sits on the east hall's flat roof and an "
        "MG 42 on its tripod looks out of the top floor of the office block. An American"
    ).replace("leading platoon (its third squad down to two men), with", "leading platoon, with")
    third = next(u for u in _units_of(raw, "americans") if u["id"] == "third-squad")
    third["models"] += [{"at": [x, 5]} for x in (41, 42.5, 44)] + [
        {"at": [x, 6.5]} for x in (38, 39.5, 41, 42.5, 44)]
    _units_of(raw, "germans").extend([
        {"id": "mg-trupp", "name": "MG 42 on tripod (Gefr Lutz)", "type": "mmg-team",
         "inside": {"section": "office-block", "floor": 2},
         "models": [{"at": [34, 33]}, {"at": [35.5, 33]}, {"at": [35, 34.5]}]},
        {"id": "zugtrupp", "name": "Zugtrupp (Lt Haferkamp)", "type": "hq",
         "inside": {"section": "office-block", "floor": 0},
         "models": [{"at": [34.5, 34]}, {"at": [35.5, 35]}]}])


def _normandy_village(raw: Raw) -> None:
    raw["scenario"]["description"] = raw["scenario"]["description"].replace(
        "are is for you to find out. Clear both building areas and hold them at the end of "
        "turn 12.", "are is for you to find out. An assault gun is somewhere behind. Clear "
        "both building areas and hold them at the end of turn 14.")
    _side(raw, "germans")["forces"]["formations"].append({
        "id": "stug", "name": "StuG Zug", "commander": "Leutnant Kroll", "units": [
            {"id": "stug-1", "name": "StuG III Gerlach", "kind": "assault-gun",
             "candidates": [[60, 94], [110, 80]]}]})
    raw["scenario"]["turns"] = 14


def _turns(turns: int) -> Callable[[Raw], None]:
    def put_back(raw: Raw) -> None:
        raw["scenario"]["turns"] = turns
    return put_back


def _points(number: int, points: int) -> Callable[[Raw], None]:
    """The Nth [[victory]] condition (1 the first) worth what it was."""
    def put_back(raw: Raw) -> None:
        raw["victory"][number - 1]["points"] = points
    return put_back


def _all(*steps: Callable[[Raw], None]) -> Callable[[Raw], None]:
    """Several knobs turned in one scenario, each put back."""
    def put_back(raw: Raw) -> None:
        for step in steps:
            step(raw)
    return put_back


#: what the balancing changed in each scenario, put back
RESTORE: dict[str, Callable[[Raw], None]] = {
    "corner-shop": _all(_corner_shop, _turns(10)),
    "ramp-houses": _ramp_houses,
    "farm-compound": _farm_compound,
    "anti-tank-screen": _all(_turns(12), _points(3, 1)),
    "factory-district": _factory_district,
    "normandy-village": _normandy_village,
    "beach-exit": _beach_exit,
    "village-street": _village_street,
    "oosterbeek-crossroads": _oosterbeek_crossroads,
    "tobacco-factory": _tobacco_factory,
}


def first_written_raw(name: str) -> Raw:
    raw = copy.deepcopy(load_scenario(name).raw)
    if name in RESTORE:  # a scenario the balancing left alone is as it was written
        RESTORE[name](raw)
    return raw


def first_written(name: str) -> Scenario:
    """The bundled scenario as it was before it was balanced (same name)."""
    return scenario_from_dict(first_written_raw(name), f"{name} as first written")


def first_written_text(name: str, renamed: str) -> str:
    """The same as a scenario file under another name (to upload in the lobby, which keeps
    the bundled names for the bundled files)."""
    raw = first_written_raw(name)
    raw["scenario"]["name"] = renamed
    return dumps(raw)


def as_found(name: str) -> Scenario:
    """The scenario a test's seeds were found on: as first written where the lab balanced
    it, else the bundled file."""
    return first_written(name) if name in RESTORE else load_scenario(name)
