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

`--targeted` tries each mutant against only the tests that run its statement, found once
by a run of the tests under coverage (each line with the test that ran it, as
tools/cover_tests.py records it), and does the runs itself through Cosmic Ray's
`mutate_and_test`, in the same session. A statement run outside a test's call (at import,
in a fixture's setup) or outside any function is tried against every test, as without
--targeted; one inside a function that no test runs survives untried, as it would have.

    python tools/mutate.py buildings [--root DIR] [--only actions.py,firing.py]
                                     [--timeout SECONDS] [--fresh]
                                     [--sample N [--sample-seed S]] [--recheck]
                                     [--targeted] [--summary]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import os
import random
import shlex
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import coverage  # type: ignore[import-not-found, unused-ignore]
from cosmic_ray.mutating import mutate_and_test  # type: ignore[import-untyped]
from cosmic_ray.work_db import use_db  # type: ignore[import-untyped]
from cosmic_ray.work_item import (  # type: ignore[import-untyped]
    TestOutcome,
    WorkerOutcome,
    WorkResult,
)

#: modules of a rule set that are not its rules: the computer player and its helpers
#: (Street Fighter's paths.py: Control's street routes), the worlds its search draws
NOT_RULES = {"__init__.py", "ai.py", "ai_approach.py", "ai_storm.py", "estimates.py",
             "reckoning.py", "sampling.py", "paths.py"}
#: the test files that play each rule set's rules and forecasts (its computer player's tests
#: left out)
TESTS = {
    "buildings": ["tests/test_buildings_*.py", "tests/test_forecast_buildings.py"],
    "street-fight": ["tests/test_street_fight_*.py", "tests/test_forecast_street_fight.py"],
    "street-fighter": ["tests/test_street_fighter_*.py",
                       "tests/test_forecast_street_fighter.py"],
    "house-clearing": ["tests/test_house_clearing_*.py",
                       "tests/test_forecast_house_clearing.py"],
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


def test_command(tests: Sequence[str]) -> str:
    return shlex.join([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                       *tests])


def config(root: Path, ruleset: str, only: set[str] | None, timeout: float) -> str:
    modules = ", ".join(f'"{m}"' for m in rules_modules(root, ruleset, only))
    command = test_command(test_files(root, ruleset)).replace('"', '\\"')
    return (f"[cosmic-ray]\nmodule-path = [{modules}]\ntimeout = {timeout}\n"
            f"excluded-modules = []\n"
            f'test-command = "{command}"\n'
            f'\n[cosmic-ray.distributor]\nname = "local"\n')


#: each rules module's lines, each with the tests (node ids and phase) that ran it
Coverage = dict[str, dict[int, list[str]]]


def coverage_map(root: Path, stem: Path, modules: Sequence[str], tests: Sequence[str],
                 env: dict[str, str]) -> Coverage:
    """Which test runs which line of the rules modules: one run of the tests under
    coverage, kept beside the session until a module or a test file changes."""
    digest = hashlib.sha256()
    for name in [*modules, *tests]:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes())
    kept = stem.with_name(stem.name + "-coverage.json")
    if kept.exists():
        found = json.loads(kept.read_text())
        if found["digest"] == digest.hexdigest():
            return {m: {int(k): v for k, v in lines.items()}
                    for m, lines in found["lines"].items()}
    data = stem.with_name(stem.name + ".coverage")
    rc = stem.with_name(stem.name + ".coveragerc")
    rc.write_text(f"[run]\ndata_file = {data}\ninclude =\n"
                  + "".join(f"    {root / m}\n" for m in modules))
    tools = str(Path(__file__).resolve().parent)
    run_env = {**env, "PYTHONPATH": os.pathsep.join([env["PYTHONPATH"], tools])}
    subprocess.run([sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", "-m",
                    "pytest", "-q", "-p", "no:cacheprovider", "-p", "cover_tests", *tests],
                   cwd=root, env=run_env, check=True)
    recorded = coverage.CoverageData(str(data))
    recorded.read()
    lines: Coverage = {}
    for path in recorded.measured_files():
        by_line = recorded.contexts_by_lineno(path)
        lines[str(Path(path).relative_to(root))] = {n: sorted(c) for n, c in by_line.items()}
    kept.write_text(json.dumps({"digest": digest.hexdigest(), "lines": lines}))
    return lines


def statement_lines(tree: ast.Module, row: int, col: int) -> range | None:
    """The lines of the statement a change at (row, col) is in, when that statement is in a
    function's body (it runs when the function runs, and only then); of a compound
    statement, its header. None for a statement outside any function, or a change in a
    function's own signature or decorators (run when the module is imported)."""
    best: tuple[int, ast.stmt, bool] | None = None
    for node, in_def, depth in _statements(tree, False, 0):
        start = (_first_line(node), 0 if node.lineno > _first_line(node) else node.col_offset)
        end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
        if start <= (row, col) < end and (best is None or depth > best[0]):
            best = (depth, node, in_def)
    if best is None or not best[2]:
        return None
    _, found, _ = best
    body = getattr(found, "body", None)
    if body and isinstance(body[0], ast.stmt) and body[0].lineno > row:
        return range(_first_line(found), body[0].lineno)  # a compound statement's header
    return range(_first_line(found), (found.end_lineno or found.lineno) + 1)


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _statements(node: ast.AST, in_def: bool, depth: int
                ) -> Iterable[tuple[ast.stmt, bool, int]]:
    """Every statement under node: whether it is in a function's body, and how deep."""
    inner = in_def or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt):
            yield child, inner, depth
        yield from _statements(child, inner, depth + 1)


