"""requirements.lock must still answer what it is resolved from.

The Makefile installs only the lock (``pip install --require-hashes``), so a dependency added to a
pyproject.toml or to requirements-dev.txt without ``make lock`` would be missing from every venv,
or a range raised past the pinned version would be silently ignored. These tests read the three
files offline (no index is asked) and fail with the name of the requirement to re-lock.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
LOCAL_PACKAGES = {"paiju", "paiju-services"}  # installed editable from the checkout, not locked
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+)")
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def locked_pins() -> dict[str, Version]:
    """Each locked package's canonical name and exact version."""
    pins: dict[str, Version] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if match := PIN.match(line):
            pins[canonicalize_name(match["name"])] = Version(match["version"])
    return pins


def lock_entries() -> list[str]:
    """The lock's entries, each a pin with its continuation lines (its hashes)."""
    text = LOCK.read_text(encoding="utf-8")
    return [entry for entry in re.split(r"\n(?=\S)", text) if PIN.match(entry)]


def declared_requirements() -> list[Requirement]:
    """What the lock is resolved from: the local packages' dependencies (less each other) and
    requirements-dev.txt."""
    declared: list[str] = []
    for project in ("shared-engine", "services"):
        pyproject = tomllib.loads((ROOT / project / "pyproject.toml").read_text(encoding="utf-8"))
        declared += pyproject["project"]["dependencies"]
    for line in (ROOT / "requirements-dev.txt").read_text(encoding="utf-8").splitlines():
        requirement = line.split("#", 1)[0].strip()
        if requirement:
            declared.append(requirement)
    requirements = [Requirement(text) for text in declared]
    return [req for req in requirements if canonicalize_name(req.name) not in LOCAL_PACKAGES]


@pytest.mark.parametrize("requirement", declared_requirements(), ids=str)
def test_every_declared_requirement_is_locked_within_its_range(requirement: Requirement) -> None:
    name = canonicalize_name(requirement.name)
    pins = locked_pins()
    assert name in pins, f"{requirement} is not in requirements.lock: run `make lock`"
    assert requirement.specifier.contains(pins[name], prereleases=True), (
        f"requirements.lock pins {name}=={pins[name]}, outside {requirement}: run `make lock`"
    )


def test_every_locked_package_carries_a_hash_and_no_local_package_is_locked() -> None:
    entries = lock_entries()
    assert len(entries) == len(locked_pins()) > 0
    unhashed = [entry.split()[0] for entry in entries if not HASH.search(entry)]
    assert unhashed == [], f"pins without a hash (pip --require-hashes refuses them): {unhashed}"
    assert LOCAL_PACKAGES.isdisjoint(locked_pins()), "the local packages are installed editable"
