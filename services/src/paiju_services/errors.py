"""The services' own error catalogue, beside the engine's rule errors (``paiju.errors``).

A client always gets the same shape, over HTTP and in a WebSocket error frame::

    {"code": "...", "zh": "...", "en": "...", "cards": [...]}

Engine rule errors keep their engine code (``not_in_hand``, ``not_your_turn`` ...) and map to
HTTP 422; the codes below are the services' own. One function, ``error_body``, turns any error
into that shape; ``http_status`` gives its HTTP status.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import nats.errors

from paiju.errors import WIRE_MESSAGES, RuleError

# a table socket's refusals of a frame: the engine's words (a practice table says them too), and
# the HTTP status each has here
WIRE_STATUS = {
    "bad_json": 400,
    "bad_request": 400,
    "unknown_frame": 400,
    "bad_frame": 400,
    "not_your_seat": 403,
    "forbidden_command": 403,
    "id_reused": 409,
    "table_too_long": 409,
}

# code: (Chinese, English, HTTP status)
MESSAGES: dict[str, tuple[str, str, int]] = {
    **{code: (*WIRE_MESSAGES[code], status) for code, status in WIRE_STATUS.items()},
    "too_large": (
        "消息过大（上限 {limit} 字节）",
        "The message is too large (limit {limit} bytes)",
        413,
    ),
    "rate_limited": ("操作过于频繁，请稍后再试", "Too many messages: slow down", 429),
    "unauthorized": ("座位令牌无效", "The seat token is not valid at this table", 401),
    "not_seated": ("请先用座位令牌入座", "Take a seat with its token first", 401),
    "table_not_found": ("没有这张牌桌：{table}", "There is no table {table}", 404),
    "table_full": ("牌桌已满", "The table is full", 409),
    "seat_taken": ("座位 {seat} 已有人", "Seat {seat} is taken", 409),
    "no_such_seat": ("没有这个座位：{seat}", "There is no seat {seat}", 422),
    "not_finished": (
        "牌局尚未结束：完整日志在结束后公开",
        "The table is not finished: its full log is public once it ends",
        409,
    ),
    "bad_index": (
        "事件序号超出范围：0 到 {max}",
        "The event index is out of range: 0 to {max}",
        400,
    ),
    "bad_config": ("牌桌设置无效：{detail}", "Invalid table settings: {detail}", 422),
    "conflict": ("牌桌繁忙，请重试", "The table is busy: try again", 409),
    "bad_name": (
        "名字不能含控制字符或不可见的格式字符",
        "A name may not contain control characters or invisible format characters",
        400,
    ),
    "name_length": (
        "名字须为 1 到 {max} 个字符（去掉首尾空白后）",
        "A name is 1 to {max} characters long (once trimmed)",
        400,
    ),
    "too_many_hands": (
        "一场最多 {limit} 局",
        "A match has at most {limit} hands",
        422,
    ),
    "not_owner": (
        "只有房主可以这样做：{action}",
        "Only the table's owner may do this: {action}",
        403,
    ),
    "match_started": (
        "牌局已经开始：{action}",
        "The match has started: {action}",
        409,
    ),
    "table_closed": ("这张牌桌已关闭", "This table is closed", 409),
    "table_corrupt": (
        "牌桌 {table} 的记录未通过校验，已停止：请联系管理员",
        "The log of table {table} failed its check and the table is stopped: tell an operator",
        500,
    ),
    "table_expired": (
        "这张牌桌等人太久，已过期",
        "Nobody filled this table in time: it has expired",
        410,
    ),
    "unavailable": ("服务暂不可用，请稍后重试", "The service is unavailable: try again", 503),
    "overloaded": (
        "服务繁忙，请 {retry_after} 秒后重试",
        "The service is overloaded: try again in {retry_after} s",
        503,
    ),
    "bots_unavailable": ("机器人服务暂不可用", "The bots service is unavailable", 503),
    "not_found": ("没有这个地址：{path}", "Not found: {path}", 404),
    "method_not_allowed": ("不支持的请求方法", "Method not allowed", 405),
    "internal": ("服务器内部错误", "Internal server error", 500),
}

RULE_ERROR_STATUS = 422
# the codes that say the service is away or too busy now: a caller backs off and tries again
SERVICE_BUSY = frozenset({"unavailable", "overloaded"})


class ErrorBody(msgspec.Struct):
    """What a client reads: a stable code, a message in Chinese and in English, offending cards;
    ``retry_after``, seconds to wait before trying again, only where the code says when
    (``overloaded``; left out of the JSON otherwise)."""

    code: str
    zh: str
    en: str
    cards: list[str] = msgspec.field(default_factory=list)
    retry_after: int | msgspec.UnsetType = msgspec.UNSET


class ServiceError(Exception):
    """An error of the services, by code; ``params`` fill the message templates (a
    ``retry_after`` one is the body's field too)."""

    def __init__(self, code: str, **params: Any) -> None:
        zh, en, status = MESSAGES[code]
        self.code = code
        self.zh = zh.format(**params)
        self.en = en.format(**params)
        self.status = status
        self.retry_after: int | msgspec.UnsetType = params.get("retry_after", msgspec.UNSET)
        super().__init__(f"{code}: {self.en}")

    def body(self) -> ErrorBody:
        return ErrorBody(self.code, self.zh, self.en, retry_after=self.retry_after)


class RemoteError(Exception):
    """An error another service answered with (an engine rule error or a service error)."""

    def __init__(self, body: ErrorBody) -> None:
        self.error = body
        super().__init__(f"{body.code}: {body.en}")


class Unavailable(Exception):
    """A dependency failed (NATS, the event store, a KV bucket): the request may be retried."""


# failures of what a service depends on: answered ``unavailable`` (503, retryable), never
# ``internal``; nats.js.errors.Error is a nats.errors.Error
UNAVAILABLE = (Unavailable, nats.errors.Error, ConnectionError, TimeoutError, asyncio.TimeoutError)


def error_body(err: BaseException) -> ErrorBody:
    """The client-facing body of any error: a NATS or store failure says ``unavailable``, any
    other unknown error only ``internal``."""
    if isinstance(err, ServiceError):
        return err.body()
    if isinstance(err, RemoteError):
        return err.error
    if isinstance(err, RuleError):
        return ErrorBody(err.code, err.zh, err.en, list(err.cards))
    if isinstance(err, UNAVAILABLE):
        return ServiceError("unavailable").body()
    return ServiceError("internal").body()


def http_status(body: ErrorBody) -> int:
    entry = MESSAGES.get(body.code)
    return entry[2] if entry else RULE_ERROR_STATUS


def short(text: object, limit: int = 160) -> str:
    """A detail for an error message: one line, bounded."""
    out = " ".join(str(text).split())
    return out if len(out) <= limit else out[: limit - 1] + "…"
