"""The audit in words, as ``paiju audit`` prints it (and the browser's verify page shows it): the
log, each hand checked (its deal, its moves, its score), what is wrong or left unchecked
(``paiju.log.findings``), the totals of a sound log, and the verdict last.
"""

from __future__ import annotations

from paiju.log.findings import DEAL_STATUS, findings
from paiju.log.prose import event_line, pair, per_seat, result_lines
from paiju.log.replay import Audit
from paiju.protocol import (
    AutoPlayed,
    AutoSet,
    BotSeated,
    Continued,
    DealCommitted,
    Dealt,
    HandEnded,
    MatchEnded,
    SeedAdded,
    SeedRevealed,
    TableAbandoned,
    TableAtLimit,
    Talked,
    TrickWon,
)
from paiju.registry import get_game
from paiju.words import Text, Words

VERDICTS: dict[str, Text] = {
    "sound": (
        "审核通过：日志完整，每一步都符合规则",
        "audit: OK — the log is complete and every step follows the rules",
    ),
    "incomplete": (
        "审核未完成：日志不完整，已有部分符合规则，但没到比赛结束",
        "audit: INCOMPLETE — what the log holds follows the rules, but it stops before the match ends",
    ),
    "failed": ("审核失败：日志有误", "audit: FAILED — the log is wrong"),
}

# the score of a hand in progress when its match ended early: none (the scores stand as they were)
CUT_HAND: dict[str, Text] = {
    "table_abandoned": ("牌桌无人在线，本局不计分", "nobody was connected: the hand is not scored"),
    "table_at_limit": (
        "牌局的事件数已达上限，本局不计分",
        "the table reached its limit of events: the hand is not scored",
    ),
}

# events that record the table's own steps, a seat's presence (托管, 继续), its table talk or the
# bot that plays it; every other event records a move
_TABLE_EVENTS = (
    DealCommitted,
    SeedAdded,
    Dealt,
    HandEnded,
    SeedRevealed,
    MatchEnded,
    TrickWon,
    AutoSet,
    AutoPlayed,
    Continued,
    TableAbandoned,
    TableAtLimit,
    Talked,
    BotSeated,
)


def describe(report: Audit) -> list[Text]:
    """The audit in words, sentence by sentence (zh, en): the log, each hand checked (its deal,
    its moves, its score), what is wrong or left unchecked (``findings``: the first bad event
    explained, or the bad deals and what an incomplete log leaves unchecked), the totals of a
    complete log, and the verdict last."""
    if report.config is None:
        return [*findings(report), VERDICTS["failed"]]
    config, names = report.config, report.names
    game = get_game(config.game)
    words: Words = game.words
    variant = game.info.variant(config.variant)
    out = [
        pair(
            (
                "{game}（{variant}），{players} 人，{events} 个事件",
                "{game} ({variant}), {players} players, {events} events",
            ),
            game=(game.info.name_zh, game.info.name_en),
            variant=(variant.name_zh, variant.name_en),
            players=config.players,
            events=len(report.events),
        )
    ]
    good = report.events if report.bad_index is None else report.events[: report.bad_index]
    deals = {d.hand_no: d.status for d in report.deals}
    hand_no, moves, ended = 0, 0, False
    cut: Text | None = None  # how a hand cut short by an early ending is told

    def close_hand() -> None:
        if not hand_no:
            return
        out.append(
            pair(
                (
                    "第{no}局：{deal}；{moves} 步出牌/叫牌都符合规则；{score}",
                    "hand {no}: {deal}; {moves} moves follow the rules; {score}",
                ),
                no=hand_no,
                deal=DEAL_STATUS.get(deals.get(hand_no, ""), (deals.get(hand_no, "?"),) * 2),
                moves=moves,
                score=(
                    ("计分与规则相符", "its score follows the rules")
                    if ended
                    else cut
                    if cut is not None
                    else ("之后出错，见下", "then it goes wrong, see below")
                    if report.error is not None
                    else ("日志在计分前中断", "the log stops before its score")
                ),
            )
        )

    for event in good:
        if isinstance(event, Dealt):
            close_hand()
            hand_no, moves, ended = event.hand_no, 0, False
        elif isinstance(event, HandEnded):
            ended = True
            close_hand()
            out.extend(result_lines(game.result_type.from_event(event), words, names))
            hand_no = 0
        elif isinstance(event, TableAbandoned | TableAtLimit):
            cut = CUT_HAND[event.TYPE]
            close_hand()
            hand_no = 0
            out.append(event_line(event, words, names))
        elif not isinstance(event, _TABLE_EVENTS):
            moves += 1
    close_hand()
    out.extend(findings(report))
    scored = game.result_type.SCORED  # 打棒's hands give levels, not scores: no totals
    if scored and report.error is None and report.complete and report.state is not None:
        totals = per_seat(report.state.totals, names)
        out.append(pair(("总分：{totals}", "totals: {totals}"), totals=totals))
    out.append(VERDICTS[report.verdict])
    return out
