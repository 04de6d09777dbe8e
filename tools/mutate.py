"""Mutation testing of one rule set's rules modules with Cosmic Ray (`make mutate
RULESET=buildings`): every mutant of the rules (not the computer player, not its
estimates) is tried against that rule set's tests, and the survivors are written to
mutation/RULESET-survivors.txt, with the counts in mutation/RULESET-summary.json.

Cosmic Ray changes each source file in place while it tests a mutant and puts it back
after, so leave the tree alone while it runs (or run it in a copy: --root). A stopped run
resumes where it stopped: the session database is kept in mutation/ (--fresh starts
again, as it must once the sources have changed).

Every mutant of a rule set is days of CPU on a small machine, so `--sample N` tries N of
them drawn uniformly at random (seeded by `--sample-seed`) over all the modules chosen,
and the summary gives the kill rate with its 95% Wilson interval: the rate over all the
mutants, estimated from the sample. The draw is the first N of a seeded shuffle of every
mutant, so a larger N later keeps the mutants already tried and adds more. Survivors
judged equivalent are listed by hand in mutation/NAME-equivalent.txt (a survivor's line,
then why), and the summary gives the rate over the others; `--recheck` tries the other
survivors again once tests have been written for them.

    python tools/mutate.py buildings [--root DIR] [--only actions.py,firing.py]
                                     [--timeout SECONDS] [--fresh]
                                     [--sample N [--sample-seed S]] [--recheck]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

#: modules of a rule set that are not its rules: the computer player, its helpers and the
#: worlds its search draws (sampling.py)
NOT_RULES = {"__init__.py", "ai.py", "ai_approach.py", "ai_storm.py", "estimates.py",
             "reckoning.py", "sampling.py"}
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


#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


class Mutant(NamedTuple):
    """One mutant of a session: which change where, stable across sessions of the same
    sources (Cosmic Ray's job ids are drawn afresh at each init)."""

    module: str
    operator: str
    occurrence: int
    line: int
    job_id: str

    def key(self) -> str:
        """The survivor's line in mutation/NAME-survivors.txt and -equivalent.txt."""
        return f"{self.module}:{self.line} {self.operator} #{self.occurrence}"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion of k in n: the p whose normal test would
    not reject k/n, which unlike the plain p +- z*se stays inside [0, 1] and keeps its
    coverage when every mutant tried was killed."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # k == 0 or k == n puts one end exactly on 0 or 1; rounding must not move it off
    return (0.0 if k == 0 else max(0.0, centre - half),
            1.0 if k == n else min(1.0, centre + half))


def choose(mutants: Iterable[Mutant], n: int, seed: int) -> list[Mutant]:
    """The sample: the first n of a shuffle seeded by `seed` of every mutant in a stable
    order, so each set of n mutants is equally likely and a larger n keeps a smaller one."""
    order = sorted(mutants, key=lambda m: (m.module, m.operator, m.occurrence))
    random.Random(seed).shuffle(order)
    return order[:n]


def read_mutants(session: Path) -> list[Mutant]:
    db = sqlite3.connect(session)
    try:
        rows = db.execute("SELECT module_path, operator_name, occurrence, start_pos_row, "
                          "job_id FROM mutation_specs").fetchall()
    finally:
        db.close()
    return [Mutant(str(m), str(o), int(c), int(r), str(j)) for m, o, c, r, j in rows]


def outcomes(session: Path) -> dict[str, tuple[str, str | None]]:
    """Each job done: (worker outcome, test outcome), as Cosmic Ray stored them (names)."""
    db = sqlite3.connect(session)
    try:
        rows = db.execute("SELECT job_id, worker_outcome, test_outcome FROM work_results")
        return {str(j): (str(w).upper(), None if t is None else str(t).upper())
                for j, w, t in rows.fetchall()}
    finally:
        db.close()


def forget(session: Path, job_ids: Iterable[str]) -> None:
    """Drop these jobs' results, so that `cosmic-ray exec` runs them (again)."""
    db = sqlite3.connect(session)
    try:
        db.executemany("DELETE FROM work_results WHERE job_id = ?", ((j,) for j in job_ids))
        db.commit()
    finally:
        db.close()


def sample_session(session: Path, n: int, seed: int) -> list[Mutant]:
    """Leave only the sample pending in the session: every other mutant not yet tried is
    marked skipped (Cosmic Ray's own outcome for a job its filters leave out), and one of
    the sample skipped by an earlier, smaller sample is made pending again. Results
    already in (a stopped run) are kept."""
    from cosmic_ray.work_db import use_db  # type: ignore[import-untyped]
    from cosmic_ray.work_item import WorkerOutcome, WorkResult  # type: ignore[import-untyped]

    mutants = read_mutants(session)
    chosen = choose(mutants, n, seed)
    picked = {m.job_id for m in chosen}
    done = outcomes(session)
    forget(session, [j for j in picked if done.get(j, ("", None))[0] == "SKIPPED"])
    left_out = [m.job_id for m in mutants if m.job_id not in picked and m.job_id not in done]
    if left_out:
        with use_db(str(session)) as db:
            db.set_multiple_results(left_out, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    return chosen


def read_equivalent(path: Path) -> dict[str, str]:
    """The survivors judged equivalent, each with why: a line is a survivor's key (file:line
    operator #occurrence, as in -survivors.txt) and then the reason; # starts a comment."""
    found: dict[str, str] = {}
    if not path.exists():
        return found
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split(maxsplit=3)
        found[" ".join(words[:3])] = words[3] if len(words) > 3 else ""
    return found


RECHECKED = "CREATE TABLE IF NOT EXISTS fibua_rechecked (job_id TEXT PRIMARY KEY)"


def recheck(session: Path, equivalent: dict[str, str], among: set[str] | None) -> list[str]:
    """Make the survivors not judged equivalent pending again (after tests were written for
    them), remembering which, so the summary can tell the first run from the recheck."""
    done = outcomes(session)
    again = [m for m in read_mutants(session)
             if done.get(m.job_id, ("", None))[1] == "SURVIVED" and m.key() not in equivalent
             and (among is None or m.job_id in among)]
    db = sqlite3.connect(session)
    try:
        db.execute(RECHECKED)
        db.executemany("INSERT OR IGNORE INTO fibua_rechecked VALUES (?)",
                       ((m.job_id,) for m in again))
        db.commit()
    finally:
        db.close()
    forget(session, [m.job_id for m in again])
    return [m.key() for m in again]


def rechecked(session: Path) -> set[str]:
    db = sqlite3.connect(session)
    try:
        db.execute(RECHECKED)
        return {str(j) for (j,) in db.execute("SELECT job_id FROM fibua_rechecked")}
    finally:
        db.close()


def rate(k: int, n: int) -> dict[str, float | int]:
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": round(k / n, 4) if n else 0.0,
            "low": round(low, 4), "high": round(high, 4)}


def summary(session: Path, chosen: Sequence[Mutant] | None = None,
            equivalent: dict[str, str] | None = None) -> tuple[dict[str, object], list[str]]:
    """Mutants (all in the session), those chosen (the sample, or all), tried, killed,
    survived and incompetent, the kill rate with its 95% interval, and each survivor's key.
    With the equivalent survivors known: how many, and the rate over the others. Mutants
    tried again (--recheck) that no longer survive are counted killed, and told apart."""
    mutants = read_mutants(session)
    among = list(mutants if chosen is None else chosen)
    done = outcomes(session)
    again = rechecked(session)
    equivalent = equivalent or {}
    counts: dict[str, object] = {"mutants": len(mutants), "chosen": len(among)}
    tried = killed = survived = incompetent = later = 0
    survivors: list[str] = []
    for m in among:
        _, found = done.get(m.job_id, ("", None))
        if found is None:
            continue  # not yet tried, or skipped
        tried += 1
        if found == "SURVIVED":
            survived += 1
            survivors.append(m.key())
        elif found == "KILLED":
            killed += 1
            later += m.job_id in again
        else:
            incompetent += 1
    counts.update(tried=tried, killed=killed, survived=survived, incompetent=incompetent,
                  killed_by_new_tests=later, kill_rate=rate(killed, killed + survived))
    if equivalent:
        same = sum(1 for key in survivors if key in equivalent)
        counts.update(equivalent=same,
                      non_equivalent_kill_rate=rate(killed, killed + survived - same))
    return counts, sorted(survivors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", choices=sorted(TESTS))
    parser.add_argument("--root", type=Path, default=Path.cwd())
    parser.add_argument("--only", help="module file names, comma-separated")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--fresh", action="store_true", help="forget an earlier session")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="try N mutants drawn at random over the modules")
    parser.add_argument("--sample-seed", type=int, default=1, metavar="S")
    parser.add_argument("--recheck", action="store_true",
                        help="try the survivors not listed as equivalent again")
    parser.add_argument("--summary", action="store_true", help="run nothing, summarise")
    args = parser.parse_args()
    root = args.root.resolve()
    only = set(args.only.split(",")) if args.only else None
    out = root / "mutation"
    out.mkdir(exist_ok=True)
    name = args.ruleset + ("" if only is None else "-" + "-".join(sorted(only)))
    if args.sample is not None:
        name += f"-sample{args.sample_seed}"
    cfg, session = out / f"{name}.toml", out / f"{name}.sqlite"
    cfg.write_text(config(root, args.ruleset, only, args.timeout))
    if args.fresh:
        session.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(root / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    # no rules module holds a compiled kernel, so one folder serves every mutant: without
    # it each would compile every kernel again (the folder is named by the sources' digest)
    env.setdefault("NUMBA_CACHE_DIR", str(out / "numba-cache"))
    cosmic = [sys.executable, "-m", "cosmic_ray.cli"]
    if not session.exists():
        subprocess.run([*cosmic, "init", str(cfg), str(session)], cwd=root, env=env,
                       check=True)
    chosen = None if args.sample is None else sample_session(session, args.sample,
                                                             args.sample_seed)
    equivalent = read_equivalent(out / f"{name}-equivalent.txt")
    if args.recheck:
        among = None if chosen is None else {m.job_id for m in chosen}
        for key in recheck(session, equivalent, among):
            print("again:", key)
    if not args.summary:
        subprocess.run([*cosmic, "exec", str(cfg), str(session)], cwd=root, env=env,
                       check=True)
    counts, survivors = summary(session, chosen, equivalent)
    (out / f"{name}-survivors.txt").write_text("".join(f"{s}\n" for s in survivors))
    (out / f"{name}-summary.json").write_text(json.dumps(counts, indent=1) + "\n")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
