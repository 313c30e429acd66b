"""What an audit found, in words: the first bad event explained (what the log says, what the rules
say instead), the deals that do not follow from their seeds, and what an incomplete log leaves
unchecked. ``findings`` is the part of ``paiju audit``'s report that says what is wrong; the
browser's verify page shows it on its own.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from paiju.cards import Card
from paiju.log.prose import (
    Names,
    cards_text,
    code_name,
    event_line,
    is_automatic,
    pair,
    payment_text,
    per_seat,
    seat_name,
    seats_text,
)
from paiju.log.replay import Audit
from paiju.protocol import Dealt, Event, Played, SeedRevealed, encode
from paiju.registry import get_game
from paiju.words import Text, Words

# each status of the deal check (``paiju.log.deals.DealCheck``) in words
DEAL_STATUS: dict[str, Text] = {
    "verified": (
        "发牌与承诺值和种子相符",
        "the deal follows from the commitment and the seeds",
    ),
    "unrevealed": (
        "种子还没公开，发牌无法核对",
        "the seed is not revealed, so the deal cannot be checked",
    ),
    "no commitment before the deal": ("发牌前没有承诺值", "no commitment was made before the deal"),
    "the revealed seed does not match the commitment": (
        "公开的种子与承诺值不符",
        "the revealed seed does not match the commitment",
    ),
    "the dealt hands do not follow from the seeds": (
        "发的牌与种子不符",
        "the dealt hands do not follow from the seeds",
    ),
}


def findings(report: Audit) -> list[Text]:
    """The sentences that say what is wrong, or what an incomplete log leaves unchecked: a header
    that cannot be read, else the first bad event explained, else the deals that do not follow from
    their seeds and what the log leaves unchecked. Empty for a sound log."""
    if report.config is None:
        assert report.error is not None
        return [
            pair(
                ("第 1 行不是牌局日志的头：{zh}", "line 1 is not a Paiju log header: {en}"),
                zh=report.error.zh,
                en=report.error.en,
            )
        ]
    words = get_game(report.config.game).words
    if report.error is not None:
        return _explain(report, words)
    return _bad_deals(report) + ([] if report.complete else _unchecked(report, words))


def _bad_deals(report: Audit) -> list[Text]:
    return [
        pair(
            ("第{no}局的发牌有误：{status}", "the deal of hand {no} is wrong: {status}"),
            no=d.hand_no,
            status=DEAL_STATUS.get(d.status, (d.status, d.status)),
        )
        for d in report.deals
        if d.status not in ("verified", "unrevealed")
    ]


def _unchecked(report: Audit, words: Words) -> list[Text]:
    """What an incomplete log leaves unchecked."""
    out: list[Text] = []
    if report.cut_off is not None:
        line = len(report.events) + 2
        out.append(
            pair(
                (
                    "第 {line} 行（最后一行）不完整，无法读取：文件在这里中断",
                    "line {line}, the last, is cut short and cannot be read: the file stops there",
                ),
                line=line,
            )
        )
    if not report.events:
        out.append(
            (
                "日志只有牌局头，没有任何事件：发牌、出牌和计分都无法核对",
                "the log has its header and no event: no deal, move or score could be checked",
            )
        )
        return out
    state = report.state
    assert state is not None
    last = len(report.events) + 1  # the file's line of the last event
    phase = code_name(words.phases, state.phase)
    if state.phase in ("commit", "seeding") or state.hand_no == 0:
        out.append(
            pair(
                (
                    "日志在第 {line} 行后中断，下一局还没发牌（{phase}）",
                    "the log stops after line {line}, before the next deal ({phase})",
                ),
                line=last,
                phase=phase,
            )
        )
    elif state.phase == "reveal":
        out.append(
            pair(
                (
                    "日志在第 {line} 行后中断：第{no}局已计分，但种子没有公开，这一局的发牌无法核对",
                    "the log stops after line {line}: hand {no} is scored, but its seed is not "
                    "revealed, so its deal cannot be checked",
                ),
                line=last,
                no=state.hand_no,
            )
        )
    else:
        out.append(
            pair(
                (
                    "日志在第 {line} 行后中断，第{no}局还在进行（{phase}）：之后的出牌和这一局的计分"
                    "没有记录，种子没有公开，这一局的发牌无法核对",
                    "the log stops after line {line}, in the middle of hand {no} ({phase}): the rest "
                    "of its moves and its score are not recorded, and its seed is not revealed, so "
                    "its deal cannot be checked",
                ),
                line=last,
                no=state.hand_no,
                phase=phase,
            )
        )
    out.append(("比赛的结果（总分）无法核对", "the match's result (the totals) cannot be checked"))
    return out


def _explain(report: Audit, words: Words) -> list[Text]:
    """The first bad event in words: what the log says, and what the rules say instead."""
    err, i, state, names = report.error, report.bad_index, report.state, report.names
    assert err is not None and i is not None and state is not None
    line = i + 2
    if i >= len(report.events):
        return [
            pair(
                ("第 {line} 行无法读取：{zh}", "line {line} cannot be read: {en}"),
                line=line,
                zh=err.zh,
                en=err.en,
            )
        ]
    event, expected = report.events[i], report.expected
    seat = getattr(event, "seat", None)
    who = seat_name(seat, names) if isinstance(seat, int) else ("", "")
    if isinstance(event, Played) and err.code == "not_in_hand" and isinstance(seat, int):
        held = list(state.hands[seat]) if seat < len(state.hands) else []
        rest = list(held)
        missing = []
        for c in event.cards:
            if c in rest:
                rest.remove(c)
            else:
                missing.append(c)
        return [
            pair(
                (
                    "第 {line} 行：{who} 出了 {cards}，但这手牌里没有 {missing}；按发牌，这时这手牌是 {held}",
                    "line {line}: {who} played {cards}, but {missing} is not in that hand; by the "
                    "deal it held {held}",
                ),
                line=line,
                who=who,
                cards=cards_text(event.cards),
                missing=cards_text(missing),
                held=cards_text(held),
            )
        ]
    if isinstance(event, Dealt) and isinstance(expected, Dealt):
        return _deal_differs(line, event, expected, names)
    if isinstance(event, Dealt):
        return [
            pair(
                (
                    "第 {line} 行：第{no}局的发牌不对：{zh}",
                    "line {line}: the deal of hand {no} is wrong: {en}",
                ),
                line=line,
                no=event.hand_no,
                zh=err.zh,
                en=err.en,
            )
        ]
    if isinstance(event, SeedRevealed):
        return [
            pair(
                (
                    "第 {line} 行：公开的第{no}局种子与发牌前的承诺值不符",
                    "line {line}: the seed revealed for hand {no} does not match the commitment "
                    "made before its deal",
                ),
                line=line,
                no=event.hand_no,
            )
        ]
    said = event_line(event, words, names, is_automatic(report.events[i - 1] if i else None, event))
    turn = get_game(state.config.game).to_move(state)
    if err.code == "not_your_turn" and isinstance(seat, int) and isinstance(turn, int):
        return [
            pair(
                (
                    "第 {line} 行：“{said}”，但这时轮到的是 {turn}，不是 {who}",
                    "line {line}: “{said}”, but it was {turn}'s turn, not {who}'s",
                ),
                line=line,
                said=said,
                turn=seat_name(turn, names),
                who=who,
            )
        ]
    if expected is None:  # the rules refuse the command the event records
        return [
            pair(
                (
                    "第 {line} 行：“{said}”不合规则：{zh}",
                    "line {line}: “{said}” is against the rules: {en}",
                ),
                line=line,
                said=said,
                zh=err.zh,
                en=err.en,
            )
        ]
    if type(expected) is not type(event):
        return [
            pair(
                (
                    "第 {line} 行记录了“{said}”，但按规则这里应当是“{rules}”",
                    "line {line} records “{said}”, but by the rules what comes here is “{rules}”",
                ),
                line=line,
                said=said,
                rules=event_line(expected, words, names),
            )
        ]
    out = [
        pair(
            (
                "第 {line} 行：“{said}”与规则推导的不符",
                "line {line}: “{said}” does not follow from the rules",
            ),
            line=line,
            said=said,
        )
    ]
    for f in dataclasses.fields(event):
        logged, ruled = getattr(event, f.name), getattr(expected, f.name)
        if logged != ruled:
            out.append(
                pair(
                    (
                        "  {field}：日志记的是 {logged}，按规则是 {ruled}",
                        "  {field}: the log has {logged}, the rules give {ruled}",
                    ),
                    field=FIELD_NAMES.get(f.name, (f.name, f.name)),
                    logged=_value(event, f.name, logged, words, names),
                    ruled=_value(expected, f.name, ruled, words, names),
                )
            )
    return out


def _deal_differs(line: int, event: Dealt, expected: Dealt, names: Names | None) -> list[Text]:
    out = [
        pair(
            (
                "第 {line} 行：第{no}局的发牌与种子推导的不符",
                "line {line}: the deal of hand {no} does not follow from the seeds",
            ),
            line=line,
            no=event.hand_no,
        )
    ]

    def differ(logged: Sequence[Card], ruled: Sequence[Card], whose: Text) -> None:
        if list(logged) == list(ruled):
            return
        extra, missing = list(logged), []
        for c in ruled:
            if c in extra:
                extra.remove(c)
            else:
                missing.append(c)
        if not extra and not missing:
            out.append(
                pair(
                    (
                        "  {whose}的牌相同，但不是按发牌的顺序",
                        "  {whose}: the same cards, but not in the order dealt",
                    ),
                    whose=whose,
                )
            )
            return
        out.append(
            pair(
                (
                    "  {whose}：日志里有 {extra}，按种子应当是 {missing}",
                    "  {whose}: the log has {extra} where the seeds give {missing}",
                ),
                whose=whose,
                extra=cards_text(extra) if extra else ("（无）", "nothing"),
                missing=cards_text(missing) if missing else ("（无）", "nothing"),
            )
        )

    for seat in range(max(len(event.hands), len(expected.hands))):
        logged = event.hands[seat] if seat < len(event.hands) else ()
        ruled = expected.hands[seat] if seat < len(expected.hands) else ()
        differ(logged, ruled, seat_name(seat, names))
    differ(event.rest, expected.rest, ("底牌", "the undealt cards"))
    differ(event.face_up, expected.face_up, ("翻开的牌", "the cards turned face up"))
    if event.leader != expected.leader:
        out.append(
            pair(
                (
                    "  日志记 {logged} 先出，按规则是 {ruled}",
                    "  the log has {logged} to lead, the rules give {ruled}",
                ),
                logged=seat_name(event.leader, names),
                ruled=seat_name(expected.leader, names),
            )
        )
    return out


# the fields of the core's events, named
FIELD_NAMES: dict[str, Text] = {
    "seat": ("座位", "seat"),
    "cards": ("牌", "cards"),
    "card": ("牌", "card"),
    "kind": ("牌型", "combination"),
    "key": ("大小", "rank"),
    "stands_for": ("代替的牌", "what the wildcards stand for"),
    "hand_no": ("局数", "hand number"),
    "order": ("出完顺序", "finishing order"),
    "lines": ("付分", "payments"),
    "scores": ("得分", "scores"),
    "results": ("结果", "results"),
    "totals": ("总分", "totals"),
    "leader": ("先出", "first to play"),
    "bid": ("叫的话", "bid"),
    "on": ("开启", "on"),
    "reason": ("原因", "reason"),
}


def _value(event: Event, name: str, value: Any, words: Words, names: Names | None) -> Text:
    """A field's value in words: cards by their names, a seat by its number, a kind by its name,
    anything else in its JSON form."""
    encoded = encode(event).get(name)
    if name in ("seat", "leader", "payer", "payee") and isinstance(value, int):
        return seat_name(value, names)
    if name == "kind" and isinstance(value, str):
        return code_name(words.kinds, value)
    if isinstance(value, int) and isinstance(encoded, str) and not isinstance(value, bool):
        return cards_text([value])
    if (
        isinstance(value, tuple)
        and all(isinstance(c, int) for c in value)
        and isinstance(encoded, list)
        and all(isinstance(c, str) for c in encoded)
    ):
        return cards_text(value) if value else ("（无）", "none")
    if name == "order" and isinstance(value, tuple):
        return seats_text(value, names, " → ")
    if name == "lines" and isinstance(value, tuple):
        told = [payment_text(line, words, names) for line in value]
        return "；".join(t[0] for t in told), "; ".join(t[1] for t in told)
    if name in ("scores", "totals") and isinstance(value, tuple):
        return per_seat(value, names)
    text = json.dumps(encoded, ensure_ascii=False)
    text = text if len(text) <= 160 else text[:157] + "…"
    return text, text
