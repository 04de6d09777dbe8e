"""The after-action report: everything revealed once the game is over."""

from __future__ import annotations

from fibua.rulesets.street_fighter.state import StreetFighterState, Unit


def after_action_report(state: StreetFighterState) -> list[str]:
    lines = ["AFTER-ACTION REPORT"]
    if state.result is not None:
        winner = state.result.winner or "nobody (a draw)"
        lines.append(f"Result: {winner} - {state.result.reason}")
    if state.deployment:
        lines.append("Control's deployment, picked by the seed:")
        lines += [f"  {state.units[u].name}: ({x:g}, {y:g})"
                  for u, (x, y) in state.deployment.items()]
    for side in state.sides:
        lines.append(f"{side}:")
        lines += [f"  {_unit_line(u)}" for u in state.units.values() if u.side == side]
    for side in state.sides:
        memory = state.knowledge[side].sightings
        lines.append(f"What {side} saw of the enemy ({len(memory)} units):")
        lines += [f"  {s.name}: last seen turn {s.turn} at ({s.x:g}, {s.y:g})"
                  f"{' out of the fight' if not s.alive else ''}" for s in memory.values()]
    lines.append("Every roll:")
    lines += [f"  turn {t}: {r.describe()}" for t, r in state.rolls]
    return lines


def _unit_line(u: Unit) -> str:
    where = f"in {u.pos.section}" if u.pos.section else f"at ({u.pos.x:g}, {u.pos.y:g})"
    fate = "surrendered" if u.surrendered else "destroyed" if u.hp == 0 else \
        f"{u.hp}/{u.start_hp} hp"
    return f"{u.name} ({u.kind}) {where}, {fate}"
