"""Logs exported in event log format version 1 stay readable, auditable and scored the same by
every later engine: the frozen logs in tests/fixtures/logs/v1/ (made by its freeze.py with the v1
engine; one of them exported from a real running system, in the services' compact JSON) pass
``paiju.log.replay.audit``, their deals verify, and their totals and each hand's scores are those
recorded in expected.json. The fixtures are never regenerated: a newer engine reads them through
its upcasters.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paiju.log.replay import audit
from paiju.protocol import HandEnded

V1 = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "v1"
EXPECTED: dict[str, Any] = json.loads((V1 / "expected.json").read_text(encoding="utf-8"))
LOGS = sorted(p.name for p in V1.glob("*.jsonl"))


def lines_of(name: str) -> list[str]:
    return (V1 / name).read_text(encoding="utf-8").splitlines()


def test_every_fixture_has_its_expected_scores() -> None:
    assert LOGS and set(LOGS) == set(EXPECTED)
    assert any(name.startswith("services-export-") for name in LOGS)


@pytest.mark.parametrize("name", LOGS)
def test_fixture_is_still_version_1(name: str) -> None:
    """The fixtures are frozen: a file rewritten by a newer engine would no longer test anything."""
    records = [json.loads(line) for line in lines_of(name)]
    assert records[0]["type"] == "paiju_log"
    assert {record["v"] for record in records} == {1}


@pytest.mark.parametrize("name", LOGS)
def test_v1_log_audits_and_scores_as_recorded(name: str) -> None:
    report = audit(lines_of(name))
    assert report.ok, f"{name}: event {report.bad_index}: {report.error}"
    assert report.state is not None and report.state.phase == "over"
    assert report.deals and all(d.status == "verified" for d in report.deals), report.deals
    expected = EXPECTED[name]
    assert list(report.state.totals) == expected["totals"]
    hands = [
        {"hand_no": e.hand_no, "scores": list(e.scores)}
        for e in report.events
        if isinstance(e, HandEnded)
    ]
    assert hands == expected["hands"]
