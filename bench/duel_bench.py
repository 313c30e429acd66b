"""Bot levels in duplicate duels, for `make bench`: `paiju duel` (``paiju.duel``) of every game's
default variant, each figure printed beside issue 30's target. Two match-ups a game:

- one 普通 (normal) hero among 入门 (basic) bots;
- one 高手 (expert) hero among 普通 bots.

Rows per game and match-up: the hero's mean score a hand with its 95% confidence interval
(target: above zero, the whole interval too, over at least 400 duplicate hands — issue 30's "Done
when"), and the hero's decision time at p95, the view and its rebuild included (target for 高手:
≤ 300 ms in CPython, the services' Python; reported for 普通). Then, for 高手, each bid or
declaration it made (包 / 反包 / 叫牌, 明独, 亮主 / 扣底 …): how many hands, and the hero's mean
score in them (target: positive, issue 30).

Each game plays enough deals for 400 hero hands (a deal is played once per seat). The deals run
in ``JOBS`` processes (``duel(jobs=…)``: the same duel as one process plays, deal by deal), one a
core of the 2-core bench machine, so a decision is timed on a core of its own when nothing else
runs.

    .venv/bin/python bench/run.py --only duel      # this section alone
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

MIN_HANDS = 400  # issue 30: "over at least 400 duplicate hands"
EXPERT_P95_MS = 300.0  # issue 30: 高手 decides in at most 300 ms at p95 in CPython
SEED = "bench"
JOBS = 2  # processes: the bench machine's cores


@dataclass(frozen=True, slots=True)
class MatchUp:
    hero: str
    field: str
    hero_zh: str
    field_zh: str
    p95_target_ms: float | None  # the hero's decision time bound at p95 (None: reported)


MATCH_UPS = (
    MatchUp("normal", "basic", "普通", "入门", None),
    MatchUp("expert", "normal", "高手", "普通", EXPERT_P95_MS),
)


def deals_for(players: int) -> int:
    """Deals that give the hero ``MIN_HANDS`` hands at a table of ``players``."""
    return math.ceil(MIN_HANDS / players)


def duel_section(bench: Any) -> list[Any]:
    """The section for bench/run.py: per game and match-up, the strength and time rows, and the
    expert's bids."""
    from bench_rows import Row, log, mark

    from paiju import api, duel, duel_report

    rows = []
    for match in MATCH_UPS:
        for game in api.list_games():
            config = duel.duel_config(game["id"])
            deals = deals_for(config.players)
            log(f"duel {game['id']}: {match.hero} among {match.field}, {deals} deals")
            wall = time.perf_counter()
            played = duel.duel(game["id"], None, match.hero, match.field, deals, SEED, jobs=JOBS)
            report = duel_report.summary(played)
            wall = time.perf_counter() - wall
            rows += strength_rows(report, match, wall, Row, mark)
            bench.notes.append(
                f"Duel {report['game']}/{report['variant']}, {match.hero_zh} among "
                f"{match.field_zh}: {deals} deals in {wall:.1f} s ({JOBS} processes), seed "
                f"{SEED!r}; field {report['field_mean']:+.2f}, hero win rate "
                f"{report['win_rate']:.1%}."
            )
    return rows


def strength_rows(
    report: dict[str, Any], match: MatchUp, wall: float, row: Any, mark: Any
) -> list[Any]:
    """The rows of one duel: the hero's mean, its decision time, and (高手) each bid's result."""
    name = f"{report['game']}/{report['variant']}"
    who = f"{match.hero_zh} hero among {match.field_zh}"
    low, high = report["ci95"]
    hands = report["hero_hands"]
    strong = low > 0 and hands >= MIN_HANDS
    ms = report["decision_ms"]
    quick = match.p95_target_ms is None or ms["p95"] <= match.p95_target_ms
    time_target = (
        f"≤ {match.p95_target_ms:.0f} ms at p95 (issue 30) {mark(quick)}"
        if match.p95_target_ms is not None
        else "reported (issue 30's ≤ 300 ms at p95 is 高手's)"
    )
    rows = [
        row(
            f"{name}: {who}, mean score a hand [95% CI] ({report['hands']} deals × "
            f"{report['players']} seats = {hands} hands, {wall:.0f} s)",
            f"{report['hero_mean']:+.2f} [{low:+.2f}, {high:+.2f}]",
            target=f"> 0 with the 95% CI above 0 over ≥ {MIN_HANDS} hands {mark(strong)}",
            met=strong,
        ),
        row(
            f"{name}: {who}, decision time p95 (p50 {ms['p50']:.1f} ms, max {ms['max']:.0f} ms, "
            f"{report['decisions']} decisions, view rebuilt)",
            f"{ms['p95']:.1f} ms",
            target=time_target,
            met=quick if match.p95_target_ms is not None else None,
        ),
    ]
    if match.hero != "expert":
        return rows
    for bid in report["bids"].values():
        made = bid["count"] > 0
        good = made and bid["hero_mean"] > 0
        rows.append(
            row(
                f"{name}: {who}, hands with {bid['zh']} ({bid['en']}): {bid['count']} "
                f"({bid['rate']:.1%}; offered in {bid['offered']}), the hero's mean in them",
                f"{bid['hero_mean']:+.2f}" if made else "never made",
                target=f"made, and > 0 for the bidder {mark(good)}",
                met=good,
            )
        )
    return rows
