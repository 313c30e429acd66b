"""The log file's format: a header line (``paiju_log``, the schema version, the table and its
config, optionally the players' names), then one JSON event per line. Writing a log and reading it
back, line by line; docs/log-format.md describes the format for any language.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from paiju.api import config_from_dict
from paiju.errors import RuleError
from paiju.protocol import SCHEMA_VERSION, Event, decode, encode
from paiju.table import Config

HEADER_TYPE = "paiju_log"


def header(
    config: Config[Any], table_id: str | None = None, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The header line's object; ``names`` (the players' names, one per seat) only when given."""
    data = {"type": HEADER_TYPE, "v": SCHEMA_VERSION, "table": table_id, "config": config.to_dict()}
    if names is not None:
        data["names"] = list(names)
    return data


def dump_lines(
    config: Config[Any],
    events: Iterable[Event],
    table_id: str | None = None,
    names: Sequence[str] | None = None,
) -> list[str]:
    """The log as JSON lines: the header, then one event per line."""
    lines = [json.dumps(header(config, table_id, names), ensure_ascii=False)]
    lines += [json.dumps(encode(e), ensure_ascii=False) for e in events]
    return lines


def write_log(
    path: str,
    config: Config[Any],
    events: Iterable[Event],
    table_id: str | None = None,
    names: Sequence[str] | None = None,
) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(dump_lines(config, events, table_id, names)) + "\n")


def header_names(line: str, players: int) -> tuple[str, ...] | None:
    """The players' names a header line gives (its optional ``names``: one text per seat), or
    None when it gives none (or not one per seat)."""
    try:
        names = json.loads(line).get("names")
    except (ValueError, AttributeError):
        return None
    if isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names):
        return tuple(names)
    return None


def read_header(line: str) -> Config[Any]:
    """The config of a log from its header line.

    Raises:
        RuleError: ``log_header``.
    """
    return read_log_header(line)[0]


def read_log_header(line: str) -> tuple[Config[Any], int]:
    """The config of a log and its schema version (1 … ``SCHEMA_VERSION``) from its header line.
    A config of an older log lacks options added since: they take their defaults, which are the
    rules such a log was played under — or, for an option whose default changed, the game's
    ``options_before`` (``api.config_from_dict``).

    Raises:
        RuleError: ``log_header_json``, ``log_header_kind``, ``log_header_field``, or the config's
        own refusal (an unknown game, a bad option).
    """
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise RuleError("log_header_json", column=json_column(exc)) from None
    version = data.get("v") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("type") != HEADER_TYPE
        or not isinstance(version, int)
        or version not in range(1, SCHEMA_VERSION + 1)
    ):
        raise RuleError("log_header_kind", latest=SCHEMA_VERSION)
    config = data.get("config")
    if not isinstance(config, dict):
        raise RuleError("log_header_field", field="config")
    missing = next((key for key in ("game", "variant", "players") if key not in config), None)
    if missing is not None:
        raise RuleError("log_header_field", field=missing)
    try:
        return config_from_dict(config), version
    except RuleError:
        raise  # the config's own refusal, in its words
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RuleError("log_header", detail=str(exc)[:200]) from None


def json_column(exc: ValueError) -> int:
    """Where (1-based, in characters) ``json.loads`` found its line wrong."""
    return getattr(exc, "pos", 0) + 1


def decode_event(line: str) -> Event:
    """One event from its JSON line.

    Raises:
        RuleError: ``log_corrupt``.
    """
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise RuleError("log_event_json", column=json_column(exc)) from None
    try:
        message = decode(data)
    except (ValueError, RuleError) as exc:
        raise RuleError("log_corrupt", detail=str(exc)[:200]) from None
    if not isinstance(message, Event):
        raise RuleError("log_corrupt", detail=f"{message.TYPE} is a command, not an event")
    return message
