"""Bot levels in duplicate duels, for `make bench`: a short `paiju duel` (``paiju.duel``) of every
game's default variant, one 普通 (normal) hero among 入门 (basic) bots, each figure printed beside
issue 30's target.

Rows per game: the hero's mean score a hand with its 95% confidence interval (target: above zero,
the whole interval too, over at least 400 duplicate hands — issue 30's "Done when"), and the hero's
decision time at p95 (reported: the issue's bound of 300 ms is for 高手's search). The deals of
each game (``DEALS``) are as many as about 10–20 s of one CPython core allow on the 2-core bench
machine (measured with ``time.process_time``; each deal is played once per seat); every seat
decides from its own view, the view rebuilt for each decision as the bots service does.

    .venv/bin/python bench/run.py --only duel      # this section alone
"""

from __future__ import annotations

import time
from typing import Any

HERO, FIELD = "normal", "basic"
MIN_HANDS = 400  # issue 30: "over at least 400 duplicate hands"
SEED = "bench"
# deals a game, for about 10–20 s of CPU each (CPU ms a deal measured: 关牌 21, 大北 41, 条数 32,
# 板子炮 44, 打拱 123, 打棒 202); every game reaches MIN_HANDS
DEALS = {
    "guanpai": 500,
    "dabei": 250,
    "tiaoshu": 300,
    "banzipao": 250,
    "dagong": 100,
    "dabang": 100,
}
DEFAULT_DEALS = 100  # a game added since


def duel_section(bench: Any) -> list[Any]:
    """The section for bench/run.py: two rows a game."""
    from run import Row, log, mark

    from paiju import api, duel

    rows = []
    for game in api.list_games():
        deals = DEALS.get(game["id"], DEFAULT_DEALS)
        log(f"duel {game['id']}: {HERO} among {FIELD}, {deals} deals")
        wall, cpu = time.perf_counter(), time.process_time()
        report = duel.summary(duel.duel(game["id"], None, HERO, FIELD, deals, SEED))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        name = f"{report['game']}/{report['variant']}"
        low, high = report["ci95"]
        hands = report["hero_hands"]
        ok = low > 0 and hands >= MIN_HANDS
        rows.append(
            Row(
                f"{name}: 普通 hero among 入门, mean score a hand [95% CI] "
                f"({deals} deals × {report['players']} seats = {hands} hands, {wall:.1f} s)",
                f"{report['hero_mean']:+.2f} [{low:+.2f}, {high:+.2f}]",
                target=f"> 0 with the 95% CI above 0 (issue 30 asks ≥ {MIN_HANDS} duplicate "
                f"hands) {mark(ok)}",
                met=ok,
            )
        )
        ms = report["decision_ms"]
        rows.append(
            Row(
                f"{name}: 普通 hero's decision time p95 (p50 {ms['p50']:.2f} ms, "
                f"max {ms['max']:.2f} ms, {report['decisions']} decisions, view rebuilt)",
                f"{ms['p95']:.2f} ms",
                target="reported (issue 30's ≤ 300 ms at p95 is 高手's)",
            )
        )
        bids = ", ".join(
            f"{b['zh']} {b['count']} ({b['hero_mean']:+.2f})" for b in report["bids"].values()
        )
        bench.notes.append(
            f"Duel {name}: {deals} deals in {wall:.1f} s ({cpu:.1f} s CPU), seed {SEED!r}; "
            f"field (入门) {report['field_mean']:+.2f}, hero win rate {report['win_rate']:.1%}; "
            f"the hero's bids, hands (mean): {bids or 'none'}."
        )
    return rows
