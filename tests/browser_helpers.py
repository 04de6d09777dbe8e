"""Headless Chromium for the page tests: where it is, how it starts, how long a page may
take, and the mark that skips a browser test where Chromium is not installed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
#: how long the page may take (a bound, not a measure)
WAIT_MS = 60_000

#: CI installs Chromium (tools/install-browser.sh): there a missing one is a failure
needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None and not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason="Chromium is not installed (tools/install-browser.sh)")
