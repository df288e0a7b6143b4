# sewer-use — the two commands: `make run` (the main job) and `make test` (lint, types, tests).
# Both create or reuse .venv with the pinned dependencies: `make run` only what running needs
# (requirements.txt), `make test` the tools of the tests on top (requirements-dev.txt). Both
# files are generated from pyproject.toml by `make lock`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
UV := $(BIN)/uv
# Two stamps: running (requirements.txt and the project in place), and the tools of `make test`
# on top of it, so that `make test` after `make run` installs only those tools.
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed-dev
# pytest workers (pytest-xdist): CI has 2 cores; PYTEST_WORKERS=0 runs in one process
PYTEST_WORKERS ?= 2

.PHONY: run report test lint layers typecheck migrations pytest bench clean venv venv-run lock data-dictionary

venv: $(STAMP)
venv-run: $(RUN_STAMP)

# uv installs the lock files, in a few seconds where pip takes about a minute: pip installs uv
# first, at the version and hashes requirements.txt pins.
$(UV):
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	sed -n '/^uv==/,/# via/p' requirements.txt > $(VENV)/uv-requirement.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r $(VENV)/uv-requirement.txt

# setup.py and the C sources: the compiled module (sewer_native) is rebuilt when they change
$(RUN_STAMP): requirements.txt pyproject.toml setup.py $(wildcard src/sewer_native/*.c src/sewer_native/*.h) | $(UV)
	$(UV) pip install --quiet --python $(BIN)/python -r requirements.txt
	$(UV) pip install --quiet --python $(BIN)/python --no-deps --no-build-isolation -e .
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP) requirements-dev.txt
	$(UV) pip install --quiet --python $(BIN)/python -r requirements-dev.txt
	touch $(STAMP)

# requirements.txt (running) and requirements-dev.txt (running and the tools of `make test`)
# from pyproject.toml, with hashes, for every platform. The versions already pinned are kept while
# pyproject's ranges admit them; `make lock UPGRADE=--upgrade` takes the newest (CONTRIBUTING.md).
LOCK := $(UV) pip compile --quiet --universal --python-version 3.11 --generate-hashes --group make
lock: | $(UV)
	$(LOCK) $(UPGRADE) pyproject.toml -o requirements.txt
	$(LOCK) $(UPGRADE) --extra test --extra lint --extra types -c requirements.txt pyproject.toml -o requirements-dev.txt

# The office with the demo town (SQLite under ./var), at http://127.0.0.1:8000/
run: $(RUN_STAMP)
	$(BIN)/sewer-use demo

# The rules on the bundled examples, printed (no server)
report: $(RUN_STAMP)
	$(BIN)/sewer-use demo-report

test: lint layers typecheck migrations pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

# The layer contract (pyproject.toml [tool.importlinter], docs/architecture.md)
layers: $(STAMP)
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy src/sewer_rules src/sewer_engines src/sewer_io src/sewer_cli src/sewer_office src/sewer_native

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
