"""Compiled kernels are cached in a folder named by a digest of fibua's sources: numba
checks only the file of the function it caches, so a kernel that inlines another from a
changed file would otherwise load stale from its cache."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numba
import pytest

from fibua.battlefield.geometry import PACKAGE, STALE_AFTER, kernel_cache, sources_digest

INNER = "from numba import njit\n\n@njit(cache=True)\ndef inner():\n    return {value}\n"
OUTER = ("from numba import njit\nfrom kernels.inner import inner\n\n"
         "@njit(cache=True)\ndef outer():\n    return inner()\n")
RUN = ("import sys; from pathlib import Path; from numba.core import config\n"
       "from fibua.battlefield.geometry import kernel_cache\n"
       "config.CACHE_DIR = str(kernel_cache(Path(sys.argv[1]) / 'kernels'))\n"
       "sys.path.insert(0, sys.argv[1]); from kernels.outer import outer; print(outer())\n")


def package(root: Path, value: int) -> Path:
    folder = root / "kernels"
    folder.mkdir(exist_ok=True)
    (folder / "__init__.py").write_text("")
    (folder / "inner.py").write_text(INNER.format(value=value))
    (folder / "outer.py").write_text(OUTER)
    return folder


def test_fibuas_kernels_are_cached_by_the_digest_of_its_sources() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        pytest.skip("NUMBA_CACHE_DIR names the cache")
    expected = PACKAGE / "__pycache__" / f"numba-{sources_digest(PACKAGE)}"
    assert str(expected) == numba.config.CACHE_DIR


def test_any_change_to_a_source_changes_the_digest(tmp_path: Path) -> None:
    folder = package(tmp_path, 1)
    first = sources_digest(folder)
    assert sources_digest(folder) == first
    (folder / "inner.py").write_text(INNER.format(value=2))
    second = sources_digest(folder)
    (folder / "inner.py").rename(folder / "inner2.py")
    assert len({first, second, sources_digest(folder)}) == 3


def test_a_kernel_sees_a_change_in_a_kernel_it_inlines_from_another_file(
        tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

    def outer() -> str:
        done = subprocess.run([sys.executable, "-c", RUN, str(tmp_path)], env=env,
                              capture_output=True, text=True, timeout=300, check=True)
        return done.stdout.strip()

    package(tmp_path, 1)
    assert outer() == "1"
    package(tmp_path, 2)  # outer.py is as it was: its own cache entry would still hold
    assert outer() == "2"


def test_folders_of_other_sources_go_once_an_hour_untouched(tmp_path: Path) -> None:
    folder = package(tmp_path, 1)
    caches = folder / "__pycache__"
    old, recent = caches / "numba-0123456789abcdef", caches / "numba-fedcba9876543210"
    for made in (old, recent):
        made.mkdir(parents=True)
        (made / "kernel.nbi").write_bytes(b"")
    hour_ago = time.time() - STALE_AFTER - 60
    os.utime(old, (hour_ago, hour_ago))
    current = kernel_cache(folder)
    assert current.name == f"numba-{sources_digest(folder)}"
    assert not old.exists() and recent.exists()
