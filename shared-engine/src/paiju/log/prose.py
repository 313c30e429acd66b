"""Events, results and seats in words: what the audit's report says of a log, and what the
terminal game says as it is played. Every sentence is a pair (zh, en); seats are numbered from 1
as the table shows them (1号位 / Seat 1, with the player's name when known), cards by their names
(``paiju.cards.card_names``), every code by its name in the game's words.

The small helpers here (``pair``, ``cards_text``, ``code_name``, ``seats_text``, ``per_seat``)
are the vocabulary the audit's findings and report write their sentences with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from paiju.cards import Card, card_names
from paiju.protocol import AutoPlayed, Event, ResultLine
from paiju.results import HandResult, LevelsAndBlood, Payments, PointsFanXi
from paiju.words import Text, Words

Names = Sequence[str | Text]  # a name per seat ("" for none): one text, or one per language


def seat_name(seat: int, names: Names | None = None) -> Text:
    """A seat as the table shows it: numbered from 1, with its player's name when known (a name
    may be a pair (zh, en), as "you" is).

    >>> seat_name(0), seat_name(2, ["甲", "乙", "Carol"]), seat_name(0, [("你", "you")])
    (('1号位', 'Seat 1'), ('3号位（Carol）', 'Seat 3 (Carol)'), ('1号位（你）', 'Seat 1 (you)'))
    """
    n = seat + 1
    name = names[seat] if names is not None and 0 <= seat < len(names) else ""
    zh, en = (name, name) if isinstance(name, str) else name
    if zh or en:
        return f"{n}号位（{zh}）", f"Seat {n} ({en})"
    return f"{n}号位", f"Seat {n}"


def pair(template: Text, **params: Any) -> Text:
    """A sentence in both languages: each param is a Text (one value per language) or a value
    shown alike in both."""

    def pick(lang: int) -> dict[str, Any]:
        return {k: v[lang] if isinstance(v, tuple) else v for k, v in params.items()}

    return template[0].format(**pick(0)), template[1].format(**pick(1))


def payment_text(line: Any, words: Words, names: Names | None) -> Text:
    """A payment line as a sentence: "1号位 付给 2号位 3（包牌成功）"."""
    return pair(
        ("{payer} 付给 {payee} {amount}（{reason}）", "{payer} pays {payee} {amount} ({reason})"),
        payer=seat_name(line.payer, names),
        payee=seat_name(line.payee, names),
        amount=line.amount,
        reason=code_name(words.reasons, line.reason),
    )


def cards_text(cards: Iterable[Card]) -> Text:
    cards = list(cards)
    return card_names(cards, "zh"), card_names(cards, "en")


def code_name(words: Mapping[str, Text], code: str) -> Text:
    return words.get(code, (code, code))


def seats_text(seats: Iterable[int], names: Names | None, zh_sep: str = "、") -> Text:
    named = [seat_name(s, names) for s in seats]
    return zh_sep.join(n[0] for n in named), ", ".join(n[1] for n in named)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def per_seat(values: Sequence[int], names: Names | None) -> Text:
    """A number per seat, signed: ``1号位 +3，2号位 -3`` / ``Seat 1 +3, Seat 2 -3``."""
    named = [(seat_name(s, names), _signed(v)) for s, v in enumerate(values)]
    return "，".join(f"{n[0]} {v}" for n, v in named), ", ".join(f"{n[1]} {v}" for n, v in named)


def _hand_header(no: int, order: Sequence[int], names: Names | None) -> Text:
    """A scored hand's first line, with its finishing order when the game has one."""
    if not order:
        return pair(("第{no}局", "hand {no}"), no=no)
    return pair(
        ("第{no}局 出完顺序：{order}", "hand {no}, finishing order: {order}"),
        no=no,
        order=seats_text(order, names, " → "),
    )


def _line_texts(lines: Iterable[Any], words: Words, names: Names | None) -> list[Text]:
    """Payments and result lines (``ScoreLine`` / ``ResultLine``), one indented line each."""
    out = []
    for line in lines:
        if isinstance(line, ResultLine):
            zh, en = pair(
                ("{seat}：{reason} {value}", "{seat}: {reason} {value}"),
                seat=seat_name(line.seat, names),
                reason=code_name(words.reasons, line.reason),
                value=line.value,
            )
        else:
            zh, en = payment_text(line, words, names)
        out.append((f"  {zh}", f"  {en}"))
    return out


def _scores_text(scores: Sequence[int], names: Names | None) -> Text:
    return pair(("  得分：{scores}", "  scores: {scores}"), scores=per_seat(scores, names))


def _payments_lines(record: Payments, words: Words, names: Names | None) -> list[Text]:
    """The finishing order, every payment, the net scores."""
    return [
        _hand_header(record.hand_no, record.order, names),
        *_line_texts(record.lines, words, names),
        _scores_text(record.scores, names),
    ]


