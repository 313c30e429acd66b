"""What a duplicate duel (``paiju.duel``) reports, and ``paiju duel``, the command that plays one
and prints it (issue 30).

What a duel reports (``summary``: one JSON object; ``report_lines``: lines for a person):

- the mean score per hand of the hero's seats and of the field's, each with its 95% confidence
  interval: a deal's sample is the mean over every hero seat of its rotations, and the interval is
  mean ± 1.96·sd/√n over the n deals. A hand's score is a seat's net score where the game's result
  has scores (``paiju.results``: ``SCORED``); 打棒's hands give levels, not scores, and a seat
  scores the levels its side climbs, or minus those the other side climbs (as its hands were
  written before issue 27);
- the win rate: the share of the hero's hands with a score above zero (打棒: its side climbed);
- each kind of bid or declaration the hero made (板子炮's 包, 反包 and 叫牌, 打拱's 明独, 打棒's
  亮大王, 亮主, 反主, 加固, 扣王 and 扣底): how many of the hero's hands had one, and the hero's
  mean score in them. A kind is a word said (``BidMade``), as the game counts it
  (``Decider.bid_kind``: not the cautious word a seat says first, such as 不包; 打棒's 扣王
  whatever the number of jokers, and not its 捡, a choice of kitty cards), or a game's own event
  for a seat's choice that is not a play (``CardCalled``, 打棒's ``Buried``), named in the game's
  words; and in how many of the hero's hands he could say it (``offered``), made or not;
- the hero's decision times, p50, p95 and max in milliseconds (the Python running the duel).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from paiju import levels
from paiju.console import EXIT_OK, EXIT_UNREADABLE, say
from paiju.duel import Duel, duel
from paiju.errors import RuleError
from paiju.registry import get_game
from paiju.words import Text

Z95 = 1.96  # the normal quantile of a two-sided 95% interval


# --- the report ------------------------------------------------------------------------------


def interval(samples: Sequence[float]) -> tuple[float, list[float]]:
    """The mean of ``samples`` and its 95% confidence interval, mean ± 1.96·sd/√n, rounded to
    four places (one sample has no spread to measure: its interval is the mean alone).

    >>> interval([1.0, 2.0, 3.0])
    (2.0, [0.8684, 3.1316])
    """
    mean = statistics.fmean(samples)
    half = Z95 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0.0
    return mean, [round(mean - half, 4), round(mean + half, 4)]


def percentiles_ms(seconds: Sequence[float]) -> dict[str, float]:
    """p50, p95 and max of decision times, in milliseconds."""
    ms = sorted(s * 1000 for s in seconds) or [0.0]
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[-1] if len(ms) > 1 else ms[0]
    return {"p50": round(statistics.median(ms), 3), "p95": round(p95, 3), "max": round(ms[-1], 3)}


def summary(result: Duel) -> dict[str, Any]:
    """The duel as one JSON object: the keys issue 30 names (``game``, ``variant``, ``hero``,
    ``field``, ``hands`` — the deals —, ``hero_mean``, ``ci95``, ``win_rate``, ``bids``,
    ``decision_ms``) and more: ``field_mean`` and its ``field_ci95``, ``lineup``, ``seed``,
    ``players``, ``hero_hands`` (hands the hero's level played, seat by seat), ``decisions``
    (the hero's, timed). A bid's ``rate`` is the share of the hero's hands with one, ``offered``
    the hero's hands in which he could say it (made or not; a kind the game records by an event,
    such as a card called, counts the hands it was made in), and its ``hero_mean`` None where it
    was offered and never made."""
    hero_means, field_means, hero_scores = [], [], []
    bids: dict[str, list[int]] = {}
    offers: dict[str, int] = {}
    for rotation in result.deals:
        mine: list[int] = []
        theirs: list[int] = []
        for seating in rotation:
            for seat, score in enumerate(seating.scores):
                if seat not in seating.heroes:
                    theirs.append(score)
                    continue
                mine.append(score)
                made = dict.fromkeys(k for s, k in seating.declared if s == seat)
                for kind in made:
                    bids.setdefault(kind, []).append(score)
                for kind in made | dict.fromkeys(k for s, k in seating.offered if s == seat):
                    offers[kind] = offers.get(kind, 0) + 1
                    bids.setdefault(kind, [])
        hero_means.append(statistics.fmean(mine))
        field_means.append(statistics.fmean(theirs))
        hero_scores += mine
    hero_mean, ci95 = interval(hero_means)
    field_mean, field_ci95 = interval(field_means)
    return {
        "game": result.config.game,
        "variant": result.config.variant,
        "players": result.config.players,
        "hero": result.hero,
        "field": result.field,
        "lineup": result.lineup,
        "seed": result.seed,
        "hands": len(result.deals),
        "hero_hands": len(hero_scores),
        "hero_mean": round(hero_mean, 4),
        "ci95": ci95,
        "field_mean": round(field_mean, 4),
        "field_ci95": field_ci95,
        "win_rate": round(sum(s > 0 for s in hero_scores) / len(hero_scores), 4),
        "bids": {
            kind: {
                "count": len(scores),
                "offered": offers[kind],
                "rate": round(len(scores) / len(hero_scores), 4),
                "hero_mean": round(statistics.fmean(scores), 4) if scores else None,
                "zh": result.kinds[kind][0],
                "en": result.kinds[kind][1],
            }
            for kind, scores in sorted(bids.items())
        },
        "decisions": len(result.decisions),
        "decision_ms": percentiles_ms(result.decisions),
    }


def _level_name(level_id: str) -> Text:
    level = levels.level(level_id)
    return level.name_zh, level.name_en


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def report_lines(report: dict[str, Any]) -> Iterable[Text]:
    """A summary as lines for a person, each in both languages."""
    info = get_game(report["game"]).info
    variant = info.variant(report["variant"])
    hero, field = _level_name(report["hero"]), _level_name(report["field"])
    deals, seats = report["hands"], report["players"]
    yield (
        f"{info.name_zh}（{variant.name_zh}）：{hero[0]} 对 {field[0]}，{deals} 副牌，"
        f"每副按座位轮换打 {seats} 次（{'一个' if report['lineup'] == 'one' else '只留一个'}"
        f"{'主角座位' if report['lineup'] == 'one' else '对手座位'}），种子 {report['seed']}",
        f"{info.name_en} ({variant.name_en}): {hero[1]} against {field[1]}, {deals} deals, each "
        f"played {seats} times with the seats rotated ({report['lineup']} "
        f"{'hero seat' if report['lineup'] == 'one' else 'but one seat the hero'}), "
        f"seed {report['seed']}",
    )
    for side, (zh, en), mean, ci in (
        ("hero", hero, report["hero_mean"], report["ci95"]),
        ("field", field, report["field_mean"], report["field_ci95"]),
    ):
        who = ("主角", "hero") if side == "hero" else ("对手", "field")
        span = f"[{_signed(ci[0])}, {_signed(ci[1])}]"
        yield (
            f"  {who[0]} {zh}：每手平均 {_signed(mean)}，95% 置信区间 {span}",
            f"  {who[1]} {en}: mean {_signed(mean)} a hand, 95% CI {span}",
        )
    win = f"{report['win_rate']:.1%}"
    yield (
        f"  主角胜率 {win}（{report['hero_hands']} 手）",
        f"  hero wins {win} of {report['hero_hands']} hands",
    )
    if not any(bid["count"] for bid in report["bids"].values()):
        yield "  主角没有叫牌或声明", "  the hero made no bid or declaration"
    for bid in report["bids"].values():
        if not bid["count"]:
            yield (
                f"  {bid['zh']}：主角有 {bid['offered']} 手可以叫，一手也没叫",
                f"  {bid['en']}: offered in {bid['offered']} of the hero's hands, never made",
            )
            continue
        rate, mean = f"{bid['rate']:.1%}", _signed(bid["hero_mean"])
        yield (
            f"  {bid['zh']}：{bid['count']} 手（{rate}；可以叫的 {bid['offered']} 手），"
            f"主角这些手平均 {mean}",
            f"  {bid['en']}: {bid['count']} hands ({rate}; offered in {bid['offered']}), the "
            f"hero's mean in them {mean}",
        )
    ms = report["decision_ms"]
    times = f"p50 {ms['p50']:.2f}  p95 {ms['p95']:.2f}  max {ms['max']:.2f}"
    yield (
        f"  主角每步用时（毫秒，{report['decisions']} 步）：{times.replace('max', '最长')}",
        f"  the hero's decisions ({report['decisions']}), ms: {times}",
    )


# --- the command ------------------------------------------------------------------------------


def refusal(args: argparse.Namespace) -> Text | None:
    """Why the command line names no duel (a game, variant, level, lineup or count that does not
    exist), with what may be named instead; None: it names one."""
    game_id, _, variant = args.game.partition(":")
    try:
        game = get_game(game_id)
    except RuleError as err:
        return err.zh, err.en
    ids = [v.id for v in game.info.variants]
    if variant and variant not in ids:
        return (
            f"{game.info.name_zh}没有玩法“{variant}”，可选：{'、'.join(ids)}",
            f"{game.info.name_en} has no variant “{variant}”; its variants: {', '.join(ids)}",
        )
    for level_id in (args.hero, args.field):
        if level_id not in levels.LEVELS:
            known = levels.LEVELS.values()
            return (
                f"没有机器人等级“{level_id}”，可选："
                + "、".join(f"{lv.id}（{lv.name_zh}）" for lv in known),
                f"no bot level “{level_id}”; the levels: "
                + ", ".join(f"{lv.id} ({lv.name_en})" for lv in known),
            )
    if args.jobs < 1:
        return "--jobs 至少为 1", "--jobs must be 1 or more"
    if args.hands < 2:
        return (
            "至少要 2 副牌（--hands），才能估计置信区间",
            "at least 2 deals (--hands) are needed for a confidence interval",
        )
    return None


def cmd_duel(args: argparse.Namespace, out: TextIO) -> int:
    """``paiju duel``: play the duel the command line names, print its report (``--json``: the
    summary as JSON); the exit status (``paiju.console``)."""
    lang = getattr(args, "lang", "zh")
    why = refusal(args)
    if why is not None:
        print(f"paiju duel: {say(why, lang)}", file=sys.stderr)
        return EXIT_UNREADABLE
    game_id, _, variant = args.game.partition(":")
    result = duel(
        game_id,
        variant or None,
        args.hero,
        args.field,
        args.hands,
        args.seed,
        args.lineup,
        jobs=args.jobs,
    )
    report = summary(result)
    if args.json:
        print(json.dumps(report, ensure_ascii=False), file=out)
    else:
        for text in report_lines(report):
            print(say(text, lang, "\n"), file=out)
    return EXIT_OK
