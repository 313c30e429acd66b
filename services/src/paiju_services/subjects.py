"""Every NATS name the services use, in one place: subjects, queue groups, the stream, KV buckets.

A table id is 16 lowercase hex digits, so it is one subject token and one KV key as it is.
"""

from __future__ import annotations

import re

STREAM = "PAIJU_EVENTS"
EVENTS_PREFIX = "paiju.events"  # the table's log: paiju.events.<table>
EVENTS_ALL = f"{EVENTS_PREFIX}.>"
# what the stream stored, republished by it on a core subject: paiju.stored.<table> (a feed's)
STORED_PREFIX = "paiju.stored"
STORED_ALL = f"{STORED_PREFIX}.>"

TABLES_CREATE = "paiju.tables.create"
TABLES_ALL = "paiju.tables.>"  # requests to the table service (a permission's pattern)
# a table's requests: to any copy (queue group), paiju.tables.<table>.<verb>, or to the copy that
# holds the table, paiju.tables.<table>.<verb>.<copy> (paiju_services.affinity)
TABLE_REQUESTS = "paiju.tables.*.*"
TABLE_QUEUE = "paiju-tables"
COPIES_TABLES = "paiju.copies.tables"  # each table-service copy announces itself here
BOTS_FILL = "paiju.bots.fill"
BOTS_QUEUE = "paiju-bots"
HEALTH_TABLES = "paiju.health.tables"
HEALTH_BOTS = "paiju.health.bots"
# presence: the seats a gateway copy holds sockets for, core NATS (paiju.presence.<table>)
PRESENCE_PREFIX = "paiju.presence"
PRESENCE_ALL = f"{PRESENCE_PREFIX}.>"

TABLES_BUCKET = "paiju_tables"  # table directory: config, seats (token hashes), status
SECRETS_BUCKET = "paiju_secrets"  # each table's secret base seed; never in the event stream
BOT_TOKENS_BUCKET = "paiju_bot_tokens"  # the bots service's seat tokens: <table>.<seat>
BOTS_CONSUMER = "paiju-bots"  # durable pull consumer of the bots service over TURNS_ALL
# a bot seat's turn as the table service offers it: that seat's view only (paiju.turns.<table>)
TURNS_STREAM = "PAIJU_TURNS"
TURNS_PREFIX = "paiju.turns"
TURNS_ALL = f"{TURNS_PREFIX}.>"

# message headers on every stored message. A message holds what one append added to the log, as
# JSON lines: one event (nearly every command), all the events of a command that caused several,
# or, first on a subject, the log's header line and the commitment to its first deal.
H_COMMAND = "Paiju-Command"  # the command id that caused its events
H_INDEX = "Paiju-Index"  # the log index of its first line (-1: the header line)
H_TYPE = "Paiju-Type"  # the type tag of each of its lines, in order, space-separated (paiju_log)
# in logs written before a command's events shared a message: "i/n", the i-th of the n messages
# of the command's atomic batch (read, never written)
H_BATCH = "Paiju-Batch"
H_DIGEST = "Paiju-Digest"  # HMAC of the command (a reused id with another command is refused)

TABLE_ID = re.compile(r"[0-9a-f]{16}")
COMMAND_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def events_subject(table_id: str) -> str:
    return f"{EVENTS_PREFIX}.{table_id}"


def turns_subject(table_id: str) -> str:
    return f"{TURNS_PREFIX}.{table_id}"


def presence_subject(table_id: str) -> str:
    return f"{PRESENCE_PREFIX}.{table_id}"


def table_subject(table_id: str, verb: str) -> str:
    """``verb`` is one of ``join``, ``command``, ``bots``, ``close``, ``leave``, ``rematch``."""
    return f"paiju.tables.{table_id}.{verb}"


def held_subject(table_id: str, verb: str, copy: str) -> str:
    """The request to the copy ``copy`` of the table service (its subject token)."""
    return f"paiju.tables.{table_id}.{verb}.{copy}"


def held_requests(copy: str) -> str:
    """What the copy ``copy`` listens on, besides the queue group: the tables it holds."""
    return f"paiju.tables.*.*.{copy}"


def table_of(subject: str) -> str:
    """The table id of an events subject, a table request subject, or a views, stored or
    presence subject."""
    return subject.split(".")[2]


def is_table_id(text: str) -> bool:
    return TABLE_ID.fullmatch(text) is not None
