# sewer-use — the two commands: `make run` (the main job) and `make test` (lint, types, tests).
# Both create or reuse .venv with the pinned dependencies.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# pytest workers (pytest-xdist): CI has 2 cores; PYTEST_WORKERS=0 runs in one process
PYTEST_WORKERS ?= 2

.PHONY: run report test lint layers typecheck migrations pytest bench clean venv data-dictionary

venv: $(STAMP)

# setup.py and the C source: the compiled module (sewer_native) is rebuilt when they change
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml setup.py src/sewer_native/_kernels.c
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

# The office with the demo town (SQLite under ./var), at http://127.0.0.1:8000/
run: $(STAMP)
	$(BIN)/sewer-use demo

# The rules on the bundled examples, printed (no server)
report: $(STAMP)
	$(BIN)/sewer-use demo-report

test: lint layers typecheck migrations pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

# The layer contract (pyproject.toml [tool.importlinter], docs/architecture.md)
layers: $(STAMP)
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy src/sewer_rules src/sewer_io src/sewer_cli src/sewer_office src/sewer_native

migrations: $(STAMP)
	$(BIN)/sewer-use manage makemigrations --check --dry-run

pytest: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS)

bench: $(STAMP)
	$(BIN)/python bench/check_throughput.py

# docs/data-dictionary.md from the models (a test fails when it is not current; docs/leaving.md)
data-dictionary: $(STAMP)
	$(BIN)/sewer-use export-all --dictionary-only docs/data-dictionary.md

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache src/sewer_native/*.so
