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
import itertools
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
# The units go out slowest kind first: browser tests and integration tests taken in turn (the
# first use the cores, the second mostly wait), then the property tests, then the rest (many small
# ones that fill the last minutes evenly).
#
# xdist's own ``loadgroup`` would read ``xdist_group`` marks, but pytest 9.2 ignores them
# (pytest-xdist #1386: the mark's suffix to the node id no longer takes effect), so the scheduler
# below replaces it whenever ``--dist loadgroup`` is asked for.

MODULE_FIXTURE = re.compile(r"""@pytest\.fixture\([^)]*scope=["'](module|package)["']""")
SLOW_FIRST = ("tests/e2e/", "tests/integration/")
THEN = ("tests/engine/test_properties.py", "tests/engine/test_pyodide.py")


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
    """``units`` in the order they go out: browser and integration units in turn, then the property
    and Pyodide tests, then the rest, each kind in collection order."""
    kinds: list[list[str]] = [[] for _ in (*SLOW_FIRST, "then", "rest")]
    for unit in units:
        kind = next((i for i, prefix in enumerate(SLOW_FIRST) if unit.startswith(prefix)), None)
        if kind is None:
            kind = len(SLOW_FIRST) + (0 if unit.startswith(THEN) else 1)
        kinds[kind].append(unit)
    slow = kinds[: len(SLOW_FIRST)]
    taken_in_turn = [unit for row in itertools.zip_longest(*slow) for unit in row if unit]
    return taken_in_turn + kinds[-2] + kinds[-1]


if importlib.util.find_spec("xdist") is not None:
    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):
        """xdist's scope scheduling, with ``work_unit`` as the scope and the units ordered by
        ``slowest_kind_first``."""

        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            if not getattr(self, "_ordered", False):  # the first call: the queue is complete
                self._ordered = True
                order = slowest_kind_first(list(self.workqueue))
                self.workqueue = OrderedDict((unit, self.workqueue[unit]) for unit in order)
            super()._assign_work_unit(node)

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
