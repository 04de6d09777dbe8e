# the fastest Python 3.11+ on the PATH (a distribution's optimised build plays games 10-20%
# faster than a plain one): see tools/fastest_python.py; PY=... chooses another
PY ?= $(shell python3 tools/fastest_python.py 2>/dev/null || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: play test bench lint clean mutate

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@ $(STAMP)

# the rules engine's kernels compiled before the server starts (a progress bar the first
# time and after any change to the sources; silent when they are ready). Should that fail,
# the server still starts ('-'): its games compile what they call as they go.
play: $(STAMP)
	-$(BIN)/fibua warmup
	$(BIN)/fibua serve --open

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

test: lint
	command -v chromium >/dev/null 2>&1 || sh tools/install-browser.sh $(BIN)/python
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py

# mutation testing of one rule set's rules modules (docs/mutation.md): survivors in
# mutation/RULESET-survivors.txt; it changes the sources in place while it runs, and a
# stopped run resumes (MUTATE=--fresh starts again)
RULESET ?= buildings
mutate: $(TEST_STAMP)
	$(BIN)/python tools/mutate.py $(RULESET) $(MUTATE)

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete
	rm -rf src/fibua/__pycache__/numba-*
