"""Settings for every test: the Hypothesis profile.

``HYPOTHESIS_PROFILE`` chooses it (default ``ci``):

- ``ci`` (``make test``): derandomized, so a run is repeatable and a failure reproduces by running
  the test again; no deadline (a whole game per example; timing is not what is tested); the
  reproduction blob printed on failure; Hypothesis' own example counts (100), and each test's own
  ``@settings(max_examples=...)`` as it is written.
- ``soak`` (``make soak``): ten times as many examples everywhere, including those of tests with
  their own ``@settings(max_examples=...)``, and random (not derandomized), so every soak explores
  new games; a failure prints the blob to replay it with ``@reproduce_failure``.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

SOAK_FACTOR = 10
CI_EXAMPLES = 100

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True, max_examples=CI_EXAMPLES
)
settings.register_profile(
    "soak", deadline=None, print_blob=True, max_examples=CI_EXAMPLES * SOAK_FACTOR
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def example_factor() -> int:
    """How many times the examples of the ``ci`` profile the loaded profile runs."""
    return max(1, settings.default.max_examples // CI_EXAMPLES)


TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


# --- which worker runs what (pytest-xdist) --------------------------------------------------------
#
# ``make test`` runs every test in one pytest with several workers (``-n N --dist loadgroup``). A
# worker runs its tests one at a time; a test that needs a running system uses its worker's own
# (a session fixture: nats-server, the services and, for the browser tests, Chromium, each started
# the first time the worker needs it, on free ports and in the worker's own temporary folders), so
# tests of different workers never share a server. The unit of work a worker is given:
#
# - a test module that defines a fixture of module scope (a system of its own with special
#   settings, a recorded match, the Pyodide run's node process): the whole module, so that it is
#   made once;
# - any other test: the test alone, so that the slow ones spread over the workers.
#
# Browser tests run in the first ``PAIJU_BROWSER_WORKERS`` workers only (2 by default): each drives
# Chromium with Pyodide in it, so two use both cores, and four at once on two cores made the pages
# miss their 20 s waits. Those workers take browser tests first and then whatever is left; the
# others take the integration tests first (they mostly wait), then the property and Pyodide tests,
# then the rest (many small ones that fill the last minutes evenly).
#
# xdist's own ``loadgroup`` would read ``xdist_group`` marks, but pytest 9.2 ignores them
# (pytest-xdist #1386: the mark's suffix to the node id no longer takes effect), so the scheduler
# below replaces it whenever ``--dist loadgroup`` is asked for.

MODULE_FIXTURE = re.compile(r"""@pytest\.fixture\([^)]*scope=["'](module|package)["']""")
BROWSER = "tests/e2e/"
KINDS = (
    BROWSER,
    "tests/integration/",
    ("tests/engine/test_properties.py", "tests/engine/test_pyodide.py"),
)
BROWSER_WORKERS = int(os.environ.get("PAIJU_BROWSER_WORKERS", "2"))
# the `alone` tests run two at a time (Makefile): the longest goes out first, so that the other
# worker runs the rest beside it rather than it starting last and running by itself
LONGEST_FIRST = ("tests/integration/test_cluster.py",)


@functools.cache
def whole_module(path: str) -> bool:
    """Whether the test module at ``path`` (relative to the root) defines a module-scoped fixture."""
    file = ROOT / path
    return file.suffix == ".py" and bool(MODULE_FIXTURE.search(file.read_text(encoding="utf-8")))


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its module, or the test itself."""
    module = nodeid.split("::", 1)[0]
    return module if whole_module(module) else nodeid


def slowest_kind_first(units: list[str]) -> list[str]:
    """``units`` in the order they go out: browser tests, integration tests, the property and
    Pyodide tests, then the rest, each kind in collection order but for ``LONGEST_FIRST``."""

    def kind(unit: str) -> tuple[int, bool]:
        rank = next((i for i, prefix in enumerate(KINDS) if unit.startswith(prefix)), len(KINDS))
        return rank, not unit.startswith(LONGEST_FIRST)

    return sorted(units, key=kind)  # a stable sort: collection order within a kind


def may_run_browsers(worker: str) -> bool:
    """Whether the worker named ``worker`` (``gw0``, ``gw1``, ...) may be given browser tests."""
    return int(worker.removeprefix("gw")) < BROWSER_WORKERS


if importlib.util.find_spec("xdist") is not None:
    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):
        """xdist's scope scheduling, with ``work_unit`` as the scope and the units ordered by
        ``slowest_kind_first``."""

        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            """Give ``node`` the first unit of the queue it may take (a browser worker: the first
            browser unit if any is left); a worker that may take none and has nothing left to
            run is shut down."""
            if not getattr(self, "_ordered", False):  # the first call: the queue is complete
                self._ordered = True
                order = slowest_kind_first(list(self.workqueue))
                self.workqueue = OrderedDict((unit, self.workqueue[unit]) for unit in order)
            browsers = may_run_browsers(node.gateway.id)
            unit = next((u for u in self.workqueue if browsers or not u.startswith(BROWSER)), None)
            if unit is None:
                if not self._pending_of(self.assigned_work.get(node, {})):
                    node.shutdown()
                return
            tests = self.workqueue.pop(unit)
            self.assigned_work.setdefault(node, {})[unit] = tests
            collection = self.registered_collections[node]
            node.send_runtest_some([collection.index(t) for t, done in tests.items() if not done])

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        if config.getvalue("dist") == "loadgroup":
            return UnitScheduling(config, log)
        return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    scale_own_examples(items)


def scale_own_examples(items: list[pytest.Item]) -> None:
    """A test's own ``@settings(max_examples=N)`` overrides the profile's count: scale it by the
    profile's factor, so ``soak`` runs such a test 10·N times (``ci`` leaves it at N). Its other
    settings are kept, and what it did not set came from the loaded profile already (settings
    made while a profile is loaded inherit from it)."""
    factor = example_factor()
    if factor == 1:
        return
    scaled: set[int] = set()
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is None or own is settings.default or id(test) in scaled:
            continue
        scaled.add(id(test))
        test._hypothesis_internal_use_settings = settings(
            own, max_examples=own.max_examples * factor
        )
