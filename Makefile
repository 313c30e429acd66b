# Paiju: `make run` starts the product, `make test` checks everything. Both set themselves up.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
NODE_STAMP := web-client/node_modules/.installed
WHEEL_DIR := dist
ENGINE_SRC := $(shell find shared-engine/src -name '*.py' -o -name 'py.typed') shared-engine/pyproject.toml

.PHONY: run test prepare lint typecheck jsunit unit soak soak-services wheel bench load lock clean

# Every Python package comes from requirements.lock: exact versions, each with its hashes, so a new
# release (of ruff, say) changes nothing here until `make lock` takes it in. The venv is cleared
# first, so a package dropped from the lock is gone too. The two local packages go in editable,
# with no dependencies of their own (the lock has them) and no build isolation (the lock's
# setuptools and wheel build them, rather than whatever an isolated build env would fetch).
LOCK := requirements.lock
$(STAMP): $(LOCK) shared-engine/pyproject.toml services/pyproject.toml
	$(PYTHON) -m venv --clear $(VENV)
	$(BIN)/pip install -q --require-hashes -r $(LOCK)
	$(BIN)/pip install -q --no-deps --no-build-isolation -e shared-engine -e services
	touch $@

## lock: resolve requirements.in (the local packages' dependencies, requirements-dev.txt) into
## requirements.lock for CPython 3.11 on linux x86_64, with every file's hash, from the public
## index only (uv reads no pip.conf). Versions already in the lock are kept while they still fit;
## LOCK_FLAGS=--upgrade takes the newest of everything, LOCK_FLAGS="--upgrade-package ruff" one.
## uv itself is pinned and runs from a throwaway venv, never the project's.
UV_VERSION := 0.13.9
LOCK_FLAGS ?=
lock:
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(PYTHON) -m venv "$$tmp" && "$$tmp/bin/pip" install -q "uv==$(UV_VERSION)" && \
	"$$tmp/bin/uv" pip compile -q requirements.in -o $(LOCK) --generate-hashes \
		--python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
		--no-emit-package paiju --no-emit-package paiju-services \
		--custom-compile-command "make lock" $(LOCK_FLAGS)

# The browser tests drive Debian's chromium (never a downloaded browser build) with Playwright for
# Python (in the lock); a CJK font makes the Chinese pages readable in their screenshots.
BROWSER_STAMP := $(VENV)/.browser-installed
$(BROWSER_STAMP): $(STAMP)
	if [ ! -x /usr/bin/chromium ]; then apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-wqy-microhei; fi
	touch $@

$(NODE_STAMP): web-client/package.json web-client/package-lock.json
	cd web-client && npm ci --no-audit --no-fund --silent
	touch $@

wheel: $(WHEEL_DIR)/.built
# --no-isolation builds with the venv's own backend: the lock's setuptools and wheel, which meet
# shared-engine's [build-system] requires. A stale setuptools build/ dir would leak deleted
# modules into the wheel, so it goes first. Beside the wheel, the engine's Pyodide snapshot
# (shared-engine/tools/snapshot.mjs, with the npm Pyodide the browser gets): the worker starts
# from it in about a second rather than four.
$(WHEEL_DIR)/.built: $(STAMP) $(NODE_STAMP) $(ENGINE_SRC) shared-engine/tools/snapshot.mjs
	rm -rf $(WHEEL_DIR) shared-engine/build && mkdir -p $(WHEEL_DIR)
	$(PY) -m build --wheel --no-isolation --outdir $(WHEEL_DIR) shared-engine >/dev/null
	node shared-engine/tools/snapshot.mjs web-client/node_modules/pyodide/pyodide.mjs \
		$(WHEEL_DIR)/paiju-*.whl $(WHEEL_DIR)/engine.snapshot
	touch $@

## run: nats-server (JetStream under var/), the table, bots and gateway services; Ctrl-C stops all
run: $(STAMP) $(NODE_STAMP) wheel
	$(PY) -m paiju_services.launcher deploy/dev.toml

# the Python with ruff and mypy; the browser code with ESLint (web-client/eslint.config.js) and
# TypeScript's checker reading its JSDoc types (web-client/tsconfig*.json), both from the npm lock
lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	cd web-client && node_modules/.bin/eslint --max-warnings 0 .

