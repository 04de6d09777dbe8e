"""A pytest plugin for `tools/mutate.py --targeted`: under `coverage run`, each line is
recorded with the test that ran it, as `NODEID|setup`, `NODEID|call` or `NODEID|teardown`
(a fixture's lines run in its first user's setup, whoever else uses it after)."""

from __future__ import annotations

from collections.abc import Generator

import coverage
import pytest


def _switch(label: str) -> None:
    running = coverage.Coverage.current()
    if running is not None:
        running.switch_context(label)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    _switch(f"{item.nodeid}|setup")
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    _switch(f"{item.nodeid}|call")
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    _switch(f"{item.nodeid}|teardown")
    yield
    _switch("")