def _levels_lines(record: LevelsAndBlood, words: Words, names: Names | None) -> list[Text]:
    """The attackers' points, the kitty, the levels each climbing seat gains, the blood, the
    match won; no order and no scores (there are none)."""
    lines: list[ResultLine | None] = [record.redeal, record.kitty]
    lines += [ResultLine("level_up", s, n) for s, n in enumerate(record.levels) if n]
    lines += [record.blood, *(ResultLine("match_won", s, 1) for s in record.match_won)]
    points = pair(
        ("  {reason}：{points}", "  {reason}: {points}"),
        reason=code_name(words.reasons, "points"),
        points=record.points,
    )
    told = _line_texts([line for line in lines if line is not None], words, names)
    return [_hand_header(record.hand_no, (), names), *([] if record.redeal else [points]), *told]


def _points_lines(record: PointsFanXi, words: Words, names: Names | None) -> list[Text]:
    """The finishing order, the points each seat holds, the 番, the 喜钱, the honours, the other
    payments and the net scores."""
    held = [(seat_name(s, names), v) for s, v in enumerate(record.points)]
    points = pair(  # unsigned: what each holds, not what it won or lost (the scores' line)
        ("  牌分：{points}", "  card points: {points}"),
        points=(
            "，".join(f"{n[0]} {v}" for n, v in held),
            ", ".join(f"{n[1]} {v}" for n, v in held),
        ),
    )
    fan = () if record.fan is None else (record.fan,)
    return [
        _hand_header(record.hand_no, record.order, names),
        points,
        *_line_texts((*fan, *record.honours, *record.xi, *record.lines), words, names),
        _scores_text(record.scores, names),
    ]


_TELLERS: dict[str, Callable[[Any, Words, Names | None], list[Text]]] = {
    Payments.KIND: _payments_lines,
    LevelsAndBlood.KIND: _levels_lines,
    PointsFanXi.KIND: _points_lines,
}


def result_lines(record: HandResult, words: Words, names: Names | None = None) -> list[Text]:
    """A scored hand in words, as its game's record has it (``paiju.results``): payments with
    the finishing order and net scores; 打棒's points, kitty, levels and blood; 打拱's points,
    番, 喜 and payments."""
    return _TELLERS[record.KIND](record, words, names)


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


AUTO_MARK: Text = ("（托管）", " (auto)")  # after the seat's name, on a play the server made
# lines of the table's life that every game tells alike and no game's words name (yet): used when
# the game's words have no line for the key
CORE_LINES: dict[str, Text] = {
    "auto_set.on.left": ("{name}离座，由托管代打", "{name} left; auto-play takes over"),
    "table_abandoned": (
        "牌桌无人在线，已结束（按当前比分）",
        "Nobody was connected: the table ended (scores as they stand)",
    ),
}


def event_line(event: Event, words: Words, names: Names | None, auto: bool = False) -> Text:
    """An event told as the game's words tell it (``Words.events``, by the event's ``line_key``,
    else its type), or by its type. ``auto``: the server decided it for the seat (it follows an
    ``auto_played``): the seat is named with 托管, "3号位（托管）出 ♠5"."""
    key = event.line_key()
    template = words.events.get(key) or CORE_LINES.get(key) or words.events.get(event.TYPE)
    seat = getattr(event, "seat", getattr(event, "leader", None))
    who = seat_name(seat, names) if isinstance(seat, int) else ("", "")
    if auto and isinstance(seat, int):
        who = who[0] + AUTO_MARK[0], who[1] + AUTO_MARK[1]
    if template is None:
        return f"{who[0]} {event.TYPE}".strip(), f"{who[1]} {event.TYPE}".strip()
    out = []
    for lang, text in enumerate(template):
        params = _Blank(name=who[lang], hand=getattr(event, "hand_no", ""))
        cards = getattr(event, "cards", None)
        if isinstance(cards, tuple):
            params["cards"] = cards_text(cards)[lang]
        card = getattr(event, "card", None)
        if isinstance(card, int):
            params["card"] = cards_text([card])[lang]
        kind = getattr(event, "kind", None)
        if isinstance(kind, str):
            params["kind"] = code_name(words.kinds, kind)[lang]
        level = getattr(event, "level", None)  # a bot's level (``bot_seated``)
        if isinstance(level, str):
            params["level"] = code_name(words.value_names.get("level", {}), level)[lang]
        for command, named in words.commands.items():
            value = getattr(event, command, None)
            if isinstance(value, str) and value in named:
                params[command] = named[value].badge[lang]
        out.append(text.format_map(params))
    return out[0], out[1]


def event_lines(events: Sequence[Event], words: Words, names: Names | None = None) -> list[Text]:
    """Events told one by one (``event_line``), each event a seat's command the server decided
    for it (the one after an ``auto_played`` of that seat) marked 托管."""
    return [
        event_line(e, words, names, auto=is_automatic(events[i - 1] if i else None, e))
        for i, e in enumerate(events)
    ]


def is_automatic(before: Event | None, event: Event) -> bool:
    return isinstance(before, AutoPlayed) and getattr(event, "seat", None) == before.seat