typecheck: $(STAMP) $(NODE_STAMP)
	$(BIN)/mypy
	cd web-client && node_modules/.bin/tsc -p tsconfig.json && node_modules/.bin/tsc -p tsconfig.worker.json && node_modules/.bin/tsc -p tsconfig.sw.json

# Every test in one pytest with WORKERS pytest-xdist workers (WORKERS=0: one process), but those
# marked `alone`; then those, two at a time (below). Most tests wait (for a deal, a deadline, a
# page, a service), so there are more workers than cores. tests/conftest.py decides what runs where: a
# module with a module-scoped fixture in one worker, any other test alone; browser tests in two
# workers only (PAIJU_BROWSER_WORKERS), each with Chromium and Pyodide busy on a core, the
# integration tests first in the others. Each worker starts its own running systems when it first
# needs one, so tests of different workers never share a server. The `alone` tests measure the
# services under a load they make themselves (bursts, 2,000 tables, rate limits, a cluster losing
# nodes): with the other workers on the two cores they failed for reasons that say nothing of the
# product (CI on 7f4c4f5 and on 7f2c2d3: a different one each run). They run two at a time: the
# cluster's (the longest, its nodes killed: tests/conftest.py's LONGEST_FIRST) in one worker
# beside the others one after another in the second (64-73 s rather than 117 s, each within its
# bounds, in four runs). Each run prints its 15 slowest tests.
#
# Python may keep the bytecode it compiles (the source tree's __pycache__, ignored by git) even
# where the environment says not to (PYTHONDONTWRITEBYTECODE, as on these machines): else each
# of the run's hundred-odd service processes compiles the services and the engine again (0.4 s
# of CPU each), and each worker pytest's rewritten tests.
WORKERS ?= 4
unit: export PYTHONDONTWRITEBYTECODE :=
unit: $(STAMP) $(NODE_STAMP) $(BROWSER_STAMP) wheel
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup -m "not alone" --durations=15
	$(BIN)/pytest -n 2 --dist loadgroup -m alone tests/integration --durations=15

## jsunit: the browser code's own unit tests (web-client/test/, node's built-in runner)
jsunit:
	node --test web-client/test/

# everything the tests need, set up (what is done already is skipped)
prepare: $(STAMP) $(NODE_STAMP) $(BROWSER_STAMP) wheel

# the whole check, then its wall time (set-up included), whether it passed or not. The set-up and
# the static checks run two at a time (pip beside npm, mypy beside the wheel's build, ...), each
# one's output kept together; then the tests, which use both cores by themselves
test:
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -j2 --output-sync=target lint typecheck jsunit prepare && \
	$(MAKE) --no-print-directory unit; status=$$?; \
	echo "make test: $$(( $$(date +%s) - start )) s of wall time (exit $$status)"; exit $$status

## soak: every Hypothesis test (the property tests) with the `soak` profile: ten times the
## examples, random rather than derandomized (tests/conftest.py); long, not part of `make test`
soak: $(STAMP)
	HYPOTHESIS_PROFILE=soak $(BIN)/pytest -n $(WORKERS) tests/engine -m hypothesis

bench: $(STAMP) $(NODE_STAMP) $(BROWSER_STAMP) wheel
	$(PY) bench/run.py

## load: real WebSocket players at every seat of TABLES tables (PACE moves/s each, 0: closed loop)
## against a system the tool starts itself; see bench/load.py for every flag
TABLES ?= 100
PACE ?= 0
load: $(STAMP) wheel
	$(PY) bench/load.py --tables $(TABLES) --pace $(PACE)

## soak-services: 10 minutes of table churn (matches end and are replaced) through the whole
## system, with each process's memory and CPU sampled every minute, and at rest at the end. The
## lobby's history keeps 1,000 finished tables here (5,000 by default), so that the gateway's
## memory reaches its bound within the run (about 1,800 matches end in it)
soak-services: $(STAMP) wheel
	$(PY) bench/load.py --tables 300 --pace 0.5 --duration 600 --sample 60 --raw 0 \
		--setting "history_size = 1000"

clean:
	rm -rf $(VENV) .venv-bench .bench-engines $(WHEEL_DIR) web-client/node_modules var
