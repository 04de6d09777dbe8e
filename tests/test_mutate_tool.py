"""`tools/mutate.py`'s sample and interval (docs/mutation.md): the mutants tried are drawn
uniformly at random, seeded, and a larger sample keeps a smaller one; only they are left
pending in Cosmic Ray's session; a stopped run keeps what it had; the kill rate carries a
95% Wilson interval, and the survivors judged equivalent are left out of the second rate.
A session here is made with Cosmic Ray's own WorkDB: no mutant is run."""

from __future__ import annotations

import ast
import math
import sys
from collections import Counter
from functools import partial
from pathlib import Path

import pytest
from cosmic_ray.work_db import use_db  # type: ignore[import-untyped]
from cosmic_ray.work_item import (  # type: ignore[import-untyped]
    MutationSpec,
    WorkerOutcome,
    WorkItem,
    WorkResult,
)
from cosmic_ray.work_item import TestOutcome as Outcome  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))

import mutate

MODULES = ("src/fibua/rulesets/x/a.py", "src/fibua/rulesets/x/b.py")


def _session(folder: Path, per_module: int = 20) -> Path:
    """A session of 2 * per_module mutants, none yet run."""
    path = folder / "fake.sqlite"
    items = [
        WorkItem.single(f"job-{module[-4]}-{i}", MutationSpec(
            module_path=module, operator_name="core/NumberReplacer", occurrence=i,
            start_pos=(10 + i, 4), end_pos=(10 + i, 5)))
        for module in MODULES for i in range(per_module)]
    with use_db(str(path)) as db:
        db.add_work_items(items)
    return path


def _pending(path: Path) -> set[str]:
    with use_db(str(path)) as db:
        return {item.job_id for item in db.pending_work_items}


def _record(path: Path, job_id: str, outcome: Outcome) -> None:
    with use_db(str(path)) as db:
        db.set_result(job_id, WorkResult(worker_outcome=WorkerOutcome.NORMAL,
                                         test_outcome=outcome))


def test_only_the_sample_is_left_for_cosmic_ray_to_run(tmp_path: Path) -> None:
    path = _session(tmp_path)
    chosen = mutate.sample_session(path, 7, seed=3)
    assert len(chosen) == 7 == len({m.job_id for m in chosen})
    assert _pending(path) == {m.job_id for m in chosen}
    # drawn over every module, not module by module
    assert {m.module for m in mutate.choose(mutate.read_mutants(path), 40, 3)} == set(MODULES)


def test_the_draw_is_seeded_and_a_larger_sample_keeps_the_smaller(tmp_path: Path) -> None:
    mutants = mutate.read_mutants(_session(tmp_path))
    first = mutate.choose(mutants, 10, seed=5)
    assert mutate.choose(list(reversed(mutants)), 10, seed=5) == first
    assert mutate.choose(mutants, 10, seed=6) != first
    assert mutate.choose(mutants, 25, seed=5)[:10] == first


def test_a_stopped_run_resumes_and_a_larger_sample_adds_to_it(tmp_path: Path) -> None:
    path = _session(tmp_path)
    chosen = mutate.sample_session(path, 5, seed=2)
    _record(path, chosen[0].job_id, Outcome.KILLED)
    _record(path, chosen[1].job_id, Outcome.SURVIVED)
    again = mutate.sample_session(path, 5, seed=2)
    assert again == chosen
    assert _pending(path) == {m.job_id for m in chosen[2:]}
    # the mutants the smaller sample skipped are made pending when a larger one takes them
    larger = mutate.sample_session(path, 12, seed=2)
    assert larger[:5] == chosen
    assert _pending(path) == {m.job_id for m in larger[2:]}
    counts, survivors = mutate.summary(path, larger)
    assert (counts["mutants"], counts["chosen"], counts["tried"]) == (40, 12, 2)
    assert (counts["killed"], counts["survived"]) == (1, 1)
    assert survivors == [chosen[1].key()]
    # a smaller sample again leaves alone what the larger one found
    _record(path, larger[9].job_id, Outcome.KILLED)
    mutate.sample_session(path, 5, seed=2)
    assert mutate.outcomes(path)[larger[9].job_id] == ("NORMAL", "KILLED")


def test_each_mutant_is_as_likely_to_be_drawn() -> None:
    mutants = [mutate.Mutant("m.py", "op", i, i, f"j{i}") for i in range(20)]
    seen = Counter(m.occurrence for seed in range(4000)
                   for m in mutate.choose(mutants, 5, seed))
    # each is drawn 1000 times expected (5 in 20 of 4000 draws): a binomial's sd is ~27
    assert all(850 < seen[i] < 1150 for i in range(20)), seen