def tests_for(lines: range | None, ran: dict[int, list[str]], everything: Sequence[str]
              ) -> list[str]:
    """The tests a mutant of these lines is tried against: the node ids that ran them in a
    test's call; every test where a line ran anywhere else or the lines are not in a
    function; none where no test ran them."""
    if lines is None:
        return list(everything)
    labels = {label for n in lines for label in ran.get(n, [])}
    if any(not label.endswith("|call") for label in labels):
        return list(everything)
    return sorted({label.removesuffix("|call") for label in labels})


def run_targeted(root: Path, session: Path, tests: Sequence[str], ran: Coverage | None,
                 timeout: float, only: set[str] | None = None) -> None:
    """Each pending mutant of the session tried against the tests that run its statement,
    or against all the tests given when `ran` is None (Cosmic Ray's mutate_and_test, its
    result stored as `cosmic-ray exec` stores it)."""
    with use_db(str(session)) as db:
        pending = sorted((w for w in db.pending_work_items
                          if only is None or w.job_id in only), key=lambda w: w.job_id)
    trees: dict[str, ast.Module] = {}
    for i, item in enumerate(pending, 1):
        spec = item.mutations[0]
        module = str(spec.module_path)
        tree = trees.setdefault(module, ast.parse((root / module).read_text()))
        lines = statement_lines(tree, spec.start_pos[0], spec.start_pos[1])
        chosen = list(tests) if ran is None else tests_for(lines, ran.get(module, {}), tests)
        wall, cpu = time.perf_counter(), time.process_time()
        children = os.times()
        if chosen:
            result = mutate_and_test(item.mutations, test_command(chosen), timeout)
        else:
            result = WorkResult(worker_outcome=WorkerOutcome.NORMAL,
                                test_outcome=TestOutcome.SURVIVED,
                                output="no test runs this statement")
        with use_db(str(session)) as db:
            db.set_result(item.job_id, result)
        after = os.times()
        used = (time.process_time() - cpu + after.children_user - children.children_user
                + after.children_system - children.children_system)
        print(f"{i}/{len(pending)} {module}:{spec.start_pos[0]} {spec.operator_name} "
              f"#{spec.occurrence}: {result.test_outcome}, {len(chosen)} tests, "
              f"{time.perf_counter() - wall:.0f} s wall, {used:.0f} s CPU", flush=True)


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


def recheck(session: Path, equivalent: dict[str, str], among: set[str] | None
            ) -> list[Mutant]:
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
    return again


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
    parser.add_argument("--targeted", action="store_true",
                        help="try each mutant against the tests that run its statement")
    parser.add_argument("--with-tests", metavar="TESTS",
                        help="try every pending mutant against these tests alone (files or "
                        "node ids, comma-separated): a recheck against the tests written "
                        "for the survivors")
    parser.add_argument("--summary", action="store_true", help="run nothing, summarise")
    args = parser.parse_args()
    root = args.root.resolve()
    only = set(args.only.split(",")) if args.only else None
    out = root / "mutation"
    out.mkdir(exist_ok=True)
    whole = args.ruleset + ("" if only is None else "-" + "-".join(sorted(only)))
    name = whole if args.sample is None else f"{whole}-sample{args.sample_seed}"
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
    if chosen is not None:
        # a module found since to be no rule (NOT_RULES) leaves the sample: the rest of a
        # uniform sample is a uniform sample of the rest
        modules = set(rules_modules(root, args.ruleset, only))
        chosen = [m for m in chosen if m.module in modules]
    equivalent = read_equivalent(out / f"{name}-equivalent.txt")
    again: set[str] | None = None
    if args.recheck:
        among = None if chosen is None else {m.job_id for m in chosen}
        again = {m.job_id for m in recheck(session, equivalent, among)}
    if args.summary:
        pass
    elif args.with_tests or args.targeted:
        tests = test_files(root, args.ruleset)
        ran = (coverage_map(root, out / whole, rules_modules(root, args.ruleset, only),
                            tests, env) if not args.with_tests else None)
        if args.with_tests:
            tests = args.with_tests.split(",")
        os.environ.update(env)  # the runs are this process's children
        os.chdir(root)
        # a recheck runs the survivors again, not the rest of a sample not yet tried
        run_targeted(root, session, tests, ran, args.timeout, again)
    else:
        subprocess.run([*cosmic, "exec", str(cfg), str(session)], cwd=root, env=env,
                       check=True)
    counts, survivors = summary(session, chosen, equivalent)
    (out / f"{name}-survivors.txt").write_text("".join(f"{s}\n" for s in survivors))
    (out / f"{name}-summary.json").write_text(json.dumps(counts, indent=1) + "\n")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
