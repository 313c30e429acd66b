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

import os
from pathlib import Path

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
# With pytest-xdist (``-n 2 --dist loadgroup``) each of these runs in one worker: a folder whose
# tests share a session fixture (a whole running system: nats-server, the services, Chromium) and
# the Pyodide tests (one node process for the module). Two workers would each start their own copy:
# no clash (free ports, per-worker temporary folders), but twice the work on a small machine.
# (``make unit`` runs tests/integration in a pytest of its own after the rest: see the Makefile.)
XDIST_GROUPS = {"integration": "integration", "e2e": "e2e", "test_pyodide.py": "pyodide"}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.pluginmanager.hasplugin("xdist"):
        group_for_xdist(items)
    scale_own_examples(items)


def group_for_xdist(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.parts[len(TESTS.parts) :] if item.path.is_relative_to(TESTS) else ()
        group = next((XDIST_GROUPS[p] for p in parts if p in XDIST_GROUPS), None)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


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
