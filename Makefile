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

.PHONY: run test lint typecheck jsunit unit soak soak-services wheel bench load clean

$(STAMP): requirements-dev.txt shared-engine/pyproject.toml services/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt -e shared-engine -e services
	touch $@

# The browser tests drive Debian's chromium (never a downloaded browser build) with Playwright for
# Python; a CJK font makes the Chinese pages readable in their screenshots.
BROWSER_STAMP := $(VENV)/.browser-installed
$(BROWSER_STAMP): $(STAMP)
	if [ ! -x /usr/bin/chromium ]; then apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-wqy-microhei; fi
	$(BIN)/pip install -q "playwright>=1.45"
	touch $@

$(NODE_STAMP): web-client/package.json
	cd web-client && npm install --no-audit --no-fund --silent
	touch $@

wheel: $(WHEEL_DIR)/.built
# --no-isolation builds with the venv's own backend, which must meet shared-engine's
# [build-system] requires (a fresh 3.11 venv has setuptools 65 and no wheel). A stale
# setuptools build/ dir would leak deleted modules into the wheel, so it goes first.
$(WHEEL_DIR)/.built: $(STAMP) $(ENGINE_SRC)
	$(BIN)/pip install -q "setuptools>=68" wheel
	rm -rf $(WHEEL_DIR) shared-engine/build && mkdir -p $(WHEEL_DIR)
	$(PY) -m build --wheel --no-isolation --outdir $(WHEEL_DIR) shared-engine >/dev/null
	touch $@

## run: nats-server (JetStream under var/), the table, bots and gateway services; Ctrl-C stops all
run: $(STAMP) $(NODE_STAMP) wheel
	$(PY) -m paiju_services.launcher deploy/dev.toml

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# Two pytest-xdist workers share the engine's tests and the browser tests (tests/conftest.py keeps
# each running system, and the Pyodide run, in one worker); WORKERS=0 runs them in one process.
# The integration tests run alone afterwards: one measures a burst against the gateway's rate
# limit, which a second busy core slows below the limit.
WORKERS ?= 2
unit: $(STAMP) $(NODE_STAMP) $(BROWSER_STAMP) wheel
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup --ignore=tests/integration
	$(BIN)/pytest tests/integration

## jsunit: the browser code's own unit tests (web-client/test/, node's built-in runner)
jsunit:
	node --test web-client/test/

test: lint typecheck jsunit unit

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
