"""Typed errors. A rule error carries a stable code, a message in Chinese and in English, and the
offending cards: a player reads the message, a program reads the code.

The catalogue is data: ``MESSAGES`` maps each code to its two message templates, so the browser,
the gateway and the tests all speak the same words.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, tuple[str, str]] = {
    # table flow
    "wrong_phase": ("现在不能这样做（{phase}）", "That is not possible now ({phase})"),
    "not_your_turn": ("还没轮到你出牌", "It is not your turn"),
    "unknown_seat": ("没有这个座位：{seat}", "There is no seat {seat}"),
    "unknown_command": ("无法识别的指令：{command}", "Unknown command: {command}"),
    "bad_command": ("指令格式错误：{detail}", "Malformed command: {detail}"),
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
    "trio_single_not_last": (
        "三带一只能在最后一手牌时出",
        "三带一 (a triple with one card) may only be your last hand",
    ),
    "does_not_beat": ("{play} 管不上 {lead}", "{play} does not beat {lead}"),
    "cannot_pass_lead": ("首家出牌不能不要", "You lead: you cannot pass"),
    "must_beat": ("必管：你能管上，必须出牌", "必管: you can beat this play, so you must"),
    "must_play_highest": (
        "顶大：下家只剩一张牌，单张必须出你最大的牌",
        "顶大: your next player has one card left, a single must be your highest card",
    ),
    "must_include_card": ("第一手牌必须包含 {card}", "The first play must include {card}"),
    # bidding and calling
    "bid_not_allowed": ("现在不能叫「{bid_zh}」", "You cannot bid {bid_en} now"),
    "call_own_card": (
        "叫牌必须叫一张自己手里没有的牌：{card} 在你手里",
        "You must call a card you do not hold: {card} is in your hand",
    ),
    "card_not_in_pack": ("这副牌里没有 {card}", "There is no {card} in this pack"),
    # audit of an exported log
    "log_header": (
        "日志首行不是有效的牌局头：{detail}",
        "The log's first line is not a valid header: {detail}",
    ),
    "log_corrupt": ("无法解析的事件：{detail}", "An event cannot be read: {detail}"),
    "unexpected_event": (
        "事件与规则推导不符：应为 {expected}",
        "The event does not follow from the rules: expected {expected}",
    ),
}


class PaijuError(ValueError):
    """Base of every error the engine raises on bad input."""


class NotationError(PaijuError):
    """A text is not a card code."""

    def __init__(self, text: str) -> None:
        super().__init__(f"not a card: {text!r}")
        self.text = text


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
        self.zh = zh.format(**params)
        self.en = en.format(**params)
        super().__init__(f"{code}: {self.en}")

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "zh": self.zh, "en": self.en, "cards": self.cards}
