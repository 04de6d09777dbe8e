"""Test-wide settings: property tests are measured by what they find, never by how fast a
loaded machine draws their inputs, so timing checks are off for all of them; games played
at the terminal save into a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "fibua", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("fibua")


@pytest.fixture(autouse=True, scope="session")
def _saves_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`fibua play` saves every game; in tests, never in the user's data folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FIBUA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))
        yield


@pytest.fixture(scope="session")
def warm_kernels() -> None:
    """The rules engine's kernels compiled (`fibua warmup`'s work) before a test that
    waits on a server's page: from a fresh clone the server would otherwise compile them
    while the page waits, longer than a page's wait on a busy machine."""
    from fibua.kernels import is_ready, prepare

    if not is_ready():
        prepare(lambda done, total, step: None)