def test_the_wilson_interval() -> None:
    # a textbook case, 81 of 263, is [0.2553, 0.3662]; 0 of 10 is [0, z^2 / (10 + z^2)]
    assert mutate.wilson(0, 10) == (0.0, pytest.approx(0.27753, abs=1e-4))
    low, high = mutate.wilson(81, 263)
    assert (low, high) == (pytest.approx(0.2553, abs=1e-4), pytest.approx(0.3662, abs=1e-4))
    # every mutant killed: the lower end is n / (n + z^2), the upper exactly 1
    assert mutate.wilson(70, 70) == (pytest.approx(70 / (70 + mutate.Z95**2)), 1.0)
    assert mutate.wilson(0, 0) == (0.0, 1.0)
    # each end is where the score test is exactly at z
    for k, n in ((3, 17), (55, 60), (1, 2)):
        for p in mutate.wilson(k, n):
            assert abs(k / n - p) == pytest.approx(mutate.Z95 * math.sqrt(p * (1 - p) / n))


def test_equivalent_survivors_leave_the_second_rate(tmp_path: Path) -> None:
    path = _session(tmp_path)
    chosen = mutate.sample_session(path, 10, seed=1)
    for m in chosen[:7]:
        _record(path, m.job_id, Outcome.KILLED)
    for m in chosen[7:]:
        _record(path, m.job_id, Outcome.SURVIVED)
    listed = tmp_path / "eq.txt"
    listed.write_text(f"# judged by hand\n{chosen[8].key()} the same for every input\n")
    equivalent = mutate.read_equivalent(listed)
    assert equivalent == {chosen[8].key(): "the same for every input"}
    counts, survivors = mutate.summary(path, chosen, equivalent)
    assert len(survivors) == 3 and counts["equivalent"] == 1
    assert counts["kill_rate"] == mutate.rate(7, 10)
    assert counts["non_equivalent_kill_rate"] == mutate.rate(7, 9)


def test_a_recheck_runs_the_other_survivors_again(tmp_path: Path) -> None:
    path = _session(tmp_path)
    chosen = mutate.sample_session(path, 4, seed=9)
    _record(path, chosen[0].job_id, Outcome.KILLED)
    for m in chosen[1:]:
        _record(path, m.job_id, Outcome.SURVIVED)
    equivalent = {chosen[3].key(): "why"}
    again = mutate.recheck(path, equivalent, {m.job_id for m in chosen})
    assert sorted(m.key() for m in again) == sorted([chosen[1].key(), chosen[2].key()])
    assert _pending(path) == {chosen[1].job_id, chosen[2].job_id}
    _record(path, chosen[1].job_id, Outcome.KILLED)  # a new test kills it
    _record(path, chosen[2].job_id, Outcome.SURVIVED)
    counts, survivors = mutate.summary(path, chosen, equivalent)
    assert (counts["killed"], counts["killed_by_new_tests"], counts["survived"]) == (2, 1, 2)
    assert survivors == sorted([chosen[2].key(), chosen[3].key()])
    assert counts["non_equivalent_kill_rate"] == mutate.rate(2, 3)


SOURCE = '''\
LIMIT = 3


@cache
def reach(n: int = 2) -> int:
    if n > LIMIT:
        return (n +
                1)
    total = 0
    for i in range(n):
        total += i * 2
    return total
'''


def test_a_mutant_is_tried_against_the_tests_that_run_its_statement() -> None:
    tree = ast.parse(SOURCE)
    lines = partial(mutate.statement_lines, tree)
    # outside any function, in a decorator or a signature: run when the module is imported
    assert lines(1, 8) is None and lines(4, 1) is None and lines(5, 23) is None
    # a compound statement's header, a statement over two lines, one in a loop's body
    assert lines(6, 9) == range(6, 7)
    assert lines(7, 19) == range(7, 9) and lines(8, 16) == range(7, 9)
    assert lines(11, 21) == range(11, 12)
    ran = {6: ["t.py::a|call", "t.py::b|call"], 7: ["t.py::b|call"],
           11: ["t.py::c|setup"]}
    everything = ["t.py", "u.py"]
    assert mutate.tests_for(range(7, 9), ran, everything) == ["t.py::b"]
    assert mutate.tests_for(range(6, 7), ran, everything) == ["t.py::a", "t.py::b"]
    # run in a fixture's setup (maybe for many tests), or at import: every test
    assert mutate.tests_for(range(11, 12), ran, everything) == everything
    assert mutate.tests_for(None, ran, everything) == everything
    # run by no test: it survives untried
    assert mutate.tests_for(range(9, 10), ran, everything) == []
