"""What each side has observed. In Street-Fight a figure sees what it has line of sight to;
a side knows an enemy figure while any of its figures sees it, and remembers where it
was last seen. Everything a side is told about the enemy passes through here."""

from __future__ import annotations

from fibua.rulesets.street_fight.state import Figure, Sighting, StreetFightState


def refresh_sight(state: StreetFightState, changed: list[Figure]) -> None:
    """Recompute sight lines touching the figures that moved, appeared or fell, then tell
    each side what came into or went out of its view."""
    state.version += 1
    for figure in changed:
        _refresh_lines(state, figure)
    seen = _seen_by_side(state)
    for side in state.sides:
        _update_side(state, side, seen[side])


def _refresh_lines(state: StreetFightState, figure: Figure) -> None:
    """Sight lines between the figure and every enemy; none to or from a fallen figure."""
    enemies = state.roster(state.enemy_of(figure.side))
    looked_at = [e for e in enemies if e.alive] if figure.alive else []
    visible: set[str] = set()
    if looked_at:
        row = state.sight.visible_matrix([figure.pos], [e.pos for e in looked_at])[0]
        visible = {e.id for e, v in zip(looked_at, row.tolist(), strict=True) if v}
    fid = figure.id
    for enemy in enemies:
        key = (fid, enemy.id) if fid < enemy.id else (enemy.id, fid)
        state.los[key] = enemy.id in visible


def _seen_by_side(state: StreetFightState) -> dict[str, set[str]]:
    """The enemy figures each side's living figures can see now."""
    seen: dict[str, set[str]] = {side: set() for side in state.sides}
    figures = state.figures
    for (a, b), visible in state.los.items():
        if visible and figures[a].alive and figures[b].alive:
            seen[figures[a].side].add(b)
            seen[figures[b].side].add(a)
    return seen


def _update_side(state: StreetFightState, side: str, seen: set[str]) -> None:
    memory = state.seen.setdefault(side, {})
    for enemy in state.roster(state.enemy_of(side)):
        if not enemy.alive:
            continue
        now = enemy.id in seen
        known = memory.get(enemy.id)
        if now:
            moved = known is None or (known.x, known.y, known.floor) != (
                enemy.pos.x, enemy.pos.y, enemy.pos.floor)
            if known is None or not known.visible or moved:
                memory[enemy.id] = _sighting(state, enemy)
                state.emit("enemy-seen", _seen_data(enemy), (side,))
        elif known is not None and known.visible:
            known.visible = False
            state.emit("enemy-lost", {"figure": enemy.id, "name": known.name,
                                      "last_x": known.x, "last_y": known.y}, (side,))


def record_casualty(state: StreetFightState, casualty: Figure, witnesses: tuple[str, ...]) -> None:
    """A side that saw a figure fall knows it is gone."""
    for side in witnesses:
        if side == casualty.side:
            continue
        known = state.seen.setdefault(side, {}).get(casualty.id)
        if known is None:
            known = state.seen[side][casualty.id] = _sighting(state, casualty)
        known.alive = False
        known.visible = False


def _sighting(state: StreetFightState, enemy: Figure) -> Sighting:
    p = enemy.pos
    return Sighting(enemy.name, p.x, p.y, p.section, p.floor, state.turn, True,
                    weapon=enemy.weapon)


def _seen_data(enemy: Figure) -> dict[str, object]:
    p = enemy.pos
    return {"figure": enemy.id, "name": enemy.name, "weapon": str(enemy.weapon),
            "x": p.x, "y": p.y, "section": p.section, "floor": p.floor}


def observers_of(state: StreetFightState, figure: Figure) -> tuple[str, ...]:
    """The sides that see this figure now: its own, and the enemy if any enemy sees it."""
    enemy = state.enemy_of(figure.side)
    sees = any(state.can_see(w.id, figure.id) for w in state.side_figures(enemy))
    return (figure.side, enemy) if sees else (figure.side,)
