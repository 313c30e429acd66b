"""Typed errors. A rule error carries a stable code, a message in Chinese and in English, and the
offending cards: a player reads the message, a program reads the code.

The catalogue is data: ``MESSAGES`` maps each code to its two message templates, so the browser,
the gateway and the tests all speak the same words. The core's codes (the table's flow, the deal,
the plays every climbing game checks, the audit) are here; each game declares its own in its words
(``paiju.words``) and registers them with ``register_messages`` when its module is imported.

A message names cards as a player reads them, in its own language (``paiju.cards.card_name``:
``♠A`` / ``A♠``), never by code: a parameter named in ``CARD_PARAMS`` (``{play}``, ``{lead}``,
``{card}``, ``{cards}``) may be given as codes (``"3C AS"``), a card or a sequence of cards, and
``RuleError`` writes it into the Chinese text with Chinese names and into the English text with
English ones. ``RuleError.cards`` keeps the codes, for programs.

>>> err = RuleError("does_not_beat", ["4S"], play="4S", lead="TH")
>>> err.zh, err.en, err.cards
('♠4 管不上 ♥10', '4♠ does not beat 10♥', ['4S'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.cards import Lang, card_name, parse_card

# the base classes live below paiju.cards, which raises NotationError; they are this module's too
from paiju.error_base import NotationError as NotationError
from paiju.error_base import PaijuError as PaijuError

# the template parameters whose values are cards: each message shows them by the cards' names
CARD_PARAMS = frozenset({"card", "cards", "play", "lead"})

CORE_MESSAGES: dict[str, tuple[str, str]] = {
    # table flow
    "wrong_phase": ("现在不能这样做（{phase}）", "That is not possible now ({phase})"),
    "not_your_turn": ("还没轮到你出牌", "It is not your turn"),
    "unknown_seat": ("没有这个座位：{seat}", "There is no seat {seat}"),
    "unknown_command": ("无法识别的指令：{command}", "Unknown command: {command}"),
    "bad_command": ("指令格式错误：{detail}", "Malformed command: {detail}"),
    # 托管, automatic plays and 继续 (the table's life)
    "already_auto": ("已经在托管中", "Auto-play is already on"),
    "not_auto": ("没有在托管", "Auto-play is not on"),
    "bad_auto_reason": ("无效的托管原因：{reason}", "Not a reason for auto-play: {reason}"),
    "already_continued": ("你已经按过继续了", "You have already pressed Continue"),
    "not_at_limit": (
        "牌局还没到事件数上限（{events} / {limit}）",
        "The table is not at its limit of events ({events} of {limit})",
    ),
    "seat_left": (
        "这个座位的玩家已离座，由托管代打",
        "This seat's player left; auto-play plays it",
    ),
    # a bot's seat and level (``SeatBot``)
    "unknown_level": (
        "没有这个机器人等级：{level}（可选：{known}）",
        "No such bot level: {level} (known: {known})",
    ),
    "bot_already_seated": ("这个座位已经记为机器人", "This seat is already recorded as a bot"),
    # table talk (快捷语, emotes)
    "unknown_talk": ("没有这句快捷语：{talk}", "No such phrase: {talk}"),
    "talk_too_often": (
        "说得太频繁了：每人在最近 {window} 步里最多说 {most} 句",
        "Too much talk: at most {most} phrases a seat in the last {window} steps",
    ),
    # the deal
    "bad_commitment": ("承诺值必须是64位十六进制", "A commitment must be 64 hex digits"),
    "seed_mismatch": ("种子与承诺值不符", "The seed does not match the commitment"),
    "seed_already_added": ("该座位已经加入过种子", "This seat has already added a seed"),
    "bad_seed": ("种子必须是1到128个字符", "A seed must be 1 to 128 characters"),
    "deal_mismatch": ("发牌与种子不符", "The dealt hands do not follow from the seeds"),
    # plays
    "not_in_hand": ("你手里没有这些牌：{play}", "These cards are not in your hand: {play}"),
    "empty_play": ("请选择要出的牌", "Choose the cards to play"),
    "invalid_combination": ("这不是合法的牌型：{play}", "Not a valid combination: {play}"),
    "does_not_beat": ("{play} 管不上 {lead}", "{play} does not beat {lead}"),
    "cannot_pass_lead": ("首家出牌不能不要", "You lead: you cannot pass"),
    "must_include_card": ("第一手牌必须包含 {card}", "The first play must include {card}"),
    "ambiguous_reading": (
        "这些牌有几种读法，请选择一种",
        "These cards can be read several ways: choose one",
    ),
    "bid_not_allowed": ("现在不能叫「{bid_zh}」", "You cannot bid {bid_en} now"),
    "reading_not_possible": (
        "{play} 不能当作这种牌型出",
        "{play} cannot be played as that combination",
    ),
    # tricks (paiju.tricks)
    "not_a_lead": ("这些牌不能首出：{play}", "These cards are no lead: {play}"),
    "wrong_number_of_cards": (
        "跟牌张数必须与首家相同：{play}",
        "Follow with as many cards as were led: {play}",
    ),
    "must_follow_suit": (
        "有首家出的花色必须跟：{play}",
        "You must follow the suit led: {play}",
    ),
    "must_follow_shape": (
        "必须按牌型跟牌（有棒出棒）：{play}",
        "You must follow the shape led (a pair for a pair): {play}",
    ),
    "unknown_game": (
        "没有这个游戏：{game}（已有：{known}）",
        "No such game: {game} (there are: {known})",
    ),
    # audit of an exported log
    "log_header": (
        "日志首行不是有效的牌局头：{detail}",
        "The log's first line is not a valid header: {detail}",
    ),
    "log_header_json": (
        "日志首行不是 JSON（第 {column} 个字符处有误）",
        "The log's first line is not JSON (wrong at character {column})",
    ),
    "log_header_kind": (
        "日志首行不是牌局日志的头（应为 paiju_log，格式版本 1 至 {latest}）",
        "The log's first line is not a Paiju log header (paiju_log, schema version 1 to {latest})",
    ),
    "log_header_field": (
        "日志首行的牌局设置缺少“{field}”",
        'The table settings in the log\'s first line have no "{field}"',
    ),
    "log_corrupt": ("无法解析的事件：{detail}", "An event cannot be read: {detail}"),
    "log_event_json": (
        "无法解析的事件：不是 JSON（第 {column} 个字符处有误）",
        "An event cannot be read: it is not JSON (wrong at character {column})",
    ),
    "unexpected_event": (
        "记录的事件（{event}）与规则推导的不符",
        "The recorded event ({event}) does not follow from the rules",
    ),
}

# A table socket's refusals of a frame before any rule is asked: the gateway's (its catalogue,
# paiju_services.errors, takes these words with their HTTP statuses) and a practice table's
# (paiju.practice_frames), in the same words
WIRE_MESSAGES: dict[str, tuple[str, str]] = {
    "bad_json": ("无法解析的 JSON：{detail}", "Malformed JSON: {detail}"),
    "bad_request": ("请求格式错误：{detail}", "Malformed request: {detail}"),
    "unknown_frame": ("未知的消息类型：{frame}", "Unknown message type: {frame}"),
    "bad_frame": ("消息格式错误：{detail}", "Malformed message: {detail}"),
    "not_your_seat": ("这不是你的座位：{seat}", "That is not your seat: {seat}"),
    "forbidden_command": (
        "座位不能发出这个指令：{command}",
        "A seat may not send this command: {command}",
    ),
    "table_too_long": (
        "牌桌的事件已达上限（{limit} 个），牌局已结束",
        "The table has reached its limit of {limit} events: the match has ended",
    ),
    "id_reused": (
        "请求编号 {id} 已用于另一个请求：请换一个新编号",
        "The request id {id} was used for a different request: use a new id",
    ),
}

# every code a RuleError may carry: the core's, and each imported game's
MESSAGES: dict[str, tuple[str, str]] = dict(CORE_MESSAGES)


def register_messages(messages: Mapping[str, tuple[str, str]]) -> None:
    """Add error codes and their (zh, en) templates to ``MESSAGES`` (a game's, from its words).
    Registering a code again with the same words changes nothing.

    Raises:
        ValueError: a code is already registered with other words (two games may not give one
            code two meanings).
    """
    for code, (zh, en) in messages.items():
        known = MESSAGES.get(code)
        if known is not None and tuple(known) != (zh, en):
            raise ValueError(f"error code {code!r} is already registered as {known!r}")
    for code, (zh, en) in messages.items():
        MESSAGES[code] = (zh, en)


class RuleError(PaijuError):
    """A command is against the rules (or against the table's flow).

    Attributes:
        code: stable machine-readable code, a key of ``MESSAGES``.
        zh, en: the message in Chinese and English.
        cards: the offending cards in canonical notation (may be empty).
    """

    def __init__(self, code: str, cards: list[str] | None = None, **params: Any) -> None:
        zh, en = MESSAGES[code]
        self.code = code
        self.cards = list(cards or [])
        self.params = params
        self.zh = zh.format(**_named(params, "zh"))
        self.en = en.format(**_named(params, "en"))
        super().__init__(f"{code}: {self.en}")

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "zh": self.zh, "en": self.en, "cards": self.cards}


def _named(params: Mapping[str, Any], lang: Lang) -> dict[str, Any]:
    """``params`` with every card parameter (``CARD_PARAMS``) written as the cards' names in
    ``lang``, and every (zh, en) pair of texts as its text in ``lang``; any other value (a free
    text, a number) is left as it is."""
    return {
        key: _card_text(value, lang) if key in CARD_PARAMS else _in_lang(value, lang)
        for key, value in params.items()
    }


def _in_lang(value: Any, lang: Lang) -> Any:
    """A (zh, en) pair of texts (a phase's name) in ``lang``; any other value as it is."""
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return value[0 if lang == "zh" else 1]
    return value


def _card_text(value: Any, lang: Lang) -> Any:
    items = value.split() if isinstance(value, str) else value
    if isinstance(value, int) and not isinstance(value, bool):
        items = [value]
    if not isinstance(items, list | tuple) or not items:
        return value
    try:
        cards = [parse_card(c) if isinstance(c, str) else c for c in items]
        return " ".join(card_name(c, lang) for c in cards)
    except (NotationError, TypeError):
        return value
