"""`fibua` with the test rule sets registered, for tests that run the program in a terminal
of its own (python tests/toy_fibua.py play ...)."""

from __future__ import annotations

import toy_ruleset  # noqa: F401  (registers "toy")
import toy_steps  # noqa: F401  (registers "toy-steps" and "toy-faulty")
from fibua.cli.main import main

if __name__ == "__main__":
    main()
