"""``paiju audit`` for the browser: a log file's text audited as the command audits a file, the
report as JSON for the page that verifies a game (``web-client/js/verify.js``), with how far each
of the three checks (the deal, the rules, the scores) went.

The engine worker imports this module at its first audit, not when it starts (``paiju.client``
is what it imports then): a page that loads the engine to play is ready without the audit and its
sentences, as the rest of ``paiju.log`` keeps each job's imports to itself.
"""

from __future__ import annotations

import io
import json
from typing import Any

from paiju.log.findings import findings
from paiju.log.replay import Audit, audit
from paiju.log.report import describe
from paiju.protocol import (
    DealCommitted,
    Dealt,
    Event,
    HandEnded,
    MatchEnded,
    SeedAdded,
    SeedRevealed,
)


def audit_log(text: str, lang: str = "both") -> str:
    """``paiju audit`` of a log file's text, as JSON for the page that verifies a game in the
    browser: the same report (``paiju.log.replay.audit``, read line by line as the command reads a
    file) and the same sentences (``paiju.log.report.describe``), so the page's verdict is the
    command's.

    Returns ``{"verdict", "ok", "complete", "events", "bad_line", "game", "variant", "players",
    "table", "checks", "findings", "lines"}``: ``verdict`` is "sound", "incomplete" or "failed";
    ``checks`` says, for the deal (against the commitment and the seeds), every event (through the
    rules) and the scores, how far each was checked: ``{"check", "status", …counts}`` with status
    "ok" (every deal reached verified; every event, every score and the totals of a complete log),
    "partial" (what the log holds is right, but not all of it could be checked), "failed" or
    "none" (nothing of it to check);
    ``findings`` are the sentences that say what is wrong or left unchecked (empty for a sound
    log); ``lines`` are every sentence of the audit, as ``paiju audit`` prints them, the verdict
    last. A text is in ``lang`` ("zh" or "en"), or for "both" ``{"zh", "en"}``.

    Raises:
        ValueError: ``lang`` is not "zh", "en" or "both".

    >>> from paiju import api
    >>> header = json.dumps({"type": "paiju_log", "v": 2, "table": "t-1",
    ...                      "config": api.make_config("guanpai", "boke").to_dict()})
    >>> report = json.loads(audit_log(header + "\\n", "en"))
    >>> report["verdict"], [(c["check"], c["status"]) for c in report["checks"]]
    ('incomplete', [('deal', 'none'), ('rules', 'none'), ('scores', 'none')])
    >>> report["findings"]
    ['the log has its header and no event: no deal, move or score could be checked']
    >>> json.loads(audit_log("not a log", "zh"))["verdict"]
    'failed'
    """
    if lang not in ("zh", "en", "both"):
        raise ValueError(f"unknown language {lang!r}: 'zh', 'en' or 'both'")
    # universal newlines, as ``open`` reads the file for ``paiju audit``
    report = audit(io.StringIO(text, newline=None))

    def say(told: list[tuple[str, str]]) -> list[Any]:
        if lang == "both":
            return [{"zh": zh, "en": en} for zh, en in told]
        return [zh if lang == "zh" else en for zh, en in told]

    told = describe(report)
    config = report.config
    return json.dumps(
        {
            "verdict": report.verdict,
            "ok": report.ok,
            "complete": report.complete,
            "events": len(report.events),
            "bad_line": None if report.bad_index is None else report.bad_index + 2,
            "game": config.game if config else None,
            "variant": config.variant if config else None,
            "players": config.players if config else None,
            "table": _log_table(text),
            "checks": _checks(report),
            "findings": say(findings(report)),
            "lines": say(told),
        },
        ensure_ascii=False,
    )


def _log_table(text: str) -> str | None:
    """The table id a log's header names, if it can be read."""
    first = next((line for line in io.StringIO(text, newline=None) if line.strip()), "")
    try:
        table = json.loads(first).get("table")
    except (ValueError, AttributeError):
        return None
    return table if isinstance(table, str) else None


# which of the three checks an event belongs to, when it is the first bad one
_DEAL_EVENTS = (DealCommitted, SeedAdded, Dealt, SeedRevealed)
_SCORE_EVENTS = (HandEnded, MatchEnded)


def _checks(report: Audit) -> list[dict[str, Any]]:
    """How far the audit checked the deal, every event and the scores (see ``audit_log``)."""
    events = report.events
    good: list[Event] = events if report.bad_index is None else events[: report.bad_index]
    line = None if report.bad_index is None else report.bad_index + 2
    failing = None
    if report.error is not None and report.config is not None:
        bad = (
            events[report.bad_index]
            if report.bad_index is not None and report.bad_index < len(events)
            else None
        )
        failing = (
            "deal"
            if isinstance(bad, _DEAL_EVENTS)
            else "scores"
            if isinstance(bad, _SCORE_EVENTS)
            else "rules"
        )
    elif any(d.status not in ("verified", "unrevealed") for d in report.deals):
        failing = "deal"
        line = None

    def status(check: str, done: int, whole: bool) -> str:
        if failing == check:
            return "failed"
        if not done:
            return "none"
        return "ok" if whole else "partial"

    dealt = sum(isinstance(e, Dealt) for e in good)
    verified = sum(d.status == "verified" for d in report.deals)
    scored = sum(isinstance(e, HandEnded) for e in good)
    return [
        {
            "check": "deal",
            # every deal the log reached is checked on its own: ok when each of them is verified
            "status": status("deal", dealt, verified == dealt),
            "hands": dealt,
            "verified": verified,
            "line": line if failing == "deal" else None,
        },
        {
            "check": "rules",
            "status": status("rules", len(good), report.complete),
            "events": len(events),
            "checked": len(good),
            "line": line if failing == "rules" else None,
        },
        {
            "check": "scores",
            "status": status("scores", scored, report.complete),
            "hands": scored,
            "line": line if failing == "scores" else None,
        },
    ]
