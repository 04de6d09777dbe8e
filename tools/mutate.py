"""Mutation testing of one rule set's rules modules with Cosmic Ray (`make mutate
RULESET=buildings`): every mutant of the rules (not the computer player, not its
estimates) is tried against that rule set's tests, and the survivors are written to
mutation/RULESET-survivors.txt, with the counts in mutation/RULESET-summary.json.

Cosmic Ray changes each source file in place while it tests a mutant and puts it back
after, so leave the tree alone while it runs (or run it in a copy: --root). A stopped run
resumes where it stopped: the session database is kept in mutation/ (--fresh starts
again, as it must once the sources have changed).

    python tools/mutate.py buildings [--root DIR] [--only actions.py,firing.py]
                                     [--timeout SECONDS] [--fresh]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

#: modules of a rule set that are not its rules: the computer player and its helpers
NOT_RULES = {"__init__.py", "ai.py", "ai_approach.py", "ai_storm.py", "estimates.py",
             "reckoning.py"}
#: the test files that play each rule set's rules (its computer player's tests left out)
TESTS = {
    "buildings": ["tests/test_buildings_*.py"],
    "street-fight": ["tests/test_street_fight_*.py"],
    "street-fighter": ["tests/test_street_fighter_*.py"],
    "house-clearing": ["tests/test_house_clearing_*.py"],
}
NOT_TESTS = ("_ai", "_leaks", "_caches", "_play", "_scenarios", "_maps")


def rules_modules(root: Path, ruleset: str, only: set[str] | None) -> list[str]:
    folder = root / "src" / "fibua" / "rulesets" / ruleset.replace("-", "_")
    return sorted(str(p.relative_to(root)) for p in folder.glob("*.py")
                  if p.name not in NOT_RULES and (only is None or p.name in only))


def test_files(root: Path, ruleset: str) -> list[str]:
    found = sorted({str(p.relative_to(root)) for pattern in TESTS[ruleset]
                    for p in root.glob(pattern)})
    # the computer player's and the whole-game tests are slow and play no one rule
    return [t for t in found if not any(word in t for word in NOT_TESTS)]


def config(root: Path, ruleset: str, only: set[str] | None, timeout: float) -> str:
    tests = " ".join(test_files(root, ruleset))
    modules = ", ".join(f'"{m}"' for m in rules_modules(root, ruleset, only))
    return (f"[cosmic-ray]\nmodule-path = [{modules}]\ntimeout = {timeout}\n"
            f"excluded-modules = []\n"
            f'test-command = "{sys.executable} -m pytest -x -q -p no:cacheprovider {tests}"\n'
            f'\n[cosmic-ray.distributor]\nname = "local"\n')


def summary(session: Path) -> tuple[dict[str, int], list[str]]:
    """Mutants tried, killed, survived (and not yet tried), and each survivor as a line:
    file, line, operator, occurrence."""
    db = sqlite3.connect(session)
    rows = db.execute(
        "SELECT m.module_path, m.start_pos_row, m.operator_name, m.occurrence, "
        "r.test_outcome FROM mutation_specs m LEFT JOIN work_results r "
        "ON m.job_id = r.job_id").fetchall()
    counts = {"mutants": len(rows), "tried": 0, "killed": 0, "survived": 0,
              "incompetent": 0}
    survivors = []
    for path, line, operator, occurrence, found in rows:
        if found is None:
            continue
        outcome = str(found).upper()
        counts["tried"] += 1
        if outcome == "SURVIVED":
            counts["survived"] += 1
            survivors.append(f"{path}:{line} {operator} #{occurrence}")
        elif outcome == "KILLED":
            counts["killed"] += 1
        else:
            counts["incompetent"] += 1
    return counts, sorted(survivors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", choices=sorted(TESTS))
    parser.add_argument("--root", type=Path, default=Path.cwd())
    parser.add_argument("--only", help="module file names, comma-separated")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--fresh", action="store_true", help="forget an earlier session")
    args = parser.parse_args()
    root = args.root.resolve()
    only = set(args.only.split(",")) if args.only else None
    out = root / "mutation"
    out.mkdir(exist_ok=True)
    name = args.ruleset + ("" if only is None else "-" + "-".join(sorted(only)))
    cfg, session = out / f"{name}.toml", out / f"{name}.sqlite"
    cfg.write_text(config(root, args.ruleset, only, args.timeout))
    if args.fresh:
        session.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(root / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    cosmic = [sys.executable, "-m", "cosmic_ray.cli"]
    if not session.exists():
        subprocess.run([*cosmic, "init", str(cfg), str(session)], cwd=root, env=env,
                       check=True)
    subprocess.run([*cosmic, "exec", str(cfg), str(session)], cwd=root, env=env, check=True)
    counts, survivors = summary(session)
    (out / f"{name}-survivors.txt").write_text("".join(f"{s}\n" for s in survivors))
    (out / f"{name}-summary.json").write_text(json.dumps(counts, indent=1) + "\n")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
